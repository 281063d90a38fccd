"""Names matched by sound (voice/understanding/sounds.py): what an open-vocabulary
recogniser writes for a name it does not know.

The heard sentences are real transcripts: wyoming-faster-whisper (tiny.en) hearing
Pantone's names said by espeak-ng (``python -m voice.bench.names_by_sound``); the
benchmark measures the whole set, here are the ones a player would notice."""

from __future__ import annotations

from typing import Any

import pytest
from speech_audio import needs_espeak

from games.engine import Setup
from games.name_match import best_match
from games.pantone_deck import builtin_deck
from voice.bench.names_by_sound import WRONG_GUESSES
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Transcript
from voice.session.adapters import ADAPTERS
from voice.session.adapters.pantone import _others
from voice.session.session import Session
from voice.understanding import sounds

pytestmark = needs_espeak


def _guess_window(lang: str = "en") -> tuple[Session, RecordingOutput]:
    """Anna has laid out card 1; Ben guesses."""
    adapter = ADAPTERS["pantone"]
    out = RecordingOutput()
    session = Session(adapter, lang, Setup(("Anna", "Ben", "Cem"), 3, "Anna",
                                           adapter.default_options(lang)), out)  # fmt: skip
    session.start()
    session.hear("card 1" if lang == "en" else "karte 1")
    session.hear("done" if lang == "en" else "fertig")
    return session, out


def _parsed(session: Session, text: str, heard: bool = True) -> Any:
    phase = session.phase()
    intent = session.parser.parse(text, phase.intents, phase.slots, heard=heard)
    assert intent is not None
    return intent


@pytest.mark.parametrize(
    "heard, name",
    [
        ("Check your cat.", "Cheshire Cat"),
        ("big lit", "Piglet"),
        ("Wrap, unzled.", "Rapunzel"),
        ("Easter money", "Easter Bunny"),
        ("We could witch on the west.", "Wicked Witch of the West"),
        ("Mad Hagger", "Mad Hatter"),
        ("Sure luck, Holmes.", "Sherlock Holmes"),
        ("is it scuba do", "Scooby-Doo"),
        ("I think it's Bippie longs tucking", "Pippi Longstocking"),
    ],
)
def test_a_name_heard_as_words_that_sound_alike_is_found_and_asked_about(heard, name) -> None:
    session, _ = _guess_window()
    intent = _parsed(session, heard)
    assert intent.name == "guess" and intent.slots == {"character": name}
    # found by sound: asked about first ("Did you guess …?"), never taken at once
    thresholds = session.policy.thresholds
    assert thresholds.confirm <= intent.score < thresholds.act


def test_german_names_too() -> None:
    session, _ = _guess_window("de")
    assert _parsed(session, "pipi lang strumpf").slots == {"character": "Pippi Langstrumpf"}


@pytest.mark.parametrize(
    "said, guess",
    [("my grandma", "my grandma"), ("the mailman", "mailman"), ("Ben and Holly.", "Ben and Holly"),
     ("Rubble", "Rubble"), ("Marshall.", "Marshall")],
)  # fmt: skip
def test_a_wrong_guess_said_clearly_stays_the_players_own_words(said, guess) -> None:
    session, _ = _guess_window()
    assert _parsed(session, said).slots == {"character": guess}


def test_typed_words_mean_what_they_spell() -> None:
    session, _ = _guess_window()
    assert _parsed(session, "big lit", heard=False).slots == {"character": "big lit"}


def test_the_wrong_guesses_of_the_benchmark_name_nobody_by_their_letters() -> None:
    for lang, said in WRONG_GUESSES.items():
        deck = builtin_deck(lang)
        forms = [c.forms for c in deck] + [c.forms for c in _others(deck, lang)]
        assert [s for s in said if best_match(s, forms) is not None] == [], lang


def test_a_name_the_player_said_no_to_is_not_found_again_for_the_same_words() -> None:
    session, out = _guess_window()
    session.hear_speech(Transcript("a kangaroo", 1.0))  # sounds like Kanga
    asked = [r for r in out.records if r.get("type") == "confirm"]
    assert asked and asked[-1]["action"]["args"]["name"] == "Kanga"
    session.hear_speech(Transcript("no", 1.0))
    session.hear_speech(Transcript("a kangaroo", 1.0))  # the same words: Ben's own
    assert [r for r in out.records if r.get("type") == "confirm"] == asked
    assert {"type": "wrong_guess", "player": "Ben", "guess": "kangaroo"} in out.records


def test_without_espeak_names_are_matched_by_their_letters_alone(monkeypatch) -> None:
    monkeypatch.setattr(sounds, "_pronouncer", _broken)
    session, _ = _guess_window()
    assert _parsed(session, "big lit").slots == {"character": "big lit"}  # no error
    assert _parsed(session, "piglet").slots == {"character": "Piglet"}


def _broken(lang: str) -> Any:
    from voice.recognition.pronounce import PronunciationError

    class Broken:
        def pronunciations(self, words: Any) -> Any:
            raise PronunciationError(key="espeak_missing")

    return Broken()


def test_similarity_is_one_for_the_same_sound_and_less_for_others() -> None:
    same = sounds.sound_of("Piglet", "en")
    assert same is not None
    assert sounds.similarity(same, same) == 1.0
    near, far = sounds.sound_of("big lit", "en"), sounds.sound_of("Donald Duck", "en")
    assert near is not None and far is not None
    assert sounds.similarity(same, near) > sounds.FIND > sounds.similarity(same, far)


@pytest.mark.parametrize("heard", ["penalty for man", "then get out of turn"])
def test_a_command_with_a_name_misheard_costs_no_try(heard) -> None:
    """An open-vocabulary recogniser (a Wyoming server) hears "Penalty for Ben" as
    "penalty for man": that is no guess of Ben's in his own words."""
    session, out = _guess_window()
    session.hear_speech(Transcript(heard, 1.0))
    assert not any(r.get("type") == "wrong_guess" for r in out.records)
    assert [a.name for a in session.actions][-1] == "done"  # nothing after Anna's "done"


@pytest.mark.parametrize(
    "heard", ["hurry up the time is running out", "i have no clue what that is meant to be"]
)
def test_words_longer_than_any_name_are_thinking_aloud(heard) -> None:
    session, out = _guess_window()
    session.hear_speech(Transcript(heard, 1.0))
    assert not any(r.get("type") == "wrong_guess" for r in out.records)
    assert [a.name for a in session.actions][-1] == "done"
