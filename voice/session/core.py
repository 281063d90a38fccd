"""The table: one game at one table and what every part of the session shares - the game
and its actions, the save file, the clock and its timers, and what is said
(:class:`voice.session.render.Speaker`).

The hub (:mod:`voice.session.session`) routes what is heard; the global commands
(:mod:`voice.session.commands`), the yes/no dialogue (:mod:`voice.session.dialogue`) and
the assistant's seat (:mod:`voice.session.seat`) act on a :class:`Table`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.engine import Action, Event, Game, GameError, Setup, replay
from games.seat import seat_of
from voice.output.messages import Messages
from voice.output.rate import DEFAULT_RATE, clamp_rate
from voice.output.sinks import Output
from voice.session.adapters.base import GameAdapter
from voice.session.journal import Header, Journal, JournalError, rewrite
from voice.session.phones import PhoneWatch
from voice.session.render import Speaker
from voice.session.timers import Clock
from voice.understanding.grammar import Grammar
from voice.understanding.intents import IntentParser
from voice.understanding.policy import PlayPolicy

CONFIRM_BELOW = 0.8
"""Moves understood with less confidence than this are confirmed before they count."""

SAY_BACK_FROM = 0.5
"""Moves cheap to take back (:attr:`GameAdapter.said_back`) understood with at least this
confidence (but less than :data:`CONFIRM_BELOW`) are made at once and said back: "nein"
right after takes them back (implicit confirmation); other moves are said back and held a
moment before they count (:data:`HOLD_SECONDS`). Below it, they are asked first."""

HOLD_SECONDS = 2.5
"""A move that is not cheap to take back (a Pantone guess that is judged, a Farben answer
that scores) heard fairly sure is said back and counts only this many seconds after the
words are out: "nein" / "no" before then drops it, "ja" makes it count at once, anything
else said makes it count first. The game's timers stand still meanwhile (a guess window
does not run out on a guess said in time)."""

HELD_DENY_FROM = 0.1
"""While a move is held, "nein" heard at least this sure drops it, far below what anything
else needs (the play policy's ``ignore``): a "no" wrongly heard costs the player a repeat,
a "no" missed lets a wrong guess be judged (measured: "nope that's wrong" heard right at
0.06–0.23 in the guess phase)."""

TIMER_ACTION = "timer"
"""Name of engine actions that timers apply (undo skips over them)."""


@dataclass(frozen=True)
class Phase:
    """What the session listens for now: the recogniser's grammar comes from this."""

    intents: frozenset[str]
    """Intent names accepted now (game and global)."""

    slots: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Slot lists narrowed for the recogniser (e.g. only the current object)."""

    quiet: bool = False
    """Table talk is expected (see :attr:`Expectation.quiet`): ignore what does not fit."""

    last: dict[str, Any] = field(default_factory=dict)
    """The values of the move a correction would change now ("Telefon war grün"), if any."""


class Question:
    """A yes/no question farbspiel asked and waits for (the kinds of questions and their
    answers: :mod:`voice.session.dialogue`)."""

    kind: ClassVar[str] = ""
    """What it asks about: ``"move"``, ``"choice"`` (:mod:`voice.session.choice`),
    ``"undo"``, ``"correct"`` or ``"quit"``."""

    action: Action | None
    """The move it asks about, if any."""


class Table(Speaker):
    """One game at one table: its state, its save file, its clock, its voice."""

    def __init__(
        self,
        adapter: GameAdapter,
        lang: str,
        setup: Setup,
        out: Output,
        *,
        journal: Journal | None = None,
        actions: Sequence[Action] = (),
        rate: int = DEFAULT_RATE,
        now: float = 0.0,
        confirm_below: float = CONFIRM_BELOW,
        private: Output | None = None,
        policy: PlayPolicy | None = None,
    ) -> None:
        self.adapter = adapter
        self.lang = lang
        self.setup = setup
        self.journal = journal
        self.phones = PhoneWatch(journal.path) if journal is not None else None
        self.confirm_below = confirm_below
        self.grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
        self.parser: IntentParser = adapter.parser(self.grammar, setup)
        self.policy = policy or PlayPolicy(self.parser)
        messages = Messages(lang, adapter.game_id, adapter.terms(lang))
        super().__init__(
            out,
            private,
            messages,
            seat_of(setup),
            lambda event: adapter.must_tell_privately(event, setup),
        )
        self.game: Game = adapter.create(setup)
        self.actions: list[Action] = list(actions)
        self.rate = clamp_rate(rate)
        self.finished = False
        self.paused = False
        self.save_broken = False
        self.save_error: str | None = None
        """Why saving failed, while it does."""
        self.question: Question | None = None
        """The yes/no question farbspiel waits for, if any."""
        self.timers = Clock(now)
        self.clock: Callable[[], float] | None = None
        """The real clock, where there is one (virtual time in scripts leaves it unset)."""
        self.replayed = False
        """The saved actions were replayed (:meth:`check_replay`)."""

    # --- the game --------------------------------------------------------------------
    def check_replay(self) -> None:
        """Replay the given actions now; raises :class:`JournalError` if they do not fit."""
        self.game = self.rebuild(self.actions)
        self.replayed = True

    def rebuild(self, actions: Sequence[Action]) -> Game:
        """A new game with ``actions`` replayed; :class:`JournalError` if they do not fit."""
        game = self.adapter.create(self.setup)
        try:
            return replay(game, actions)
        except GameError as exc:
            raise JournalError(key="save_moves_do_not_replay", move=exc.key) from None

    def apply(self, action: Action) -> bool:
        """Make ``action`` and say what happened, or say why not (then False)."""
        try:
            events = self.game.apply(action)
        except GameError as exc:
            self.refuse(exc.key, exc.params)
            return False
        self.record_action(action)
        self.respond(events)
        if self.game.is_over():
            self.finished = True
        return True

    def record_action(self, action: Action) -> None:
        """Journal first (so a crash loses nothing announced), then remember."""
        self.actions.append(action)
        self.write_journal(lambda j: j.append_action(action))

    # --- the save file ---------------------------------------------------------------
    def write_journal(self, write: Callable[[Journal], Any]) -> None:
        """Write to the save file; if that fails, say so once, and write the whole file
        anew on every later write until it works again."""
        if self.journal is None:
            return
        try:
            if self.save_broken:  # an earlier write failed: try to write it all again
                self._rewrite_journal()
            else:
                try:
                    write(self.journal)
                except JournalError as exc:
                    # Write the whole file anew at once: a save file deleted with its
                    # folder, or a line cut short, is whole again without troubling anyone.
                    self._rewrite_journal()
                    self.out.record({"type": "save_rewritten", "reason": str(exc)})
        except JournalError as exc:
            self.save_error = str(exc)
            if not self.save_broken:
                self.save_broken = True
                self.out.record({"type": "save_failed", "reason": str(exc)})
                self.say_only([Event("save_failed")])
            return
        if self.save_broken:
            self.save_broken = False
            self.save_error = None
            self.out.record({"type": "save_recovered"})
            self.say_only([Event("save_recovered")])

    def save_now(self) -> bool:
        """If saving failed earlier, try once more now; True if the file holds everything
        (or there is no save file)."""
        if self.journal is not None and self.save_broken:
            self.write_journal(lambda j: None)
        return not self.save_broken

    def _rewrite_journal(self) -> None:
        assert self.journal is not None
        header = Header(self.adapter.game_id, self.lang, self.setup)
        settings = {"rate": self.rate} | (self.pause_settings() if self.paused else {})
        fresh = rewrite(self.journal.path, header, self.actions, settings)
        self.journal.close()
        self.journal = fresh

    def pause_settings(self) -> dict[str, Any]:
        """The journal's pause setting: ``paused``, and while paused how many seconds each
        running timer had run (``timers_ran``)."""
        if not self.paused:
            return {"paused": False}
        active = self.timers.active()
        self.sync_timers(active)
        return {"paused": True, "timers_ran": self.timers.ran(active)}  # always both

    # --- time ------------------------------------------------------------------------
    def sync_timers(self, active: float | None = None) -> None:
        """Arm the timers the game wants now (new ones at ``active``, default now)."""
        self.timers.sync(self.game.timers(), self.timers.active() if active is None else active)

    def run_timers(self, now: float) -> None:
        """Let time pass up to ``now``: due timers apply their actions, in order."""
        self.timers.now = max(self.timers.now, now)
        if self.paused or self.finished:
            return
        active = self.timers.active()
        while not self.finished:
            self.sync_timers(active)
            due = self.timers.pop_due(active)
            if due is None:
                return
            self.expire_question()  # the window it belonged to is over: the timer wins
            self.apply(due.timer.action)
            if self.clock is not None:
                # Real time: saying what the timer caused took a while; timers it armed
                # (the next guess window) start once the words are out, not before.
                self.timers.now = max(self.timers.now, self.clock())
                active = self.timers.active()
                self.sync_timers(active)
            else:
                self.sync_timers(due.fires_at)  # virtual time: they start when it fired

    def expire_question(self) -> None:
        """A question waiting when its window or phase ends is dropped: no question can
        stall a game (its answer would no longer fit what the game waits for)."""
        if self.question is not None:
            self.out.record({"type": "expired", "what": self.question.kind})
            self.question = None

    def seconds_to_next_timer(self) -> float | None:
        """How long until the next timer fires (``None``: no timer, or paused)."""
        if self.paused or self.finished:
            return None
        self.sync_timers()
        return self.timers.next_in()

    # --- outside the game ------------------------------------------------------------
    def notice(self, key: str, params: dict[str, Any] | None = None, prompt: bool = False) -> None:
        """Tell the table about something outside the game (the microphone went away or
        came back); with ``prompt``, then say again what the game waits for."""
        self.out.record({"type": key, **(params or {})})
        self.say_only([Event(key, params or {})])
        if prompt and not self.finished and self.question is None and not self.paused:
            self.respond(self.game.prompt())
