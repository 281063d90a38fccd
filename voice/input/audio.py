"""Audio in: the microphone (sounddevice), WAV files (playback is voice.output.playback).

Everything that reaches a recogniser is 16 kHz, mono, signed 16-bit little-endian
(:data:`SAMPLE_RATE`). WAV files of other rates, widths and channel counts
are converted; what cannot be converted is refused with a message that says how to fix
the file. sounddevice (PortAudio) is imported only when a device is really wanted, so
script runs and tests without audio never touch it (:mod:`voice.sound`).
"""

from __future__ import annotations

import logging
import os
import queue
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from voice.sound import AudioError as AudioError  # the microphone's errors too
from voice.sound import default_device, quiet_stderr, sounddevice_module
from voice.sound import rescan_devices as rescan_devices  # before reopening the microphone

SAMPLE_RATE = 16_000
"""Sample rate of all audio farbspiel hears (16 kHz mono int16)."""

log = logging.getLogger("farbspiel.audio")

BLOCK_SECONDS = 0.05
"""Microphone chunk length: short, so the end of speech is noticed quickly."""

MAX_WAV_SECONDS = 30 * 60
"""Longer WAV files are refused by :func:`read_wav`, which holds them in memory
(:class:`WavFile` streams any length)."""

SILENT_MICROPHONE_SECONDS = 3.0
"""A running microphone that delivers nothing for this long has gone away."""


@dataclass(frozen=True)
class AudioChunk:
    """A piece of microphone audio."""

    data: bytes
    """16 kHz mono int16 little-endian samples."""

    captured_at: float
    """``time.monotonic()`` of the chunk's first sample (for the half-duplex rule)."""

    @property
    def seconds(self) -> float:
        return len(self.data) / 2 / SAMPLE_RATE

    @property
    def ends_at(self) -> float:
        return self.captured_at + self.seconds


# --- conversion --------------------------------------------------------------------------
def _lowpass(cutoff: float, taps: int = 63) -> np.ndarray:
    """A windowed-sinc low-pass filter; ``cutoff`` as a fraction of the sample rate."""
    n = np.arange(taps) - (taps - 1) / 2
    h = 2 * cutoff * np.sinc(2 * cutoff * n) * np.hamming(taps)
    normalised: np.ndarray = h / h.sum()
    return normalised


class StreamResampler:
    """Converts a stream of float samples from one rate to another, chunk by chunk.

    Low-pass filter (against aliasing) at the input rate, then linear interpolation at
    the output times; the filter and interpolation state carry over between chunks, so
    microphone blocks and whole files give the same result.
    """

    def __init__(self, src_rate: int, dst_rate: int) -> None:
        if src_rate <= 0 or dst_rate <= 0:
            raise ValueError("sample rates must be positive")
        self.src_rate, self.dst_rate = src_rate, dst_rate
        self.step = src_rate / dst_rate
        self.taps = _lowpass(0.5 * min(src_rate, dst_rate) / src_rate * 0.92)
        self.history: np.ndarray = np.zeros(len(self.taps) - 1)
        self.next_t = 0.0  # time of the next output sample, in input samples since start
        self.seen = 0  # filtered input samples so far
        self.last = 0.0  # the last filtered sample (interpolation across chunk borders)

    def process(self, samples: np.ndarray) -> np.ndarray:
        if self.src_rate == self.dst_rate:
            same: np.ndarray = samples.astype(np.float64)
            return same
        if len(samples) == 0:
            return np.zeros(0)
        buffer = np.concatenate([self.history, samples.astype(np.float64)])
        filtered = np.convolve(buffer, self.taps, mode="valid")
        self.history = buffer[len(buffer) - (len(self.taps) - 1) :]
        # Known points: index seen-1 (previous last) .. seen+len-1.
        xs_start = self.seen - 1
        values = np.concatenate([[self.last], filtered])
        end = self.seen + len(filtered) - 1
        times: np.ndarray
        if self.next_t > end:
            times = np.zeros(0)
        else:
            count = int(np.floor((end - self.next_t) / self.step)) + 1
            times = self.next_t + self.step * np.arange(count)
        out: np.ndarray = np.interp(times, xs_start + np.arange(len(values)), values)
        if len(times):
            self.next_t = float(times[-1] + self.step)
        self.seen += len(filtered)
        self.last = float(filtered[-1])
        return out


def to_int16_bytes(samples: np.ndarray) -> bytes:
    data: bytes = np.clip(np.rint(samples), -32768, 32767).astype("<i2").tobytes()
    return data


_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE
_FORMAT_NAMES = {2: "ADPCM", 6: "A-law", 7: "mu-law", 17: "IMA ADPCM", 85: "MP3"}


@dataclass(frozen=True)
class _WavFormat:
    tag: int
    channels: int
    rate: int
    bits: int


_MAX_HEADER_CHUNK = 1 << 20
"""Chunks before the audio (metadata) larger than this are skipped without reading."""


def _parse_wav(path: Path, f: BinaryIO, size: int) -> tuple[_WavFormat, int, int]:
    """The format, and where the sample bytes start and how many there are, of an open
    RIFF/WAVE file of ``size`` bytes (the ``wave`` module of Python 3.11 knows neither
    WAVE_FORMAT_EXTENSIBLE, which sox writes for 24-bit or stereo files, nor floating
    point). A data chunk that claims more than the file holds (cut off, or written by a
    program that streamed it and never came back to fill in the size) ends with the file."""
    head = f.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        raise AudioError(key="wav_not_wav", path=path, fix=_fix_hint(path))
    fmt: _WavFormat | None = None
    pos = 12
    while pos + 8 <= size:
        f.seek(pos)
        header = f.read(8)
        if len(header) < 8:
            break
        chunk_id, length = header[:4], int.from_bytes(header[4:8], "little")
        if chunk_id == b"fmt ":
            body = f.read(min(length, _MAX_HEADER_CHUNK))
            if len(body) < 16:
                raise AudioError(key="wav_bad_header", path=path, fix=_fix_hint(path))
            tag, channels = struct.unpack_from("<HH", body, 0)
            rate = struct.unpack_from("<I", body, 4)[0]
            bits = struct.unpack_from("<H", body, 14)[0]
            if tag == _EXTENSIBLE and len(body) >= 26:
                tag = struct.unpack_from("<H", body, 24)[0]  # first bytes of the sub-format
            fmt = _WavFormat(tag, channels, rate, bits)
        elif chunk_id == b"data":
            if fmt is None:
                raise AudioError(key="wav_audio_first", path=path, fix=_fix_hint(path))
            return fmt, pos + 8, min(length, size - pos - 8)  # a cut-off file keeps the rest
        pos += 8 + length + (length & 1)
    raise AudioError(key="wav_no_audio", path=path)


def _decode(data: bytes, fmt: _WavFormat) -> np.ndarray:
    """Sample bytes → float samples on the int16 scale, channels mixed to mono."""
    width = fmt.bits // 8
    frame = width * fmt.channels
    data = data[: len(data) // frame * frame]
    if fmt.tag == _FLOAT:
        values = np.frombuffer(data, "<f4" if width == 4 else "<f8").astype(np.float64) * 32768
        values = np.nan_to_num(values, nan=0.0, posinf=32767.0, neginf=-32768.0)
    elif width == 1:  # 8-bit WAV is unsigned
        values = (np.frombuffer(data, np.uint8).astype(np.float64) - 128.0) * 256.0
    elif width == 2:
        values = np.frombuffer(data, "<i2").astype(np.float64)
    elif width == 3:
        b = np.frombuffer(data, np.uint8).reshape(-1, 3).astype(np.int32)
        joined = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        values = np.where(joined >= 1 << 23, joined - (1 << 24), joined).astype(np.float64) / 256
    else:
        values = np.frombuffer(data, "<i4").astype(np.float64) / 65536.0
    if fmt.channels > 1:
        values = values.reshape(-1, fmt.channels).mean(axis=1)
    return values


def _fix_hint(path: Path) -> str:
    """The command that converts a WAV file into one farbspiel reads best."""
    return f"sox {path} -r 16000 -c 1 -b 16 {path.stem}-16k.wav"


class WavFile:
    """A WAV file read piece by piece: any length in little memory.

    Opening reads and checks the header (:class:`AudioError` with the fix if the file
    cannot be used); :meth:`chunks` then yields its audio as 16 kHz mono int16, converted
    block by block. PCM of 8, 16, 24 or 32 bits and 32/64-bit floating point, any channel
    count and any rate from 4 to 384 kHz are converted.
    """

    READ_SECONDS = 1.0
    """Audio read from the file at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path = Path(path)
        try:
            self._file: BinaryIO = open(path, "rb")  # noqa: SIM115 - closed by close()
        except FileNotFoundError:
            raise AudioError(key="wav_missing", path=path) from None
        except IsADirectoryError:
            raise AudioError(key="wav_is_folder", path=path) from None
        except OSError as exc:
            raise AudioError(key="wav_unreadable", path=path, reason=exc) from None
        try:
            size = os.fstat(self._file.fileno()).st_size
            self.format, self._start, length = _parse_wav(path, self._file, size)
        except OSError as exc:
            self.close()
            raise AudioError(key="wav_unreadable", path=path, reason=exc) from None
        except AudioError:
            self.close()
            raise
        try:
            self._check(length)
        except AudioError:
            self.close()
            raise

    def _check(self, length: int) -> None:
        fmt, path = self.format, self.path
        if fmt.tag not in (_PCM, _FLOAT):
            kind = _FORMAT_NAMES.get(fmt.tag, str(fmt.tag))
            raise AudioError(key="wav_compressed", path=path, kind=kind, fix=_fix_hint(path))
        widths = (32, 64) if fmt.tag == _FLOAT else (8, 16, 24, 32)
        if fmt.bits not in widths or fmt.channels < 1:
            raise AudioError(
                key="wav_bad_width",
                path=path,
                bits=fmt.bits,
                channels=fmt.channels,
                fix=_fix_hint(path),
            )
        if not 4000 <= fmt.rate <= 384_000:
            raise AudioError(key="wav_bad_rate", path=path, rate=fmt.rate, fix=_fix_hint(path))
        self._frame = fmt.bits // 8 * fmt.channels
        self.frames = length // self._frame
        if self.frames == 0:
            raise AudioError(key="wav_no_audio", path=path)

    @property
    def seconds(self) -> float:
        return self.frames / self.format.rate

    def chunks(self, seconds: float = 0.1) -> Iterator[bytes]:
        """The audio as 16 kHz mono int16 chunks of ``seconds`` (the last may be shorter).

        Raises :class:`AudioError` if the file cannot be read to its end.
        """
        fmt = self.format
        resampler = StreamResampler(fmt.rate, SAMPLE_RATE) if fmt.rate != SAMPLE_RATE else None
        block = max(1, int(fmt.rate * self.READ_SECONDS)) * self._frame
        size = max(2, int(SAMPLE_RATE * seconds) * 2)
        left = self.frames * self._frame
        pending = b""
        try:
            self._file.seek(self._start)
            while left > 0:
                data = self._file.read(min(block, left))
                if not data:
                    break  # the file became shorter while it was read
                left -= len(data)
                data = data[: len(data) // self._frame * self._frame]
                samples = _decode(data, fmt)
                if resampler is not None:
                    samples = resampler.process(samples)
                pending += to_int16_bytes(samples)
                while len(pending) >= size:
                    yield pending[:size]
                    pending = pending[size:]
        except OSError as exc:
            raise AudioError(key="wav_unreadable", path=self.path, reason=exc) from None
        if pending:
            yield pending

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> WavFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_wav(path: Path) -> bytes:
    """The audio of a (short) WAV file as 16 kHz mono int16 bytes, converted where needed.

    Raises :class:`AudioError` for missing, empty, compressed, malformed or over-long
    files, with the command that converts them. Long recordings: :class:`WavFile`.
    """
    with WavFile(path) as wav:
        if wav.seconds > MAX_WAV_SECONDS:
            raise AudioError(
                key="wav_too_long",
                path=path,
                minutes=round(wav.seconds / 60),
                limit=MAX_WAV_SECONDS // 60,
            )
        return b"".join(wav.chunks(WavFile.READ_SECONDS))


def chunks(data: bytes, seconds: float = 0.1) -> Iterator[bytes]:
    """Split 16 kHz int16 audio into chunks of ``seconds`` (whole samples)."""
    size = max(2, int(SAMPLE_RATE * seconds) * 2)
    for start in range(0, len(data), size):
        yield data[start : start + size]


def microphone_problem() -> AudioError | None:
    """Why the microphone cannot be used, or ``None`` if it can."""
    try:
        device = default_device("input")
        _input_rate(device)
    except AudioError as exc:
        return exc
    return None


def _input_rate(device: dict[str, Any]) -> int:
    """16 kHz if the device takes it, else its own rate (resampled by us)."""
    sd = sounddevice_module()
    for rate in (SAMPLE_RATE, int(device["default_samplerate"])):
        try:
            sd.check_input_settings(samplerate=rate, channels=1, dtype="int16")
            return rate
        except Exception:  # noqa: BLE001 - PortAudioError
            continue
    raise AudioError(key="microphone_not_mono", name=device["name"])


class Microphone:
    """The default input device as a stream of :class:`AudioChunk`.

    The PortAudio callback only copies the samples, the time and the status flags into a
    queue (after the vosk and sounddevice examples): exceptions and logging inside the
    callback would be lost or block the audio thread. :meth:`read` logs the status.
    """

    def __init__(self, block_seconds: float = BLOCK_SECONDS) -> None:
        self.block_seconds = block_seconds
        self._queue: queue.Queue[tuple[bytes, float, str]] = queue.Queue()
        self._stream: Any = None
        self._resampler: StreamResampler | None = None
        self._rate = SAMPLE_RATE
        self._last_chunk_at = 0.0
        self._next_start = 0.0
        self.overflows = 0

    def start(self) -> None:
        sd = sounddevice_module()
        device = default_device("input")
        self._rate = _input_rate(device)
        if self._rate != SAMPLE_RATE:
            self._resampler = StreamResampler(self._rate, SAMPLE_RATE)
        try:
            self._stream = sd.RawInputStream(
                samplerate=self._rate,
                channels=1,
                dtype="int16",
                blocksize=int(self._rate * self.block_seconds),
                callback=self._callback,
            )
            self._stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudioError
            self._stream = None
            raise AudioError(key="microphone_cannot_open", detail=str(exc)) from None
        self._last_chunk_at = time.monotonic()

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        # When the block was recorded; blocks handed over in a burst follow each other.
        start = max(time.monotonic() - frames / self._rate, self._next_start)
        self._next_start = start + frames / self._rate
        self._queue.put((bytes(indata), start, str(status)))

    def read(self, timeout: float | None = None) -> AudioChunk | None:
        """The next chunk, or ``None`` if none came within ``timeout`` seconds.

        Raises :class:`AudioError` when the microphone has stopped delivering sound.
        """
        try:
            data, captured_at, status = self._queue.get(timeout=timeout)
        except queue.Empty:
            self._check_alive()
            return None
        if status:
            if "overflow" in status:
                self.overflows += 1
            log.warning("microphone: %s", status)
        self._last_chunk_at = time.monotonic()
        if self._resampler is not None:
            samples = np.frombuffer(data, "<i2").astype(np.float64)
            data = to_int16_bytes(self._resampler.process(samples))
        return AudioChunk(data, captured_at)

    def _check_alive(self) -> None:
        stream = self._stream
        if stream is None:
            raise AudioError(key="microphone_not_open")
        silent_for = time.monotonic() - self._last_chunk_at
        if not stream.active or silent_for > SILENT_MICROPHONE_SECONDS:
            raise AudioError(key="microphone_silent")

    def close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception as exc:  # noqa: BLE001 - closing a vanished device may fail
                log.warning("closing the microphone: %s", exc)

    def __enter__(self) -> Microphone:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def reopen_microphone() -> Microphone:
    """The default input device opened afresh, after the one in use went away.

    PortAudio lists devices only when it starts, so it is started again first (no other
    stream may be open then: speech output plays synchronously, and the old microphone
    is closed). ALSA's complaints about the missing device are kept off the terminal.
    Raises :class:`AudioError` while there is no microphone.
    """
    with quiet_stderr():
        rescan_devices()
        problem = microphone_problem()
        if problem is not None:
            raise problem
        microphone = Microphone()
        microphone.start()
    return microphone
