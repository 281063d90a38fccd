"""Saving under real faults, in a real ``farbspiel`` process: a full disk, a save folder
that vanishes or cannot be written, a read-only file system. The table hears about it
once, keeps playing, and once saving works again the file holds everything.

How the faults are made (no fakes; the kernel refuses the writes):

* full disk, everywhere: ``RLIMIT_FSIZE`` set on the running process with ``prlimit``
  (writes that would grow a file fail with EFBIG; Python ignores SIGXFSZ), raised again
  to give "room" back;
* vanished folder: the folder is deleted while the game runs;
* unwritable folder, also for root: the folder is deleted and a plain file put in its
  place (creating anything inside fails with ENOTDIR/EEXIST);
* read-only folder by permissions: ``chmod 555`` (skipped for root, who ignores it; run
  as root without CAP_DAC_OVERRIDE to see it, e.g. with ``setpriv``);
* real ENOSPC and EROFS: a 256 KB tmpfs filled up; its save folder bind-mounted
  read-only while the save file vanishes (only where the tests may mount, e.g. as root
  in a container; skipped elsewhere).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, run_cli, write_script

from games.engine import replay
from voice.bench.crash import GOLDEN, read_scenario
from voice.session.adapters import adapter_for
from voice.session.journal import read

PLAY = ["play", "alle-meine-farben", "--lang", "de", "--players", "Anna,Ben,Cem"]
PLAY += ["--first", "Anna", "--seed", "4"]
MOVES = ["rot", "grün", "orange", "ich passe", "lila", "gelb", "gelb", "blau", "rosa", "rot"]
MOVES += ["grün", "grün", "orange", "ich passe", "lila", "gelb", "blau", "blau", "rosa", "rot"]
MOVES += ["grün", "orange"]
SAVE_FAILED = "Achtung: Ich kann gerade nicht speichern. Wir spielen trotzdem weiter."
SAVE_RECOVERED = "Das Speichern klappt wieder; alles ist gesichert."
MARK = "xq zv {}"
"""A line nobody understands: when its echo comes back, the line before is done."""


class Table:
    """A real farbspiel process, typed into line by line (``--input keyboard --json``)."""

    def __init__(self, argv: list[str], tmp: Path) -> None:
        self.err_path = tmp / "stderr.txt"
        self._err = open(self.err_path, "wb")  # noqa: SIM115 - closed in finish()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "voice", *argv, "--input", "keyboard", "--json"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self._events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self._marks = 0
        self.ended = False

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with contextlib.suppress(ValueError):
                self._events.put(json.loads(line))
        self._events.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._err.write(line)
            self._err.flush()

    def _next(self) -> dict[str, Any] | None:
        return self._events.get(timeout=60)

    def say(self, line: str) -> list[dict[str, Any]]:
        """Type ``line``; the events it caused (and any before it, and all the rest if
        the game ended with it)."""
        self._marks += 1
        mark = MARK.format(self._marks)
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{line}\n{mark}\n".encode())
        self.proc.stdin.flush()
        events = []
        while (event := self._next()) is not None:
            if event.get("text") == mark and event["type"] in ("not_understood", "ignored"):
                if event["type"] == "not_understood":
                    self._next()  # the spoken "I did not understand"
                return events
            events.append(event)
        self.ended = True
        return events

    def finish(self) -> tuple[int, list[dict[str, Any]]]:
        """End of input; the exit code and the last events."""
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        events = []
        while not self.ended and (event := self._next()) is not None:
            events.append(event)
        self._err.close()
        return code, events

    def stderr(self) -> str:
        return self.err_path.read_text(encoding="utf-8", errors="replace")

    def limit_file_size(self, size: int | None) -> None:
        """Make every file this process writes stop at ``size`` bytes (``None``: no limit)."""
        hard = resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE)[1]
        soft = hard if size is None else size
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (soft, hard))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


@pytest.fixture
def table(tmp_path):
    tables: list[Table] = []

    def start(save: Path, *extra: str) -> Table:
        tables.append(Table([*PLAY, "--save", str(save), *extra], tmp_path))
        return tables[-1]

    yield start
    for t in tables:
        t.kill()


def said(events: list[dict[str, Any]]) -> list[str]:
    return [e["text"] for e in events if e["type"] == "say"]


def placed(events: list[dict[str, Any]]) -> list[int]:
    return [e["number"] for e in events if e["type"] == "placed"]


def uninterrupted_state(moves: list[str]):
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "whole.jsonl"
        script = write_script(Path(tmp) / "s", moves)
        assert run_cli(*PLAY, "--save", str(save), "--script", str(script)).code == 0
        return state_of(save), [a.to_json() for a in read(save).actions]


def state_of(save: Path):
    contents = read(save)
    game = adapter_for(contents.header.game).create(contents.header.setup)
    return replay(game, contents.actions).snapshot()


def play(t: Table, moves: list[str]) -> list[dict[str, Any]]:
    events = []
    for move in moves:
        events += t.say(move)
    return events


def assert_holds(save: Path, moves: list[str]) -> None:
    """The save file holds exactly the game ``moves`` make."""
    state, actions = uninterrupted_state(moves)
    assert [a.to_json() for a in read(save).actions] == actions
    assert state_of(save) == state


# --- a full disk -------------------------------------------------------------------------
def test_a_full_disk_is_said_once_play_goes_on_and_everything_is_saved_later(table, tmp_path):
    save = tmp_path / "saves" / "game.jsonl"
    t = table(save)
    play(t, MOVES[:3])
    assert_holds(save, MOVES[:3])

    t.limit_file_size(save.stat().st_size)  # the disk is full
    events = t.say(MOVES[3])
    assert SAVE_FAILED in said(events)
    assert any(e["type"] == "save_failed" for e in events)
    assert any(e["type"] == "passed" for e in events)  # the move counts all the same
    events = play(t, MOVES[4:7])
    assert placed(events) == [4, 5, 6] and SAVE_FAILED not in said(events)  # said once
    assert len(read(save).actions) <= 4  # the file could not keep up ...

    t.limit_file_size(None)  # room again
    events = t.say(MOVES[7])
    assert SAVE_RECOVERED in said(events)
    assert_holds(save, MOVES[:8])  # ... now it holds everything
    play(t, MOVES[8:])
    code, _ = t.finish()
    assert code == 0
    assert_holds(save, MOVES)


# --- a vanished or unwritable save folder -------------------------------------------------
def test_a_vanished_save_folder_is_written_again_with_the_next_move(table, tmp_path):
    folder = tmp_path / "saves"
    save = folder / "game.jsonl"
    t = table(save)
    play(t, MOVES[:5])
    shutil.rmtree(folder)  # someone tidies up while the game runs
    events = t.say(MOVES[5])
    assert placed(events) == [5]
    assert SAVE_FAILED not in said(events)  # nothing to worry the table with ...
    assert_holds(save, MOVES[:6])  # ... the whole game is back on disk at once
    play(t, MOVES[6:])
    assert t.finish()[0] == 0
    assert_holds(save, MOVES)


def test_a_save_folder_that_cannot_be_written_is_retried_until_it_can(table, tmp_path):
    folder = tmp_path / "saves"
    save = folder / "game.jsonl"
    t = table(save)
    play(t, MOVES[:5])
    shutil.rmtree(folder)
    folder.write_text("a file where the folder was: nothing can be created in it\n")
    events = t.say(MOVES[5])
    assert SAVE_FAILED in said(events) and placed(events) == [5]
    events = play(t, MOVES[6:9])
    assert SAVE_FAILED not in said(events) and placed(events) == [6, 7, 8]
    folder.unlink()  # the obstacle is gone
    events = t.say(MOVES[9])
    assert SAVE_RECOVERED in said(events)
    assert_holds(save, MOVES[:10])
    play(t, MOVES[10:])
    assert t.finish()[0] == 0
    assert_holds(save, MOVES)


def _permissions_bind(tmp_path: Path) -> bool:
    """Whether this user is kept out of a read-only folder (root usually is not)."""
    probe = tmp_path / "probe"
    probe.mkdir()
    probe.chmod(0o555)
    try:
        (probe / "x").touch()
    except PermissionError:
        return True
    finally:
        probe.chmod(0o755)
    return False


def test_a_read_only_save_folder_delays_saving_until_it_is_writable(table, tmp_path):
    if not _permissions_bind(tmp_path):
        pytest.skip("this user writes into read-only folders anyway (root)")
    folder = tmp_path / "saves"
    save = folder / "game.jsonl"
    t = table(save)
    play(t, MOVES[:3])
    t.limit_file_size(save.stat().st_size)
    assert SAVE_FAILED in said(t.say(MOVES[3]))
    folder.chmod(0o555)  # the file can grow again, but it must be written anew: refused
    try:
        t.limit_file_size(None)
        events = play(t, MOVES[4:6])
        assert SAVE_RECOVERED not in said(events) and SAVE_FAILED not in said(events)
    finally:
        folder.chmod(0o755)
    assert SAVE_RECOVERED in said(t.say(MOVES[6]))
    assert_holds(save, MOVES[:7])


# --- saving still broken when the game ends or the table quits -------------------------------
def test_a_game_that_ends_while_saving_fails_says_what_is_missing(table, tmp_path):
    save = tmp_path / "game.jsonl"
    t = table(save)
    play(t, MOVES[:-2])
    t.limit_file_size(save.stat().st_size)
    events = play(t, MOVES[-2:])
    assert any(e["type"] == "game_over" for e in events)
    code, _ = t.finish()
    assert code == 1
    assert "die letzten Züge ließen sich nicht speichern" in t.stderr()
    assert "Traceback" not in t.stderr() and "internal error" not in t.stderr()
    assert_holds(save, MOVES[:-2])  # what was saved is whole


def test_quitting_while_saving_fails_does_not_claim_the_game_is_saved(table, tmp_path):
    save = tmp_path / "game.jsonl"
    t = table(save)
    play(t, MOVES[:3])
    t.limit_file_size(save.stat().st_size)
    t.say(MOVES[3])
    events = t.say("beenden")
    assert not any("gespeichert" in text and "bleibt" in text for text in said(events))
    assert any("nicht gespeichert" in text for text in said(events))
    events = t.say("ja")
    assert {"type": "quit", "saved": False} in events
    code, _ = t.finish()
    assert code == 1 and "die letzten Züge ließen sich nicht speichern" in t.stderr()
    assert_holds(save, MOVES[:3])


def test_quitting_saves_first_when_there_is_room_again(table, tmp_path):
    save = tmp_path / "game.jsonl"
    t = table(save)
    play(t, MOVES[:3])
    t.limit_file_size(save.stat().st_size)
    t.say(MOVES[3])
    t.limit_file_size(None)
    t.say("beenden")
    events = t.say("ja")
    assert {"type": "quit", "saved": True} in events
    assert t.finish()[0] == 0
    assert_holds(save, MOVES[:4])


# --- a real full disk and a real read-only file system ----------------------------------------
@pytest.fixture
def tiny_fs(tmp_path):
    """A 256 KB tmpfs, if this machine lets the tests mount one (root in a container
    usually may; elsewhere the test is skipped and the RLIMIT tests above stand in)."""
    where = tmp_path / "fs"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(folder: Path) -> Path:
    """Fill the file system up to the last byte with a filler file."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = b"x" * 4096
        with contextlib.suppress(OSError):
            while True:
                f.write(block)
        with contextlib.suppress(OSError):
            while True:
                f.write(b"x")
    return filler


def test_a_real_full_disk_and_a_read_only_file_system(tiny_fs, tmp_path):
    scenario = read_scenario(GOLDEN / "farben" / "three-players-en.script", "keyboard")
    lines = list(scenario.lines)
    save = tiny_fs / "saves" / "game.jsonl"

    def expected(count: int):
        script = write_script(tmp_path / f"part-{count}", lines[:count])
        part = tmp_path / f"part-{count}.jsonl"
        assert run_cli(*scenario.argv, "--save", str(part), "--script", str(script)).code == 0
        return [a.to_json() for a in read(part).actions], state_of(part)

    def holds(count: int) -> None:
        actions, state = expected(count)
        assert [a.to_json() for a in read(save).actions] == actions
        assert state_of(save) == state

    t = Table([*scenario.argv, "--save", str(save)], tmp_path)
    said_so_far = 0

    def say_until(kind: str) -> dict[str, Any]:
        """Go on with the game until an event of ``kind``; it (with the line count)."""
        nonlocal said_so_far
        while said_so_far < len(lines):
            events = t.say(lines[said_so_far])
            said_so_far += 1
            for event in events:
                if event["type"] == kind:
                    return event
            assert not any(e["type"] in ("save_failed", "save_recovered") for e in events)
        raise AssertionError(f"the game ended without {kind}")

    try:
        for _ in range(10):
            t.say(lines[said_so_far])
            said_so_far += 1
        filler = _fill(tiny_fs)
        failed = say_until("save_failed")  # appends fill the file's last page first
        assert "the disk is full" in failed["reason"]  # (errno ENOSPC, in our words)
        for _ in range(3):  # the game goes on, without a second alarm
            t.say(lines[said_so_far])
            said_so_far += 1
        filler.unlink()
        say_until("save_recovered")
        holds(said_so_far)

        # The save file vanishes while its folder is read-only: writing it anew fails
        # with EROFS until the folder is writable again. (A bind mount: a file system
        # with files open for writing cannot be remounted read-only as a whole.)
        folder = save.parent
        elsewhere = tmp_path / "same-fs-writable"
        elsewhere.mkdir()
        subprocess.run(["mount", "--bind", str(tiny_fs), str(elsewhere)], check=True)
        try:
            subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
            try:
                subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
                (elsewhere / "saves" / save.name).unlink()
                failed = say_until("save_failed")
                assert "the disk is read-only" in failed["reason"]  # EROFS
                for _ in range(3):
                    t.say(lines[said_so_far])
                    said_so_far += 1
                assert not save.exists()
            finally:
                subprocess.run(["umount", str(folder)], check=True)
        finally:
            subprocess.run(["umount", str(elsewhere)], check=True)
        say_until("save_recovered")
        holds(said_so_far)
        for line in lines[said_so_far:]:
            t.say(line)
        assert t.finish()[0] == 0
        holds(len(lines))
    finally:
        t.kill()


def test_output_to_a_full_disk_stops_cleanly_with_the_game_saved(tmp_path):
    """``--json > file`` on a disk that fills up: the table's output fails, not the save."""
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "moves.script", MOVES)
    out_file = tmp_path / "events.jsonl"

    def small_files() -> None:  # output grows ~300 bytes a move, the save file ~60
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, resource.RLIM_INFINITY))

    with open(out_file, "wb") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "voice", *PLAY, "--json", "--script", str(script)]
            + ["--save", str(save)],
            stdout=out,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            preexec_fn=small_files,
            timeout=120,
        )
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert "angehalten: Ausgabe oder Eingabe des Spiels geht nicht mehr" in err and str(save) in err
    assert "internal error" not in err and "Traceback" not in err
    done = len(read(save).actions)
    assert 0 < done < len(MOVES)
    assert_holds(save, MOVES[:done])  # everything journalled is whole; resume goes on
    rest = write_script(tmp_path / "rest.script", MOVES[done:])
    assert run_cli("resume", str(save), "--script", str(rest)).code == 0
    assert_holds(save, MOVES)


# --- creating the save file ------------------------------------------------------------------
def test_an_empty_file_left_by_a_process_killed_while_creating_it_is_taken(tmp_path):
    save = tmp_path / "game.jsonl"
    save.write_bytes(b"")  # killed between creating the file and writing its first line
    script = write_script(tmp_path / "s", MOVES[:2])
    assert run_cli(*PLAY, "--save", str(save), "--script", str(script)).code == 0
    assert_holds(save, MOVES[:2])


def test_a_save_file_whose_first_line_cannot_be_written_is_not_left_behind(tmp_path):
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "s", MOVES[:2])
    proc = subprocess.run(
        [sys.executable, "-m", "voice", *PLAY, "--save", str(save), "--script", str(script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY)),
        timeout=120,
    )
    assert proc.returncode == 1 and "lässt sich nicht schreiben" in proc.stderr
    assert not save.exists()  # an empty file would block --save and not resume
