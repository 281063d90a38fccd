"""The assistant's seat at the table (``--assistant``): farbspiel plays one seat itself.

It takes its turn whenever the game waits for it, says what it does in its own voice, and
its moves are applied and journalled like a player's (the strategy: :mod:`games.assistant`).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.assistant import Notes, next_turn, waits_for_hint
from games.engine import Action, GameError
from voice.session.core import Table

MAX_SEAT_STEPS = 100
"""At most this many assistant moves in a row (a whole naming turn is a few)."""


class SeatPlayer:
    """Plays :attr:`Table.seat` at ``table`` (does nothing when there is no such seat)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.notes = Notes()
        """What the assistant noticed this turn (the hint word was told)."""

    def play(self) -> None:
        """Let the assistant take its turn(s), if the game waits for it: it says what it
        does in its own voice, and its actions are applied (and journalled) like a
        player's. Its words and the game's answers are one response for "repeat"."""
        table, seat = self.table, self.table.seat
        if seat is None or table.seat_acting:
            return
        table.seat_acting = True
        try:
            started = False
            for _ in range(MAX_SEAT_STEPS):
                if table.finished or table.question is not None or table.paused:
                    break
                turn = next_turn(table.game, seat, self.notes)
                if turn is None:
                    break
                if not started:
                    table.response = []
                    started = True
                table.emit(turn.say)
                if turn.action is None:
                    break
                if not table.apply(turn.action):
                    break  # cannot happen: the assistant only makes legal moves
            if started and table.response:
                table.last_response = table.response
            table.sync_timers()
        finally:
            table.seat_acting = False

    def heard_talk(self) -> None:
        """Table talk while the assistant waits for the hint word it asked for: that was
        the hint, so it names the colour now."""
        seat = self.table.seat
        if seat is not None and waits_for_hint(self.table.game, seat):
            self.notes.hint_heard = True
            self.play()

    def forget(self) -> None:
        """Moves were taken back: what the assistant noticed this turn no longer holds."""
        self.notes = Notes()

    def moves(self, actions: Sequence[Action]) -> set[int]:
        """Which of ``actions`` (from the start of the game) the assistant made: those it
        would make in the state before them, or, when it was its turn to make such a move,
        another of the same kind for itself (after a correction before it, it might choose
        differently now; its move is still its own)."""
        table, seat = self.table, self.table.seat
        if seat is None:
            return set()
        game = table.adapter.create(table.setup)
        game.start()
        found: set[int] = set()
        for index, action in enumerate(actions):
            turn = next_turn(game, seat, Notes(hint_heard=True))
            if (
                turn is not None
                and turn.action is not None
                and (
                    turn.action == action
                    or (
                        turn.action.name == action.name
                        and game.current_player() == seat.name
                        and action.args.get("player", seat.name) == seat.name
                    )
                )
            ):
                found.add(index)
            try:
                game.apply(action)
            except GameError:
                break
        return found

    def moves_in_words(self, start: int) -> list[str]:
        """The assistant's moves from :attr:`Table.actions` ``[start]`` on, in words (an
        undo that takes them back says so)."""
        table = self.table
        mine = self.moves(table.actions)
        probe = table.rebuild(table.actions[:start])
        said: list[str] = []
        for index in range(start, len(table.actions)):
            if index in mine:
                said.append(table.describe(probe, table.actions[index]))
            probe.apply(table.actions[index])
        return said
