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
    """An open journal file, appended to line by line."""

    def __init__(self, path: Path, handle: Any) -> None:
        self.path = path
        self._handle = handle

    @staticmethod
    def create(path: Path, header: Header) -> Journal:
        """Start a new journal; refuses to overwrite an existing file."""
        path = Path(path)
        if path.exists():
            raise JournalError(
                f"{path} already exists. Continue it with `farbspiel resume {path}` "
                "or choose another file with --save."
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(path, "x", encoding="utf-8")  # noqa: SIM115 - kept open
        except OSError as exc:
            raise JournalError(f"cannot create save file {path}: {exc.strerror}") from exc
        journal = Journal(path, handle)
        journal._write(header.to_json())
        return journal

    @staticmethod
    def reopen(path: Path, truncate_at: int | None = None) -> Journal:
        """Open an existing journal for appending, first cutting it to ``truncate_at``
        bytes if given (to drop a last line a crash left unfinished)."""
        path = Path(path)
        try:
            handle = open(path, "r+", encoding="utf-8")  # noqa: SIM115 - kept open
            if truncate_at is not None:
                handle.truncate(truncate_at)
            handle.seek(0, os.SEEK_END)
        except OSError as exc:
            raise JournalError(f"cannot write to save file {path}: {exc.strerror}") from exc
        return Journal(path, handle)

    def append_action(self, action: Action) -> None:
        self._write({"action": action.to_json()})

    def append_undo(self, count: int = 1) -> None:
        """Record that the last ``count`` actions were taken back (one line: atomic)."""
        self._write({"undo": count})

    def append_setting(self, name: str, value: Any) -> None:
        self._write({"setting": {name: value}})

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            self._handle.write(line)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as exc:
            raise JournalError(f"cannot write to save file {self.path}: {exc.strerror}") from exc

    def close(self) -> None:
        try:
            self._handle.close()
        except OSError:
            pass


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
        except (ValueError, UnicodeDecodeError) as exc:
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
