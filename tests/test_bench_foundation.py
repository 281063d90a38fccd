"""The foundation benchmark runs and writes sane numbers (the numbers themselves are
reported, not asserted: machines are shared and noisy)."""

from __future__ import annotations

import json
import subprocess
import sys

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
