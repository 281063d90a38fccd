"""What a sentence is understood as never depends on the order in which Python happens to
walk a set (``PYTHONHASHSEED`` changes it from one process to the next): where two readings
are equally good, a rule decides, the same in every process.

Each case is parsed in fresh processes with different hash seeds (all at once, so the test
stays a few seconds long); they must agree, and on the reading the rule gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SEEDS = ("0", "1", "2", "3", "4", "5")
"""Enough seeds that set orders differ between them (each case of this file was read two
ways among them before its rule existed)."""

CHILD = r"""
import json, sys
from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session

got, tables = [], {}
for game, lang, players, options, before, text in json.loads(sys.argv[1]):
    key = json.dumps([game, lang, players, options, before])
    if key not in tables:  # parsing changes nothing at the table: one per situation
        adapter = ADAPTERS[game]
        options = {**adapter.default_options(lang), **options}
        tables[key] = Session(adapter, lang, Setup(tuple(players), 0, players[0], options),
                              RecordingOutput())
        tables[key].start()
        for line in before:
            tables[key].hear(line)
    session = tables[key]
    phase = session.phase()
    found = session.parser.parse(text, phase.intents, phase.slots, last=phase.last)
    got.append(None if found is None else [found.name, found.slots, round(found.score, 3)])
print(json.dumps(got, sort_keys=True))
"""

PANTONE = ("pantone", "de", ["Anna", "Ben", "Cem"], {})
GUESSING = ["karte 1", "fertig"]  # Anna has painted; Ben guesses
COLOURS = ("alle-meine-farben", "de", ["Anna", "Ben"], {"variant": "basic"})
COLOURS_EN = ("alle-meine-farben", "en", ["Anna", "Ben"], {"variant": "basic"})

CASES: list[tuple[tuple[Any, ...], list[str], str, Any]] = [
    # "pass" was as near to "passe" (the guesser passes) as to "passt" (yes, it fits);
    # now "pass" itself is a pass as said ("Pass nochmal", "Nö, pass"), under every seed
    (PANTONE, GUESSING, "pass", ["pass", {}, 1.0]),
    # "ich pass" is said so (typed): nothing else was meant, nothing to ask
    (PANTONE, GUESSING, "ok ich pass", ["pass", {}, 1.0]),
    # frames of the same words and two kinds ("ach nein": an exclamation and a correction;
    # "nee nee": a negation and a correction) are both: right after a move they correct it
    (COLOURS, ["blau"], "ach nein grün", ["correction", {"colour": "green"}, 1.0]),
    (COLOURS, ["blau"], "oh nein, grün", ["correction", {"colour": "green"}, 1.0]),
    (COLOURS, ["blau"], "nee nee grün", ["correction", {"colour": "green"}, 1.0]),
    (COLOURS_EN, ["blue"], "ugh green", ["correction", {"colour": "green"}, 1.0]),
    # with nothing to correct, the guard still hears the "nein": no move
    (COLOURS, [], "ach nein grün", None),
    (COLOURS, [], "nein nein grün", None),
]


def _readings(seed: str) -> subprocess.Popen[str]:
    cases = [[*table, before, text] for table, before, text, _ in CASES]
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps(cases)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_equally_good_readings_are_decided_alike_under_every_hash_seed() -> None:
    running = {seed: _readings(seed) for seed in SEEDS}
    got: dict[str, list[Any]] = {}
    for seed, proc in running.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        got[seed] = json.loads(out)
    for i, (_, _, text, want) in enumerate(CASES):
        by_seed = {seed: readings[i] for seed, readings in got.items()}
        assert all(r == want for r in by_seed.values()), (text, by_seed)
