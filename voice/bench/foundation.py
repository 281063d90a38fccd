"""Foundation benchmark: how fast the parser and a whole scripted game are.

    python -m voice.bench.foundation [--runs 5] [--out bench-results]

Writes ``foundation.json`` and ``foundation.md``: the median (and p95) time of
``IntentParser.parse`` per utterance over all golden sentences, per language, and the
wall time of a full scripted 20-move game of Alle meine Farben, both in-process and as a
fresh ``farbspiel`` process (start-up included). Medians over several runs, because the
machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

from games.engine import Setup
from voice.session.adapters import ADAPTERS
from voice.understanding.grammar import Grammar
from voice.understanding.intents import IntentParser

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "golden" / "alle-meine-farben" / "basic-de-won.script"


def sentences(lang: str) -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "tests" / "grammars" / lang).glob("*.yaml")):
        if path.name.startswith("_"):
            continue
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        game = doc.get("game")
        for block in doc["tests"]:
            found += [(block.get("game", game), s) for s in block["sentences"]]
    return found


def parse_times(lang: str, runs: int) -> list[float]:
    parsers: dict[str, IntentParser] = {}
    times = []
    for _ in range(runs):
        for game, sentence in sentences(lang):
            if game not in parsers:
                adapter = ADAPTERS[game]
                setup = Setup(("Anna", "Ben", "Cem"), options=adapter.default_options(lang))
                grammar = Grammar(lang, game, adapter.dynamic_lists(setup, lang))
                parsers[game] = IntentParser(grammar)
                parsers[game].parse(sentence)  # warm-up: template compilation
            start = time.perf_counter()
            parsers[game].parse(sentence)
            times.append(time.perf_counter() - start)
    return times


def game_command() -> list[str]:
    header = GAME.read_text(encoding="utf-8").splitlines()[0].removeprefix("# farbspiel:")
    return header.split() + ["--script", str(GAME), "--json"]


def in_process_game_time() -> float:
    import contextlib
    import io

    from voice.cli.main import main

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(game_command())
    assert code == 0
    return time.perf_counter() - start


def process_game_time() -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "voice", *game_command()],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
    )
    return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    args = parser.parse_args(argv)
    results: dict[str, object] = {"machine": platform.platform(), "cpus": os.cpu_count()}
    for lang in ("de", "en"):
        times = parse_times(lang, args.runs)
        results[f"parse_{lang}"] = {
            "utterances": len(times),
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p95_ms": round(percentile(times, 0.95) * 1000, 3),
        }
    in_proc = [in_process_game_time() for _ in range(args.runs)]
    procs = [process_game_time() for _ in range(args.runs)]
    moves = sum(1 for line in GAME.read_text().splitlines() if line and not line.startswith("#"))
    results["scripted_game"] = {
        "script": str(GAME.relative_to(ROOT)),
        "lines": moves,
        "in_process_median_s": round(statistics.median(in_proc), 3),
        "process_median_s": round(statistics.median(procs), 3),
        "runs": args.runs,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "foundation.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = ["# Foundation benchmark", "", "| measure | value |", "|---|---|"]
    for lang in ("de", "en"):
        r = results[f"parse_{lang}"]
        assert isinstance(r, dict)
        lines.append(
            f"| parse ({lang}), median per utterance | {r['median_ms']} ms "
            f"(p95 {r['p95_ms']} ms, n={r['utterances']}) |"
        )
    g = results["scripted_game"]
    assert isinstance(g, dict)
    lines.append(
        f"| full scripted game ({g['lines']} lines, 20 moves), in process | "
        f"{g['in_process_median_s']} s |"
    )
    lines.append(f"| same game as a fresh `farbspiel` process | {g['process_median_s']} s |")
    (args.out / "foundation.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
