"""Command-line values shared by several commands."""

from __future__ import annotations

from voice.errors import UsageError
from voice.understanding.grammar import normalize

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
"""Exit codes: done, a file/device/model problem, a command line that cannot work, Ctrl-C."""

MAX_NAME = 40
"""The longest player name (characters)."""


def players_option(text: str) -> tuple[str, ...]:
    names = tuple(" ".join(n.split()) for n in text.split(","))
    for name in names:
        if not name:
            raise UsageError('--players has an empty name; write them like "Anna,Ben,Cem"')
        if len(name) > MAX_NAME:
            raise UsageError(f"--players: {name[:20]!r}... is too long (at most {MAX_NAME})")
        if not any(c.isalpha() for c in name) or not normalize(name):
            raise UsageError(f"--players: {name!r} is not a name farbspiel can say or hear")
    spoken = [normalize(n) for n in names]
    for name in spoken:
        if spoken.count(name) > 1:
            raise UsageError(
                f"--players: two players are called {name!r}; give them names that sound different"
            )
    return names
