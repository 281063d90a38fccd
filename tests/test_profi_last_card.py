"""Alle meine Farben, pro variant: what is heard is said back, and the last card can be
corrected before the reveal (played by script, as a family would)."""

from __future__ import annotations

from pathlib import Path

from helpers import run_cli, write_script

from games.alle_meine_farben import CELLS, column_of, row_of

GERMAN = ["rot", "gelb", "grün", "blau", "orange", "rosa", "lila"]
# a board that keeps the rule: no penalty anywhere
VALID = {n: GERMAN[(row_of(n) - 1 + 2 * (column_of(n) - 1)) % 7] for n in range(1, CELLS + 1)}
PLAY = ["play", "alle-meine-farben", "--lang", "de", "--variant", "profi"]
PLAY += ["--players", "Anna,Ben", "--first", "Ben", "--seed", "2", "--json"]


def play(tmp_path: Path, lines: list[str], *extra: str):
    run = run_cli(*PLAY, "--script", str(write_script(tmp_path / "s.script", lines)), *extra)
    assert run.code == 0, run.err
    return run


def test_the_colour_heard_is_said_back_when_the_card_goes_down(tmp_path: Path) -> None:
    run = play(tmp_path, ["gelb", "rückgängig"])
    assert "Gelb liegt verdeckt auf Nummer 1. Zieh bitte eine Karte nach." in run.said
    assert "Soll ich das zurücknehmen: Ben legt Gelb auf Nummer 1? Ja oder nein?" in run.said


def test_the_last_card_is_asked_about_and_a_correction_still_works(tmp_path: Path) -> None:
    first19 = [VALID[n] for n in range(1, CELLS)]
    wrong = next(c for c in GERMAN if c != VALID[CELLS])  # misheard: a penalty at the reveal
    run = play(tmp_path, [*first19, wrong, f"nein, doch {VALID[CELLS]}", "ja"])
    said = run.said
    asked = said.index(f"Anna legt {wrong.capitalize()} als letzte Karte auf Nummer 20 – richtig?")
    again = said.index(
        f"Anna legt {VALID[CELLS].capitalize()} als letzte Karte auf Nummer 20 – richtig?"
    )
    reveal = said.index("Alle Karten liegen. Jetzt decke ich auf, von Nummer 1 an.")
    assert asked < again < reveal  # nothing revealed before the last card is settled
    revealed = [e for e in run.events if e.get("type") == "revealed"]
    assert revealed[-1]["colour"] != wrong
    assert not any(e["penalty"] for e in revealed)
    assert any(e.get("type") == "game_over" for e in run.events)


def test_no_to_the_last_card_asks_for_it_again(tmp_path: Path) -> None:
    first19 = [VALID[n] for n in range(1, CELLS)]
    run = play(tmp_path, [*first19, VALID[CELLS], "nein"])
    assert run.said[-2:] == ["Gut, dann nicht.", "Anna, Nummer 20: der Drachen, Reihe 4, Spalte 5."]
    assert not any(e.get("type") == "revealed" for e in run.events)


def test_a_game_saved_at_the_last_question_resumes_and_reveals_once(tmp_path: Path) -> None:
    first19 = [VALID[n] for n in range(1, CELLS)]
    save = tmp_path / "game.jsonl"
    part = play(tmp_path, [*first19, VALID[CELLS]], "--save", str(save))
    assert not any(e.get("type") == "revealed" for e in part.events)
    rest = write_script(tmp_path / "rest.script", [VALID[CELLS], "ja"])
    resumed = run_cli("resume", str(save), "--script", str(rest), "--json")
    assert resumed.code == 0, resumed.err
    revealed = [e for e in resumed.events if e.get("type") == "revealed"]
    assert [e["number"] for e in revealed] == list(range(1, CELLS + 1))
    assert not any(e["penalty"] for e in revealed)
