"""What the set-up listener answers to (issue 29): a blip in which the recogniser heard no
words at all is silence, not an answer; the repeat for it would talk over the player
who starts to speak just after it (and swallow their first words as farbspiel's own
voice). Unsure speech still gets the short repeat. The recogniser here is a stand-in
that hears what it is told to, so the listener's own rule is what is tested; the real
engine is tested through the microphone in test_device_faults.py and
test_setup_by_voice.py."""

from __future__ import annotations

from collections.abc import Sequence

from voice.input.audio import AudioChunk, AudioError
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Thresholds, Transcript
from voice.session.microphone import SpeakingGate
from voice.setup.listening import SetupListener


class Heard:
    """A recogniser that hears ``results[i]`` at the i-th chunk (None: still listening)."""

    thresholds = Thresholds()

    def __init__(self, results: Sequence[Transcript | None]) -> None:
        self.results = list(results)

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        pass

    def accept(self, chunk: bytes) -> Transcript | None:
        return self.results.pop(0) if self.results else None

    def reset(self) -> None:
        pass


class Room:
    def __init__(self, chunks: int) -> None:
        self.t = 0.0
        self.left = chunks

    def now(self) -> float:
        return self.t

    def read(self, timeout: float | None = None) -> AudioChunk | None:
        self.t += 0.1
        if self.left == 0:
            raise AudioError("the room is quiet now")
        self.left -= 1
        return AudioChunk(b"\0\0" * 1600, self.t)


def answers(results: Sequence[Transcript | None], silence: float = 60.0) -> list[str | None]:
    room = Room(len(results) + 5)
    gate = SpeakingGate(RecordingOutput(), tail=0.0, now=room.now)
    listener = SetupListener(
        Heard(results), room, gate, lambda: ("de", ("Anna", "Ben"), False),
        silence=silence, now=room.now,
    )  # fmt: skip
    got: list[str | None] = []
    try:
        for text, _ in listener.answers():
            got.append(text)
    except AudioError:
        pass
    return got


def test_a_blip_with_no_words_gets_no_repeat_and_the_answer_after_it_counts():
    got = answers([Transcript("nä", 0.0), None, Transcript("", 0.0), None,
                   Transcript("alle meine farben", 0.95)])  # fmt: skip
    assert got == ["alle meine farben"]


def test_words_heard_too_unsure_still_get_the_short_repeat():
    got = answers([Transcript("farben", 0.05), None, Transcript("alle meine farben", 0.95)])
    assert got == [None, "alle meine farben"]


def test_a_quiet_room_gets_the_repeat_in_time():
    """A microphone delivers sound all the time (the room's own): three seconds of it
    with nothing said, and the question is repeated after the two seconds of silence;
    clicks in it are silence too."""
    assert answers([None] * 30, silence=2.0) == [None]
    assert answers([Transcript("hä", 0.0), *[None] * 29], silence=2.0) == [None]
