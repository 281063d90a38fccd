"""The set-up dialogue heard by voice (issue 29): synthesised speech with a faint noise
floor goes through the real pocketsphinx engine, listening for the set-up's sentences, into
the same dialogue the keyboard talks to. Only the microphone is stood in for (by the clips'
audio, chunk by chunk, in "real" time): there is no sound card here; the real microphone is
tested with a PulseAudio room in test_virtual_microphone.py."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice.bench.farben_naming_speech import make_clip
from voice.input.audio import AudioChunk, AudioError, WavFile
from voice.output.sinks import RecordingOutput
from voice.recognition.engines import open_recogniser
from voice.session.microphone import SpeakingGate
from voice.setup.dialogue import SetupDialogue
from voice.setup.listening import SetupListener

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("espeak-ng", "sox", "soxi")), reason="needs espeak-ng, sox"
)
VOICES = {"de": "de", "en": "en-us"}


class Clips:
    """The room: each clip, then a second and a half of quiet, then nothing more."""

    def __init__(self, paths: list[Path]) -> None:
        self.t = 0.0
        self._chunks = self._all(paths)

    def _all(self, paths: list[Path]) -> Iterator[bytes | None]:
        for path in paths:
            with WavFile(path) as wav:
                yield from wav.chunks()
            yield from [None] * 15  # quiet between answers

    def now(self) -> float:
        return self.t

    def read(self, timeout: float | None = None) -> AudioChunk | None:
        self.t += 0.1
        try:
            data = next(self._chunks)
        except StopIteration:
            raise AudioError("the room is quiet now") from None
        return None if data is None else AudioChunk(data, self.t)


def pink_noise(folder: Path) -> Path:
    out = folder / "noise.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(out), "synth",
                    "2", "pinknoise", "vol", "-18dB"], check=True)  # fmt: skip
    return out


def talk(lang: str, paths: list[Path]) -> tuple[SetupDialogue, list[str | None]]:
    recogniser = open_recogniser("sphinx", lang, notify=lambda _: None)
    dialogue = SetupDialogue(lang, lambda argv: None)
    dialogue.first()
    room = Clips(paths)
    gate = SpeakingGate(RecordingOutput(), tail=0.0, now=room.now)

    def wanted() -> tuple[str, tuple[str, ...], bool]:
        names = tuple(dict.fromkeys(("Anna", "Ben", *dialogue.plan.players)))
        return lang, names, dialogue.spelling

    heard: list[str | None] = []
    listener = SetupListener(recogniser, room, gate, wanted, silence=60.0, now=room.now)
    try:
        for text, _ in listener.answers():
            heard.append(text)
            reply = dialogue.hear(text) if text is not None else dialogue.repeat()
            if reply.start is not None:
                break
    except AudioError:
        pass
    finally:
        recogniser.close()
    return dialogue, heard


@pytest.mark.parametrize(
    ("lang", "said"),
    [("de", ["Alle meine Farben", "wir sind Anna und Ben", "ja"]),
     ("en", ["Pantone", "we are Anna and Ben", "yes"])],
)  # fmt: skip
def test_a_game_is_set_up_by_voice(tmp_path: Path, lang: str, said: list[str]) -> None:
    clips = [make_clip(text, VOICES[lang], tmp_path, i) for i, text in enumerate(said)]
    dialogue, heard = talk(lang, clips)
    assert dialogue.plan.game == ("alle-meine-farben" if lang == "de" else "pantone"), heard
    assert dialogue.plan.players == ("Anna", "Ben"), heard


@pytest.mark.parametrize("lang", ["de", "en"])
def test_noise_at_the_table_sets_nothing(tmp_path: Path, lang: str) -> None:
    """Pink noise and a cough-like burst: a short repeat at most, never a set-up."""
    dialogue, heard = talk(lang, [pink_noise(tmp_path)])
    assert dialogue.plan.game is None and dialogue.plan.players == (), heard


@pytest.mark.parametrize(
    ("lang", "said", "name"),
    [("de", ["Pantone", "wir sind Anna und Ben", "buchstabieren", "M wie Martha", "I wie Ida",
             "A wie Anton", "fertig", "ja"], "Mia"),
     ("en", ["Pantone", "we are Anna and Ben", "let me spell it", "Z for Zulu", "O for Oscar",
             "E for Echo", "done", "yes"], "Zoe")],
)  # fmt: skip
def test_a_new_name_is_spelled_by_voice(tmp_path: Path, lang: str, said: list[str], name: str):
    """The recogniser cannot know "Mia": it is spelled, a letter at a time, and joins."""
    clips = [make_clip(text, VOICES[lang], tmp_path, i) for i, text in enumerate(said)]
    dialogue, heard = talk(lang, clips)
    assert dialogue.plan.players == ("Anna", "Ben", name), heard
