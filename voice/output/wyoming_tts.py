"""Speech by a Wyoming text-to-speech service (``--tts tcp://HOST:PORT`` or ``unix://PATH``):
the household's own voice server (wyoming-piper's natural voices, Home Assistant's voice
stack) says what farbspiel says.

Each line is sent as ``synthesize`` (with the voice of the game's language the service
named in its ``describe``) and comes back as ``audio-start``, ``audio-chunk``…,
``audio-stop``; it is written to a WAV file and played by farbspiel's own playback
(:class:`voice.output.tts.SpeechOutput`), so ``say`` returns when it has been played and
the microphone is not listened to meanwhile, exactly as with the local voice. The voice
is the service's own default, or the one ``--tts-voice`` names; a service none of whose
voices speaks the game's language is refused at the start, and so is a voice it lacks.

Wyoming's ``synthesize`` has no speed: the service speaks at its own, and farbspiel's
rate ("slower", "faster", ``--rate``) is applied to the audio it sends, its pitch kept
(sox's ``tempo``, taking the service's own speed as :data:`DEFAULT_RATE`). Where sox is
missing that cannot be done: the players are told once.

A service that is not reachable, goes away, is slow, answers something that is not
Wyoming or hangs up in the middle of a line does not end the game: the players are told
(once per fault, in the game's language), the line is only written, and the service is
tried again with a later line (after :data:`RETRY_SECONDS` when it was not there or not
Wyoming); when it speaks again the players are told that too.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice.errors import Notice
from voice.output.rate import DEFAULT_RATE, clamp_rate
from voice.output.tts import LineSkipped, TtsError
from voice.wyoming import (
    DESCRIBE_SECONDS,
    ServiceFault,
    bounded,
    connect,
    describe,
    run_bounded,
    shown,
    uri_is_usable,
)

FIRST_AUDIO_SECONDS = 15.0
"""Longest wait for the first audio of a line (a slow server on a small computer)."""

PER_CHARACTER_SECONDS = 0.1
"""More time for the whole line per character of its text."""

RETRY_SECONDS = 5.0
"""A service that was not there, or not Wyoming, is tried again at most this often."""

HOLD_OFF = ("wyoming_unreachable", "wyoming_garbage")

SOX_SECONDS = 10.0
"""Longest wait for sox to change the speed (or pitch) of one line."""

SEAT_CENTS = 300
"""The assistant's seat speaks this much higher (cents): a voice of its own."""


@dataclass(frozen=True)
class Voices:
    """What the service offers."""

    programs: tuple[str, ...]
    fitting: tuple[str, ...]
    """Its voices that speak the game's language."""
    languages: tuple[str, ...]
    """Every language its voices speak."""


def check_tts_uri(uri: str) -> str:
    """``uri`` if it is a usable Wyoming address; TtsError (with the form) if not."""
    if not uri_is_usable(uri):
        raise TtsError(key="wyoming_bad_uri", uri=uri)
    return uri


class WyomingSynthesiser:
    """Text → WAV file by a Wyoming service (the ``Synthesiser`` interface of
    :class:`voice.output.tts.SpeechOutput`; see the module text)."""

    def __init__(
        self,
        uri: str,
        lang: str,
        notify: Callable[[str | Notice], None],
        *,
        voice: str | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.uri = check_tts_uri(uri)
        self.lang = lang
        self.voice = voice
        """The voice asked for (``--tts-voice``); None: the service's own default."""
        self.notify = notify
        self.now = now
        self.voices: Voices | None = None
        self._loop = asyncio.new_event_loop()
        self._fault: str | None = None
        self._next_try = 0.0
        self._told_rate = False
        try:
            self._describe()
        except ServiceFault as exc:
            self._failed(exc)  # not there at start: text meanwhile, tried again later
        except TtsError:
            self.close()
            raise

    # -- the Synthesiser interface --------------------------------------------------------
    def prepare(self) -> None:
        """Nothing to start ahead: the service is already running."""

    def save(self, text: str, lang: str, rate: int, path: Path, seat: bool = False) -> float:
        """``text`` said by the service, at ``rate`` words per minute, into ``path``;
        its length in seconds. LineSkipped if the service cannot say it now."""
        if self._fault is not None and self.now() < self._next_try:
            raise LineSkipped(key="tts_skipped")
        try:
            if self.voices is None:
                self._describe()
            limit = FIRST_AUDIO_SECONDS + PER_CHARACTER_SECONDS * len(text)
            audio, frame_rate = run_bounded(
                self._loop, _synthesize(self.uri, text, self.voice), limit
            )
        except ServiceFault as exc:
            self._failed(exc)
            raise LineSkipped(key="tts_skipped") from None
        if self._fault is not None:
            self._fault = None
            self.notify(Notice("tts_wyoming_back", {"uri": self.uri}))
        _write_wav(path, audio, frame_rate)
        seconds = len(audio) / 2 / frame_rate
        factor = clamp_rate(rate) / DEFAULT_RATE
        if abs(factor - 1.0) > 0.01 or seat:
            seconds = self._effects(path, factor, seat, seconds)
        return float(seconds)

    def close(self) -> None:
        if not self._loop.is_closed():
            self._loop.close()

    # -- inside -------------------------------------------------------------------------------
    def _describe(self) -> None:
        """Asks the service what it is; TtsError if it has no voice for the language."""
        voices = _voices(run_bounded(self._loop, describe(self.uri), DESCRIBE_SECONDS), self.lang)
        if not voices.fitting:
            raise TtsError(
                key="tts_wyoming_no_voice", uri=self.uri, lang=self.lang,
                languages=shown(voices.languages) or "-",
            )  # fmt: skip
        if self.voice is not None and self.voice not in voices.fitting:
            raise TtsError(
                key="tts_wyoming_unknown_voice", uri=self.uri, voice=self.voice,
                lang=self.lang, voices=shown(voices.fitting),
            )  # fmt: skip
        self.voices = voices
        if self._fault is not None:
            self._fault = None
            self.notify(Notice("tts_wyoming_back", {"uri": self.uri}))
        programs = list(voices.programs) or ["?"]
        voice = self.voice or Notice("tts_wyoming_default_voice", {})
        self.notify(Notice("tts_wyoming", {"uri": self.uri, "programs": programs, "voice": voice}))

    def _failed(self, fault: ServiceFault) -> None:
        if fault.key in HOLD_OFF:
            self._next_try = self.now() + RETRY_SECONDS
        if self._fault == fault.key:
            return  # the players know
        self._fault = fault.key
        self.notify(Notice(f"tts_{fault.key}", {"uri": self.uri, "detail": fault.detail}))

    def _effects(self, path: Path, factor: float, seat: bool, seconds: float) -> float:
        """The line at ``factor`` times the service's speed (pitch kept), and higher for
        the assistant's seat (a voice of its own), if sox can; its length."""
        sox = shutil.which("sox")
        changed = path.with_name(f"sox-{path.name}")
        effects = ["tempo", "-s", f"{factor:.3f}"] if abs(factor - 1.0) > 0.01 else []
        effects += ["pitch", str(SEAT_CENTS)] if seat else []
        if sox is not None:
            try:
                done = subprocess.run(
                    [sox, str(path), str(changed), *effects],
                    capture_output=True, timeout=SOX_SECONDS, check=False,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                done = None
            if done is not None and done.returncode == 0 and changed.is_file():
                changed.replace(path)
                return _wav_seconds(path, seconds / factor)  # tempo's length is not exact
        if not self._told_rate and "tempo" in effects:
            self._told_rate = True
            self.notify(Notice("tts_wyoming_own_speed", {"uri": self.uri}))
        return seconds


def _voices(info: Any, lang: str) -> Voices:
    """The service's text-to-speech programs and their voices for ``lang``."""
    programs = [p for p in info.tts or [] if getattr(p, "installed", True)]
    fitting: list[str] = []
    languages: list[str] = []
    for program in programs:
        for voice in program.voices or []:
            codes = [str(c) for c in voice.languages or []]
            languages.extend(codes)
            if any(c.lower().replace("_", "-").split("-")[0] == lang for c in codes):
                fitting.append(str(voice.name))
    names = tuple(str(p.name) for p in programs)
    return Voices(names, tuple(fitting), tuple(dict.fromkeys(languages)))


async def _synthesize(uri: str, text: str, voice: str | None) -> tuple[bytes, int]:
    """The service's audio of ``text`` (16-bit mono PCM) and its frame rate; ``voice``
    None: the service's default voice."""
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.error import Error
    from wyoming.tts import Synthesize, SynthesizeVoice

    client = await connect(uri)
    try:
        chosen = SynthesizeVoice(name=voice) if voice is not None else None
        await bounded(client.write_event(Synthesize(text=text, voice=chosen).event()), 5.0)
        audio = bytearray()
        started: Any = None
        while True:
            event = await client.read_event()
            if event is None:
                raise ServiceFault("wyoming_closed")
            if Error.is_type(event.type):
                raise ServiceFault("wyoming_error", str(Error.from_event(event).text))
            if AudioStart.is_type(event.type):
                started = AudioStart.from_event(event)
                if started.width != 2 or started.channels not in (1, 2) or started.rate < 8000:
                    raise ServiceFault("wyoming_garbage", "audio-start")
            elif AudioChunk.is_type(event.type):
                if started is None:
                    raise ServiceFault("wyoming_garbage", "audio-chunk")
                audio += _mono(AudioChunk.from_event(event).audio, started.channels)
            elif AudioStop.is_type(event.type):
                if started is None or not audio:
                    raise ServiceFault("wyoming_garbage", "audio-stop")
                return bytes(audio), int(started.rate)
    finally:
        await client.disconnect()


def _mono(pcm: bytes, channels: int) -> bytes:
    if channels == 1:
        return pcm
    import numpy as np

    samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % 4], "<i2").reshape(-1, 2)
    return bytes(samples.mean(axis=1).astype("<i2").tobytes())


def _write_wav(path: Path, audio: bytes, frame_rate: int) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(frame_rate)
        out.writeframes(audio)


def _wav_seconds(path: Path, otherwise: float) -> float:
    """The length of the wav file at ``path`` in seconds; ``otherwise`` if it cannot be
    read."""
    try:
        with wave.open(str(path), "rb") as wav:
            return wav.getnframes() / float(wav.getframerate())
    except (OSError, EOFError, wave.Error):
        return otherwise
