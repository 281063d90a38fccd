"""Crash safety of all three games: resuming from any journal position ends exactly like
the uninterrupted game, and real processes killed with SIGKILL at random moments lose
nothing. (A modest number of kills here; ``python -m voice.bench.crash`` does many more and
writes the figures; see its docstring for why "exactly like" is well defined with timers.)
"""

from __future__ import annotations

import random

import pytest

from voice.bench.crash import (
    GOLDEN,
    check_resume_points,
    estimate,
    golden_scenarios,
    keyboard_scenarios,
    kill_chain,
    read_scenario,
    trace,
)

SCENARIOS = golden_scenarios()


def test_clock_lines_are_cut_where_timers_fire():
    scenario = read_scenario(GOLDEN / "pantone" / "basic-en.script")
    assert "@+60" not in scenario.lines
    at = scenario.lines.index("penalty for Cem")
    # 60 seconds of painting: warnings at 30 and 10 seconds left, then time's up
    assert scenario.lines[at + 1 : at + 4] == ("@+30", "@+20", "@+10")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_resuming_anywhere_ends_like_the_uninterrupted_game(scenario, tmp_path):
    """Two journal positions per golden game (every position: ``voice.bench.crash``)."""
    whole = trace(scenario, tmp_path)
    total = len(whole.journal.splitlines()) - 1
    rng = random.Random(scenario.name)
    points = sorted({total, rng.randrange(1, total)})
    assert check_resume_points(scenario, tmp_path, points, whole) == []


PAUSED = b'{"setting":{"paused":true,'


@pytest.mark.parametrize(
    "scenario",
    [s for s in SCENARIOS if "Pause" in s.lines or "pause" in s.lines],
    ids=lambda s: s.name,
)
def test_resuming_in_a_pause_ends_like_the_uninterrupted_game(scenario, tmp_path):
    """Killed during a break, the game resumes in the break: what the table says before
    "weiter" is not taken for a move (it was not in the uninterrupted game either)."""
    whole = trace(scenario, tmp_path)
    journal = whole.journal.splitlines()
    points = [c for c in range(1, len(journal)) if journal[c].startswith(PAUSED)]
    assert points, "the scenario pauses"
    assert check_resume_points(scenario, tmp_path, points, whole) == []


def _chains(scenario, tmp_path, chains, kills, seed):
    whole = trace(scenario, tmp_path)
    timing = estimate(scenario, tmp_path)
    rng = random.Random(seed)
    return [kill_chain(scenario, whole, tmp_path, rng, kills, timing) for _ in range(chains)]


KILLED = [
    ("script", "alle-meine-farben/basic-de-won"),
    ("script", "farben/rulebook-four-players-en"),  # with a time limit: timers fire
    ("script", "pantone/zwei-spieler-austeilen-de"),  # dealt cards, speed painter
    ("keyboard", "pantone-no-timers-en"),
]


@pytest.mark.parametrize(("mode", "name"), KILLED, ids=[f"{m}:{n}" for m, n in KILLED])
def test_sigkill_at_random_moments_loses_nothing(mode, name, tmp_path):
    pool = SCENARIOS if mode == "script" else keyboard_scenarios()
    scenario = next(s for s in pool if s.name == name)
    chains = _chains(scenario, tmp_path, chains=1, kills=2, seed=7)
    for chain in chains:
        print(f"{chain.mode} {chain.scenario}: kills at journal records {chain.kills}")
        if chain.disturbed:
            pytest.skip("the machine stalled for seconds: a real-time timer fired")
        assert chain.problem == "" and chain.survived
        assert chain.kills  # at least one kill reached a running process
