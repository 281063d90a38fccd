"""The save format is versioned: a newer format is refused clearly, an older one is
upgraded (step by step through ``voice.session.journal.MIGRATIONS``) or refused clearly, and a
file is never changed by a refusal.

Format 2 journals decisions instead of what they were decided from (a Pantone guess
carries the card it was judged to name). Format 3 names a Pantone timer by the clock it
ends (``{"clock": "guess", "turn": "1.0", ...}``) instead of a running number, as the other
games do; the real upgrade 2 → 3 is tested with real format-2 files
(``tests/data/saves/format-2-pantone*.jsonl``: the first 40 lines of ``pantone/basic-en``,
and the own-cards game ``pantone/eigene-karten-de`` stopped while a hint is being read).
The real upgrade 1 → 2 is tested with a real format-1 file written by the farbspiel before
it (``tests/data/saves/format-1-pantone.jsonl``, the first 40 lines of the golden
``pantone/basic-en`` script). The general mechanism is also
tested with a *made-up* format 0 (setup fields flat in the header, moves stored as
``{"move": ...}``) and an upgrade registered only for the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli, write_script

from voice.session import journal
from voice.session.journal import read

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
    assert lines(save)[0]["version"] == journal.VERSION == 3
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
    assert "was saved by a newer farbspiel (save format 4; this one reads formats up to 3)" in (
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
    assert "(it reads formats 1 to 3)" in result.err
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
    assert "war im Format 0 gespeichert; jetzt hat die Datei das Format 3" in result.err
    assert (tmp_path / "game.jsonl.format-0").read_bytes() == old  # the old file, kept
    assert lines(save)[0]["version"] == 3
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


# --- the real upgrade 1 -> 2: verdicts journaled, never re-judged -------------------------------
GOLDEN_PANTONE = Path(__file__).parent / "golden" / "pantone"
FORMAT_1 = Path(__file__).parent / "data" / "saves" / "format-1-pantone.jsonl"
PANTONE = ["play", "pantone", "--lang", "en", "--players", "Anna,Ben,Cem", "--seed", "3"]


def golden_script() -> list[str]:
    return (GOLDEN_PANTONE / "basic-en.script").read_text(encoding="utf-8").splitlines()


def guesses(path: Path) -> list[dict]:
    return [r["action"]["args"] for r in lines(path) if r.get("action", {}).get("name") == "guess"]


def test_a_format_1_pantone_game_gets_its_verdicts_and_plays_on_identically(tmp_path):
    save = tmp_path / "old.jsonl"
    save.write_bytes(FORMAT_1.read_bytes())
    contents = read(save)
    assert contents.upgraded_from == 1
    decided = [a.args for a in contents.actions if a.name == "guess"]
    # Pinocchio and Superman name other cards (wrong); the two right guesses name the card
    texts = [d["text"] for d in decided]
    assert texts == ["Pinocchio", "Mr. Potato Head", "Superman", "Spider-Man"]
    assert [d["card"] == n for d, n in zip(decided, [1, 1, 58, 58], strict=True)] == [
        False,
        True,
        False,
        True,
    ]
    rest = write_script(tmp_path / "rest.script", golden_script()[40:])
    result = run_cli("resume", str(save), "--json", "--script", str(rest))
    assert result.code == 0, result.err
    golden_end = json.loads(
        (GOLDEN_PANTONE / "basic-en.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    )
    assert result.events[-1] == golden_end
    assert (tmp_path / "old.jsonl.format-1").read_bytes() == FORMAT_1.read_bytes()
    assert all("card" in g for g in guesses(save))


def test_a_saved_game_resumes_identically_after_the_name_matcher_changes(tmp_path, monkeypatch):
    save = tmp_path / "game.jsonl"
    first = write_script(tmp_path / "first.script", golden_script()[:40])
    assert run_cli(*PANTONE, "--save", str(save), "--script", str(first)).code == 0
    assert [g["card"] for g in guesses(save)] == [30, 1, 60, 58]  # Pinocchio, ..., Superman
    score = write_script(tmp_path / "score.script", ["what's the score"])
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(save.read_bytes())
    before = run_cli("resume", str(copy), "--json", "--script", str(score))
    assert before.code == 0, before.err

    # A new matcher that recognises no name at all: a re-judging resume would now turn
    # the two right guesses into wrong ones and lose their points.
    import games.pantone

    monkeypatch.setattr(games.pantone, "names_card", lambda *a, **k: False)
    monkeypatch.setattr(games.pantone, "best_match", lambda *a, **k: None)
    game = games.pantone.Pantone(read(save).header.setup)
    game.start()
    assert game.named_card("Mr. Potato Head") is None  # the change is real
    after = run_cli("resume", str(save), "--json", "--script", str(score))
    assert after.code == 0, after.err
    status = [e for e in after.events if e["type"] == "status"]
    assert status[-1]["scores"] == {"Anna": 4, "Ben": 7, "Cem": 2}
    assert after.events == before.events


# --- the real upgrade 2 -> 3: timers named by their clock -----------------------------------------
FORMAT_2 = Path(__file__).parent / "data" / "saves" / "format-2-pantone.jsonl"
FORMAT_2_OWN_CARDS = Path(__file__).parent / "data" / "saves" / "format-2-pantone-physical.jsonl"
OWN_CARDS = ["play", "pantone", "--lang", "de", "--players", "Anna,Ben,Cem", "--cards"]
OWN_CARDS += ["physical", "--minimalist", "--target", "8", "--seed", "1"]


def script_lines(name: str) -> list[str]:
    return (GOLDEN_PANTONE / f"{name}.script").read_text(encoding="utf-8").splitlines()


def timers(path_or_actions) -> list[dict]:
    actions = (
        read(path_or_actions).actions if isinstance(path_or_actions, Path) else path_or_actions
    )
    return [a.args for a in actions if a.name == "timer"]


@pytest.mark.parametrize(
    ("old", "play", "golden", "cut"),
    [(FORMAT_2, PANTONE, "basic-en", 40), (FORMAT_2_OWN_CARDS, OWN_CARDS, "eigene-karten-de", 21)],
    ids=["numbered-cards", "own-cards-hint-being-read"],
)
def test_a_format_2_pantone_game_gets_named_clocks_and_plays_on_identically(
    tmp_path, old, play, golden, cut
):
    save = tmp_path / "old.jsonl"
    save.write_bytes(old.read_bytes())
    assert all("id" in t for t in timers([a for a in read_raw(old) if a.name == "timer"]))
    contents = read(save)
    assert contents.upgraded_from == 2
    # the same moves played by today's farbspiel journal exactly these timers
    fresh = tmp_path / "fresh.jsonl"
    first = write_script(tmp_path / "first.script", script_lines(golden)[:cut])
    assert run_cli(*play, "--save", str(fresh), "--script", str(first)).code == 0
    assert contents.actions == read(fresh).actions
    assert timers(save) and all("clock" in t and "id" not in t for t in timers(save))

    rest = write_script(tmp_path / "rest.script", script_lines(golden)[cut:])
    result = run_cli("resume", str(save), "--json", "--script", str(rest))
    assert result.code == 0, result.err
    golden_events = (GOLDEN_PANTONE / f"{golden}.jsonl").read_text(encoding="utf-8")
    assert result.events[-1] == json.loads(golden_events.splitlines()[-1])
    assert (tmp_path / "old.jsonl.format-2").read_bytes() == old.read_bytes()
    assert lines(save)[0]["version"] == 3


def read_raw(path: Path) -> list:
    """The actions of a journal as written, without any upgrade."""
    from games.engine import Action

    return [Action.from_json(r["action"]) for r in lines(path)[1:] if "action" in r]


def test_an_old_timer_that_was_not_running_is_a_clear_message_and_the_file_stays(tmp_path):
    records = lines(FORMAT_2)
    first_guess = next(
        i for i, r in enumerate(records) if r.get("action", {}).get("name") == "guess"
    )
    records.insert(first_guess + 1, {"action": {"name": "timer", "args": {"id": "hint-77"}}})
    records.insert(2, {"action": {"name": "timer", "args": {"id": "create-1"}}})  # before any card
    save = tmp_path / "old.jsonl"
    save.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    before = save.read_bytes()
    result = run_cli(
        "resume", str(save), "--json", "--script", str(write_script(tmp_path / "s", []))
    )
    assert result.code == 1
    assert "(save format 2) cannot be brought up to date" in result.err
    assert "Traceback" not in result.err
    assert save.read_bytes() == before
