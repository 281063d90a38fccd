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
    GameError,
    Move,
    NotAllowed,
    NotNow,
    Setup,
    SetupError,
    Timer,
    left_of,
    winners,
)
from games.seat import seat_of

DATA = load("alle_meine_farben")
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
OBJECTS: tuple[str, ...] = tuple(o["id"] for o in DATA["objects"])
COLUMNS: int = DATA["columns"]
ROWS: int = DATA["rows"]
CELLS = COLUMNS * ROWS
COPIES: int = DATA["copies_per_colour"]
HAND_SIZE: int = DATA["hand_size"]
VARIANTS = ("basic", "profi")
ASK_AGAIN_SECONDS = 20.0
ASK_AGAIN_TIMES = 3
"""When nobody says which cards the assistant holds, it asks again this often."""


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
    first_rule = "youngest"
    moves = {
        "place": Move("_apply_place", ("colour", "object")),
        "pass": Move("_apply_pass", ("colour",)),
        "cards": Move("_apply_cards", ("colours", "player")),
        "timer": Move("_apply_timer", ("ask", "at")),
    }
    questions = {
        "allowed_colours": "_ask_allowed_colours",
        "board_row": "_ask_row",
        "board_column": "_ask_column",
        "where_is": "_ask_where_is",
        "object_colour": "_ask_object_colour",
        "placed": "_ask_placed",
        "whole_board": "_ask_whole_board",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        variant = setup.options.get("variant", "basic")
        if variant not in VARIANTS:
            raise SetupError("unknown_variant", variant=variant, variants=list(VARIANTS))
        if variant == "profi" and len(setup.players) < 2:
            raise SetupError("player_count", count=len(setup.players), low=2, high=6)
        self.variant: str = variant
        self.turn: str = self.players[0]
        self.number = 1
        self.board: dict[int, Card] = {}
        self.hands: dict[str, int] = {p: HAND_SIZE for p in self.players}
        self.pile = len(COLOURS) * COPIES - HAND_SIZE * len(self.players)
        self.penalties: dict[str, int] = {p: 0 for p in self.players}
        self.outcome: str | None = None
        # The assistant's seat (basic game only): its cards lie face up, the table tells
        # it which they are when they are dealt and after every card it draws.
        self.seat = seat_of(setup)
        if self.seat is not None and variant == "profi":
            raise SetupError("assistant_not_in_profi", name=self.seat.name)
        self.face_up: list[str] = []
        self.face_out: list[str] = []
        self.waiting_cards = False
        self.asked = 0

    @property
    def profi(self) -> bool:
        return self.variant == "profi"

    # --- starting ------------------------------------------------------------------
    def start(self) -> list[Event]:
        events = [Event("welcome", {"variant": self.variant, "players": list(self.players)})]
        return events + self._opening()

    def _first_by_rule(self) -> tuple[str, str] | None:
        if self.profi:  # the profi rules draw the starting player by lot
            return self.rng.choice(self.players), "lot"
        if len(self.players) == 1:
            return self.players[0], "table"
        people = [p for p in self.players if self.seat is None or p != self.seat.name]
        if len(people) == 1:  # a child alone with the assistant: the child starts
            return people[0], "table"
        return None

    def _begin(self, player: str, chosen_by: str) -> list[Event]:
        self.turn = player
        self.stage = "play"
        events = [Event("first", {"player": player, "chosen_by": chosen_by}), self._turn_event()]
        return self._hold_for_cards(events, dealt=True)

    # --- the assistant's face-up cards ------------------------------------------------
    def unknown_cards(self) -> int:
        """How many of the assistant's cards the table has not told it yet."""
        if self.seat is None:
            return 0
        return self.hands[self.seat.name] - len(self.face_up)

    def _hold_for_cards(self, events: list[Event], dealt: bool = False) -> list[Event]:
        """If the assistant does not know all its cards, the turn waits: the turn event
        is held back and the assistant asks which card(s) it holds."""
        if self.seat is None or self.stage != "play" or self.unknown_cards() <= 0:
            return events
        turn = [i for i, e in enumerate(events) if e.type == "turn"]
        if turn:
            events = events[: turn[-1]] + events[turn[-1] + 1 :]
        self.waiting_cards = True
        self.asked = 0
        return events + [self._cards_wanted(dealt)]

    def _cards_wanted(self, dealt: bool | None = None, again: bool = False) -> Event:
        assert self.seat is not None
        if dealt is None:
            dealt = not self.board and not self.face_out
        person = left_of(self.players, self.seat.name)
        return Event(
            "assistant_cards_wanted",
            {
                "player": self.seat.name,
                "count": self.unknown_cards(),
                "dealt": dealt,
                "again": again or self.asked > 0,
                "helper": None if person == self.seat.name else person,
                "known": list(self.face_up),
            },
        )

    def _apply_cards(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.seat is None:
            raise NotAllowed("no_assistant")
        if not self.waiting_cards:
            raise NotNow("assistant_knows_cards", player=self.seat.name, cards=list(self.face_up))
        named = args.get("player")
        if named is not None and named != self.seat.name:
            raise NotAllowed("cards_of_assistant_only", player=str(named), assistant=self.seat.name)
        colours = args.get("colours")
        if not isinstance(colours, list) or not colours:
            raise NotAllowed("unknown_colour", colour=str(colours))
        for colour in colours:
            if colour not in COLOURS:
                raise NotAllowed("unknown_colour", colour=str(colour))
        wanted = self.unknown_cards()
        if len(colours) > wanted:
            raise NotAllowed(
                "assistant_too_many_cards", player=self.seat.name, count=wanted, said=len(colours)
            )
        for colour in dict.fromkeys(colours):
            lying = self._placed_count(str(colour)) + self.face_out.count(str(colour))
            if lying + self.face_up.count(str(colour)) + colours.count(colour) > COPIES:
                raise NotAllowed("colour_used_up", colour=colour, copies=COPIES)
        self.face_up.extend(str(c) for c in colours)
        data: dict[str, JSON] = {"player": self.seat.name, "colours": list(colours)}
        if self.unknown_cards() > 0:
            self.asked = 0
            return [Event("assistant_cards_noted", data), self._cards_wanted()]
        self.waiting_cards = False
        data["hand"] = list(self.face_up)
        return [Event("assistant_cards_known", data), self._turn_event()]

    def _apply_timer(self, args: Mapping[str, JSON]) -> list[Event]:
        self._timer_for(args)
        self.asked += 1
        return [self._cards_wanted()]

    def _due_timer(self) -> Timer | None:
        if not self.waiting_cards or self.asked >= ASK_AGAIN_TIMES:
            return None
        where = (len(self.board) + len(self.face_out)) * 10 + len(self.face_up)
        return Timer(
            f"amf:cards:{where}:{self.asked}",
            ASK_AGAIN_SECONDS,
            Action("timer", {"ask": self.asked, "at": where}),
        )

    # --- what the session asks ------------------------------------------------------
    def current_player(self) -> str | None:
        if self.waiting_cards:
            return None  # anyone may say the assistant's cards
        return self.turn if self.stage == "play" else None

    def expecting(self) -> Expectation:
        if self.stage == "choose_first":
            return Expectation(frozenset({"choose_first", "random_first"}))
        if self.stage == "play" and self.waiting_cards:
            intents = {"assistant_cards", "board_row", "board_column", "status", "allowed_colours"}
            intents |= _TABLE_QUESTIONS
            return Expectation(frozenset(intents), slots={"colour": COLOURS})
        if self.stage == "play":
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
        if self.stage == "choose_first":
            return [Action("first", {"player": p}) for p in self.players] + [
                Action("first", {"random": True})
            ]
        if self.stage != "play":
            return []
        if self.waiting_cards:
            return [
                Action("cards", {"colours": [c]})
                for c in COLOURS
                if self._placed_count(c) + self.face_out.count(c) + self.face_up.count(c) < COPIES
            ]
        if self.seat is not None and self.turn == self.seat.name:
            allowed = self.allowed_colours()
            hand = list(dict.fromkeys(self.face_up))
            passes = [Action("pass", {"colour": c}) for c in hand]
            if len(allowed) == len(COLOURS):  # every card fits: passing is refused
                passes = []
            return [Action("place", {"colour": c}) for c in hand if c in allowed] + passes
        if self.profi:
            colours = [c for c in COLOURS if self._placed_count(c) < COPIES]
            return [Action("place", {"colour": c}) for c in colours]
        allowed = self.allowed_colours()
        actions = [Action("place", {"colour": c}) for c in allowed if self._accounted(c) < COPIES]
        if len(allowed) < len(COLOURS):
            actions.append(Action("pass"))
        return actions

    # --- applying ------------------------------------------------------------------
    def _cards_first(self) -> None:
        """While the assistant waits to be told its cards, nobody places or passes."""
        if self.waiting_cards:
            assert self.seat is not None
            raise NotNow("assistant_cards_first", **self._cards_wanted().data)

    def _check_place(self, args: Mapping[str, JSON]) -> str:
        """The colour of a placement the state allows (the rule of rows and columns
        aside); raises why not."""
        self._cards_first()
        colour = args.get("colour")
        if colour not in COLOURS:
            raise NotAllowed("unknown_colour", colour=str(colour))
        named = args.get("object")
        if named is not None and named != self.number:
            raise NotAllowed("wrong_object", named=named, number=self.number)
        player = self.turn
        mine = self.seat is not None and player == self.seat.name
        if self._accounted(str(colour), mine) >= COPIES:
            raise NotAllowed("colour_used_up", colour=colour, copies=COPIES)
        return str(colour)

    def _apply_place(self, args: Mapping[str, JSON]) -> list[Event]:
        colour = self._check_place(args)
        player = self.turn
        mine = self.seat is not None and player == self.seat.name
        if mine and colour not in self.face_up:
            raise NotAllowed("assistant_lacks_colour", player=player, colour=colour)
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
        self.board[self.number] = Card(str(colour), player, revealed=not self.profi)
        if mine:
            self.face_up.remove(str(colour))
        drew = self._discard_and_draw(player)
        number = self.number
        placed = "placed_hidden" if self.profi else "placed"
        # profi: the colour was named aloud at the table; said back, a mishearing shows
        # now, not at the reveal (whether it breaks the rule stays unsaid)
        data: dict[str, JSON] = {"player": player, "number": number, "drew": drew}
        data["colour"] = colour
        events = [Event(placed, data)]
        if drew and self.pile == 0:
            events.append(Event("pile_empty", {}))
        if number == CELLS:
            return events + (self._reveal() if self.profi else self._finish("all_coloured"))
        self.number += 1
        events += self._next_turn(left_of(self.players, player))
        return self._hold_for_cards(events) if mine and drew else events

    def _apply_pass(self, args: Mapping[str, JSON]) -> list[Event]:
        self._cards_first()
        if self.profi:
            raise NotAllowed("no_passing_in_profi")
        player = self.turn
        mine = self.seat is not None and player == self.seat.name
        colour = args.get("colour")
        if colour is not None and not mine:
            raise NotAllowed("unknown_argument", action="pass", argument="colour")
        if mine and colour not in self.face_up:
            raise NotAllowed("assistant_lacks_colour", player=player, colour=str(colour))
        if len(self.allowed_colours()) == len(COLOURS):
            # every colour still fits this object, so every card in the hand fits too
            raise NotAllowed("pass_not_needed", number=self.number)
        if self.hands[player] == 0:  # cannot happen: players without cards are skipped
            raise NotAllowed("no_cards_to_pass")
        if mine:
            self.face_up.remove(str(colour))
            self.face_out.append(str(colour))
        drew = self._discard_and_draw(player)
        data: dict[str, JSON] = {"player": player, "number": self.number, "drew": drew}
        if mine:
            data["colour"] = colour  # its cards lie face up: no secret
        events = [Event("passed", data)]
        if drew and self.pile == 0:
            events.append(Event("pile_empty", {}))
        events += self._next_turn(left_of(self.players, player))
        return self._hold_for_cards(events) if mine and drew else events

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
        self.stage = "over"
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

    def _accounted(self, colour: str, mine: bool = False) -> int:
        """Cards of ``colour`` nobody else can hold: on the board, and (for a person
        placing one) the ones face up before the assistant or put aside by it."""
        if mine:
            return self._placed_count(colour)
        return self._placed_count(colour) + self.face_up.count(colour) + self.face_out.count(colour)

    def _placed_count(self, colour: str) -> int:
        return sum(1 for card in self.board.values() if card.colour == colour)

    def _ask_allowed_colours(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.profi:
            raise NotAllowed("secret_in_profi")
        if self.stage != "play":
            raise NotNow("nothing_to_colour")
        allowed = self.allowed_colours()
        colour = args.get("colour")
        if isinstance(colour, str):  # "can I do blue?": whether this one colour goes
            ok = colour in allowed
            params = {"number": self.number, "colour": colour, "ok": ok, "colours": allowed}
            return [Event("colour_allowed", params)]
        return [Event("allowed_colours", {"number": self.number, "colours": allowed})]

    def _ask_row(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._board_line("row", args)

    def _ask_column(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._board_line("column", args)

    def _board_line(self, line: str, args: Mapping[str, JSON]) -> list[Event]:
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

    def _ask_where_is(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._table_question("where_is", args)

    def _ask_object_colour(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._table_question("object_colour", args)

    def _ask_placed(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._table_question("placed", args)

    def _ask_whole_board(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._table_question("whole_board", args)

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
            data["current"] = self.stage == "play" and number == self.number
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
        if self.profi and self.stage == "over":
            data["penalties"] = dict(self.penalties)
        events = [Event("status", data)]
        if self.seat is not None and self.stage == "play":
            cards = {"player": self.seat.name, "cards": list(self.face_up)}
            events.append(Event("assistant_hand", cards))
        return events

    def prompt(self) -> list[Event]:
        if self.stage == "choose_first":
            return [self._ask_first()]
        if self.stage == "play" and self.waiting_cards:
            # the whole question again ("and my other two?" alone would say too little)
            # once a card was drawn for it, never "draw a card for me" again: the card
            # lies there already (asked anew after an undo or a "no")
            dealt = not self.board and not self.face_out
            return [self._cards_wanted(again=bool(self.face_up) or not dealt)]
        if self.stage == "play":
            return [self._turn_event()]
        return [Event("game_over", self.result())]

    def describe(self, action: Action) -> Event:
        """Names ``action`` as taken in the current state (the state before it)."""
        data: dict[str, JSON] = {"player": self.turn, "number": self.number, **action.args}
        if action.name == "cards" and self.seat is not None:
            data["player"] = self.seat.name
        if action.name == "place" and self.profi:
            # named aloud at the table, so said back; the last card before the reveal
            data["last"] = self.stage == "play" and self.number == CELLS
            return Event("action_place_hidden", data)
        return Event("action_" + action.name, data)

    def confirm_first(self, action: Action) -> bool:
        """Profi: the last card is asked about before the reveal, which nothing can
        correct ("nein, grün" still can before it)."""
        if not (self.profi and self.stage == "play" and self.number == CELLS):
            return False
        if action.name != "place":
            return False
        try:
            self._check_place(action.args)
        except GameError:
            return False  # refused at once, with the reason
        return True

    def snapshot(self) -> dict[str, JSON]:
        return {
            "variant": self.variant,
            "stage": self.stage,
            "turn": self.turn,
            "number": self.number,
            "pile": self.pile,
            "hands": dict(self.hands),
            "board": {n: [c.colour, c.player, c.revealed] for n, c in self.board.items()},
            "penalties": dict(self.penalties),
            "outcome": self.outcome,
            "face_up": list(self.face_up),
            "face_out": list(self.face_out),
            "waiting_cards": self.waiting_cards,
            "asked": self.asked,
        }
