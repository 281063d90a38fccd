"""Recognition by a Wyoming speech-to-text service (``--asr tcp://HOST:PORT`` or
``unix://PATH``): the household's own voice server (wyoming-faster-whisper, vosk behind
Wyoming, Home Assistant's voice stack) hears what the table says.

farbspiel finds where each utterance starts and ends itself (the same endpointer as
pocketsphinx, voice/recognition/endpoint.py), sends the utterance to the service
(``transcribe``, ``audio-start``, ``audio-chunk``…, ``audio-stop``) and takes its
``transcript``. The service hears open vocabulary: its transcript goes through the same
understanding as a typed line (the play policy parses it against the phase's sentences and
names; how well it matches decides whether it is acted on, confirmed or ignored).

At start the service is asked to ``describe`` itself: its programs, models and languages
are said, and a service that knows none of the game's language is refused. Every network
wait is bounded. A service that is not reachable, goes away, is slow, answers something
that is not Wyoming or closes in the middle of an utterance does not end the game: the
players are told (once per fault, in the game's language), typed lines still count, and
the service is tried again with the next utterance (at most every :data:`RETRY_SECONDS`);
when it answers again the players are told that too. An utterance the service failed on
is sent once more on a fresh connection before the players are asked to say it again.
"""

from __future__ import annotations

import asyncio
import collections
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from voice.errors import Notice
from voice.input.audio import SAMPLE_RATE
from voice.recognition.base import Recogniser, RecogniserError, Thresholds, Transcript
from voice.recognition.endpoint import Endpointer, Step
from voice.wyoming import (
    CONNECT_SECONDS,
    DESCRIBE_SECONDS,
    Connection,
    ServiceFault,
    bounded,
    connect,
    describe,
    is_wyoming_uri,
    run_bounded,
    shown,
    uri_is_usable,
)
from words.text import normalize

__all__ = ["CONNECT_SECONDS", "ServiceFault", "WyomingRecogniser", "check_uri", "is_wyoming_uri"]

SEND_SECONDS = 5.0
"""Longest wait for one utterance's audio to be sent."""

ANSWER_SECONDS = 20.0
"""Longest wait for a transcript, plus the utterance's own length (a slow server on a
small computer needs about as long as the speech lasted)."""

RETRY_SECONDS = 5.0
"""A service that failed is tried again at most this often (utterances in between are
not sent: each would wait for the same fault)."""

END_SILENCE = 0.6
"""Seconds of quiet that end an utterance."""

MAX_UTTERANCE = 12.0
"""An utterance is cut (and sent) after this many seconds."""

FRAME_BYTES = 960
"""30 ms frames for the speech detector (16 kHz, 16 bit)."""

CHUNK_BYTES = 4096
"""Audio bytes per ``audio-chunk`` event."""

HOLD_OFF = ("wyoming_unreachable", "wyoming_garbage")
"""Faults after which utterances are not sent for :data:`RETRY_SECONDS` (a slow answer or
a dropped one says nothing about the next)."""


@dataclass(frozen=True)
class ServiceInfo:
    """What the service said of itself."""

    programs: tuple[str, ...]
    models: tuple[str, ...]
    languages: tuple[str, ...]

    def speaks(self, lang: str) -> bool:
        return any(code.lower().replace("_", "-").split("-")[0] == lang for code in self.languages)


def check_uri(asr: str) -> str:
    """``asr`` if it is a usable Wyoming address; RecogniserError (with the form) if not."""
    if not uri_is_usable(asr):
        raise RecogniserError(key="wyoming_bad_uri", uri=asr)
    return asr


class WyomingRecogniser(Recogniser):
    """Utterances found here, transcribed by a Wyoming service (see the module text)."""

    # A transcript has no confidence of its own (Whisper gives none over Wyoming): how
    # well its words match a sentence of the phase is what the play policy weighs.
    thresholds = Thresholds()
    engine = "wyoming"

    def __init__(
        self,
        uri: str,
        lang: str,
        notify: Callable[[str | Notice], None],
        *,
        vad: str = "webrtc",
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.uri = check_uri(uri)
        self.lang = lang
        self.notify = notify
        self.now = now
        self._loop = asyncio.new_event_loop()  # the network's; the worker's after the start
        # Utterances are sent by a worker thread, so typed lines and timers go on while the
        # service thinks; its notices and transcripts come back here through queues.
        self._jobs: queue.Queue[tuple[bytes, float] | None] = queue.Queue()
        self._results: queue.Queue[Transcript | None] = queue.Queue()
        self._ready: collections.deque[Transcript | None] = collections.deque()
        self._notices: queue.Queue[Notice] = queue.Queue()
        self._in_flight = 0
        self._worker: threading.Thread | None = None
        self._endpointer = Endpointer(_speech_detector(vad), FRAME_BYTES / 2 / SAMPLE_RATE)
        self._pending = b""  # audio not yet a whole frame
        self._utterance: list[bytes] = []
        self._stream_seconds = 0.0
        self.info: ServiceInfo | None = None
        self._fault: str | None = None  # the notice key of the fault the players were told
        self._next_try = 0.0
        self.refused = False  # the service lacks the game's language: nothing is sent
        self.details: dict[str, Any] = {"engine": "wyoming", "uri": uri}
        try:
            self._describe(at_start=True)
        except ServiceFault as exc:
            # not there at start: the game goes on (typing), the service is tried again
            self._failed(exc)
        finally:
            self._tell()

    # -- the Recogniser interface -------------------------------------------------------

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        """The service hears any words; the phase's sentences are matched afterwards."""
        if not phrases:
            raise ValueError("no phrases")

    def accept(self, chunk: bytes) -> Transcript | None:
        data = self._pending + chunk
        whole = len(data) - len(data) % FRAME_BYTES
        self._pending = data[whole:]
        for offset in range(0, whole, FRAME_BYTES):
            frame = self._endpointer.process(data[offset : offset + FRAME_BYTES])
            self._stream_seconds += FRAME_BYTES / 2 / SAMPLE_RATE
            if frame.step is Step.SILENCE:
                continue
            self._utterance.append(frame.audio)
            if frame.trailing >= END_SILENCE or frame.length >= MAX_UTTERANCE:
                self._end_utterance()
        return self._answer()

    def finish(self) -> Transcript | None:
        """End of the stream: waits (bounded) for every utterance sent, and gives their
        transcripts as one."""
        if self._utterance:
            self._end_utterance()
        heard: list[Transcript] = []
        deadline = self.now() + self._in_flight * (
            2 * (CONNECT_SECONDS + SEND_SECONDS + ANSWER_SECONDS) + MAX_UTTERANCE
        )
        while self._in_flight and self.now() < deadline:
            try:
                transcript = self._results.get(timeout=0.1)
            except queue.Empty:
                continue
            self._in_flight -= 1
            if transcript is not None:
                heard.append(transcript)
        self._tell()
        if not heard:
            return None
        text = " ".join(t.text for t in heard if t.text)
        return Transcript(text=text, confidence=1.0, end=heard[-1].end)

    def reset(self) -> None:
        self._endpointer.reset()
        self._pending = b""
        self._utterance = []

    def close(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            self._jobs.put(None)
            worker.join(timeout=2 * (CONNECT_SECONDS + SEND_SECONDS + ANSWER_SECONDS))
        if worker is None or not worker.is_alive():
            if not self._loop.is_closed():
                self._loop.close()
        self._tell()

    # -- the worker -----------------------------------------------------------------------

    def _end_utterance(self) -> None:
        audio = b"".join(self._utterance)
        self.reset()
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="wyoming-asr", daemon=True)
            self._worker.start()
        self._in_flight += 1
        self._jobs.put((audio, self._stream_seconds))

    def wait_for_answers(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until every utterance sent has its answer; the next
        :meth:`accept` gives them. For the benchmark, which feeds audio faster than it is
        spoken: the wait is the service's time, network hop included."""
        deadline = time.monotonic() + seconds
        while self._in_flight > len(self._ready):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                self._ready.append(self._results.get(timeout=left))
            except queue.Empty:
                return

    def _answer(self) -> Transcript | None:
        """The next transcript the worker has, if any (the players told of any fault)."""
        self._tell()
        while self._in_flight:
            try:
                transcript = self._ready.popleft() if self._ready else self._results.get_nowait()
            except queue.Empty:
                return None
            self._in_flight -= 1
            if transcript is not None:
                return transcript
        return None

    def _tell(self) -> None:
        while True:
            try:
                notice = self._notices.get_nowait()
            except queue.Empty:
                return
            self.notify(notice)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            audio, end = job
            try:
                text = self._transcribe(audio)
            except Exception as exc:  # noqa: BLE001 - a fault must not end the thread
                self._failed(ServiceFault("wyoming_garbage", type(exc).__name__))
                text = None
            heard = None if text is None else Transcript(normalize(text), 1.0, end=end)
            self._results.put(heard)

    def _transcribe(self, audio: bytes) -> str | None:
        """The service's transcript of ``audio``; None (the players told) if it failed."""
        if self.refused:
            return None
        if self._fault is not None and self.now() < self._next_try:
            return None  # it failed a moment ago; typing still works
        for attempt in (1, 2):  # a fault once may be a dropped connection: once more
            try:
                if self.info is None and not self._describe():
                    return None
                text: str = self._run(_transcribe(self.uri, self.lang, audio), None)
            except ServiceFault as exc:
                if attempt == 2 or exc.key == "wyoming_slow":
                    self._failed(exc)
                    return None
                continue
            if self._fault is not None:
                self._fault = None
                self._notices.put(Notice("wyoming_back", {"uri": self.uri}))
            return text
        return None

    def _describe(self, at_start: bool = False) -> bool:
        """Asks the service what it is; refuses one without the game's language
        (RecogniserError at start, a notice and no more sending later). Whether it is
        usable."""
        info = self._run(_describe(self.uri), DESCRIBE_SECONDS)
        self.info = info
        self.details.update(
            programs=list(info.programs), models=list(info.models), languages=list(info.languages)
        )
        if not info.speaks(self.lang):
            lacks = {"uri": self.uri, "lang": self.lang, "languages": _shown(info.languages)}
            if at_start:
                self.close()
                raise RecogniserError(key="wyoming_lacks_language", **lacks)
            self.refused = True
            self._notices.put(Notice("wyoming_lacks_language", lacks))
            return False
        if self._fault is not None:
            self._fault = None
            self._notices.put(Notice("wyoming_back", {"uri": self.uri}))
        self._notices.put(
            Notice(
                "asr_wyoming",
                {
                    "uri": self.uri,
                    "programs": list(info.programs) or ["?"],
                    "models": _shown(info.models),
                    "languages": _languages(info.languages, self.lang),
                },
            )
        )
        return True

    def _run(self, work: Any, timeout: float | None) -> Any:
        """Runs one network conversation on this recogniser's own event loop, bounded."""
        return run_bounded(self._loop, work, timeout)

    def _failed(self, fault: ServiceFault) -> None:
        if fault.key in HOLD_OFF:
            self._next_try = self.now() + RETRY_SECONDS
        if self._fault == fault.key:
            return  # the players know
        self._fault = fault.key
        self._notices.put(Notice(fault.key, {"uri": self.uri, "detail": fault.detail}))


def _shown(items: Sequence[str]) -> str:
    return shown(tuple(items))


def _languages(languages: Sequence[str], lang: str, most: int = 8) -> str | Notice:
    """The languages to say: all of a few; of many, the game's and how many more."""
    if len(languages) <= most:
        return ", ".join(languages)
    return Notice("wyoming_languages_many", {"lang": lang, "count": len(languages) - 1})


def _speech_detector(vad: str) -> Callable[[bytes], bool]:
    if vad == "silero":
        from voice.recognition.frontend import SileroSpeech

        return SileroSpeech()
    import pocketsphinx as ps

    detector = ps.Vad(ps.Vad.LOOSE, SAMPLE_RATE, FRAME_BYTES / 2 / SAMPLE_RATE)
    is_speech: Callable[[bytes], bool] = detector.is_speech
    return is_speech


async def _describe(uri: str) -> ServiceInfo:
    return _info(await describe(uri))


def _info(info: Any) -> ServiceInfo:
    programs: list[str] = []
    models: list[str] = []
    languages: list[str] = []
    for program in info.asr or []:
        programs.append(str(program.name))
        for model in program.models or []:
            models.append(str(model.name).rstrip("/").rsplit("/", 1)[-1])
            languages.extend(str(code) for code in model.languages or [])
    return ServiceInfo(tuple(programs), tuple(models), tuple(dict.fromkeys(languages)))


async def _transcribe(uri: str, lang: str, audio: bytes) -> str:
    from wyoming.asr import Transcribe
    from wyoming.asr import Transcript as WyomingTranscript
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.error import Error

    client = await connect(uri)
    try:
        sending = _send(client, audio, lang, Transcribe, AudioStart, AudioChunk, AudioStop)
        await bounded(sending, SEND_SECONDS)
        deadline = ANSWER_SECONDS + len(audio) / 2 / SAMPLE_RATE
        loop = asyncio.get_running_loop()
        until = loop.time() + deadline
        while True:
            event = await bounded(client.read_event(), until - loop.time())
            if event is None:
                raise ServiceFault("wyoming_closed")
            if WyomingTranscript.is_type(event.type):
                text = WyomingTranscript.from_event(event).text
                if not isinstance(text, str):
                    raise ServiceFault("wyoming_garbage", "text")
                return text
            if Error.is_type(event.type):
                raise ServiceFault("wyoming_error", str(Error.from_event(event).text))
    finally:
        await client.disconnect()


async def _send(
    client: Connection, audio: bytes, lang: str, transcribe: Any, start: Any, chunk: Any, stop: Any
) -> None:
    await client.write_event(transcribe(language=lang).event())
    await client.write_event(start(rate=SAMPLE_RATE, width=2, channels=1).event())
    for offset in range(0, len(audio), CHUNK_BYTES):
        piece = audio[offset : offset + CHUNK_BYTES]
        await client.write_event(chunk(rate=SAMPLE_RATE, width=2, channels=1, audio=piece).event())
    await client.write_event(stop().event())
