"""A satellite at the table (``--satellite tcp://HOST:PORT``) with the real wyoming-satellite.

wyoming-satellite 1.0.0 runs from its own environment (.venv-wyoming-satellite, made by
setup.sh; it pins wyoming 1.4.1) on a loopback port. Its microphone is the PulseAudio
virtual room of the device tests (``parec`` on the null sink's monitor); its speaker
plays into the same room (``pacat``), and a copy of what it plays is kept, so the test
knows farbspiel's speech came out at the satellite. farbspiel connects to it, hears a
spoken move through its own front end, endpointer and recogniser (pocketsphinx), and the
game moves. Its wake-word mode uses the satellite's own ``--wake-command`` interface
with a small loudness detector (a program that reads its audio and prints a line when a
word ends), as no wake-word model can be installed here.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from speech_audio import needs_espeak, pcm, speak, with_noise, write_wav
from wyoming_servers import Program, venv_or_skip

pytestmark = pytest.mark.slow

ANSWER_WAIT = 40.0
ROOM = "satellite_room"

WAKE_DETECTOR = """
import sys
import numpy as np
loud, quiet = 0, 0
while chunk := sys.stdin.buffer.read(3200):
    level = float(np.sqrt(np.mean(np.frombuffer(chunk, "<i2").astype(float) ** 2)))
    if level > 300:
        loud, quiet = loud + 1, 0
    else:
        quiet += 1
        if loud >= 3 and quiet >= 3:
            print("wake", flush=True)
            loud = 0
"""
"""A word heard (loud for 0.3 s, then quiet for 0.3 s): the wake word (16 kHz, 0.1 s reads)."""


class Satellite(Program):
    """wyoming-satellite on a loopback port; microphone and speaker in the PulseAudio room."""

    name = "wyoming-satellite"

    def __init__(self, venv: Path, data: Path, pulse: str, wake: bool = False) -> None:
        super().__init__(venv, data)
        self.pulse = pulse
        self.wake = wake
        self.spoken = data / "spoken.raw"

    def command(self) -> list[str]:
        # (its console script is broken in 1.0.0: it is run as a module)
        wake = []
        if self.wake:
            detector = self.data / "wake.py"
            detector.write_text(WAKE_DETECTOR)
            wake = ["--wake-command", f"{sys.executable} {detector}"]
        return [str(self.venv / "bin" / "python"), "-m", "wyoming_satellite",
                "--uri", self.uri, "--name", "table", "--no-zeroconf",
                "--mic-command", f"parec --server={self.pulse} --device={ROOM}.monitor --raw "
                                 "--rate=16000 --channels=1 --format=s16le --latency-msec=100",
                "--snd-command", f"sh -c 'tee -a {self.spoken} | pacat --server={self.pulse} "
                                 f"--device={ROOM} --rate=22050 --channels=1 --format=s16le "
                                 "--raw'", *wake]  # fmt: skip

    def seconds_spoken(self) -> float:
        """How much loud sound its speaker has played (22050 Hz int16)."""
        if not self.spoken.exists():
            return 0.0
        samples = np.frombuffer(self.spoken.read_bytes()[: self.spoken.stat().st_size // 2 * 2],
                                "<i2").astype(float)  # fmt: skip
        frames = samples[: len(samples) // 2205 * 2205].reshape(-1, 2205)
        return float(np.sum(np.sqrt(np.mean(frames**2, axis=1)) > 500)) / 10


@pytest.fixture
def room() -> Iterator[object]:
    from pulse_audio import start_pulseaudio

    runtime = Path(tempfile.mkdtemp(prefix="fs-pulse-"))  # short: a socket path lives there
    daemon = start_pulseaudio(runtime)
    if isinstance(daemon, str):
        shutil.rmtree(runtime, ignore_errors=True)
        pytest.skip(daemon)
    daemon.add_room(ROOM)
    yield daemon
    daemon.stop()
    shutil.rmtree(runtime, ignore_errors=True)


def _clip(text: str, seed: int = 0) -> bytes:
    return pcm(with_noise(speak(text, voice="en-us", speed=140), seed=seed))


def _game(satellite: Satellite, room: object, save: Path, data: Path) -> object:
    from test_device_faults import Terminal

    return Terminal(
        ["play", "alle-meine-farben", "--lang", "en", "--players", "Anna,Ben", "--seed", "1",
         "--input", "mic", "--voice", "auto", "--asr", "sphinx", "--satellite", satellite.uri,
         "--save", str(save)],
        {**os.environ, "PULSE_SERVER": room.server,  # type: ignore[attr-defined]
         "XDG_DATA_HOME": str(data)},
    )  # fmt: skip


def _say_until(game: object, say: object, expected: str, tries: int = 3) -> None:
    for attempt in range(tries):
        say()  # type: ignore[operator]
        try:
            game.wait_for(expected, timeout=ANSWER_WAIT)  # type: ignore[attr-defined]
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


def _colours(save: Path) -> list[object]:
    from voice.session.journal import read

    return [a.args.get("colour") for a in read(save).actions]


@needs_espeak
@pytest.mark.parametrize("wake", [False, True], ids=["always-on", "wake-word"])
def test_a_move_said_at_the_satellite_is_heard_and_answered_there(
    room: object, tmp_path: Path, wake: bool
) -> None:
    """The satellite's microphone hears a spoken move, the game moves, and farbspiel's
    speech comes out of the satellite's speaker (into the same room: half-duplex keeps
    farbspiel from hearing itself)."""
    satellite = Satellite(venv_or_skip("satellite"), tmp_path, room.server, wake)  # type: ignore[attr-defined]
    satellite.start()
    save = tmp_path / "game.jsonl"
    red = write_wav(tmp_path / "red.wav", _clip("red", 3))
    wake_word = write_wav(tmp_path / "wake.wav", _clip("hey table", 5))
    game = _game(satellite, room, save, tmp_path / "d")
    try:
        game.wait_for(f"listening through the satellite at {satellite.uri}", timeout=90)
        game.type("Anna is the youngest")
        game.wait_for("Anna, number 1: the ball")
        before = satellite.seconds_spoken()

        def say() -> None:
            time.sleep(2.0)  # what farbspiel says is played at the satellite first
            if wake:
                room.play(ROOM, wake_word)  # type: ignore[attr-defined]
                time.sleep(0.3)
            room.play(ROOM, red)  # type: ignore[attr-defined]

        _say_until(game, say, "The ball is now red.")
        time.sleep(3.0)  # it is said at the satellite
        game.type("quit")
        game.type("yes")
        code = game.finish(timeout=30)
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
        satellite.stop()
    assert code == 0, game.text
    assert "Traceback" not in game.err.decode()
    assert _colours(save) == [None, "red"]
    assert satellite.seconds_spoken() > before + 0.5, satellite.log()  # said there
    assert before > 1.0  # the welcome and the first turn were said there too
