"""The assistant as a player: a seat at the table that farbspiel plays itself.

Pure and seeded, like the engines: every decision is a function of the game's setup
(seed, the seat's name and level) and of what a person in that seat could know at that
moment. Nothing here reads a clock or keeps hidden state that a replay could not rebuild;
the session asks :func:`next_turn` whenever the game has changed, and applies the action
it gets like a player's (journalled, so a replay is identical).

What it may know:

* Farben: its own colour cards (it holds a virtual set of 12), the word cards, and every
  colour said aloud when a player revealed it. What it *remembers* of those is decided
  per (word, player) by a random generator seeded with the game's seed, the seat and the
  level — so it is fixed the moment the colour is revealed, and the same on every replay.
  It never looks at a face-down colour it was not told.
* Alle meine Farben (basic, cooperative): the board (face up), the cards lying face up in
  front of its own seat (the table told it which), and how many copies of each colour the
  box holds.

Its words are events too (types beginning with ``assistant_``): the voice layer says
them in the assistant's own voice, with its name before them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import games.alle_meine_farben_assistant
import games.farben_assistant
from games.alle_meine_farben import AlleMeineFarben
from games.assistant_turn import Notes as Notes
from games.assistant_turn import Turn as Turn
from games.engine import Game
from games.farben import Farben
from games.seat import Seat


@dataclass(frozen=True)
class Strategy:
    """The registry entry of a game the assistant can play: its engine and the module
    with its ``next_turn(game, seat, notes)`` and ``waits_for_hint(game, seat)``."""

    engine: type[Game]
    module: ModuleType


STRATEGIES = (
    Strategy(Farben, games.farben_assistant),
    Strategy(AlleMeineFarben, games.alle_meine_farben_assistant),
)
ASSISTANT_GAMES = tuple(s.engine.game_id for s in STRATEGIES)
"""Games with an assistant seat (Alle meine Farben in its basic variant only)."""


def _strategy(game: Game) -> ModuleType | None:
    return next((s.module for s in STRATEGIES if isinstance(game, s.engine)), None)


def waits_for_hint(game: Game, seat: Seat) -> bool:
    """Whether the assistant asked someone for a hint and waits for them to say it (the
    session tells it, through :class:`Notes`, once that person has spoken)."""
    strategy = _strategy(game)
    return strategy is not None and bool(strategy.waits_for_hint(game, seat))


def next_turn(game: Game, seat: Seat, notes: Notes | None = None) -> Turn | None:
    """The assistant's next step in ``game``, or ``None`` when it is not its turn."""
    strategy = _strategy(game)
    if game.is_over() or strategy is None:
        return None
    turn: Turn | None = strategy.next_turn(game, seat, notes or Notes())
    return turn
