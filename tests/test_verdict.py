"""The Artist's verdict on a guess in the family's own words (Pantone;
voice/understanding/verdict.py, issue 24): read by its cues, one side only, nothing more
said than a verdict, never from a question."""

from __future__ import annotations

import pytest

from tests.test_remarks_and_tries import parse, understood

JUDGING = {"en": "judging", "de": "urteilen"}


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [
        ("en", "Got it in one!", "correct"),
        ("en", "That's right, well done Ben.", "correct"),
        ("en", "Yep, it's Pinocchio.", "correct"),
        ("en", "Nah, not even close.", "wrong"),
        ("en", "No, sorry, it's not Pinocchio.", "wrong"),
        ("en", "No no no. Pinocchio? What? No.", "wrong"),
        ("de", "Jawoll, sauber, Ben.", "correct"),
        ("de", "Leider nein.", "wrong"),
        ("de", "Nö, der Pumuckl isses net.", "wrong"),
        ("de", "Quatsch, wie kommst du denn auf Pumuckl? Falsch.", "wrong"),
    ],
)
def test_a_verdict_in_own_words_is_understood(lang: str, text: str, intent: str) -> None:
    found = parse("pantone", lang, JUDGING[lang], text)
    # a plain yes or no ("nö, ...") is the verdict already: the session makes it one
    as_verdict = {"affirm": "correct", "deny": "wrong"}
    assert found is not None and as_verdict.get(found["intent"], found["intent"]) == intent


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Yes! Did I get it?"),  # the guesser asks
        ("en", "No way, he got it!"),  # both sides
        ("en", "No way, that's so hard"),  # more than a verdict
        ("de", "Ist es richtig?"),
        ("de", "Nee, das ist echt schwer"),
    ],
)
def test_talk_and_questions_while_judging_make_no_verdict(lang: str, text: str) -> None:
    found, session = understood("pantone", lang, JUDGING[lang], text)
    before = len(session.actions)
    session.hear(text)
    assert len(session.actions) == before, (text, found)


def test_the_verdict_in_own_words_is_made_at_the_table() -> None:
    found, session = understood("pantone", "en", "judging", "Nah, not even close.")
    before = len(session.actions)
    session.hear("Nah, not even close.")
    assert len(session.actions) == before + 1
    assert session.actions[-1].name == "wrong"
