"""The yes/no dialogue: the questions farbspiel asks before something counts, and what a
"yes" or a "no" to each does.

* a move understood with little confidence: "Lila für den Hut – richtig?"
  (:class:`MoveQuestion`; "nein, doch gelb" answers it with another colour), or, where two
  colours compete, "Meinst du lila oder rosa?" (:mod:`voice.session.choice`) - unless it
  is cheap to take back and fairly sure: then it is made at once and said back, and "nein"
  or "nein, doch gelb" right after takes it back (implicit confirmation, :attr:`said_back`);
* a move that is not cheap to take back (a Pantone guess, a Farben answer that scores),
  heard fairly sure: said back and held for a moment (:data:`HOLD_SECONDS`) before it
  counts; "nein" in that moment drops it, "ja" or anything else said lets it count
  (:attr:`Dialogue.held`);
* undo: "Shall I take this back: ...?" (:class:`UndoQuestion`);
* a correction of the last move, "no wait, yellow" (:class:`CorrectQuestion`): right after
  a move cheap to take back, with nothing else said since (:attr:`Dialogue.just_made`), it
  is made at once and said ("Geändert: …"), as the move was; later it is asked first;
* quit (:class:`QuitQuestion`).

What a move taken back is (the last move of a person at the table, with the timers and the
assistant's moves after it) is decided in one place, :meth:`Dialogue.last_move_index`;
undo and the correction both use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine import Action, Event, GameError
from voice.session import choice
from voice.session.choice import ChoiceQuestion
from voice.session.core import (
    HOLD_SECONDS,
    SAY_BACK_FROM,
    TIMER_ACTION,
    Phase,
    Question,
    Table,
)
from voice.session.moves import Correctable, Moves
from voice.session.seat import SeatPlayer

CORRECTION = "correction"
"""The intent of "nein, doch gelb" / "no wait, yellow": the last move, with another colour."""

ANSWERS = frozenset({"affirm", "deny"})
"""The intents that answer a question."""

ASKED_AGAIN = frozenset({"undo"})
"""Requests asked back that, said again while asked ("Yes, take it back", "ja, mach
rückgängig"), answer yes. Not quitting: "quit" said again stays a question (ending the
game on two mishearings costs more than one more question)."""

KEYS = frozenset(
    {
        "confirm_move",
        "held",
        "confirm_undo",
        "confirm_undo_seat",
        "confirm_correct",
        "confirm_quit",
        "confirm_quit_unsaved",
        "confirm_quit_save_failed",
        "correction_same",
        "corrected",
        "nothing_to_correct",
        "undone",
        "nothing_to_undo",
        "undo_revealed",
        "cancelled",
        "yes_or_no",
        "nothing_to_confirm",
        "taken_back",
        "quit_saved",
        "quit_unsaved",
        "quit_save_failed",
    }
)
"""The message keys the dialogue says (its answers are recorded where made)."""


@dataclass
class MoveQuestion(Question):
    """ "Lila für den Hut – richtig?": a move understood with too little confidence."""

    kind: ClassVar[str] = "move"
    action: Action


@dataclass
class UndoQuestion(Question):
    """ "Shall I take this back?": the last ``count`` actions, whose move is ``action``."""

    kind: ClassVar[str] = "undo"
    action: Action
    count: int


@dataclass
class CorrectQuestion(Question):
    """ "Shall I change that to ...?": the last ``count`` actions go; ``action`` (the move
    with its new colour) and then ``redo`` are made instead."""

    kind: ClassVar[str] = "correct"
    action: Action
    count: int
    redo: tuple[Action, ...]
    description: str
    """The corrected move in words."""


@dataclass
class QuitQuestion(Question):
    """ "Do you really want to stop?\""""

    kind: ClassVar[str] = "quit"
    action: None = None


@dataclass
class Held:
    """A move said back and held before it counts (:meth:`Dialogue.hold`)."""

    action: Action
    due: float
    """The session clock's reading (:attr:`Clock.now`) at which it counts."""


class Dialogue:
    """Asks the questions at ``table`` and acts on their answers."""

    def __init__(self, table: Table, seat: SeatPlayer) -> None:
        self.table = table
        self.seat = seat
        self.moves = Moves(table, seat)
        self.said_back: int | None = None
        """Where in :attr:`Table.actions` the move made at once and said back stands,
        while "nein" right after it may still take it back (until anything else is said)."""
        self.just_made: int | None = None
        """Where the last move cheap to take back that a person made stands, while nothing
        else has been said since: "nein, doch gelb" then changes it at once and says so
        (its acknowledgement said it back), with no question first."""
        self.held: Held | None = None
        """A move not cheap to take back, said back and waiting a moment before it counts
        (the game's timers stand still meanwhile)."""
        self._refused: tuple[tuple[Action, ...], Action] | None = None
        """A move with a colour just refused, and the game it was refused in."""

    # --- what is heard ---------------------------------------------------------------
    def phase(self, always: frozenset[str]) -> Phase:
        """What is heard while a question waits: yes, no, a new colour for the move
        asked about, and the ``always`` commands."""
        # "Lila für den Hut – richtig?" "Nein, doch gelb."
        held = self.held is not None and isinstance(self.held.action.args.get("colour"), str)
        correction = {CORRECTION} if self.asks_colour() or held else set()
        heard = frozenset(ANSWERS | correction) | always
        question = self.table.question
        if isinstance(question, ChoiceQuestion):  # "Meinst du lila oder rosa?" "Lila."
            return choice.phase(self.table, question, heard)
        return Phase(heard)

    def answer_heard(self, name: str, slots: Mapping[str, Any], phase: Phase) -> bool:
        """While a question waits: handle ``name`` if it answers it (or is no answer);
        False if it is a command heard now."""
        question = self.table.question
        if question is None:
            return False
        if isinstance(question, ChoiceQuestion):  # "Meinst du lila oder rosa?" "Lila."
            if choice.answered(self.table, question, name, slots, phase, self._chosen):
                return True
        if name in ANSWERS:
            self.answer(name == "affirm")
        elif name == question.kind and name in ASKED_AGAIN:
            self.answer(True)  # "Shall I take this back?" "Yes, take it back." / "undo it"
        elif name == CORRECTION and self.asks_colour():
            self._correct_asked(slots)
        elif name not in phase.intents:
            self.table.respond([Event("yes_or_no")])
        else:
            return False
        return True

    def unasked(self, name: str, slots: Mapping[str, Any], confidence: float = 1.0) -> bool:
        """With no question waiting: "yes" (nothing to confirm) and "nein, doch gelb"
        (correct the last move, or try again the move just refused); False for any
        other intent."""
        if name in ANSWERS:
            if name == "deny" and self._said_back() is not None:
                self._take_back_said()
            elif self._said_back() is not None:  # "ja" to what was said back: it stands
                self.said_back = None
            else:
                self.table.respond([Event("nothing_to_confirm")])
        elif name == CORRECTION:
            again, colour = self.refused_move(), slots.get("colour")
            if again is not None and isinstance(colour, str):
                self.move(Action(again.name, {**again.args, "colour": colour}), confidence)
            else:
                self.ask_correct(slots, confidence)
        else:
            return False
        return True

    # --- asking ----------------------------------------------------------------------
    def move(self, action: Action, confidence: float) -> None:
        """Make ``action``; first ask, if it was understood with too little confidence
        or the game wants it asked (:meth:`Game.confirm_first`) - unless it is cheap to take
        back and fairly sure: then it is made and said back (implicit confirmation)."""
        table = self.table
        asked = table.game.confirm_first(action)
        said_back = action.name in table.adapter.said_back and confidence >= SAY_BACK_FROM
        unsure = confidence < table.confirm_below
        if unsure and said_back and not asked and not self.moves.reveals(action):
            self._say_back(action)
            return
        if unsure and not asked and confidence >= SAY_BACK_FROM:
            self.hold(action)  # not cheap to take back: said back, counts in a moment
            return
        if unsure or asked:
            self._ask_move(action)
            return
        self._apply(action)

    def _say_back(self, action: Action) -> None:
        """Make ``action`` at once; its acknowledgement says it back, and "nein" right
        after takes it back (:attr:`said_back`)."""
        table = self.table
        public = table.game.public(action).to_json()
        made = len(table.actions)
        self._apply(action)
        if len(table.actions) > made:
            table.out.record({"type": "said_back", "action": public})
            self.said_back = made

    def _ask_move(self, action: Action) -> None:
        """ "Lila für den Hut – richtig?": ``action`` counts only on a yes."""
        table = self.table
        table.question = MoveQuestion(action)
        description = table.describe(table.game, action)
        public = table.game.public(action).to_json()
        table.out.record({"type": "confirm", "what": "move", "action": public})
        table.respond([Event("confirm_move", {"action": description})])

    # --- a move held a moment before it counts ---------------------------------------
    def hold(self, action: Action) -> None:
        """Say ``action`` back and let it count :data:`HOLD_SECONDS` after the words are
        out, unless "nein" comes first (one the game refuses is refused at once)."""
        table = self.table
        try:
            table.rebuild(table.actions).apply(action)
        except GameError as exc:  # not allowed now: the game says why, nothing is held
            self._refuse(action)
            table.refuse(exc.key, exc.params)
            return
        description = table.describe(table.game, action)
        table.out.record({"type": "held", "action": table.game.public(action).to_json()})
        table.timers.pause()  # the guess window does not run out while it waits
        table.respond([Event("held", {"action": description})])
        said = table.clock() if table.clock is not None else table.timers.now
        self.held = Held(action, max(table.timers.now, said) + HOLD_SECONDS)

    def held_for(self) -> float | None:
        """Seconds until the held move counts (None: nothing is held)."""
        if self.held is None:
            return None
        return max(0.0, self.held.due - self.table.timers.now)

    def settle_held(self, name: str, slots: Mapping[str, Any]) -> bool:
        """Something was said while a move is held: "ja" lets it count now, "nein" (or
        "undo") drops it, "nein, doch blau" holds the move with that colour instead;
        anything else lets it count first (then False: handle what was said)."""
        held = self.held
        if held is None:
            return False
        if name == "affirm":
            self.release()
            return True
        if name in ("deny", "undo"):
            self.drop()
            return True
        colour = slots.get("colour")
        if name == CORRECTION and isinstance(colour, str) and "colour" in held.action.args:
            self._unfreeze()
            self.move(
                Action(held.action.name, {**held.action.args, "colour": colour}), SAY_BACK_FROM
            )
            return True
        self.release()
        return False

    def ask_held(self) -> None:
        """Something unclear was said while a move is held (a "nein" half heard?): the
        move is asked about instead ("Gonzo – richtig?")."""
        self._ask_move(self._unfreeze().action)

    def release(self) -> None:
        """The held move counts now."""
        held = self._unfreeze()
        self._apply(held.action)
        self.table.sync_timers()

    def drop(self) -> None:
        """ "nein" to the held move: it never counts; the game asks for the move again."""
        table = self.table
        held = self._unfreeze()
        self._refuse(held.action)  # "nein, doch lila" tries again
        said = held.action.args.get("text")
        if isinstance(said, str):  # a name guessed from these words was not meant
            table.parser.declined(said)
        table.out.record({"type": "dropped", "action": table.game.public(held.action).to_json()})
        table.respond([Event("cancelled")] + table.game.prompt())

    def _unfreeze(self) -> Held:
        held, self.held = self.held, None
        assert held is not None
        self.table.timers.go_on()
        return held

    def _chosen(self, action: Action) -> None:
        """One of two colours chosen ("Lila oder rosa?" "Rosa."): the answer may be misheard
        too, so a move cheap to take back is made and said back ("nein" takes it back),
        any other is held a moment before it counts."""
        if action.name in self.table.adapter.said_back:
            self._say_back(action)
        else:
            self.hold(action)

    def _apply(self, action: Action) -> None:
        """Make a person's move; one refused is remembered (:meth:`refused_move`)."""
        table = self.table
        index = len(table.actions)
        made = table.apply(action)
        self._refused = None
        if not made:
            self._refuse(action)
        elif action.name in table.adapter.said_back and self.moves.last_move_index() == index:
            self.just_made = index

    def _refuse(self, action: Action) -> None:
        table = self.table  # only a move with a colour can be tried again with another
        if action.name in table.adapter.correctable and "colour" in action.args:
            self._refused = (tuple(table.actions), action)

    def refused_move(self) -> Action | None:
        """The move with a colour refused (or answered "no") just now, nothing made since:
        "nein, doch lila" is that player trying again, not a change of the move before."""
        refused = self._refused
        if refused is None or refused[0] != tuple(self.table.actions):
            return None
        return refused[1]

    def ask_quit(self) -> None:
        """ "Do you really want to stop?" (and whether the game stays saved)."""
        table = self.table
        table.question = QuitQuestion()
        table.out.record({"type": "confirm", "what": "quit"})
        if table.journal is None:
            key = "confirm_quit_unsaved"
        else:
            key = "confirm_quit" if table.save_now() else "confirm_quit_save_failed"
        table.respond([Event(key)])

    def ask_undo(self) -> None:
        """ "Shall I take this back: ...?" - unless there is nothing, or it told an answer."""
        table = self.table
        index = self.moves.last_move_index()
        count = 0 if index is None else len(table.actions) - index
        if count == 0:
            table.respond([Event("nothing_to_undo")])
            return
        before = table.rebuild(table.actions[:-count])
        undone = table.actions[-count:]
        last = next(a for a in undone if a.name != TIMER_ACTION)
        if self.moves.revealed_by(undone):
            # a true colour or a character was said: taking it back would let the same
            # move be made again knowing the answer, and score
            table.respond([Event("undo_revealed")])
            return
        table.question = UndoQuestion(last, count)
        public = table.game.public(last).to_json()
        table.out.record({"type": "confirm", "what": "undo", "action": public})
        data: dict[str, Any] = {"action": table.describe(before, last)}
        seat = self.seat.moves_in_words(len(table.actions) - count)
        if seat:  # the assistant's moves after it go too: it says so and asks
            data["seat"] = seat
        table.respond([Event("confirm_undo_seat" if seat else "confirm_undo", data)])

    def ask_correct(self, slots: Mapping[str, Any], confidence: float = 1.0) -> None:
        """ "nein, doch gelb": the move again with the colour said. Right after the move
        was said (nothing else said since) and fairly sure, it is changed at once and said
        so ("nein" then takes it back); otherwise asked first (the game has already gone
        on from it)."""
        table = self.table
        correctable = self.moves.correctable()
        colour = slots.get("colour")
        if correctable is None or not isinstance(colour, str):
            table.respond([Event("nothing_to_correct")])
            return
        count, last, redo = correctable
        said_back = self._said_back() == count or (
            self._just_made() == count and confidence >= SAY_BACK_FROM
        )
        probe = table.rebuild(table.actions[:-count])
        fixed = Action(last.name, {**last.args, "colour": colour})
        if fixed == last:
            table.respond([Event("correction_same", {"action": table.describe(probe, last)})])
            return
        if self.moves.revealed_by(table.actions[-count:]):
            table.respond([Event("undo_revealed")])
            return
        description = table.describe(probe, fixed)
        try:
            probe.apply(fixed)
        except GameError as exc:  # the colour is not allowed there: the game says why
            table.refuse(exc.key, exc.params)
            return
        kept = 0
        for action in redo:
            try:
                probe.apply(action)
            except GameError:
                break  # only timers and the assistant's moves can fail: they follow anew
            kept += 1
        question = CorrectQuestion(fixed, count, redo[:kept], description)
        if said_back:  # "nein, doch gelb" right after the move was said: no need to ask
            self._correct(question)
            table.sync_timers()
            self.said_back = len(table.actions) - 1 - len(question.redo)
            return
        table.question = question
        public = table.game.public(fixed).to_json()
        table.out.record({"type": "confirm", "what": "correct", "action": public})
        table.respond([Event("confirm_correct", {"action": description})])

    def asks_colour(self) -> bool:
        """Is farbspiel asking about a move with a colour ("Lila für den Hut – richtig?")?"""
        question = self.table.question
        return isinstance(question, MoveQuestion | ChoiceQuestion) and isinstance(
            question.action.args.get("colour"), str
        )

    def _correct_asked(self, slots: Mapping[str, Any]) -> None:
        """ "Nein, doch gelb" answers "Lila für den Hut – richtig?": the same move with the
        colour said, asked about in turn (a recogniser may have misheard this too)."""
        table = self.table
        question = table.question
        colour = slots.get("colour")
        assert isinstance(question, MoveQuestion | ChoiceQuestion)
        if not isinstance(colour, str):
            table.respond([Event("yes_or_no")])
            return
        fixed = Action(question.action.name, {**question.action.args, "colour": colour})
        try:
            table.rebuild(table.actions).apply(fixed)
        except GameError as exc:  # not allowed here: the game says why, the question ends
            table.question = None
            table.refuse(exc.key, exc.params)
            return
        table.question = None
        self.move(fixed, 0.0)

    # --- the answer ------------------------------------------------------------------
    def answer(self, yes: bool) -> None:
        """Yes or no to the question asked: a no cancels it, a yes does what it asked."""
        table = self.table
        question, table.question = table.question, None
        assert question is not None
        if not yes:
            if isinstance(question, MoveQuestion | ChoiceQuestion):  # "nein, doch gelb" next
                self._refuse(question.action)
                said = question.action.args.get("text")
                if isinstance(said, str):  # a name guessed from these words was not meant
                    table.parser.declined(said)
            table.respond([Event("cancelled")] + table.game.prompt())
            return
        if isinstance(question, MoveQuestion):
            self._apply(question.action)
        elif isinstance(question, UndoQuestion):
            moves = self.moves.replayed(table.actions[-question.count :])
            self._take_back(question.count)
            told = table.adapter.table_undo(table.setup, moves)
            table.respond([Event("undone"), *told] + table.game.prompt())
            table.sync_timers()
        elif isinstance(question, CorrectQuestion):
            self._correct(question)
            table.sync_timers()
        elif isinstance(question, QuitQuestion):
            self._quit()
        else:
            raise TypeError(f"no answer for the question {question!r}")

    def _quit(self) -> None:
        table = self.table
        saved = table.journal is not None and table.save_now()
        table.out.record({"type": "quit", "saved": saved})
        if table.journal is None:
            key = "quit_unsaved"
        else:
            key = "quit_saved" if saved else "quit_save_failed"
        table.respond([Event(key)])
        table.finished = True

    def _correct(self, question: CorrectQuestion) -> None:
        """The correction was confirmed: the move is made again with its new colour, and
        what followed it (a story's "done") after it. Said: that it changed, what the
        table does with its cards (what followed and is not made again goes back first;
        nothing is drawn twice), and what is next."""
        table = self.table
        moves = self.moves.replayed(table.actions[-question.count :])
        dropped = moves[1 + len(question.redo) :]
        adapter = table.adapter
        told = adapter.table_undo(table.setup, dropped)
        told += adapter.table_correct(table.setup, moves[0], question.action)
        self._take_back(question.count)
        for action in (question.action, *question.redo):
            table.game.apply(action)  # checked when asked (nothing came between)
            table.record_action(action)
        corrected = Event("corrected", {"action": question.description})
        table.respond([corrected, *told] + table.game.prompt())
        if table.game.is_over():
            table.finished = True

    def _take_back(self, count: int) -> None:
        """The last ``count`` actions are gone, in the game and in the save file."""
        table = self.table
        table.game = table.rebuild(table.actions[:-count])
        del table.actions[-count:]
        table.write_journal(lambda j: j.append_undo(count))
        table.timers.armed.clear()
        table.finished = False
        self.seat.forget()

    # --- implicit confirmation ----------------------------------------------------------
    def heard_other(self) -> None:
        """Something else was said: "nein" no longer takes the move said back, and a
        correction is asked first."""
        self.said_back = None
        self.just_made = None

    def _just_made(self) -> int | None:
        """How many actions a correction right now changes at once with the move just made
        (:attr:`just_made`), or None."""
        self.just_made = self._still_last(self.just_made)
        return self._since(self.just_made)

    def takes_back(self) -> bool:
        """Would "nein" now take back a move said back?"""
        return self._said_back() is not None

    def _said_back(self) -> int | None:
        """How many actions "nein" right now takes back with the move said back (the
        timers and the assistant's moves since), or None if it takes back nothing."""
        self.said_back = self._still_last(self.said_back)
        return self._since(self.said_back)

    def _still_last(self, index: int | None) -> int | None:
        """``index`` if the move there is still the last move of a person, else None."""
        return index if index is not None and self.moves.last_move_index() == index else None

    def _since(self, index: int | None) -> int | None:
        """How many actions stand from ``index`` on (the move and what followed it)."""
        return None if index is None else len(self.table.actions) - index

    def _take_back_said(self) -> None:
        """ "nein" right after a move said back: it is taken back, and asked for again."""
        table = self.table
        count = self._said_back()
        assert count is not None
        last = table.actions[-count]
        description = table.describe(table.rebuild(table.actions[:-count]), last)
        moves = self.moves.replayed(table.actions[-count:])
        self._take_back(count)
        self.said_back = None
        told = table.adapter.table_undo(table.setup, moves)
        table.out.record({"type": "taken_back", "action": table.game.public(last).to_json()})
        table.respond([Event("taken_back", {"action": description}), *told] + table.game.prompt())
        table.sync_timers()

    def correctable(self) -> Correctable | None:
        """The move "nein, doch gelb" would correct (:meth:`Moves.correctable`)."""
        return self.moves.correctable()

    def corrected_values(self) -> dict[str, Any]:
        """What that move was about (:meth:`Moves.corrected_values`)."""
        return self.moves.corrected_values()
