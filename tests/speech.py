"""Audio for speech tests, made by our own TTS (espeak-ng) with a faint noise floor."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from voice.bench.audio import hear as hear  # the benchmark's, so both hear alike
from voice.bench.audio import utterance as utterance

needs_tts = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox make the test audio (setup.sh installs them)",
)

CHUNK = 1600  # 50 ms of 16-bit samples, in bytes / 2


def chunks(audio: bytes, size: int = CHUNK * 2) -> Iterator[bytes]:
    for offset in range(0, len(audio), size):
        yield audio[offset : offset + size]
