"""The assistant's strategy in Alle meine Farben, basic (cooperative) variant: the board
(face up), the cards lying face up in front of its own seat, and how many copies of each
colour the box holds."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.alle_meine_farben import (
    CELLS,
    COLOURS,
    COPIES,
    AlleMeineFarben,
    column_numbers,
    column_of,
    row_numbers,
    row_of,
)
from games.assistant_turn import Notes, Turn, decision_rng
from games.engine import Action, Event
from games.seat import Seat


# ======================================================================================
# Alle meine Farben (basic)
# ======================================================================================
def _amf_turn(game: Any, seat: Seat) -> Turn | None:
    if game.profi or game.stage != "play" or game.waiting_cards:
        return None
    if game.turn != seat.name:
        return None
    hand = list(game.face_up)
    if not hand:
        return None
    number = game.number
    helper = _left_person(game, seat)
    legal = [c for c in dict.fromkeys(hand) if c in game.allowed_colours()]
    if legal:
        colour = amf_choose(game, seat, legal)
        data = {"player": seat.name, "number": number, "colour": colour, "helper": helper}
        return Turn((Event("assistant_place", data),), Action("place", {"colour": colour}))
    discard = amf_discard(game, seat, hand)
    data = {"player": seat.name, "number": number, "colour": discard, "helper": helper}
    return Turn((Event("assistant_pass", data),), Action("pass", {"colour": discard}))


def _left_person(game: Any, seat: Seat) -> str | None:
    """The person who lays the assistant's card for it: its left neighbour."""
    from games.engine import left_of

    person = left_of(game.players, seat.name)
    return None if person == seat.name else person


def _remaining(game: Any) -> dict[str, int]:
    """Copies of each colour not on the board and not put aside by the assistant."""

    left = {c: COPIES for c in COLOURS}
    for card in game.board.values():
        left[card.colour] -= 1
    for colour in game.face_out:
        left[colour] -= 1
    return left


def _free_cells(board: Mapping[int, Any], start: int) -> list[int]:

    return [n for n in range(start, CELLS + 1) if n not in board]


def _fits(board: Mapping[int, str], number: int, colour: str) -> bool:

    for other in row_numbers(row_of(number)) + column_numbers(column_of(number)):
        if other != number and board.get(other) == colour:
            return False
    return True


def _flexibility(board: Mapping[int, str], copies: Mapping[str, int], start: int) -> float:
    """How open the rest of the grid stays: for every empty cell, how many colours still
    fit it (with copies left), counting nearly-blocked cells heavily."""

    score = 0.0
    for number in range(start, CELLS + 1):
        options = sum(1 for c in COLOURS if copies[c] > 0 and _fits(board, number, c))
        score += -10.0 if options == 0 else -1.0 / options
    return score


ROLLOUTS = 32
"""Simulated continuations per possible move at level hard."""


def _plan(game: Any, seat: Seat, moves: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Level hard: for each move (``("place"|"pass", colour)``), how well the table does
    in :data:`ROLLOUTS` simulated continuations after it: a game won counts 100 plus the
    cards still to spare, a game lost the objects it coloured.

    Only what the seat knows goes in: the board, its own face-up cards and the ones it
    put aside, how many cards everyone holds and the pile. The other hands and the pile
    are drawn at random from the cards not accounted for (the same draws for every
    move, so the moves are compared on equal terms); in the simulation everyone plays a
    random card that fits, and passes when none does.
    """

    pool = [c for c, n in _remaining(game).items() for _ in range(n)]
    for colour in game.face_up:
        pool.remove(colour)
    wins = dict.fromkeys(moves, 0)
    base = {n: c.colour for n, c in game.board.items()}
    for index in range(ROLLOUTS):
        world = decision_rng(game.setup, seat, "plan", game.number, len(game.face_out), index)
        cards = list(pool)
        world.shuffle(cards)
        hands0 = {}
        for player in game.players:
            if player == seat.name:
                hands0[player] = list(game.face_up)
            else:
                hands0[player] = [cards.pop() for _ in range(min(game.hands[player], len(cards)))]
        pile0 = cards[: game.pile]
        for move in moves:
            play = random.Random(world.random())
            board = dict(base)
            placed = {c: 0 for c in COLOURS}
            for colour in board.values():
                placed[colour] += 1
            hands = {p: list(h) for p, h in hands0.items()}
            pile = list(pile0)
            number = game.number
            player = seat.name
            kind, colour = move
            while True:
                hand = hands[player]
                hand.remove(colour)
                if kind == "place":
                    board[number] = colour
                    placed[colour] += 1
                    number += 1
                if pile:
                    hand.append(pile.pop())
                if number > CELLS:  # won; the more cards to spare, the safer it was
                    wins[move] += 100 + len(pile) + sum(len(h) for h in hands.values())
                    break
                if not any(placed[c] < COPIES and _fits(board, number, c) for c in COLOURS):
                    wins[move] += number - 1  # lost, with this many coloured
                    break
                nxt = None
                seats = list(game.players)
                at = seats.index(player)
                for step in range(1, len(seats) + 1):
                    candidate = seats[(at + step) % len(seats)]
                    if hands[candidate]:
                        nxt = candidate
                        break
                if nxt is None:
                    wins[move] += number - 1  # nobody holds a card: lost
                    break
                player = nxt
                hand = hands[player]
                fits = [c for c in hand if placed[c] < COPIES and _fits(board, number, c)]
                if fits:
                    kind, colour = "place", play.choice(fits)
                else:
                    kind, colour = "pass", play.choice(hand)
    return wins


def amf_choose(game: Any, seat: Seat, legal: list[str]) -> str:
    """Which of its legal colours the assistant plays on the current object."""
    rng = decision_rng(game.setup, seat, "place", game.number, len(game.face_out))
    if seat.level == "easy" or len(legal) == 1:
        return rng.choice(legal)
    board = {n: c.colour for n, c in game.board.items()}
    copies = _remaining(game)
    hand = list(game.face_up)
    scores: dict[str, float] = {}
    plan = _plan(game, seat, [("place", c) for c in legal]) if seat.level == "hard" else {}
    for colour in legal:
        board[game.number] = colour
        copies[colour] -= 1
        flex = _flexibility(board, copies, game.number + 1)
        # keep colours that are still needed: cards of which few copies are left are
        # worth more later; holding two of a colour makes one of them cheap to play
        scarcity = 0.3 * (hand.count(colour) - 1) + 0.1 * copies[colour]
        score = flex + scarcity + 10.0 * plan.get(("place", colour), 0)
        scores[colour] = score + rng.random() * 1e-6
        copies[colour] += 1
        del board[game.number]
    return max(legal, key=lambda c: scores[c])


def amf_discard(game: Any, seat: Seat, hand: list[str]) -> str:
    """The card it puts aside when nothing fits: one whose colour is needed least."""
    rng = decision_rng(game.setup, seat, "discard", game.number, len(game.face_out))
    if seat.level == "easy":
        return rng.choice(hand)
    board = {n: c.colour for n, c in game.board.items()}
    free = _free_cells(game.board, game.number)

    def need(colour: str) -> float:
        places = sum(1 for n in free if _fits(board, n, colour))
        return places - 2.0 * (hand.count(colour) - 1)

    options = list(dict.fromkeys(hand))
    if seat.level == "hard" and len(options) > 1:
        plan = _plan(game, seat, [("pass", c) for c in options])
        return max(options, key=lambda c: (plan[("pass", c)], -need(c), rng.random()))
    return min(options, key=lambda c: (need(c), rng.random()))


def waits_for_hint(game: AlleMeineFarben, seat: Seat) -> bool:
    return False  # nobody gives hints in this game


def next_turn(game: AlleMeineFarben, seat: Seat, notes: Notes) -> Turn | None:
    return _amf_turn(game, seat)
