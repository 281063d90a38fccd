"""Rules a good host keeps, and table facts on request, played through the command line
(issue 13): each test is a short scripted game in the language a family would use."""

from __future__ import annotations

import shlex
from pathlib import Path

from helpers import run_cli, write_script

GOLDEN = Path(__file__).parent / "golden"


def play(tmp_path: Path, argv: list[str], lines: list[str]):
    script = write_script(tmp_path / "s", lines)
    run = run_cli("play", *argv, "--script", str(script), "--json")
    assert run.code == 0, run.err
    return run


# --- Alle meine Farben --------------------------------------------------------------------
AMF = ["alle-meine-farben", "--players", "Anna,Ben,Cem", "--seed", "1"]


def test_passing_is_refused_while_every_colour_fits(tmp_path):
    run = play(tmp_path, AMF, ["Anna", "Ich passe", "rot", "ich passe"])
    assert run.said[4] == (
        "Passen geht nicht: Für den Ball passt noch jede Farbe, also passt jede deiner Karten."
    )
    assert [e["reason"] for e in run.events if e["type"] == "refused"] == ["pass_not_needed"]
    # after red in row 1, red no longer fits the hat: now Ben may pass
    assert any(e["type"] == "passed" and e["player"] == "Ben" for e in run.events)


def test_the_turn_says_where_the_object_lies(tmp_path):
    run = play(tmp_path, AMF, ["Anna", "rot"])
    assert "Anna, Nummer 1: der Ball, Reihe 1, Spalte 1." in run.said
    assert "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2." in run.said


def test_is_it_my_turn_is_answered_yes_or_no_then_who_and_what(tmp_path):
    lines = ["Ben ist dran", "rot", "ist Cem dran?", "Anna ist dran?", "bin ich dran?"]
    run = play(tmp_path, AMF, lines)
    # at the start "Ben ist dran" chooses who begins; later the same words ask
    assert "Ben fängt an." in run.said
    asked = run.said[run.said.index("Der Ball ist jetzt rot. Zieh bitte eine Karte nach.") + 2 :]
    assert asked == [
        "Ja.",
        "Cem, Nummer 2: der Hut, Reihe 1, Spalte 2.",
        "Nein, nicht Anna.",
        "Cem, Nummer 2: der Hut, Reihe 1, Spalte 2.",
        "Cem, Nummer 2: der Hut, Reihe 1, Spalte 2.",  # who "ich" is, nobody knows
    ]
    english = play(tmp_path, [*AMF, "--lang", "en"], ["Ben", "is it Ben's turn?", "Cem's turn?"])
    assert english.said[-4:] == [
        "Yes.",
        "Ben, number 1: the ball, row 1, column 1.",
        "No, not Cem.",
        "Ben, number 1: the ball, row 1, column 1.",
    ]
    assert not [e for e in run.events + english.events if e["type"] == "not_understood"]


def test_table_facts_can_be_asked_for_in_many_ways(tmp_path):
    lines = ["Anna", "rot", "gelb", "Wo liegt der Hut?", "In welcher Reihe ist der Hut?",
             "Welche Farbe hat der Ball?", "welche Farbe hat der Fisch", "Was liegt schon?",
             "Reihe 1", "das ganze Spielfeld"]  # fmt: skip
    said = play(tmp_path, AMF, lines).said
    assert "Der Hut liegt in Reihe 1, Spalte 2 und ist gelb." in said
    assert said.count("Der Hut liegt in Reihe 1, Spalte 2 und ist gelb.") == 2
    assert "Der Ball ist rot." in said
    assert "Der Fisch hat noch keine Farbe." in said
    assert "Schon bunt: Ball rot und Hut gelb. 18 Felder sind noch frei." in said
    assert "Reihe 1: Ball rot und Hut gelb, 3 frei." in said  # grouped: no "frei" five times
    assert "Reihe 4 ist noch ganz frei." in said


def test_english_table_facts(tmp_path):
    argv = ["alle-meine-farben", "--lang", "en", "--players", "Anna,Ben", "--first", "Anna"]
    said = play(tmp_path, argv, ["red", "where is the hat", "what colour is the ball",
                                 "what's down so far", "how many cards are left"]).said  # fmt: skip
    assert "The hat is in row 1, column 2, and it's up now." in said
    assert "The ball is red." in said
    assert "Coloured so far: ball red. 19 are still empty." in said
    assert "1 of 20 objects is coloured. 21 cards are left in the pile." in said


def test_help_is_short_and_more_help_tells_the_rest(tmp_path):
    said = play(tmp_path, AMF, ["Anna", "Hilfe", "mehr Hilfe"]).said
    short, more = said[-2], said[-1]
    assert short == (
        "Jetzt geht: eine Farbe für den Ball, zum Beispiel „lila“. Mehr mit „mehr Hilfe“."
    )
    assert len(short.split()) <= 20
    assert "„Wo liegt der Hut?“" in more and "beenden" in more


# --- Pantone ---------------------------------------------------------------------------------
def test_a_card_beyond_the_deck_is_refused_with_the_deck_size(tmp_path):
    run = play(tmp_path, ["pantone", "--players", "Anna,Ben,Cem"], ["Anna", "card 200", "card 20"])
    assert "There are only 152 cards, so there is no card 200." in run.said
    assert [e["card"] for e in run.events if e["type"] == "chosen"] == [20]
    run = play(tmp_path, ["pantone", "--lang", "de", "--players", "Anna,Ben"],
               ["Anna", "Karte zweihundert"])  # fmt: skip
    assert "Es gibt nur 165 Karten, also keine Karte 200." in run.said


def test_german_pantone_says_guess_and_hint_apart_and_assumes_no_gender(tmp_path):
    lines = ["Anna", "Karte 7", "fertig", "Pinocchio", "@+5", "Was war der Hinweis?"]
    said = play(tmp_path, ["pantone", "--lang", "de", "--players", "Anna,Ben,Cem"], lines).said
    text = " ".join(said)
    assert "Anna, du malst." in text and "Künstler" not in text
    assert "Ben, du rätst." in said
    assert "Tipp" not in text
    hint = next(s for s in said if s.startswith("Noch niemand. Hinweis 1: "))
    assert said[-1] == "Hinweis 1: " + hint.removeprefix("Noch niemand. Hinweis 1: ")


def test_what_was_the_hint_in_english(tmp_path):
    lines = ["Anna", "card 7", "done", "Pinocchio", "@+5", "what was the hint?",
             "which hints were read?"]  # fmt: skip
    said = play(tmp_path, ["pantone", "--players", "Anna,Ben,Cem"], lines).said
    hint = next(s for s in said if s.startswith("Nobody yet. Hint 1: "))
    assert said[-2] == hint.removeprefix("Nobody yet. ")
    assert said[-1].startswith("Hints so far: hint 1, ")


# --- Farben -----------------------------------------------------------------------------------
def _farben_to_first_stack() -> tuple[list[str], list[str]]:
    """The golden three-player game's command and its lines up to the first stack."""
    script = (GOLDEN / "farben" / "three-players-en.script").read_text(encoding="utf-8")
    lines = script.splitlines()
    argv = shlex.split(lines[0].removeprefix("# farbspiel:"))[1:]
    scoring = next(i for i, line in enumerate(lines) if line.startswith("# --- scoring"))

    def said(part: list[str]) -> list[str]:
        return [t for t in (line.split("#")[0].strip() for line in part) if t]

    rest = said(lines[scoring:])
    return argv, said(lines[1:scoring]) + rest[: rest.index("Summer") + 1]  # stack 1 for Ben


def test_undo_after_a_wrong_answer_never_lets_it_score(tmp_path):
    argv, lines = _farben_to_first_stack()
    run = play(tmp_path, argv, lines + ["Anna played black", "undo", "yes", "Anna played white",
                                         "what's the score"])  # fmt: skip
    assert "No, Anna chose white, not black. No points." in run.said
    assert "I can't take that back: the right answer has already been said." in run.said
    assert "Anna's card on this stack is already turned over: white." in run.said
    assert not any(e["type"] == "named" and e["correct"] for e in run.events)
    assert run.said[-1].startswith("Points: Anna 0, Ben 0 and Cem 0.")


def test_the_namer_may_say_i_dont_know(tmp_path):
    argv, lines = _farben_to_first_stack()
    run = play(tmp_path, argv, lines + ["I don't know", "no idea what Cem had"])
    assert "Whose colour don't you know: Cem or Anna?" in run.said or (
        "Whose colour don't you know: Cem, Anna or Ben?" in run.said
    )
    assert "Cem had green. No points for it." in run.said


def test_a_bare_colour_is_not_taken_as_the_namers_own_card(tmp_path):
    argv, lines = _farben_to_first_stack()
    run = play(tmp_path, argv, lines + ["purple"])  # Ben's own is purple, but two are down
    assert run.said[-1].startswith("Whose card is purple: ")
    assert not any(e["type"] == "named" for e in run.events)


def test_what_colours_does_a_player_still_have(tmp_path):
    argv, lines = _farben_to_first_stack()
    said = play(tmp_path, argv, lines + ["what colours does Cem still have"]).said
    assert said[-1] == "Cem still has 2 colours: pink and brown."


def test_keine_ahnung_turns_a_card_over_without_points_in_german(tmp_path):
    script = (GOLDEN / "farben" / "three-players-de.script").read_text(encoding="utf-8")
    lines = script.splitlines()
    argv = shlex.split(lines[0].removeprefix("# farbspiel:"))[1:]
    scoring = next(i for i, line in enumerate(lines) if line.startswith("# --- Werten"))
    said_lines = [t for t in (line.split("#")[0].strip() for line in lines[1:]) if t]
    before = [t for t in (line.split("#")[0].strip() for line in lines[1:scoring]) if t]
    rest = said_lines[len(before) :]
    lines = (
        before
        + rest[: rest.index("Musik") + 1]
        + [
            "Keine Ahnung",
            "keine Ahnung, was Mia hatte",
            "Rosa",  # a colour alone, with two cards down: whose?
            "rückgängig",
        ]
    )
    said = play(tmp_path, argv, lines).said
    assert said[-4].startswith("Welche Farbe weißt du nicht: die von ")
    assert said[-3].startswith("Mia hatte ") and said[-3].endswith("Dafür gibt es keine Punkte.")
    assert said[-2].startswith("Wessen Karte ist rosa: ")
    assert said[-1] == "Das kann ich nicht zurücknehmen: Die richtige Antwort ist schon gesagt."
