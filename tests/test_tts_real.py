"""Speech output with the real pyttsx3 + espeak-ng: German and English, rate, no hangs."""

from __future__ import annotations

import sys
import time
import wave
from pathlib import Path

import numpy as np
import pytest

import voice.output.tts as tts
from voice.input.audio import AudioError
from voice.output.tts import SpeechOutput, Synthesiser, TtsError, tts_problem

pytestmark = pytest.mark.skipif(tts_problem() is not None, reason=f"no TTS: {tts_problem()}")

GERMAN = "Anna, Nummer drei: der Hut. Welche Farbe soll er bekommen?"
ENGLISH = "Anna, number three: the hat. Which colour shall it be?"


def duration(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64)


@pytest.fixture(scope="module")
def synthesiser():
    synth = Synthesiser()
    yield synth
    synth.close()


def test_german_and_english_speech_is_written_to_wav(synthesiser, tmp_path):
    de, en = tmp_path / "de.wav", tmp_path / "en.wav"
    assert synthesiser.save(GERMAN, "de", 170, de) == pytest.approx(duration(de))
    synthesiser.save(ENGLISH, "en", 170, en)
    for path in (de, en):
        audio = samples(path)
        assert 2.0 < duration(path) < 8.0
        assert np.abs(audio).max() > 5000  # speech, not silence
    # the same words in the two voices sound different
    synthesiser.save(GERMAN, "en", 170, tmp_path / "de-in-en.wav")
    assert not np.array_equal(samples(tmp_path / "de-in-en.wav"), samples(de))


@pytest.mark.parametrize("lang,text", [("de", GERMAN), ("en", ENGLISH)])
def test_the_rate_changes_the_duration_every_time(synthesiser, tmp_path, lang, text):
    # pyttsx3 2.99 ignores rate changes after the first utterance of a process; each
    # utterance here comes after others, so this shows the workaround holds.
    seconds = {}
    for rate in (170, 100, 280, 170):
        path = tmp_path / f"{rate}.wav"
        seconds.setdefault(rate, []).append(synthesiser.save(text, lang, rate, path))
    assert seconds[100][0] / seconds[280][0] > 2.0  # 2.8 times the words per minute
    assert seconds[170][0] == pytest.approx(seconds[170][1], rel=0.02)
    assert seconds[100][0] > seconds[170][0] > seconds[280][0]


def test_slower_and_faster_change_what_the_output_says(tmp_path):
    played = []
    out = SpeechOutput("de", 170, play=lambda path: played.append(duration(path)))
    try:
        out.say(GERMAN)
        out.set_rate(100)
        out.say(GERMAN)
        out.set_rate(250)
        out.say(GERMAN)
    finally:
        out.close()
    normal, slow, fast = played
    assert slow > normal * 1.4 and fast < normal * 0.8


def test_repeat_says_the_same_again(tmp_path):
    from games.engine import Setup
    from voice.session.adapters import adapter_for
    from voice.session.session import Session

    played = []
    out = SpeechOutput("de", 170, play=lambda path: played.append(samples(path)))
    adapter = adapter_for("alle-meine-farben")
    session = Session(adapter, "de", Setup(("Anna", "Ben"), seed=1), out)
    try:
        session.start()
        first = list(played)
        played.clear()
        session.hear("wiederholen")
    finally:
        out.close()
    assert len(played) == len(first) >= 1
    assert all(np.array_equal(a, b) for a, b in zip(played, first, strict=True))


def test_without_a_sound_card_speech_stops_once_and_comes_back_with_the_device(tmp_path):
    notes = []
    plugged = {"in": False}
    heard = []

    def loudspeaker(path):
        if not plugged["in"]:
            raise AudioError("the speech could not be played (no audio output)")
        heard.append(duration(path))

    now = [1000.0]
    out = SpeechOutput("en", play=loudspeaker, notify=notes.append)
    out.clock = lambda: now[0]
    try:
        start = time.monotonic()
        out.say("first")
        out.say("second")  # not tried again so soon: no second message, no delay
        elapsed = time.monotonic() - start
        assert out.output_lost_at == 1000.0 and not out.failed and len(notes) == 1
        assert "speech output stopped" in notes[0] and "continues in text" in notes[0]
        now[0] += tts.OUTPUT_RETRY_SECONDS
        out.say("third")  # tried again: still gone, still one message
        assert len(notes) == 1 and heard == []
        plugged["in"] = True
        out.say("fourth")  # too soon after the last try: silent
        now[0] += tts.OUTPUT_RETRY_SECONDS
        out.say("fifth")
    finally:
        out.close()
    assert elapsed < 10
    assert len(heard) == 1 and notes[1:] == ["speech output works again"]
    assert out.output_lost_at is None


def test_a_killed_synthesiser_is_replaced_and_the_words_are_still_spoken(tmp_path):
    import os
    import signal

    synth = Synthesiser()
    try:
        synth.prepare()
        os.kill(synth._spare.proc.pid, signal.SIGKILL)  # the kernel's OOM killer, say
        synth._spare.proc.wait()
        seconds = synth.save(ENGLISH, "en", 170, tmp_path / "a.wav")
        assert seconds > 2.0  # a fresh worker was started: nothing was lost

        class KilledWhileWorking(tts._Worker):
            count = 0

            def run(self, request, timeout):
                KilledWhileWorking.count += 1
                if KilledWhileWorking.count == 1:
                    self.proc.kill()  # dies in the middle of the utterance
                return super().run(request, timeout)

        synth.close()
        original = tts._Worker
        tts._Worker = KilledWhileWorking
        try:
            seconds = synth.save(ENGLISH, "en", 170, tmp_path / "b.wav")
        finally:
            tts._Worker = original
        assert KilledWhileWorking.count == 2 and seconds > 2.0
    finally:
        synth.close()


def test_a_hanging_synthesiser_is_killed_in_time(monkeypatch, tmp_path):
    class HangingWorker(tts._Worker):
        def __init__(self):
            import subprocess

            self.proc = subprocess.Popen(
                [sys.executable, "-c", "import time; time.sleep(60)"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )

    monkeypatch.setattr(tts, "_Worker", HangingWorker)
    synth = Synthesiser(timeout=1.0)
    start = time.monotonic()
    with pytest.raises(TtsError, match="did not finish within 1 s"):
        synth.save("hello", "en", 170, tmp_path / "x.wav")
    assert time.monotonic() - start < 5
    synth.close()
    notes = []
    out = SpeechOutput("en", synthesiser=Synthesiser(timeout=1.0), notify=notes.append)
    out.say("hello")
    out.close()
    assert len(notes) == 1 and "did not finish" in notes[0]


def _median_pitch(path: Path) -> float:
    """Median fundamental frequency (Hz) of the voiced 40 ms frames (autocorrelation)."""
    with wave.open(str(path)) as w:
        rate = w.getframerate()
    x = samples(path)
    n = int(0.04 * rate)
    found = []
    for i in range(0, len(x) - n, n):
        frame = x[i : i + n] - x[i : i + n].mean()
        if np.sqrt(np.mean(frame**2)) < 500:
            continue
        ac = np.correlate(frame, frame, "full")[n - 1 :]
        low, high = int(rate / 400), int(rate / 70)
        lag = low + int(np.argmax(ac[low:high]))
        if ac[lag] > 0.3 * ac[0]:
            found.append(rate / lag)
    return float(np.median(found))


@pytest.mark.parametrize(("lang", "text"), [("de", GERMAN), ("en", ENGLISH)])
def test_the_assistant_seat_speaks_in_a_voice_of_its_own(synthesiser, tmp_path, lang, text):
    """--assistant: its lines come in another espeak-ng voice, clearly higher."""
    master, seat = tmp_path / "master.wav", tmp_path / "seat.wav"
    synthesiser.save(text, lang, 170, master)
    synthesiser.save(text, lang, 170, seat, seat=True)
    assert _median_pitch(seat) > 1.3 * _median_pitch(master)
