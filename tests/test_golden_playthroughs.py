"""Golden playthroughs: scripted games whose whole event output is stored and diffed.

Each ``tests/golden/<game>/<name>.script`` starts with a line
``# farbspiel: play GAME OPTIONS...``; the expected JSON-lines output is stored beside it
as ``<name>.jsonl``. After a deliberate change of wording or rules, regenerate with
``FARBSPIEL_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_playthroughs.py`` and read
the diff before committing it.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from helpers import run_cli

GOLDEN = Path(__file__).parent / "golden"
SCRIPTS = sorted(GOLDEN.glob("*/*.script"))
HEADER = "# farbspiel:"


def command_of(script: Path) -> list[str]:
    first = script.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(HEADER), f"{script} must start with '{HEADER} play GAME ...'"
    return shlex.split(first[len(HEADER) :]) + ["--script", str(script), "--json"]


@pytest.mark.parametrize("script", SCRIPTS, ids=[f"{s.parent.name}/{s.stem}" for s in SCRIPTS])
def test_golden_playthrough(script: Path) -> None:
    run = run_cli(*command_of(script))
    assert run.code == 0, run.err
    expected_file = script.with_suffix(".jsonl")
    if os.environ.get("FARBSPIEL_UPDATE_GOLDEN"):
        expected_file.write_text(run.out, encoding="utf-8")
    assert expected_file.exists(), "no golden output yet: run with FARBSPIEL_UPDATE_GOLDEN=1"
    assert run.out.splitlines() == expected_file.read_text(encoding="utf-8").splitlines()


def test_every_game_has_golden_playthroughs() -> None:
    from voice.session.adapters import ADAPTERS

    for game_id in ADAPTERS:
        assert list((GOLDEN / game_id).glob("*.script")), f"no golden playthrough of {game_id}"
