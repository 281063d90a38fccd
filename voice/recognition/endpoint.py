"""Where utterances start and end in a stream of audio (voice activity detection).

pocketsphinx's WebRTC-style VAD classifies 30 ms frames as speech or not; this module adds
the hysteresis around it: an utterance starts after a few speech frames (and keeps a short
pre-roll so the first sound is not cut), and it ends after a stretch of non-speech. The
stretch is short when the recogniser says the words so far already form a complete
sentence of the grammar, and longer otherwise, so a player who pauses in the middle of
"ich male den Hut ... lila an" is not cut off, yet a finished command is answered quickly.

In noise the VAD keeps calling noise "speech" after the player stopped (other people
talking *is* speech), so a frame of an utterance also counts as quiet when it is not
louder than the noise floor by ``quiet_margin`` dB, or when it is ``below_speech`` dB under
the utterance's own speech level (the median of its louder half of frames): a player near
the microphone is louder than the room. The noise floor is the lower of the median level
of recent frames the VAD called non-speech and a low percentile of all recent frames:
in steady loud noise the VAD calls every frame speech, and without the second measure
utterances would not end until the noise did (measured: p95 over a second at 10 dB SNR).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from statistics import median

import numpy as np


class Step(Enum):
    """What the endpointer made of one frame."""

    SILENCE = "silence"
    """Outside an utterance; nothing to decode."""
    START = "start"
    """An utterance starts: decode ``Frame.audio`` (pre-roll included)."""
    SPEECH = "speech"
    """Inside an utterance: decode ``Frame.audio``."""


@dataclass(frozen=True)
class Frame:
    step: Step
    audio: bytes = b""
    trailing: float = 0.0
    """Seconds of non-speech at the end of the utterance so far."""
    length: float = 0.0
    """Seconds since the utterance started (pre-roll included)."""


class Endpointer:
    """Frame-by-frame utterance detection around a per-frame speech classifier."""

    def __init__(
        self,
        is_speech: Callable[[bytes], bool],
        frame_seconds: float,
        *,
        start_frames: int = 3,
        start_window: int = 5,
        preroll: float = 0.3,
        quiet_margin: float = 3.0,
        below_speech: float = 18.0,
        floor_seconds: float = 3.0,
        recent_seconds: float = 5.0,
        floor_percentile: float = 10.0,
        smooth_frames: int = 4,
        resume_frames: int = 3,
    ) -> None:
        self._is_speech = is_speech
        self.frame_seconds = frame_seconds
        self.start_frames = start_frames
        self._recent: deque[bool] = deque(maxlen=start_window)
        self._preroll: deque[bytes] = deque(maxlen=max(1, round(preroll / frame_seconds)))
        self.in_utterance = False
        self._trailing = 0
        self._length = 0
        self.resume_frames = max(1, resume_frames)
        self._loud = 0  # frames in a row that were not quiet, once a pause began
        self.quiet_margin = quiet_margin
        self.below_speech = below_speech
        self._levels: list[float] = []  # frame levels of the current utterance
        self._spoken: list[bool] = []  # its frames after the pre-roll: speech, not pause?
        self._preroll_seconds = 0.0
        self._floor: deque[float] = deque(maxlen=max(1, round(floor_seconds / frame_seconds)))
        # every frame's level, speech or not, for the percentile floor
        self._recent_levels: deque[float] = deque(
            maxlen=max(1, round(recent_seconds / frame_seconds))
        )
        self.floor_percentile = floor_percentile
        # noise levels jump from frame to frame; their mean over a few frames does not
        self._powers: deque[float] = deque(maxlen=max(1, smooth_frames))

    def reset(self) -> None:
        self._recent.clear()
        self._preroll.clear()
        self.in_utterance = False
        self._trailing = self._loud = 0
        self._length = 0

    def process(self, frame: bytes) -> Frame:
        speech = bool(self._is_speech(frame))
        level = level_db(frame)
        self._powers.append(10 ** (level / 10))
        smoothed = 10 * math.log10(sum(self._powers) / len(self._powers))
        self._recent_levels.append(smoothed)
        if self.in_utterance:
            self._length += 1
            self._levels.append(level)
            quiet = not speech or self._quiet(level, smoothed)
            self._spoken.append(not quiet)
            if quiet:
                self._trailing += 1
                self._loud = 0
            else:
                # a pause ends only when speech resumes for a few frames in a row: in
                # noise, single frames above the floor would otherwise keep it open
                self._loud += 1
                if self._loud >= self.resume_frames:
                    self._trailing = 0
            return Frame(
                Step.SPEECH, frame, self._seconds(self._trailing), self._seconds(self._length)
            )
        if not speech:
            self._floor.append(level)
        self._recent.append(speech)
        self._preroll.append(frame)
        if sum(self._recent) < self.start_frames:
            return Frame(Step.SILENCE)
        audio = b"".join(self._preroll)
        self._levels = []
        self._spoken = []
        self._preroll_seconds = len(self._preroll) * self.frame_seconds
        self._length = len(self._preroll)
        self._preroll.clear()
        self._recent.clear()
        self.in_utterance = True
        self._trailing = self._loud = 0
        return Frame(Step.START, audio, 0.0, self._seconds(self._length))

    def noise_floor(self) -> float | None:
        """The level (dB) of the room without the player; None until enough was heard."""
        floors = []
        if len(self._floor) >= 10:
            floors.append(median(self._floor))
        if len(self._recent_levels) * self.frame_seconds >= 1.0:
            floors.append(float(np.percentile(self._recent_levels, self.floor_percentile)))
        return min(floors, default=None)

    def speech_over_floor(self) -> float | None:
        """How far the utterance so far stands above the room (dB: the median of its
        louder half of frames over the noise floor); None until both are known."""
        floor = self.noise_floor()
        if floor is None or len(self._levels) < 5:
            return None
        louder = sorted(self._levels)[len(self._levels) // 2 :]
        return louder[len(louder) // 2] - floor

    def speech_within(self, spans: Iterable[tuple[float, float]]) -> float:
        """Seconds of the last utterance's speech (frames that were no pause) inside
        ``spans`` (start, end: seconds from the start of its audio, pre-roll included)."""
        total = 0.0
        size = self.frame_seconds
        for start, end in spans:
            first = max(0, math.floor((start - self._preroll_seconds) / size))
            last = min(len(self._spoken), math.ceil((end - self._preroll_seconds) / size))
            for i in range(first, last):
                if self._spoken[i]:
                    begin = self._preroll_seconds + i * size
                    total += max(0.0, min(end, begin + size) - max(start, begin))
        return total

    def _quiet(self, level: float, smoothed: float) -> bool:
        floor = self.noise_floor()
        if floor is not None and min(level, smoothed) < floor + self.quiet_margin:
            return True
        if len(self._levels) >= 10:
            louder = sorted(self._levels)[len(self._levels) // 2 :]
            return level < louder[len(louder) // 2] - self.below_speech
        return False

    def end(self) -> None:
        """The utterance was closed by the caller; listen for the next one."""
        self.in_utterance = False
        self._trailing = self._loud = 0
        self._length = 0
        self._recent.clear()

    def _seconds(self, frames: int) -> float:
        return frames * self.frame_seconds


def level_db(frame: bytes) -> float:
    """Level of 16-bit PCM in dB (full scale 0 dB; digital silence about -100 dB)."""
    samples = np.frombuffer(frame, dtype="<i2").astype(np.float64)
    power = float((samples**2).mean()) if len(samples) else 0.0
    return 10 * math.log10(power / 32768.0**2 + 1e-10)
