# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""Secrets go only to their owner (issue 13, item 3), and the Pantone board by voice
(issue 16, item 4)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli, write_script


def _all_output(tmp_path: Path, lines: list[str], *extra: str) -> str:
    """Everything a shared terminal would show: stdout and stderr together."""
    script = write_script(tmp_path / "game.script", lines)
    command = [sys.executable, "-m", "voice", "play", "pantone", "--players", "Anna,Ben,Cem",
               "--first", "Anna", "--script", str(script), "--json", "--voice", "none", *extra]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout + run.stderr


def test_the_probe_never_shows_the_character_on_the_shared_terminal(tmp_path: Path) -> None:
    out = _all_output(tmp_path, ["card 1", "help", "repeat", "my card", "done"])
    assert "Potato" not in out
    # with the printed deck the Artist knows the card: nothing secret needs saying
    assert "private channel" not in out


def test_dealt_cards_without_a_private_channel_say_how_to_get_one(tmp_path: Path) -> None:
    out = _all_output(tmp_path, ["my cards"], "--cards", "deal", "--seed", "3")
    said = [json.loads(x)["text"] for x in out.splitlines() if x.startswith('{"type": "say"')]
    assert any("--private page" in s for s in said)
    assert sum("--private page" in s for s in said) == 1  # the long form once, then short
    assert "there is still no private channel" in " ".join(said)
    from voice.session.adapters.pantone import builtin_deck

    for card in builtin_deck("en"):
        assert f" {card.name}" not in out and f'"{card.name}' not in out


def test_the_shared_screen_is_refused_as_a_private_channel() -> None:
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--private", "stderr")
    assert run.code == 2 and "shared screen" in run.err


def test_private_pages_refuse_an_address_phones_cannot_reach(tmp_path: Path) -> None:
    save = tmp_path / "g.jsonl"
    for host in ("127.0.0.1", "8.8.8.8"):
        run = run_cli("play", "pantone", "--players", "Anna,Ben,Cem", "--cards", "deal",
                      "--private", "page", "--host", host, "--save", str(save), "--port", "0")  # fmt: skip
        assert run.code != 0 and f"phones cannot open --host {host}" in run.err
        assert "http://" not in run.err and "Traceback" not in run.err
        assert not save.exists() and not (tmp_path / "g.jsonl.phones.json").exists()


def test_the_board_is_told_asked_for_and_never_made_up(tmp_path: Path) -> None:
    lines = [
        "card 1", "what's on the board?",
        "on the board: two yellow at the top, black in the middle",
        "done", "what's on the board?",
    ]  # fmt: skip
    out = _all_output(tmp_path, lines)
    said = [json.loads(x)["text"] for x in out.splitlines() if x.startswith('{"type": "say"')]
    assert "Nobody has told me yet what is on the board." in " ".join(said)
    told = "2 yellow at the top and black in the middle"
    assert f"Noted, on the board: {told}." in said
    assert f"On the board, as you told me: {told}." in said


def test_the_board_in_german_in_free_order_and_in_parts(tmp_path: Path) -> None:
    """The Artist tells the board as they lay it: each part adds to what lies there, a
    colour at a place said again takes its new count, and undo takes back one part."""
    script = write_script(
        tmp_path / "de.script",
        ["Karte 1", "oben zweimal gelb, in der Mitte schwarz", "links oben rot und unten zwei blau",
         "Was liegt auf dem Bild?", "unten drei blau", "Was liegt auf dem Bild?",
         "rückgängig", "ja", "Was liegt auf dem Bild?"],
    )  # fmt: skip
    run = run_cli("play", "pantone", "--lang", "de", "--players", "Anna,Ben", "--first", "Anna",
                  "--script", str(script), "--json", "--voice", "none")  # fmt: skip
    assert run.code == 0, run.err
    assert "Notiert, auf dem Bild: oben 2-mal Gelb und in der Mitte Schwarz." in run.said
    assert "Soll ich das zurücknehmen: „unten 3-mal Blau“ auf dem Bild? Ja oder nein?" in run.said
    asked = [s for s in run.said if s.startswith("Auf dem Bild, wie ihr es mir gesagt habt:")]
    first = "oben 2-mal Gelb, in der Mitte Schwarz, oben links Rot und unten"
    assert asked == [
        f"Auf dem Bild, wie ihr es mir gesagt habt: {first} 2-mal Blau.",
        f"Auf dem Bild, wie ihr es mir gesagt habt: {first} 3-mal Blau.",
        f"Auf dem Bild, wie ihr es mir gesagt habt: {first} 2-mal Blau.",
    ]


def test_the_board_is_undone_and_forgotten_for_the_next_artist() -> None:
    from games.engine import Action, NotNow, Setup
    from voice.session.adapters import ADAPTERS

    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben", "Cem"), 1, "Anna", adapter.default_options("en"))
    game = adapter.create(setup)
    game.start()
    item = {"colour": "red", "count": 1, "place": "top"}
    try:
        game.apply(Action("board", {"items": [item]}))
        raise AssertionError("a board before painting was accepted")
    except NotNow as exc:
        assert exc.key == "board_too_early"
    game.apply(Action("choose", {"card": 1}))
    game.apply(Action("board", {"items": [item]}))
    assert game.snapshot()["board"] == [item]
    game.apply(Action("done"))
    game.apply(Action("guess", {"text": "Mr. Potato Head"}))
    assert game.artist == "Ben" and game.snapshot()["board"] == []


def test_play_with_display_says_the_address(tmp_path: Path) -> None:
    out = _all_output(tmp_path, ["card 1"], "--display", "--save", str(tmp_path / "d.jsonl"),
                      "--port", "0")  # fmt: skip
    assert "farbspiel: Table view: http://127.0.0.1:" in out
    assert "only this computer can open it" in out
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--display", "--script",
                  str(write_script(tmp_path / "e.script", [])))  # fmt: skip
    assert run.code == 2 and "--save" in run.err


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [
        ("en", "what's on the board", "board_query"),
        ("en", "what is in the picture", "board_query"),
        ("en", "describe the board", "board_query"),
        ("de", "was liegt auf dem Bild", "board_query"),
        ("de", "Was ist auf dem Bild?", "board_query"),
        ("de", "beschreib das Bild", "board_query"),
        ("en", "on the board yellow at the top", "board"),
        ("en", "board: red on the left and then blue at the bottom right", "board"),
        ("en", "yellow", None),
        ("en", "is it the yellow submarine", None),
        ("de", "oben links rot", "board"),
        ("de", "in der Mitte dreimal schwarz und rechts lila", "board"),
        ("de", "gelb", None),
    ],
)
def test_board_sentences(lang: str, text: str, intent: str | None) -> None:
    from games.engine import Setup
    from voice.session.adapters import ADAPTERS
    from voice.understanding.grammar import Grammar

    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben"), options=adapter.default_options(lang))
    parser = adapter.parser(Grammar(lang, "pantone", adapter.dynamic_lists(setup, lang)), setup)
    allowed = {"board", "board_query", "guess", "pass", "hints", "time_left", "phase_info"}
    found = parser.parse(text, allowed)
    if intent is None:  # a colour alone, or a guess: never a board description
        assert found is None or found.name not in ("board", "board_query"), found
    else:
        assert found is not None and found.name == intent, found


def _board_parser(lang: str) -> Any:
    from games.engine import Setup
    from voice.session.adapters import ADAPTERS
    from voice.understanding.grammar import Grammar

    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben"), options=adapter.default_options(lang))
    return adapter.parser(Grammar(lang, "pantone", adapter.dynamic_lists(setup, lang)), setup)


PAINTING = frozenset({"board", "board_query", "done", "time_left", "undo", "phase_info"})
GUESSING = PAINTING | {"guess", "pass", "hints", "thinking"}


@pytest.mark.parametrize(
    ("lang", "text", "items"),
    [
        # what a swatch stands for, said after it, is no part of the board
        ("en", "Two yellow at the top, for the hair.", [("yellow", 2, "top")]),
        ("en", "I'm laying three brown ones at the bottom, like, um, like a floor.",
         [("brown", 3, "bottom")]),
        ("de", "Vier grüne ganz unten hin, als Wiese sozusagen.", [("green", 4, "bottom")]),
        # a place said first for the colours after it, more than once
        ("en", "Middle: one yellow. Top: two blue.", [("yellow", 1, "middle"), ("blue", 2, "top")]),
        ("de", "Mitte: drei rosa. Unten: eine braune.", [("pink", 3, "middle"), ("brown", 1, "bottom")]),
        # a colour taken back keeps its place; a place taken back keeps its colour
        ("en", "Left side, one pink, ugh, no, make that purple.", [("purple", 1, "left")]),
        ("en", "A pink one on the left... no wait, purple. A purple one on the left.",
         [("purple", 1, "left")]),
        ("de", "Eine rosa rechts, äh nee, lila. Eine lila rechts.", [("purple", 1, "right")]),
        ("en", "Okay, a brown one up top... no, at the bottom.", [("brown", 1, "bottom")]),
        ("en", "one black at the bottom... no, make that two black", [("black", 2, "bottom")]),
        # said again to confirm: once on the board
        ("de", "Eine bunte in die Mitte. Die bunte, ja.", [("multicoloured", 1, "middle")]),
        # never a card number or a yes
        ("en", "Grey in the middle, just the one.", [("grey", 1, "middle")]),
        ("en", "Okay, two yellow ones up top.", [("yellow", 2, "top")]),
    ],
)  # fmt: skip
def test_the_artist_tells_the_board_in_their_own_words(
    lang: str, text: str, items: list[tuple[str, int, str]]
) -> None:
    found = _board_parser(lang).parse(text, PAINTING)
    assert found is not None and found.name == "board", found
    told = [(i["colour"], i["count"], i["place"]) for i in found.slots["items"]]
    assert told == items


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "three blue at the bottom, that's a dress"),
        # a guesser reading the board aloud tells nothing new: only the Artist says why
        ("en", "Two yellow at the top, like hair."),
        ("de", "Zwei gelbe oben, wie Haare."),
    ],
)
def test_a_remark_about_the_board_is_not_a_board(lang: str, text: str) -> None:
    found = _board_parser(lang).parse(text, GUESSING)
    assert found is None or found.name != "board", found


@pytest.mark.parametrize(
    ("lang", "text"),
    [("de", "Hmm, die weiße nach unten oder... nee, warte, ich guck nochmal auf die Karte."),
     ("en", "Hmm, do I put the blue at the bottom or... no, hang on, let me look at the card.")],
)  # fmt: skip
def test_the_artist_still_weighing_puts_nothing_on_the_board(lang: str, text: str) -> None:
    found = _board_parser(lang).parse(text, PAINTING)
    assert found is None or found.name != "board", found


def test_a_question_about_two_colours_keeps_only_the_colour_asked_about() -> None:
    """ "Is the one on the left grey or white?" is asked about grey; the second colour and
    the place are said, never kept as values of the question."""
    found = _board_parser("en").parse("is the one on the left grey or white?", GUESSING)
    assert found is not None and (found.name, found.slots) == ("board_query", {"colour": "grey"})


def _deal_session(lang: str, private: Any) -> tuple[Any, io.StringIO]:
    from games.engine import Setup
    from voice.output.sinks import JsonOutput
    from voice.session.adapters import ADAPTERS
    from voice.session.session import Session

    adapter = ADAPTERS["pantone"]
    options = {**adapter.default_options(lang), "cards": "deal"}
    stream = io.StringIO()
    setup = Setup(("Anna", "Ben", "Cem"), 4, "Anna", options)
    session = Session(adapter, lang, setup, JsonOutput(stream), private=private)
    session.start()
    return session, stream


DEAL_WORDS = {
    "en": (
        "discard card {n}",
        "privately",
        "I could not tell you your cards, so I won't take a card number",
    ),
    "de": (
        "Karte {n} ablegen",
        "unter vier Augen",
        "ich konnte dir deine Karten nicht sagen, also nehme ich keine Kartennummer an",
    ),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_deal_mode_without_a_private_channel_says_one_thing_and_takes_no_dealt_number(
    lang: str,
) -> None:
    discard, promise, refusal = DEAL_WORDS[lang]
    session, stream = _deal_session(lang, None)
    hand = list(session.game.hands["Anna"])
    session.hear(discard.format(n=hand[0]))
    said = [json.loads(x)["text"] for x in stream.getvalue().splitlines() if '"say"' in x]
    # no promise to tell the cards privately next to "there is no private channel"
    promising = [s for s in said if promise in s and "--private" not in s]
    assert promising == [], promising
    assert sum("--private page" in s for s in said) == 2  # how to get one; then the refusal
    assert refusal in said[-1]
    assert session.game.hands["Anna"] == hand  # nothing discarded
    # with a private channel the Artist names the card by its place in the hand they were
    # told; a deck number said aloud would give the character away, so it is refused
    from voice.output.sinks import RecordingOutput

    session, stream = _deal_session(lang, RecordingOutput())
    session.hear(discard.format(n=hand[0]))
    assert session.game.hands["Anna"] == hand
    said = [json.loads(x)["text"] for x in stream.getvalue().splitlines() if '"say"' in x]
    assert ("my second card" if lang == "en" else "die zweite Karte") in said[-1]
    session.hear("discard my first card" if lang == "en" else "die erste Karte ablegen")
    assert session.game.hands["Anna"] == hand[1:]
