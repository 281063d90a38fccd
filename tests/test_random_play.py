"""Random games played to the end, for every game: they never crash, rejected actions
never change the state, and replaying the history rebuilds the same state."""

from __future__ import annotations

import random

import pytest

from games.engine import Action, GameError, Setup, SetupError, replay
from voice.output.sinks import NullOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session

NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz")
JUNK = [
    Action("place", {"colour": "chartreuse"}),
    Action("nonsense"),
    Action("first", {"player": "Zed"}),
    Action("timer", {"id": "no-such-timer"}),
    Action("pass", {"player": "Zed"}),
]
MAX_STEPS = 2_000


def setups(game_id: str, count: int) -> list[Setup]:
    adapter = ADAPTERS[game_id]
    found = []
    rng = random.Random(game_id)
    while len(found) < count:
        low, high = adapter.engine.min_players, min(adapter.engine.max_players, len(NAMES))
        players = NAMES[: rng.randint(low, high)]
        setup = Setup(players, rng.randrange(10_000), None, adapter.default_options("en"))
        try:
            adapter.create(setup)
        except SetupError:
            continue
        found.append(setup)
    return found


@pytest.mark.parametrize("game_id", list(ADAPTERS))
def test_random_games_reach_the_end_without_crashing(game_id: str) -> None:
    adapter = ADAPTERS[game_id]
    for setup in setups(game_id, 40):
        rng = random.Random(setup.seed)
        game = adapter.create(setup)
        game.start()
        history: list[Action] = []
        for _ in range(MAX_STEPS):
            if game.is_over():
                break
            if rng.random() < 0.2:
                before = game.snapshot()
                try:
                    game.apply(rng.choice(JUNK))
                except GameError:
                    assert game.snapshot() == before, "a rejected action changed the state"
                else:
                    raise AssertionError("junk action was accepted")
                continue
            options = game.legal_actions() + [t.action for t in game.timers()]
            assert options, f"{game_id}: no legal action but the game is not over"
            action = rng.choice(options)
            game.apply(action)
            history.append(action)
        assert game.is_over(), f"{game_id} seed {setup.seed}: no end after {MAX_STEPS} steps"
        assert game.result()
        rebuilt = replay(adapter.create(setup), history)
        assert rebuilt.snapshot() == game.snapshot()


@pytest.mark.parametrize("game_id", list(ADAPTERS))
@pytest.mark.parametrize("lang", ["de", "en"])
def test_random_utterances_never_break_a_session(game_id: str, lang: str) -> None:
    """Sentences the grammar allows, in random order, plus table talk: no crash."""
    adapter = ADAPTERS[game_id]
    talk = ["", "ähm", "the dog ate my homework", "x" * 500, "🙂", "Reihe 99", "row minus one"]
    for setup in setups(game_id, 3):
        rng = random.Random(setup.seed)
        session = Session(adapter, lang, setup, NullOutput())
        session.start()
        now = 0.0
        for _ in range(150):
            if session.finished:
                break
            if rng.random() < 0.15:
                session.hear(rng.choice(talk))
            elif rng.random() < 0.1:
                now += rng.choice([1, 5, 30])
                session.tick(now)
            else:
                phrases = session.phrases()
                session.hear(rng.choice(phrases), confidence=rng.choice([1.0, 1.0, 0.5]))
