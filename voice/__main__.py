"""The ``farbspiel`` program: the command line of :mod:`voice.cli.main` with the
measurements of :mod:`voice.bench` added (``farbspiel bench``)."""

from __future__ import annotations

from voice.bench.cli import BenchCommand
from voice.cli.main import main as cli_main


def main(argv: list[str] | None = None) -> int:
    return cli_main(argv, extra=[BenchCommand()])


if __name__ == "__main__":
    raise SystemExit(main())
