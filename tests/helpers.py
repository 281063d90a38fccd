"""Helpers for running farbspiel in tests, in-process or as a real process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    @property
    def said(self) -> list[str]:
        return [e["text"] for e in self.events if e.get("type") == "say"]


def run_cli(*argv: str) -> Run:
    """Run ``farbspiel`` in this process (fast), capturing its output."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return Run(code, out.getvalue(), err.getvalue())


def run_process(
    *argv: str, stdin: str | None = None, timeout: float = 120, env: dict[str, str] | None = None
) -> Run:
    """Run ``python -m voice`` as a real process (for exit codes, stdin, signals)."""
    proc = subprocess.run(
        [sys.executable, "-m", "voice", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def write_script(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
