"""Correcting the last move by voice: "nein, doch gelb" right after it, or as the answer
to farbspiel's "Lila für den Hut – richtig?". Right after the move (nothing else said
since) it is changed at once and said so, as the move itself was; later it is asked
first. Nothing the players did is lost (the save file holds the corrected game)."""

from __future__ import annotations

from pathlib import Path

from helpers import run_cli, write_script

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.session.adapters import adapter_for
from voice.session.journal import read
from voice.session.session import Session

AMF = ["alle-meine-farben", "--players", "Anna,Ben,Cem", "--seed", "3"]


def play(tmp_path: Path, argv: list[str], lines: list[str], save: Path | None = None):
    script = write_script(tmp_path / "script", lines)
    extra = ["--save", str(save)] if save else []
    run = run_cli("play", *argv, "--script", str(script), "--json", *extra)
    assert run.code == 0, run.err
    return run


def colours(save: Path) -> list[str | None]:
    return [a.args.get("colour") for a in read(save).actions]


def test_nein_doch_gelb_right_after_a_move_changes_it_at_once(tmp_path):
    save = tmp_path / "game.jsonl"
    run = play(tmp_path, AMF, ["Anna", "blau", "nein, doch gelb"], save)
    said = run.said[run.said.index("Ben, Nummer 2: der Hut, Reihe 1, Spalte 2.") + 1 :]
    assert said == [
        "Geändert: Anna malt den Ball gelb an.",  # no question: the move was just said
        # the card is swapped; Anna drew already, so nobody is asked to draw again
        "Anna, nimm deine Karte Blau vom Ball wieder auf und lege stattdessen deine Karte "
        "Gelb auf den Ball.",
        "Ben, Nummer 2: der Hut, Reihe 1, Spalte 2.",  # Ben is still the one to go on
    ]
    assert colours(save) == [None, "yellow"]
    resumed = run_cli("resume", str(save), "--json", "--script", str(write_script(
        tmp_path / "more", ["rot"])))  # fmt: skip
    assert "Der Hut ist jetzt rot. Zieh bitte eine Karte nach." in resumed.said
    assert colours(save) == [None, "yellow", "red"]


def test_a_correction_after_something_else_was_said_is_asked_first(tmp_path):
    save = tmp_path / "game.jsonl"
    run = play(tmp_path, AMF, ["Anna", "blau", "wie steht es", "nein, doch gelb", "ja"], save)
    said = run.said[
        run.said.index("Soll ich das ändern in: Anna malt den Ball gelb an? Ja oder nein?") :
    ]
    assert said[1] == "Geändert: Anna malt den Ball gelb an."
    assert colours(save) == [None, "yellow"]


def test_nein_right_after_a_correction_takes_the_move_back(tmp_path):
    save = tmp_path / "game.jsonl"
    run = play(tmp_path, AMF, ["Anna", "blau", "nein, doch gelb", "nein"], save)
    assert "Geändert: Anna malt den Ball gelb an." in run.said
    assert run.said[-1] == "Anna, Nummer 1: der Ball, Reihe 1, Spalte 1."  # asked for again
    assert colours(save) == [None]


def test_no_to_the_question_changes_nothing_and_a_refusal_is_no_correction(tmp_path):
    save = tmp_path / "game.jsonl"
    lines = ["Anna", "blau", "wie steht es", "ich meinte grün", "nein", "nein gelb", "nicht gelb"]
    run = play(tmp_path, AMF, lines, save)
    assert "Soll ich das ändern in: Anna malt den Ball grün an? Ja oder nein?" in run.said
    assert "Gut, dann nicht." in run.said
    asked = [e for e in run.events if e["type"] == "confirm"]
    assert len(asked) == 1  # "nein gelb", "nicht gelb": table talk, not a correction
    assert colours(save) == [None, "blue"]


def test_a_correction_the_rules_forbid_is_refused_with_the_reason(tmp_path):
    save = tmp_path / "game.jsonl"
    run = play(tmp_path, AMF, ["Anna", "blau", "rot", "nee doch blau"], save)
    assert run.said[-1] == (
        "Blau liegt schon in Reihe 1, bei Nummer 1, dem Ball. Nimm eine andere Farbe oder passe."
    )
    assert not [e for e in run.events if e["type"] == "confirm"]
    assert colours(save) == [None, "blue", "red"]


def test_the_same_colour_again_and_nothing_to_correct_in_english(tmp_path):
    argv = [*AMF, "--lang", "en"]
    run = play(tmp_path, argv, ["I meant red", "Anna", "red", "I meant red"])
    assert run.said[2] == "There's no move with a colour I could change right now."
    assert run.said[-1] == "That's what I have: Anna colours the ball red."


def test_farben_a_colour_shown_is_corrected_after_its_story(tmp_path):
    save = tmp_path / "game.jsonl"
    argv = ["farben", "--players", "Anna,Ben,Cem", "--seed", "2"]
    lines = ["Anna", "the first one", "ready", "Ben had red", "done", "no wait, I meant green"]
    run = play(tmp_path, argv, [*lines, "yes"], save)
    assert run.said[-3:] == [
        "Shall I change that to: Ben shows green for “Success”? Yes or no?",
        "Changed: Ben shows green for “Success”.",
        "Cem, your colour for “Success”?",
    ]
    actions = read(save).actions
    assert [a.name for a in actions[-2:]] == ["reveal", "done"]
    assert actions[-2].args == {"player": "Ben", "colour": "green"}


def test_pantone_guesses_are_never_corrected(tmp_path):
    argv = ["pantone", "--players", "Anna,Ben,Cem", "--seed", "3"]
    run = play(tmp_path, argv, ["Anna", "card 12", "done", "Mickey Mouse", "I meant red"])
    assert not [e for e in run.events if e["type"] == "confirm"]


def test_the_answer_to_a_confirmation_may_correct_it():
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), "de", Setup(("Anna", "Ben"), seed=1), out)
    session.start()
    session.hear("Anna")
    session.hear("lila", 0.4)  # really unsure: asked
    assert out.said[-1] == "Anna malt den Ball lila an – richtig?"
    session.hear("nein, doch gelb", 0.9)
    assert out.said[-1] == "Anna malt den Ball gelb an – richtig?"  # asked in turn
    session.hear("ja")
    assert [a.args.get("colour") for a in session.actions] == [None, "yellow"]
    session.hear("rot", 0.4)
    session.hear("nee doch gelb")  # yellow is in row 1 now: the question ends with why
    assert out.said[-1].startswith("Gelb liegt schon in Reihe 1")
    assert session.awaiting is None
    assert [a.args.get("colour") for a in session.actions] == [None, "yellow"]


def test_the_assistants_move_after_the_corrected_one_stays_where_it_still_fits(tmp_path):
    save = tmp_path / "game.jsonl"
    argv = ["alle-meine-farben", "--players", "Anna,Ben", "--assistant", "Robo", "--seed", "3"]
    lines = ["Anna", "du hast rot, blau und gelb", "grün", "blau"]
    run = play(tmp_path, argv, [*lines, "nein, doch lila", "ja"], save)
    assert "Robo: Ich male die Säge rot an. Anna, legst du bitte meine Karte Rot auf die Säge?" in (
        run.said
    )
    assert "Geändert: Ben malt den Hut lila an." in run.said
    assert colours(save)[-3:] == ["green", "purple", "red"]  # Robo's red stays on the saw


def test_more_help_tells_how_to_correct_once_there_is_a_colour_to_correct(tmp_path):
    run = play(tmp_path, [*AMF, "--lang", "en"], ["Anna", "more help", "red", "more help"])
    helps = [t for t in run.said if t.startswith("Also: ")]
    assert len(helps) == 2
    assert "I meant yellow" not in helps[0]
    assert "and “I meant yellow” (to change the colour just said)." in helps[1]


def test_after_a_refused_colour_the_correction_is_the_same_players_move(tmp_path):
    # Ben's blue is refused; his "nein, doch lila" is his own move, not a change of Anna's
    save = tmp_path / "game.jsonl"
    run = play(tmp_path, AMF, ["Anna", "blau", "blau", "nein, doch lila"], save)
    assert not [e for e in run.events if e["type"] == "confirm"]
    assert run.said[-2:] == [
        "Der Hut ist jetzt lila. Zieh bitte eine Karte nach.",
        "Cem, Nummer 3: die Säge, Reihe 1, Spalte 3.",
    ]
    assert colours(save) == [None, "blue", "purple"]


def test_undo_tells_the_table_to_take_the_card_back_and_return_the_card_drawn(tmp_path):
    run = play(tmp_path, AMF, ["Anna", "blau", "rückgängig", "ja"])
    assert run.said[-4:] == [
        "Zurückgenommen.",
        "Anna, lege die gezogene Karte zurück auf den Stapel.",
        "Anna, nimm deine Karte vom Ball wieder auf die Hand.",
        "Anna, Nummer 1: der Ball, Reihe 1, Spalte 1.",
    ]
    told = [e["type"] for e in run.events if e["type"].startswith("table_")]
    assert told == ["table_draw_back", "table_card_back"]  # keys a table model can follow


def test_undo_over_the_assistants_move_says_so_and_its_cards_go_back(tmp_path):
    argv = ["alle-meine-farben", "--lang", "en", "--players", "Anna,Ben", "--assistant", "Robo",
            "--seed", "3"]  # fmt: skip
    lines = ["Anna", "you have red, blue and yellow", "green", "blue", "undo"]
    run = play(tmp_path, argv, lines)
    assert run.said[-1] == (
        "Shall I take this back: Ben colours the hat blue, and after it Robo colours the saw"
        " red? Yes or no?"
    )
    run = play(tmp_path, argv, [*lines, "yes"])
    assert run.said[-6:] == [
        "Taken back.",
        "The card last drawn for Robo goes back on the draw pile.",
        "Robo's red card goes back from the saw and lies face up in front of Robo again.",
        "Ben, put the card you drew back on the draw pile.",
        "Ben, take your card back from the hat into your hand.",
        "Ben, number 2: the hat, row 1, column 2.",
    ]


def test_after_no_to_an_unsure_colour_the_correction_is_still_that_players_move():
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), "de", Setup(("Anna", "Ben"), seed=1), out)
    session.start()
    session.hear("Anna")
    session.hear("blau")
    session.hear("lila", 0.3)  # Ben, really unsure: asked
    session.hear("nein")
    session.hear("nein, doch gelb")  # Ben's own colour, never a change of Anna's blue
    assert out.said[-2] == "Der Hut ist jetzt gelb. Zieh bitte eine Karte nach."
    assert [a.args.get("colour") for a in session.actions] == [None, "blue", "yellow"]


def test_the_last_move_said_again_with_another_colour_is_a_correction(tmp_path):
    """ "Der Ball war gelb, nicht blau" right after the ball was laid blue (and Ben's hat
    is next) corrects the ball; naming the hat is Ben's move, and an either-or is talk."""
    save = tmp_path / "game.jsonl"
    lines = ["Anna", "blau", "Der Ball war grün oder gelb?", "Der Ball war gelb, nicht blau"]
    run = play(tmp_path, AMF, lines, save)
    assert "Geändert: Anna malt den Ball gelb an." in run.said
    assert not [e for e in run.events if e["type"] == "confirm"]
    assert colours(save) == [None, "yellow"]
    run = play(tmp_path, AMF, ["Anna", "blau", "der Hut wird gelb"], tmp_path / "other.jsonl")
    assert colours(tmp_path / "other.jsonl") == [None, "blue", "yellow"]


def test_in_english_the_phone_was_green_not_yellow(tmp_path):
    save = tmp_path / "game.jsonl"
    lines = ["Anna", "blue", "oops, the ball should have been green, not blue. My bad."]
    run = play(tmp_path, [*AMF, "--lang", "en"], lines, save)
    assert any(s.startswith("Changed: Anna colours the ball green") for s in run.said), run.said
    assert colours(save) == [None, "green"]
