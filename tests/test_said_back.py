"""Implicit confirmation (issue 25, item 1): a move that is cheap to take back and fairly
sure is made at once and said back; "nein" / "no" right after takes it back and asks for it
again; "nein, doch gelb" right after changes it without a question. Moves that cannot be
taken back cheaply (a Pantone guess, a Farben answer that scores) are still asked first,
and a really unsure move is asked first everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.session.adapters import adapter_for
from voice.session.journal import Header, Journal, read
from voice.session.session import Session

FAIRLY_SURE = 0.6
REALLY_UNSURE = 0.3


def amf(lang: str = "de", save: Path | None = None) -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    setup = Setup(("Anna", "Ben"), seed=1)
    adapter = adapter_for("alle-meine-farben")
    journal = Journal.create(save, Header(adapter.game_id, lang, setup)) if save else None
    session = Session(adapter, lang, setup, out, journal=journal)
    session.start()
    session.hear("Anna")
    return session, out


def colours(session: Session) -> list[str | None]:
    return [a.args.get("colour") for a in session.actions]


def test_a_fairly_sure_move_is_made_at_once_and_said_back():
    session, out = amf()
    session.hear("lila", FAIRLY_SURE)
    assert colours(session) == [None, "purple"]
    assert out.said[-2].startswith("Der Ball ist jetzt lila")
    assert not any("richtig?" in line for line in out.said)
    assert session.awaiting is None


def test_nein_right_after_takes_it_back_and_asks_again(tmp_path):
    save = tmp_path / "game.jsonl"
    session, out = amf(save=save)
    session.hear("lila", FAIRLY_SURE)
    session.hear("nein")
    assert colours(session) == [None]
    assert out.said[-4:] == [
        "Gut, zurückgenommen: Anna malt den Ball lila an.",
        "Anna, lege die gezogene Karte zurück auf den Stapel.",  # the real table follows
        "Anna, nimm deine Karte vom Ball wieder auf die Hand.",
        "Anna, Nummer 1: der Ball, Reihe 1, Spalte 1.",  # asked for the ball again
    ]
    session.hear("gelb")
    assert colours(session) == [None, "yellow"]
    assert [a.args.get("colour") for a in read(save).actions] == [None, "yellow"]


def test_nein_doch_gelb_right_after_changes_it_without_a_question():
    session, out = amf()
    session.hear("lila", FAIRLY_SURE)
    session.hear("nein, doch gelb", FAIRLY_SURE)
    assert colours(session) == [None, "yellow"]
    assert session.awaiting is None
    assert out.said[-3:-1] == [
        "Geändert: Anna malt den Ball gelb an.",
        "Anna, nimm deine Karte Lila vom Ball wieder auf und lege stattdessen deine Karte Gelb "
        "auf den Ball.",
    ]
    session.hear("nein")  # and that one may be taken back in turn
    assert colours(session) == [None]


def test_no_in_english_takes_it_back_too():
    session, out = amf("en")
    session.hear("purple", FAIRLY_SURE)
    session.hear("no")
    assert colours(session) == [None]
    assert "Okay, taken back: Anna colours the ball purple." in out.said[-4:]


def test_once_something_else_was_said_nein_takes_nothing_back():
    session, out = amf()
    session.hear("lila", FAIRLY_SURE)
    session.hear("wer ist dran?")
    session.hear("nein")
    assert colours(session) == [None, "purple"]
    assert out.said[-1] == "Es gibt gerade nichts zu bestätigen."


def test_ja_to_what_was_said_back_lets_it_stand_quietly():
    session, out = amf()
    session.hear("lila", FAIRLY_SURE)
    said = len(out.said)
    session.hear("ja")
    assert colours(session) == [None, "purple"] and len(out.said) == said


def test_a_sure_move_is_not_taken_back_by_a_later_nein():
    session, out = amf()
    session.hear("lila")  # typed, sure: made, and a "nein" is no answer to anything
    session.hear("nein")
    assert colours(session) == [None, "purple"]
    assert out.said[-1] == "Es gibt gerade nichts zu bestätigen."


def test_a_really_unsure_move_is_still_asked_first():
    session, out = amf()
    session.hear("lila", REALLY_UNSURE)
    assert colours(session) == [None]
    assert out.said[-1] == "Anna malt den Ball lila an – richtig?"


@pytest.mark.parametrize(
    ("game", "players", "lines", "unsure"),
    [
        ("pantone", ("Anna", "Ben", "Cem"), ["Anna", "12", "fertig"], "Rotkäppchen"),
    ],
)
def test_moves_that_cannot_be_taken_back_cheaply_are_asked_first(game, players, lines, unsure):
    adapter = adapter_for(game)
    out = RecordingOutput()
    setup = Setup(players, seed=3, options=adapter.default_options("de"))
    session = Session(adapter, "de", setup, out)
    session.start()
    for line in lines:
        session.hear(line)
    made = len(session.actions)
    session.hear(unsure, FAIRLY_SURE)
    assert len(session.actions) == made
    assert out.said[-1].endswith("richtig?")


def test_the_artists_card_number_is_said_back_and_nein_takes_it_back():
    adapter = adapter_for("pantone")
    out = RecordingOutput()
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options=adapter.default_options("de"))
    session = Session(adapter, "de", setup, out)
    session.start()
    session.hear("Anna")
    made = len(session.actions)
    session.hear("Karte zwölf", FAIRLY_SURE)
    assert len(session.actions) == made + 1 and "Karte 12." in out.said[-2:]
    session.hear("nein")
    assert len(session.actions) == made
    assert "Gut, zurückgenommen: Anna wählt Karte 12." in out.said[-4:]
    session.hear("Karte 13")
    assert session.actions[-1].args == {"card": 13}
