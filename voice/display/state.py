"""The table as the save file tells it: read leniently, replayed, watched for changes.

The table view never talks to the playing process: it reads the journal (see
:mod:`voice.session.journal`), so it works on another device, after the game's process crashed,
and while a line is being written. Unlike ``resume``, it never refuses a file that is
damaged after its header: it shows the state up to the last good line and says it is
waiting.
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engine import Action, Event, Game, GameError
from voice.session.adapters import ADAPTERS
from voice.session.journal import Header, JournalError, _header


@dataclass
class TableState:
    """One reading of the save file."""

    header: Header | None = None
    game: Game | None = None
    actions: list[Action] = field(default_factory=list)
    waiting: bool = False
    """The file ends in a line that is not (yet) a good journal line."""

    private: dict[str, list[Event]] = field(default_factory=dict)
    """Events told to one player only, by player, oldest first (for their private page)."""

    timers: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Running timers: id → (seconds, wall-clock time when it was first seen)."""

    last: list[Event] = field(default_factory=list)
    """What the table was told after the last move that told it anything (who guessed
    what, points), oldest first; public events only."""

    paused: bool = False
    """The table said "pause" (the game's clocks stand still)."""

    paused_at: float | None = None
    """Wall-clock time the pause began; the clocks show what was left then."""

    version: str = ""
    """Changes whenever what the page shows may change."""


MAX_BYTES = 16 * 1024 * 1024
"""The most of a save file the view reads (a game's journal is a few kilobytes)."""
MAX_LINE = 1024 * 1024
"""A longer line is not a journal line (the view waits for a good one)."""


def read_regular(path: Path, limit: int = MAX_BYTES) -> bytes | None:
    """The first ``limit`` bytes of ``path`` if it is a regular file, else None. A FIFO, a
    device or a folder is never read (opened without blocking, then refused by its type),
    so no reading can hang on such a path; a symbolic link loop is an OSError."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        os.set_blocking(fd, True)
        chunks, left = [], limit
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_table(path: Path) -> TableState:
    """Read ``path`` as far as it is good. Never raises for a bad file: an unreadable one
    gives a state without a header (the page says it is waiting)."""
    state = TableState()
    raw = read_regular(path)
    if raw is None:
        state.waiting = True
        return state
    lines = raw.split(b"\n")
    complete = lines[:-1]  # the last piece has no newline yet (or is empty)
    if lines[-1].strip():
        state.waiting = True
    records: list[dict[str, Any]] = []
    for line in complete:
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            state.waiting = True
            break
        try:
            record = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            state.waiting = True
            break
        if not isinstance(record, dict):
            state.waiting = True
            break
        records.append(record)
    if not records or records[0].get("farbspiel") != "journal":
        state.waiting = True
        return state
    try:
        state.header = _header(records[0])
    except (ValueError, JournalError):
        state.waiting = True
        return state
    adapter = ADAPTERS.get(state.header.game)
    if adapter is None:
        state.header = None
        state.waiting = True
        return state
    actions: list[Action] = []
    for record in records[1:]:
        try:
            if "action" in record:
                actions.append(Action.from_json(record["action"]))
            elif "undo" in record:
                count = record["undo"]
                if type(count) is not int or not 1 <= count <= len(actions):
                    raise ValueError("bad undo")
                del actions[-count:]
            elif "setting" in record:
                setting = record["setting"]
                if isinstance(setting, dict) and "paused" in setting:
                    state.paused = setting["paused"] is True
            else:
                raise ValueError("unknown line")
        except (ValueError, TypeError, AttributeError):
            state.waiting = True
            break
    try:
        game = adapter.create(state.header.setup)
    except (ValueError, GameError):
        state.header = None
        state.waiting = True
        return state
    _collect(state, game.start())
    for action in actions:
        try:
            _collect(state, game.apply(action))
        except GameError:
            state.waiting = True
            break
        state.actions.append(action)
    state.game = game
    return state


def _collect(state: TableState, events: list[Event]) -> None:
    told = [event for event in events if event.to is None]
    if told:
        state.last = told
    for event in events:
        if event.to is not None:
            state.private.setdefault(event.to, []).append(event)


class Watcher:
    """Re-reads a save file when it changes; remembers when timers started."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._stamp: tuple[int, int, int] | None = None
        self._state = TableState(waiting=True)
        self._timers: dict[str, tuple[float, float]] = {}
        self._paused_at: float | None = None
        self._count = 0

    def state(self) -> TableState:
        """The current state (re-read only if the file changed)."""
        try:
            st = os.stat(self.path)
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            changed_at = st.st_mtime
        except OSError:
            stamp, changed_at = None, time.time()
        if stamp != self._stamp or self._stamp is None:
            self._stamp = stamp
            self._state = read_table(self.path)
            self._count += 1
            if self._state.paused and self._paused_at is None:
                self._paused_at = changed_at
            elif not self._state.paused and self._paused_at is not None:
                # the clocks stood still during the pause: they start again where they were
                stood = max(0.0, changed_at - self._paused_at)
                self._timers = {k: (s, since + stood) for k, (s, since) in self._timers.items()}
                self._paused_at = None
            self._state.paused_at = self._paused_at
            timers: dict[str, tuple[float, float]] = {}
            game = self._state.game
            for timer in game.timers() if game is not None else []:
                # a timer first seen now started when the line that armed it was written
                timers[timer.id] = self._timers.get(timer.id, (timer.seconds, changed_at))
            self._timers = timers
            self._state.timers = timers
            self._state.version = f"{self._count}:{stamp}"
        return self._state
