"""The remembered household (issue 29.3): players, language, options, the assistant and
the last set-up, kept between games set up by talking; "wie letztes Mal", "neue Runde",
"ein anderes Spiel"; a damaged file is said and kept, never lost."""

from __future__ import annotations

import json

from helpers import run_cli, write_script

from voice.paths import data_dir
from voice.setup.dialogue import Plan, Remembered, SetupDialogue
from voice.setup.household import Household, load_household, save_household


def never_wrong(argv):
    return None


def set_up(tmp_path, lines, *options):
    script = write_script(tmp_path / "talk.script", lines)
    return run_cli("play", *options, "--script", str(script))


def test_the_last_game_is_remembered_and_set_up_again_by_wie_letztes_mal(tmp_path):
    first = set_up(
        tmp_path,
        ["Pantone", "wir sind Anna, Ben und Cem", "mit den gedruckten Karten", "ja"],
        "--lang",
        "de",
    )
    assert first.code == 0, first.err
    household = load_household()
    assert household.players == ["Anna", "Ben", "Cem"] and household.lang == "de"
    assert household.options["pantone"] == {"--cards": "number"}
    again = set_up(tmp_path, ["wie letztes Mal", "ja"])  # no --lang: the household's language
    assert (
        "Pantone mit Anna, Ben und Cem, mit den gedruckten Karten. Sollen wir anfangen?"
        in again.out
    )
    assert "Los geht's." in again.out


def test_the_command_line_plays_without_any_household(tmp_path):
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--script", "/dev/null")
    assert run.code == 0
    assert not (data_dir() / "household.json").exists()


def test_a_damaged_household_file_is_said_and_kept_beside(tmp_path):
    path = data_dir() / "household.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    run = set_up(tmp_path, ["the guessing one", "we are Anna and Ben", "yes"], "--lang", "en")
    assert run.code == 0, run.err
    assert (
        "The remembered players could not be read" in run.out
        and "household.json.damaged" in run.out
    )
    assert (data_dir() / "household.json.damaged").read_text(encoding="utf-8") == "{not json"
    assert load_household().players == ["Anna", "Ben"]  # a new household beside the kept one


def test_preferred_options_remembered_players_and_the_assistant():
    known = Remembered(
        options={"farben": {"--time-limit": "90"}}, players=("Anna", "Jonas"), assistant="Robo"
    )
    talk = SetupDialogue("de", never_wrong, known=known)
    talk.hear("Farben")
    assert talk.plan.options == {"--time-limit": "90"}  # as the household likes it
    talk.hear("wir sind Ana, Jonas und Robo")  # "Ana": the household's Anna; Robo plays itself
    assert talk.plan.players == ("Anna", "Jonas")
    assert talk.plan.argv()[-4:] == ["--time-limit", "90", "--assistant", "Robo"]


def test_after_a_game_new_round_another_game_or_stop():
    played = Plan("de", "pantone", ("Anna", "Ben"), {"--speed": "true"})
    talk = SetupDialogue("de", never_wrong)
    assert talk.game_ended(played).key == "after_game"
    assert talk.hear("äh").key == "after_game_again"
    reply = talk.hear("neue Runde")
    assert reply.start == ["pantone", "--lang", "de", "--players", "Anna,Ben", "--speed"]
    talk.game_ended(played)
    assert talk.hear("ein anderes Spiel").key == "ask_game"
    assert talk.plan.players == ("Anna", "Ben") and talk.plan.game is None
    talk.game_ended(played)
    assert talk.hear("Schluss").done


def test_a_household_round_trips_through_its_file(tmp_path):
    household = Household()
    household.remember(Plan("en", "farben", ("Mia", "Leo"), {"--time-limit": "60"}), 150)
    assert save_household(household, tmp_path / "h.json")
    again = load_household(tmp_path / "h.json")
    assert again.last == household.last and again.rate == 150
    assert json.loads((tmp_path / "h.json").read_text())["players"] == ["Mia", "Leo"]


def test_a_new_round_typed_after_the_game_plays_again_into_a_file_of_its_own(tmp_path):
    from pathlib import Path

    from helpers import run_process

    script = Path(__file__).parent / "golden-setup" / "new-round-en.script"
    typed = [line.split("#")[0].strip() for line in script.read_text(encoding="utf-8").splitlines()]
    typed = [line for line in typed if line and not line.startswith("@")]
    save = tmp_path / "game.jsonl"
    run = run_process(
        "play", "--lang", "en", "--seed", "2", "--first", "Anna", "--save", str(save),
        stdin="\n".join(typed) + "\n",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "Another round of Alle meine Farben?" in run.out
    assert run.out.count("Here we go.") == 2
    assert save.exists() and (tmp_path / "game-2.jsonl").exists()


def test_slower_in_a_game_set_up_by_talking_is_remembered_for_the_next(tmp_path):
    from voice.output.rate import DEFAULT_RATE

    run = set_up(tmp_path, ["Pantone", "we are Anna, Ben and Cem", "yes", "slower"], "--lang", "en")
    assert run.code == 0, run.err
    slower = load_household().rate
    assert slower is not None and slower < DEFAULT_RATE
    # the next game starts at that rate: one "faster" brings it back to the usual one
    again = set_up(tmp_path, ["the same as last time", "yes", "faster"])
    assert again.code == 0, again.err
    assert load_household().rate == DEFAULT_RATE
