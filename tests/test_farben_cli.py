"""Farben on the command line: options, quiet stories, refusals, saving and resuming."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import run_cli, write_script

WORDS = (
    "School/Holiday,Childhood/Winter,Grandmother/Kitchen,Success/Monday,Summer/Fear,"
    "Love/Forest,Music/Hospital,Birthday/Sunday,Sea/Exam,Friendship/Autumn"
)
PLAY = ["play", "farben", "--players", "Anna,Ben,Cem", "--seed", "1", "--json"]


def rounds(colours: list[list[str]]) -> list[str]:
    """Script lines for whole rounds: first side, ready, then per teller colour + done."""
    lines = []
    for per_round in colours:
        lines += ["the first one", "ready"]
        for colour in per_round:
            lines += [colour, "done"]
    return lines


# Ben starts; tellers of round r: the two players left of the starter, then the starter.
TEN_ROUNDS = rounds([[c, c, c] for c in ("red", "orange", "yellow", "green", "blue",
                                         "purple", "pink", "white", "black", "grey")])  # fmt: skip


def test_english_is_the_default_language(tmp_path: Path) -> None:
    run = run_cli(*PLAY, "--words", WORDS, "--script", str(write_script(tmp_path / "s", [])))
    assert run.code == 0, run.err
    assert run.said[0].startswith("Farben with Anna, Ben and Cem")
    assert "most colourfully dressed" in run.said[1]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("", "empty card"),
        ("School/Holiday,,Sea/Exam", "empty card"),
        ("School", "needs two sides"),
        ("School/Holiday/Summer", "needs two sides"),
        ("School/", "needs two sides"),
        (",".join(f"A{i}/B{i}" for i in range(11)), "11 cards, but a game uses only 10"),
        ("School/Holiday,Sea/school", "on card 1 and on card 2"),
        ("School/" + "x" * 41, "too long"),
        ("School/[Holiday]", "not a word farbspiel can say"),
        ("School/42", "not a word farbspiel can say"),
        ("School/Ready", "“Ready” could not be chosen by voice"),
        ("Red/Holiday", "“Red” could not be chosen by voice: said alone it is a colour"),
        ("School/Rainbow", "is a colour"),
        ("School/Ben", "is the player Ben"),
        ("Help/School", "the command “help”"),
    ],
)
def test_bad_word_cards_are_refused_clearly(words: str, message: str) -> None:
    run = run_cli(*PLAY, "--words", words)
    assert run.code == 2
    assert message in run.err and "Traceback" not in run.err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "abc",
            "--time-limit wants whole seconds from 10 to 3600, like --time-limit 90 (not “abc”)",
        ),
        ("5", "the time limit must be 10 to 3600 seconds, not 5"),
        ("99999", "the time limit must be 10 to 3600 seconds, not 99999"),
        ("-30", "the time limit must be 10 to 3600 seconds, not -30"),
    ],
)
def test_bad_time_limits_are_refused_clearly(value: str, message: str) -> None:
    """A value that is no number is the command line's to explain; a number out of range
    is the engine's rule, said the same way as for a save file."""
    run = run_cli(*PLAY, "--time-limit", value)
    assert run.code == 2
    assert message in run.err and "Traceback" not in run.err


@pytest.mark.parametrize("players", ["Anna,Ben", "Anna,Ben,Cem,Dana,Emil,Fritz"])
def test_three_to_five_players(players: str) -> None:
    run = run_cli("play", "farben", "--players", players, "--json")
    assert run.code == 2 and "farben needs 3 to 5 players" in run.err


def test_german_words_and_quotes(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s", ["Ben ist am buntesten angezogen"])
    run = run_cli(*PLAY, "--lang", "de", "--words", "Schule/Urlaub", "--script", str(script))
    assert run.code == 0, run.err
    assert "Runde 1 von 10. Ben, auf deiner Wortkarte steht „Schule“ oder „Urlaub“." in run.said[3]


def test_stories_and_hint_words_are_heard_in_silence(tmp_path: Path) -> None:
    story = [
        "When I was little we spent every winter at my grandmother's",
        "purple",  # a colour said inside a story is not a move
        "Anna",
        "and that's why",
        "x" * 400,
    ]
    lines = ["Ben is the most colourfully dressed", "School", "ready", "purple"] + story
    lines += ["done", "hmm let me think about it"]
    run = run_cli(*PLAY, "--words", WORDS, "--script", str(write_script(tmp_path / "s", lines)))
    events = run.events
    ignored = [e["text"] for e in events if e["type"] == "ignored"]
    assert ignored == story[:4] + ["x" * 300]
    reveal = next(i for i, e in enumerate(events) if e["type"] == "colour_told")
    done = next(i for i, e in enumerate(events) if e["type"] == "tell" and i > reveal)
    # between the colour and the next player's turn nothing is said (the say of an event
    # comes just before its record)
    assert [e for e in events[reveal + 1 : done - 1] if e["type"] == "say"] == []
    # outside stories, what is not understood gets a helpful answer
    assert events[-2] == {"type": "not_understood", "text": "hmm let me think about it"}
    assert "didn't catch that" in events[-1]["text"]


def test_mine_means_the_namer_and_done_while_choosing_means_ready(tmp_path: Path) -> None:
    lines = ["Ben is the most colourfully dressed", "School", "done"] + TEN_ROUNDS[2:]
    lines += ["School", "mine was red"]  # Ben, the last starting player, names his own card
    run = run_cli(*PLAY, "--words", WORDS, "--script", str(write_script(tmp_path / "s", lines)))
    named = [e for e in run.events if e["type"] == "named"]
    assert named == [
        {
            "type": "named",
            "namer": "Ben",
            "player": "Ben",
            "colour": "red",
            "correct": True,
            "hint": False,
            "own": True,
            "namer_points": 2,
            "owner_points": 0,
            "to_name": ["Cem", "Anna"],
        }
    ]


def test_a_saved_game_resumes_in_the_scoring_phase(tmp_path: Path) -> None:
    head = ["Ben is the most colourfully dressed"] + TEN_ROUNDS + ["School", "Ben played red"]
    tail = ["Cem played red", "mine was blue", "Winter", "Cem orange", "Ben orange"]
    save = tmp_path / "game.jsonl"
    first = run_cli(*PLAY, "--words", WORDS, "--save", str(save),
                    "--script", str(write_script(tmp_path / "a", head)))  # fmt: skip
    assert first.code == 0, first.err
    resumed = run_cli("resume", str(save), "--json",
                      "--script", str(write_script(tmp_path / "b", tail)))  # fmt: skip
    assert resumed.code == 0, resumed.err
    whole = run_cli(*PLAY, "--words", WORDS,
                    "--script", str(write_script(tmp_path / "c", head + tail)))  # fmt: skip

    def named(run):
        return [e for e in run.events if e["type"] in ("named", "stack_done")]

    assert named(first) + named(resumed) == named(whole)
    assert resumed.said[0] == "Picking up the saved game."
    assert resumed.said[1] == "Ben, name the colours on “School”. Still face down: Cem and Anna."
    saved = [json.loads(line) for line in save.read_text(encoding="utf-8").splitlines()]
    assert saved[0]["setup"]["options"]["words"][0] == ["School", "Holiday"]


GOLDEN = Path(__file__).parent / "golden" / "farben"
ENGLISH_COLOURS = re.compile(
    r"\b(red|yellow|green|blue|purple|pink|white|black|grey|brown|multicoloured)\b"
)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*-de.jsonl")), ids=lambda p: p.stem)
def test_german_games_say_colours_in_german(path: Path) -> None:
    said = [json.loads(line).get("text", "") for line in path.read_text("utf-8").splitlines()]
    assert said and not [text for text in said if ENGLISH_COLOURS.search(text)]


def test_every_spoken_line_of_the_golden_games_has_a_template() -> None:
    """No message key is ever missing: a missing one would be silent (no "say"). Events
    are said just before they are recorded; refusals are recorded, then said."""
    for path in GOLDEN.glob("*.jsonl"):
        events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        for i, event in enumerate(events[1:-1], start=1):
            if event["type"] == "refused":
                assert events[i + 1]["type"] == "say", (path.name, event)
            elif event["type"] in SPOKEN_EVENTS:
                assert events[i - 1]["type"] == "say", (path.name, event)


SPOKEN_EVENTS = {
    "card", "word_chosen", "tell", "colour_told", "round_done", "scoring_start", "stack_turn",
    "stack_chosen", "named", "hint_asked", "no_hint", "time_warning", "time_up", "stack_done",
    "unplayed", "game_over", "status", "refused",
}  # fmt: skip


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck": "en", "time_limit": 2}, "the time limit must be 10 to 3600 seconds, not 2"),
        ({"deck": "en", "words": [["School", "school"]]}, "word card 1 has “school” on both sides"),
        (
            {"deck": "en", "words": [["School", "Work"], ["Money", "school"]]},
            "“school” is on card 1 and on card 2; every word may appear only once",
        ),
        ({"deck": "xx"}, "there is no word deck “xx”"),
    ],
)
def test_a_save_file_with_an_impossible_setup_is_refused(tmp_path: Path, options, message) -> None:
    header = {
        "farbspiel": "journal",
        "version": 1,
        "game": "farben",
        "lang": "en",
        "setup": {"players": ["Anna", "Ben", "Cem"], "seed": 1, "first": None, "options": options},
    }
    save = tmp_path / "edited.jsonl"
    save.write_text(json.dumps(header) + "\n", encoding="utf-8")
    before = save.read_bytes()
    run = run_cli("resume", str(save), "--json")
    assert run.code == 1 and "cannot be resumed: " in run.err and message in run.err
    assert "internal error" not in run.err and save.read_bytes() == before


def test_the_namer_can_ask_how_long_is_left_in_a_timed_scoring_turn(tmp_path: Path) -> None:
    """A blind namer cannot see a clock: with --time-limit, "wie lange noch?" says the
    seconds left of the whole turn (across the spoken warnings), in virtual time."""
    golden = Path(__file__).parent / "golden" / "farben" / "rulebook-four-players-de.script"
    lines = golden.read_text(encoding="utf-8").splitlines()
    argv = lines[0].removeprefix("# farbspiel: ").split(" ", 15)
    words = argv[-1].strip('"')
    script = lines[1:112] + [
        "wie viel Zeit habe ich noch",
        "@+20",
        "wie lange noch",
        "@+20",
        "Restzeit",
    ]
    run = run_cli(
        *argv[:-1], words, "--json", "--script", str(write_script(tmp_path / "s", script))
    )
    assert run.code == 0, run.err
    clocks = [e["seconds"] for e in run.events if e["type"] == "clock"]
    assert clocks == [45, 25, 5]
    assert "Eva hat noch 25 Sekunden zum Nennen." in run.said
