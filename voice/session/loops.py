"""Input loops that feed a :class:`~voice.session.session.Session`: script files and the keyboard.

(The microphone loop is :mod:`voice.session.microphone`; it feeds the session the same way.)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TextIO

from voice.input.clock import RealClock, VirtualClock
from voice.input.lines import LineReader, read_script
from voice.output.messages import console_text
from voice.session.session import Session


def run_script(session: Session, lines: Iterable[str], clock: VirtualClock) -> int | None:
    """Feed a script to a started session in virtual time, until the file or game ends.
    Returns the number (from 1) of the first line the game did not take, if it ended first."""
    for item in read_script(lines):
        if session.finished:
            return item.number
        if item.bad_step is not None:
            problem = console_text("script_bad_step", text=item.bad_step)
            session.out.record({"type": "script_error", "line": item.number, "message": problem})
            text = console_text("script_line", line=item.number, problem=problem)
            print(f"farbspiel: {text}", file=sys.stderr)
        elif item.seconds is not None:
            clock.advance(item.seconds)
            session.tick(clock.now())
        elif item.text is not None:
            session.hear(item.text)
            session.tick(clock.now())
    return None


def run_keyboard(
    session: Session, reader: LineReader, clock: RealClock, prompt: TextIO | None = None
) -> None:
    """Read typed lines in real time; timers fire while waiting for input."""
    prompted = False
    while not session.finished:
        if not session.tick(clock.now()):
            break
        if prompt is not None and not prompted:
            print("> ", end="", file=prompt, flush=True)
            prompted = True
        line = reader.readline(session.seconds_to_next_timer())
        if line is None:  # a timer is due (or a phone connected) before anything was typed
            if not session.due_now():
                continue  # only a look at the phones: the prompt stays as it is
            if prompt is not None:
                print(file=prompt)
            prompted = False
            continue
        prompted = False
        if line == "":  # end of input (Ctrl-D or closed pipe)
            break
        text = line.strip()
        if text:
            session.tick(clock.now())  # timers due while typing fire first; "now" is current
            session.hear(text)
