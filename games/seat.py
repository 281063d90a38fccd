"""The assistant's seat at the table: who it is and how well it remembers (the engines
read it from the setup; the assistant's decisions are in :mod:`games.assistant`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.engine import JSON, Setup, SetupError

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


# --- the seat ------------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """Who the assistant is at this table."""

    name: str
    level: str = DEFAULT_LEVEL

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "level": self.level}


def seat_of(setup: Setup) -> Seat | None:
    """The assistant's seat from ``Setup.options["assistant"]``, or ``None``.

    Raises :class:`SetupError` for an option a hand-edited save file may hold.
    """
    raw = setup.options.get("assistant")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) - {"name", "level"}:
        raise SetupError("bad_assistant", value=str(raw)[:60])
    name = raw.get("name")
    level = raw.get("level", DEFAULT_LEVEL)
    if not isinstance(name, str) or name not in setup.players:
        raise SetupError("assistant_not_seated", name=str(name), players=list(setup.players))
    if level not in LEVELS:
        raise SetupError("bad_assistant_level", level=str(level), levels=list(LEVELS))
    return Seat(name, str(level))


def seat_players(players: Sequence[str], name: str, position: int | None = None) -> tuple[str, ...]:
    """The seat order with the assistant added: after the listed players, or at seat
    ``position`` (1 = first). Raises :class:`SetupError` for a seat that does not exist."""
    seats = list(players)
    if position is None:
        position = len(seats) + 1
    if not 1 <= position <= len(seats) + 1:
        raise SetupError("bad_assistant_seat", seat=position, seats=len(seats) + 1)
    seats.insert(position - 1, name)
    return tuple(seats)
