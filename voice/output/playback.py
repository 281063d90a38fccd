"""Playing sound on the default output (the synthesised speech's WAV files).

Ours rather than the speech engine's, so a missing or hung output is noticed and said
(:class:`voice.sound.AudioError`) instead of stopping the game.
"""

from __future__ import annotations

import logging
import threading
import wave
from pathlib import Path
from typing import Any

import numpy as np

from voice.sound import AudioError, default_device, sounddevice_module

log = logging.getLogger("farbspiel.audio")


def output_problem() -> AudioError | None:
    """Why sound cannot be played, or ``None`` if it can."""
    try:
        device = default_device("output")
        sd = sounddevice_module()
        sd.check_output_settings(samplerate=device["default_samplerate"], channels=1, dtype="int16")
    except AudioError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001
        return AudioError(key="output_broken", detail=str(exc))
    return None


PLAY_MARGIN = 5.0
"""Seconds beyond its length that playing a sound may take (opening a PulseAudio stream
takes up to a second and a half) before the output counts as hung."""


def play_wav(path: Path, margin: float = PLAY_MARGIN) -> None:
    """Play a WAV file on the default output; returns when it has been played.

    Raises :class:`AudioError` if it cannot be played, if the output went away while it
    played (the end was not heard), or if the output does not finish within the sound's
    length plus ``margin`` (a hung audio server must not stop the game).
    """
    sd = sounddevice_module()
    try:
        with wave.open(str(path), "rb") as wav:
            rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
            raw = wav.readframes(wav.getnframes())
    except (OSError, wave.Error, EOFError) as exc:
        raise AudioError(key="speech_file_unreadable", path=path, detail=str(exc)) from None
    if width != 2:
        raise AudioError(key="speech_file_not_16_bit", path=path)
    samples = np.frombuffer(raw, "<i2").reshape(-1, channels)
    played = 0
    finished = threading.Event()

    def callback(outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        nonlocal played
        part = samples[played : played + frames]
        outdata[: len(part)] = part
        outdata[len(part) :] = 0
        played += len(part)
        if played >= len(samples):
            raise sd.CallbackStop

    try:
        stream = sd.OutputStream(
            samplerate=rate,
            channels=channels,
            dtype="int16",
            callback=callback,
            finished_callback=finished.set,
        )
        stream.start()
    except Exception as exc:  # noqa: BLE001 - PortAudioError and friends
        raise AudioError(key="speech_not_played", detail=str(exc)) from None
    if not finished.wait(len(samples) / rate + margin):
        # Stopping a stream on a hung server may hang too: leave that to a thread.
        threading.Thread(target=stream.abort, daemon=True).start()
        raise AudioError(key="output_hangs")
    try:
        stream.close()
    except Exception as exc:  # noqa: BLE001
        log.warning("closing the audio output: %s", exc)
    if played < len(samples):
        raise AudioError(key="output_gone")
