"""A small soak in CI: three rounds of one game of each kind, with the same noise in every
round, in one process. Memory must not grow from round to round and the same utterances
must not get slower (ratios between rounds, never absolute times). ``python -m
voice.bench.soak`` runs 10 000 utterances and writes the figures.

Speed is the CPU time of the thread handling each utterance, so another thread of the
process does not count; another process on a shared core still can (a test next to this
one in the parallel suite measured a round 1.87 times slower once). So rounds 3 and 4 are
both played and each utterance takes the quicker of the two: a slowdown that grows from
round to round shows in both, a passing load burst in one only.

How sensitive this is: keeping every finished session alive (a typical leak) grows the
resident memory by about 30 MB per round here; without a leak it moves by 1-2 MB.
"""

from __future__ import annotations

import statistics

from voice.bench.soak import golden_games, soak

GAMES = ["alle-meine-farben/profi-en", "pantone/teams-renaissance-en", "farben/three-players-de"]
ROUNDS = 4


def test_rounds_of_games_stay_flat_in_memory_and_speed(tmp_path):
    games = golden_games(tmp_path, GAMES)
    result = soak(10**9, 1, tmp_path, games=games, same_noise=True, rounds=ROUNDS)
    assert result.problems == []  # the noise changed no game
    assert result.games == ROUNDS * len(GAMES)
    size = len(result.wall) // ROUNDS
    n = len(GAMES)
    ends = [result.game_ends[r * n : (r + 1) * n] for r in range(ROUNDS)]
    assert [round_[-1][0] for round_ in ends] == [size * (r + 1) for r in range(ROUNDS)]

    # Memory: the lowest reading after any game of a round (peaks come and go with the
    # allocator); the last round may not lie above the second by more than a few MB.
    lowest = [min(rss for _, rss in round_) for round_ in ends]
    print("lowest resident memory per round (KB):", lowest)
    assert lowest[-1] - lowest[1] < 10 * 1024

    # Speed: each utterance of rounds 3 and 4 (the quicker of the two) against the same
    # one in round 2 (CPU time).
    second = result.cpu[size : 2 * size]
    third, fourth = result.cpu[2 * size : 3 * size], result.cpu[3 * size :]
    later = [min(c, d) for c, d in zip(third, fourth, strict=True)]
    ratio = statistics.median(b / a for a, b in zip(second, later, strict=True) if a > 0.0005)
    print("median CPU time ratio per utterance, rounds 3-4 / round 2:", round(ratio, 3))
    assert ratio < 1.5
    assert sum(later) < 1.5 * sum(second)
