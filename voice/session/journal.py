"""The save file: an append-only journal of everything the table decided.

Format (JSON lines, UTF-8)::

    {"farbspiel": "journal", "version": 3, "game": "...", "lang": "de", "setup": {...}}
    {"action": {"name": "place", "args": {"colour": "purple"}}}
    {"undo": 1}
    {"setting": {"rate": 180}}
    {"setting": {"paused": true, "timers_ran": {"turn:3": 12.5}}}

A pause record says how long each running timer had run, so that a game saved in a
pause resumes in it with its clocks where they stood (older files without
``timers_ran`` resume them afresh).

Every accepted action is appended (and fsync'ed) before it is announced, so killing the
process loses at most the action being spoken. Replaying the lines rebuilds the game
exactly (history is the truth; undo is pop). A file that is not a journal, or is
damaged before its last line, is refused with a clear message and never modified; a
last line cut short by a crash is dropped on resume.

Versions: the header names the save format. A file of an older format is upgraded in
memory by the functions in :data:`MIGRATIONS`, one version step at a time (the file is
only rewritten when the game goes on, keeping the old file as a copy); a newer format,
or an old one no upgrade reaches, is refused with a message that says which is which.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import reprlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engine import Action, Game, GameError, SaveUpgrade, Setup, replay
from games.errors import FarbspielError
from voice.output.messages import console_text
from voice.session.adapters import ADAPTERS

FORMAT = "journal"
VERSION = 3
"""The save format this farbspiel writes.

Format 2 journals decisions, not what they were decided from: a Pantone guess carries the
card it was judged to name (``{"text": "mickey", "card": 2}``, ``"card": null`` for a name
that is no card of the deck), so a better name matcher never changes a saved game.

Format 3 keeps timers one way in every game: a timer action names the clock it ends by
the game's state (Pantone: ``{"clock": "guess", "turn": "1.0", "round": 0, "side":
"Ben"}``) instead of a running number (``{"id": "guess-5"}``)."""

Record = dict[str, Any]
Migration = Callable[[Record, list[Record]], tuple[Record, list[Record]]]


def _replay(
    engine: type[Game], header: Record, records: list[Record], change: SaveUpgrade
) -> list[Record]:
    """Walk a journal through its game: ``change(game, action)`` gives the action to write
    and the one to apply now (they differ where an old form is kept on disk but the
    engine of today needs the new one)."""
    setup = Setup.from_json(header.get("setup", {}))
    actions: list[Action] = []
    game = replay(engine(setup), [])
    upgraded: list[Record] = []
    try:
        for record in records:
            if isinstance(record.get("action"), dict):
                written, applied = change(game, Action.from_json(record["action"]))
                if written.to_json() != record["action"]:
                    record = {**record, "action": written.to_json()}
                game.apply(applied)
                actions.append(applied)
            elif type(record.get("undo")) is int and 1 <= record["undo"] <= len(actions):
                del actions[-record["undo"] :]
                game = replay(engine(setup), actions)
            upgraded.append(record)
    except GameError as exc:
        raise ValueError(f"a move cannot be replayed ({exc})") from None
    return upgraded


def _moves_upgrade(version: int) -> Migration:
    """Format ``version`` → ``version + 1``: each game's moves as its engine says
    (:attr:`games.engine.Game.save_upgrades`); a game without an upgrade keeps them."""

    def upgrade(header: Record, records: list[Record]) -> tuple[Record, list[Record]]:
        adapter = ADAPTERS.get(str(header.get("game")))
        change = adapter.engine.save_upgrades.get(version) if adapter is not None else None
        if adapter is None or change is None:
            return header, records
        return header, _replay(adapter.engine, header, records, change)

    return upgrade


MIGRATIONS: dict[int, Migration] = {v: _moves_upgrade(v) for v in range(1, VERSION)}
"""Upgrades of older save formats: ``MIGRATIONS[v](header, records)`` turns a version-``v``
journal (header line and the other lines, as plain JSON data) into version ``v + 1``.

When the format changes: raise :data:`VERSION`, add the step from the previous version
here, and test it with a real file of the old format (``tests/data/saves/format-N-*.jsonl``).
"""
_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlevel = 60, 60, 2


class JournalError(FarbspielError):
    """A save file that cannot be used; the message says why and what to do."""

    default_key = "save_file"


@dataclass
class Header:
    """The first line of a journal: which game, how it was set up."""

    game: str
    lang: str
    setup: Setup
    version: int = field(default_factory=lambda: VERSION)

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

    upgraded_from: int | None = None
    """The file's own save format if it was older and upgraded while reading."""

    damaged_at: int | None = None
    """Read with ``keep_good``: the move (1, 2, ...) at which the file is damaged; the
    actions are then the good ones before it."""


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
        if path.is_dir():
            raise JournalError(console_text("save_target_is_folder", path=path))
        if path.exists() and not _empty_file(path):
            raise JournalError(console_text("save_exists", path=path))
        exclusive = 0 if path.exists() else os.O_EXCL
        try:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError:  # a file stands where a folder of the path should be
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | exclusive, 0o644)
        except OSError as exc:
            raise JournalError(console_text("save_cannot_create", path=path, reason=exc)) from exc
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
            raise JournalError(console_text("save_cannot_write", path=path, reason=exc)) from exc
        return Journal(path, fd)

    def append_action(self, action: Action) -> None:
        self._write({"action": action.to_json()})

    def append_undo(self, count: int = 1) -> None:
        """Record that the last ``count`` actions were taken back (one line: atomic)."""
        self._write({"undo": count})

    def append_setting(self, name: str, value: Any) -> None:
        self._write({"setting": {name: value}})

    def append_settings(self, values: Mapping[str, Any]) -> None:
        """Several settings that change together, in one line (atomic)."""
        self._write({"setting": dict(values)})

    def _write(self, record: dict[str, Any]) -> None:
        if self._fd is None:
            raise JournalError(console_text("save_closed", path=self.path))
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
            raise JournalError(
                console_text("save_cannot_write", path=self.path, reason=exc)
            ) from exc
        if there is None or (there.st_dev, there.st_ino) != (here.st_dev, here.st_ino):
            raise JournalError(console_text("save_gone", path=self.path))

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)


def rewrite(
    path: Path, header: Header, actions: Sequence[Action], settings: Mapping[str, Any]
) -> Journal:
    """Write a whole journal to ``path`` anew and return it open for appending.

    It is written to a temporary file first, which then replaces ``path`` in one step: the
    old file stays whole until the new one is. A failure removes the temporary file (a
    full disk needs the room) and raises :class:`JournalError`.
    """
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    fresh = None
    try:
        tmp.unlink(missing_ok=True)
        fresh = Journal.create(tmp, header)
        for action in actions:
            fresh.append_action(action)
        for name, value in settings.items():
            fresh.append_setting(name, value)
        fresh.close()
        tmp.replace(path)
    except (OSError, JournalError) as exc:
        if fresh is not None:
            fresh.close()
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if isinstance(exc, JournalError):
            raise
        reason = exc
        raise JournalError(console_text("save_cannot_replace", path=path, reason=reason)) from exc
    return Journal.reopen(path)


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


def read(path: Path, keep_good: bool = False) -> Contents:
    """Read and check a journal without changing it (older formats are upgraded in
    memory only).

    A line damaged in the middle is refused with the move it holds and how to go on from
    the move before (the error's ``damage`` is ``(line, move)``); with ``keep_good`` the
    good lines before it are read instead and :attr:`Contents.damaged_at` says where.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise JournalError(console_text("save_not_found", path=path)) from None
    except IsADirectoryError:
        raise JournalError(console_text("save_is_folder", path=path)) from None
    except OSError as exc:
        reason = exc
        raise JournalError(console_text("save_unreadable", path=path, reason=reason)) from exc
    lines = list(_lines(raw))
    if not lines:
        raise JournalError(console_text("save_empty", path=path))
    records: list[tuple[int, Record]] = []  # (line number, record)
    valid_length, dropped_tail = 0, False
    damaged: int | None = None  # line number of the first damaged line (keep_good)
    for number, (line, end, complete) in enumerate(lines, start=1):
        try:
            record = json.loads(line.decode("utf-8"))
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except (ValueError, UnicodeDecodeError, RecursionError):
            if number == len(lines) and not complete and records:
                dropped_tail = True  # cut short by a crash while writing
                break
            if not records:
                raise JournalError(console_text("save_not_ours", path=path)) from None
            if not keep_good:
                raise _damaged(path, number, records) from None
            damaged = number
            break
        records.append((number, record))
        valid_length = end
    (_, first), rest = records[0], records[1:]
    version = _version(first, path)
    body = [record for _, record in rest]
    if version != VERSION:
        first, body = _upgrade(version, first, body, path)
        rest = list(enumerate(body, start=2))
    try:
        contents = Contents(_header(first), dropped_tail=dropped_tail, valid_length=valid_length)
    except ValueError:
        raise JournalError(console_text("save_not_ours", path=path)) from None
    if version != VERSION:
        contents.upgraded_from = version
    for number, record in rest:
        try:
            _apply_record(contents, record)
        except ValueError:
            if not keep_good:
                raise _damaged(path, number, records, contents.header) from None
            damaged = number
            break
    if damaged is not None:
        contents.damaged_at = _move_at(records, damaged)
    return contents


def _move_at(records: Sequence[tuple[int, Record]], line: int) -> int:
    """The move (1, 2, ...) that line ``line`` holds: one more than the actions before."""
    return 1 + sum(1 for n, r in records if n < line and n > 1 and "action" in r)


def damaged_copy(path: Path) -> Path:
    """Where a damaged save file is kept when the game goes on from its good part."""
    return path.with_name(path.name + ".damaged")


def _damaged(
    path: Path, line: int, records: Sequence[tuple[int, Record]], header: Header | None = None
) -> JournalError:
    move = _move_at(records, line)
    lang = header.lang if header is not None else None
    if lang is None and records and isinstance(records[0][1].get("lang"), str):
        lang = records[0][1]["lang"] if records[0][1]["lang"] in ("de", "en") else None
    error = JournalError(
        console_text(
            "save_damaged",
            lang,
            path=path,
            line=line,
            move=move,
            good=move - 1,
            copy=damaged_copy(path),
        )
    )
    error.damage = (line, move)  # type: ignore[attr-defined]  # for the offer to go on
    error.lang = lang  # type: ignore[attr-defined]  # the offer is asked in the save's language
    return error


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


def _version(record: Record, path: Path) -> int:
    if record.get("farbspiel") != FORMAT:
        raise JournalError(console_text("save_not_ours", path=path))
    version = record.get("version")
    if type(version) is not int or version < 0:
        raise JournalError(console_text("save_not_ours", path=path))
    if version > VERSION:
        raise JournalError(console_text("save_newer", path=path, version=version, ours=VERSION))
    return version


def _upgrade(
    version: int, header: Record, records: list[Record], path: Path
) -> tuple[Record, list[Record]]:
    """Bring a journal of an older format up to :data:`VERSION`, step by step."""
    oldest = VERSION
    while oldest - 1 in MIGRATIONS:
        oldest -= 1
    if version < oldest:
        raise JournalError(
            console_text("save_too_old", path=path, version=version, oldest=oldest, ours=VERSION)
        )
    for step in range(version, VERSION):
        try:
            header, records = MIGRATIONS[step](dict(header), [dict(r) for r in records])
        except (KeyError, TypeError, ValueError):
            lang = header.get("lang") if header.get("lang") in ("de", "en") else None
            raise JournalError(
                console_text("save_cannot_upgrade", lang, path=path, version=version)
            ) from None
        header = {**header, "version": step + 1}
    return header, records


def _header(record: Record) -> Header:
    game, lang = record.get("game"), record.get("lang")
    if not isinstance(game, str) or not isinstance(lang, str):
        raise ValueError("header lacks game or language")
    from voice.understanding.grammar import (
        LANGUAGES,  # (the grammar module is heavy; journals are not)
    )

    if lang not in LANGUAGES:
        raise ValueError(f"the language {reprlib.repr(lang)} is not one farbspiel speaks")
    setup = record.get("setup", {})
    if not isinstance(setup, dict):
        raise ValueError("malformed setup")
    return Header(game, lang, Setup.from_json(setup), VERSION)


def _apply_record(contents: Contents, record: Record) -> None:
    if "action" in record:
        action = record["action"]
        if not isinstance(action, dict):
            raise ValueError("an action that is not an object")
        contents.actions.append(Action.from_json(action))
    elif "undo" in record:
        count = record["undo"]
        if type(count) is not int or not 1 <= count <= len(contents.actions):
            raise ValueError("undo of more than was done")
        del contents.actions[-count:]
    elif isinstance(record.get("setting"), dict):
        contents.settings.update(record["setting"])
    else:
        raise ValueError(f"unknown entry {_SHORT.repr(record)}")
