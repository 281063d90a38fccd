"""The session: the one place that joins parser, engine, journal, timers and output.

Input arrives as text (typed, scripted or recognised, with a confidence) through
:meth:`Session.hear`, and time through :meth:`Session.tick`. Global commands (repeat,
help, undo, pause, speech rate, quit ...) are handled here; game intents become engine
actions or questions. Every accepted action is journalled before it is announced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.assistant import Notes, next_turn, waits_for_hint
from games.engine import Action, Event, Game, GameError, Setup, Timer, replay
from games.seat import Seat, seat_of
from voice.output.messages import Messages
from voice.output.rate import DEFAULT_RATE, MAX_RATE, MIN_RATE, RATE_STEP, clamp_rate
from voice.output.sinks import Output
from voice.recognition.base import Transcript
from voice.session.adapters.base import GameAdapter
from voice.session.journal import Header, Journal, JournalError, rewrite
from voice.understanding.grammar import Grammar
from voice.understanding.intents import MAX_CHARS, Intent, IntentParser
from voice.understanding.policy import Decision, PlayPolicy

CONFIRM_BELOW = 0.8
"""Moves understood with less confidence than this are confirmed before they count."""

TIMER_ACTION = "timer"
"""Name of engine actions that timers apply (undo skips over them)."""

CORRECTION = "correction"
"""The intent of "nein, doch gelb" / "no wait, yellow": the last move, with another colour."""

# Global commands still heard while paused or while a yes/no answer is awaited.
_ALWAYS = frozenset(
    {"repeat", "help", "more_help", "quit", "slower", "faster", "score", "whose_turn"}
)
HELP_ITEMS = 2
"""How many moves "help" names; "more help" tells the rest and the questions."""

SEAT_EVENTS = "assistant_"
"""Events whose type begins with this are the assistant's own words: said in its voice,
with its name before them."""

SEAT_OVERRIDE = "seat_"
"""A game-master message ``seat_<event>`` replaces ``<event>`` when the event concerns the
assistant's seat (nobody asks the assistant "your colour?" and waits)."""

MAX_SEAT_STEPS = 100
"""At most this many assistant moves in a row (a whole naming turn is a few)."""


class _Spoken(str):
    """A line said by the assistant seat (kept so that "repeat" says it in its voice)."""

    speaker: str | None = None


@dataclass(frozen=True)
class Phase:
    """What the session listens for now: the recogniser's grammar comes from this."""

    intents: frozenset[str]
    """Intent names accepted now (game and global)."""

    slots: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Slot lists narrowed for the recogniser (e.g. only the current object)."""

    quiet: bool = False
    """Table talk is expected (see :attr:`Expectation.quiet`): ignore what does not fit."""


@dataclass
class _Pending:
    """A question farbspiel asked and awaits yes/no for."""

    kind: str  # "undo" | "quit" | "move" | "correct"
    action: Action | None = None
    count: int = 0
    redo: tuple[Action, ...] = ()  # "correct": made again after the corrected move
    description: str = ""


@dataclass
class _ArmedTimer:
    timer: Timer
    armed_at: float  # active (unpaused) seconds when it first appeared


class Session:
    """One game at one table."""

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
        self.out = out
        self.private = private
        """Where events meant for one player only go (their secret card); never ``out``."""
        self.journal = journal
        self.confirm_below = confirm_below
        self.grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
        self.parser: IntentParser = adapter.parser(self.grammar, setup)
        self.policy = policy or PlayPolicy(self.parser)
        self.messages = Messages(lang, adapter.game_id, adapter.terms(lang))
        self.game: Game = adapter.create(setup)
        self.actions: list[Action] = list(actions)
        self.rate = clamp_rate(rate)
        self.finished = False
        self.paused = False
        self.save_broken = False
        self.save_error: str | None = None
        """Why saving failed, while it does."""
        self._pending: _Pending | None = None
        self._correction_cache: tuple[Any, tuple[int, Action, tuple[Action, ...]] | None] | None
        self._correction_cache = None
        self._last_response: list[str] = []
        self._missing_told: set[str] = set()
        self._missing_ever: set[str] = set()
        self._response: list[str] = []
        self._timers: dict[str, _ArmedTimer] = {}
        self._clock_start = now
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._saved_ran: dict[str, float] = {}
        self._now = now
        self._replayed = False
        self.clock: Callable[[], float] | None = None
        """The real clock, where there is one (virtual time in scripts leaves it unset)."""
        self.seat: Seat | None = seat_of(setup)
        """The seat farbspiel plays itself (``--assistant``), if any."""
        self.seat_notes = Notes()
        self._seat_acting = False

    # --- life cycle ------------------------------------------------------------------
    def start(self, resumed: bool = False, note_dropped_tail: bool = False) -> None:
        """Open the game: announce it, or (resumed) replay the journal and re-prompt.

        Raises :class:`JournalError` if the saved actions do not replay.
        """
        self.out.set_rate(self.rate)
        if resumed:
            if not self._replayed:
                self.check_replay()
            keys = ["resumed"] + (["journal_tail_dropped"] if note_dropped_tail else [])
            if self.paused:  # saved in a pause: the break goes on until the table says so
                self._paused_at = self._now
                self._respond([Event(k) for k in keys] + [Event("resumed_paused")])
            else:
                self._respond([Event(k) for k in keys] + self.game.prompt())
        else:
            self._respond(self.game.start())
        active = self._active(self._now)
        self._sync_timers(active)
        for timer_id, ran in self._saved_ran.items():  # timers that had run before the pause
            if timer_id in self._timers:
                self._timers[timer_id].armed_at = active - ran
        self._saved_ran = {}
        if self.game.is_over():
            self.finished = True
        self._play_seat()

    def resume_in_pause(self, timers_ran: Mapping[str, float] | None = None) -> None:
        """The saved game was paused: :meth:`start` goes on in the pause, and the timers
        that were running go on from where they stood (``timers_ran``: seconds each had
        run, as the pause was journalled)."""
        self.paused = True
        self._saved_ran = {
            str(k): float(v)
            for k, v in (timers_ran or {}).items()
            if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v
        }

    def check_replay(self) -> None:
        """Replay the given actions now; raises :class:`JournalError` if they do not fit."""
        self.game = self._rebuild(self.actions)
        self._replayed = True

    def reset_clock(self, now: float) -> None:
        """Start counting time from ``now`` (the real clock's reading)."""
        self._clock_start = self._now = now

    def _rebuild(self, actions: Sequence[Action]) -> Game:
        game = self.adapter.create(self.setup)
        try:
            return replay(game, actions)
        except GameError as exc:
            raise JournalError(key="save_moves_do_not_replay", move=exc.key) from None

    # --- what recognisers need -------------------------------------------------------
    def phase(self) -> Phase:
        if self._pending is not None:
            # "Lila für den Hut – richtig?" "Nein, doch gelb."
            correction = {CORRECTION} if self._pending_colour() else set()
            return Phase(frozenset({"affirm", "deny"} | correction) | _ALWAYS)
        if self.paused:
            return Phase(frozenset({"continue"}) | _ALWAYS)
        expecting = self.game.expecting()
        # "nein, doch gelb" right after a move corrects it (not while a story is told)
        correction = {CORRECTION} if not expecting.quiet and self._correctable() else set()
        # table talk is listened for where it could be taken for a move the phase expects
        quiet = (
            self.grammar.quiet_intents
            if expecting.intents & self.grammar.guarded_intents
            else set()
        )
        return Phase(
            expecting.intents | self.grammar.global_intents | quiet | correction,
            {k: tuple(v) for k, v in expecting.slots.items()},
            expecting.quiet,
        )

    @property
    def awaiting(self) -> tuple[str, Action | None] | None:
        """The yes/no question farbspiel waits for: ``(kind, action)`` with kind
        ``"move"``, ``"undo"`` or ``"quit"``; ``None`` when it asked nothing."""
        if self._pending is None:
            return None
        return self._pending.kind, self._pending.action

    def phrases(self) -> list[str]:
        """The sentences a recogniser should listen for now (normalised, unique)."""
        phase = self.phase()
        intents = phase.intents
        if not self.paused:
            # "weiter" is only worth hearing while the game is paused; out of a pause a
            # recogniser pulled long table talk onto it ("Morgen fahren wir zu Oma und
            # Opa" heard as "mach weiter", measured). Typed, it is still answered.
            intents = intents - {"continue"}
        seen: dict[str, None] = {}
        for phrase, _ in self.grammar.phrases(intents, phase.slots):
            seen.setdefault(phrase, None)
        return list(seen)

    def phrase_names(self) -> tuple[str, ...]:
        """The names of more than one word that :meth:`phrases` may hold (players, Pantone's
        characters), for :meth:`Recogniser.set_phrases`."""
        return self.grammar.spoken_names(self.adapter.name_lists)

    # --- input -----------------------------------------------------------------------
    def hear(self, text: str, confidence: float = 1.0) -> None:
        """Handle one utterance (typed, scripted or recognised)."""
        if self.finished:
            return
        phase = self.phase()
        intent = self.parser.parse(text, phase.intents, phase.slots)
        if phase.quiet and (intent is None or intent.name not in phase.intents):
            # A story or a hint word: the assistant stays quiet and lets the table talk.
            self.out.record({"type": "ignored", "text": text[:MAX_CHARS]})
            self._seat_heard_talk()
            return
        if intent is not None and intent.name in self.grammar.quiet_intents:
            self.out.record({"type": "ignored", "text": text[:MAX_CHARS]})
            return  # table talk ("nicht gelb", "blau oder grün"): no move, no answer
        if intent is None:
            key = "too_long" if len(text) > MAX_CHARS else "not_understood"
            self.out.record({"type": "not_understood", "text": text[:MAX_CHARS]})
            self._say_only([Event(key)])
            return
        self._handle(intent, min(confidence, intent.score), phase)
        self._play_seat()

    def hear_speech(self, transcript: Transcript) -> None:
        """Handle one recognised utterance: the play policy decides whether to act on it,
        confirm it first, ask again, or ignore it as table talk."""
        if self.finished:
            return
        phase = self.phase()
        answering = self._pending is not None
        verdict = self.policy.decide(
            transcript, phase.intents, phase.slots, self.is_move, answering=answering
        )
        if phase.quiet and verdict.decision is Decision.ASK_AGAIN:
            # a story or a hint is being told: "say that again?" would interrupt it
            verdict = replace(verdict, decision=Decision.IGNORE)
        self.out.record(
            {
                "type": "heard",
                "text": transcript.text,
                "confidence": round(verdict.confidence, 3),
                "decision": verdict.decision.value,
            }
        )
        if verdict.decision is Decision.IGNORE:
            if phase.quiet:
                self._seat_heard_talk()
            return
        if verdict.decision is Decision.ASK_AGAIN or verdict.intent is None:
            self._say_only([Event("yes_or_no" if answering else "say_again")])
            return
        # the policy has decided; the confidence only tells _move whether to confirm
        sure = 1.0 if verdict.decision is Decision.ACT else 0.0
        self._handle(verdict.intent, sure, phase)
        self._play_seat()

    def is_move(self, intent: Intent) -> bool:
        """Intents that change the game (and so are worth a confirmation)."""
        name = intent.name
        return (
            name in self.grammar.game_intents
            and name not in ("affirm", "deny")
            and name not in self.adapter.queries
            and name not in self.adapter.status_intents
        )

    def _handle(self, intent: Intent, confidence: float, phase: Phase) -> None:
        name = intent.name
        if self._pending is not None and name in ("affirm", "deny"):
            self._answer(name == "affirm")
            return
        if self._pending is not None and name == CORRECTION and self._pending_colour():
            self._correct_pending(intent.slots)
            return
        if self._pending is not None and name not in phase.intents:
            self._respond([Event("yes_or_no")])
            return
        if self.paused and name not in phase.intents:
            self._respond([Event("still_paused")])
            return
        if name in self.grammar.quiet_intents:
            return  # table talk the recogniser heard as such: let it be
        if name in self.grammar.global_intents:
            self._global(name, intent.slots)
            return
        if name in ("affirm", "deny"):
            self._respond([Event("nothing_to_confirm")])
            return
        if name == CORRECTION:
            self._ask_correct(intent.slots)
            return
        # Intents the phase does not expect still go to the engine: it knows the reason
        # why not ("nobody may pass in the pro variant") and says it.
        if name in self.adapter.queries:
            self._ask(name, intent.slots)
        elif name in self.adapter.status_intents:
            self._respond(self.game.status())
        else:
            self._move(self.adapter.action_for(intent, self.game), confidence)

    def _ask(self, name: str, slots: Any) -> None:
        # Engines read no clock: questions get the seconds left on their timers.
        args = {**slots, "timers_left": self._timers_left()}
        try:
            self._respond(self.game.query(name, args))
        except GameError as exc:
            self._refuse(exc.key, exc.params)

    def _move(self, action: Action, confidence: float) -> None:
        if confidence < self.confirm_below:
            self._pending = _Pending("move", action)
            description = self._describe(self.game, action)
            public = self.game.public(action).to_json()
            self.out.record({"type": "confirm", "what": "move", "action": public})
            self._respond([Event("confirm_move", {"action": description})])
            return
        self._apply(action)

    def _apply(self, action: Action) -> bool:
        try:
            events = self.game.apply(action)
        except GameError as exc:
            self._refuse(exc.key, exc.params)
            return False
        self._record_action(action)
        self._respond(events)
        if self.game.is_over():
            self.finished = True
        return True

    # --- the assistant's seat ------------------------------------------------------------
    def _play_seat(self) -> None:
        """Let the assistant take its turn(s), if the game waits for it: it says what it
        does in its own voice, and its actions are applied (and journalled) like a
        player's. Its words and the game's answers are one response for "repeat"."""
        if self.seat is None or self._seat_acting:
            return
        self._seat_acting = True
        try:
            started = False
            for _ in range(MAX_SEAT_STEPS):
                if self.finished or self._pending is not None or self.paused:
                    break
                turn = next_turn(self.game, self.seat, self.seat_notes)
                if turn is None:
                    break
                if not started:
                    self._response = []
                    started = True
                self._emit(turn.say)
                if turn.action is None:
                    break
                if not self._apply(turn.action):
                    break  # cannot happen: the assistant only makes legal moves
            if started and self._response:
                self._last_response = self._response
            self._sync_timers(self._active(self._now))
        finally:
            self._seat_acting = False

    def _seat_heard_talk(self) -> None:
        """Table talk while the assistant waits for the hint word it asked for: that was
        the hint, so it names the colour now."""
        if self.seat is not None and waits_for_hint(self.game, self.seat):
            self.seat_notes.hint_heard = True
            self._play_seat()

    def seat_moves(self, actions: Sequence[Action]) -> set[int]:
        """Which of ``actions`` (from the start of the game) the assistant made: those it
        would make in the state before them."""
        if self.seat is None:
            return set()
        game = self.adapter.create(self.setup)
        game.start()
        found: set[int] = set()
        for index, action in enumerate(actions):
            turn = next_turn(game, self.seat, Notes(hint_heard=True))
            if turn is not None and turn.action == action:
                found.add(index)
            try:
                game.apply(action)
            except GameError:
                break
        return found

    def _record_action(self, action: Action) -> None:
        """Journal first (so a crash loses nothing announced), then remember."""
        self.actions.append(action)
        self._journal(lambda j: j.append_action(action))

    def _journal(self, write: Any) -> None:
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
                self._say_only([Event("save_failed")])
            return
        if self.save_broken:
            self.save_broken = False
            self.save_error = None
            self.out.record({"type": "save_recovered"})
            self._say_only([Event("save_recovered")])

    def save_now(self) -> bool:
        """If saving failed earlier, try once more now; True if the file holds everything
        (or there is no save file)."""
        if self.journal is not None and self.save_broken:
            self._journal(lambda j: None)
        return not self.save_broken

    def _rewrite_journal(self) -> None:
        assert self.journal is not None
        header = Header(self.adapter.game_id, self.lang, self.setup)
        settings = {"rate": self.rate} | (self._pause_settings() if self.paused else {})
        fresh = rewrite(self.journal.path, header, self.actions, settings)
        self.journal.close()
        self.journal = fresh

    # --- global commands ---------------------------------------------------------------
    def _global(self, name: str, slots: Mapping[str, Any] | None = None) -> None:
        if name == "repeat":
            self._repeat()
        elif name == "help":
            self._help()
        elif name == "more_help":
            self._help(more=True)
        elif name == "whose_turn":
            self._respond(self._turn_answer((slots or {}).get("player")) + self.game.prompt())
        elif name == "score":
            self._respond(self.game.status())
        elif name == "undo":
            self._ask_undo()
        elif name == "pause":
            self._pause()
        elif name == "continue":
            self._continue()
        elif name in ("slower", "faster"):
            self._change_rate(-RATE_STEP if name == "slower" else RATE_STEP)
        elif name == "quit":
            self._pending = _Pending("quit")
            self.out.record({"type": "confirm", "what": "quit"})
            if self.journal is None:
                key = "confirm_quit_unsaved"
            else:
                key = "confirm_quit" if self.save_now() else "confirm_quit_save_failed"
            self._respond([Event(key)])

    def _turn_answer(self, named: Any) -> list[Event]:
        """"Is it Ben's turn?": yes or no first, when somebody in particular acts now
        (the turn's prompt that follows says who and what)."""
        current = self.game.current_player()
        if not isinstance(named, str) or current is None:
            return []
        if named == current:
            return [Event("turn_yes", {"player": named})]
        return [Event("turn_no", {"player": named, "current": current})]

    def _repeat(self) -> None:
        lines = self._last_response or [
            t for e in self.game.prompt() if e.to is None and (t := self._render(e)) is not None
        ]
        for text in lines:
            self._say_line(text)

    def _say_line(self, text: str) -> None:
        """Say one line; the assistant's lines in its own voice where the output has one."""
        speaker = getattr(text, "speaker", None)
        say_as = getattr(self.out, "say_as", None)
        if speaker is not None and say_as is not None:
            say_as(str(text), speaker)
        else:
            self.out.say(str(text))

    def _help(self, more: bool = False) -> None:
        """Help names the (at most :data:`HELP_ITEMS`) moves that can be made now;
        "more help" the other moves, the questions and the commands of every moment."""
        if self.paused:
            self._respond([Event("help_paused")])
            return
        phase = self.phase()
        data: dict[str, Any] = {}
        for event in self.game.prompt():
            if event.to is None:
                data.update(event.data)
        moves, questions = [], []
        asking = self.adapter.queries | self.adapter.status_intents | self.adapter.help_later
        for intent in self.grammar.intents.intents:  # file order: stable and sensible
            if (
                intent in phase.intents
                and intent not in self.grammar.global_intents
                and intent not in self.grammar.quiet_intents
                and intent != CORRECTION
            ):
                text = self.messages.render("help_" + intent, data)
                if text:
                    (questions if intent in asking else moves).append(text)
        if CORRECTION in phase.intents:  # last: it is about the move before
            text = self.messages.render("help_" + CORRECTION, data)
            questions += [text] if text else []
        if more:
            self._respond([Event("more_help", {"items": moves[HELP_ITEMS:] + questions})])
        else:
            self._respond([Event("help", {"items": moves[:HELP_ITEMS]})])

    def _ask_undo(self) -> None:
        count = self._undo_count()
        if count == 0:
            self._respond([Event("nothing_to_undo")])
            return
        before = self._rebuild(self.actions[:-count])
        undone = self.actions[-count:]
        last = next(a for a in undone if a.name != TIMER_ACTION)
        if self._revealed_by(undone):
            # a true colour or a character was said: taking it back would let the same
            # move be made again knowing the answer, and score
            self._respond([Event("undo_revealed")])
            return
        self._pending = _Pending("undo", last, count)
        public = self.game.public(last).to_json()
        self.out.record({"type": "confirm", "what": "undo", "action": public})
        self._respond([Event("confirm_undo", {"action": self._describe(before, last)})])

    def _correctable(self) -> tuple[int, Action, tuple[Action, ...]] | None:
        """The move that "nein, doch gelb" would correct: ``(actions from it to the end,
        the move, the actions after it that are made again)``. The last move of a person
        at the table, if it is one of the game's moves with a colour (Alle meine Farben's
        colour, a colour shown in Farben; never a Pantone guess, whose next try belongs to
        the next guesser). Only timers, the assistant's moves (it makes them again) and
        the game's ``correction_passes`` ("done" after a Farben story) may follow it;
        they are made again after the corrected move, as far as they still can be (the
        assistant's card already laid stays laid; one that no longer fits, it chooses
        anew)."""
        # keyed by the whole game so far: after an undo, other moves may end the same way
        key = tuple(self.actions)
        if self._correction_cache is not None and self._correction_cache[0] == key:
            return self._correction_cache[1]
        found: tuple[int, Action, tuple[Action, ...]] | None = None
        index = self._last_move_index(self.adapter.correction_passes)
        if index is not None:
            action = self.actions[index]
            if action.name in self.adapter.correctable and isinstance(
                action.args.get("colour"), str
            ):
                found = (len(self.actions) - index, action, tuple(self.actions[index + 1 :]))
        self._correction_cache = (key, found)
        return found

    def _ask_correct(self, slots: Mapping[str, Any]) -> None:
        """"nein, doch gelb": the move again with the colour said, asked first (the game
        has already gone on from it)."""
        correctable = self._correctable()
        colour = slots.get("colour")
        if correctable is None or not isinstance(colour, str):
            self._respond([Event("nothing_to_correct")])
            return
        count, last, redo = correctable
        probe = self._rebuild(self.actions[:-count])
        fixed = Action(last.name, {**last.args, "colour": colour})
        if fixed == last:
            self._respond([Event("correction_same", {"action": self._describe(probe, last)})])
            return
        if self._revealed_by(self.actions[-count:]):
            self._respond([Event("undo_revealed")])
            return
        description = self._describe(probe, fixed)
        try:
            probe.apply(fixed)
        except GameError as exc:  # the colour is not allowed there: the game says why
            self._refuse(exc.key, exc.params)
            return
        kept = 0
        for action in redo:
            try:
                probe.apply(action)
            except GameError:
                break  # only timers and the assistant's moves can fail: they follow anew
            kept += 1
        redo = redo[:kept]
        self._pending = _Pending("correct", fixed, count, redo, description)
        public = self.game.public(fixed).to_json()
        self.out.record({"type": "confirm", "what": "correct", "action": public})
        self._respond([Event("confirm_correct", {"action": description})])

    def _pending_colour(self) -> bool:
        """Is farbspiel asking about a move with a colour ("Lila für den Hut – richtig?")?"""
        pending = self._pending
        return (
            pending is not None
            and pending.kind == "move"
            and pending.action is not None
            and isinstance(pending.action.args.get("colour"), str)
        )

    def _correct_pending(self, slots: Mapping[str, Any]) -> None:
        """"Nein, doch gelb" answers "Lila für den Hut – richtig?": the same move with the
        colour said, asked about in turn (a recogniser may have misheard this too)."""
        pending = self._pending
        colour = slots.get("colour")
        assert pending is not None and pending.action is not None
        if not isinstance(colour, str):
            self._respond([Event("yes_or_no")])
            return
        fixed = Action(pending.action.name, {**pending.action.args, "colour": colour})
        try:
            self._rebuild(self.actions).apply(fixed)
        except GameError as exc:  # not allowed here: the game says why, the question ends
            self._pending = None
            self._refuse(exc.key, exc.params)
            return
        self._pending = None
        self._move(fixed, 0.0)

    def _correct(self, pending: _Pending) -> None:
        """The correction was confirmed: the move is made again with its new colour, and
        what followed it (a story's "done") after it. Said: what the move says, or, when
        more came after it, that it changed and what is next."""
        assert pending.action is not None
        self._take_back(pending.count)
        said: list[Event] = []
        for action in (pending.action, *pending.redo):
            events = self.game.apply(action)  # checked when asked (nothing came between)
            self._record_action(action)
            said = said or events
        if pending.redo:
            said = [Event("corrected", {"action": pending.description})] + self.game.prompt()
        self._respond(said)
        if self.game.is_over():
            self.finished = True

    def _revealed_by(self, undone: Sequence[Action]) -> bool:
        """True if any of the ``undone`` actions made the game say a hidden answer (its
        events are marked ``reveals``)."""
        probe = self._rebuild(self.actions[: -len(undone)])
        for action in undone:
            try:
                events = probe.apply(action)
            except GameError:
                return False
            if any(e.data.get("reveals") for e in events):
                return True
        return False

    def _undo_count(self) -> int:
        """Actions to take back: the last move of a person at the table, with any timer
        actions and the assistant's moves after it (the assistant would only make them
        again at once)."""
        index = self._last_move_index()
        return 0 if index is None else len(self.actions) - index

    def _last_move_index(self, passes: frozenset[str] = frozenset()) -> int | None:
        """Where the last move of a person at the table is in :attr:`actions`: timer
        actions, the assistant's moves and actions named in ``passes`` after it are
        passed over. ``None`` if there is none."""
        seat = self.seat_moves(self.actions)
        for index in range(len(self.actions) - 1, -1, -1):
            action = self.actions[index]
            if action.name != TIMER_ACTION and index not in seat and action.name not in passes:
                return index
        return None

    def _answer(self, yes: bool) -> None:
        pending, self._pending = self._pending, None
        assert pending is not None
        if not yes:
            self._respond([Event("cancelled")] + self.game.prompt())
            return
        if pending.kind == "move":
            assert pending.action is not None
            self._apply(pending.action)
        elif pending.kind == "undo":
            self._take_back(pending.count)
            self._respond([Event("undone")] + self.game.prompt())
            self._sync_timers(self._active(self._now))
        elif pending.kind == "correct":
            self._correct(pending)
            self._sync_timers(self._active(self._now))
        elif pending.kind == "quit":
            saved = self.journal is not None and self.save_now()
            self.out.record({"type": "quit", "saved": saved})
            if self.journal is None:
                key = "quit_unsaved"
            else:
                key = "quit_saved" if saved else "quit_save_failed"
            self._respond([Event(key)])
            self.finished = True

    def _take_back(self, count: int) -> None:
        """The last ``count`` actions are gone, in the game and in the save file."""
        self.game = self._rebuild(self.actions[:-count])
        del self.actions[-count:]
        self._journal(lambda j: j.append_undo(count))
        self._timers.clear()
        self.finished = False
        self.seat_notes = Notes()

    def _pause(self) -> None:
        if self.paused:
            self._respond([Event("still_paused")])
            return
        self.paused = True
        self._paused_at = self._now
        # the table view stops its clocks; a game resumed from here goes on in the pause,
        # its timers where they stood
        self._journal(lambda j: j.append_settings(self._pause_settings()))
        self.out.record({"type": "paused"})
        self._respond([Event("paused")])

    def _pause_settings(self) -> dict[str, Any]:
        """The journal's pause setting: ``paused``, and while paused how many seconds each
        running timer had run (``timers_ran``)."""
        if not self.paused:
            return {"paused": False}
        active = self._active(self._now)
        self._sync_timers(active)
        ran = {k: round(active - t.armed_at, 3) for k, t in self._timers.items()}
        return {"paused": True, "timers_ran": ran}  # always both: no stale timers_ran

    def _continue(self) -> None:
        if not self.paused:
            self._respond([Event("not_paused")])
            return
        self.paused = False
        assert self._paused_at is not None
        self._paused_total += self._now - self._paused_at
        self._paused_at = None
        self._journal(lambda j: j.append_settings(self._pause_settings()))
        self.out.record({"type": "continued"})
        self._respond([Event("continued")] + self.game.prompt())

    def _change_rate(self, step: int) -> None:
        rate = max(MIN_RATE, min(MAX_RATE, self.rate + step))
        if rate == self.rate:
            self._respond([Event("rate_slowest" if step < 0 else "rate_fastest")])
            return
        self.rate = rate
        self.out.set_rate(rate)
        self._journal(lambda j: j.append_setting("rate", rate))
        self.out.record({"type": "rate", "wpm": rate})
        self._respond([Event("rate_slower" if step < 0 else "rate_faster")])

    # --- time ----------------------------------------------------------------------------
    def _active(self, now: float) -> float:
        """Seconds of unpaused play since the session began."""
        paused = self._paused_total + (now - self._paused_at if self._paused_at is not None else 0)
        return now - self._clock_start - paused

    def tick(self, now: float) -> None:
        """Let time pass up to ``now``: due timers apply their actions, in order (and the
        assistant takes the turn a timer may have given it)."""
        self._run_timers(now)
        self._play_seat()

    def _run_timers(self, now: float) -> None:
        self._now = max(self._now, now)
        if self.paused or self.finished:
            return
        active = self._active(self._now)
        while not self.finished and self._pending is None:
            self._sync_timers(active)
            due = min(
                self._timers.values(), key=lambda t: t.armed_at + t.timer.seconds, default=None
            )
            if due is None or due.armed_at + due.timer.seconds > active:
                return
            fired_at = due.armed_at + due.timer.seconds
            del self._timers[due.timer.id]
            self._apply(due.timer.action)
            if self.clock is not None:
                # Real time: saying what the timer caused took a while; timers it armed
                # (the next guess window) start once the words are out, not before.
                self._now = max(self._now, self.clock())
                active = self._active(self._now)
                self._sync_timers(active)
            else:
                self._sync_timers(fired_at)  # virtual time: they start when it fired

    def seconds_to_next_timer(self) -> float | None:
        """How long until the next timer fires (``None``: no timer, or paused)."""
        if self.paused or self.finished or self._pending is not None:
            return None
        self._sync_timers(self._active(self._now))
        if not self._timers:
            return None
        active = self._active(self._now)
        return max(0.0, min(t.armed_at + t.timer.seconds for t in self._timers.values()) - active)

    def _timers_left(self) -> dict[str, float]:
        active = self._active(self._now)
        return {
            timer_id: max(0.0, armed.armed_at + armed.timer.seconds - active)
            for timer_id, armed in self._timers.items()
        }

    def _sync_timers(self, active: float) -> None:
        wanted = {t.id: t for t in self.game.timers()}
        for timer_id in list(self._timers):
            if timer_id not in wanted:
                del self._timers[timer_id]
        for timer_id, timer in wanted.items():
            if timer_id not in self._timers:
                self._timers[timer_id] = _ArmedTimer(timer, active)

    # --- output ----------------------------------------------------------------------------
    def _render(self, event: Event) -> str | None:
        key = event.type
        seat = self.seat
        if seat is not None and event.data.get("player") == seat.name:
            if key.startswith(SEAT_EVENTS):
                text = self.messages.render(key, event.data)
                if text is None:
                    return None
                data = {"player": seat.name, "text": text}
                line = _Spoken(self.messages.render("assistant_voice", data) or text)
                line.speaker = seat.name
                return line
            if self.messages.has(SEAT_OVERRIDE + key):
                key = SEAT_OVERRIDE + key
        return self.messages.render(key, event.data)

    def _describe(self, game: Game, action: Action) -> str:
        event = game.describe(action)
        return self._render(event) or action.name

    def _emit(self, events: Iterable[Event]) -> None:
        for event in events:
            if event.to is not None:
                self._tell_privately(event)
                continue
            text = self._render(event)
            if text:
                self._say_line(text)
                self._response.append(text)
            if event.type not in _SESSION_KEYS:  # session answers are recorded where made
                self.out.record(event.to_json())

    def _tell_privately(self, event: Event) -> None:
        """A secret for one player: only to the private output (a second screen, a file,
        later headphones), never to the table, never into what "repeat" repeats. The
        public record only notes that something was told, not what."""
        self.out.record({"type": "private", "to": event.to, "about": event.type})
        if self.private is None:
            # No private channel: never the secret itself, only how to get a channel -
            # and nothing at all when the player knows it already (a printed card).
            if event.to not in self._missing_told and self.adapter.must_tell_privately(
                event, self.setup
            ):
                self._missing_told.add(event.to)  # once per answer, not once per card
                again = event.to in self._missing_ever
                key = "private_missing_again" if again else "private_missing"
                self._missing_ever.add(event.to)  # the long explanation once per player
                self._say_only([Event(key, {"player": event.to})])
            return
        text = self._render(event)
        if text:
            self.private.say(text)
        self.private.record(event.to_json())

    def _respond(self, events: Iterable[Event]) -> None:
        """Say ``events``; they become what "repeat" says again (with all the assistant
        says and does in one go, while it takes its turn)."""
        if not self._seat_acting:
            self._response = []
        self._missing_told: set[str] = set()
        self._emit(events)
        if self._response:
            self._last_response = self._response

    def _say_only(self, events: Iterable[Event]) -> None:
        """Say ``events`` without replacing what "repeat" repeats."""
        for event in events:
            text = self._render(event)
            if text:
                self._say_line(text)

    def notice(self, key: str, params: dict[str, Any] | None = None, prompt: bool = False) -> None:
        """Tell the table about something outside the game (the microphone went away or
        came back); with ``prompt``, then say again what the game waits for."""
        self.out.record({"type": key, **(params or {})})
        self._say_only([Event(key, params or {})])
        if prompt and not self.finished and self._pending is None and not self.paused:
            self._respond(self.game.prompt())

    def _refuse(self, key: str, params: dict[str, Any], prompt: bool = False) -> None:
        self.out.record({"type": "refused", "reason": key, **params})
        events = [Event(key, params)] + (self.game.prompt() if prompt else [])
        self._say_only(events)


_SESSION_KEYS = frozenset(
    {
        "resumed",
        "resumed_paused",
        "journal_tail_dropped",
        "help",
        "more_help",
        "help_paused",
        "confirm_undo",
        "confirm_correct",
        "correction_same",
        "corrected",
        "nothing_to_correct",
        "confirm_move",
        "confirm_quit",
        "confirm_quit_unsaved",
        "confirm_quit_save_failed",
        "undone",
        "nothing_to_undo",
        "undo_revealed",
        "cancelled",
        "yes_or_no",
        "say_again",
        "nothing_to_confirm",
        "paused",
        "still_paused",
        "continued",
        "not_paused",
        "rate_slower",
        "rate_faster",
        "rate_slowest",
        "rate_fastest",
        "quit_saved",
        "quit_unsaved",
        "quit_save_failed",
    }
)
