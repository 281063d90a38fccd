"""The foundation benchmark runs and writes sane numbers (the numbers themselves are
reported, not asserted: machines are shared and noisy)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import ROOT


def test_foundation_benchmark_writes_its_numbers(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "voice.bench.foundation", "--runs", "1", "--out", str(tmp_path)],
        check=True,
        cwd=ROOT,
        capture_output=True,
        timeout=300,
    )
    results = json.loads((tmp_path / "foundation.json").read_text())
    assert results["parse_de"]["utterances"] >= 100
    assert 0 < results["parse_de"]["median_ms"] < results["parse_de"]["p95_ms"] * 1.0001
    assert 0 < results["scripted_game"]["in_process_median_s"]
    assert "| parse (en)" in (tmp_path / "foundation.md").read_text()


@pytest.mark.parametrize("limit", [1, 2, 3, 10])
def test_items_n_runs_at_most_n_utterances_per_table(limit: int) -> None:
    """``farbspiel bench --items N``: a quick look really is N utterances, with table talk
    among them (``--items 1`` once ran all but one)."""
    from voice.bench.speech import _corpus, _limited

    _, _, items = _corpus("de", 1)
    chosen = _limited(items, limit)
    assert 1 <= len(chosen) <= limit
    assert any(i.kind == "table_talk" for i in chosen)


def test_a_missing_held_out_file_for_the_set_up_speech_bench_is_named(tmp_path, capsys) -> None:
    from voice.bench import setup_speech

    missing = tmp_path / "setup.de.yaml"
    argv = ["--held-out", str(missing), "--lang", "de", "--limit", "1", "--out", str(tmp_path)]
    assert setup_speech.main(argv) == 2
    assert f"cannot measure: [Errno 2] No such file or directory: '{missing}'" in (
        capsys.readouterr().err
    )
