"""Soak: one long-running farbspiel process plays game after game of all three games in
both languages, with questions, garbage, table talk and asides between the moves, and
must stay flat in memory and speed.

    python -m voice.bench.soak [--utterances 10000] [--seed 1] [--out bench-results]

Writes ``soak.json`` and ``soak.md``: resident memory (VmRSS from /proc) at the start,
after the first round of games and at the end, and per block of 1000 utterances the
wall and CPU time, the median and p95 per utterance, and the memory.

Every game is a golden playthrough (``tests/golden``) driven through the real command
line (``play ... --script``, in this process, one line at a time) with noise inserted
between its lines. The noise must change nothing: each game has to end with exactly
the actions and the ``game_over`` of the golden run, which is checked.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import voice.cli.main as cli
from voice.bench.crash import GOLDEN, Scenario, read_scenario
from voice.output.sinks import MultiOutput
from voice.session.journal import read
from voice.session.loops import run_script

ROOT = Path(__file__).resolve().parents[2]

NOISE: dict[str, dict[str, Any]] = {
    "de": {
        "questions": ["wer ist dran", "Punktestand", "Hilfe", "wiederhole", "was kann ich sagen"],
        "talk": [
            "Mein Hund hat gestern die Socken gefressen",
            "Wer will noch Saft?",
            "Reich mir mal die Chips",
            "Das ist ja spannend",
            "Oma kommt morgen zu Besuch",
            "Ich muss gleich aufs Klo",
        ],
        "pairs": [("Pause", "weiter"), ("langsamer", "schneller")],
    },
    "en": {
        "questions": ["whose turn is it", "what's the score", "help", "repeat", "what can I say"],
        "talk": [
            "my dog ate my socks yesterday",
            "who wants more juice",
            "pass me the crisps please",
            "this is so exciting",
            "grandma is coming tomorrow",
            "hang on, the phone is ringing",
        ],
        "pairs": [("pause", "continue"), ("slower", "faster")],
    },
}
GARBAGE = ["xq zv", "äöü ßß", "🙂🙂", "\x07\x1b[0m", "hmm", "ääähm", "a" * 400, "1234567"]


def rss_kb() -> int:
    """Resident memory of this process (VmRSS), in KB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Game:
    scenario: Scenario
    lang: str
    actions: list[Any]
    game_over: dict[str, Any] | None


@dataclass
class Soak:
    """Per-utterance timings and memory readings of a soak run."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """CPU seconds per utterance, of the thread that handled it."""

    rss_after: dict[int, int] = field(default_factory=dict)
    """VmRSS (KB) after every ``block`` utterances."""

    game_ends: list[tuple[int, int]] = field(default_factory=list)
    """(utterances heard so far, VmRSS in KB after a garbage collection) after each game."""

    games: int = 0
    clock_lines: int = 0
    problems: list[str] = field(default_factory=list)


def golden_games(tmp: Path, names: Sequence[str] | None = None) -> list[Game]:
    """The golden playthroughs (all, or those named like ``farben/three-players-de``), in
    that order, with the actions and game_over of their clean runs."""
    games = []
    paths = sorted(GOLDEN.glob("*/*.script"))
    if names is not None:
        paths = [GOLDEN / f"{name}.script" for name in names]
    for path in paths:
        scenario = read_scenario(path)
        args = cli.build_parser().parse_args(list(scenario.argv))
        save = tmp / f"clean-{path.stem}.jsonl"
        over = _play(scenario, list(scenario.lines), save, _say)
        games.append(Game(scenario, args.lang, read(save).actions, over))
    return games


def _say(session: Any, clock: Any, line: str) -> None:
    run_script(session, [line], clock)


def noisy(game: Game, rng: random.Random) -> list[tuple[str, str]]:
    """The game's lines with noise between them, as (kind, text): "move" for the
    playthrough's own lines, "noise" for questions, "talk" for table talk and garbage
    (not said in a Pantone guess window, where every utterance is the guess), "aside"
    and "aside end" for asides that come in twos (pause and continue, slower and faster)."""
    noise = NOISE[game.lang]
    out: list[tuple[str, str]] = []
    for line in game.scenario.lines:
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            kind = rng.choice(["questions", "talk", "talk", "garbage", "pairs"])
            if kind == "pairs":
                first, second = rng.choice(noise["pairs"])
                out += [("aside", first), ("aside end", second)]
            else:
                pool = GARBAGE if kind == "garbage" else noise[kind]
                out.append(("noise" if kind == "questions" else "talk", rng.choice(pool)))
        out.append(("move", line))
    return out


def _play(
    scenario: Scenario,
    lines: Sequence[str],
    save: Path,
    each: Callable[[Any, Any, str], None],
) -> dict[str, Any] | None:
    """``play`` in this process through the real CLI, one line at a time; ``each`` is
    called around every line; returns the last game_over event."""
    over: list[dict[str, Any]] = []

    class Catch:
        def say(self, text: str) -> None:
            pass

        def record(self, record: dict[str, Any]) -> None:
            if record.get("type") == "game_over":
                over.append(record)

        def set_rate(self, wpm: int) -> None:
            pass

        def close(self) -> None:
            pass

    def driver(session: Any, _lines: Sequence[str], clock: Any) -> None:
        session.out = MultiOutput([session.out, Catch()])
        for line in lines:
            if session.finished:
                break
            each(session, clock, line)

    script = save.with_suffix(".script")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    save.unlink(missing_ok=True)
    argv = [*scenario.argv, "--save", str(save), "--script", str(script), "--json"]
    with (
        open(os.devnull, "w", encoding="utf-8") as sink,
        contextlib.redirect_stdout(sink),
        contextlib.redirect_stderr(sink),
    ):
        code = cli.main(argv, run_lines=driver)
    if code != 0:
        raise RuntimeError(f"{scenario.name}: exit code {code}")
    return over[-1] if over else None


class _Feeder:
    """Says one noisy game's lines to the session, timing every utterance."""

    def __init__(self, lines: list[tuple[str, str]], result: Soak, block: int) -> None:
        self.kinds = iter([kind for kind, _ in lines])
        self.result = result
        self.block = block
        self.skip_aside = False

    def __call__(self, session: Any, clock: Any, line: str) -> None:
        kind = next(self.kinds)
        if kind == "aside":  # not while paused or while a yes/no question is open:
            self.skip_aside = "undo" not in session.phase().intents  # it would change that
        if kind.startswith("aside") and self.skip_aside:
            return
        if kind == "talk" and "guess" in session.phase().intents:
            return  # a Pantone guess window: whatever is said there is the guesser's guess
        result = self.result
        if line.startswith("@+"):
            result.clock_lines += 1
            run_script(session, [line], clock)
            return
        # the CPU time of this thread alone: the utterance is handled on it, and another
        # thread of the process (a test's leftover, a library's) must not count
        wall, cpu = time.perf_counter(), time.thread_time()
        run_script(session, [line], clock)
        result.wall.append(time.perf_counter() - wall)
        result.cpu.append(time.thread_time() - cpu)
        if len(result.wall) % self.block == 0:
            gc.collect()
            result.rss_after[len(result.wall)] = rss_kb()


def soak(
    utterances: int,
    seed: int,
    tmp: Path,
    games: Sequence[Game] | None = None,
    block: int = 1000,
    same_noise: bool = False,
    rounds: int | None = None,
) -> Soak:
    """Play noisy golden games back to back (``games``, default: all golden ones, in
    turn) until ``utterances`` have been heard, or ``rounds`` rounds of all ``games``
    have been played. ``same_noise``: every round gets the same noise, so rounds can be
    compared utterance by utterance."""
    rng = random.Random(seed)
    games = list(games) if games is not None else golden_games(tmp)
    result = Soak()
    result.rss_after[0] = rss_kb()
    while len(result.wall) < utterances:
        if rounds is not None and result.games == rounds * len(games):
            break
        game = games[result.games % len(games)]
        if same_noise and result.games % len(games) == 0:
            rng = random.Random(seed)
        lines = noisy(game, rng)
        save = tmp / "soak.jsonl"
        feeder = _Feeder(lines, result, block)
        over = _play(game.scenario, [text for _, text in lines], save, feeder)
        result.games += 1
        gc.collect()
        result.game_ends.append((len(result.wall), rss_kb()))
        if read(save).actions != game.actions or over != game.game_over:
            result.problems.append(f"game {result.games} ({game.scenario.name}) ended otherwise")
        if result.games == len(games):
            result.rss_after[-1] = rss_kb()  # after one round of every game (caches warm)
    result.rss_after[len(result.wall)] = rss_kb()
    return result


def blocks(result: Soak, size: int) -> list[dict[str, Any]]:
    """Timing per block of ``size`` utterances."""
    out = []
    for start in range(0, len(result.wall) - size + 1, size):
        wall = result.wall[start : start + size]
        cpu = result.cpu[start : start + size]
        out.append(
            {
                "utterances": f"{start + 1}-{start + size}",
                "wall_s": round(sum(wall), 3),
                "cpu_s": round(sum(cpu), 3),
                "median_ms": round(statistics.median(wall) * 1000, 3),
                "p95_ms": round(sorted(wall)[int(0.95 * len(wall))] * 1000, 3),
                "rss_kb_after": result.rss_after.get(start + size, 0),
            }
        )
    return out


def _report(summary: dict[str, Any], rss: dict[int, int], rss_process_start: int,
            n: int) -> list[str]:  # fmt: skip
    """soak.md: what was played, memory over the rounds, time per block of utterances."""
    per_block = summary["blocks"]
    lines = [
        "# Soak: game after game in one process",
        "",
        f"Command: `{summary['command']}`",
        "",
        f"- {summary['utterances']} utterances (+ {summary['clock_lines']} clock lines) "
        f"in {summary['games']} games of all three games, de and en; games ending exactly "
        f"as their golden run: {summary['games_ending_as_golden']} / {summary['games']}",
        f"- resident memory: {rss_process_start / 1024:.1f} MB when the process started, "
        f"{rss[0] / 1024:.1f} MB once every game had been played once without noise, "
        f"{(rss.get(-1) or 0) / 1024:.1f} MB after the first round of all games, "
        f"{summary['rss_kb_end'] / 1024:.1f} MB at the end",
        f"- resident memory after each round of all {n} games (same moment each time): "
        + ", ".join(f"{kb / 1024:.1f}" for kb in summary["rss_kb_after_each_round"])
        + " MB; lowest after any game of each round: "
        + ", ".join(f"{kb / 1024:.1f}" for kb in summary["rss_kb_lowest_in_each_round"])
        + " MB",
        f"- last / first block of 1000: CPU time x{summary['last_to_first_block_cpu']}, "
        f"median per utterance x{summary['last_to_first_block_median']}",
        "",
        "| utterances | wall s | CPU s | median ms | p95 ms | RSS after (MB) |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {b['utterances']} | {b['wall_s']} | {b['cpu_s']} | {b['median_ms']} | "
        f"{b['p95_ms']} | {b['rss_kb_after'] / 1024:.1f} |"
        for b in per_block
    ]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--utterances", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument(
        "--game", action="append", help="only this golden game (farben/five-players-de)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rss_process_start = rss_kb()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")
        games = golden_games(Path(tmp), args.game)
        result = soak(args.utterances, args.seed, Path(tmp), games)
    per_block = blocks(result, min(1000, args.utterances))
    n = len(games)
    rounds = [result.game_ends[r * n : (r + 1) * n] for r in range(len(result.game_ends) // n)]
    first, last = per_block[0], per_block[-1]
    rss = result.rss_after
    summary: dict[str, Any] = {
        "command": "python -m voice.bench.soak " + " ".join(sys.argv[1:] if argv is None else argv),
        "utterances": len(result.wall),
        "clock_lines": result.clock_lines,
        "games": result.games,
        "games_ending_as_golden": result.games - len(result.problems),
        "problems": result.problems,
        "rss_kb_process_start": rss_process_start,
        "rss_kb_start": rss[0],
        "rss_kb_after_first_round": rss.get(-1),
        "rss_kb_end": rss[max(rss)],
        # The same moment of every round (after its last game), and the lowest reading
        # after any game of the round: readings in the middle of a game depend on the game.
        "rss_kb_after_each_round": [round_[-1][1] for round_ in rounds],
        "rss_kb_lowest_in_each_round": [min(r for _, r in round_) for round_ in rounds],
        "last_to_first_block_cpu": round(last["cpu_s"] / first["cpu_s"], 3),
        "last_to_first_block_median": round(last["median_ms"] / first["median_ms"], 3),
        "blocks": per_block,
        "seconds": round(time.perf_counter() - start, 1),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
    }
    lines = _report(summary, rss, rss_process_start, n)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "soak.json").write_text(json.dumps(summary, indent=2) + "\n")
    (args.out / "soak.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    if result.problems:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
