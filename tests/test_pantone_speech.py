"""Pantone guesses spoken to the real pocketsphinx recogniser (audio by espeak-ng): a wrong
guess of a well-known character is heard as that character, not snapped onto the deck
name that sounds most like it, and a negation is heard as a negation."""

from __future__ import annotations

import pytest
from speech import hear, needs_tts, utterance

from games.engine import Setup
from voice.output.sinks import NullOutput
from voice.recognition.sphinx import SphinxRecogniser, _posteriors
from voice.session.adapters import adapter_for
from voice.session.session import Session

pytestmark = [needs_tts, pytest.mark.slow]


@pytest.fixture(scope="module")
def window(tmp_path_factory) -> tuple[Session, SphinxRecogniser]:
    """Ben's guess window (Anna paints card 1, Mr. Potato Head) and a recogniser on it."""
    return _window(tmp_path_factory)


@pytest.fixture
def fresh_window(tmp_path_factory) -> tuple[Session, SphinxRecogniser]:
    """The same with a recogniser of its own: pocketsphinx adapts to what it heard
    before, so a test that compares its scores must not depend on which tests ran before
    it in the same process (the parallel suite shares module fixtures in any order)."""
    return _window(tmp_path_factory)


def _window(tmp_path_factory) -> tuple[Session, SphinxRecogniser]:
    adapter = adapter_for("pantone")
    setup = Setup(("Anna", "Ben", "Cem"), 3, "Anna", adapter.default_options("en"))
    session = Session(adapter, "en", setup, NullOutput())
    session.start()
    session.hear("card 1")
    session.hear("done")
    cache = tmp_path_factory.mktemp("pron") / "en.json"
    recogniser = SphinxRecogniser("en", pronunciation_cache=cache)
    recogniser.set_phrases(session.phrases(), session.phrase_names())
    # a table talks a little before the first guess (the engine adapts to the room)
    hear(recogniser, utterance("hello everybody, let's play", "en-us", seed=9))
    return session, recogniser


@pytest.mark.parametrize(
    ("said", "meaning"),
    [
        ("is it bambi", ("guess", "Bambi")),
        ("princess peach", ("guess", "Princess Peach")),
        ("scrooge mcduck", ("guess", "Scrooge McDuck")),
        ("is it donald duck", ("guess", "Donald Duck")),
        ("it's not mickey", ("thinking", "Mickey")),
        # names of several words are one word to the decoder: before, its word beam
        # dropped the end of "mister" and these were heard as Easter Bunny and Kiki
        ("my guess is mr. potato head", ("guess", "Mr. Potato Head")),
        ("is it e.t.", ("guess", "E.T.")),
    ],
)
def test_spoken_guesses_are_heard_as_said(window, said: str, meaning: tuple) -> None:
    session, recogniser = window
    recogniser.reset()
    heard = hear(recogniser, utterance(said, "en-us", seed=len(said)))
    assert len(heard) == 1, [t.text for t in heard]
    phase = session.phase()
    intent = session.parser.parse(heard[0].text, phase.intents, phase.slots)
    assert intent is not None, heard[0].text
    assert (intent.name, intent.slots.get("character")) == meaning, heard[0].text


def test_the_alternatives_are_ready_at_the_pause_and_the_same(window, monkeypatch) -> None:
    """The n-best list of a guess is built when the pause begins, not after it (for this
    grammar pocketsphinx's lattice takes 0.1-1.7 s), and it is the list the end of the
    utterance would have built: the player gets the same answer, sooner."""
    _, recogniser = window
    built_at: list[bool] = []
    build = SphinxRecogniser._nbest_scores
    end = SphinxRecogniser._end_utterance
    compared: list[tuple] = []

    def counted(self: SphinxRecogniser):
        built_at.append(self._endpointer.in_utterance)  # still listening to the pause?
        return build(self)

    def ending(self: SphinxRecogniser):
        prepared = self._nbest
        transcript = end(self)
        compared.append((prepared, build(self)))  # the decoder still holds this decode
        return transcript

    monkeypatch.setattr(SphinxRecogniser, "_nbest_scores", counted)
    monkeypatch.setattr(SphinxRecogniser, "_end_utterance", ending)
    recogniser.reset()
    (heard,) = hear(recogniser, utterance("i think it's mr potato head", "en-us", seed=4))
    assert built_at == [True]  # once, while the pause was still going on
    ((prepared, at_the_end),) = compared
    # the same sentences, as likely (the second decoder's noise estimate has moved on a
    # little since, so its scores are not the very same numbers)
    assert list(_posteriors(prepared[0])) == list(_posteriors(at_the_end[0]))
    for text, p in _posteriors(prepared[0]).items():
        assert abs(p - _posteriors(at_the_end[0])[text]) < 0.01
    # the name's two spellings sound alike: one word to the decoder, so its
    # probability is not split between them
    assert heard.text in ("i think it's mr potato head", "i think it's mister potato head")
    assert not [a.text for a in heard.alternatives if "potato head" in a.text]


@pytest.mark.parametrize(
    ("said", "heard_as"),
    [
        # the grammar explains its first half as "pass" and the rest as silence
        ("i have no clue what that is meant to be", "i have no clue"),
    ],
)
def test_table_talk_the_grammar_cannot_explain_is_not_taken(window, said, heard_as) -> None:
    """In a quiet room, an utterance whose speech the grammar's best path leaves to
    silence was something else: it is not taken for the move it begins like."""
    session, recogniser = window
    recogniser.reset()
    heard = hear(recogniser, utterance(said, "en-us", seed=3))
    assert heard, "nothing heard"
    assert heard[0].text == heard_as  # what it begins like
    assert recogniser.details["unexplained"] > 0.3, recogniser.details
    # trusted less than the play policy's "ignore": not confirmed, not asked about
    assert all(t.confidence < recogniser.thresholds.ignore for t in heard), heard


@pytest.mark.parametrize(
    ("said", "character"),
    [
        ("is it donald duck", "Donald Duck"),
        ("is it the grinch", "The Grinch"),
        ("i think it's goofy", "Goofy"),
        ("is it cinderella", "Cinderella"),
    ],
)
def test_the_guess_is_weighed_against_a_few_likely_names(
    fresh_window, monkeypatch, said, character
) -> None:
    """The guess grammar holds hundreds of names, and pocketsphinx's lattice over all of
    them took most of a second (the player waited for the answer); the n-best list comes
    from a second decode with the names cut down to the likely ones. It holds the name
    that was said, and the guess is as sure as the lattice over every name made it."""
    from voice.recognition import sphinx

    session, recogniser = fresh_window
    narrow = recogniser._grammar.narrow
    assert narrow is not None and len(narrow.values) > 10 * sphinx.NARROW_VALUES
    lists: list[tuple[dict, dict]] = []
    build = SphinxRecogniser._nbest_scores

    def both(self: SphinxRecogniser):
        self._grammar.narrow = None  # the lattice of the whole grammar, as before
        try:
            whole = build(self)
        finally:
            self._grammar.narrow = narrow
        narrowed = build(self)
        lists.append((whole[0], narrowed[0]))
        return narrowed

    monkeypatch.setattr(SphinxRecogniser, "_nbest_scores", both)
    recogniser.reset()
    (heard,) = hear(recogniser, utterance(said, "en-us", seed=len(said)))
    phase = session.phase()
    intent = session.parser.parse(heard.text, phase.intents, phase.slots)
    assert intent is not None, heard.text
    assert (intent.name, intent.slots.get("character")) == ("guess", character), heard.text
    assert len(recogniser._likely_values(narrow)) <= sphinx.NARROW_VALUES + 2  # not hundreds
    ((whole, narrowed),) = lists
    assert heard.text in narrowed

    def sure(sentences: dict) -> float:  # the Viterbi winner heads the list (as in play)
        return _posteriors(sentences | {heard.text: max(sentences.values())})[heard.text]

    assert abs(sure(whole) - sure(narrowed)) < 0.02, (whole, narrowed)
