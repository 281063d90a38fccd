"""A save file whose setup the engine refuses is a clear message, never a traceback: with
the reason's own message when cli.yaml has one, else the general one naming the reason
(``setup_other``, whose blank is called ``{key}`` like console_text's first argument)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli, write_script

import games.pantone
from games.engine import SetupError


def edited_pantone_save(tmp_path: Path, lang: str, **options: object) -> Path:
    """A real Pantone save (no moves) whose header's options were then edited by hand."""
    save = tmp_path / "edited.jsonl"
    script = write_script(tmp_path / "none.script", [])
    play = ["play", "pantone", "--lang", lang, "--players", "Anna,Ben,Cem", "--seed", "1"]
    assert run_cli(*play, "--json", "--save", str(save), "--script", str(script)).code == 0
    lines = save.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["setup"]["options"].update(options)
    save.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return save


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "the setting “minimalist” must be yes or no, not “yes”"),
        ("de", "die Einstellung „minimalist“ muss ja oder nein sein, nicht „yes“"),
    ],
)
def test_a_setting_that_is_not_yes_or_no_is_named(tmp_path, lang, message):
    save = edited_pantone_save(tmp_path, lang, minimalist="yes")
    before = save.read_bytes()
    run = run_cli("resume", str(save), "--json")
    assert run.code == 1, run.err
    assert message in run.err and "Traceback" not in run.err and "internal" not in run.err
    assert save.read_bytes() == before


def test_a_reason_without_its_own_message_gets_the_general_one(tmp_path, monkeypatch):
    """The fallback used to raise TypeError (``key`` twice) instead of saying this."""

    def refuse(options, name):
        raise SetupError("a_reason_nobody_wrote_down", option=name)

    save = edited_pantone_save(tmp_path, "en")
    monkeypatch.setattr(games.pantone, "_flag", refuse)
    run = run_cli("resume", str(save), "--json")
    assert run.code == 1, run.err
    assert "pantone cannot start with these settings (a_reason_nobody_wrote_down)" in run.err
    assert "Traceback" not in run.err and "internal" not in run.err
