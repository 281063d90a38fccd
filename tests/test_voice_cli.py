"""The command line around voice: choosing input, output and engine, and saying why."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT, run_cli, run_process, write_script
from speech_audio import KO_MODEL, needs_ko_model

from voice.input.audio import microphone_problem
from voice.output.playback import output_problem
from voice.recognition.engines import RecogniserError, open_recogniser

PLAY = ["play", "alle-meine-farben", "--players", "Anna,Ben", "--seed", "1"]
no_microphone = pytest.mark.skipif(
    microphone_problem() is None, reason="this machine has a microphone"
)
no_sound_output = pytest.mark.skipif(output_problem() is None, reason="this machine can play sound")


@no_microphone
def test_input_mic_without_a_microphone_suggests_the_keyboard(tmp_path):
    run = run_process(*PLAY, "--input", "mic", "--save", str(tmp_path / "g.jsonl"), stdin="")
    assert run.code == 1
    assert "kein Mikrofon gefunden" in run.err
    assert "Spielt stattdessen mit der Tastatur: --input keyboard anhängen" in run.err
    assert "Traceback" not in run.err


@no_microphone
def test_input_auto_without_a_microphone_says_it_uses_the_keyboard(tmp_path):
    # stdin is a terminal-less empty file here, not a pipe of typed lines
    with open("/dev/null") as devnull:
        proc = subprocess.run(
            [sys.executable, "-m", "voice", *PLAY, "--voice", "text", "--save",
             str(tmp_path / "g.jsonl")],
            stdin=devnull, capture_output=True, text=True, cwd=ROOT, timeout=60,
        )  # fmt: skip
    assert proc.returncode == 0
    assert "farbspiel: kein Mikrofon gefunden." in proc.stderr  # a German game: German lines
    assert "ich lese die Tastatur: Tippt, was ihr sagen würdet." in proc.stderr


def test_piped_lines_are_keyboard_input_even_with_input_auto(tmp_path):
    run = run_process(
        *PLAY, "--voice", "text", "--save", str(tmp_path / "g.jsonl"),
        stdin="Anna ist am jüngsten\nrot\n",
    )  # fmt: skip
    assert run.code == 0
    assert "ich lese die Tastatur" in run.err and "Mikrofon" not in run.err
    assert "Der Ball ist jetzt rot." in run.out


@no_sound_output
def test_voice_tts_without_sound_falls_back_to_text_and_says_so(tmp_path):
    run = run_process(
        *PLAY, "--voice", "tts", "--input", "keyboard", "--save", str(tmp_path / "g.jsonl"),
        stdin="Anna\n",
    )  # fmt: skip
    assert run.code == 0
    assert "keine Sprachausgabe (kein Lautsprecher gefunden); farbspiel antwortet als" in run.err
    assert "Anna fängt an." in run.out


def test_script_mode_opens_no_audio_device(tmp_path):
    script = write_script(tmp_path / "s.script", ["Anna", "rot"])
    code = (
        "import sys; from voice.cli.main import main; "
        f"code = main({[*PLAY, '--script', str(script), '--json']!r}); "
        "print('AUDIO' if 'sounddevice' in sys.modules else 'NO-AUDIO', code)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.stdout.strip().splitlines()[-1] == "NO-AUDIO 0"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--input", "mic"], "--script ersetzt das Mikrofon"),
        (["--voice", "tts"], "--script läuft in gedachter Zeit ohne Ton"),
    ],
)
def test_script_mode_refuses_audio_options(tmp_path, option, message):
    script = write_script(tmp_path / "s.script", ["Anna"])
    run = run_cli(*PLAY, "--script", str(script), *option)
    assert run.code == 2 and message in run.err


def test_the_new_options_are_offered():
    run = run_process("play", "alle-meine-farben", "--lang", "en", "--help")
    text = " ".join(run.out.split())
    for option in ("--input {auto,mic,keyboard}", "--voice {auto,tts,text,none}",
                   "--asr {auto,vosk,sphinx,tcp://HOST:PORT,unix://PATH}",
                   "--model DIR"):  # fmt: skip
        assert option in text
    german = " ".join(run_process("play", "alle-meine-farben", "--help").out.split())
    assert "--model ORDNER" in german  # the game's own language: German


# --- engine selection ----------------------------------------------------------------------
@pytest.fixture
def no_models(tmp_path, monkeypatch):
    import voice.recognition.models as models

    monkeypatch.setattr(models, "project_models_dir", lambda: tmp_path / "none")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)


def test_asr_vosk_without_a_model_names_the_download(no_models):
    with pytest.raises(RecogniserError, match="farbspiel models download de"):
        open_recogniser("vosk", "de")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_asr_auto_without_a_vosk_model(no_models, lang):
    notes = []
    # the pocketsphinx engine takes over and says so once, with how to do better
    recogniser = open_recogniser("auto", lang, notify=lambda n: notes.append(str(n)))
    assert recogniser.engine == "sphinx"  # (behind the audio front end)
    assert len(notes) == 1
    assert "pocketsphinx" in notes[0] and f"farbspiel models download {lang}" in notes[0]


def test_model_option_does_not_go_with_sphinx(tmp_path):
    with pytest.raises(RecogniserError, match="does not go with --asr sphinx"):
        open_recogniser("sphinx", "de", tmp_path)


@needs_ko_model
def test_asr_auto_takes_vosk_when_its_model_is_there_and_says_so():
    notes = []
    recogniser = open_recogniser("auto", "de", KO_MODEL, notify=lambda n: notes.append(str(n)))
    assert recogniser.engine == "vosk"
    assert notes == [f"speech recognition: vosk, model {KO_MODEL}"]
