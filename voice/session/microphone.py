"""The microphone loop: listen, recognise, hand the words to the session, keep time.

The recogniser listens for the phrases of the session's current phase (switched whenever
the phase changes). Half-duplex: farbspiel's own voice must never be taken as a player's
words, so the session's output is wrapped in a :class:`SpeakingGate` that remembers when
farbspiel spoke; audio captured in that time (plus a short echo tail) is thrown away and
the recogniser is reset, so nothing of it can start an utterance.

A microphone that goes away (unplugged, its PulseAudio device removed) does not end the
game: the table is told, the clock stops (no timer runs out while nobody can be heard),
typed lines still count, the device is looked for again every :data:`RETRY_SECONDS`, and
when it is back the table is told and the game goes on where it stood.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from voice.input.audio import AudioChunk, AudioError
from voice.input.clock import Clock, StoppableClock
from voice.input.lines import LineReader
from voice.output.messages import console_text
from voice.output.sinks import Output
from voice.recognition.base import Recogniser, Transcript
from voice.session.session import Phase, Session

ECHO_TAIL = 0.3
"""Seconds after farbspiel's speech during which the room may still echo it."""

POLL_SECONDS = 0.1
"""Longest wait for audio before timers and typed input are looked at again."""

RETRY_SECONDS = 1.0
"""How often a microphone that went away is looked for again."""


class AudioSource(Protocol):
    def read(self, timeout: float | None = None) -> AudioChunk | None:
        """The next chunk, or ``None`` after ``timeout``; raises AudioError if gone."""
        ...


class SpeakingGate:
    """An :class:`Output` wrapper that knows when farbspiel was speaking.

    ``say`` of the wrapped output must return when the words have been spoken (speech
    output does); the time from its start to its end plus ``tail`` is "own voice".
    """

    def __init__(
        self, out: Output, tail: float = ECHO_TAIL, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.out = out
        self.tail = tail
        self.now = now
        self.speaking = False
        self._spans: list[tuple[float, float]] = []

    def say(self, text: str) -> None:
        self._gated(lambda: self.out.say(text))

    def say_as(self, text: str, speaker: str) -> None:
        """A line of the assistant's seat (in its own voice where the output has one)."""
        say_as = getattr(self.out, "say_as", None)
        if say_as is None:
            self.say(text)
        else:
            self._gated(lambda: say_as(text, speaker))

    def _gated(self, speak: Callable[[], None]) -> None:
        start = self.now()
        self.speaking = True
        try:
            speak()
        finally:
            self.speaking = False
            self._spans.append((start, self.now() + self.tail))
            self._spans = self._spans[-16:]

    def own_voice(self, chunk: AudioChunk) -> bool:
        """Whether the chunk was (partly) captured while farbspiel spoke or echoed."""
        if self.speaking:
            return True
        return any(chunk.ends_at > start and chunk.captured_at < end for start, end in self._spans)

    def record(self, record: dict[str, Any]) -> None:
        self.out.record(record)

    def set_rate(self, wpm: int) -> None:
        self.out.set_rate(wpm)

    def close(self) -> None:
        self.out.close()


def run_microphone(
    session: Session,
    recogniser: Recogniser,
    source: AudioSource,
    gate: SpeakingGate,
    clock: Clock,
    *,
    keyboard: LineReader | None = None,
    notify: Callable[[str], None] | None = None,
    heard: Callable[[Transcript], None] | None = None,
    reopen: Callable[[], AudioSource] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Run a started session from the microphone until the game ends.

    ``session.out`` must be ``gate`` (so that farbspiel's speech is known). Typed lines
    from ``keyboard`` are taken too. If the microphone goes away (``source.read`` raises
    AudioError), ``reopen`` is called every :data:`RETRY_SECONDS` until it returns the
    microphone again (it raises AudioError while there is none); without ``reopen`` the
    AudioError ends the loop.
    """
    clock = StoppableClock(clock)
    # the engine's own confidence scale decides what is acted on, confirmed or ignored
    session.policy = session.policy.for_recogniser(recogniser)
    if session.clock is not None:
        session.clock = clock.now  # timers must not run while the microphone is gone
    listening: Phase | None = None
    deaf = False  # nothing of the current phase can be recognised: audio is not used
    discarding = False
    microphone: AudioSource | None = source
    next_try = 0.0
    while not session.finished:
        if not session.tick(clock.now()):
            break
        phase = session.phase()
        if phase != listening:
            try:
                recogniser.set_phrases(session.phrases(), session.phrase_names())  # cached
                deaf = False
            except ValueError as exc:  # no phrase of this phase can be heard with this model
                deaf = True
                if notify is not None:
                    notify(console_text("phase_unhearable", problem=exc))
            listening = phase
        if keyboard is not None:
            line = keyboard.readline(0)
            if line == "":
                keyboard = None  # end of typed input; the microphone carries on
            elif line is not None and line.strip():
                session.hear(line.strip())
                continue
        if microphone is None:  # gone: look for it now and then, keep time standing still
            assert reopen is not None
            if clock.base.now() >= next_try:
                microphone = _look_again(reopen)
                next_try = clock.base.now() + RETRY_SECONDS
                if microphone is not None:
                    clock.go()
                    recogniser.reset()
                    discarding = False
                    if notify is not None:
                        notify(console_text("microphone_back"))
                    session.notice("microphone_back", prompt=True)
                    continue
            sleep(POLL_SECONDS)
            continue
        wait = session.seconds_to_next_timer()
        try:
            chunk = microphone.read(POLL_SECONDS if wait is None else min(POLL_SECONDS, wait))
        except AudioError as exc:
            if reopen is None:
                raise
            microphone = None
            next_try = clock.base.now() + RETRY_SECONDS
            clock.stop()
            recogniser.reset()  # half an utterance from before is no utterance
            if notify is not None:
                saved = session.journal.path if session.journal is not None else None
                notify(
                    console_text(
                        "waiting_for_microphone", problem=exc, saved=bool(saved), path=saved
                    )
                )
            session.notice("microphone_lost", {"reason": str(exc), "typing": keyboard is not None})
            continue
        if chunk is None:
            continue
        if deaf:
            continue
        if gate.own_voice(chunk):
            if not discarding:
                recogniser.reset()  # drop any utterance our own voice may have begun
                discarding = True
            continue
        discarding = False
        transcript = recogniser.accept(chunk.data)
        if transcript is None:
            continue
        if heard is not None:
            heard(transcript)
        session.hear_speech(transcript)  # the play policy: act, confirm, ask again, ignore


def _look_again(reopen: Callable[[], AudioSource]) -> AudioSource | None:
    try:
        return reopen()
    except AudioError:
        return None
