"""Question or statement, by the melody of the voice: a yes/no question ends with the pitch
rising ("Cem hat grün gespielt?", "Cem played green?"), a statement ends falling.

A recogniser only hears words; said aloud, the question mark that makes "Cem played
green?" a question is in the pitch alone. This module measures the pitch (the fundamental
frequency) at the end of an utterance with Praat's autocorrelation pitch tracker (through
``praat-parselmouth``: Boersma's algorithm with its path finder against octave jumps, the
reference of phonetics) and says whether it rises like a question's. Both recognisers use
it (:mod:`voice.recognition.sphinx`, :mod:`voice.recognition.vosk`): it is analysis of the
audio, not of the engine.

Two measures, in semitones (so a low voice and a high one compare alike):

- ``rise``: the pitch at the very end of the voice over its lowest point in the last
  half second of voicing (a statement ends at or near its lowest point; a question climbs
  from a low point on its last stressed syllable);
- ``level``: the pitch at the end over the median pitch of the utterance (a statement ends
  below its middle; a question ends near or above it).

A question needs both (:data:`RISE_MIN`, :data:`LEVEL_MIN`). Before they are taken,
what is not the player's voice is left out: the room (:data:`BELOW_SPEECH_DB`), other
voices further away (:data:`STRETCH_PEAK_DB`), stray frames and octave errors
(:data:`MIN_STRETCH`, :data:`MAX_STEP`, :data:`SPREAD`). Measured with
``python -m voice.bench.intonation`` (voice/bench/RESULTS-LOG.md, "Questions by their melody").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from voice.input.audio import SAMPLE_RATE

PITCH_FLOOR = 70.0
"""Hz: the lowest voice tracked (a deep male voice ends near 75 Hz)."""
PITCH_CEILING = 500.0
"""Hz: the highest (a child's or a high female voice rising at the end of a question)."""
TIME_STEP = 0.01
"""Seconds between pitch measurements."""
ANALYSED = 1.5
"""Seconds at the end of an utterance that are analysed: the end's rise or fall and the
level of the words before it (the pitch tracker's cost grows with the audio: about 4 ms
for 0.5 s, 7 ms for 1.5 s on this machine, measured)."""
AFTER_VOICE = 0.1
"""Seconds after the recogniser's end of the last word that belong to the voice (a word's
end is placed where the next pause begins; a rise's last voiced frames may lie past it).
Recognisers hand over no more than this: after it is the room, where other voices at the
table may rise."""
REACH = 0.5
"""Seconds of voicing before the end in which the rise is measured (the last stressed
syllable and what follows it)."""
END_FRAMES = 5
"""Pitch measurements (50 ms) the end's pitch is the median of."""
MIN_VOICED = 8
"""An utterance with fewer voiced measurements than this has no melody to judge."""
RISE_MIN = 2.0
"""Semitones: a question's end rises at least this far over the low point before it
(statements of the intonation benchmark: at most 1.7, all voices, quiet and noisy)."""
LEVEL_MIN = -5.0
"""Semitones: and ends no lower than this under the utterance's median pitch (a last
bounce far below the voice's middle is no question's rise)."""
# What is not the voice's melody. Measured on the intonation benchmark (voice/bench/
# intonation.py) in pink noise at 10 dB: without these, 94 of 1304 statements of the
# voices left out of tuning "rose" by 10-19 semitones at the end, from the tracker
# hearing a few periodic-looking frames of the noise after the voice (at twice its
# pitch, 13-28 dB below the speech) or jumping an octave on the last frames.
BELOW_SPEECH_DB = 15.0
"""Measurements quieter than this under the utterance's loud frames (95th percentile)
are not judged: the room, not the voice (0 of 1304 statements then rose; at 18 dB 1)."""
STRETCH_PEAK_DB = 6.0
"""A stretch of voicing that never comes within this many dB of the utterance's loud
frames is another, further voice (babble at the table), not the player's: in babble at
10 dB, 63 of 320 statements "rose" at the end without this rule, 10 with it (quiet and
pink 10 dB: 0 either way, 0.5% fewer questions heard)."""
MAX_STEP = 4.0
"""Semitones between neighbouring measurements beyond which the track broke (an octave
error); a voice glides, a question rises by well under a semitone per 10 ms."""
MAX_GAP = 2
"""Unvoiced measurements a stretch of voicing may have inside it."""
MIN_STRETCH = 5
"""Measurements (50 ms): shorter stretches of voicing are not judged (stray frames)."""
SPREAD = 7.0
"""Semitones: measurements further than this from the median are not judged."""


@dataclass(frozen=True)
class Intonation:
    """The melody of the end of one utterance."""

    rise: float
    """Semitones from the lowest point of the last :data:`REACH` of voicing to the end."""
    level: float
    """Semitones from the utterance's median pitch to the end."""
    voiced: int
    """Pitch measurements the numbers are taken from."""

    @property
    def question(self) -> bool:
        """The end rises like a yes/no question's."""
        return self.rise >= RISE_MIN and self.level >= LEVEL_MIN


def pitch_track(
    samples: np.ndarray, sample_rate: int = SAMPLE_RATE
) -> tuple[np.ndarray, np.ndarray]:
    """Fundamental frequency (Hz; 0 where unvoiced) and level (dB) every
    :data:`TIME_STEP` seconds. ``samples``: 16-bit values (as int16 or float)."""
    import parselmouth  # 0.6 s to import: only once an utterance is judged

    x = np.asarray(samples, dtype=np.float64)
    if len(x) < int(3 * sample_rate / PITCH_FLOOR) + 1:  # shorter than the analysis window
        return np.zeros(0), np.zeros(0)
    sound = parselmouth.Sound(x / 32768.0, sampling_frequency=sample_rate)
    pitch: Any = sound.to_pitch_ac(
        time_step=TIME_STEP, pitch_floor=PITCH_FLOOR, pitch_ceiling=PITCH_CEILING
    )
    f0 = np.asarray(pitch.selected_array["frequency"], dtype=np.float64)
    # the level of 20 ms around each measurement
    half = int(TIME_STEP * sample_rate)
    centres = np.clip((np.asarray(pitch.xs()) * sample_rate).astype(int), half, len(x) - half)
    energy = np.concatenate([[0.0], np.cumsum(x * x)])
    power = (energy[centres + half] - energy[centres - half]) / (2 * half)
    return f0, 10 * np.log10(power + 1.0)


def _stretches(frames: np.ndarray, tones: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Voiced measurements cut where the voice pauses or the track jumps."""
    breaks = (np.diff(frames) > MAX_GAP + 1) | (np.abs(np.diff(tones)) > MAX_STEP)
    cuts = np.nonzero(breaks)[0] + 1
    return list(zip(np.split(frames, cuts), np.split(tones, cuts), strict=True))


def of_track(f0: np.ndarray, levels: np.ndarray) -> Intonation | None:
    """The intonation of a pitch track and its levels (``None`` if too little of it is
    voice)."""
    voiced = np.nonzero(f0 > 0)[0]
    if len(voiced) < MIN_VOICED:
        return None
    loud = np.percentile(levels, 95)
    voiced = voiced[levels[voiced] >= loud - BELOW_SPEECH_DB]
    if len(voiced) < MIN_VOICED:
        return None
    tones = 12.0 * np.log2(f0[voiced] / 100.0)
    kept = [
        (f, t)
        for f, t in _stretches(voiced, tones)
        if len(f) >= MIN_STRETCH and levels[f].max() >= loud - STRETCH_PEAK_DB
    ]
    if not kept:
        return None
    voiced = np.concatenate([f for f, _ in kept])
    tones = np.concatenate([t for _, t in kept])
    middle = float(np.median(tones))
    inside = np.abs(tones - middle) <= SPREAD
    voiced, tones = voiced[inside], tones[inside]
    if len(voiced) < MIN_VOICED:
        return None
    end = float(np.median(tones[-END_FRAMES:]))
    last = tones[voiced >= voiced[-1] - round(REACH / TIME_STEP)]
    # the low point of a smoothed contour: a single stray measurement is not a valley
    if len(last) >= 3:
        last = np.median(np.lib.stride_tricks.sliding_window_view(last, 3), axis=1)
    low = min(float(last.min()), end)
    return Intonation(round(end - low, 2), round(end - middle, 2), int(len(voiced)))


def intonation(audio: bytes | np.ndarray, sample_rate: int = SAMPLE_RATE) -> Intonation | None:
    """The intonation of the end of an utterance: 16-bit mono PCM bytes (little-endian)
    or samples. ``None`` when there is too little voice to judge (then nothing is known:
    callers treat it as a statement, as they did before pitch was measured)."""
    if isinstance(audio, bytes | bytearray | memoryview):
        data = bytes(audio)
        samples = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2")
    else:
        samples = np.asarray(audio)
    samples = samples[-int(ANALYSED * sample_rate) :]
    return of_track(*pitch_track(samples, sample_rate))
