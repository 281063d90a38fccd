"""Questions the templates do not list are found by their key words (issue 24): the words of
an intent's sentences that few other intents use. Only questions that tell something, only
when the utterance asks, and table talk questions stay table talk."""

from __future__ import annotations

import pytest
from test_frames import said_to, table

STARTED = {"en": ["Anna starts"], "de": ["Anna fängt an"]}


@pytest.mark.parametrize(
    ("game", "lang", "line", "intent"),
    [("farben", "en", "how many rounds have we played so far?", "status"),
     ("farben", "de", "welche Wörter stehen da drauf?", "words"),
     ("farben", "en", "so who goes next then?", "whose_turn"),
     ("farben", "en", "how are the points looking?", "score"),
     ("farben", "de", "wie sind die Punkte eigentlich?", "score"),
     ("alle-meine-farben", "de", "wie sieht das ganze Brett aus?", "whole_board")],
)  # fmt: skip
def test_a_question_in_words_nobody_listed_is_answered(game, lang, line, intent) -> None:
    session = table(game, lang, STARTED[lang] if game == "farben" else [])
    phase = session.phase()
    found = session.parser.parse(line, phase.intents, phase.slots)
    assert found is not None and found.name == intent


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "who wants more pizza?"), ("en", "what did you do at school today?"),
     ("en", "oh come on"), ("de", "wer hat den Saft?"), ("de", "was gibt's zum Abendessen?"),
     ("de", "na komm schon")],
)  # fmt: skip
def test_a_question_to_the_table_stays_table_talk(lang: str, line: str) -> None:
    session = table("farben", lang, [])
    said, kinds = said_to(session, line)
    assert said == [] and kinds == ["ignored"]


def test_a_question_as_near_to_two_intents_is_not_understood() -> None:
    """ "all those words" is as much about the words as about the stacks left, by its words
    and by how it runs: nothing is answered rather than the wrong one. "What were all
    those words" runs like "what were the words": the words are read."""
    session = table("farben", "en", [])
    phase = session.phase()
    assert session.parser.parse("all those words", phase.intents, phase.slots) is None
    found = session.parser.parse("what were all those words", phase.intents, phase.slots)
    assert found is not None and found.name == "words"


def test_a_question_with_a_value_is_left_to_the_guarded_fallback() -> None:
    """ "who had green anyway?" names a colour: no question intent finds it by key words."""
    session = table("farben", "en", [])
    phase = session.phase()
    assert session.parser.parse("who had green anyway?", phase.intents, phase.slots) is None


def test_a_question_about_a_value_as_near_to_two_goes_to_the_one_it_runs_like() -> None:
    """ "Which colour is the bird?" asks for the bird's colour as much by its words as
    "which colours can the bird get": its word pairs are those of the colour question."""
    session = table("alle-meine-farben", "en", ["blue", "red"])
    found = session.parser.parse("Which colour is the bird?", None, {})
    assert found is not None and found.name == "object_colour", found


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [
        # about oneself in common words only: no question about one's colours left
        ("en", "I've forgotten what I even said, sorry Ben.", None),
        ("de", "Ich hab vergessen, was ich überhaupt erzählt hab, sorry Jonas.", None),
        ("en", "Wait, undo that, that's not what I meant to say.", "undo"),
        ("en", "What colours has Anna got left?", "colours_left"),
    ],
)
def test_a_question_about_oneself_needs_its_own_words(lang: str, text: str, intent) -> None:
    from tests.test_remarks_and_tries import parse

    found = parse("farben", lang, "naming", text)
    assert (found or {}).get("intent") == intent, found
