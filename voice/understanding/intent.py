"""What an utterance means: the parser's answer (:mod:`voice.understanding.intents`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Intent:
    """What an utterance means."""

    name: str
    """Intent name from the grammar files, e.g. ``"place"`` or ``"repeat"``."""

    slots: Mapping[str, Any] = field(default_factory=dict)
    """Slot values (list "out" values), e.g. ``{"colour": "purple", "object": 2}``."""

    text: str = ""
    """The normalised text that was understood."""

    score: float = 1.0
    """1.0 for an exact template match; the fuzzy ratio / 100 for a snapped near-miss."""

    def to_json(self) -> dict[str, Any]:
        return {"intent": self.name, "slots": dict(self.slots)}


BOARD = "board"
"""The Artist's move telling the board (Pantone): its items are read by
:mod:`voice.understanding.board`, never spotted word by word."""


class Core(str):
    """Where the guard reads instead of the whole utterance: the sentence itself, once
    what stood beside it was read and found harmless (a remark: "grün, nicht blau") or
    was taken back ("gelb, nein warte, orange")."""


class Asked(Core):
    """The sentence of a move asked leave for ("darf ich den Ball rot machen?"): the guard
    reads it, and the question mark belongs to the asking."""
