"""The save format is versioned: a newer format is refused clearly, an older one is
upgraded (step by step through ``voice.journal.MIGRATIONS``) or refused clearly, and a
file is never changed by a refusal.

Honest note: format 1 is the first and only format farbspiel has written, so the real
table of upgrades is empty. The upgrade path is tested with a *made-up* format 0 (setup
fields flat in the header, moves stored as ``{"move": ...}``) and an upgrade registered
only for the test; it exercises the mechanism end to end (read, upgrade, resume, rewrite
in format 1, copy of the old file kept).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli, write_script

from voice import journal
from voice.journal import read

PLAY = ["play", "alle-meine-farben", "--lang", "de", "--players", "Anna,Ben,Cem"]
PLAY += ["--first", "Anna", "--seed", "4"]
MOVES = ["rot", "grün", "orange", "ich passe", "lila", "gelb", "gelb", "blau", "rosa", "rot"]
MOVES += ["grün", "grün", "orange", "ich passe", "lila", "gelb", "blau", "blau", "rosa", "rot"]
MOVES += ["grün", "orange"]


def saved_game(tmp_path: Path, moves: list[str]) -> Path:
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "first.script", moves)
    assert run_cli(*PLAY, "--save", str(save), "--script", str(script)).code == 0
    return save


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def resume(path: Path, moves: list[str], tmp_path: Path):
    script = write_script(tmp_path / "rest.script", moves)
    return run_cli("resume", str(path), "--json", "--script", str(script))


def test_the_current_format_is_written_and_read(tmp_path):
    save = saved_game(tmp_path, MOVES[:3])
    assert lines(save)[0]["version"] == journal.VERSION == 1
    contents = read(save)
    assert contents.upgraded_from is None and len(contents.actions) == 3


def test_a_newer_format_is_refused_with_what_to_do_and_left_alone(tmp_path):
    save = saved_game(tmp_path, MOVES[:3])
    records = lines(save)
    records[0]["version"] = journal.VERSION + 1
    records.append({"something": "only a newer farbspiel knows"})
    save.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    before = save.read_bytes()
    result = resume(save, MOVES[3:], tmp_path)
    assert result.code == 1
    assert "was saved by a newer farbspiel (save format 2; this one reads formats up to 1)" in (
        result.err
    )
    assert "Update farbspiel" in result.err
    assert save.read_bytes() == before


@pytest.mark.parametrize("version", ["1", True, None, 1.5, -1, [1]])
def test_a_version_that_is_no_number_is_not_a_save_file(tmp_path, version):
    save = saved_game(tmp_path, MOVES[:1])
    records = lines(save)
    records[0]["version"] = version
    save.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    before = save.read_bytes()
    result = resume(save, [], tmp_path)
    assert result.code == 1 and "is not a farbspiel save file" in result.err
    assert save.read_bytes() == before


# --- the upgrade path, with a made-up format 0 ---------------------------------------------------
def to_format_0(path: Path) -> bytes:
    """A real format-1 journal rewritten the way the made-up format 0 stored it."""
    header, *rest = lines(path)
    setup = header.pop("setup")
    old = [{**header, "version": 0, **setup}]
    for record in rest:
        old.append({"move": record["action"]} if "action" in record else record)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in old).encode("utf-8")


def upgrade_0_to_1(header: dict, records: list[dict]) -> tuple[dict, list[dict]]:
    setup = {key: header.pop(key) for key in ("players", "seed", "first", "options")}
    return {**header, "setup": setup}, [
        {"action": r["move"]} if "move" in r else r for r in records
    ]


def test_an_older_format_without_an_upgrade_is_refused_clearly(tmp_path):
    save = saved_game(tmp_path, MOVES[:5])
    save.write_bytes(to_format_0(save))
    before = save.read_bytes()
    result = resume(save, MOVES[5:], tmp_path)
    assert result.code == 1
    assert "uses save format 0, which this farbspiel can no longer read" in result.err
    assert "(it reads formats 1 to 1)" in result.err
    assert save.read_bytes() == before


def test_an_older_format_is_upgraded_and_the_game_goes_on(tmp_path, monkeypatch):
    monkeypatch.setitem(journal.MIGRATIONS, 0, upgrade_0_to_1)
    (tmp_path / "whole").mkdir()
    whole = saved_game(tmp_path / "whole", MOVES)
    save = saved_game(tmp_path, MOVES[:9])
    old = to_format_0(save)
    save.write_bytes(old)

    contents = read(save)  # reading upgrades in memory only
    assert contents.upgraded_from == 0 and len(contents.actions) == 9
    assert save.read_bytes() == old

    result = resume(save, MOVES[9:], tmp_path)
    assert result.code == 0, result.err
    assert "war im Format 0 gespeichert; jetzt hat die Datei das Format 1" in result.err
    assert (tmp_path / "game.jsonl.format-0").read_bytes() == old  # the old file, kept
    assert lines(save)[0]["version"] == 1
    assert read(save).actions == read(whole).actions  # nothing lost, and it went on
    over = [e for e in result.events if e["type"] == "game_over"]
    assert over == [{"type": "game_over", "coloured": 20, "won": True}]


def test_an_upgrade_that_fails_on_a_damaged_old_file_is_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setitem(journal.MIGRATIONS, 0, upgrade_0_to_1)
    save = saved_game(tmp_path, MOVES[:3])
    records = [json.loads(line) for line in to_format_0(save).splitlines()]
    del records[0]["seed"]
    save.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    before = save.read_bytes()
    result = resume(save, [], tmp_path)
    text = "(Speicherformat 0) lässt sich nicht auf den neuen Stand bringen"
    assert result.code == 1 and text in result.err
    assert save.read_bytes() == before
