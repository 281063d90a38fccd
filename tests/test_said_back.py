"""Implicit confirmation (issue 25, item 1): a move that is cheap to take back and fairly
sure is made at once and said back; "nein" / "no" right after takes it back and asks for it
again; "nein, doch gelb" right after changes it without a question. Moves that cannot be
taken back cheaply (a Pantone guess, a Farben answer that scores) are said back and held
a moment before they count: "nein" in that moment drops them, "ja" or anything else said
lets them count, and the game's timers stand still meanwhile. A really unsure move is asked
first everywhere."""

from __future__ import annotations

from pathlib import Path

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.session.adapters import adapter_for
from voice.session.core import HOLD_SECONDS
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


def pantone_guess(lang: str = "de") -> tuple[Session, RecordingOutput]:
    """A Pantone game where Ben is asked for his guess (Anna painted card 12)."""
    adapter = adapter_for("pantone")
    out = RecordingOutput()
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options=adapter.default_options(lang))
    session = Session(adapter, lang, setup, out)
    session.start()
    for line in ["Anna", "12", "fertig"]:
        session.hear(line)
    return session, out


def test_a_guess_heard_fairly_sure_is_said_back_and_counts_a_moment_later():
    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", FAIRLY_SURE)
    assert len(session.actions) == made  # not judged yet
    assert out.said[-1] == "Ben rät Rotkäppchen."
    assert session.awaiting is None  # no question: nobody has to say "ja"
    session.tick(HOLD_SECONDS - 0.5)
    assert len(session.actions) == made
    session.tick(HOLD_SECONDS + 0.1)
    assert session.actions[-1].args.get("text") == "rotkäppchen"
    assert not any("richtig?" in line for line in out.said)


def test_nein_in_that_moment_drops_the_guess_and_the_guess_window_has_not_run():
    session, out = pantone_guess()
    made = len(session.actions)
    left = session.seconds_to_next_timer()
    assert left == 5.0  # Ben's guess window runs
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.tick(2.0)
    session.hear("nein")
    assert len(session.actions) == made
    assert out.said[-2] == "Gut, dann nicht."
    assert "Ben" in out.said[-1]  # asked for the guess again
    assert session.seconds_to_next_timer() == left  # the two seconds of the hold were not his
    session.tick(60.0)  # nothing held any more: nothing counts later
    assert not any(a.args.get("text") == "rotkäppchen" for a in session.actions)


def test_ja_lets_the_held_guess_count_at_once_and_anything_else_lets_it_count_first():
    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear("ja")
    assert len(session.actions) == made + 1
    session, out = pantone_guess()
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear("wie steht's")  # the guess counts, then the question is answered
    assert session.actions[-1].args.get("text") == "rotkäppchen"
    assert "Punkte" in out.said[-1] or "Punkt" in out.said[-1]


def test_a_really_unsure_guess_is_still_asked_first():
    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", REALLY_UNSURE)
    assert len(session.actions) == made
    assert out.said[-1] == "Ben rät Rotkäppchen – richtig?"
    assert session.dialogue.held is None


def test_a_farben_answer_held_is_changed_by_nein_with_a_colour():
    from voice.bench.reference import ReferencePlay

    ref = ReferencePlay("farben", "de", 1)
    step = next(s for s in ref.plan() if s.intended.name == "name")
    out = RecordingOutput()
    session = ref.session_at(step.before, out)
    player = step.intended.args["player"]
    session.hear(f"{player} bunt", FAIRLY_SURE)
    assert out.said[-1] == f"{player} nennt bunt für {player}."
    session.hear("nein, blau")  # held again with the colour meant, nothing scored yet
    assert len(session.actions) == step.before
    assert out.said[-1] == f"{player} nennt blau für {player}."
    session.tick(session.timers.now + HOLD_SECONDS + 0.1)
    assert session.actions[-1].args == {"player": player, "colour": "blue"}


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


def test_a_guess_held_at_the_end_of_the_window_counts_and_time_is_not_up():
    session, out = pantone_guess()
    session.tick(4.5)  # half a second of Ben's five left
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.tick(6.0)  # the window would be over by now: it stands still while held
    assert not any("Zeit" in line for line in out.said[-2:])
    session.tick(4.5 + HOLD_SECONDS + 0.1)
    assert session.actions[-1].args.get("text") == "rotkäppchen"
    assert session.actions[-1].name != "timer"


def test_while_a_guess_is_held_only_yes_no_and_the_always_commands_are_listened_for():
    session, out = pantone_guess()
    guessing = session.phase().intents
    session.hear("Rotkäppchen", FAIRLY_SURE)
    held = session.phase().intents
    assert {"affirm", "deny"} <= held and "help" in held
    assert "guess" in guessing and "guess" not in held  # "nein" is not lost among names
    assert "Rotkäppchen".lower() not in " ".join(session.phrases())


def test_something_unclear_said_against_a_held_guess_asks_about_it():
    from voice.recognition.base import Transcript

    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear_speech(Transcript("nein", 0.4))  # half heard: no reason to let it pass
    assert len(session.actions) == made
    assert out.said[-1] == "Ben rät Rotkäppchen – richtig?"
    session.tick(HOLD_SECONDS + 1)  # no longer held: nothing counts by itself
    assert len(session.actions) == made
    session.hear("nein")
    assert len(session.actions) == made


def test_a_no_heard_unsure_still_drops_a_held_guess_and_one_heard_at_nothing_asks():
    from voice.recognition.base import Transcript

    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear_speech(Transcript("nein", 0.2))  # too unsure for anything but this
    assert session.dialogue.held is None and len(session.actions) == made
    assert out.said[-2] == "Gut, dann nicht."
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear_speech(Transcript("nein", 0.02))  # a sound forced into "nein": maybe a no
    assert session.dialogue.held is None and out.said[-1] == "Ben rät Rotkäppchen – richtig?"
    session.tick(HOLD_SECONDS + 0.1)  # asked now: nothing counts by itself
    assert len(session.actions) == made


def test_only_silence_lets_a_held_guess_count_in_a_noisy_room():
    from voice.recognition.base import Transcript

    session, out = pantone_guess()
    made = len(session.actions)
    session.hear("Rotkäppchen", FAIRLY_SURE)
    session.hear_speech(Transcript("wie steht's", 0.0))  # chatter or a lost "no"
    assert out.said[-1] == "Ben rät Rotkäppchen – richtig?"
    session.hear("ja")
    assert len(session.actions) == made + 1
