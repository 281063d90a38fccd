"""Repairing a damaged save at a terminal asks in the save's language and takes that
language's yes (a German save asks in German and "ja" repairs it), whatever language the
console speaks otherwise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import run_cli, write_script
from test_saving import MOVES, PLAY

from voice.cli import main
from voice.output import messages
from voice.session.journal import JournalError


@pytest.fixture
def damaged_german_save(tmp_path: Path) -> Path:
    save = tmp_path / "game.jsonl"
    run_cli(*PLAY, "--save", str(save), "--script", str(write_script(tmp_path / "a", MOVES[:5])))
    lines = save.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"action": {"name": "place", "args": {"colour": "re\n'
    save.write_bytes(b"".join(lines))
    return save


def _at_terminal(monkeypatch: pytest.MonkeyPatch, answer: str, asked: list[str]) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)

    def answer_with(prompt: str) -> str:
        asked.append(prompt)
        return answer

    monkeypatch.setattr("builtins.input", answer_with)


@pytest.mark.parametrize("answer", ["ja", "Ja", "j", "jo", "ja, genau", "passt", "klar"])
def test_a_damaged_german_save_is_repaired_after_a_german_question_and_ja(
    damaged_german_save, monkeypatch, answer
):
    monkeypatch.setitem(messages._console, "lang", "en")  # the console speaks English
    asked: list[str] = []
    _at_terminal(monkeypatch, answer, asked)
    contents = main._read_save(damaged_german_save, repair=False)
    german = "Jetzt ab Zug 2 weiterspielen (die beschädigte Datei bleibt erhalten)? ja oder nein: "
    assert [a.strip() for a in asked] == [german.strip()]
    assert len(contents.actions) == 2 and contents.damaged_at == 3


@pytest.mark.parametrize("answer", ["nein", "n", "yes", "nö", "stimmt nicht", "yep"])
def test_a_german_no_or_an_answer_in_another_language_repairs_nothing(
    damaged_german_save, monkeypatch, answer
):
    monkeypatch.setitem(messages._console, "lang", "en")
    asked: list[str] = []
    _at_terminal(monkeypatch, answer, asked)
    with pytest.raises(JournalError, match="bei Zug 3 beschädigt"):
        main._read_save(damaged_german_save, repair=False)
    assert asked and asked[0].startswith("Jetzt ab Zug 2 weiterspielen")
