"""The sound devices (PortAudio through sounddevice), shared by the microphone
(:mod:`voice.input.audio`) and the loudspeaker (:mod:`voice.output.playback`).

sounddevice is imported only when a device is really wanted, so script runs and tests
without audio never touch it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from typing import Any

from games.errors import FarbspielError

log = logging.getLogger("farbspiel.audio")


class AudioError(FarbspielError, RuntimeError):
    """A device or file cannot be used; the message says what to do."""

    default_key = "audio"


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence what C libraries write to stderr (ALSA lists every card it cannot find
    while PortAudio starts); our own messages say what matters."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def sounddevice_module() -> Any:
    """The sounddevice module, or :class:`AudioError` if PortAudio is missing."""
    try:
        with quiet_stderr():
            import sounddevice
    except OSError:
        raise AudioError(key="portaudio_missing") from None
    return sounddevice


def rescan_devices() -> None:
    """Let PortAudio look for devices again (it lists them only when it starts)."""
    sd = sounddevice_module()
    try:
        with quiet_stderr():
            sd._terminate()
            sd._initialize()
    except Exception as exc:  # noqa: BLE001 - PortAudio raises its own kinds
        log.warning("could not rescan audio devices: %s", exc)


def default_device(kind: str) -> dict[str, Any]:
    sd = sounddevice_module()
    try:
        device = sd.query_devices(kind=kind)
    except Exception:  # noqa: BLE001 - PortAudioError or ValueError when there is none
        device = None
    if not device:
        raise AudioError(key="no_microphone_found" if kind == "input" else "no_output_found")
    return dict(device)
