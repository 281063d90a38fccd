"""What the assistant's strategies share: its next step (:class:`Turn`), what the session
observed for it (:class:`Notes`) and its seeded decisions (:func:`decision_rng`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import Action, Event, Setup
from games.seat import Seat


@dataclass(frozen=True)
class Turn:
    """What the assistant does next: say ``say`` (in its own voice), then apply
    ``action`` (``None``: it only speaks, e.g. a hint word)."""

    say: tuple[Event, ...] = ()
    action: Action | None = None


@dataclass
class Notes:
    """What the session observed that is not part of the game state: whether the hint
    the assistant asked for has been said, and which hint it has given itself."""

    hint_heard: bool = False
    hint_given: tuple[int, str] | None = None  # (scoring turn, namer)


def decision_rng(setup: Setup, seat: Seat, *parts: Any) -> random.Random:
    """A generator for one decision; a string seed hashes the same on every run."""
    return random.Random(":".join(str(p) for p in (setup.seed, seat.name, seat.level, *parts)))
