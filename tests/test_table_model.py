"""The game and the real table never drift apart (issue 26): random games with random
corrections and undos at every step (over the assistant's moves too), checked after every
step against a model of the physical table that moves cards only when farbspiel told the
table to (the recorded events each said sentence stands for, by their stable keys)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.alle_meine_farben import COLOURS, COPIES, HAND_SIZE, AlleMeineFarben
from games.engine import Setup
from games.farben import COLOURS as FARBEN_COLOURS
from games.farben import Farben
from games.pantone import Pantone
from voice.output.messages import colour_term
from voice.output.sinks import RecordingOutput
from voice.session.adapters import adapter_for
from voice.session.session import Session

_TERM = colour_term("en")
ROUND_STAGES = ("side", "choosing", "reveal", "story")


def name(colour: str) -> str:
    return str(_TERM(colour))


@dataclass
class AmfTable:
    """The cards of Alle meine Farben on a real table: the pile, each hand (for the
    assistant: the cards face up before it), the cards put aside and the board."""

    players: tuple[str, ...]
    seat: str | None
    pile: int = 0
    hands: dict[str, int] = field(default_factory=dict)
    aside: dict[str, int] = field(default_factory=dict)
    board: dict[int, tuple[str | None, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pile = len(COLOURS) * COPIES - HAND_SIZE * len(self.players)
        self.hands = {p: HAND_SIZE for p in self.players}
        self.aside = {p: 0 for p in self.players}

    def draw(self, player: str, count: int = 1) -> None:
        assert self.pile >= count, "told to draw from an empty pile"
        self.pile -= count
        self.hands[player] += count

    def told(self, event: dict[str, Any]) -> None:
        """Do what the sentence of ``event`` tells the table to do."""
        kind, player = event["type"], event.get("player")
        seat = player is not None and player == self.seat
        if kind in ("placed", "placed_hidden"):  # "The hat is now red. Please draw a card."
            assert event["number"] not in self.board, "a card laid on a card"
            self.hands[player] -= 1
            self.board[event["number"]] = (event.get("colour"), player)
            if event["drew"] and not seat:  # the assistant asks for its card itself
                self.draw(player)
        elif kind == "passed":  # "... puts a card aside face down and draws a new one."
            self.hands[player] -= 1
            self.aside[player] += 1
            if event["drew"] and not seat:
                self.draw(player)
        elif kind == "assistant_cards_wanted" and not event["dealt"] and not event["again"]:
            self.draw(player, event["count"])  # "could you draw a card for me ...?"
        elif kind == "table_card_back":  # "Ben, take your card back from the hat ..."
            assert self.board.pop(event["number"])[1] == player
            self.hands[player] += 1
        elif kind == "table_discard_back":
            assert self.aside[player] > 0
            self.aside[player] -= 1
            self.hands[player] += 1
        elif kind == "table_draw_back":  # "put the card you drew back on the draw pile"
            assert self.hands[player] > 0
            self.hands[player] -= 1
            self.pile += 1
        elif kind == "table_card_swap":
            assert self.board[event["number"]][1] == player
            self.board[event["number"]] = (event.get("colour"), player)
        elif kind == "revealed":
            self.board[event["number"]] = (event["colour"], event["player"])

    def check(self, game: AlleMeineFarben, said: list[str]) -> None:
        where = f"after: {said[-6:]}"
        assert self.pile == game.pile, f"pile: table {self.pile}, game {game.pile}; {where}"
        assert self.hands == game.hands, f"hands: table {self.hands}, game {game.hands}; {where}"
        board = {n: c.player for n, c in game.board.items()}
        assert {n: p for n, (_, p) in self.board.items()} == board, where
        for number, (colour, _) in self.board.items():
            if colour is not None:
                assert colour == game.board[number].colour, where


def who_starts(session: Session, rng: random.Random) -> list[str]:
    """While the game asks who starts: a person's name (never the assistant's); else []."""
    game = session.game
    if getattr(game, "stage", None) != "choose_first":
        return []
    seat = session.seat.name if session.seat is not None else None
    return [rng.choice([p for p in game.players if p != seat])]


def opening(
    session: Session, rng: random.Random, colours: Any, meant: str, correct_below: float
) -> tuple[list[str], float]:
    """Who starts, an undo or a correction (each with its answer), or nothing yet: then
    the roll that decides what else is said."""
    first = who_starts(session, rng)
    if first:
        return first, 1.0
    roll, answer = rng.random(), rng.choice(["yes", "yes", "no"])
    if roll < 0.2:
        return ["undo", answer], roll
    if roll < correct_below:
        return [meant.format(name(rng.choice(colours))), answer], roll
    return [], roll


def amf_utterance(session: Session, rng: random.Random) -> list[str]:
    """What someone at the table says next: a move, or a correction or undo (with the
    answer to farbspiel's question), or now and then a colour the rules refuse."""
    game = session.game
    assert isinstance(game, AlleMeineFarben)
    said, roll = opening(session, rng, COLOURS, "I meant {}", 0.35)
    if said:
        return said
    moves = game.legal_actions()
    if roll < 0.45 or not moves:
        return [name(rng.choice(COLOURS))]  # perhaps refused: nothing moves
    action = rng.choice(moves)
    if action.name == "cards":
        return [f"you have {name(action.args['colours'][0])}"]
    if action.name == "pass":
        return ["I pass"]
    return [name(action.args["colour"])]


def play_amf(setup: Setup, steps: int = 400) -> tuple[AmfTable, RecordingOutput]:
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), "en", setup, out)
    seat = session.seat.name if session.seat is not None else None
    table = AmfTable(setup.players, seat)
    session.start()
    rng = random.Random(setup.seed)
    seen = 0
    for _ in range(steps):
        if session.finished:
            break
        for line in amf_utterance(session, rng):
            session.hear(line)
            for event in out.records[seen:]:
                table.told(event)
            seen = len(out.records)
            assert isinstance(session.game, AlleMeineFarben)
            table.check(session.game, out.said)
    return table, out


SETUPS = (
    [Setup(("Anna", "Ben", "Cem"), seed, options={"variant": "basic"}) for seed in range(6)]
    + [Setup(("Anna", "Ben"), seed, options={"variant": "profi"}) for seed in range(3)]
    + [
        Setup(
            players,
            seed,
            options={"variant": "basic", "assistant": {"name": "Robo", "level": level}},
        )
        for seed, (players, level) in enumerate(
            [
                (("Mia", "Robo"), "hard"),
                (("Anna", "Robo", "Ben"), "normal"),
                (("Robo", "Mia"), "easy"),
            ]
            * 2
        )
    ]
)


@pytest.mark.parametrize("setup", SETUPS, ids=[f"{s.players}-{s.seed}" for s in SETUPS])
def test_alle_meine_farben_table_equals_the_game_through_undos_and_corrections(
    setup: Setup,
) -> None:
    table, out = play_amf(setup)
    assert table.board, "the game never got going"
    told = {r["type"] for r in out.records}
    assert {"table_card_back", "table_draw_back"} <= told
    if table.seat is None:  # with the assistant a correction is rarely possible
        assert "table_card_swap" in told
    else:  # undo over the assistant's move: said, asked, and done
        assert any(", and after it Robo " in line for line in out.said)
        assert any(line.startswith("Robo's ") for line in out.said)


@dataclass
class FarbenTable:
    """The cards of Farben's rounds on a real table: each player's colour cards in hand,
    the card each has laid for the word being told (and whether it is shown), the stacks
    put aside and the word cards taken."""

    players: tuple[str, ...]
    seat: str | None = None
    """The assistant's colour cards are virtual: nobody turns them over."""
    hands: dict[str, int] = field(default_factory=dict)
    laid: dict[str, int] = field(default_factory=dict)
    shown: set[str] = field(default_factory=set)
    aside: int = 0
    words_out: int = 0

    def __post_init__(self) -> None:
        self.hands = {p: len(FARBEN_COLOURS) for p in self.players}
        self.laid = {p: 0 for p in self.players}

    def _lay(self, count: int) -> None:
        for player in self.players:
            self.hands[player] -= count
            self.laid[player] += count

    def told(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "card":  # "Round 3 of 10. Ben, your word card says ..."
            self.words_out = event["round"]
        elif kind == "table_word_card_back":
            self.words_out -= 1
        elif kind == "word_chosen":  # "... choose a colour and lay it face down"
            self._lay(1)
        elif kind == "table_cards_up":
            self._lay(-1)
        elif kind == "colour_told" and event["player"] != self.seat:
            self.shown.add(event["player"])
        elif kind == "table_card_down":
            self.shown.remove(event["player"])
        elif kind == "round_done":  # "That's the stack for ... Put it aside."
            self.laid = {p: 0 for p in self.players}
            self.shown = set()
            self.aside += 1
        elif kind == "table_stack_back":
            self.aside -= 1
            self.laid = {p: 1 for p in self.players}
            self.shown = set(self.players) - {self.seat}

    def check(self, game: Farben, said: list[str]) -> None:
        where = f"after: {said[-6:]}"
        telling = game.stage in ("choosing", "reveal", "story")
        assert self.aside == len(game.stacks) - telling, where
        assert self.laid == {p: int(telling) for p in self.players}, where
        shown = set(game.stacks[-1].colours) - {self.seat} if telling else set()
        assert self.shown == shown, where
        assert self.words_out == game.round + 1, where
        in_hand = {p: len(FARBEN_COLOURS) - len(game.stacks) for p in self.players}
        assert self.hands == in_hand, where


def farben_utterance(session: Session, rng: random.Random) -> list[str]:
    game = session.game
    assert isinstance(game, Farben)
    said, roll = opening(session, rng, FARBEN_COLOURS, "no wait, I meant {}", 0.3)
    if said:
        return said
    action = rng.choice(game.legal_actions())
    if action.name == "side":
        return [rng.choice(["the first one", "the second one"])]
    if action.name == "reveal":
        return [f"{game.teller} had {name(str(action.args['colour']))}"]
    return [action.name]  # "ready", "done"


FARBEN_SETUPS = [Setup(("Anna", "Ben", "Cem"), seed) for seed in range(3)] + [
    Setup(("Anna", "Ben", "Robo"), seed, options={"assistant": {"name": "Robo"}})
    for seed in range(2)
]


FARBEN_IDS = [f"{s.players}-{s.seed}" for s in FARBEN_SETUPS]


@pytest.mark.parametrize("setup", FARBEN_SETUPS, ids=FARBEN_IDS)
def test_farben_table_equals_the_game_through_undos_and_corrections(setup: Setup) -> None:
    out = RecordingOutput()
    session = Session(adapter_for("farben"), "en", setup, out)
    table = FarbenTable(setup.players, session.seat.name if session.seat else None)
    session.start()
    rng = random.Random(setup.seed)
    seen = 0
    for _ in range(300):
        game = session.game
        assert isinstance(game, Farben)
        if session.finished or game.stage not in ("choose_first", *ROUND_STAGES):
            break
        for line in farben_utterance(session, rng):
            session.hear(line)
            for event in out.records[seen:]:
                table.told(event)
            seen = len(out.records)
            game = session.game
            assert isinstance(game, Farben)
            if game.stage in ROUND_STAGES:
                table.check(game, out.said)
    told = {r["type"] for r in out.records}
    assert {"table_word_card_back", "table_stack_back", "table_card_down"} <= told


PAINTING = ("create", "guess", "hint", "verdict")
"""Pantone's stages while the Artist's swatches lie on the table."""


def pantone_utterance(session: Session, rng: random.Random) -> list[str]:
    game = session.game
    assert isinstance(game, Pantone)
    if game.stage == "choose_first":
        return [rng.choice(list(game.players))]
    roll = rng.random()
    if roll < 0.3:
        return ["undo", rng.choice(["yes", "yes", "no"])]
    if game.stage == "choose":
        choices = [a for a in game.legal_actions() if a.name in ("choose", "ready")]
        action = rng.choice(choices)
        return ["ready"] if action.name == "ready" else [f"card {action.args['card']}"]
    if game.stage == "create" and roll < 0.6:
        return ["done"]
    if game.stage == "verdict":
        return [rng.choice(["correct", "wrong"])]
    return []  # the others think; time passes


PANTONE_SETUPS = [
    Setup(
        ("Anna", "Ben", "Cem"),
        seed,
        options={**adapter_for("pantone").default_options("en"), "cards": cards},
    )
    for seed, cards in enumerate(["number", "physical", "number", "physical"])
]


@pytest.mark.parametrize("setup", PANTONE_SETUPS, ids=[str(s.seed) for s in PANTONE_SETUPS])
def test_pantone_swatches_follow_the_game_through_undos(setup: Setup) -> None:
    """The swatches lie while the Artist paints and the others guess; an undo back to
    before the painting has the Artist take them back (a new turn starts afresh)."""
    out = RecordingOutput()
    session = Session(adapter_for("pantone"), "en", setup, out)
    session.start()
    rng = random.Random(setup.seed)
    laid, seen, now = False, 0, 0.0
    for _ in range(300):
        if session.finished:
            break
        lines = pantone_utterance(session, rng)
        for line in lines:
            session.hear(line)
        if not lines:
            now += rng.choice([5.0, 20.0])
            session.tick(now)
        for event in out.records[seen:]:
            kind = event["type"]
            if kind == "artist":  # a new Artist's turn: the last picture is cleared
                laid = False
            laid = laid or kind == "create_start"  # "Anna, paint!"
            laid = laid and kind != "table_swatches_back"
        seen = len(out.records)
        game = session.game
        assert isinstance(game, Pantone)
        if game.stage != "over":
            assert laid == (game.stage in PAINTING), f"after: {out.said[-6:]}"
    assert any(r["type"] == "table_swatches_back" for r in out.records)
