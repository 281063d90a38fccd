"""The contract every game engine follows, and the small types they exchange.

A game is a pure state machine (after open_spiel's Python games): it is built from a
:class:`Setup`, told :class:`Action` objects through :meth:`Game.apply`, and answers with
:class:`Event` objects. It never prints, plays audio or reads a clock; time reaches it as
timer actions (see :class:`Timer`), randomness only from the seeded ``random.Random`` it
creates from ``Setup.seed``.

History is the truth: a game's state is fully determined by its setup and the list of
actions applied so far, which is what the journal stores. Undo is "rebuild from the
setup and replay all actions but the last" (see :func:`replay`).

Errors are typed (after python-chess): :class:`NotAllowed` for a move the rules forbid
(with the reason as a message key), :class:`NotNow` for an action that does not fit the
current phase, :class:`Ambiguous` when the engine needs the player to be more precise.
Whenever ``apply`` raises, the state is exactly as before.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.errors import FarbspielError

JSON = Any


@dataclass(frozen=True)
class Action:
    """One decision taken at the table, as stored in the journal."""

    name: str
    """What kind of action: ``"place"``, ``"pass"``, ``"timer"``, ..."""

    args: Mapping[str, JSON] = field(default_factory=dict)
    """The action's arguments; JSON-serialisable (str, int, bool, lists)."""

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "args": dict(self.args)}

    @staticmethod
    def from_json(data: Mapping[str, JSON]) -> Action:
        name = data.get("name")
        args = data.get("args", {})
        if not isinstance(name, str) or not isinstance(args, dict):
            raise ValueError(f"not an action: {data!r}")
        return Action(name, args)


@dataclass(frozen=True)
class Event:
    """Something that happened (or should be said) because of an action.

    The type is also the key of the spoken message; ``data`` fills in its blanks.
    """

    type: str
    """Event kind, e.g. ``"turn"``, ``"placed"``, ``"game_over"``."""

    data: Mapping[str, JSON] = field(default_factory=dict)
    """The facts of the event; JSON-serialisable."""

    to: str | None = None
    """The one player this event is for (a secret, e.g. their character card); ``None``
    for the whole table. The session sends private events only to a private output."""

    def to_json(self) -> dict[str, JSON]:
        data = {"type": self.type, **self.data}
        if self.to is not None:
            data["to"] = self.to
        return data


@dataclass(frozen=True)
class Timer:
    """A timer the engine wants running now.

    The session starts counting when a timer id first appears in :meth:`Game.timers`
    and applies ``action`` once ``seconds`` have passed (unless the timer has
    disappeared by then). Ids must be unique per arming, e.g. ``"guess:7:2"``.
    """

    id: str
    seconds: float
    action: Action
    then: float = 0.0
    """Seconds the same countdown runs on after this step (a clock announced in steps:
    "30 seconds left"), so the time left is this timer's remaining seconds plus ``then``."""


@dataclass(frozen=True)
class Expectation:
    """What the engine is waiting for right now."""

    intents: frozenset[str]
    """Names of the game intents that make sense now (global commands come on top)."""

    player: str | None = None
    """Who is expected to speak, if one player is."""

    slots: Mapping[str, tuple[JSON, ...]] = field(default_factory=dict)
    """Optional narrowing of slot values for the recogniser, by slot list name."""

    quiet: bool = False
    """The table is talking among itself now (a story, a hint): what is not understood,
    and game moves that do not fit, are ignored without a word instead of answered."""


@dataclass(frozen=True)
class Setup:
    """Everything needed to start a game identically again."""

    players: tuple[str, ...]
    """Player names in seat order (clockwise)."""

    seed: int = 0
    """Seed of the game's only source of randomness."""

    first: str | None = None
    """Who starts, if the table fixed it; otherwise the game's own rule applies."""

    options: Mapping[str, JSON] = field(default_factory=dict)
    """Game-specific options (variant, modes, word cards, deck entries, ...)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": list(self.players),
            "seed": self.seed,
            "first": self.first,
            "options": dict(self.options),
        }

    @staticmethod
    def from_json(data: Mapping[str, JSON]) -> Setup:
        players = data.get("players")
        seed = data.get("seed", 0)
        first = data.get("first")
        options = data.get("options", {})
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) for p in players)
            or not isinstance(seed, int)
            or not (first is None or isinstance(first, str))
            or not isinstance(options, dict)
        ):
            raise ValueError("malformed setup")
        return Setup(tuple(players), seed, first, options)


class GameError(FarbspielError):
    """An action the engine cannot take; ``key`` + ``params`` choose the spoken reply."""

    def __init__(self, key: str, **params: JSON) -> None:
        super().__init__(key=key, **params)


class NotAllowed(GameError):
    """The rules forbid this move; the key names the reason."""


class NotNow(GameError):
    """The action does not fit the current phase of the game."""


class Ambiguous(GameError):
    """The engine needs the player to say more precisely what they mean."""


class SetupError(FarbspielError, ValueError):
    """The setup cannot start this game (too few players, unknown option, ...)."""

    def __init__(self, key: str, **params: JSON) -> None:
        super().__init__(key=key, **params)


@dataclass(frozen=True)
class Move:
    """One row of a game's table of actions: the method that applies it and the
    arguments it may carry (anything else is refused, e.g. from a hand-edited save)."""

    method: str
    """Name of the engine method, called with the action's arguments."""

    args: tuple[str, ...] = ()
    """The argument names this action may carry."""


SaveUpgrade = Callable[[Any, Action], tuple[Action, Action]]
"""One game's upgrade of one journalled move to the next save format (see
:attr:`Game.save_upgrades`); the first argument is the game's own engine."""


class Game(ABC):
    """Base class of the rules engines. Subclasses are pure and deterministic.

    Every engine has one shape (after open_spiel's games): a table of actions
    (:attr:`moves`) and one of questions (:attr:`questions`) drive the shared
    :meth:`apply` and :meth:`query`, which check the arguments once; the step the game
    is in is :attr:`stage` (``"choose_first"`` first, ``"over"`` last); choosing who starts
    is the shared ``first`` action; a game only says how it begins (:meth:`_begin`) and
    who starts by its own rule (:meth:`_first_by_rule`).
    """

    game_id: ClassVar[str]
    """The name used on the command line and in save files."""

    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8

    moves: ClassVar[Mapping[str, Move]] = {}
    """The actions ``apply`` knows, by name (``first`` is added for every game)."""

    questions: ClassVar[Mapping[str, str]] = {}
    """Questions ``query`` answers: name → method (called with the arguments)."""

    first_rule: ClassVar[str | None] = None
    """The rulebook's way of choosing the starting player, said when the table must."""

    setup_limits: ClassVar[Mapping[str, JSON]] = {}
    """The limits the game's setup checks, by the blank the command line's help names them
    with (``{"time_low": 10, ...}``), so the help says what the engine accepts."""

    save_upgrades: ClassVar[Mapping[int, SaveUpgrade]] = {}
    """How the game's moves journalled in save format ``v`` read in format ``v + 1``:
    ``save_upgrades[v](game, action)``, ``game`` as it was just before the move (the
    journal replays the old file), gives the action to write and the one to apply now.
    A game whose moves did not change between two formats has no entry for them."""

    stage: str
    """The step the game is in: ``"choose_first"`` until someone starts, ``"over"`` at the end."""

    def __init__(self, setup: Setup) -> None:
        check_players(setup, self.min_players, self.max_players)
        self.setup = setup
        self.players: tuple[str, ...] = setup.players
        self.rng = random.Random(setup.seed)
        self.stage = "choose_first"

    # --- what the session asks ------------------------------------------------------
    @abstractmethod
    def start(self) -> list[Event]:
        """Opening announcements; called once, before any action."""

    @abstractmethod
    def current_player(self) -> str | None:
        """Who acts now (``None`` when nobody in particular, or the game is over)."""

    @abstractmethod
    def expecting(self) -> Expectation:
        """What input makes sense now; drives per-phase grammars and help."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Actions ``apply`` would accept now (used by random play and tests)."""

    def apply(self, action: Action) -> list[Event]:
        """Apply an action and return what happened. Raises :class:`GameError` (and the
        state is then unchanged)."""
        if self.stage == "over":
            raise NotNow("game_is_over")
        move = FIRST if action.name == "first" else self.moves.get(action.name)
        if move is None:
            raise NotNow("unknown_action", action=action.name)
        expect_args(action, *move.args)
        if action.name != "first" and self.stage == "choose_first":
            raise NotNow("choose_first_now")
        handler: Callable[[Mapping[str, JSON]], list[Event]] = getattr(self, move.method)
        return handler(action.args)

    def _apply_first(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "choose_first":
            raise self._not_now()
        return self._begin(*first_player(self.players, self.rng, args))

    def _opening(self) -> list[Event]:
        """Who starts, once the welcome is said: the table's choice (``--first``), the
        game's own rule, or the question to the table."""
        if self.setup.first is not None:
            return self._begin(self.setup.first, "table")
        by_rule = self._first_by_rule()
        if by_rule is not None:
            return self._begin(*by_rule)
        return [self._ask_first()]

    def _ask_first(self) -> Event:
        return Event("ask_first", {"rule": self.first_rule} if self.first_rule else {})

    def _first_by_rule(self) -> tuple[str, str] | None:
        """``(player, chosen_by)`` when the rules decide who starts without asking."""
        return None

    @abstractmethod
    def _begin(self, player: str, chosen_by: str) -> list[Event]:
        """Start play with ``player``; ``chosen_by`` is ``"table"`` or ``"lot"``."""

    def _not_now(self) -> GameError:
        """The error for an action that does not fit the current stage."""
        return NotNow("already_started")

    def is_over(self) -> bool:
        return self.stage == "over"

    @abstractmethod
    def result(self) -> dict[str, JSON]:
        """The ``game_over`` payload (scores and winners, or the game's own form)."""

    @abstractmethod
    def prompt(self) -> list[Event]:
        """What to say to bring the table back to the current situation."""

    @abstractmethod
    def snapshot(self) -> dict[str, JSON]:
        """The full state as plain data (for equality checks and debugging)."""

    def query(self, name: str, args: Mapping[str, JSON]) -> list[Event]:
        """Answer a question about the state (never changes it). Raises NotNow."""
        method = self.questions.get(name)
        if method is None:
            raise NotNow("unknown_question", question=name)
        answer: Callable[[Mapping[str, JSON]], list[Event]] = getattr(self, method)
        return answer(args)

    def status(self) -> list[Event]:
        """Answer to "what's the score"; games override."""
        return [Event("status", {})]

    def timers(self) -> list[Timer]:
        """Timers that should be running now: the one clock the state says is due."""
        due = self._due_timer()
        return [due] if due is not None else []

    def _due_timer(self) -> Timer | None:
        """The clock the state says is running now (derived, never stored); timed games
        override."""
        return None

    def _timer_for(self, args: Mapping[str, JSON]) -> Timer:
        """The due clock that a ``timer`` action with ``args`` ends; a timer the state
        has moved past is refused (``stale_timer``)."""
        due = self._due_timer()
        if due is None or dict(args) != dict(due.action.args):
            raise NotNow("stale_timer")
        return due

    def _seconds_left(self, args: Mapping[str, JSON]) -> float:
        """Seconds left on the running countdown, from the session's ``timers_left``
        (engines read no clock) plus the steps still to come (``Timer.then``)."""
        running, due = args.get("timers_left"), self._due_timer()
        if due is None or not isinstance(running, Mapping) or due.id not in running:
            raise NotNow("no_clock_running")
        return float(running[due.id]) + due.then

    def public(self, action: Action) -> Action:
        """``action`` as the table may see it: without what the engine decided from
        secrets (shown when a move or an undo is confirmed)."""
        return action

    def confirm_first(self, action: Action) -> bool:
        """True if ``action`` is asked about even when heard clearly: a move nothing can
        correct once it is made (the last card before a reveal)."""
        return False

    def describe(self, action: Action) -> Event:
        """An event that names ``action`` (used to confirm undo)."""
        return Event("action", {"name": action.name, **action.args})


FIRST = Move("_apply_first", ("player", "random"))
"""Choosing who starts: the same action in every game."""


def expect_args(action: Action, *allowed: str) -> None:
    """Refuse an action carrying arguments this game does not know (e.g. from a
    hand-edited save file) instead of silently ignoring them."""
    unknown = sorted(set(action.args) - set(allowed))
    if unknown:
        raise NotAllowed("unknown_argument", action=action.name, argument=unknown[0])


def first_player(
    players: tuple[str, ...], rng: random.Random, args: Mapping[str, JSON]
) -> tuple[str, str]:
    """Who starts, from an ``Action("first")``: the named player, or one drawn by lot.

    Returns ``(player, chosen_by)`` with ``chosen_by`` ``"table"`` or ``"lot"``.
    """
    if args.get("random"):
        return rng.choice(players), "lot"
    player = args.get("player")
    if player not in players:
        raise NotAllowed("unknown_player", name=str(player))
    return str(player), "table"


def check_players(setup: Setup, low: int, high: int) -> None:
    """Reject impossible player lists before a game starts."""
    names = setup.players
    if not low <= len(names) <= high:
        raise SetupError("player_count", count=len(names), low=low, high=high)
    seen: set[str] = set()
    for name in names:
        if not name.strip():
            raise SetupError("player_name_empty")
        if name.casefold() in seen:
            raise SetupError("player_name_twice", name=name)
        seen.add(name.casefold())
    if setup.first is not None and setup.first not in names:
        raise SetupError("unknown_first", name=setup.first, players=list(names))


def left_of(players: tuple[str, ...], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise (to the left) of ``player``."""
    return players[(players.index(player) + steps) % len(players)]


def right_of(players: tuple[str, ...], player: str) -> str:
    """The player sitting to the right (counter-clockwise) of ``player``."""
    return left_of(players, player, -1)


def seats_from(players: tuple[str, ...], first: str) -> list[str]:
    """All players clockwise, beginning with ``first``."""
    i = players.index(first)
    return list(players[i:] + players[:i])


def winners(scores: Mapping[str, int], *, lowest: bool = False) -> list[str]:
    """Everyone sharing the best score (ties give several winners), in seat order."""
    if not scores:
        return []
    best = min(scores.values()) if lowest else max(scores.values())
    return [p for p, s in scores.items() if s == best]


def replay(game: Game, actions: Iterable[Action]) -> Game:
    """Start ``game`` and apply ``actions`` in order (resume and undo use this)."""
    game.start()
    for action in actions:
        game.apply(action)
    return game
