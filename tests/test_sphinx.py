"""The real pocketsphinx recogniser on audio made by espeak-ng."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from speech import hear, needs_tts, utterance

from games.engine import Setup
from voice.output.sinks import NullOutput, RecordingOutput
from voice.recognition import sphinx
from voice.recognition.base import RecogniserError, transcribe
from voice.recognition.sphinx import SphinxRecogniser
from voice.session.adapters import adapter_for
from voice.session.session import Session
from voice.understanding.grammar import Grammar
from voice.understanding.intents import IntentParser
from voice.understanding.policy import Thresholds

pytestmark = [needs_tts, pytest.mark.slow]


def play_phrases(lang: str) -> list[str]:
    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), lang, setup, NullOutput())
    session.start()
    phrases = session.phrases()
    # and those of the next object: passing is refused while every colour fits number 1
    session.hear("rot" if lang == "de" else "red")
    return list(dict.fromkeys(phrases + session.phrases()))


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> SphinxRecogniser:
    cache = tmp_path_factory.mktemp("pron") / "en.json"
    recogniser = SphinxRecogniser("en", pronunciation_cache=cache)
    recogniser.set_phrases(play_phrases("en"))
    # a table starts with a few words before the first command
    hear(recogniser, utterance("hello everybody, let's play", "en-us", seed=9))
    return recogniser


def meaning(lang: str, text: str) -> tuple:
    adapter = adapter_for("alle-meine-farben")
    lists = adapter.dynamic_lists(Setup(("Anna", "Ben", "Cem")), lang)
    intent = IntentParser(Grammar(lang, "alle-meine-farben", lists)).parse(text)
    assert intent is not None, text
    return intent.name, intent.slots.get("colour")


def test_english_commands_are_recognised(english: SphinxRecogniser) -> None:
    said = ["I'll paint the ball purple", "which colours are allowed", "I pass", "yellow"]
    heard = [hear(english, utterance(text, "en-us", seed=i)) for i, text in enumerate(said)]
    assert [len(ts) for ts in heard] == [1, 1, 1, 1]
    assert [meaning("en", ts[0].text) for ts in heard] == [
        ("place", "purple"),
        ("allowed_colours", None),
        ("pass", None),
        ("place", "yellow"),
    ]
    assert all(ts[0].confidence > 0.5 for ts in heard)


def test_numbers_come_back_as_the_phrase_the_parser_knows(english: SphinxRecogniser) -> None:
    (transcript,) = hear(english, utterance("what's in row two", "en-us", seed=3))
    assert transcript.text == "what's in row 2"
    assert [w.word for w in transcript.words] == ["what's", "in", "row", "two"]
    assert transcript.words[0].start < transcript.words[-1].end < transcript.end


def test_a_clear_english_move_is_applied_without_asking(tmp_path: Path) -> None:
    """English moves are trusted from 0.95 (sphinx.THRESHOLDS): "I paint the ball red" said
    clearly is heard at about 0.96 and applied at once; the German threshold (0.97, which
    its confident mistakes need) would have asked "right?" first."""
    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), "en", setup, out)
    session.start()
    english = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    english.set_phrases(session.phrases())
    hear(english, utterance("hello everybody, let's play", "en-us", seed=9))
    session.policy = session.policy.for_recogniser(english)
    (transcript,) = hear(english, utterance("I paint the ball red", "en-us", seed=2))
    assert sphinx.THRESHOLDS["en"].act <= transcript.confidence < sphinx.THRESHOLDS["de"].act
    session.hear_speech(transcript)
    placed = [r for r in out.records if r.get("type") == "placed"]
    assert [(p["number"], p["colour"]) for p in placed] == [(1, "red")]
    assert not [r for r in out.records if r.get("type") == "confirm"]


def test_table_talk_gets_a_low_confidence(tmp_path: Path) -> None:
    # a recogniser of its own: what the shared one heard before (another test, on
    # another xdist worker order) moves the phone loop's normalisation, and so this score
    english = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    english.set_phrases(play_phrases("en"))
    hear(english, utterance("hello everybody, let's play", "en-us", seed=9))
    talk = ["the weather is really lovely today", "could you pass me the water please"]
    ignore = Thresholds().ignore  # below this the policy ignores what it heard
    for i, text in enumerate(talk):
        for transcript in hear(english, utterance(text, "en-us", seed=20 + i)):
            # well below: the phase's grammar also holds the table questions ("where is
            # the lamp?"), which the talk comes nearest to (0.07 and 0.09)
            assert transcript.confidence < 0.6 * ignore, transcript


def test_german_through_the_english_model(tmp_path: Path) -> None:
    """German words said the German way reach the en-us model; where it mistakes a colour
    (it does: see the benchmark), the confidence is too low to act on without asking."""
    recogniser = SphinxRecogniser("de", pronunciation_cache=tmp_path / "de.json")
    recogniser.set_phrases(play_phrases("de"))
    hear(recogniser, utterance("Hallo zusammen, wir fangen an", "de", seed=9))
    said = {
        "Ich male den Ball blau an": "blue",
        "den Ball grün": "green",
        "orange für den Ball": "orange",
        "lila": "purple",
    }
    right = 0
    for i, (text, colour) in enumerate(said.items()):
        (transcript,) = hear(recogniser, utterance(text, "de", seed=i))
        if meaning("de", transcript.text) == ("place", colour):
            right += 1
        else:
            assert transcript.confidence < Thresholds().act, transcript
    assert right >= 3
    recogniser.set_phrases(["ja", "nein", "ja genau", "nein falsch"])
    (answer,) = hear(recogniser, utterance("nein", "de", seed=2))
    assert answer.text == "nein"


def test_german_forties_are_not_heard_as_fifties(tmp_path: Path) -> None:
    """Pantone's card numbers: "Karte 145" said by a German voice is 145, not 155 (the
    word "…undvierzig" was listened for the way espeak-ng reads the written word, with v
    and a long i, and the en-us model took the fünfzig it actually heard)."""
    from voice.bench.reference import ReferencePlay

    moments = ReferencePlay("pantone", "de").moments()
    choosing = next(m for m in moments.values() if "karte 145" in m.phrases)
    recogniser = SphinxRecogniser("de", pronunciation_cache=tmp_path / "de.json")
    recogniser.set_phrases(choosing.phrases)
    said = {"Karte 141": "141", "Nummer 146": "146", "Karte 145": "145", "Karte 142": "142"}
    heard = [hear(recogniser, utterance(text, "de", seed=i)) for i, text in enumerate(said)]
    from words.numbers import number_words

    def number(text: str) -> str:  # "karte 145" and "karte einhundert fünfundvierzig"
        words = "".join(text.split()[1:])
        return next(
            (str(n) for n in range(100, 200) if words in (str(n), *number_words(n, "de"))), words
        )

    numbers = [number(t.text) for (t,) in heard]
    assert sum(n == want for n, want in zip(numbers, said.values(), strict=True)) >= 3, numbers


def test_silence_and_empty_audio_give_nothing(tmp_path: Path) -> None:
    recogniser = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    recogniser.set_phrases(["yes", "no"])
    assert list(transcribe(recogniser, [])) == []
    assert list(transcribe(recogniser, [b"\0\0" * 16000] * 3)) == []
    assert recogniser.accept(b"") is None
    assert recogniser.accept(b"\x01") is None  # half a sample waits for the rest
    assert recogniser.finish() is None


def test_reset_forgets_an_utterance_half_heard(tmp_path: Path) -> None:
    recogniser = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    recogniser.set_phrases(["yes", "no"])
    audio = utterance("no", "en-us", seed=4)
    half = len(audio) // 2 // 2 * 2
    hear(recogniser, audio[:half])
    recogniser.reset()
    assert recogniser.finish() is None


def test_bad_phrase_lists_never_reach_the_engine(tmp_path: Path) -> None:
    recogniser = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    with pytest.raises(RecogniserError, match="set_phrases"):
        recogniser.accept(b"\0\0" * 800)
    for bad in ([], [""], ["   "], ["yes", "n@"]):
        with pytest.raises(ValueError):
            recogniser.set_phrases(bad)


def test_unknown_language_and_missing_model_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(RecogniserError, match="de and en"):
        SphinxRecogniser("fr")
    with pytest.raises(RecogniserError, match="pip install --force-reinstall pocketsphinx"):
        SphinxRecogniser("en", model_dir=tmp_path)


def test_an_utterance_longer_than_any_command_is_never_trusted_enough_to_act(
    english: SphinxRecogniser, monkeypatch
) -> None:
    """Other voices kept the utterance open (babble at the table): whatever it heard in
    it, a move from it is confirmed first, and a "yes" in it is not taken. Shown with a
    clear command and the limit lowered below its length."""
    from voice.recognition import sphinx

    said = utterance("I'll paint the ball purple", "en-us", seed=5)
    (clear,) = hear(english, said)
    assert clear.confidence > sphinx.LONG_UTTERANCE_CONFIDENCE + 0.1  # trusted alone
    monkeypatch.setattr(sphinx, "LONG_UTTERANCE", 0.5)
    (long,) = hear(english, said)
    assert long.text == clear.text
    total = long.confidence + sum(a.confidence for a in long.alternatives)
    assert total <= sphinx.LONG_UTTERANCE_CONFIDENCE + 1e-9
    assert sphinx.LONG_UTTERANCE_CONFIDENCE < min(Thresholds().act, Thresholds().affirm)


def test_a_voice_barely_above_the_room_is_never_acted_on(tmp_path: Path) -> None:
    """Someone across a loud room (3 dB over its noise) is not the player at the
    microphone: whatever the recogniser makes of it, it is trusted too little to act."""
    recogniser = SphinxRecogniser("en", pronunciation_cache=tmp_path / "en.json")
    recogniser.set_phrases(play_phrases("en"))
    hear(recogniser, utterance("hello everybody, let's play", "en-us", seed=9, snr=3))
    heard = hear(recogniser, utterance("I pass", "en-us", seed=3, snr=3))
    heard += hear(recogniser, utterance("yellow", "en-us", seed=5, snr=3))
    assert [t for t in heard if t.text]
    assert all(t.confidence < Thresholds().ignore for t in heard)


def _amf_session(lang: str, recogniser: SphinxRecogniser) -> Session:
    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), lang, setup, NullOutput())
    session.start()
    session.policy = session.policy.for_recogniser(recogniser)
    recogniser.set_phrases(session.phrases())
    return session


def _say(session: Session, recogniser: SphinxRecogniser, text: str, voice: str) -> list[str]:
    heard = []
    for transcript in hear(recogniser, utterance(text, voice, seed=4)):
        heard.append(transcript.text)
        session.hear_speech(transcript)
    return heard


@pytest.mark.parametrize(
    ("lang", "voice", "taken_back", "move"),
    [("de", "de", "lila? Nee.", "lila"), ("en", "en-us", "purple? no", "yellow")],
)
def test_a_colour_asked_and_taken_back_is_never_a_move(
    tmp_path: Path, lang: str, voice: str, taken_back: str, move: str
) -> None:
    """The pause after a questioning "lila?" is longer than the end of a sentence: a lone
    colour that would be applied at once waits for it, so "lila? Nee." is heard as one
    utterance of table talk rather than the move "lila" followed by a "nee" too late to
    matter. One that is only confirmed does not wait: the "nee" answers the question."""
    recogniser = SphinxRecogniser(lang, pronunciation_cache=tmp_path / f"{lang}.json")
    session = _amf_session(lang, recogniser)
    heard = _say(session, recogniser, taken_back, voice)
    assert session.actions == [], heard  # never a move, waited for or asked about
    # an engine sure enough to act on these clips at once waits for the question's pause
    sure = SphinxRecogniser(lang, pronunciation_cache=tmp_path / f"{lang}.json")
    sure.thresholds = replace(sure.thresholds, act=0.5)
    session = _amf_session(lang, sure)
    heard = _say(session, sure, taken_back, voice)
    assert len(heard) == 1, heard
    assert session.actions == [] and session.awaiting is None, heard
    # the colour alone is still the move, at once
    heard = _say(session, sure, move, voice)
    assert len(session.actions) == 1, heard


def test_german_au_is_not_heard_as_rot(tmp_path: Path) -> None:
    """Farben: a player shows "braun" or "grau". German au listened for as the English AW
    fitted worse than "rot" (R OW T): espeak-ng's de heard "grau" as "rot" and "braun"
    as another colour (pronounce.py, "aʊ": the en-us model hears AA OW)."""
    colours = [p for p, _ in Grammar("de", "farben").phrases(["reveal"]) if " " not in p]
    recogniser = SphinxRecogniser("de", pronunciation_cache=tmp_path / "de.json")
    recogniser.set_phrases(colours)
    heard = {
        word: [t.text for t in hear(recogniser, utterance(word, "de", seed=i))]
        for i, word in enumerate(["braun", "grau", "blau"])
    }
    assert all(texts == [word] for word, texts in heard.items()), heard


def test_german_long_e_is_not_heard_as_an_english_ay(tmp_path: Path) -> None:
    """Farben's stack chooser: "Der Stapel Kaffee" was heard as "der stapel party"
    while German long e was listened for as the English EY glide (pronounce.py, "eː": the
    en-us model hears a German e as IY)."""
    from voice.bench.reference import ReferencePlay

    moments = ReferencePlay("farben", "de").moments()
    stacks = next(m for m in moments.values() if "der stapel kaffee" in m.phrases)
    assert "der stapel party" in stacks.phrases  # the word it was taken for is there too
    recogniser = SphinxRecogniser("de", pronunciation_cache=tmp_path / "de.json")
    recogniser.set_phrases(stacks.phrases)
    heard = [
        [t.text for t in hear(recogniser, utterance(text, "de", seed=i))]
        for i, text in enumerate(["Der Stapel Kaffee", "Ich nehme den Stapel Kaffee"])
    ]
    assert all(len(texts) == 1 and "kaffee" in texts[0] for texts in heard), heard


def test_german_short_e_is_heard_in_gelb(tmp_path: Path) -> None:
    """Farben: a player shows yellow. German short e listened for only as the English EH
    left "gelb" to other colours ("Ich habe gelb gewählt" heard as "ich habe die rot
    karte" at 0.92); the en-us model hears it as IH as often (pronounce.py, "ɛ")."""
    phrases = [p for p, _ in Grammar("de", "farben").phrases(["reveal"])]
    recogniser = SphinxRecogniser("de", pronunciation_cache=tmp_path / "de.json")
    recogniser.set_phrases(phrases)
    said = ["gelb", "Ich habe gelb gewählt", "Meine Farbe ist gelb", "Ich nehme gelb"]
    heard = [[t.text for t in hear(recogniser, utterance(text, "de", seed=i))]
             for i, text in enumerate(said)]  # fmt: skip
    assert all(len(texts) == 1 and "gelb" in texts[0].split() for texts in heard), heard
