"""The Artist's board said aloud (Pantone): a recogniser writes no commas, so parts run
together ("black left black right") and are cut where a new colour, count or taking back
starts after a colour and its place."""

from __future__ import annotations

from typing import Any

import pytest

from voice.bench.understanding import Tables, _entry_cases, _read, corpus_files

TABLES = Tables()
PAINTING = {"en": "painting", "de": "malen"}


def board(lang: str, text: str) -> list[dict[str, Any]] | None:
    _, _, doc = _read(corpus_files("pantone", lang)[0])
    entry = {"text": text, "before": PAINTING[lang], "never_move": True}
    (case,) = _entry_cases("pantone", lang, entry, doc["setup"], doc["situations"], "test")
    session = TABLES.session(case)
    phase = session.phase()
    found = session.parser.parse(text, phase.intents, phase.slots, heard=True)
    return found.slots.get("items") if found is not None and found.name == "board" else None


def item(colour: str, count: int, place: str) -> dict[str, Any]:
    return {"colour": colour, "count": count, "place": place}


@pytest.mark.parametrize(
    ("lang", "text", "items"),
    [
        ("en", "black left black right", [item("black", 1, "left"), item("black", 1, "right")]),
        ("en", "two yellow at the top three pink at the bottom",
         [item("yellow", 2, "top"), item("pink", 3, "bottom")]),
        ("en", "one black at the bottom no make that two black", [item("black", 2, "bottom")]),
        ("en", "yellow top left", [item("yellow", 1, "top_left")]),
        ("de", "gelb links gelb rechts", [item("yellow", 1, "left"), item("yellow", 1, "right")]),
        ("de", "oben zweimal gelb in der mitte schwarz",
         [item("yellow", 2, "top"), item("black", 1, "middle")]),
        ("de", "ein blaues nach oben nee nach unten", [item("blue", 1, "bottom")]),
    ],
)  # fmt: skip
def test_a_board_said_without_pauses_is_read_part_by_part(lang, text, items):
    assert board(lang, text) == items
