"""A satellite at the table (``--satellite tcp://HOST:PORT``): a wyoming-satellite (a
Raspberry Pi or a small speaker box in the middle of the table) is farbspiel's
microphone and loudspeaker.

wyoming-satellite is a server: farbspiel connects to it as Home Assistant would, asks it
to ``describe`` itself (it must be a satellite) and sends ``run-satellite``. It then
streams its microphone as ``audio-chunk`` events — all the time in its always-on mode, from
its wake word on in its wake-word mode (announced by ``run-pipeline`` either way) — which go
through farbspiel's own front end, endpointer and recogniser exactly as a local
microphone's sound does (:class:`SatelliteMicrophone` is one, for the microphone loop of
:mod:`voice.session.microphone`). After each utterance farbspiel sends the satellite a
``transcript`` (its signal that the utterance was heard: in wake-word mode it then waits
for the wake word again). farbspiel's speech is sent
back as ``audio-start``, ``audio-chunk``…, ``audio-stop`` and played on the satellite's
speaker (:meth:`SatelliteLink.play_wav`, which returns when the words have been played
there, so the half-duplex rule holds: the satellite's microphone hears them, and that
audio is thrown away).

The satellite not reachable, gone in the middle of a game, silent (no sound for
:data:`SILENT_SECONDS`), answering something that is not Wyoming or not a satellite, or
closing in the middle of an utterance is an :class:`AudioError` of the microphone: the
microphone loop tells the table, stops the clock, takes typed moves, and connects again
every second; the half-heard utterance is dropped, nothing said before is lost. Every
network wait is bounded.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
import time
import wave
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import numpy as np

from voice.input.audio import SAMPLE_RATE, AudioChunk, StreamResampler, to_int16_bytes
from voice.sound import AudioError
from voice.wyoming import (
    CONNECT_SECONDS,
    DESCRIBE_SECONDS,
    Connection,
    ServiceFault,
    bounded,
    connect,
)

SILENT_SECONDS = 5.0
"""A satellite that should stream (always-on mode, or after its wake word) but sends
nothing for this long is taken as gone."""

OPEN_SECONDS = CONNECT_SECONDS + DESCRIBE_SECONDS + 2.0
"""Longest time one attempt to connect takes (connection, ``describe``, ``run-satellite``)."""

SEND_SECONDS = 5.0
"""Longest wait for one event to be written to the satellite."""

SPEAKER_LATENCY = 0.4
"""Seconds the satellite's speaker plays later than its audio is sent (its buffer and
its sound program): a line counts as said this long after it was sent."""

ECHO_TAIL = 0.8
"""Seconds after a line during which the satellite's microphone may still hear it."""

CHUNK_SAMPLES = 1024
"""Samples per ``audio-chunk`` sent to the satellite's speaker."""


class SatelliteLink:
    """The one connection to a satellite (it takes one at a time), on a thread of its own
    that runs the network; the microphone reads what it streams, the speaker plays
    through it."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="wyoming-satellite")  # fmt: skip
        self._thread.start()
        self._connection: Connection | None = None
        self._reader: concurrent.futures.Future[None] | None = None
        self._opening: concurrent.futures.Future[None] | None = None
        self.audio: queue.Queue[AudioChunk | AudioError] = queue.Queue()
        self.name = ""
        self.streaming = False
        """Whether the satellite streams its microphone now: always in always-on mode;
        in wake-word mode from the wake word to the end of the utterance."""
        self._continuous = True
        self.listening = False
        """Whether its microphone is listened to (else only its speaker is used, and the
        sound it streams is dropped)."""
        self._speaker_tried = False

    # -- connecting ---------------------------------------------------------------------------
    def open(self, wait: float = OPEN_SECONDS) -> None:
        """Connect, make sure it is a satellite, start it streaming; AudioError if not.
        The attempt runs on the network's thread: waited for at most ``wait`` seconds (0
        while the game goes on: a slow satellite never holds it up); one still under way
        is an AudioError too, and the next call waits for it again."""
        if self._opening is None:
            self.close_connection()
            self.audio = queue.Queue()
            self.streaming, self._continuous = False, True
            work = bounded(self._open(), OPEN_SECONDS)
            self._opening = asyncio.run_coroutine_threadsafe(work, self._loop)
        opening = self._opening
        try:
            self._result(opening, wait, cancel=False)
        except ServiceFault as exc:
            if opening.done():
                self._opening = None
            raise _audio_error(exc, self.uri) from None
        self._opening = None
        connection = self._connection
        assert connection is not None
        self._reader = asyncio.run_coroutine_threadsafe(self._read(connection), self._loop)

    async def _open(self) -> None:
        from wyoming.info import Describe, Info
        from wyoming.satellite import RunSatellite

        connection = await connect(self.uri)
        try:
            await bounded(connection.write_event(Describe().event()), SEND_SECONDS)
            while True:
                event = await bounded(connection.read_event(), DESCRIBE_SECONDS)
                if event is None:
                    raise ServiceFault("wyoming_closed")
                if Info.is_type(event.type):
                    break
            satellite = Info.from_event(event).satellite
            if satellite is None:
                raise ServiceFault("satellite_not_one")
            self.name = str(satellite.name or "")
            await bounded(connection.write_event(RunSatellite().event()), SEND_SECONDS)
        except BaseException:
            await connection.disconnect()
            raise
        self._connection = connection

    async def _read(self, connection: Connection) -> None:
        """What the satellite sends: its microphone's sound into :attr:`audio`; a fault
        (or its hanging up) as an AudioError there too."""
        from wyoming.audio import AudioChunk as WyomingChunk
        from wyoming.audio import AudioStop
        from wyoming.pipeline import RunPipeline

        audio = self.audio
        resampler: StreamResampler | None = None
        try:
            while True:
                event = await connection.read_event()
                if event is None:
                    raise ServiceFault("satellite_gone")
                if RunPipeline.is_type(event.type):
                    # it starts streaming: for good (always-on: the wake word would be
                    # found by the server) or until the utterance is heard (its own wake word)
                    stage = RunPipeline.from_event(event).start_stage
                    self._continuous = str(getattr(stage, "value", stage)) == "wake"
                    self.streaming = True
                    continue
                if AudioStop.is_type(event.type):
                    self.streaming = False  # (its voice detection gave up waiting)
                    continue
                if not WyomingChunk.is_type(event.type) or not self.listening:
                    continue
                chunk = WyomingChunk.from_event(event)
                if chunk.width != 2 or chunk.channels < 1 or chunk.rate < 8000:
                    raise ServiceFault("wyoming_garbage", "audio-chunk")
                samples = np.frombuffer(chunk.audio[: len(chunk.audio) // 2 * 2], "<i2")
                if chunk.channels > 1:
                    samples = samples[: len(samples) // chunk.channels * chunk.channels]
                    samples = samples.reshape(-1, chunk.channels).mean(axis=1)
                if chunk.rate != SAMPLE_RATE:
                    if resampler is None or resampler.src_rate != chunk.rate:
                        resampler = StreamResampler(chunk.rate, SAMPLE_RATE)
                    samples = resampler.process(samples.astype(np.float64))
                data = to_int16_bytes(np.asarray(samples, dtype=np.float64))
                seconds = len(data) / 2 / SAMPLE_RATE
                audio.put(AudioChunk(data, time.monotonic() - seconds))
        except ServiceFault as exc:
            audio.put(_audio_error(exc, self.uri))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a stranger's bytes: told, never a traceback
            audio.put(_audio_error(ServiceFault("wyoming_garbage", type(exc).__name__), self.uri))

    # -- what farbspiel sends ---------------------------------------------------------------
    def heard(self, text: str) -> None:
        """Tell the satellite an utterance was heard (``transcript``: in wake-word mode it
        stops streaming and waits for the wake word again); never waits long."""
        from wyoming.asr import Transcript

        connection = self._connection
        if connection is None:
            return
        if not self._continuous:
            self.streaming = False
        work = bounded(connection.write_event(Transcript(text=text).event()), SEND_SECONDS)
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        future.add_done_callback(_ignore_fault)  # the microphone side tells of a lost link

    def play_wav(self, path: Path) -> None:
        """Play a WAV file on the satellite's speaker; returns when it has been played
        there. AudioError if it cannot (the speech output tells the table)."""
        try:
            with wave.open(str(path), "rb") as wav:
                rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
                raw = wav.readframes(wav.getnframes())
        except (OSError, wave.Error, EOFError) as exc:
            raise AudioError(key="speech_file_unreadable", path=path, detail=str(exc)) from None
        if self._connection is None and not self.listening:
            # only its speaker is used (typed moves): connected here, never held up long
            with contextlib.suppress(AudioError):
                self.open(0.0 if self._speaker_tried else OPEN_SECONDS)
            self._speaker_tried = True
        connection = self._connection
        if connection is None:
            raise AudioError(key="satellite_speaker_gone", uri=self.uri)
        seconds = len(raw) / width / channels / rate
        started = time.monotonic()
        try:
            self._call(_send_audio(connection, raw, rate, width, channels), SEND_SECONDS + seconds)
        except ServiceFault:
            raise AudioError(key="satellite_speaker_gone", uri=self.uri) from None
        left = started + seconds + SPEAKER_LATENCY - time.monotonic()
        if left > 0:
            time.sleep(left)  # it is said at the table while we wait: half-duplex

    # -- closing ------------------------------------------------------------------------------
    def close_connection(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
        connection, self._connection = self._connection, None
        if connection is not None and not self._loop.is_closed():
            try:
                self._call(connection.disconnect(), 2.0)
            except ServiceFault:
                pass

    def close(self) -> None:
        self.close_connection()
        opening, self._opening = self._opening, None
        if opening is not None:
            opening.cancel()
        if not self._loop.is_closed():
            with contextlib.suppress(ServiceFault):
                self._call(_settle(), 2.0)  # what was cancelled hangs up before the end
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=2)
            if not self._thread.is_alive():
                self._loop.close()

    def _call(self, work: Coroutine[Any, Any, Any], seconds: float) -> Any:
        """Run ``work`` on the network's thread, waiting at most ``seconds``."""
        return self._result(asyncio.run_coroutine_threadsafe(work, self._loop), seconds)

    @staticmethod
    def _result(future: concurrent.futures.Future[Any], seconds: float, cancel: bool = True) -> Any:
        """What ``future`` gives within ``seconds``; every fault a ServiceFault."""
        try:
            return future.result(timeout=seconds)
        except TimeoutError:
            if cancel:
                future.cancel()
            raise ServiceFault("wyoming_slow") from None
        except ServiceFault:
            raise
        except (ConnectionError, OSError) as exc:
            raise ServiceFault("wyoming_unreachable", str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - whatever a stranger's bytes make of it
            raise ServiceFault("wyoming_garbage", type(exc).__name__) from None


class SatelliteMicrophone:
    """The satellite's microphone, for the microphone loop (``read``, ``close``)."""

    def __init__(self, link: SatelliteLink) -> None:
        self.link = link
        self._last_chunk_at = 0.0

    def start(self, wait: float = OPEN_SECONDS) -> SatelliteMicrophone:
        """Connected (see :meth:`SatelliteLink.open`); AudioError if not (yet)."""
        self.link.listening = True
        self.link.open(wait)
        self._last_chunk_at = time.monotonic()
        return self

    def read(self, timeout: float | None = None) -> AudioChunk | None:
        """The next chunk, or None after ``timeout``; AudioError when the satellite went
        away, fell silent or sent something that is not its sound."""
        try:
            item = self.link.audio.get(timeout=timeout)
        except queue.Empty:
            if not self.link.streaming:
                self._last_chunk_at = time.monotonic()  # waiting for its wake word
            elif time.monotonic() - self._last_chunk_at > SILENT_SECONDS:
                raise AudioError(key="satellite_silent", uri=self.link.uri,
                                 seconds=round(SILENT_SECONDS)) from None  # fmt: skip
            return None
        if isinstance(item, AudioError):
            raise item
        self._last_chunk_at = time.monotonic()
        return item

    def close(self) -> None:
        self.link.close_connection()


async def _settle() -> None:
    """Lets the network's other work end (each is bounded)."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=1.5)


def _ignore_fault(future: concurrent.futures.Future[Any]) -> None:
    """A ``transcript`` that could not be sent: the satellite is gone, which its
    microphone tells."""
    if not future.cancelled():
        future.exception()


def _audio_error(fault: ServiceFault, uri: str) -> AudioError:
    """A fault of the network as the microphone's AudioError, said in the game's language."""
    kind = fault.key.split("_", 1)[1]  # wyoming_unreachable, satellite_gone, ...
    return AudioError(key=f"satellite_{kind}", uri=uri, detail=fault.detail)


async def _send_audio(
    connection: Connection, raw: bytes, rate: int, width: int, channels: int
) -> None:
    from wyoming.audio import AudioChunk as WyomingChunk
    from wyoming.audio import AudioStart, AudioStop

    await connection.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
    step = CHUNK_SAMPLES * width * channels
    for offset in range(0, len(raw), step):
        chunk = WyomingChunk(
            rate=rate, width=width, channels=channels, audio=raw[offset : offset + step]
        )
        await connection.write_event(chunk.event())
    await connection.write_event(AudioStop().event())
