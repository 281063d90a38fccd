"""Question or statement by the melody of the voice (voice.recognition.intonation), on
tones of known pitch and on sentences spoken by espeak-ng (and mbrola, where installed)."""

from __future__ import annotations

import numpy as np
import pytest
from speech import needs_tts

from voice.bench.audio import (
    SAMPLE_RATE,
    SPEECH_LEVEL,
    Voice,
    pink_noise,
    synthesise,
    to_pcm,
    voice_works,
)
from voice.recognition import intonation
from voice.recognition.intonation import Intonation


def voiced_glide(start_hz: float, end_hz: float, seconds: float = 0.8) -> np.ndarray:
    """A vowel-like tone (a fundamental with falling harmonics) gliding in pitch."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    hz = start_hz * (end_hz / start_hz) ** (t / seconds)  # even in semitones
    phase = 2 * np.pi * np.cumsum(hz) / SAMPLE_RATE
    tone = sum(np.sin(k * phase) / k for k in range(1, 8))
    return (tone / np.abs(tone).max() * 8000).astype(np.float32)


def test_a_rising_tone_is_a_question_a_falling_one_a_statement() -> None:
    # seven semitones up or down within the half second the rise is measured in
    up = intonation.intonation(voiced_glide(120, 180, seconds=intonation.REACH))
    down = intonation.intonation(voiced_glide(180, 120, seconds=intonation.REACH))
    assert up is not None and down is not None
    # most of the seven semitones (the tracker's window needs a few ms at either edge,
    # and the end is the median of its last 50 ms)
    assert 5.0 < up.rise <= 12 * np.log2(180 / 120)
    assert up.question
    assert down.rise < 0.5 and down.level < -2 and not down.question


def test_a_level_tone_is_no_question() -> None:
    level = intonation.intonation(voiced_glide(150, 150))
    assert level is not None and abs(level.rise) < 0.3 and not level.question


def test_pcm_bytes_and_samples_are_judged_alike() -> None:
    tone = voiced_glide(110, 170)
    assert intonation.intonation(to_pcm(tone)) == intonation.intonation(tone)


@pytest.mark.parametrize(
    "audio",
    [
        np.zeros(SAMPLE_RATE, np.float32),  # silence
        pink_noise(SAMPLE_RATE, 3) * 3000,  # the room, nobody speaking
        voiced_glide(120, 200, seconds=0.05),  # too short to have a melody
        b"",
        b"\x01",  # half a sample
    ],
)
def test_no_voice_no_melody(audio) -> None:
    assert intonation.intonation(audio) is None


def test_only_the_end_of_a_long_utterance_is_analysed() -> None:
    """A question's rise is at its end: what came seconds before does not count."""
    long = np.concatenate([voiced_glide(100, 200, 2.0), voiced_glide(200, 140, 0.8)])
    assert not intonation.intonation(long).question
    assert intonation.intonation(
        np.concatenate([voiced_glide(200, 140, 2.0), voiced_glide(130, 190, 0.8)])
    ).question


# --- spoken sentences ---------------------------------------------------------------
SENTENCES = {
    "de": ["lila", "Julia hat blau gespielt", "den Hut rot"],
    "en": ["purple", "Cem played green", "the ball red"],
}
VOICES = [
    ("de", "de"),
    ("en", "en-us"),
    # not the voices the thresholds were chosen on
    ("de", "de+f3"),
    ("en", "en-us+f3"),
    ("de", "mb-de6"),
    ("en", "mb-us2"),
]


def judged(text: str, voice: str, snr: float | None = None) -> Intonation | None:
    if not voice_works(voice):
        pytest.skip(f"the voice {voice} is not installed (voice/bench/install-mbrola.sh)")
    clip = synthesise(text, Voice(voice))
    pad = np.zeros(int(0.2 * SAMPLE_RATE), np.float32)
    signal = np.concatenate([pad, clip, pad])
    if snr is not None:
        signal = signal + pink_noise(len(signal), 7) * SPEECH_LEVEL / 10 ** (snr / 20)
    return intonation.intonation(to_pcm(signal))


@needs_tts
@pytest.mark.parametrize(("lang", "voice"), VOICES)
def test_spoken_questions_rise_and_statements_do_not(lang: str, voice: str) -> None:
    for text in SENTENCES[lang]:
        statement, question = judged(text + ".", voice), judged(text + "?", voice)
        assert statement is not None and question is not None, text
        assert not statement.question, (text, statement)
        assert question.question, (text, question)


@needs_tts
@pytest.mark.parametrize(("lang", "voice"), [("de", "de"), ("en", "en-us")])
def test_noise_does_not_make_a_statement_a_question(lang: str, voice: str) -> None:
    for text in SENTENCES[lang]:
        statement = judged(text + ".", voice, snr=10)
        assert statement is not None and not statement.question, (text, statement)
