"""Utterance detection around a per-frame speech classifier (pure logic, fake VAD)."""

from __future__ import annotations

import numpy as np

from voice.recognition.endpoint import Endpointer, Step, level_db

FRAME = 480  # 30 ms at 16 kHz


def frame(level: float, loud: bool) -> bytes:
    """A frame whose first sample says whether the fake VAD calls it speech."""
    samples = np.random.default_rng(0).standard_normal(FRAME) * level
    samples[0] = 1 if loud else 0
    return np.clip(samples, -32768, 32767).astype("<i2").tobytes()


def fake_vad(data: bytes) -> bool:
    return np.frombuffer(data, dtype="<i2")[0] == 1


def run(endpointer: Endpointer, frames: list[bytes]) -> list[tuple[Step, float]]:
    return [(f.step, round(f.trailing, 2)) for f in map(endpointer.process, frames)]


def test_an_utterance_starts_after_a_few_speech_frames_with_its_preroll() -> None:
    ep = Endpointer(fake_vad, 0.03, start_frames=3, start_window=5, preroll=0.3)
    quiet, loud = frame(30, False), frame(3000, True)
    steps = [ep.process(f) for f in [quiet] * 12 + [loud] * 3]
    assert [s.step for s in steps[:14]] == [Step.SILENCE] * 14
    start = steps[14]
    assert start.step is Step.START
    assert len(start.audio) == 10 * 2 * FRAME  # 0.3 s of pre-roll, speech included
    assert ep.in_utterance


def test_trailing_quiet_is_counted_and_speech_resets_it() -> None:
    ep = Endpointer(fake_vad, 0.03)
    quiet, loud = frame(30, False), frame(3000, True)
    run(ep, [quiet] * 20 + [loud] * 3)
    assert run(ep, [quiet, quiet, loud, loud, loud, quiet]) == [
        (Step.SPEECH, 0.03),
        (Step.SPEECH, 0.06),
        (Step.SPEECH, 0.06),  # one or two loud frames may be noise: the pause holds
        (Step.SPEECH, 0.06),
        (Step.SPEECH, 0.0),  # three in a row: the player speaks again
        (Step.SPEECH, 0.03),
    ]
    ep.end()
    assert not ep.in_utterance


def test_a_noise_blip_in_the_pause_does_not_keep_the_utterance_open() -> None:
    """Frames of noise above the floor now and then (measured in pink noise behind the
    suppressor): the pause goes on counting between them."""
    ep = Endpointer(fake_vad, 0.03)
    quiet, loud = frame(30, False), frame(3000, True)
    run(ep, [quiet] * 20 + [loud] * 3)
    steps = run(ep, [quiet, loud, quiet, quiet, loud, loud, quiet])
    assert [t for _, t in steps] == [0.03, 0.03, 0.06, 0.09, 0.09, 0.09, 0.12]


def test_noise_the_vad_calls_speech_counts_as_quiet_near_the_floor() -> None:
    """Steady noise after the player stopped: the VAD says speech, the level says floor."""
    ep = Endpointer(fake_vad, 0.03)
    floor = frame(300, False)
    noisy = frame(320, True)  # VAD: speech, but barely above the noise floor
    run(ep, [floor] * 40 + [frame(3000, True)] * 20)
    assert run(ep, [noisy] * 3)[-1] == (Step.SPEECH, 0.09)


def test_quiet_relative_to_the_speakers_own_level() -> None:
    """Other people talking (no quiet floor): frames far below the player's speech."""
    ep = Endpointer(fake_vad, 0.03, below_speech=18.0)
    run(ep, [frame(3000, True)] * 25)  # no floor heard yet: the table was never quiet
    assert run(ep, [frame(200, True)] * 2)[-1] == (Step.SPEECH, 0.06)
    assert run(ep, [frame(3000, True)] * 3)[-1] == (Step.SPEECH, 0.0)  # the player again


def test_levels_in_decibels() -> None:
    full = (np.ones(FRAME) * 32767).astype("<i2").tobytes()
    assert abs(level_db(full)) < 0.01
    assert level_db(bytes(2 * FRAME)) < -90


def test_in_steady_noise_the_vad_calls_speech_an_utterance_still_ends() -> None:
    """A noisy room (10 dB below the player) where the VAD never hears non-speech: the
    noise floor comes from the levels themselves, so the end of speech is noticed."""
    ep = Endpointer(fake_vad, 0.03)
    noise, speech = frame(300, True), frame(950, True)  # speech 10 dB above the noise
    run(ep, [noise] * 60)  # the room alone, for two seconds
    run(ep, [speech] * 30)  # the player speaks
    trailing = run(ep, [noise] * 10)  # and stops
    assert trailing[-1][1] >= 0.18  # (the level is smoothed over four frames)
    assert ep.noise_floor() is not None and abs(ep.noise_floor() - level_db(noise)) < 1


def test_how_far_the_utterance_stands_above_the_room() -> None:
    """The player near the microphone is well above the room; voices further away are not
    (the recogniser trusts such an utterance too little to act on it)."""
    ep = Endpointer(fake_vad, 0.03)
    assert ep.speech_over_floor() is None
    run(ep, [frame(300, False)] * 40 + [frame(3000, True)] * 20)
    near = ep.speech_over_floor()
    assert near is not None and 19 < near < 21  # ten times the amplitude: 20 dB
    ep.end()
    run(ep, [frame(300, False)] * 40 + [frame(450, True)] * 20)
    far = ep.speech_over_floor()
    assert far is not None and far < 7


def test_how_much_speech_lies_in_stretches_of_the_utterance() -> None:
    """The recogniser asks how much of what its best path called silence the endpointer
    heard as speech: speech frames count, pauses and the pre-roll do not."""
    ep = Endpointer(fake_vad, 0.03, start_frames=3, start_window=5, preroll=0.3)
    quiet, loud = frame(30, False), frame(3000, True)
    run(ep, [quiet] * 20 + [loud] * 3)  # the utterance starts: 0.3 s of pre-roll
    run(ep, [loud] * 10 + [quiet] * 10 + [loud] * 10)  # 0.3 s speech, 0.3 s pause, 0.3 s
    assert ep.speech_within([(0.0, 0.3)]) < 1e-9  # the pre-roll
    assert abs(ep.speech_within([(0.3, 0.6)]) - 0.3) < 1e-9
    assert ep.speech_within([(0.6, 0.9)]) < 1e-9  # the pause
    assert abs(ep.speech_within([(0.45, 0.75), (0.9, 1.05)]) - 0.3) < 1e-9
    assert abs(ep.speech_within([(0.0, 5.0)]) - 0.6) < 1e-9  # beyond the end: nothing
