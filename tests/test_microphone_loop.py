"""The microphone loop's own logic: phrases per phase, half-duplex, confidence, typing.

A scripted "room" stands in for microphone and recogniser here (what it hears is text),
so that the rules around them can be shown exactly; the real engine and real audio are
tested in test_vosk_real.py and test_virtual_microphone.py.
"""

from __future__ import annotations

import os
from collections import deque

import pytest

from games.engine import Setup
from voice.input.audio import AudioChunk, AudioError
from voice.input.lines import LineReader
from voice.output.sinks import MultiOutput, RecordingOutput, TextOutput
from voice.recognition.base import Recogniser, Transcript
from voice.recognition.vosk import VoskRecogniser
from voice.session.adapters import adapter_for
from voice.session.microphone import SpeakingGate, run_microphone
from voice.session.session import Session
from words.text import normalize

END = b"\x00"  # end of an utterance in the room's "audio"


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


class Room:
    """Microphone stand-in: chunks of text "audio" with capture times."""

    def __init__(self, clock: Clock, max_reads: int = 300) -> None:
        self.clock = clock
        self.chunks: deque[AudioChunk] = deque()
        self.player_lines: deque[tuple[str, float]] = deque()
        self.reads_left = max_reads

    def capture(self, text: str, confidence: float = 1.0) -> None:
        """Something is said in the room now (a player, or farbspiel's own voice)."""
        data = f"{confidence}|{text}".encode() + END
        self.chunks.append(AudioChunk(data, self.clock.now()))

    def player(self, text: str, confidence: float = 1.0) -> None:
        self.player_lines.append((text, confidence))

    def read(self, timeout: float | None = None) -> AudioChunk | None:
        self.reads_left -= 1
        if self.reads_left < 0:
            raise AudioError("enough")  # a loop that talks to itself never ends otherwise
        if not self.chunks:
            if not self.player_lines:
                raise AudioError("the room has gone quiet")  # ends a test that did not finish
            self.clock.t += 1.0  # the player waits a moment, then speaks
            self.capture(*self.player_lines.popleft())
        self.clock.t += 0.05
        return self.chunks.popleft()


class TextRecogniser(Recogniser):
    """Recogniser stand-in that "hears" the text in the room's chunks (on vosk's
    confidence scale)."""

    thresholds = VoskRecogniser.thresholds

    def __init__(self) -> None:
        self.phrase_lists: list[list[str]] = []
        self.buffer = b""
        self.resets = 0

    def set_phrases(self, phrases, names=()):
        self.phrase_lists.append(list(phrases))

    def accept(self, chunk: bytes) -> Transcript | None:
        self.buffer += chunk
        if not self.buffer.endswith(END):
            return None
        confidence, text = self.buffer[:-1].decode().split("|", 1)
        self.buffer = b""
        return Transcript(normalize(text), float(confidence))

    def finish(self):
        return None

    def reset(self) -> None:
        self.buffer = b""
        self.resets += 1


class Voice:
    """Speech output stand-in: speaking takes time, and the room hears it."""

    def __init__(self, room: Room, clock: Clock) -> None:
        self.room, self.clock = room, clock
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)
        self.room.capture(text)  # the microphone picks up our own voice
        self.clock.t += 0.08 * len(text.split())

    def record(self, record):
        pass

    def set_rate(self, wpm):
        pass

    def close(self):
        pass


def table(gate_tail: float = 0.3, deaf_gate: bool = False):
    clock = Clock()
    room = Room(clock)
    voice = Voice(room, clock)
    records = RecordingOutput()
    gate = SpeakingGate(MultiOutput([voice, records]), tail=gate_tail, now=clock.now)
    if deaf_gate:  # a loop without the half-duplex rule, to show what it prevents
        gate.own_voice = lambda chunk: False
    adapter = adapter_for("alle-meine-farben")
    session = Session(adapter, "de", Setup(("Anna", "Ben", "Cem"), seed=7), gate)
    return session, room, voice, records, gate, clock


def play(session, room, gate, clock, recogniser=None, **kwargs):
    recogniser = recogniser or TextRecogniser()
    session.start()
    try:
        run_microphone(session, recogniser, room, gate, clock, **kwargs)
    except AudioError:
        pass
    return recogniser


def test_farbspiel_never_hears_itself():
    session, room, voice, records, gate, clock = table()
    room.player("Ben ist am jüngsten")
    room.player("Ich male den Ball rot an")
    room.player("beenden")
    room.player("ja")
    recogniser = play(session, room, gate, clock)
    heard = [r["text"] for r in records.records if r["type"] == "heard"]
    assert heard == ["ben ist am jüngsten", "ich male den ball rot an", "beenden", "ja"]
    assert [a.name for a in session.actions] == ["first", "place"]
    assert not [r for r in records.records if r["type"] == "not_understood"]
    assert session.finished and recogniser.resets >= 3  # once per answer farbspiel spoke
    # farbspiel said "Ben fängt an." — had it heard that, it would have been a move
    assert any("Ben fängt an" in line for line in voice.said)


def test_without_the_rule_its_own_voice_would_be_taken_as_moves():
    session, room, voice, records, gate, clock = table(deaf_gate=True)
    room.player("Ben ist am jüngsten")
    play(session, room, gate, clock)
    heard = [r["text"] for r in records.records if r["type"] == "heard"]
    # it talks to itself: its own sentences reach the play policy as if a player spoke
    assert len(heard) > 1 and heard[0].startswith("alle meine farben mit anna")


def test_audio_captured_in_the_echo_tail_is_dropped_but_later_speech_is_not():
    clock = Clock()
    voice = Voice(Room(clock), clock)
    gate = SpeakingGate(voice, tail=0.3, now=clock.now)
    gate.say("Anna, Nummer eins: der Ball.")
    end = clock.now()
    assert gate.own_voice(AudioChunk(b"\0" * 1600, end - 0.2))  # during the speech
    assert gate.own_voice(AudioChunk(b"\0" * 1600, end + 0.2))  # in the echo tail
    assert not gate.own_voice(AudioChunk(b"\0" * 1600, end + 0.31))  # a player, after it
    assert not gate.own_voice(AudioChunk(b"\0" * 1600, end - 10.0))  # well before it


def test_the_recogniser_listens_for_the_current_phase_only():
    session, room, voice, records, gate, clock = table()
    room.player("Ben ist am jüngsten")
    room.player("Ich male den Ball rot an", confidence=0.6)  # unsure: made, said back
    room.player("nein")  # taken back
    room.player("Ich male den Ball rot an")
    room.player("beenden")
    room.player("ja")
    recogniser = play(session, room, gate, clock)
    lists = recogniser.phrase_lists
    assert "ben ist am jüngsten" in lists[0] and "den ball rot" not in lists[0]
    assert "den ball rot" in lists[1]  # the play phase
    assert "nein" in lists[2] and "den hut rot" in lists[2]  # said back: "nein" takes it back
    assert "den ball rot" in lists[3] and "nein" not in lists[3]  # the ball again
    assert "ja" in lists[-1]  # "really quit?"
    assert [r["what"] for r in records.records if r["type"] == "confirm"] == ["quit"]
    assert [r["type"] for r in records.records if r["type"] in ("said_back", "taken_back")] == [
        "said_back",
        "taken_back",
    ]
    assert [a.name for a in session.actions] == ["first", "place"]


def test_unsure_and_empty_transcripts_are_not_moves():
    session, room, voice, records, gate, clock = table()
    unsure = TextRecogniser.thresholds.ignore - 0.05
    room.player("Ben ist am jüngsten", confidence=unsure)  # ignored
    room.player("")  # out-of-grammar chatter comes as an empty transcript
    room.player("Ben ist am jüngsten", confidence=0.95)
    room.player("beenden")
    room.player("ja")
    play(session, room, gate, clock)
    assert [a.name for a in session.actions] == ["first"]
    asked = [r for r in records.records if r["type"] in ("not_understood", "confirm")]
    assert asked == [{"type": "confirm", "what": "quit"}]  # only "really quit?"


def test_typed_lines_count_while_the_microphone_listens():
    session, room, voice, records, gate, clock = table()
    read_fd, write_fd = os.pipe()
    os.write(write_fd, "Ben ist am jüngsten\n".encode())
    os.close(write_fd)
    room.player("Ich male den Ball rot an")
    room.player("beenden")
    room.player("ja")
    play(session, room, gate, clock, keyboard=LineReader(read_fd))
    os.close(read_fd)
    assert [a.name for a in session.actions] == ["first", "place"]


def test_a_phase_the_model_cannot_hear_is_said_and_typing_still_works():
    class NoWords(TextRecogniser):
        def set_phrases(self, phrases, names=()):
            raise ValueError("the speech model knows none of the 12 phrases")

        def accept(self, chunk):  # like vosk: without a grammar there is nothing to hear with
            raise RuntimeError("set_phrases() must come before audio")

    session, room, voice, records, gate, clock = table()
    notes = []
    room.player("beenden")
    room.player("ja")
    play(session, room, gate, clock, recogniser=NoWords(), notify=notes.append)
    assert notes and "knows none" in notes[0] and "type it" in notes[0]


def test_a_microphone_that_cannot_be_opened_ends_with_the_way_back(tmp_path):
    from voice.cli.devices import MicrophoneInput
    from voice.session.journal import Header, Journal

    class BrokenMicrophone:
        def start(self):
            raise AudioError("the microphone cannot be opened (Device unavailable)")

        def close(self):
            pass

    adapter = adapter_for("alle-meine-farben")
    setup = Setup(("Anna", "Ben"), seed=1)
    save = tmp_path / "game.jsonl"
    session = Session(
        adapter,
        "de",
        setup,
        TextOutput(open(os.devnull, "w")),
        journal=Journal.create(save, Header(adapter.game_id, "de", setup)),
    )
    import voice.cli.devices as devices

    original = devices.Microphone
    devices.Microphone = BrokenMicrophone
    try:
        with pytest.raises(AudioError) as err:
            MicrophoneInput(TextRecogniser(), None).run(session, Clock(), False, False)
    finally:
        devices.Microphone = original
    message = str(err.value)
    assert "cannot be opened" in message
    assert f"farbspiel resume {save} --input keyboard" in message


# --- a microphone that goes away and comes back --------------------------------------------
class UnpluggableRoom(Room):
    """The room's microphone can be unplugged and plugged in again."""

    def __init__(self, clock: Clock, max_reads: int = 300) -> None:
        super().__init__(clock, max_reads)
        self.unplug_before: dict[int, int] = {}
        """player line number → failed looks for the device before it is back."""
        self.lines_said = 0
        self.gone = False
        self.looks = 0

    def read(self, timeout=None):
        if not self.chunks and self.lines_said in self.unplug_before and not self.gone:
            self.gone = True
            raise AudioError("the microphone stopped delivering sound (was it unplugged?)")
        if not self.chunks and self.player_lines:
            self.lines_said += 1
        return super().read(timeout)

    def reopen(self):
        """Looking for the device: still gone, until it has been looked for often enough."""
        self.looks += 1
        if self.looks <= self.unplug_before[self.lines_said]:
            raise AudioError("no microphone found")
        del self.unplug_before[self.lines_said]
        self.gone, self.looks = False, 0
        return self


def sleeping(clock):
    def sleep(seconds):
        clock.t += seconds

    return sleep


def test_the_microphone_goes_and_comes_back_and_the_game_goes_on(tmp_path):
    from voice.session.journal import Header, Journal, read
    from voice.session.microphone import RETRY_SECONDS

    session, _, voice, records, gate, clock = table()
    room = UnpluggableRoom(clock)
    session.out.out.outputs[0].room = room  # farbspiel's voice is heard in this room
    save = tmp_path / "game.jsonl"
    session.journal = Journal.create(save, Header("alle-meine-farben", "de", session.setup))
    room.player("Ben ist am jüngsten")
    room.player("Ich male den Ball rot an")
    room.unplug_before[2] = 30  # after the first move: gone for 30 looks (30 seconds)
    room.player("den Hut gelb")
    room.player("beenden")
    room.player("ja")
    notes = []
    session.start()
    clock_before = clock.t
    run_microphone(
        session, TextRecogniser(), room, gate, clock, notify=notes.append,
        reopen=room.reopen, sleep=sleeping(clock),
    )  # fmt: skip
    assert [a.name for a in session.actions] == ["first", "place", "place"]
    assert [a.args["colour"] for a in session.actions[1:]] == ["red", "yellow"]
    types = [r["type"] for r in records.records]
    assert types.count("microphone_lost") == 1 and types.count("microphone_back") == 1
    lost = next(r for r in records.records if r["type"] == "microphone_lost")
    assert "unplugged" in lost["reason"] and lost["typing"] is False
    # what the table heard, in order: the loss, then (30 s later) the return and the prompt
    gone = voice.said.index(next(t for t in voice.said if "Mikrofon nicht mehr" in t))
    assert "halte so lange die Zeit an" in voice.said[gone]
    assert voice.said[gone + 1] == "Das Mikrofon ist wieder da. Es geht weiter."
    assert "Nummer 2" in voice.said[gone + 2]  # whose turn it is, said again
    assert clock.t - clock_before > 30 * RETRY_SECONDS
    assert notes[0].startswith("the microphone stopped delivering sound")
    assert f"the game is saved in {save}" in notes[0] and notes[1] == "the microphone is back"
    # nothing was lost: the save file holds every move
    assert read(save).actions == session.actions


def pantone_session(room: Room, clock: Clock, lang: str):
    """A Pantone game (Anna, Ben, Cem) heard through ``room``: session, voice, records, gate."""
    voice = Voice(room, clock)
    records = RecordingOutput()
    gate = SpeakingGate(MultiOutput([voice, records]), tail=0.3, now=clock.now)
    adapter = adapter_for("pantone")
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options=adapter.default_options(lang))
    return Session(adapter, lang, setup, gate), voice, records, gate


def test_typed_moves_count_and_timers_wait_while_the_microphone_is_gone():
    from voice.session.microphone import RETRY_SECONDS

    clock = Clock()
    room = UnpluggableRoom(clock, max_reads=2000)
    session, voice, records, gate = pantone_session(room, clock, "en")
    session.clock = clock.now  # real time: timers run on the clock
    read_fd, write_fd = os.pipe()
    room.player("Anna")
    room.unplug_before[1] = 120  # gone for two minutes, just after "Anna"
    room.player("how much time is left")  # asked once the microphone is back
    room.player("quit")
    room.player("yes")
    looks = []

    def reopen():
        looks.append(clock.t)
        if len(looks) == 3:  # meanwhile someone types the Artist's choice
            os.write(write_fd, b"card 1\n")
        return room.reopen()

    session.start()
    try:
        run_microphone(
            session, TextRecogniser(), room, gate, clock, keyboard=LineReader(read_fd),
            reopen=reopen, sleep=sleeping(clock),
        )  # fmt: skip
    except AudioError:
        pass
    finally:
        os.close(write_fd)
        os.close(read_fd)
    assert all(b - a >= RETRY_SECONDS - 1e-9 for a, b in zip(looks, looks[1:], strict=False))
    lost = next(r for r in records.records if r["type"] == "microphone_lost")
    assert lost["typing"] is True
    said = voice.said
    gone = said.index(next(t for t in said if "can't hear the microphone" in t))
    back = said.index("The microphone is back. Let's go on.")
    assert "type your moves" in said[gone]
    # the typed choice started the 60-second timer while the microphone was gone, and no
    # warning came in the two minutes without it: time stood still
    assert any("paint!" in t for t in said[gone:back])
    assert not any("seconds" in t.lower() for t in said[gone + 1 : back] if "paint!" not in t)
    answer = next(r for r in records.records if r["type"] == "clock")
    assert answer["seconds"] >= 55  # two minutes later, the minute is still (nearly) all there
    assert [a.name for a in session.actions][:2] == ["first", "choose"]


def pantone_table():
    """A Pantone game through the microphone loop, Ben asked for his guess."""
    clock = Clock()
    room = Room(clock)
    session, voice, _, gate = pantone_session(room, clock, "de")
    session.start()
    session.reset_clock(clock.now())
    for line in ("Anna", "Karte 12", "fertig"):
        session.hear(line)
    return session, room, voice, gate, clock


def guess_by_voice(*then: tuple[str, float]):
    """Ben says "Rotkäppchen" (heard fairly sure: said back and held), then ``then``, then
    three seconds of silence (a second at a time): the session, what it said, and how
    many actions there were before the guess."""
    session, room, voice, gate, clock = pantone_table()
    made = len(session.actions)
    for line in [("Rotkäppchen", 0.6), *then, ("", 0.0), ("", 0.0), ("", 0.0)]:
        room.player(*line)
    try:
        run_microphone(session, TextRecogniser(), room, gate, clock)
    except AudioError:
        pass
    return session, voice, made


def test_a_guess_held_by_voice_counts_once_the_table_stayed_quiet_a_moment():
    session, voice, made = guess_by_voice()
    assert "Ben rät Rotkäppchen." in voice.said
    assert session.actions[made].args.get("text") == "rotkäppchen"
    assert not any("richtig?" in line for line in voice.said)


def test_nein_said_by_voice_within_the_moment_drops_the_held_guess():
    session, voice, made = guess_by_voice(("nein", 0.9))  # a second later: inside the moment
    assert "Ben rät Rotkäppchen." in voice.said and "Gut, dann nicht." in voice.said
    assert not any(a.args.get("text") == "rotkäppchen" for a in session.actions[made:])
