"""WAV files in any common PCM form become 16 kHz mono int16; the rest is refused clearly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice.input.audio import SAMPLE_RATE, AudioError, StreamResampler, chunks, read_wav

needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="sox is not installed")


def sox_tone(path: Path, rate: int, channels: int, bits: int, *extra: str) -> Path:
    """One second of a 440 Hz tone, written by sox in the given format."""
    subprocess.run(
        ["sox", "-n", "-r", str(rate), "-c", str(channels), "-b", str(bits), *extra, str(path)]
        + ["synth", "1.0", "sine", "440", "vol", "0.5"],
        check=True,
        capture_output=True,
    )
    return path


def dominant_frequency(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


@needs_sox
@pytest.mark.parametrize(
    ("rate", "channels", "bits", "extra"),
    [
        (16000, 1, 16, ()),
        (8000, 1, 8, ("-e", "unsigned-integer")),
        (22050, 1, 16, ()),
        (44100, 2, 24, ()),
        (48000, 2, 32, ("-e", "signed-integer")),
        (32000, 1, 32, ("-e", "floating-point")),
        (11025, 3, 16, ()),
    ],
)
def test_pcm_wav_files_are_converted_to_16k_mono(tmp_path, rate, channels, bits, extra):
    wav = sox_tone(tmp_path / "tone.wav", rate, channels, bits, *extra)
    samples = np.frombuffer(read_wav(wav), "<i2").astype(np.float64)
    assert abs(len(samples) - SAMPLE_RATE) <= 2  # still one second
    assert dominant_frequency(samples[1000:15000]) == pytest.approx(440, abs=3)
    # vol 0.5 → peak about half of full scale, whatever the width and channel count
    assert 0.4 * 32768 < np.abs(samples[1000:15000]).max() < 0.6 * 32768


@needs_sox
def test_16k_mono_16bit_passes_through_unchanged(tmp_path):
    wav = sox_tone(tmp_path / "tone.wav", 16000, 1, 16)
    import wave

    with wave.open(str(wav)) as w:
        raw = w.readframes(w.getnframes())
    assert read_wav(wav) == raw


@needs_sox
@pytest.mark.parametrize(("encoding", "name"), [("a-law", "A-law"), ("u-law", "mu-law")])
def test_compressed_wav_is_refused_with_the_fix(tmp_path, encoding, name):
    wav = sox_tone(tmp_path / "odd.wav", 16000, 1, 8, "-e", encoding)
    with pytest.raises(AudioError) as err:
        read_wav(wav)
    assert f"is compressed ({name})" in str(err.value)
    assert f"sox {wav} -r 16000 -c 1 -b 16" in str(err.value)


def test_bad_files_get_clear_messages(tmp_path):
    text = tmp_path / "notes.wav"
    text.write_text("this is not audio", encoding="utf-8")
    with pytest.raises(AudioError, match="is not a WAV file"):
        read_wav(text)
    with pytest.raises(AudioError, match="there is no file"):
        read_wav(tmp_path / "missing.wav")
    with pytest.raises(AudioError, match="is a folder"):
        read_wav(tmp_path)
    import wave

    empty = tmp_path / "empty.wav"
    with wave.open(str(empty), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    with pytest.raises(AudioError, match="contains no audio"):
        read_wav(empty)


def test_resampling_in_chunks_equals_resampling_at_once():
    rng = np.random.default_rng(3)
    signal = rng.normal(0, 3000, 44100)
    whole = StreamResampler(44100, SAMPLE_RATE).process(signal)
    streaming = StreamResampler(44100, SAMPLE_RATE)
    pieces = np.concatenate([streaming.process(c) for c in np.array_split(signal, 53)])
    assert np.allclose(whole, pieces)
    assert abs(len(whole) - SAMPLE_RATE) <= 1


def test_chunks_are_whole_samples_and_cover_everything():
    data = bytes(range(256)) * 25  # 6400 bytes
    parts = list(chunks(data, seconds=0.05))
    assert all(len(p) % 2 == 0 for p in parts)
    assert b"".join(parts) == data
    assert len(parts[0]) == 1600
