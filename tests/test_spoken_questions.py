"""A move said as a question is asked about, never applied; a lone value said as a
statement is decided without the question's long pause. The real pocketsphinx recogniser
on espeak-ng audio, in real sessions (voice.recognition.intonation)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from speech import chunks, needs_tts, utterance

from voice.bench.audio import SAMPLE_RATE, Voice, synthesise
from voice.bench.understanding import CORPORA, Tables, load_cases
from voice.recognition.base import Transcript
from voice.recognition.sphinx import SphinxRecogniser
from voice.session.session import Session

pytestmark = [needs_tts, pytest.mark.slow]

WARM_UP = {
    "de": ("Hallo zusammen, wir spielen", "de"),
    "en": ("hello everybody, let's play", "en-us"),
}
PAD = 0.6
"""Seconds of room before the voice in speech.utterance()."""


class Listener:
    """A recogniser and the stream time of what it was fed."""

    def __init__(self, recogniser: SphinxRecogniser) -> None:
        self.recogniser = recogniser
        self.seconds = 0.0

    def say(self, session: Session | None, text: str, voice: str) -> tuple[list[Transcript], float]:
        """``text`` said into the session (if any); the transcripts and where the voice
        ended (stream seconds)."""
        audio = utterance(text, voice, seed=4)
        voice_end = self.seconds + PAD + len(synthesise(text, Voice(voice, 160))) / SAMPLE_RATE
        heard = []
        for chunk in chunks(audio):
            self.seconds += len(chunk) / 2 / SAMPLE_RATE
            transcript = self.recogniser.accept(chunk)
            if transcript is not None:
                heard.append(transcript)
                if session is not None:
                    session.hear_speech(transcript)
        return heard, voice_end


def situation(game: str, lang: str, text: str) -> Session:
    """A session where the corpus (tests/understanding) says ``text``."""
    (case,) = [c for c in load_cases(CORPORA / f"{game}.{lang}.yaml") if c.text == text]
    return Tables().session(case)


def listening(session: Session, lang: str, tmp_path: Path, act: float | None) -> Listener:
    recogniser = SphinxRecogniser(lang, pronunciation_cache=tmp_path / f"{lang}.json")
    if act is not None:  # as sure as it must be to act on these clips at once
        recogniser.thresholds = replace(recogniser.thresholds, act=act)
    session.policy = session.policy.for_recogniser(recogniser)
    recogniser.set_phrases(session.phrases())
    listener = Listener(recogniser)
    # a table starts with a few words before the first move (the decoder's normalisation
    # settles on them)
    listener.say(None, *WARM_UP[lang])
    return listener


@pytest.mark.parametrize(
    ("lang", "voice", "where", "question", "act"),
    [
        # This question was applied as a move before (heard at 0.96, English acts from
        # 0.95; the statement at 0.98). Its confidence moves with the pronunciations
        # (0.95 after stop 20's English vowels), so both languages listen with a
        # recogniser sure enough to act on these clips: the melody alone decides.
        ("en", "en-us", "Cem played green?", "Cem played green?", 0.9),
        # German acts only from 0.995, which these clips do not reach (0.96)
        ("de", "de", "Mia hatte gelb?", "Lena hat grün gespielt?", 0.9),
    ],
)
def test_a_naming_said_as_a_question_is_asked_about_never_applied(
    tmp_path: Path, lang: str, voice: str, where: str, question: str, act: float | None
) -> None:
    """Farben's scoring: who played which colour. ``where``: the corpus's situation."""
    session = situation("farben", lang, where)
    before = len(session.actions)
    listener = listening(session, lang, tmp_path, act)
    heard, _ = listener.say(session, question, voice)
    assert [t.question for t in heard if t.text] == [True], heard
    assert len(session.actions) == before, heard
    assert session.awaiting is not None and session.awaiting[0] == "move", heard  # asked
    # the same words said as a statement are the move, at once
    session = situation("farben", lang, where)
    listener = listening(session, lang, tmp_path, act)
    heard, _ = listener.say(session, question.rstrip("?") + ".", voice)
    assert [t.question for t in heard if t.text] == [False], heard
    assert len(session.actions) == before + 1 and session.awaiting is None, heard


def test_a_lone_colour_said_as_a_statement_is_decided_without_the_long_pause(
    tmp_path: Path,
) -> None:
    """ "lila?" waits for a "nee" that may follow (sphinx.TAKING_BACK); "lila." does not."""
    session = situation("alle-meine-farben", "de", "lila? Nee.")
    listener = listening(session, "de", tmp_path, act=0.5)
    recogniser = listener.recogniser
    before = len(session.actions)
    heard, voice_end = listener.say(session, "lila.", "de")
    (said,) = [t for t in heard if t.text]
    assert said.text == "lila" and not said.question
    assert said.end - voice_end < recogniser.lone_silence, said.end - voice_end
    assert len(session.actions) == before + 1
    session = situation("alle-meine-farben", "de", "lila? Nee.")
    listener = listening(session, "de", tmp_path, act=0.5)
    heard, voice_end = listener.say(session, "lila?", "de")
    (asked,) = [t for t in heard if t.text]
    assert asked.question and asked.end - voice_end >= recogniser.lone_silence
    assert len(session.actions) == before  # asked about, at most
