"""Checking a deck file of the players' own, whatever the game: every problem found, by
entry and field, said in the players' language before a game starts.

Each game reads its own kind of card; every one of them checks a card's texts with
:func:`check_text`, gathers what is wrong as :class:`Problem` rows and raises one
:class:`DeckError` that says them all at once.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import FarbspielError, Reason

MAX_CARDS = 1000
"""The most cards a deck may have."""
MAX_PROBLEMS = 20
"""The most problems said at once (the rest are counted)."""
_SHORT = reprlib.Repr()  # (keyword arguments only from Python 3.12)
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring = 1, 3, 3, 40


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a deck: where (entry, field) and what (a message key of the
    console prompts, ``deck_…``, and its blanks), said in the players' language."""

    entry: int | None
    """1-based entry (= card number), ``None`` for the deck as a whole."""

    field: str | None
    """``name``, ``aliases[2]``, ``hints``, ... (the file's own words) or ``None``."""

    reason: str
    """The message key of what is wrong (``deck_missing``, ``deck_not_text``, ...)."""

    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The blanks of ``reason``."""

    label: str = ""
    """The entry's name, if it has a usable one (helps finding it in the file)."""

    @property
    def key(self) -> str:
        return "deck_problem" if self.entry is not None else "deck_whole_problem"

    @property
    def params(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "field": self.field or "",
            "label": self.label,
            "labelled": bool(self.label),
            "in_field": bool(self.field),
            "reason": Reason(self.reason, dict(self.values)),
        }

    def __str__(self) -> str:
        renderer = FarbspielError.renderer
        text = renderer(self) if renderer is not None else None  # type: ignore[arg-type]
        return text if text is not None else f"{self.entry} {self.field}: {self.reason}"


class DeckError(FarbspielError, ValueError):
    """A deck that cannot be played; ``problems`` says where and why. ``source``: the
    deck file, ``""`` for the deck of a saved game."""

    default_key = "deck_problems"

    def __init__(self, problems: Sequence[Problem], source: str = "") -> None:
        self.problems = list(problems)
        self.source = source
        shown = self.problems[:MAX_PROBLEMS]
        super().__init__(
            key="deck_problems",
            source=source,
            saved=not source,
            count=len(self.problems),
            problems=shown,
            more=len(self.problems) - len(shown),
        )

    def describe(self) -> str:
        return str(self)


def value_kind(value: Any) -> str:
    """What YAML made of a value that should be text (the blank ``kind`` of the message
    ``deck_not_text``): ``yes_no``, ``number``, ``list``, ``mapping`` or ``other``."""
    if isinstance(value, bool):
        return "yes_no"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "list"
    return "mapping" if isinstance(value, dict) else "other"


def check_text(value: Any, where: str, limit: int, problem: Any, required: bool) -> str | None:
    """``value`` as text a card can hold, or ``None`` after telling ``problem(where,
    reason, **values)`` what is wrong with it (deck files of both games use it)."""
    if value is None:
        if required:
            problem(where, "deck_missing")
        return None
    if not isinstance(value, str):
        shown = _SHORT.repr(value)  # bounded: YAML aliases can nest a value a billion times
        problem(where, "deck_not_text", kind=value_kind(value), value=shown)
        return None
    text = " ".join(value.split())
    if not text:
        problem(where, "deck_empty")
        return None
    if len(text) > limit:
        problem(where, "deck_too_long", length=len(text), limit=limit)
        return None
    if not any(c.isalnum() for c in text):
        problem(where, "deck_no_letters", text=text)
        return None
    if any(c in "[](){}<>|" for c in text):
        problem(where, "deck_brackets", text=text)
        return None
    return text
