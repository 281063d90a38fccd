"""Which move is whose: the last move of a person at the table (passing over timers and
the assistant's moves), the move "nein, doch gelb" would correct, and what taking moves
back would undo or reveal. Questions only; :mod:`voice.session.dialogue` acts on them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import Action, Event, GameError
from voice.session.core import TIMER_ACTION, Table
from voice.session.journal import JournalError
from voice.session.seat import SeatPlayer

Correctable = tuple[int, Action, tuple[Action, ...]]
"""A move "nein, doch gelb" would correct: (actions from it to the end, the move, the
actions after it that are made again)."""


class Moves:
    """The moves made at ``table``, read for undo and correction."""

    def __init__(self, table: Table, seat: SeatPlayer) -> None:
        self.table = table
        self.seat = seat
        self._cache: tuple[tuple[Action, ...], Correctable | None] | None = None
        self._about: tuple[tuple[Action, ...], dict[str, Any]] | None = None

    def last_move_index(self, passes: frozenset[str] = frozenset()) -> int | None:
        """Where the last move of a person at the table is in :attr:`Table.actions`: timer
        actions, the assistant's moves and actions named in ``passes`` after it are
        passed over. ``None`` if there is none."""
        actions = self.table.actions
        seat = self.seat.moves(actions)
        for index in range(len(actions) - 1, -1, -1):
            action = actions[index]
            if action.name != TIMER_ACTION and index not in seat and action.name not in passes:
                return index
        return None

    def correctable(self) -> Correctable | None:
        """The move that "nein, doch gelb" would correct. The last move of a person at
        the table, if it is one of the game's moves with a colour (Alle meine Farben's
        colour, a colour shown in Farben; never a Pantone guess, whose next try belongs to
        the next guesser). Only timers, the assistant's moves (it makes them again) and
        the game's ``correction_passes`` ("done" after a Farben story) may follow it;
        they are made again after the corrected move, as far as they still can be (the
        assistant's card already laid stays laid; one that no longer fits, it chooses
        anew)."""
        # keyed by the whole game so far: after an undo, other moves may end the same way
        actions = self.table.actions
        key = tuple(actions)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        found: Correctable | None = None
        adapter = self.table.adapter
        index = self.last_move_index(adapter.correction_passes)
        if index is not None:
            action = actions[index]
            if action.name in adapter.correctable and isinstance(action.args.get("colour"), str):
                found = (len(actions) - index, action, tuple(actions[index + 1 :]))
        self._cache = (key, found)
        return found

    def corrected_values(self) -> dict[str, Any]:
        """What the move "nein, doch gelb" would correct was about: its own values (its
        colour) and those the game then expected that only it could take (Alle meine
        Farben's object, which the move itself does not name). Empty if there is none."""
        actions = tuple(self.table.actions)
        if self._about is not None and self._about[0] == actions:
            return self._about[1]
        values: dict[str, Any] = {}
        found = self.correctable()
        if found is not None:
            undone, action, _ = found
            try:
                then = self.table.rebuild(actions[: len(actions) - undone]).expecting().slots
            except JournalError:
                then = {}
            values = {k: next(iter(v)) for k, v in then.items() if len(tuple(v)) == 1}
            values.update(action.args)
        self._about = (actions, values)
        return values

    def revealed_by(self, undone: Sequence[Action]) -> bool:
        """True if any of the ``undone`` actions made the game say a hidden answer (its
        events are marked ``reveals``)."""
        moves = self.replayed(undone)
        return any(e.data.get("reveals") for events in moves for e in events)

    def replayed(self, undone: Sequence[Action]) -> list[list[Event]]:
        """The events each of the last actions ``undone`` caused, oldest first."""
        probe = self.table.rebuild(self.table.actions[: -len(undone)])
        moves: list[list[Event]] = []
        for action in undone:
            try:
                moves.append(probe.apply(action))
            except GameError:
                break
        return moves

    def reveals(self, action: Action) -> bool:
        """Would ``action`` make the game say a hidden answer? (Then it is asked first: a
        "nein" after it could not take back what the table has heard.)"""
        try:
            events = self.table.rebuild(self.table.actions).apply(action)
        except GameError:
            return False  # refused when made, with the game's reason
        return any(e.data.get("reveals") for e in events)
