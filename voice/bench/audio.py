"""Synthetic speech and noise for the benchmark (and the end-to-end speech tests).

Speech comes from espeak-ng (its own voices and, where installed, its mbrola voices),
resampled by sox to 16 kHz mono. Every clip is scaled to the same active speech level, so
one noise level per stream gives an exact signal-to-noise ratio. Noise is seeded: white,
pink (1/f), and babble (several other voices talking at once).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from games.errors import FarbspielError
from voice.recognition.base import Recogniser, Transcript

SAMPLE_RATE = 16_000
SPEECH_LEVEL = 3000.0
"""RMS of active speech after scaling (about -21 dBFS)."""
FRAME = 160  # 10 ms


class AudioError(FarbspielError, RuntimeError):
    """A tool the benchmark needs is missing or failed; the message says what to do."""

    default_key = "bench_audio"


@dataclass(frozen=True)
class Voice:
    """One synthetic speaker."""

    name: str
    """espeak-ng voice, e.g. ``de``, ``en-us+f3`` or ``mb-de6``."""
    speed: int = 160
    """Words per minute."""

    @property
    def label(self) -> str:
        return f"{self.name}@{self.speed}"


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise AudioError(f"{name} is not installed (Debian/Ubuntu: sudo apt install {package})")
    return path


def synthesise(text: str, voice: Voice, cache_dir: Path | None = None) -> np.ndarray:
    """``text`` spoken by ``voice``: float32 samples at 16 kHz, active level SPEECH_LEVEL."""
    key = hashlib.sha1(f"{voice.name}|{voice.speed}|{text}".encode()).hexdigest()[:20]
    cached = cache_dir / f"{key}.npy" if cache_dir is not None else None
    if cached is not None and cached.is_file():
        return np.load(cached)
    espeak = _tool("espeak-ng", "espeak-ng")
    sox = _tool("sox", "sox")
    wav = subprocess.run(
        [espeak, "-v", voice.name, "-s", str(voice.speed), "--stdout", text],
        capture_output=True,
        check=False,
        timeout=60,
    )
    if wav.returncode != 0 or len(wav.stdout) < 100:
        raise AudioError(f"espeak-ng cannot speak with the voice {voice.name!r}")
    raw = subprocess.run(
        [sox, "-t", "wav", "-", "-t", "raw", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16"]
        + ["-e", "signed-integer", "-"],
        input=wav.stdout,
        capture_output=True,
        check=False,
        timeout=60,
    )
    if raw.returncode != 0:
        raise AudioError(f"sox cannot convert espeak-ng's audio: {raw.stderr[:200]!r}")
    samples = np.frombuffer(raw.stdout, dtype=np.int16).astype(np.float32)
    samples = trim(samples)
    level = active_rms(samples)
    if level <= 0:
        raise AudioError(f"espeak-ng gave silence for {text!r} with {voice.name!r}")
    samples *= SPEECH_LEVEL / level
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        np.save(cached, samples)
    return samples


@cache
def voice_works(name: str) -> bool:
    """Whether espeak-ng can speak with ``name`` here (mbrola voices need their data)."""
    try:
        synthesise("eins", Voice(name))
    except AudioError:
        return False
    return True


def _frame_levels(samples: np.ndarray) -> np.ndarray:
    n = len(samples) // FRAME
    if n == 0:
        return np.zeros(0)
    frames = samples[: n * FRAME].reshape(n, FRAME)
    return np.sqrt((frames.astype(np.float64) ** 2).mean(axis=1))


def trim(samples: np.ndarray, below_peak_db: float = 40.0) -> np.ndarray:
    """Cut leading and trailing silence (frames 40 dB below the loudest frame)."""
    levels = _frame_levels(samples)
    if not len(levels) or levels.max() <= 0:
        return samples
    loud = np.nonzero(levels > levels.max() * 10 ** (-below_peak_db / 20))[0]
    return samples[loud[0] * FRAME : (loud[-1] + 1) * FRAME]


def active_rms(samples: np.ndarray) -> float:
    """RMS over the frames that carry speech (within 30 dB of the loudest)."""
    levels = _frame_levels(samples)
    if not len(levels) or levels.max() <= 0:
        return 0.0
    active = levels[levels > levels.max() * 10 ** (-30 / 20)]
    return float(np.sqrt((active**2).mean()))


def seed_of(*parts: object) -> int:
    """A stable seed from any labels (Python's hash() changes between runs)."""
    return zlib.crc32("|".join(map(str, parts)).encode())


def white_noise(length: int, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal(length)
    return (noise / noise.std()).astype(np.float32)


def pink_noise(length: int, seed: int) -> np.ndarray:
    """1/f noise: white noise shaped in the frequency domain."""
    white = np.random.default_rng(seed).standard_normal(length)
    spectrum = np.fft.rfft(white)
    freqs = np.fft.rfftfreq(length)
    freqs[0] = freqs[1] if length > 2 else 1.0
    pink = np.fft.irfft(spectrum / np.sqrt(freqs), length)
    return (pink / pink.std()).astype(np.float32)


def babble_noise(
    length: int, seed: int, sentences: Sequence[str], voices: Sequence[Voice], talkers: int = 5
) -> np.ndarray:
    """Several people talking at once: each talker reads the sentences in a shuffled
    order with short pauses, from a random starting point."""
    rng = np.random.default_rng(seed)
    mix = np.zeros(length, dtype=np.float64)
    for talker in range(talkers):
        voice = voices[talker % len(voices)]
        parts: list[np.ndarray] = []
        total = 0
        while total < length + SAMPLE_RATE * 4:
            for i in rng.permutation(len(sentences)):
                clip = _babble_clip(sentences[int(i)], voice)
                pause = np.zeros(int(rng.uniform(0.1, 0.5) * SAMPLE_RATE), dtype=np.float32)
                parts += [clip, pause]
                total += len(clip) + len(pause)
        stream = np.concatenate(parts)
        offset = int(rng.integers(0, len(stream) - length))
        mix += stream[offset : offset + length]
    return (mix / mix.std()).astype(np.float32)


@lru_cache(maxsize=256)
def _babble_clip(text: str, voice: Voice) -> np.ndarray:
    return synthesise(text, voice)


def to_pcm(samples: np.ndarray) -> bytes:
    """float samples → 16-bit little-endian PCM bytes (clipped)."""
    return np.clip(np.round(samples), -32768, 32767).astype("<i2").tobytes()


MIC_CHUNK_BYTES = 3200
"""50 ms of 16 kHz 16-bit audio: what the microphone delivers at a time."""


def utterance(text: str, voice: str, seed: int = 0, snr: float = 35.0) -> bytes:
    """``text`` spoken, with quiet before and after, over pink noise ``snr`` dB down."""
    clip = synthesise(text, Voice(voice, 160))
    pad = np.zeros(int(0.6 * SAMPLE_RATE), dtype=np.float32)
    signal = np.concatenate([pad, clip, pad, pad])
    noise = pink_noise(len(signal), seed) * (SPEECH_LEVEL / 10 ** (snr / 20))
    return to_pcm(signal + noise)


def hear(recogniser: Recogniser, audio: bytes) -> list[Transcript]:
    """Feed audio in microphone-sized chunks; every transcript that came out."""
    out = []
    for offset in range(0, len(audio), MIC_CHUNK_BYTES):
        transcript = recogniser.accept(audio[offset : offset + MIC_CHUNK_BYTES])
        if transcript is not None:
            out.append(transcript)
    return out
