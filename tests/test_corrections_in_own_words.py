"""A move corrected right after it in the player's own words (issue 24): the colour said
and the move's colour denied, or what was said referred to; right after the move it is
changed at once, later asked first."""

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
def test_the_saw_said_again_in_other_words_is_a_correction(lang, said):
    adapter = ADAPTERS["alle-meine-farben"]
    setup = Setup(("Anna", "Ben"), seed=3, options=adapter.default_options(lang))
    out = Recorder()
    session = Session(adapter, lang, setup, out)
    session.start()
    for line in MOVES[lang]:  # the saw (number 3) is purple now
        session.hear(line)
    moves = len(session.actions)
    session.hear(said)  # right after the saw: changed at once, no question
    assert not [r for r in out.records if r.get("type") == "confirm"], said
    assert len(session.actions) == moves
    assert session.actions[-1].args["colour"] == "orange", said
    assert session.actions[-1].args.get("object", 3) == 3
    session.hear("wie steht es" if lang == "de" else "what's the score")
    session.hear(
        said.replace("orange", "rosa" if lang == "de" else "pink")
        .replace("lila", "orange")
        .replace("purple", "orange")
    )
    asked = [r for r in out.records if r.get("type") == "confirm"]  # later: asked first
    assert asked and asked[-1]["what"] == "correct", said
    assert asked[-1]["action"]["args"]["colour"] == "pink", said


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
