"""Where two readings compete (issue 25, item 1): the recogniser's n-best holds the same
move with another colour nearly as likely, so farbspiel asks "Meinst du lila oder rosa?"
instead of yes or no, and the answer - one of the two colours, or "nein" / "keins davon" -
makes that move or none."""

from __future__ import annotations

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Alternative, Transcript
from voice.session.adapters import adapter_for
from voice.session.session import Session

COLOURS = {"de": ("lila", "rosa", "gelb"), "en": ("purple", "pink", "yellow")}
ASKED = {"de": "Meinst du lila oder rosa?", "en": "Did you mean purple or pink?"}
WHICH = {
    "de": "Welche denn: lila oder rosa? Oder sag nein.",
    "en": "Which one: purple or pink? Or say no.",
}


def amf(lang: str) -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), lang, Setup(("Anna", "Ben"), seed=1), out)
    session.start()
    session.hear("Anna")
    return session, out


def heard(text: str, confidence: float, *others: tuple[str, float]) -> Transcript:
    return Transcript(text, confidence, alternatives=tuple(Alternative(*o) for o in others))


def colours(session: Session) -> list[str | None]:
    return [a.args.get("colour") for a in session.actions]


def competing(lang: str) -> tuple[Session, RecordingOutput]:
    session, out = amf(lang)
    best, runner_up, _ = COLOURS[lang]
    session.hear_speech(heard(best, 0.55, (runner_up, 0.4)))
    return session, out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_competing_colours_are_asked_as_a_choice(lang):
    session, out = competing(lang)
    assert out.said[-1] == ASKED[lang]
    assert colours(session) == [None]  # nothing made yet
    assert session.awaiting is not None
    assert session.awaiting[0] == "choice"
    asked = [r for r in out.records if r.get("type") == "confirm"]
    assert asked[-1]["what"] == "choice"
    assert asked[-1]["action"]["args"]["colour"] == "purple"
    assert asked[-1]["other"]["args"]["colour"] == "pink"


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("answer, made", [(0, "purple"), (1, "pink")])
def test_naming_one_of_the_two_makes_that_move(lang, answer, made):
    session, out = competing(lang)
    session.hear_speech(heard(COLOURS[lang][answer], 0.8))
    assert colours(session) == [None, made]
    assert session.awaiting is None
    assert not any("richtig?" in line or "right?" in line for line in out.said)


@pytest.mark.parametrize(
    "lang, no", [("de", "nein"), ("de", "keins davon"), ("en", "no"), ("en", "neither")]
)
def test_no_or_none_of_them_makes_nothing(lang, no):
    session, out = competing(lang)
    session.hear_speech(heard(no, 0.8))
    assert colours(session) == [None]
    assert session.awaiting is None
    assert out.said[-2] in ("Gut, dann nicht.", "Alright, not then.")
    session.hear(COLOURS[lang][2])  # and the player says it again
    assert colours(session) == [None, "yellow"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_yes_or_a_third_colour_asks_again_which(lang):
    session, out = competing(lang)
    session.hear("ja" if lang == "de" else "yes")
    assert out.said[-1] == WHICH[lang]
    session.hear(COLOURS[lang][2])
    assert out.said[-1] == WHICH[lang]
    assert colours(session) == [None]
    assert session.awaiting is not None and session.awaiting[0] == "choice"
    session.hear(COLOURS[lang][1])
    assert colours(session) == [None, "pink"]


def test_nein_doch_gelb_answers_the_choice_with_a_third_colour():
    session, out = competing("de")
    session.hear("nein, doch gelb")
    assert session.awaiting is not None and session.awaiting[0] == "move"
    assert out.said[-1].endswith("richtig?")
    session.hear("ja")
    assert colours(session) == [None, "yellow"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_far_less_likely_other_colour_is_no_choice(lang):
    session, out = amf(lang)
    best, runner_up, _ = COLOURS[lang]
    session.hear_speech(heard(best, 0.6, (runner_up, 0.1)))
    assert ASKED[lang] not in out.said
    assert colours(session) == [None, "purple"]  # said back, as before


def test_commands_are_still_heard_while_the_choice_waits():
    session, out = competing("de")
    session.hear("wiederholen")
    assert out.said[-1] == "Meinst du lila oder rosa?"
    assert session.awaiting is not None and session.awaiting[0] == "choice"
    session.hear("rosa")
    assert colours(session) == [None, "pink"]


@pytest.mark.parametrize("lang, said", [("de", "den Ball rosa"), ("en", "the ball pink")])
def test_the_move_said_in_full_answers_the_choice(lang, said):
    session, out = competing(lang)
    session.hear_speech(heard(said, 0.8))
    assert colours(session) == [None, "pink"]
    assert session.awaiting is None
