"""Audio devices that go away mid-game and come back, with a real PulseAudio daemon.

The room is a PulseAudio null sink; its monitor is the microphone. ``pactl unload-module``
takes it away the way pulling a USB plug does (PortAudio's stream fails, the device is no
longer listed), and loading it again brings it back. Tests here: the real command line
with the microphone unplugged and plugged in again; speech heard by the real recogniser
after the microphone returned (and noise played into the room ignored); the loudspeaker
unplugged while farbspiel speaks.
"""

from __future__ import annotations

import dataclasses
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT
from pulse_audio import start_pulseaudio
from speech_audio import KO_MODEL, needs_espeak, needs_ko_model, pcm, utterance, write_wav

from voice.input.audio import rescan_devices

pytestmark = pytest.mark.slow
ROOM = "farbspiel_room"


@pytest.fixture(scope="module")
def pulse(tmp_path_factory):
    runtime = tmp_path_factory.mktemp("pulse")
    daemon = start_pulseaudio(runtime)
    if isinstance(daemon, str):
        pytest.skip(daemon)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PULSE_SERVER", daemon.server)
        try:
            yield daemon
        finally:
            daemon.stop()
    rescan_devices()


@pytest.fixture
def room(pulse):
    """The room's device: plugged in now; ``room.unplug()`` / ``room.plug_in()``."""

    class Room:
        def __init__(self) -> None:
            self.module: str | None = None
            self.plug_in()

        def plug_in(self) -> None:
            self.module = pulse.add_room(ROOM)

        def unplug(self) -> None:
            assert self.module is not None
            pulse.remove(self.module)
            self.module = None

        def say(self, wav: Path) -> None:
            pulse.play(ROOM, wav)

    device = Room()
    rescan_devices()
    yield device
    if device.module is not None:
        device.unplug()


class Terminal:
    """farbspiel run at a (pseudo) terminal, as a player runs it: typing works."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "voice", *argv],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**env, "PYTHONPATH": str(ROOT)},
        )
        os.close(slave)
        self.out = b""
        self.err = b""

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while text.encode() not in self.out + self.err:
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not self._read(0):
                raise AssertionError(f"{text!r} did not come; got:\n{self.text}")
            self._read(min(left, 0.2))

    def _read(self, timeout: float) -> bool:
        """Whether anything came within ``timeout``."""
        ready, _, _ = select.select([self.proc.stdout, self.proc.stderr], [], [], timeout)
        got = b""
        for stream in ready:
            data = os.read(stream.fileno(), 65536)
            got += data
            if stream is self.proc.stdout:
                self.out += data
            else:
                self.err += data
        return bool(got)

    def finish(self, timeout: float = 20.0) -> int:
        code = self.proc.wait(timeout)
        while self._read(0):
            pass
        os.close(self.master)
        return code

    @property
    def text(self) -> str:
        return (self.out + b"\n--- stderr ---\n" + self.err).decode(errors="replace")


@needs_ko_model
def test_the_microphone_is_unplugged_mid_game_and_plugged_in_again(room, pulse, tmp_path):
    save = tmp_path / "game.jsonl"
    game = Terminal(
        ["play", "alle-meine-farben", "--players", "Anna,Ben", "--seed", "1", "--input", "mic",
         "--voice", "text", "--asr", "vosk", "--model", str(KO_MODEL), "--save", str(save)],
        {**pulse.env, "XDG_DATA_HOME": str(tmp_path / "data")},
    )  # fmt: skip
    try:
        game.wait_for("ich höre über das Mikrofon zu (tippen geht auch)", timeout=60)
        game.type("Anna ist am jüngsten")
        game.type("rot")
        game.wait_for("Ben, Nummer 2: der Hut, Reihe 1, Spalte 2.")
        room.unplug()
        game.wait_for("Ich höre das Mikrofon nicht mehr.", timeout=10)
        game.type("gelb")  # typed while the microphone is gone: it counts
        game.wait_for("Der Hut ist jetzt gelb.")
        time.sleep(1.5)  # it stays gone for a while: farbspiel keeps waiting
        room.plug_in()
        game.wait_for("Das Mikrofon ist wieder da. Es geht weiter.", timeout=15)
        game.type("grün")
        game.wait_for("Die Säge ist jetzt grün.")
        game.type("beenden")
        game.type("ja")
        code = game.finish()
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
    out, err = game.out.decode(), game.err.decode()
    assert code == 0, game.text
    assert "Bis dahin könnt ihr eure Züge eintippen." in out
    back = out.index("Das Mikrofon ist wieder da.")
    assert "Anna, Nummer 3: die Säge, Reihe 1, Spalte 3." in out[back:]  # said again
    assert "ich warte, bis das Mikrofon wieder da ist" in err and f"gespeichert in {save}" in err
    assert "das Mikrofon ist wieder da" in err and "Traceback" not in err
    from voice.session.journal import read

    colours = [a.args.get("colour") for a in read(save).actions]
    assert colours == [None, "red", "yellow", "green"]  # nothing lost


class KoreanColours:
    """The real vosk engine with the Korean model, listening for Korean colour words that
    stand for the German game's colours (no German model can be installed here)."""

    WORDS = {"분홍색": "rosa", "주황색": "orange", "보라색": "lila"}

    @property
    def thresholds(self):
        """vosk's scale for the play policy, but no move is applied at once: each is asked
        about, and the test's player answers. With ALSA overruns on a loaded machine the
        Korean model has heard 분홍색 as 보라색 sure enough to act (a CI run); that is the
        acoustics of a stand-in model, while this test is about the device coming back."""
        return dataclasses.replace(self.vosk.thresholds, act=1.01)

    def __init__(self) -> None:
        from voice.recognition.vosk import VoskRecogniser

        self.vosk = VoskRecogniser(KO_MODEL)
        self.vosk.set_phrases(list(self.WORDS))

    def set_phrases(self, phrases, names=()):
        pass  # the Korean list stays

    def accept(self, chunk):
        from voice.recognition.base import Transcript

        heard = self.vosk.accept(chunk)
        if heard is None:
            return None
        return Transcript(self.WORDS.get(heard.text, ""), heard.confidence)

    def finish(self):
        return None

    def reset(self):
        self.vosk.reset()

    def close(self):
        pass


class Records:
    def __init__(self) -> None:
        self.items: list[dict] = []

    def say(self, text):
        self.items.append({"type": "said", "text": text})

    def record(self, record):
        self.items.append(record)

    def set_rate(self, wpm):
        pass

    def close(self):
        pass

    def types(self) -> list[str]:
        return [r["type"] for r in self.items]


def wait_until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def say_until_heard(room, sound, heard, what: str, records, tries: int = 4, refuse=None) -> None:
    """Say ``sound`` into the room; like a player at the table, say it again (up to
    ``tries`` times) if it was not taken. On a loaded machine real-time capture can miss
    the first attempt; what must never happen is noise taken as a move (asserted after).
    ``refuse()`` is the player answering when farbspiel asks about a move ("… – richtig?"):
    called while waiting, it answers a question that is open and returns whether it
    refused a misheard move (the player then says the colour again)."""
    for _ in range(tries):
        room.say(sound)
        end = time.monotonic() + 12
        while time.monotonic() < end:
            if heard():
                return
            if refuse is not None and refuse():
                break  # a misheard colour was refused: the player says it again at once
            time.sleep(0.05)
    raise AssertionError(f"{what} did not happen after {tries} tries: {records.items[-8:]}")


@needs_ko_model
@needs_espeak
def test_speech_after_the_microphone_returns_is_heard_and_noise_never_is(room, tmp_path):
    from games.engine import Setup
    from voice.cli.devices import _Microphones
    from voice.input.audio import Microphone
    from voice.input.clock import RealClock
    from voice.input.lines import LineReader
    from voice.session.adapters import adapter_for
    from voice.session.journal import Header, Journal, read
    from voice.session.microphone import SpeakingGate, run_microphone
    from voice.session.session import Session

    pink = write_wav(tmp_path / "pink.wav", utterance("분홍색", tail=0.8))
    orange = write_wav(tmp_path / "orange.wav", utterance("주황색", tail=0.8))
    rng = np.random.default_rng(4)
    # a hiss twice as loud as the speech (much louder noise leaves vosk's adaptation
    # mishearing the next words for seconds: an engine limit, see the report)
    noise = write_wav(tmp_path / "noise.wav", pcm(rng.normal(0, 3000, 32000)))
    records = Records()
    gate = SpeakingGate(records, tail=0.0)
    adapter = adapter_for("alle-meine-farben")
    setup = Setup(("Anna", "Ben"), seed=1)
    save = tmp_path / "game.jsonl"
    session = Session(
        adapter,
        "de",
        setup,
        gate,
        journal=Journal.create(save, Header(adapter.game_id, "de", setup)),
    )
    clock = RealClock()
    session.clock = clock.now
    read_fd, write_fd = os.pipe()
    os.write(write_fd, "Anna ist am jüngsten\n".encode())
    microphones = _Microphones()
    recogniser = KoreanColours()
    failure: list[BaseException] = []

    def play() -> None:
        try:
            session.start()
            run_microphone(
                session, recogniser, microphones.open(Microphone()), gate, clock,
                keyboard=LineReader(read_fd), reopen=lambda: microphones.open(None),
            )  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 - shown by the main thread
            failure.append(exc)
        finally:
            microphones.close()

    game = threading.Thread(target=play, daemon=True)
    game.start()
    try:
        wait_until(lambda: len(session.actions) == 1, 10, "the typed first player")
        hiss_windows = []  # (first, last) record of what was heard while only the hiss sounded
        start = len(records.items)
        room.say(noise)
        time.sleep(1.0)  # the player speaks a moment after the hiss
        hiss_windows.append((start, len(records.items)))

        def answer(colour: str):
            """The player answers farbspiel's "… – richtig?" truthfully: "ja" if it asks
            about the colour said, "nein" to a misheard one."""

            def reply() -> bool:
                last = session.actions[-1] if session.actions else None
                if session.awaiting is None and session.dialogue.takes_back():
                    if last is not None and last.args.get("colour") != colour:
                        os.write(write_fd, b"nein\n")  # a misheard colour said back
                        wait_until(lambda: not session.dialogue.takes_back(), 5, "the no")
                        return True
                    return False
                if session.awaiting is None:
                    return False
                _, proposed = session.awaiting
                right = proposed is not None and proposed.args.get("colour") == colour
                os.write(write_fd, b"ja\n" if right else b"nein\n")
                wait_until(lambda: session.awaiting is None, 5, "the answer")
                return not right

            return reply

        say_until_heard(
            room,
            pink,
            lambda: len(session.actions) == 2 and session.actions[-1].args["colour"] == "pink",
            "the spoken colour",
            records,
            refuse=answer("pink"),
        )
        room.unplug()
        wait_until(lambda: "microphone_lost" in records.types(), 10, "noticing the loss")
        room.plug_in()
        wait_until(lambda: "microphone_back" in records.types(), 10, "noticing the return")
        time.sleep(1.0)  # a freshly opened PulseAudio stream starts delivering after ~1 s
        start = len(records.items)
        room.say(noise)
        time.sleep(1.0)
        hiss_windows.append((start, len(records.items)))
        say_until_heard(
            room,
            orange,
            lambda: len(session.actions) == 3 and session.actions[-1].args["colour"] == "orange",
            "the colour said after the return",
            records,
            refuse=answer("orange"),
        )
        os.write(write_fd, b"beenden\nja\n")
        game.join(10)
    finally:
        os.close(write_fd)
        if game.is_alive():
            session.finished = True
            game.join(5)
        os.close(read_fd)
    assert not failure, failure
    assert [a.args.get("colour") for a in session.actions] == [None, "pink", "orange"]
    # the hiss was never a colour (a colour said by the player may be misheard on a loaded
    # machine: the player then says "nein" and says it again, as asserted above)
    asked = [
        r
        for r in records.items
        if r["type"] == "said_back" or (r["type"] == "said" and "richtig?" in r["text"])
    ]
    assert len(asked) >= 2  # each spoken move was said back or asked about
    during_hiss = [
        r["text"]
        for first, last in hiss_windows
        for r in records.items[first:last]
        if r["type"] == "heard" and r["text"]
    ]
    assert not during_hiss
    assert recogniser.vosk.noise_dropped >= 1  # (vosk did hear words in it)
    assert read(save).actions == session.actions


def test_the_loudspeaker_unplugged_while_speaking_and_plugged_in_again(room, tmp_path):
    import voice.output.tts as tts
    from voice.output.tts import SpeechOutput, tts_problem

    if tts_problem() is not None:
        pytest.skip(tts_problem())
    notes: list[str] = []
    out = SpeechOutput("de", 170, notify=notes.append)
    long_sentence = "Anna, Nummer drei: der Hut. " * 4
    try:
        timer = threading.Timer(1.5, room.unplug)
        timer.start()
        start = time.monotonic()
        out.say(long_sentence)  # cut off after 1.5 s
        cut_after = time.monotonic() - start
        timer.join()
        assert len(notes) == 1 and "went away while speaking" in notes[0], notes
        assert "continues in text" in notes[0]
        start = time.monotonic()
        out.say("Ben ist dran.")  # gone: not tried again at once, no waiting
        assert time.monotonic() - start < 0.5
        room.plug_in()
        out.output_lost_at -= tts.OUTPUT_RETRY_SECONDS  # the next try is due
        out.say("Ben ist dran.")
    finally:
        out.close()
    assert cut_after < 6.0  # it did not play to its end into nowhere
    assert notes[1:] == ["speech output works again"] and out.output_lost_at is None


@needs_espeak
def test_a_game_is_set_up_by_voice_through_the_microphone(room, pulse, tmp_path):
    """`farbspiel play --input mic` without a game: the set-up is heard through the real
    microphone (the PulseAudio room) by the real pocketsphinx engine, then the game starts
    and listens the same way. Typing still works meanwhile."""
    from voice.bench.farben_naming_speech import make_clip
    from voice.setup.household import Household, household_file, save_household

    clips = {t: make_clip(t, "de", tmp_path, i) for i, t in
             enumerate(["Alle meine Farben", "wir sind Anna und Ben", "ja"])}  # fmt: skip
    env = {**pulse.env, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:  # the household remembered from before:
        patch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])  # its names can be heard
        save_household(Household(players=["Anna", "Ben"]), household_file())
    tone = pulse.room_tone(ROOM)  # the kitchen's own faint noise, never digital silence
    game = Terminal(
        ["play", "--lang", "de", "--input", "mic", "--voice", "text", "--seed", "1"], env
    )

    def say(text: str, then: str) -> None:
        """Say ``text`` in the room until farbspiel answers with ``then`` (a player says
        it again when asked again; three tries)."""
        for attempt in range(3):
            room.say(clips[text])
            try:
                game.wait_for(then, timeout=15)
                return
            except AssertionError:
                if attempt == 2:
                    raise

    try:
        game.wait_for("Was wollen wir spielen?", timeout=60)
        say("Alle meine Farben", "Alle meine Farben. Wer spielt mit?")
        say("wir sind Anna und Ben", "Sollen wir anfangen?")
        say("ja", "Wer von euch ist am jüngsten?")  # the game has started, listening
        game.type("Anna ist am jüngsten")
        game.wait_for("Anna, Nummer 1: der Ball", timeout=30)
        game.type("beenden")
        game.type("ja")
        code = game.finish()
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
        os.killpg(tone.pid, signal.SIGTERM)
        tone.wait(10)
    assert code == 0, game.text
    assert "Alle meine Farben mit Anna und Ben" in game.out.decode(), game.text
    assert "Traceback" not in game.err.decode()
