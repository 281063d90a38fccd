"""Setting a game up by talking (``farbspiel`` / ``farbspiel play`` without a game)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import run_cli, run_process

from voice.setup.dialogue import SetupDialogue
from voice.setup.understanding import understand

CORPUS = Path(__file__).parent / "understanding" / "setup"
CASES = [
    (lang, case)
    for lang in ("de", "en")
    for case in yaml.safe_load((CORPUS / f"{lang}.yaml").read_text(encoding="utf-8"))
]


@pytest.mark.parametrize(("lang", "case"), CASES, ids=[f"{lg}:{c['text']}" for lg, c in CASES])
def test_set_up_answers_are_understood(lang, case):
    answer = understand(case["text"], lang)
    assert answer.word == case.get("word")
    implied = next((game for game, _ in answer.options.values()), None)  # "Profi": that game
    assert (answer.game or implied) == case.get("game")
    assert list(answer.players) == case.get("players", [])
    assert {k: v for k, (_, v) in answer.options.items()} == case.get("options", {})


def never_wrong(argv):
    return None


def test_noise_changes_nothing_and_back_undoes_only_the_last_answer():
    talk = SetupDialogue("de", never_wrong)
    assert talk.hear("äh").key == "ask_game_again"
    talk.hear("Pantone")
    talk.hear("wir sind Anna und Ben")
    assert talk.hear("").key == "confirm_again"
    assert talk.hear("zurück").key == "went_back"
    assert talk.plan.game == "pantone" and talk.plan.players == ()
    assert talk.hear("ja").start is None  # not complete: no start
    talk.hear("wir sind Anna und Ben")
    assert talk.hear("ja").start == ["pantone", "--lang", "de", "--players", "Anna,Ben"]


@pytest.mark.parametrize(
    ("lang", "game", "said", "players"),
    [
        ("de", "Alle meine Farben", "Anna und Ben", ("Anna", "Ben")),
        ("de", "Farben", "Mia, Leo, Ida", ("Mia", "Leo", "Ida")),
        ("en", "Pantone", "Sam and Jo and Mia", ("Sam", "Jo", "Mia")),
        ("de", "Pantone", "ähm", ()),  # noise: asked again, nobody set
        ("en", "Farben", "me, Sam and Jo", ()),  # "me" has no name: asked again
        ("de", "Pantone auf Englisch", "Anna, Ben und Cem", ("Anna", "Ben", "Cem")),
        ("de", "Pantone auf Englisch", "Anna und ich", ()),
    ],
)
def test_names_alone_answer_who_is_playing(lang, game, said, players):
    talk = SetupDialogue(lang, never_wrong)
    talk.hear(game)
    reply = talk.hear(said)
    assert talk.plan.players == players
    assert reply.key == ("confirm" if players else "ask_players_again")


def test_names_said_before_the_game_are_kept_and_the_game_is_asked():
    talk = SetupDialogue("de", never_wrong)
    assert talk.hear("Anna und Ben").key == "ask_game"
    assert talk.plan.players == ("Anna", "Ben")
    assert talk.hear("Ben").key == "ask_game_again"  # one name alone: only when asked who plays
    assert talk.plan.players == ("Anna", "Ben")


def test_a_set_up_that_cannot_work_is_said_back_and_not_taken():
    talk = SetupDialogue("en", lambda argv: "two players are called Anna")
    talk.hear("the guessing one")
    reply = talk.hear("we are Anna and Anna")
    assert reply.key == "cannot" and reply.data["problem"] == "two players are called Anna"
    assert talk.plan.players == ()


@pytest.mark.parametrize("game", ["pantone", "farben", "alle-meine-farben"])
def test_help_is_about_twenty_words_at_every_step(game):
    from voice.cli.start import _texts
    from voice.output.messages import Messages

    for lang in ("de", "en"):
        messages = Messages(lang, "setup", {})
        summary = {"game": game, "players": ["Anna"], "count": 1, "options": []}
        data = _texts(messages, summary)
        for step in ("ask_game", "ask_players", "confirm", "after_game"):
            text = messages.require(f"{step}_help", data)
            assert 10 <= len(text.split()) <= 28, text
        assert data["examples"] in messages.require("confirm_help", data)  # the game's own


def test_typed_set_up_keeps_the_lines_after_yes_for_the_game(tmp_path):
    typed = "das mit den Farbkarten\nwir sind Anna, Ben und Cem\nja\nAnna\n"
    run = run_process(
        "play", "--lang", "de", "--json", "--save", str(tmp_path / "g.jsonl"), stdin=typed
    )
    assert run.code == 0, run.err
    assert '"first", "player": "Anna"' in run.out  # the line typed after "ja" reached the game
    assert (tmp_path / "g.jsonl").exists()  # a typed game is saved as from the command line


def test_bare_farbspiel_without_input_starts_nothing():
    run = run_process(stdin="")
    assert run.code == 0
    assert "Kein Spiel gestartet" in run.out or "No game started" in run.out


def test_a_game_name_on_the_command_line_still_plays_as_today(tmp_path):
    run = run_cli(
        "play", "pantone", "--lang", "en", "--players", "Anna,Ben", "--script", "/dev/null"
    )
    assert run.code == 0 and "What shall we play" not in run.out
    unknown = run_cli("play", "nosuchgame", "--players", "A,B")
    assert unknown.code == 2 and "nosuchgame" in unknown.err and not unknown.out


# --- golden set-up dialogues: script in, speech and events out (regenerate like the games'
# goldens: FARBSPIEL_UPDATE_GOLDEN=1, then read the diff). Kept beside tests/golden/, whose
# folders are games (other tests and benchmarks read them as such).
DIALOGUES = sorted((Path(__file__).parent / "golden-setup").glob("*.script"))


@pytest.mark.parametrize("script", DIALOGUES, ids=[s.stem for s in DIALOGUES])
def test_golden_set_up_dialogue(script):
    import os
    import shlex

    first = script.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# farbspiel: play --lang ")
    argv = shlex.split(first.removeprefix("# farbspiel:"))
    run = run_cli(*argv, "--script", str(script), "--json")
    assert run.code == 0, run.err
    expected = script.with_suffix(".jsonl")
    if os.environ.get("FARBSPIEL_UPDATE_GOLDEN"):
        expected.write_text(run.out, encoding="utf-8")
    assert run.out.splitlines() == expected.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_ordinary_yes_starts_and_every_no_asks_what_else(lang):
    from test_every_yes_and_no import NO, YES

    for said, key in [*((y, "starting") for y in YES[lang]), *((n, "what_else") for n in NO[lang])]:
        talk = SetupDialogue(lang, never_wrong)
        talk.hear("Pantone")
        talk.hear("Anna, Ben und Cem" if lang == "de" else "Anna, Ben and Cem")
        reply = talk.hear(said)
        assert reply.key == key, said
        assert (reply.start is not None) == (key == "starting"), said


def test_a_yes_with_more_in_it_is_not_a_plain_yes():
    talk = SetupDialogue("de", never_wrong)
    assert talk.hear("ja, Pantone").key == "ask_players"  # the game is taken, not a "yes"


def test_a_name_that_is_a_command_is_said_back_before_the_game_is_known():
    from voice.session.player_names import command_name_problem

    talk = SetupDialogue("de", never_wrong, names=command_name_problem)
    reply = talk.hear("wir sind Pause, Ben und Cem")
    assert reply.key == "cannot" and "Pause" in str(reply.data["problem"])
    assert talk.plan.players == ()
    talk.hear("wir sind Paula, Ben und Cem")
    assert talk.plan.players == ("Paula", "Ben", "Cem")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_any_typed_line_is_an_answer_or_a_short_repeat_never_a_crash(lang):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(st.text(max_size=80))
    def check(line):
        talk = SetupDialogue(lang, never_wrong)
        reply = talk.hear(line)
        assert reply.start is None  # nothing starts from one line
        talk.hear("Pantone")
        talk.hear(line)

    check()
    assert understand("²³ ٣ minuten zeitlimit " + "9" * 40 + " sekunden", lang).options in (
        {},
        {"--time-limit": ("farben", "60")},
    )


def test_teams_said_in_words_are_said_back_in_words_and_start_the_team_game(tmp_path):
    script = tmp_path / "teams.script"
    script.write_text("in teams: Anna and Cem against Ben and Dana\nyes\n", encoding="utf-8")
    run = run_cli("play", "--lang", "en", "--seed", "1", "--script", str(script), "--json")
    assert run.code == 0, run.err
    assert "in teams: Anna and Cem against Ben and Dana. Shall we start?" in run.out
    assert '"type": "team", "player": "Team A", "members": ["Anna", "Cem"]' in run.out


# --- a new name spelled (issue 29, item 2): letters said one at a time, "fertig" ends


@pytest.mark.parametrize(
    ("lang", "said", "name"),
    [
        ("de", ["buchstabieren", "M wie Martha", "I", "A", "fertig"], "Mia"),
        ("de", ["ich buchstabiere", "Jot", "Ulrich", "R wie Richard", "ih", "ok, fertig"], "Juri"),
        ("en", ["let me spell it", "Z for Zulu", "oh", "ee", "done"], "Zoe"),
        ("en", ["spell", "double you", "india", "L", "L", "that's it"], "Will"),
        ("de", ["neuer Name", "M I A", "fertig"], "Mia"),  # typed: any run of letters
    ],
)
def test_a_name_nobody_knows_is_spelled_and_joins_the_players(lang, said, name):
    talk = SetupDialogue(lang, never_wrong)
    talk.hear("Pantone")
    talk.hear("Anna")
    assert talk.hear(said[0]).key == "spell_start"
    replies = [talk.hear(text) for text in said[1:]]
    assert all(r.key == "spelled" for r in replies[:-1])
    assert replies[-1].key == "name_spelled" and replies[-1].data["name"] == name
    assert replies[-1].data["next"] == "confirm"
    assert talk.plan.players == ("Anna", name) and not talk.spelling


def test_spelling_says_each_letter_back_and_back_takes_the_last_one_away():
    talk = SetupDialogue("de", never_wrong)
    talk.hear("Alle meine Farben")
    talk.hear("buchstabieren")
    assert talk.hear("be").data["letters"] == "B"  # said back: a misheard letter shows
    assert talk.hear("nein").key == "spell_none_yet"
    assert talk.hear("D wie Dora").data["letters"] == "D"
    assert talk.hear("Emil").data["letters"] == "E"
    assert talk.hear("zurück").data == {"letters": "D"}
    talk.hear("A")
    assert talk.hear("wie geht das").key == "spell_help"
    assert talk.hear("hm, Pantone").key == "spell_again"  # no letter: nothing added
    reply = talk.hear("fertig")
    assert reply.data["name"] == "Da" and talk.plan.players == ("Da",)
    assert reply.data["next"] == "confirm"


def test_spelling_can_be_cancelled_and_an_empty_spelling_adds_nobody():
    talk = SetupDialogue("en", never_wrong)
    talk.hear("Pantone")
    talk.hear("spell")
    talk.hear("bravo")
    reply = talk.hear("never mind")
    assert reply.key == "spell_cancelled" and reply.data["next"] == "ask_players"
    assert talk.plan.players == () and not talk.spelling
    talk.hear("spell")
    assert talk.hear("done").key == "spell_cancelled" and talk.plan.players == ()


def test_a_spelled_name_that_is_a_command_is_refused_and_the_players_stay():
    from voice.session.player_names import command_name_problem

    talk = SetupDialogue("de", never_wrong, names=command_name_problem)
    talk.hear("buchstabieren")
    for letter in "PAUSE":
        talk.hear(letter)
    reply = talk.hear("fertig")
    assert reply.key == "cannot" and "Pause" in str(reply.data["problem"])
    assert talk.plan.players == () and not talk.spelling


def test_a_spelled_name_never_turns_into_a_remembered_player_it_sounds_like():
    from voice.setup.dialogue import Remembered

    talk = SetupDialogue("de", never_wrong, known=Remembered(players=("Anna",)))
    talk.hear("Farben")
    talk.hear("buchstabieren")
    for letter in "ANA":
        talk.hear(letter)
    talk.hear("fertig")
    assert talk.plan.players == ("Ana",)


def test_too_few_players_are_kept_and_the_next_names_join_them():
    from voice.setup.dialogue import TooFew

    def two_or_more(argv):
        count = len(argv[argv.index("--players") + 1].split(","))
        return TooFew(2 - count) if count < 2 else None

    talk = SetupDialogue("en", two_or_more)
    talk.hear("Pantone")
    reply = talk.hear("I am Sam")
    assert reply.key == "more_players" and talk.plan.players == ("Sam",)
    assert talk.hear("yes").key == "more_players"  # nothing starts with one player
    assert talk.hear("").key == "more_players_again"
    assert talk.hear("Jo").key == "confirm"  # Jo joins Sam
    assert talk.plan.players == ("Sam", "Jo")
    assert talk.hear("yes").start == ["pantone", "--lang", "en", "--players", "Sam,Jo"]


def test_a_game_that_needs_more_players_says_so_through_the_command_line_check(tmp_path):
    script = tmp_path / "more.script"
    script.write_text("Pantone\nich bin Mia\nBen\nja\n", encoding="utf-8")
    run = run_cli("play", "--lang", "de", "--script", str(script))
    assert run.code == 0, run.err
    assert "Pantone mit Mia. Wer spielt noch mit?" in run.out
    assert "Pantone mit Mia und Ben. Sollen wir anfangen?" in run.out


def test_another_game_heard_once_one_is_chosen_must_be_heard_clearly():
    """Noise must never change a set-up: "Farben" heard at 0.3 while the players are asked
    for Alle meine Farben is asked again; a new game said clearly is taken."""
    from voice.recognition.base import Thresholds, Transcript
    from voice.setup.listening import accepted

    class Engine:
        thresholds = Thresholds()

    talk = SetupDialogue("de", never_wrong)
    assert not talk.changes_game("Farben")  # nothing chosen yet: an ordinary answer
    talk.hear("Alle meine Farben")
    assert talk.changes_game("Farben") and not talk.changes_game("wir sind Anna und Ben")
    unsure, clear = Transcript("farben", 0.3), Transcript("farben", 0.9)
    assert accepted(unsure, Engine(), "de", talk.changes_game) is None
    assert accepted(clear, Engine(), "de", talk.changes_game) == "farben"
    assert accepted(Transcript("wir sind anna und ben", 0.3), Engine(), "de",
                    talk.changes_game) == "wir sind anna und ben"  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "said"),
    [("de", "Wo ist das Auto?"), ("de", "Welche Farbe hat Ben?"), ("en", "Where's the Cup?")],
)
def test_a_question_at_the_table_never_renames_the_players(lang, said):
    """Asked "shall we start?", a question about the game ("Wo ist das Auto?") names no
    players: German nouns are capitalised, and a question word is no name."""
    talk = SetupDialogue(lang, never_wrong)
    talk.hear("Alle meine Farben")
    talk.hear("Anna und Ben" if lang == "de" else "Anna and Ben")
    talk.hear(said)
    assert talk.plan.players == ("Anna", "Ben")
