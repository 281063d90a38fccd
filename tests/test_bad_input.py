"""Bad input of every kind gets a clear message, sensible exit codes, and changes nothing."""

from __future__ import annotations

import pytest
from helpers import run_cli, run_process, write_script

PLAY = ["play", "alle-meine-farben", "--players", "Anna,Ben,Cem", "--first", "Anna", "--seed", "1"]
MOVES = ["rot", "grün", "orange"]
NOISE = [
    "",
    "    ",
    "Mein Hund hat gestern den Ball gefressen",
    "x" * 10_000,
    "lila " * 2_000,
    "\x00\x07\x1b[31m",
    "🙂🙂🙂",
    "Zed fängt an",
    "@+abc",
    "@+-5",
    "@+1e9",
    "ja",
    "nein",
    "weiter",
    "Reihe 99",
]


def test_garbage_between_moves_changes_nothing(tmp_path):
    clean = run_cli(*PLAY, "--json", "--script", str(write_script(tmp_path / "c", MOVES)))
    lines = []
    for move in MOVES:
        lines += NOISE + [move]
    noisy = run_cli(*PLAY, "--json", "--script", str(write_script(tmp_path / "n", lines)))
    assert noisy.code == 0 and "Traceback" not in noisy.err
    kept = {"welcome", "first", "turn", "placed", "passed", "game_over"}
    assert [e for e in noisy.events if e["type"] in kept] == [
        e for e in clean.events if e["type"] in kept
    ]
    kinds = [e["type"] for e in noisy.events]
    assert kinds.count("not_understood") >= 3 * 5
    assert kinds.count("script_error") == 3 * 3
    assert "Das war mir zu lang. Sag es bitte kürzer." in noisy.said
    assert "Es gibt gerade nichts zu bestätigen." in noisy.said
    assert "Das Spiel läuft doch." in noisy.said
    assert "Skriptzeile" in noisy.err


def test_refused_moves_are_explained_and_the_player_tries_again(tmp_path):
    run = run_cli(
        *PLAY,
        "--json",
        "--script",
        str(write_script(tmp_path / "s", ["rot", "rot", "Nummer 7 grün", "grün"])),
    )
    refused = [e["reason"] for e in run.events if e["type"] == "refused"]
    assert refused == ["colour_in_row", "wrong_object"]
    assert (
        "Rot liegt schon in Reihe 1, bei Nummer 1, dem Ball. "
        "Nimm eine andere Farbe oder passe." in run.said
    )
    assert "Jetzt ist Nummer 2 dran, der Hut, nicht der Fisch." in run.said
    assert [e["number"] for e in run.events if e["type"] == "placed"] == [1, 2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "--players", "A"], "no game called “chess”; choose one"),
        (["play", "alle-meine-farben"], "--players"),
        # alle-meine-farben is German unless --lang en says otherwise: so are its errors
        (["play", "alle-meine-farben", "--players", ""], "leeren Namen"),
        (["play", "alle-meine-farben", "--players", "Anna,,Ben"], "leeren Namen"),
        (["play", "alle-meine-farben", "--lang", "en", "--players", "Anna,,Ben"], "empty name"),
        (["play", "alle-meine-farben", "--players", "Anna,anna"], "zwei heißen „Anna“"),
        (
            ["play", "alle-meine-farben", "--players", "A,B,C,D,E,F,G"],
            "ist für 1 bis 6 Personen, nicht für 7",
        ),
        (
            ["play", "alle-meine-farben", "--lang", "en", "--players", "A,B,C,D,E,F,G"],
            "needs 1 to 6 players",
        ),
        (["play", "alle-meine-farben", "--players", "123"], "kein Name"),
        (["play", "alle-meine-farben", "--players", "Anna", "--first", "Zed"], "--first „Zed“"),
        (["play", "alle-meine-farben", "--players", "Anna", "--rate", "5"], "--rate muss"),
        (["play", "alle-meine-farben", "--players", "Anna", "--seed", "-1"], "--seed muss"),
        (["play", "alle-meine-farben", "--players", "Anna", "--seed", "abc"], "keine ganze Zahl"),
        (["play", "farben", "--players", "Anna", "--seed", "abc"], "not a whole number"),
        (["play", "alle-meine-farben", "--players", "Anna", "--lang", "fr"], "geht nicht"),
        (["play", "alle-meine-farben", "--players", "Anna", "--variant", "x"], "Variante „x“"),
        (["play", "alle-meine-farben", "--players", "Anna,Pause"], "der Befehl „Pause“"),
        (["play", "farben", "--players", "Anna,Help,Cem"], "the command “Help”"),
        (["play", "farben", "--lang", "de", "--players", "Anna,Rosa,Cem"], "eine Farbe"),
        (
            ["play", "alle-meine-farben", "--players", "Anna", "--variant", "profi"],
            "ist für 2 bis 6 Personen",
        ),
        (["parse", "chess", "hello"], "no game called “chess”"),
        (["frobnicate"], "there is no command “frobnicate”; choose from: play"),
        # ([], "required"): bare farbspiel now sets a game up by talking (issue 29)
    ],
)
def test_impossible_command_lines_exit_2_with_a_clear_message(argv, message):
    result = run_cli(*argv)
    assert result.code == 2
    assert message in result.err
    assert "Traceback" not in result.err


def test_missing_or_unreadable_script_exits_1(tmp_path):
    result = run_cli(*PLAY, "--script", str(tmp_path / "nope.txt"))
    assert result.code == 1 and "es gibt keine Skriptdatei" in result.err
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("Grün\n".encode("latin-1"))
    result = run_cli(*PLAY, "--script", str(latin1))
    assert result.code == 1 and "kein UTF-8-Text" in result.err


def test_real_process_never_shows_a_traceback_for_bad_values():
    result = run_process("play", "alle-meine-farben", "--players", "Anna", "--rate", "fast")
    assert result.code == 2
    assert "„fast“ ist keine ganze Zahl" in result.err and "Traceback" not in result.err


def test_keyboard_play_reads_typed_lines_and_ends_cleanly_at_end_of_input():
    typed = "Anna fängt an\nrot\n\n    \nwer ist dran\nKauderwelsch\n"
    result = run_process(
        "play",
        "alle-meine-farben",
        "--players",
        "Anna,Ben",
        "--input",
        "keyboard",
        "--voice",
        "text",
        "--save",
        "/dev/null/x",
        stdin=typed,
    )
    assert result.code == 1 and "lässt sich nicht anlegen" in result.err
    result = run_process(
        "play",
        "alle-meine-farben",
        "--players",
        "Anna,Ben",
        "--input",
        "keyboard",
        "--voice",
        "text",
        stdin=typed,
    )
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert "Anna fängt an." in lines
    assert "Der Ball ist jetzt rot. Zieh bitte eine Karte nach." in lines
    turn = "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2."
    assert lines.count(turn) == 2  # the turn, then "wer ist dran"
    # typed, so farbspiel says "schreib", not "sag"
    assert lines[-1] == (
        "Das habe ich nicht verstanden. Schreib „Hilfe“, dann sage ich, was gerade geht."
    )


def test_parse_prints_the_intent_as_json():
    result = run_cli("parse", "alle-meine-farben", "--lang", "de", "Ich male den Hut lila an")
    assert result.code == 0
    assert result.out.strip() == '{"intent": "place", "slots": {"object": 2, "colour": "purple"}}'
    result = run_cli("parse", "alle-meine-farben", "--lang", "en", "the", "dog", "barks")
    assert result.out.strip() == '{"intent": null}'
