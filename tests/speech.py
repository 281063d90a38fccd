"""Audio for speech tests, made by our own TTS (espeak-ng) with a faint noise floor."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import numpy as np
import pytest

from voice.bench.audio import SAMPLE_RATE, SPEECH_LEVEL, Voice, pink_noise, synthesise, to_pcm
from voice.recognition.base import Recogniser, Transcript

needs_tts = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox make the test audio (setup.sh installs them)",
)

CHUNK = 1600  # 50 ms of 16-bit samples, in bytes / 2


def utterance(text: str, voice: str, seed: int = 0, snr: float = 35.0) -> bytes:
    """``text`` spoken, with quiet before and after, over pink noise ``snr`` dB down."""
    clip = synthesise(text, Voice(voice, 160))
    pad = np.zeros(int(0.6 * SAMPLE_RATE), dtype=np.float32)
    signal = np.concatenate([pad, clip, pad, pad])
    noise = pink_noise(len(signal), seed) * (SPEECH_LEVEL / 10 ** (snr / 20))
    return to_pcm(signal + noise)


def chunks(audio: bytes, size: int = CHUNK * 2) -> Iterator[bytes]:
    for offset in range(0, len(audio), size):
        yield audio[offset : offset + size]


def hear(recogniser: Recogniser, audio: bytes) -> list[Transcript]:
    """Feed audio in microphone-sized chunks; every transcript that came out."""
    out = []
    for chunk in chunks(audio):
        transcript = recogniser.accept(chunk)
        if transcript is not None:
            out.append(transcript)
    return out
