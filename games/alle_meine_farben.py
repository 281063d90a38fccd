"""Alle meine Farben: colour the 20 objects of a 5 x 4 grid, one colour per row and column.

Basic game (cooperative): objects are coloured strictly in order 1..20, the player whose
turn it is names a colour for the current object; a colour may appear at most once in
each row and each column. A player who cannot (or does not want to) play passes: one hand
card is discarded face down and a card drawn. The table wins together when all 20 are
coloured; the game is lost when no colour fits the current object any more or nobody
holds a card.

Profi variant: random starting player, everyone for themselves, cards are named and put
face down, passing is forbidden and rule-breaking colours are accepted without a word.
After the 20th card the engine reveals the cards in ascending order; a card whose colour
already lies revealed in its row or column is a penalty point for whoever laid it.

The engine cannot see the players' hands; it tracks how many cards each holds and how
many remain in the draw pile (28 cards, 3 dealt each, one drawn after every placement or
pass while any remain).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.data import load
from games.engine import (
    JSON,
    Action,
    Event,
    Expectation,
    Game,
    NotAllowed,
    NotNow,
    Setup,
    SetupError,
    expect_args,
    first_player,
    left_of,
    winners,
)

DATA = load("alle_meine_farben")
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
OBJECTS: tuple[str, ...] = tuple(o["id"] for o in DATA["objects"])
COLUMNS: int = DATA["columns"]
ROWS: int = DATA["rows"]
CELLS = COLUMNS * ROWS
COPIES: int = DATA["copies_per_colour"]
HAND_SIZE: int = DATA["hand_size"]
VARIANTS = ("basic", "profi")


_TABLE_QUESTIONS = frozenset({"where_is", "object_colour", "placed", "whole_board"})
"""Questions about the board that anyone at the table could answer by looking."""


def row_of(number: int) -> int:
    """Row 1..4 of object ``number`` (1..20)."""
    return (number - 1) // COLUMNS + 1


def column_of(number: int) -> int:
    """Column 1..5 of object ``number`` (1..20)."""
    return (number - 1) % COLUMNS + 1


def row_numbers(row: int) -> list[int]:
    return [n for n in range(1, CELLS + 1) if row_of(n) == row]


def column_numbers(column: int) -> list[int]:
    return [n for n in range(1, CELLS + 1) if column_of(n) == column]


@dataclass
class Card:
    """A colour card lying on an object."""

    colour: str
    player: str
    revealed: bool


class AlleMeineFarben(Game):
    game_id = "alle-meine-farben"
    min_players = 1
    max_players = 6

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        variant = setup.options.get("variant", "basic")
        if variant not in VARIANTS:
            raise SetupError("unknown_variant", variant=variant, variants=list(VARIANTS))
        if variant == "profi" and len(setup.players) < 2:
            raise SetupError("player_count", count=len(setup.players), low=2, high=6)
        self.variant: str = variant
        self.phase = "choose_first"
        self.turn: str = self.players[0]
        self.number = 1
        self.board: dict[int, Card] = {}
        self.hands: dict[str, int] = {p: HAND_SIZE for p in self.players}
        self.pile = len(COLOURS) * COPIES - HAND_SIZE * len(self.players)
        self.penalties: dict[str, int] = {p: 0 for p in self.players}
        self.outcome: str | None = None

    @property
    def profi(self) -> bool:
        return self.variant == "profi"

    # --- starting ------------------------------------------------------------------
    def start(self) -> list[Event]:
        events = [Event("welcome", {"variant": self.variant, "players": list(self.players)})]
        if self.setup.first is not None:
            return events + self._begin(self.setup.first, chosen_by="table")
        if self.profi:  # the profi rules draw the starting player by lot
            return events + self._begin(self.rng.choice(self.players), chosen_by="lot")
        if len(self.players) == 1:
            return events + self._begin(self.players[0], chosen_by="table")
        return events + [Event("ask_first", {"rule": "youngest"})]

    def _begin(self, player: str, chosen_by: str) -> list[Event]:
        self.turn = player
        self.phase = "play"
        return [Event("first", {"player": player, "chosen_by": chosen_by}), self._turn_event()]

    # --- what the session asks ------------------------------------------------------
    def current_player(self) -> str | None:
        return self.turn if self.phase == "play" else None

    def expecting(self) -> Expectation:
        if self.phase == "choose_first":
            return Expectation(frozenset({"choose_first", "random_first"}))
        if self.phase == "play":
            intents = {"place", "board_row", "board_column", "status"} | _TABLE_QUESTIONS
            if not self.profi:
                intents.add("allowed_colours")
                if len(self.allowed_colours()) < len(COLOURS):  # else any card fits
                    intents.add("pass")
            # Recognisers listen for this game's colours and full sentences about the
            # current object only (any object may still be named in the short form).
            slots = {"colour": COLOURS, "object": (self.number,)}
            return Expectation(frozenset(intents), player=self.turn, slots=slots)
        return Expectation(frozenset())

    def legal_actions(self) -> list[Action]:
        if self.phase == "choose_first":
            return [Action("first", {"player": p}) for p in self.players] + [
                Action("first", {"random": True})
            ]
        if self.phase != "play":
            return []
        if self.profi:
            colours = [c for c in COLOURS if self._placed_count(c) < COPIES]
        else:
            colours = self.allowed_colours()
        actions = [Action("place", {"colour": c}) for c in colours]
        if not self.profi and len(colours) < len(COLOURS):
            actions.append(Action("pass"))
        return actions

    def is_over(self) -> bool:
        return self.phase == "over"

    # --- applying ------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        if self.phase == "over":
            raise NotNow("game_is_over")
        if action.name == "first":
            expect_args(action, "player", "random")
            return self._apply_first(action.args)
        if self.phase == "choose_first":
            raise NotNow("choose_first_now")
        if action.name == "place":
            expect_args(action, "colour", "object")
            return self._apply_place(action.args)
        if action.name == "pass":
            expect_args(action)
            return self._apply_pass()
        raise NotNow("unknown_action", action=action.name)

    def _apply_first(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.phase != "choose_first":
            raise NotNow("already_started")
        return self._begin(*first_player(self.players, self.rng, args))

    def _apply_place(self, args: Mapping[str, JSON]) -> list[Event]:
        colour = args.get("colour")
        if colour not in COLOURS:
            raise NotAllowed("unknown_colour", colour=str(colour))
        named = args.get("object")
        if named is not None and named != self.number:
            raise NotAllowed("wrong_object", named=named, number=self.number)
        if self._placed_count(str(colour)) >= COPIES:
            raise NotAllowed("colour_used_up", colour=colour, copies=COPIES)
        if not self.profi:
            conflict = self.conflict(self.number, str(colour))
            if conflict is not None:
                line, index, other = conflict
                raise NotAllowed(
                    f"colour_in_{line}",
                    colour=colour,
                    index=index,
                    other=other,
                    number=self.number,
                )
        player = self.turn
        self.board[self.number] = Card(str(colour), player, revealed=not self.profi)
        drew = self._discard_and_draw(player)
        number = self.number
        placed = "placed_hidden" if self.profi else "placed"
        data: dict[str, JSON] = {"player": player, "number": number, "drew": drew}
        if not self.profi:
            data["colour"] = colour
        events = [Event(placed, data)]
        if drew and self.pile == 0:
            events.append(Event("pile_empty", {}))
        if number == CELLS:
            return events + (self._reveal() if self.profi else self._finish("all_coloured"))
        self.number += 1
        return events + self._next_turn(left_of(self.players, player))

    def _apply_pass(self) -> list[Event]:
        if self.profi:
            raise NotAllowed("no_passing_in_profi")
        player = self.turn
        if len(self.allowed_colours()) == len(COLOURS):
            # every colour still fits this object, so every card in the hand fits too
            raise NotAllowed("pass_not_needed", number=self.number)
        if self.hands[player] == 0:  # cannot happen: players without cards are skipped
            raise NotAllowed("no_cards_to_pass")
        drew = self._discard_and_draw(player)
        events = [Event("passed", {"player": player, "number": self.number, "drew": drew})]
        if drew and self.pile == 0:
            events.append(Event("pile_empty", {}))
        return events + self._next_turn(left_of(self.players, player))

    def _discard_and_draw(self, player: str) -> bool:
        """The player's card leaves the hand; they draw one if the pile has any."""
        self.hands[player] -= 1
        if self.pile > 0:
            self.pile -= 1
            self.hands[player] += 1
            return True
        return False

    def _next_turn(self, candidate: str) -> list[Event]:
        """Hand the turn clockwise to the next player who still holds cards."""
        events: list[Event] = []
        if not self.profi and not self.allowed_colours():
            events.append(Event("no_colour_fits", {"number": self.number}))
            return events + self._finish("no_colour_fits")
        for _ in self.players:
            if self.hands[candidate] > 0:
                self.turn = candidate
                return events + [self._turn_event()]
            events.append(Event("skip", {"player": candidate}))
            candidate = left_of(self.players, candidate)
        events = [Event("no_cards_left", {"number": self.number})]
        return events + self._finish("no_cards_left")

    def _turn_event(self) -> Event:
        return Event(
            "turn",
            {
                "player": self.turn,
                "number": self.number,
                "row": row_of(self.number),
                "column": column_of(self.number),
            },
        )

    # --- the end ---------------------------------------------------------------------
    def _finish(self, outcome: str) -> list[Event]:
        self.phase = "over"
        self.outcome = outcome
        return [Event("game_over", self.result())]

    def _reveal(self) -> list[Event]:
        """Profi: turn the cards over in ascending order, scoring penalty points."""
        events = [Event("reveal_start", {"reveals": True})]
        for number in range(1, CELLS + 1):
            card = self.board[number]
            clash = self.conflict(number, card.colour)
            card.revealed = True
            data: dict[str, JSON] = {
                "number": number,
                "colour": card.colour,
                "player": card.player,
                "penalty": clash is not None,
            }
            if clash is not None:
                self.penalties[card.player] += 1
                data.update(line=clash[0], index=clash[1], other=clash[2])
            events.append(Event("revealed", data))
        return events + self._finish("revealed")

    def result(self) -> dict[str, JSON]:
        if self.profi:
            return {
                "penalties": dict(self.penalties),
                "winners": winners(self.penalties, lowest=True),
            }
        coloured = len(self.board)
        return {"coloured": coloured, "won": coloured == CELLS}

    # --- questions -------------------------------------------------------------------
    def conflict(self, number: int, colour: str) -> tuple[str, int, int] | None:
        """Where ``colour`` already lies (face up) in the row or column of ``number``.

        Returns ``("row"|"column", index, other_number)`` for the first clash, rows first.
        """
        for line, index, numbers in (
            ("row", row_of(number), row_numbers(row_of(number))),
            ("column", column_of(number), column_numbers(column_of(number))),
        ):
            for other in numbers:
                card = self.board.get(other)
                if other != number and card and card.revealed and card.colour == colour:
                    return line, index, other
        return None

    def allowed_colours(self) -> list[str]:
        """Colours the rules allow on the current object (basic game)."""
        return [
            c
            for c in COLOURS
            if self._placed_count(c) < COPIES and self.conflict(self.number, c) is None
        ]

    def _placed_count(self, colour: str) -> int:
        return sum(1 for card in self.board.values() if card.colour == colour)

    def query(self, name: str, args: Mapping[str, JSON]) -> list[Event]:
        if name == "allowed_colours":
            if self.profi:
                raise NotAllowed("secret_in_profi")
            if self.phase != "play":
                raise NotNow("nothing_to_colour")
            return [
                Event("allowed_colours", {"number": self.number, "colours": self.allowed_colours()})
            ]
        if name in _TABLE_QUESTIONS:
            return self._table_question(name, args)
        if name in ("board_row", "board_column"):
            line = name.removeprefix("board_")
            index = args.get("index")
            limit = ROWS if line == "row" else COLUMNS
            if not isinstance(index, int) or not 1 <= index <= limit:
                raise NotAllowed(f"no_such_{line}", index=str(index), limit=limit)
            numbers = row_numbers(index) if line == "row" else column_numbers(index)
            cells = []
            for n in numbers:
                card = self.board.get(n)
                cell: dict[str, Any] = {"number": n}
                if card is None:
                    cell["state"] = "empty"
                elif card.revealed:
                    cell.update(state="coloured", colour=card.colour)
                else:
                    cell["state"] = "hidden"
                cells.append(cell)
            # grouped for reading out: the colours, the face-down numbers, how many free
            filled = [c for c in cells if c["state"] == "coloured"]
            hidden = [c["number"] for c in cells if c["state"] == "hidden"]
            data = {"line": line, "index": index, "cells": cells, "filled": filled}
            data.update(hidden=hidden, free=len(cells) - len(filled) - len(hidden))
            return [Event("board_line", data)]
        return super().query(name, args)

    def _cell(self, number: int) -> dict[str, Any]:
        card = self.board.get(number)
        if card is None:
            return {"number": number, "state": "empty"}
        if card.revealed:
            return {"number": number, "state": "coloured", "colour": card.colour}
        return {"number": number, "state": "hidden"}

    def _table_question(self, name: str, args: Mapping[str, JSON]) -> list[Event]:
        """What anyone at the table can see: where an object lies and its colour, what
        lies already, the whole board (face-down colours stay unsaid)."""
        if name in ("where_is", "object_colour"):
            number = args.get("object")
            if not isinstance(number, int) or not 1 <= number <= CELLS:
                raise NotAllowed("no_such_object", number=str(number))
            cell = self._cell(number)
            data = {**cell, "row": row_of(number), "column": column_of(number)}
            data["current"] = self.phase == "play" and number == self.number
            return [Event("where_is" if name == "where_is" else "object_colour", data)]
        if name == "placed":
            cells = [self._cell(n) for n in range(1, CELLS + 1)]
            filled = [c for c in cells if c["state"] == "coloured"]
            hidden = [c["number"] for c in cells if c["state"] == "hidden"]
            free = CELLS - len(filled) - len(hidden)
            return [Event("placed_so_far", {"filled": filled, "hidden": hidden, "free": free})]
        # the whole board, row by row
        return [e for row in range(1, ROWS + 1) for e in self.query("board_row", {"index": row})]

    def status(self) -> list[Event]:
        data: dict[str, JSON] = {
            "variant": self.variant,
            "coloured": len(self.board),
            "cells": CELLS,
            "pile": self.pile,
            "hands": dict(self.hands),
        }
        if self.profi and self.phase == "over":
            data["penalties"] = dict(self.penalties)
        return [Event("status", data)]

    def prompt(self) -> list[Event]:
        if self.phase == "choose_first":
            return [Event("ask_first", {"rule": "youngest"})]
        if self.phase == "play":
            return [self._turn_event()]
        return [Event("game_over", self.result())]

    def describe(self, action: Action) -> Event:
        """Names ``action`` as taken in the current state (the state before it)."""
        data: dict[str, JSON] = {"player": self.turn, "number": self.number, **action.args}
        if action.name == "place" and self.profi:
            data.pop("colour", None)  # named aloud once at the table, never repeated
            return Event("action_place_hidden", data)
        return Event("action_" + action.name, data)

    def snapshot(self) -> dict[str, JSON]:
        return {
            "variant": self.variant,
            "phase": self.phase,
            "turn": self.turn,
            "number": self.number,
            "pile": self.pile,
            "hands": dict(self.hands),
            "board": {n: [c.colour, c.player, c.revealed] for n, c in self.board.items()},
            "penalties": dict(self.penalties),
            "outcome": self.outcome,
        }
