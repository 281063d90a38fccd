"""Everything the command line prints comes in the game's language: ``--help``, a wrong
option value, ``models``, a broken deck or word file, a save file that cannot be created,
and the system's reasons for it. Each German output is checked with the English-word lint
of ``test_prompts.py`` (and each English one with the German-word lint), and no output has
a traceback or argparse's own English words.

Most commands run in-process (``main([...])``, fast); one real process per language makes
sure the installed ``farbspiel`` behaves the same.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest
from helpers import run_process, write_script
from test_prompts import ALLOWED, ENGLISH_WORDS, GERMAN_WORDS, SAMPLE_WORDS, _words

from voice.__main__ import main
from voice.output.messages import os_reason
from voice.session.adapters import ADAPTERS

ARGPARSE_ENGLISH = (
    "usage:",
    "options:",
    "positional arguments",
    "show this help",
    "error:",
    "invalid choice",
    "invalid int",
    "the following arguments",
    "unrecognized arguments",
    "expected one argument",
)
PLAYERS = ["--players", "Anna,Ben,Cem"]


def _text_words(text: str) -> set[str]:
    """The words of an output, without what is no prose: options, choices in braces,
    paths, quoted sample values, ``a|b`` value lists, and commands after a colon."""
    text = re.sub(r"--?[a-z][a-z-]*", " ", text)
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\"[^\"]*\"|\S*/\S*|\S*\|\S*", " ", text)
    text = re.sub(r"farbspiel [a-z ]+", " ", text)  # a command to run: `farbspiel models ...`
    return _words(text)


def assert_in_language(text: str, lang: str) -> None:
    assert text.strip(), "nothing was said"
    assert "Traceback" not in text and "internal error" not in text and "interner" not in text
    foreign = ENGLISH_WORDS if lang == "de" else GERMAN_WORDS
    own = GERMAN_WORDS if lang == "de" else ENGLISH_WORDS
    stray = (_text_words(text) & foreign) - own - ALLOWED[lang] - SAMPLE_WORDS
    assert not stray, f"{sorted(stray)} in:\n{text}"
    if lang == "de":
        found = [w for w in ARGPARSE_ENGLISH if w in text]
        assert not found, f"{found} in:\n{text}"


def run(capsys, *argv: str) -> tuple[int, str]:
    """``farbspiel ARGV`` in this process: its exit code and all it printed."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # --help
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


# --- --help ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", list(ADAPTERS))
def test_help_of_every_game_is_in_the_language_asked_for(capsys, game, lang):
    code, text = run(capsys, "play", game, "--lang", lang, "--help")
    assert code == 0
    assert_in_language(text, lang)
    assert ("Aufruf:" in text) == (lang == "de") and ("usage:" in text) == (lang == "en")
    for option in ("--players", "--seed", "--save", "--rate", "--private", "--vad"):
        assert option in text  # every option is there, with its text
    assert text.count("\n  --") >= 20


def test_help_without_lang_follows_the_game_then_the_environment(capsys, monkeypatch):
    """No --lang: the language the game would be played in (Alle meine Farben German,
    Farben and Pantone English); a command without a game: the environment's LANG."""
    assert "Aufruf:" in run(capsys, "play", "alle-meine-farben", "--help")[1]
    assert "usage:" in run(capsys, "play", "pantone", "--help")[1]
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, text = run(capsys, "--help")
    assert code == 0 and "Aufruf: farbspiel" in text
    assert_in_language(text, "de")
    for command in ("play", "resume", "cards", "display", "models"):
        assert re.search(rf"^\s+{command}\s+\S", text, re.M), f"{command} is not listed"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert "usage: farbspiel" in run(capsys, "--help")[1]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(
    "argv",
    [
        ["resume"],  # no game named: the environment's language
        ["display"],
        ["models"],
        ["cards", "pantone", "--lang", "LANG"],  # a game: --lang (else the game's own)
        ["parse", "pantone", "--lang", "LANG"],
        ["recognize", "farben", "--lang", "LANG"],
        ["models", "list", "--lang", "LANG"],
        ["models", "check", "LANG"],  # a model: the model's language
        ["models", "download", "LANG"],
    ],
)
def test_help_of_the_other_commands(capsys, monkeypatch, argv, lang):
    monkeypatch.setenv("LANGUAGE", lang)
    code, text = run(capsys, *[lang if a == "LANG" else a for a in argv], "--help")
    assert code == 0
    assert_in_language(text, lang)


# --- odd command-line values ------------------------------------------------------------------
BAD_VALUES = [
    (["play", "alle-meine-farben", "--players", ""], "--players"),
    (["play", "alle-meine-farben", *PLAYERS, "--seed", "abc"], "--seed"),
    (["play", "alle-meine-farben", *PLAYERS, "--rate", "-5"], "--rate"),
    (["play", "alle-meine-farben", *PLAYERS, "--rate", "fast"], "--rate"),
    (["play", "alle-meine-farben", *PLAYERS, "--voice", "loud"], "--voice"),
    (["play", "alle-meine-farben", *PLAYERS, "--noise-suppression", "9"], "0-4"),
    (["play", "alle-meine-farben", *PLAYERS, "--port", "99999", "--display"], "--port"),
    (["play", "alle-meine-farben"], "--players"),
    (["play", "chess", *PLAYERS], "chess"),
    (["play", "alle-meine-farben", *PLAYERS, "--bogus"], "--bogus"),
    (["play", "pantone", *PLAYERS, "--cards", "tarot"], "tarot"),
    (["play", "farben", *PLAYERS, "--time-limit", "soon"], "--time-limit"),
]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("argv", "named"), BAD_VALUES)
def test_bad_values_are_refused_in_the_games_language(capsys, argv, named, lang):
    code, text = run(capsys, *argv, "--lang", lang)
    assert code == 2, text
    assert named in text  # the option (or value) that is wrong
    assert_in_language(text, lang)


def test_a_wrong_choice_names_what_fits(capsys):
    code, text = run(capsys, "play", "farben", *PLAYERS, "--lang", "de", "--voice", "loud")
    assert "--voice: „loud“ geht nicht; zur Wahl stehen: auto, tts, text, none" in text
    code, text = run(capsys, "play", "farben", *PLAYERS, "--seed", "abc")
    assert "--seed: “abc” is not a whole number" in text
    code, text = run(capsys, "play", "--lang", "de", "farben", *PLAYERS)
    assert code == 2 and "--lang steht hinter dem Spiel: farbspiel play SPIEL --lang de" in text


# --- models ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_models_speak_the_language_of_the_model(capsys, tmp_path, lang):
    code, text = run(capsys, "models", "list", "--lang", lang)
    assert code == 0 and "pocketsphinx" in text
    assert_in_language(text, lang)
    empty = tmp_path / "empty"
    empty.mkdir()
    code, text = run(capsys, "models", "check", lang, "--model", str(empty))
    assert code == 1
    assert_in_language(text, lang)
    assert ("Suchgraphen" in text) == (lang == "de")
    code, text = run(capsys, "models", "download", lang, "--from", str(tmp_path / "no.zip"))
    assert code == 1
    assert_in_language(text, lang)
    notes = tmp_path / "notes.zip"
    notes.write_text("not a zip")
    code, text = run(capsys, "models", "download", lang, "--from", str(notes))
    assert code == 1 and "notes.zip" in text
    assert_in_language(text, lang)


# --- deck and word files of one's own ----------------------------------------------------------
BROKEN_DECKS = {
    "bad YAML": "- name: [unclosed\n",
    "no list": "name: Batman\n",
    "missing hints": "- name: Batman\n  aliases: [Bruce Wayne]\n",
    "wrong types": "- name: 42\n  aliases: Bats\n  hints: [yes, 2, [a], {b: c}]\n- plain\n",
    "wrong count": "- name: Batman\n  hints: [Bat, Cave]\n  colour: black\n",
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("content", list(BROKEN_DECKS.values()), ids=list(BROKEN_DECKS))
def test_a_broken_deck_is_explained_in_the_games_language(capsys, tmp_path, content, lang):
    deck = tmp_path / "deck.yaml"
    deck.write_text(content, encoding="utf-8")
    argv = ["play", "pantone", *PLAYERS, "--lang", lang, "--deck", str(deck)]
    code, text = run(capsys, *argv, "--script", os.devnull)
    assert code == 2 and str(deck) in text
    assert_in_language(text, lang)
    code, text = run(capsys, "cards", "pantone", "--lang", lang, "--deck", str(deck))
    assert code == 2
    assert_in_language(text, lang)


def test_deck_problems_name_the_entry_and_the_field(capsys, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(BROKEN_DECKS["wrong types"], encoding="utf-8")
    text = run(capsys, "cards", "pantone", "--lang", "de", "--deck", str(deck))[1]
    assert "hat 7 Fehler:" in text
    assert "Eintrag 1, name: muss Text sein, aber YAML hat eine Zahl gelesen (42)" in text
    assert "Eintrag 1, aliases: muss eine Liste sein" in text
    assert "Eintrag 1, hints[1]: muss Text sein, aber YAML hat hier einen Ja/Nein-Wert" in text
    assert "Eintrag 2: muss eine Karte mit name, aliases und hints sein" in text
    text = run(capsys, "cards", "pantone", "--lang", "en", "--deck", str(deck))[1]
    assert "has 7 problems:" in text
    assert "entry 1, hints[3]: must be text, but YAML read a list" in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_broken_word_file_is_explained_by_card_and_side(capsys, tmp_path, lang):
    words = tmp_path / "words.yaml"
    words.write_text("- [Schule, Urlaub]\n- [Montag]\n- [yes, 3]\n- [Urlaub, Zelt]\n")
    code, text = run(capsys, "cards", "farben", "--lang", lang, "--deck", str(words))
    assert code == 2
    assert_in_language(text, lang)
    if lang == "de":
        assert "Karte 2: muss zwei Seiten haben" in text
        assert "Karte 3: Seite 2: muss Text sein, aber YAML hat eine Zahl gelesen (3)" in text
        assert "Karte 4: Seite 1: „Urlaub“ steht schon auf Karte 1" in text
    words.write_text("[unclosed\n")
    code, text = run(capsys, "cards", "farben", "--lang", lang, "--deck", str(words))
    assert code == 2 and ("Zeile 2" in text) == (lang == "de")
    assert_in_language(text, lang)


def test_the_word_cards_are_printed_without_pdf(capsys):
    code, text = run(capsys, "cards", "farben", "--lang", "de")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("Farben: ") and "Wortkarten" in lines[0]
    assert any(re.match(r"\s*1  \S.* — \S", line) for line in lines)
    assert "--pdf" in lines[-1]


# --- save files and the system's reasons ------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_save_file_that_cannot_be_created_is_said_in_the_games_language(capsys, tmp_path, lang):
    script = write_script(tmp_path / "s.script", ["Anna"])
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    places = [blocker / "game.jsonl"]  # a file where a folder should be
    if os.geteuid() != 0:  # (root may write anywhere)
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        places.append(locked / "game.jsonl")
    for save in places:
        argv = ["play", "alle-meine-farben", *PLAYERS, "--lang", lang, "--save", str(save)]
        code, text = run(capsys, *argv, "--script", str(script))
        assert code == 1 and str(save) in text
        assert_in_language(text, lang)
        assert "Not a directory" not in text and "Permission denied" not in text
        assert not save.exists()


def _errors() -> dict[str, OSError]:
    """Real OS errors, made the way a player's files make them."""
    found: dict[str, OSError] = {}
    for name, attempt in {
        "ENOENT": lambda: open("/no/such/file"),  # noqa: SIM115
        "EISDIR": lambda: open("/", "w"),  # noqa: SIM115
        "ENOTDIR": lambda: open("/etc/hostname/x"),  # noqa: SIM115
    }.items():
        try:
            attempt()
        except OSError as exc:
            found[name] = exc
    for name in ("EACCES", "ENOSPC", "EROFS", "EEXIST", "EBUSY", "EIO"):
        number = getattr(errno, name)
        found[name] = OSError(number, os.strerror(number))
    return found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_systems_reasons_are_in_our_words(lang):
    for name, exc in _errors().items():
        said = os_reason(exc, lang)
        assert said and said != exc.strerror, name  # ours, not the system's English
        assert_in_language(said, lang)
    unknown = OSError(errno.EXDEV, os.strerror(errno.EXDEV))
    assert os_reason(unknown, lang) == os.strerror(errno.EXDEV)  # kept when unknown


# --- the installed program ----------------------------------------------------------------------
def test_the_real_program_speaks_the_games_language(tmp_path):
    run = run_process("play", "alle-meine-farben", "--help")
    assert run.code == 0
    assert_in_language(run.out, "de")
    run = run_process("play", "alle-meine-farben", "--players", "Anna", "--seed", "abc")
    assert run.code == 2 and "--seed: „abc“ ist keine ganze Zahl" in run.err
    assert_in_language(run.err, "de")
    run = run_process("play", "farben", "--players", "Anna,Ben,Cem", "--rate", "-5")
    assert run.code == 2 and "--rate" in run.err
    assert_in_language(run.err, "en")
    run = run_process("models", "download", "de", "--from", str(Path(tmp_path) / "x.zip"))
    assert run.code == 1 and "es gibt keine Datei" in run.err


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_busy_port_or_private_file_is_refused_before_the_save_file_is_written(
    capsys, tmp_path, lang
):
    import socket

    save = tmp_path / "game.jsonl"
    game = ["play", "alle-meine-farben", *PLAYERS, "--lang", lang, "--save", str(save)]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        code, text = run(capsys, *game, "--display", "--port", port, "--input", "keyboard")
    assert code == 1 and port in text
    assert_in_language(text, lang)
    assert not save.exists()  # no save file with a header and nothing else
    code, text = run(capsys, *game, "--private", str(tmp_path / "no" / "tty"))
    assert code == 1 and "--private" in text
    assert_in_language(text, lang)
    assert not save.exists()


def test_every_option_and_command_has_its_help_text_in_both_languages():
    """A new option needs its text in ``cli.yaml`` of both languages (``help_<dest>``);
    only the developers' ``bench`` keeps its own options in English."""
    import argparse

    from voice.bench.cli import BenchCommand
    from voice.cli.help import command_key, help_keys
    from voice.cli.main import build_parser
    from voice.output.messages import has_console_text

    missing = []

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    for lang in ("de", "en"):
                        if not has_console_text(command_key(path, name), lang):
                            missing.append(f"{lang}: {command_key(path, name)}")
                    if name != "bench":
                        walk(sub, (*path, name))
            elif action.help is not argparse.SUPPRESS:
                for lang in ("de", "en"):
                    keys = help_keys(path, action.dest)
                    if not any(has_console_text(k, lang) for k in keys):
                        missing.append(f"{lang}: {keys[-1]} ({' '.join(path)})")

    walk(build_parser([BenchCommand()]), ())
    assert not missing, "\n".join(missing)
