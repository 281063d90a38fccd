"""The save file: an append-only journal of everything the table decided.

Format (JSON lines, UTF-8)::

    {"farbspiel": "journal", "version": 1, "game": "...", "lang": "de", "setup": {...}}
    {"action": {"name": "place", "args": {"colour": "purple"}}}
    {"undo": 1}
    {"setting": {"rate": 180}}

Every accepted action is appended (and fsync'ed) before it is announced, so killing the
process loses at most the action being spoken. Replaying the lines rebuilds the game
exactly (history is the truth; undo is pop). A file that is not a journal, or is
damaged before its last line, is refused with a clear message and never modified; a
last line cut short by a crash is dropped on resume.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engine import Action, Setup

FORMAT = "journal"
VERSION = 1
SUPPORTED_VERSIONS = (1,)


class JournalError(Exception):
    """A save file that cannot be used; the message says why and what to do."""


@dataclass
class Header:
    """The first line of a journal: which game, how it was set up."""

    game: str
    lang: str
    setup: Setup
    version: int = VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "farbspiel": FORMAT,
            "version": self.version,
            "game": self.game,
            "lang": self.lang,
            "setup": self.setup.to_json(),
        }


@dataclass
class Contents:
    """What a journal holds once read."""

    header: Header
    actions: list[Action] = field(default_factory=list)
    """The actions in force (undone ones removed)."""

    settings: dict[str, Any] = field(default_factory=dict)
    """Latest value of each table setting (speech rate, ...)."""

    dropped_tail: bool = False
    """True if an unfinished last line (a crash while writing) was ignored."""

    valid_length: int = 0
    """Bytes of the file up to the end of the last complete line."""


class Journal:
    """An open journal file, appended to line by line.

    Lines go straight to the file (no buffer that could hold a half-written line back
    and write it later) and are fsync'ed. After every write the journal checks that its
    file is still where it was: a save file that was deleted or moved (its folder tidied
    away mid-game) is reported like a failed write, so the session writes it anew
    instead of saving into a file nobody will find.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @staticmethod
    def create(path: Path, header: Header) -> Journal:
        """Start a new journal; refuses to overwrite an existing file (an empty one holds
        nothing and is taken: a process killed while creating the file leaves one)."""
        path = Path(path)
        if path.exists() and not _empty_file(path):
            raise JournalError(
                f"{path} already exists. Continue it with `farbspiel resume {path}` "
                "or choose another file with --save."
            )
        exclusive = 0 if path.exists() else os.O_EXCL
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | exclusive, 0o644)
        except OSError as exc:
            raise JournalError(f"cannot create save file {path}: {exc.strerror}") from exc
        journal = Journal(path, fd)
        try:
            journal._write(header.to_json())
        except JournalError:
            journal.close()
            path.unlink(missing_ok=True)  # ours, and without a header it is nothing
            raise
        return journal

    @staticmethod
    def reopen(path: Path, truncate_at: int | None = None) -> Journal:
        """Open an existing journal for appending, first cutting it to ``truncate_at``
        bytes if given (to drop a last line a crash left unfinished)."""
        path = Path(path)
        fd = None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            if truncate_at is not None:
                os.ftruncate(fd, truncate_at)
        except OSError as exc:
            if fd is not None:
                os.close(fd)
            raise JournalError(f"cannot write to save file {path}: {exc.strerror}") from exc
        return Journal(path, fd)

    def append_action(self, action: Action) -> None:
        self._write({"action": action.to_json()})

    def append_undo(self, count: int = 1) -> None:
        """Record that the last ``count`` actions were taken back (one line: atomic)."""
        self._write({"undo": count})

    def append_setting(self, name: str, value: Any) -> None:
        self._write({"setting": {name: value}})

    def _write(self, record: dict[str, Any]) -> None:
        if self._fd is None:
            raise JournalError(f"the save file {self.path} is closed")
        data = memoryview(encode(record))
        try:
            while data:
                data = data[os.write(self._fd, data) :]
            os.fsync(self._fd)
            here = os.fstat(self._fd)
            there = os.stat(self.path) if here.st_nlink else None
        except FileNotFoundError:
            there = None
        except OSError as exc:
            raise JournalError(f"cannot write to save file {self.path}: {exc.strerror}") from exc
        if there is None or (there.st_dev, there.st_ino) != (here.st_dev, here.st_ino):
            raise JournalError(f"the save file {self.path} was deleted or moved")

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)


def encode(record: dict[str, Any]) -> bytes:
    """One journal line. Text that UTF-8 cannot hold (undecodable bytes of a command-line
    argument) is written as JSON escapes, which read back to the same string."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")


def _empty_file(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def read(path: Path) -> Contents:
    """Read and check a journal without changing it."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"no saved game at {path}") from None
    except IsADirectoryError:
        raise JournalError(f"{path} is a folder, not a saved game") from None
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from exc
    lines = list(_lines(raw))
    if not lines:
        raise JournalError(f"{path} is empty; it is not a farbspiel save file")
    contents: Contents | None = None
    for number, (line, end, complete) in enumerate(lines, start=1):
        try:
            record = json.loads(line.decode("utf-8"))
            if not isinstance(record, dict):
                raise ValueError("not an object")
            if contents is None:
                contents = Contents(_header(record, path))
            else:
                _apply_record(contents, record)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            if isinstance(exc, RecursionError):
                exc = ValueError("nested too deeply")
            if number == len(lines) and not complete and contents is not None:
                contents.dropped_tail = True  # cut short by a crash while writing
                break
            if contents is None:
                raise JournalError(
                    f"{path} is not a farbspiel save file (first line: {exc})"
                ) from None
            raise JournalError(
                f"{path} is damaged at line {number} ({exc}); the file was left as it is"
            ) from None
        contents.valid_length = end
    assert contents is not None
    return contents


def _lines(raw: bytes) -> Iterator[tuple[bytes, int, bool]]:
    """(line, offset after it, ends with a newline) for each non-empty line."""
    start = 0
    while start < len(raw):
        nl = raw.find(b"\n", start)
        end = len(raw) if nl < 0 else nl + 1
        line = raw[start:end].strip()
        if line:
            yield line, end, nl >= 0
        start = end


def _header(record: dict[str, Any], path: Path) -> Header:
    if record.get("farbspiel") != FORMAT:
        raise ValueError("no farbspiel journal header")
    version = record.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise JournalError(
            f"{path} was saved by a different farbspiel (save format version {version}); "
            f"this one reads version {', '.join(map(str, SUPPORTED_VERSIONS))}"
        )
    game, lang = record.get("game"), record.get("lang")
    if not isinstance(game, str) or not isinstance(lang, str):
        raise ValueError("header lacks game or language")
    return Header(game, lang, Setup.from_json(record.get("setup", {})), version)


def _apply_record(contents: Contents, record: dict[str, Any]) -> None:
    if "action" in record:
        contents.actions.append(Action.from_json(record["action"]))
    elif "undo" in record:
        count = record["undo"]
        if type(count) is not int or not 1 <= count <= len(contents.actions):
            raise ValueError("undo of more than was done")
        del contents.actions[-count:]
    elif isinstance(record.get("setting"), dict):
        contents.settings.update(record["setting"])
    else:
        raise ValueError(f"unknown entry {record!r}")
