"""Saving and resuming: journal before announce, exact replay, damaged files refused."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, run_cli, write_script

from games.engine import replay
from voice.session.adapters import adapter_for
from voice.session.journal import read

PLAY = [
    "play",
    "alle-meine-farben",
    "--lang",
    "de",
    "--players",
    "Anna,Ben,Cem",
    "--first",
    "Anna",
    "--seed",
    "4",
]
# Twenty moves that colour the whole grid (plus two passes): every line is one action.
MOVES = [
    "rot",
    "grün",
    "orange",
    "ich passe",
    "lila",
    "gelb",
    "gelb",
    "blau",
    "rosa",
    "rot",
    "grün",
    "grün",
    "orange",
    "ich passe",
    "lila",
    "gelb",
    "blau",
    "blau",
    "rosa",
    "rot",
    "grün",
    "orange",
]


def state_of(save: Path):
    contents = read(save)
    adapter = adapter_for(contents.header.game)
    return replay(adapter.create(contents.header.setup), contents.actions).snapshot()


def final_events(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if '"game_over"' in line]


def test_a_game_split_in_two_ends_exactly_like_one_in_one_go(tmp_path):
    whole = run_cli(*PLAY, "--json", "--script", str(write_script(tmp_path / "all", MOVES)))
    save = tmp_path / "game.jsonl"
    first = run_cli(
        *PLAY,
        "--json",
        "--save",
        str(save),
        "--script",
        str(write_script(tmp_path / "a", MOVES[:9])),
    )
    assert first.code == 0 and not final_events(first.out)
    second = run_cli(
        "resume", str(save), "--json", "--script", str(write_script(tmp_path / "b", MOVES[9:]))
    )
    assert second.code == 0, second.err
    assert second.said[0] == "Das gespeicherte Spiel geht weiter."
    assert final_events(second.out) == final_events(whole.out) != []
    assert final_events(whole.out)[0] == {"type": "game_over", "coloured": 20, "won": True}


def test_undo_and_speech_rate_are_saved_too(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(
        *PLAY,
        "--save",
        str(save),
        "--rate",
        "150",
        "--script",
        str(write_script(tmp_path / "a", ["rot", "grün", "rückgängig", "ja", "langsamer"])),
    )
    contents = read(save)
    assert [a.args.get("colour") for a in contents.actions] == ["red"]
    assert contents.settings == {"rate": 125}
    resumed = run_cli(
        "resume", str(save), "--json", "--script", str(write_script(tmp_path / "b", ["wiederhole"]))
    )
    assert "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2." in resumed.said
    assert resumed.code == 0


def test_a_game_saved_in_a_pause_resumes_in_the_pause(tmp_path):
    """A game saved in a pause (quit, or farbspiel killed, during the break) goes on in the
    pause, as if farbspiel had never stopped: a colour said at the table before "weiter"
    is not a move; the file stays paused (the table view keeps its clocks stopped) until
    the table continues."""
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "a", ["rot", "Pause"])
    assert run_cli(*PLAY, "--save", str(save), "--script", str(script)).code == 0
    assert read(save).settings["paused"] is True
    resumed = run_cli(
        "resume", str(save), "--json", "--script", str(write_script(tmp_path / "b", ["grün"]))
    )
    assert resumed.code == 0, resumed.err
    assert "Ihr hattet Pause gemacht." in resumed.said[1]
    assert any("Wir machen gerade Pause" in line for line in resumed.said[2:])
    contents = read(save)
    assert contents.settings["paused"] is True
    assert [a.args.get("colour") for a in contents.actions] == ["red"]
    again = run_cli(
        "resume",
        str(save),
        "--json",
        "--script",
        str(write_script(tmp_path / "c", ["weiter", "grün"])),
    )
    assert again.code == 0, again.err
    contents = read(save)
    assert contents.settings["paused"] is False
    assert [a.args.get("colour") for a in contents.actions] == ["red", "green"]


def test_resume_without_a_file_takes_the_last_saved_game(tmp_path):
    save = tmp_path / "mine.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", ["rot"])))
    resumed = run_cli("resume", "--json", "--script", str(write_script(tmp_path / "b", [])))
    assert resumed.code == 0
    assert "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2." in resumed.said


def test_resume_with_nothing_saved_says_so(tmp_path):
    result = run_cli("resume", "--script", str(write_script(tmp_path / "b", [])))
    assert result.code == 1
    assert "no saved game" in result.err


CORRUPT = {
    "garbage": b"\x00\x01 not json at all\n",
    "foreign json": b'{"name": "my shopping list"}\n',
    "empty": b"",
    "future version": json.dumps(
        {"farbspiel": "journal", "version": 99, "game": "x", "lang": "de", "setup": {}}
    ).encode()
    + b"\n",
    "unknown game": json.dumps(
        {
            "farbspiel": "journal",
            "version": 1,
            "game": "chess",
            "lang": "de",
            "setup": {"players": ["A"]},
        }
    ).encode()
    + b"\n",
    # found by the hostile-input report run: the language reached a file lookup
    "unknown language": json.dumps(
        {
            "farbspiel": "journal",
            "version": 1,
            "game": "pantone",
            "lang": "en" + "[" * 300,
            "setup": {"players": ["A", "B"]},
        }
    ).encode()
    + b"\n",
}


@pytest.mark.parametrize("kind", list(CORRUPT))
def test_a_corrupt_or_foreign_file_is_refused_and_left_untouched(tmp_path, kind):
    path = tmp_path / "save.jsonl"
    path.write_bytes(CORRUPT[kind])
    before = path.stat().st_mtime_ns
    result = run_cli("resume", str(path), "--script", str(write_script(tmp_path / "s", [])))
    assert result.code in (1, 2)
    assert result.err.startswith("farbspiel: ") and "Traceback" not in result.err
    assert path.read_bytes() == CORRUPT[kind] and path.stat().st_mtime_ns == before


def test_damage_inside_the_journal_names_the_line_and_changes_nothing(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", MOVES[:5])))
    lines = save.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"action": {"name": "place", "args": {"colour": "re\n'
    damaged = b"".join(lines)
    save.write_bytes(damaged)
    result = run_cli("resume", str(save), "--script", str(write_script(tmp_path / "s", [])))
    # line 4 holds move 3 (line 1 is the header); the way on is offered, in German
    assert result.code == 1 and "bei Zug 3 beschädigt (Zeile 4)" in result.err
    assert f"farbspiel resume --repair {save}" in result.err
    assert save.read_bytes() == damaged
    assert not (tmp_path / "game.jsonl.damaged").exists()


def test_a_save_damaged_in_the_middle_goes_on_from_the_last_good_move(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", MOVES[:5])))
    lines = save.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"action": {"name": "place", "args": {"colour": "re\n'
    damaged = b"".join(lines)
    save.write_bytes(damaged)
    script = write_script(tmp_path / "s", ["wer ist dran"])
    result = run_cli("resume", "--repair", str(save), "--script", str(script), "--json")
    assert result.code == 0, result.err
    assert "bei Zug 3 beschädigt; das Spiel geht ab Zug 2 weiter" in result.err
    # moves 1 and 2 (the ball, the hat) are kept: the saw is next
    assert "Cem, Nummer 3: die Säge, Reihe 1, Spalte 3." in result.said
    assert (tmp_path / "game.jsonl.damaged").read_bytes() == damaged  # kept untouched
    assert len(save.read_bytes().splitlines()) == 3  # header and the two good moves
    again = run_cli("resume", str(save), "--script", str(script), "--json")
    assert again.code == 0 and "Cem, Nummer 3: die Säge, Reihe 1, Spalte 3." in again.said


def test_moves_that_do_not_replay_are_refused(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", ["rot"])))
    with open(save, "ab") as f:  # red twice in row 1 can never have been accepted
        f.write(b'{"action": {"name": "place", "args": {"colour": "red"}}}\n')
    damaged = save.read_bytes()
    result = run_cli("resume", str(save), "--script", str(write_script(tmp_path / "s", [])))
    assert result.code == 1 and "passen ab Zug 2 nicht zum Spiel" in result.err
    assert "unknown_action" not in result.err and "{" not in result.err  # for players
    assert save.read_bytes() == damaged
    script = write_script(tmp_path / "t", [])
    result = run_cli("resume", "--repair", str(save), "--script", str(script), "--json")
    assert result.code == 0, result.err
    assert (tmp_path / "game.jsonl.damaged").read_bytes() == damaged
    assert "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2." in result.said


def test_an_unknown_move_in_a_save_file_is_worded_for_players(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", ["rot"])))
    with open(save, "ab") as f:
        f.write(b'{"action": {"name": "show", "args": {}}}\n')
    result = run_cli("resume", str(save), "--script", str(write_script(tmp_path / "s", [])))
    assert result.code == 1
    assert "passen ab Zug 2 nicht zum Spiel" in result.err and "show" not in result.err


def test_save_naming_a_folder_says_so(tmp_path):
    script = write_script(tmp_path / "a", [])
    result = run_cli(*PLAY, "--save", str(tmp_path), "--script", str(script))
    assert result.code == 1
    assert f"--save {tmp_path} ist ein Ordner; nennt eine Datei darin" in result.err


def test_a_last_line_cut_short_by_a_crash_is_dropped_on_resume(tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", MOVES[:3])))
    with open(save, "ab") as f:
        f.write(b'{"action": {"name": "pla')
    result = run_cli(
        "resume", str(save), "--json", "--script", str(write_script(tmp_path / "b", MOVES[3:]))
    )
    assert result.code == 0, result.err
    assert "Der letzte Zug im Spielstand war unvollständig und fehlt jetzt." in result.said
    assert final_events(result.out)[0]["won"] is True
    assert read(save).dropped_tail is False  # the file is whole again


def test_save_refuses_to_overwrite_an_existing_file(tmp_path):
    save = tmp_path / "taken.jsonl"
    save.write_text("my notes\n")
    result = run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", [])))
    assert result.code == 1 and "gibt es schon" in result.err
    assert save.read_text() == "my notes\n"


def test_an_impossible_save_place_is_a_clear_message(tmp_path):
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    result = run_cli(
        *PLAY,
        "--save",
        str(not_a_folder / "g.jsonl"),
        "--script",
        str(write_script(tmp_path / "a", [])),
    )
    assert result.code == 1 and "lässt sich nicht anlegen" in result.err


def _play_and_kill(save: Path, kill_after: float, lines: list[str]) -> None:
    """Type moves into a real farbspiel process and SIGKILL it at an arbitrary moment."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voice",
            *PLAY,
            "--input",
            "keyboard",
            "--voice",
            "none",
            "--save",
            str(save),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdin is not None
    start = time.monotonic()
    for line in lines:
        proc.stdin.write((line + "\n").encode())
        proc.stdin.flush()
        time.sleep(0.08)  # a brisk table: about twelve moves a second
        if time.monotonic() - start > kill_after:
            break
    time.sleep(max(0.0, kill_after - (time.monotonic() - start)))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)


def test_killing_the_process_anywhere_loses_nothing_announced(tmp_path):
    """SIGKILL at random moments; resume each time; the end equals an unbroken game."""
    whole = run_cli(*PLAY, "--json", "--script", str(write_script(tmp_path / "all", MOVES)))
    expected = final_events(whole.out)
    rng = random.Random(2024)
    for attempt in range(6):
        save = tmp_path / f"killed-{attempt}.jsonl"
        _play_and_kill(save, kill_after=rng.uniform(0.4, 1.9), lines=MOVES)
        if not save.exists():
            continue  # killed before the game even started: nothing to lose
        done = len(read(save).actions)
        print(f"attempt {attempt}: killed after {done} journalled moves")
        rest = write_script(tmp_path / f"rest-{attempt}", MOVES[done:])
        resumed = run_cli("resume", str(save), "--json", "--script", str(rest))
        assert resumed.code == 0, resumed.err
        assert final_events(resumed.out) == expected
        assert state_of(save) == state_of_uninterrupted(tmp_path)


def state_of_uninterrupted(tmp_path: Path):
    save = tmp_path / "uninterrupted.jsonl"
    if not save.exists():
        run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "u", MOVES)))
    return state_of(save)
