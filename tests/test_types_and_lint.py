"""The type checker and the linter pass over the product (STYLE.md: mypy and ruff in CI).

Both run as the developer runs them, from the project's root with the configuration in
pyproject.toml (``[tool.mypy]``: strict for words/, games/ and voice/, with temporary
per-module overrides named there; ``[tool.ruff]``). A failure shows their own report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_mypy_finds_no_errors() -> None:
    result = run("mypy")  # the files and options of pyproject.toml; cache in .mypy_cache
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_finds_nothing() -> None:
    result = run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_would_change_nothing() -> None:
    """One format for all the code (``ruff format``; its settings in ``[tool.ruff]``)."""
    result = run("ruff", "format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr
