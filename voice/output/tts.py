"""Speech output: pyttsx3's espeak-ng driver synthesises, sounddevice plays.

pyttsx3 2.99 cannot be trusted with more than one utterance per process: later rate and
voice changes are lost now and then, several queued ``save_to_file`` calls write only
the last file, a ``runAndWait()`` with nothing queued can hang, and it returns before the
audio is complete. So every utterance is made in a *fresh* child process
(:mod:`voice.output.tts_worker`, which drives pyttsx3's espeak-ng binding synchronously),
started ahead of time so its start-up costs nothing when speech is needed; a worker that
does not answer in time is killed. Playback is ours (:func:`voice.output.playback.play_wav`), so
``say`` returns only when the words have been played (the half-duplex rule needs that)
and a missing sound card is noticed: pyttsx3 would call ``aplay`` and ignore its failure.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from games.errors import FarbspielError
from voice.output.messages import console_text
from voice.output.playback import play_wav
from voice.output.rate import DEFAULT_RATE, clamp_rate
from voice.sound import AudioError

SYNTH_TIMEOUT = 15.0
"""Seconds a worker may take for one utterance before it is killed."""

OUTPUT_RETRY_SECONDS = 5.0
"""After the loudspeaker went away, how often speech tries it again (at the next line)."""


class TtsError(FarbspielError, RuntimeError):
    """Speech cannot be made or played; the message says why."""

    default_key = "speech_output"


class WorkerKilled(TtsError):
    """The synthesiser process was killed from outside (e.g. by the kernel when memory ran
    short): worth one more try with a fresh one."""


def tts_problem() -> str | None:
    """Why speech synthesis cannot work here, or ``None``."""
    try:
        import pyttsx3  # noqa: F401
    except ImportError:
        return console_text("tts_no_pyttsx3")
    reason = ""
    for name in ("libespeak-ng.so.1", "libespeak-ng.so"):
        try:
            ctypes.CDLL(name)
            return None
        except OSError as exc:
            reason = reason or str(exc)
    return console_text("tts_no_espeak", detail=reason)


def _worker_env() -> dict[str, str]:
    root = Path(__file__).resolve().parents[2]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}


class _Worker:
    """One pre-started child process that will synthesise exactly one utterance."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "voice.output.tts_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_worker_env(),
        )

    def run(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            out, err = self.proc.communicate(json.dumps(request) + "\n", timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise TtsError(key="tts_too_slow", seconds=round(timeout)) from None
        lines = [line for line in out.splitlines() if line.startswith("{")]
        try:
            reply: dict[str, Any] = json.loads(lines[-1])
        except (IndexError, ValueError):
            if self.proc.returncode is not None and self.proc.returncode < 0:
                signal = -self.proc.returncode
                raise WorkerKilled(f"the speech worker was killed (signal {signal})") from None
            detail = (err.strip().splitlines() or [f"exit code {self.proc.returncode}"])[-1]
            raise TtsError(key="tts_failed", detail=detail[:200]) from None
        if not reply.get("ok"):
            raise TtsError(key="tts_failed", detail=str(reply.get("error", "?")))
        return reply

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Synthesiser:
    """Text → WAV file, one fresh synthesiser process per utterance (see module doc)."""

    def __init__(self, timeout: float = SYNTH_TIMEOUT) -> None:
        self.timeout = timeout
        self._spare: _Worker | None = None
        self._lock = threading.Lock()

    def _take(self) -> _Worker:
        worker = self._spare if self._spare and self._spare.proc.poll() is None else None
        self._spare = None
        return worker or _Worker()

    def prepare(self) -> None:
        """Start the next worker now, so that it is ready when speech is needed."""
        if self._spare is None or self._spare.proc.poll() is not None:
            self._spare = _Worker()

    def save(self, text: str, lang: str, rate: int, path: Path, seat: bool = False) -> float:
        """Write ``text`` spoken in ``lang`` at ``rate`` words per minute to ``path``.

        Returns the duration in seconds. Raises :class:`TtsError`.
        """
        request: dict[str, Any] = {
            "text": text,
            "lang": lang,
            "rate": clamp_rate(rate),
            "path": str(path),
        }
        if seat:  # the assistant's seat speaks in a voice of its own
            request["seat"] = True
        with self._lock:
            for attempt in (1, 2):
                worker = self._take()
                try:
                    reply = worker.run(request, self.timeout)
                    break
                except WorkerKilled:
                    if attempt == 2:
                        raise
                finally:
                    worker.kill()
                    self.prepare()
        if not path.is_file() or path.stat().st_size <= 44:
            raise TtsError(key="tts_no_audio")
        return float(reply.get("seconds", 0.0))

    def close(self) -> None:
        spare, self._spare = self._spare, None
        if spare is not None:
            spare.kill()


class LineSynthesiser(Protocol):
    """What makes the WAV file of one line: :class:`Synthesiser` (espeak-ng here), or a
    Wyoming service (:class:`voice.output.wyoming_tts.WyomingSynthesiser`)."""

    def prepare(self) -> None: ...

    def save(self, text: str, lang: str, rate: int, path: Path, seat: bool = False) -> float: ...

    def close(self) -> None: ...


class LineSkipped(TtsError):
    """This line cannot be spoken now (the players were told why); the next one may be."""


class SpeechOutput:
    """The session's words spoken aloud (an :class:`~voice.output.sinks.Output`).

    One utterance at a time: :meth:`say` returns when it has been played. If synthesis
    stops working, one message goes to ``notify`` and the output falls silent (the text
    output beside it carries on). If the loudspeaker goes away, the same happens, but
    every :data:`OUTPUT_RETRY_SECONDS` a line is tried on it again, and when it is heard
    again ``notify`` says so.
    """

    def __init__(
        self,
        lang: str,
        rate: int = DEFAULT_RATE,
        *,
        synthesiser: LineSynthesiser | None = None,
        play: Callable[[Path], None] = play_wav,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.lang = lang
        self.rate = clamp_rate(rate)
        self.synthesiser: LineSynthesiser = synthesiser or Synthesiser()
        self.play = play
        self.notify = notify
        self.failed: str | None = None
        self.output_lost_at: float | None = None
        """When the loudspeaker was last found gone (``None``: it works)."""
        self.clock = time.monotonic
        self._tmp = tempfile.TemporaryDirectory(prefix="farbspiel-tts-")
        self.synthesiser.prepare()

    def say_as(self, text: str, speaker: str) -> None:
        """A line of the assistant's seat, in its own voice (another espeak-ng variant
        and pitch)."""
        self.say(text, seat=True)

    def say(self, text: str, seat: bool = False) -> None:
        if self.failed or not text.strip():
            return
        lost_at = self.output_lost_at
        if lost_at is not None and self.clock() - lost_at < OUTPUT_RETRY_SECONDS:
            return
        path = Path(self._tmp.name) / "say.wav"
        try:
            if seat:
                self.synthesiser.save(text, self.lang, self.rate, path, seat=True)
            else:
                self.synthesiser.save(text, self.lang, self.rate, path)
        except LineSkipped:
            return  # the synthesiser told the players; the line is written all the same
        except TtsError as exc:
            self.failed = str(exc)
            self.synthesiser.close()
            self._tell(console_text("speech_output_stopped", problem=exc, again=False))
            return
        try:
            self.play(path)
        except AudioError as exc:
            self.output_lost_at = self.clock()
            if lost_at is None:
                self._tell(console_text("speech_output_stopped", problem=exc, again=True))
            return
        if lost_at is not None:
            self.output_lost_at = None
            self._tell(console_text("speech_output_back"))

    def _tell(self, message: str) -> None:
        if self.notify is not None:
            self.notify(message)

    def record(self, record: dict[str, Any]) -> None:
        pass

    def set_rate(self, wpm: int) -> None:
        self.rate = clamp_rate(wpm)

    def close(self) -> None:
        self.synthesiser.close()
        self._tmp.cleanup()
