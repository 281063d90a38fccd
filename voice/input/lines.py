"""Typed and scripted lines: the keyboard reader and the script-file format."""

from __future__ import annotations

import os
import re
import select
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

_CLOCK_LINE = re.compile(r"^@\+\s*(\S+)$")
MAX_SCRIPT_STEP = 24 * 3600.0
"""The longest single ``@+N`` step accepted (a day)."""


@dataclass(frozen=True)
class ScriptLine:
    """One meaningful line of a script: an utterance, or a clock step."""

    number: int
    text: str | None = None
    seconds: float | None = None
    bad_step: str | None = None
    """A clock line whose number of seconds cannot work (as written), said by the loop."""


def read_script(lines: Iterable[str]) -> Iterator[ScriptLine]:
    """Parse script lines: ``#`` starts a comment, ``@+N`` advances the clock."""
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _CLOCK_LINE.match(line)
        if match is None:
            yield ScriptLine(number, text=line)
            continue
        try:
            seconds = float(match.group(1))
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= MAX_SCRIPT_STEP:  # also rejects nan and inf
            yield ScriptLine(number, bad_step=line)
        else:
            yield ScriptLine(number, seconds=seconds)


MAX_LINE = 64 * 1024
"""Typed input longer than this is cut into pieces (each then rejected as too long)."""


class LineReader:
    """Lines from a file descriptor, with a timeout, without Python's read-ahead
    buffer hiding lines from ``select``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = b""
        self._eof = False

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line ("" at end of input), or ``None`` if ``timeout`` passed first."""
        while b"\n" not in self._buffer and not self._eof and len(self._buffer) < MAX_LINE:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._eof = True
            self._buffer += chunk
        if b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            return line.decode("utf-8", errors="replace") + "\n"
        line, self._buffer = self._buffer[:MAX_LINE], self._buffer[MAX_LINE:]
        return line.decode("utf-8", errors="replace")
