"""A square of Alle meine Farben named by row and column, as a blind player hears them
("Anna, number 3: the saw, row 1, column 3"): "Reihe eins, Spalte drei wird orange"."""

from __future__ import annotations

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput as Recorder
from voice.session.adapters import ADAPTERS
from voice.session.session import Session


def session_at_the_saw(lang: str) -> Session:
    adapter = ADAPTERS["alle-meine-farben"]
    setup = Setup(("Anna", "Ben"), seed=3, options=adapter.default_options(lang))
    session = Session(adapter, lang, setup, Recorder())
    session.start()
    for line in {"de": ["Anna", "blau", "rot"], "en": ["Anna", "blue", "red"]}[lang]:
        session.hear(line)
    return session


@pytest.mark.parametrize(
    ("lang", "said", "square"),
    [
        ("de", "Reihe eins, Spalte drei wird orange", 3),
        ("de", "Spalte drei, erste Reihe: orange", 3),
        ("de", "orange in die erste Reihe, dritte Spalte", 3),
        ("de", "Reihe zwei, Spalte eins wird orange", 6),  # another square: the game says so
        ("en", "row one, column three goes orange", 3),
        ("en", "column 3, row 1: orange", 3),
        ("en", "I'll put orange in the first row, third column", 3),
    ],
)
def test_a_square_named_by_row_and_column_is_its_object(lang, said, square):
    session = session_at_the_saw(lang)
    phase = session.phase()
    found = session.parser.parse(said, phase.intents, phase.slots, last=phase.last)
    assert found is not None and found.name == "place", said
    assert found.slots["colour"] == "orange" and found.slots.get("object", 3) == square


@pytest.mark.parametrize(
    ("lang", "asked", "intent"),
    [("de", "Was liegt in der dritten Reihe?", "board_row"),
     ("en", "row one", "board_row"),
     ("en", "what's in the first column?", "board_column")],
)  # fmt: skip
def test_a_row_or_column_alone_is_still_a_question(lang, asked, intent):
    session = session_at_the_saw(lang)
    phase = session.phase()
    found = session.parser.parse(asked, phase.intents, phase.slots, last=phase.last)
    assert found is not None and found.name == intent, asked
