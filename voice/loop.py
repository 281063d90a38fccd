"""Input loops that feed a :class:`~voice.session.Session`: script files and the keyboard.

(The microphone loop lives with the recognisers; it feeds the session the same way.)
"""

from __future__ import annotations

import os
import re
import select
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from voice.clock import RealClock, VirtualClock
from voice.messages import console_text
from voice.session import Session

_CLOCK_LINE = re.compile(r"^@\+\s*(\S+)$")
MAX_SCRIPT_STEP = 24 * 3600.0
"""The longest single ``@+N`` step accepted (a day)."""


@dataclass(frozen=True)
class ScriptLine:
    """One meaningful line of a script: an utterance, or a clock step."""

    number: int
    text: str | None = None
    seconds: float | None = None
    error: str | None = None


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
            yield ScriptLine(number, error=console_text("script_bad_step", text=line))
        else:
            yield ScriptLine(number, seconds=seconds)


def run_script(session: Session, lines: Iterable[str], clock: VirtualClock) -> None:
    """Feed a script to a started session in virtual time, until the file or game ends."""
    for item in read_script(lines):
        if session.finished:
            break
        if item.error is not None:
            session.out.record({"type": "script_error", "line": item.number, "message": item.error})
            text = console_text("script_line", line=item.number, problem=item.error)
            print(f"farbspiel: {text}", file=sys.stderr)
        elif item.seconds is not None:
            clock.advance(item.seconds)
            session.tick(clock.now())
        elif item.text is not None:
            session.hear(item.text)
            session.tick(clock.now())


def run_keyboard(
    session: Session, reader: LineReader, clock: RealClock, prompt: TextIO | None = None
) -> None:
    """Read typed lines in real time; timers fire while waiting for input."""
    while not session.finished:
        session.tick(clock.now())
        if session.finished:
            break
        if prompt is not None:
            print("> ", end="", file=prompt, flush=True)
        line = reader.readline(session.seconds_to_next_timer())
        if line is None:  # a timer is due before anything was typed
            if prompt is not None:
                print(file=prompt)
            continue
        if line == "":  # end of input (Ctrl-D or closed pipe)
            break
        text = line.strip()
        if text:
            session.tick(clock.now())  # timers due while typing fire first; "now" is current
            session.hear(text)


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
