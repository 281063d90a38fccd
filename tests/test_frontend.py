"""The audio front end: noise suppression and automatic gain (real webrtc/speex
libraries), the silero speech detector, and both recognisers hearing through them."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import run_cli
from speech import hear, needs_tts, utterance

from voice.bench.audio import SAMPLE_RATE, SPEECH_LEVEL, pink_noise, to_pcm
from voice.recognition.frontend import (
    CleanRecogniser,
    FrontEnd,
    FrontEndSettings,
    SileroSpeech,
    parse_spec,
    with_front_end,
)
from voice.recognition.sphinx import SphinxRecogniser


def _rms(pcm: bytes) -> float:
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    return float(np.sqrt((samples**2).mean()))


def _noise(seconds: float, snr: float = 10.0) -> bytes:
    noise = pink_noise(int(seconds * SAMPLE_RATE), 5) * (SPEECH_LEVEL / 10 ** (snr / 20))
    return to_pcm(noise)


@pytest.mark.parametrize("suppressor", ["webrtc", "speex"])
def test_noise_suppression_makes_steady_noise_quieter_and_keeps_the_stream_whole(
    suppressor: str,
) -> None:
    noise = _noise(3.0)
    front = FrontEnd(FrontEndSettings(noise_suppression=3, suppressor=suppressor))
    # odd chunk sizes, as microphones deliver them: nothing is lost or duplicated
    cleaned = b"".join(front.process(noise[i : i + 1234]) for i in range(0, len(noise), 1234))
    cleaned += front.flush()
    assert len(cleaned) == len(noise)
    settled = slice(len(noise) // 2, None)  # the suppressor learns the noise first
    assert _rms(cleaned[settled]) < _rms(noise[settled]) / 2  # at least 6 dB less noise


def test_automatic_gain_raises_a_quiet_talker() -> None:
    quiet = (np.sin(np.arange(SAMPLE_RATE * 3) * 2 * np.pi * 300 / SAMPLE_RATE) * 300).astype(
        np.float32
    )
    pcm = to_pcm(quiet)
    front = FrontEnd(FrontEndSettings(auto_gain=3))
    louder = front.process(pcm) + front.flush()
    assert _rms(louder[-SAMPLE_RATE:]) > 2 * _rms(pcm[-SAMPLE_RATE:])


def test_raw_audio_passes_unchanged_and_nothing_is_wrapped() -> None:
    pcm = _noise(0.5)
    front = FrontEnd(FrontEndSettings())
    assert front.process(pcm) == pcm and front.flush() == b""
    inner = object.__new__(SphinxRecogniser)
    assert with_front_end(inner, FrontEndSettings(vad="silero")) is inner


def test_bad_settings_and_specs_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="0 \\(off\\) to 4"):
        FrontEndSettings(noise_suppression=7)
    with pytest.raises(ValueError, match="1 to 31"):
        FrontEndSettings(auto_gain=40)
    assert parse_spec("raw") == FrontEndSettings()
    assert parse_spec("speex+ns2+agc3+silero") == FrontEndSettings(2, 3, "speex", "silero")
    with pytest.raises(ValueError, match="ns0-ns4"):
        parse_spec("loud")


@needs_tts
def test_silero_tells_speech_from_noise() -> None:
    audio = utterance("Ich male den Hut lila an", "de", snr=10.0)
    detector = SileroSpeech()
    frame = 960  # pocketsphinx's 30 ms frames
    flags = [detector(audio[i : i + frame]) for i in range(0, len(audio) - frame, frame)]
    lead = int(0.5 * SAMPLE_RATE * 2) // frame  # 0.6 s of noise before the speech
    assert not any(flags[:lead])
    assert sum(flags) >= 20  # the sentence lasts well over a second


@needs_tts
@pytest.mark.slow
@pytest.mark.parametrize("vad", ["webrtc", "silero"])
def test_pocketsphinx_recognises_through_the_front_end(vad: str) -> None:
    inner = SphinxRecogniser("en", vad=vad)
    recogniser = CleanRecogniser(inner, FrontEndSettings(noise_suppression=2))
    recogniser.set_phrases(["red", "blue", "the hat is red", "the hat is blue", "help"])
    heard = [t.text for t in hear(recogniser, utterance("the hat is blue", "en-us", snr=10))]
    assert heard[-1:] == ["the hat is blue"]
    assert recogniser.thresholds is inner.thresholds


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--noise-suppression", "9"], "--noise-suppression"),
        (["--auto-gain", "-1"], "--auto-gain"),
        (["--vad", "loud"], "--vad"),
    ],
)
def test_bad_front_end_options_are_usage_errors(args: list[str], message: str) -> None:
    run = run_cli("play", "farben", "--players", "Anna,Ben,Cem", *args)
    assert run.code == 2
    assert message in run.err


def _speech_and_pauses(snr: float) -> bytes:
    """A talker (a 300 Hz tone, on and off) in pink noise ``snr`` dB below it."""
    t = np.arange(SAMPLE_RATE * 8)
    voice = np.sin(t * 2 * np.pi * 300 / SAMPLE_RATE) * SPEECH_LEVEL * np.sqrt(2)
    voice *= (t // SAMPLE_RATE) % 2  # a second on, a second off
    noise = pink_noise(len(t), 2) * (SPEECH_LEVEL / 10 ** (snr / 20))
    return to_pcm((voice + noise).astype(np.float32))


def test_suppression_only_in_noise_leaves_a_quiet_room_alone() -> None:
    settings = parse_spec("ns3+below30")
    quiet = _speech_and_pauses(35.0)
    front = FrontEnd(settings)
    assert front.process(quiet) == quiet[: len(quiet) - len(quiet) % 320]
    assert not front.suppressing and front.snr() > 33
    noisy = _speech_and_pauses(10.0)
    front = FrontEnd(settings)
    cleaned = front.process(noisy)
    assert front.suppressing
    pause = slice(6 * 2 * SAMPLE_RATE + 3200, 7 * 2 * SAMPLE_RATE)  # only noise
    assert _rms(cleaned[pause]) < _rms(noisy[pause]) / 2
