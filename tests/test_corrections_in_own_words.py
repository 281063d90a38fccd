"""A move corrected right after it in the player's own words (issue 24): the colour said
and the move's colour denied, or what was said referred to; always asked first."""

from __future__ import annotations

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput as Recorder
from voice.session.adapters import ADAPTERS
from voice.session.session import Session

MOVES = {"de": ["Anna", "blau", "rot", "lila"], "en": ["Anna", "blue", "red", "purple"]}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "nope, orange, not purple"),
        ("en", "I said orange, not purple"),
        ("en", "not purple, orange!"),
        ("de", "nee, orange, nicht lila"),
        ("de", "nein, orange hab ich gesagt"),
        ("de", "nicht lila, orange!"),
    ],
)
def test_the_saw_said_again_in_other_words_is_asked_about_as_a_correction(lang, said):
    adapter = ADAPTERS["alle-meine-farben"]
    setup = Setup(("Anna", "Ben"), seed=3, options=adapter.default_options(lang))
    out = Recorder()
    session = Session(adapter, lang, setup, out)
    session.start()
    for line in MOVES[lang]:  # the saw (number 3) is purple now
        session.hear(line)
    session.hear(said)
    asked = [r for r in out.records if r.get("type") == "confirm"]
    assert asked and asked[-1]["action"]["args"]["colour"] == "orange", said
    assert asked[-1]["action"]["args"].get("object", 3) == 3 and asked[-1]["what"] == "correct"


@pytest.mark.parametrize("said", ["no red, no blue, no green", "not red, not purple"])
def test_a_list_of_refusals_corrects_nothing(said):
    adapter = ADAPTERS["alle-meine-farben"]
    setup = Setup(("Anna", "Ben"), seed=3, options=adapter.default_options("en"))
    out = Recorder()
    session = Session(adapter, "en", setup, out)
    session.start()
    for line in MOVES["en"]:
        session.hear(line)
    session.hear(said)
    assert not [r for r in out.records if r.get("type") == "confirm"], said
