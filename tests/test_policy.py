"""The play policy and its place in the session: act, confirm, ask again or ignore."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput as Recorder
from voice.recognition.base import Alternative, Transcript
from voice.session.adapters import adapter_for
from voice.session.session import Session
from voice.understanding.policy import Decision, PlayPolicy, Thresholds, meaning_of


def session_at_first_turn(lang: str = "de") -> tuple[Session, Recorder]:
    out = Recorder()
    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), lang, setup, out)
    session.start()
    out.said.clear()
    return session, out


def decide(session: Session, transcript: Transcript, answering: bool = False) -> Any:
    phase = session.phase()
    return session.policy.decide(
        transcript, phase.intents, phase.slots, session.is_move, answering=answering
    )


def test_sentences_that_mean_the_same_move_add_up() -> None:
    session, _ = session_at_first_turn()
    heard = Transcript(
        "ich male die ball lila an",
        0.5,
        alternatives=(Alternative("lila", 0.3), Alternative("den ball rosa", 0.2)),
    )
    verdict = decide(session, heard)
    assert verdict.intent.name == "place"
    assert verdict.intent.slots["colour"] == "purple"
    assert verdict.confidence == pytest.approx(0.8)  # "rosa" is another move
    assert verdict.decision is Decision.CONFIRM


def test_a_sure_move_is_applied_at_once() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("den ball lila", 0.97))
    assert session.actions[-1].args["colour"] == "purple"
    assert any("lila" in s.lower() for s in out.said)


def test_a_sure_move_said_as_a_question_is_asked_about_first() -> None:
    """ "den Ball lila?" with the pitch rising (Transcript.question): the words are a move,
    the melody is a question; the move is confirmed, never applied at once."""
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("den ball lila", 0.99, question=True))
    assert session.actions == []
    assert out.said[-1] == "Ben malt den Ball lila an – richtig?"
    # a question that is no move is answered as before
    verdict = decide(session, Transcript("welche farben darf ich nehmen", 0.99, question=True))
    assert verdict.decision is Decision.ACT


def test_a_doubtful_move_is_made_and_said_back_and_no_right_after_takes_it_back() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("lila", 0.5))  # cheap to take back: made, said back
    assert session.actions[-1].args["colour"] == "purple" and session.awaiting is None
    assert not any("richtig?" in line for line in out.said)
    assert "deny" in session.phase().intents
    session.hear_speech(Transcript("nein", 0.9))
    assert session.actions == []


def test_a_doubtful_move_said_as_a_question_is_confirmed_and_yes_applies_it() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("lila", 0.5, question=True))
    assert session.actions == []
    assert out.said[-1] == "Ben malt den Ball lila an – richtig?"
    assert session.awaiting is not None and session.awaiting[0] == "move"
    assert session.phase().intents >= {"affirm", "deny"}
    session.hear_speech(Transcript("ja", 0.95))
    assert session.actions[-1].args["colour"] == "purple"


def test_no_to_a_confirmation_applies_nothing() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("rot", 0.5, question=True))
    session.hear_speech(Transcript("nein", 0.9))
    assert session.actions == []
    assert session.awaiting is None


def test_an_unclear_answer_is_asked_again_not_taken_as_yes() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("rot", 0.5, question=True))
    session.hear_speech(Transcript("ja", 0.3))
    assert session.actions == []
    assert session.awaiting is not None
    assert out.said[-1] == "Bitte mit ja oder nein antworten."


def test_yes_needs_more_certainty_than_no() -> None:
    """A wrong yes applies a wrong move; a wrong no only costs a repetition."""
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("rot", 0.6, question=True))
    session.hear_speech(Transcript("ja", 0.65))
    assert session.actions == [] and session.awaiting is not None
    session.hear_speech(Transcript("nein", 0.65))
    assert session.actions == [] and session.awaiting is None


def test_table_talk_is_ignored_without_a_word() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("pause", 0.05))
    session.hear_speech(Transcript("", 0.0))
    assert out.said == []
    assert not session.paused
    assert [r["decision"] for r in out.records if r["type"] == "heard"] == ["ignore", "ignore"]


def test_something_unclear_is_asked_again() -> None:
    session, out = session_at_first_turn("en")
    session.hear_speech(Transcript("purple", 0.4))
    assert session.actions == []
    assert out.said == ["Sorry? Please say that again."]


def test_questions_are_answered_not_confirmed() -> None:
    session, out = session_at_first_turn()
    session.hear_speech(Transcript("welche farben gehen", 0.7))
    assert session.awaiting is None
    assert "gehen" in out.said[-1]


def test_thresholds_order_the_decisions() -> None:
    session, _ = session_at_first_turn("en")
    policy = PlayPolicy(session.parser, Thresholds(act=0.9, confirm=0.5, answer=0.6, ignore=0.2))
    phase = session.phase()
    decisions = [
        policy.decide(Transcript("red", c), phase.intents, phase.slots, session.is_move).decision
        for c in (0.95, 0.7, 0.3, 0.1)
    ]
    assert decisions == [Decision.ACT, Decision.CONFIRM, Decision.ASK_AGAIN, Decision.IGNORE]


def test_a_slot_fixed_by_the_phase_carries_no_meaning() -> None:
    session, _ = session_at_first_turn()
    phase = session.phase()
    named = session.parser.parse("den ball lila", phase.intents, phase.slots)
    bare = session.parser.parse("lila", phase.intents, phase.slots)
    assert named is not None and bare is not None
    assert "object" in named.slots
    assert meaning_of(named, phase.slots) == meaning_of(bare, phase.slots)


def test_typed_input_still_acts_at_once() -> None:
    session, _ = session_at_first_turn()
    session.hear("lila")
    assert session.actions[-1].args["colour"] == "purple"


def test_a_story_is_never_interrupted_by_say_that_again() -> None:
    out = Recorder()
    adapter = adapter_for("farben")
    setup = Setup(("Lena", "Jonas", "Mia"), 11, options=adapter.default_options("de"))
    session = Session(adapter, "de", setup, out)
    session.start()
    session.hear("Zufall")
    session.hear(session.phase().slots["word"][0])  # the side of the word card
    for line in ("bereit", "gelb"):  # the first story begins
        session.hear(line)
    assert session.phase().quiet
    out.said.clear()
    before = list(session.actions)
    # a half-sure "fertig" in the middle of the story: neither acted on nor asked about
    session.hear_speech(Transcript("fertig", 0.35))
    session.hear_speech(Transcript("", 0.0))
    assert out.said == [] and session.actions == before
    assert [r["decision"] for r in out.records if r["type"] == "heard"] == ["ignore", "ignore"]


def test_in_a_noisy_room_a_move_must_be_surer_to_be_applied_at_once() -> None:
    """Heard over noise (``Transcript.noisy``), confident mistakes are likelier: the same
    confidence that applies a move in a quiet room only confirms it there."""
    session, _ = session_at_first_turn("en")
    policy = PlayPolicy(session.parser, Thresholds(act=0.95, act_noisy=0.985))
    phase = session.phase()

    def decision(confidence: float, noisy: bool) -> Decision:
        heard = Transcript("the ball red", confidence, noisy=noisy)
        return policy.decide(heard, phase.intents, phase.slots, session.is_move).decision

    assert decision(0.97, noisy=False) is Decision.ACT
    assert decision(0.97, noisy=True) is Decision.CONFIRM
    assert decision(0.99, noisy=True) is Decision.ACT
    # an engine without a noisy threshold acts as in a quiet room
    plain = PlayPolicy(session.parser, Thresholds(act=0.95))
    heard = Transcript("the ball red", 0.97, noisy=True)
    assert plain.decide(heard, phase.intents, phase.slots, session.is_move).decision is Decision.ACT


def test_another_colour_nearly_as_likely_is_the_rival_reading() -> None:
    session, _ = session_at_first_turn()
    heard = Transcript(
        "lila",
        0.35,
        alternatives=(
            Alternative("den ball lila", 0.2),
            Alternative("rosa", 0.25),
            Alternative("den ball rosa", 0.1),
        ),
    )
    verdict = decide(session, heard)
    assert verdict.decision is Decision.CONFIRM
    assert verdict.intent.slots["colour"] == "purple"
    assert verdict.rival is not None  # 0.35 for "rosa" beside 0.55 for "lila"
    assert verdict.rival.slots["colour"] == "pink"
    far = Transcript("lila", 0.55, alternatives=(Alternative("rosa", 0.2),))
    assert decide(session, far).rival is None  # far less likely: no choice
    sure = Transcript("lila", 0.99, alternatives=(Alternative("rosa", 0.9),))
    assert decide(session, sure).rival is None  # acted on at once, never a choice
