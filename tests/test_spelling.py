"""A new name spelled letter by letter (issue 29, item 2): reading the letters, and the
benchmark that measures them said aloud."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from voice.setup.grammar import setup_grammar
from voice.setup.spelling import letters_in, listened_for


@pytest.mark.parametrize(
    ("lang", "said", "letters"),
    [
        ("de", "em ih ah", "mia"),
        ("de", "M-I-A", "mia"),
        ("de", "D wie Dora", "d"),
        ("de", "Dora", "d"),
        ("de", "be wie Dora", "d"),  # the alphabet's word is the one heard for sure
        ("de", "Martha, Ida, Anton", "mia"),
        ("de", "Ü wie Übermut", "ü"),
        ("en", "double you", "w"),
        ("en", "d as in delta", "d"),
        ("en", "x ray", "x"),
        ("en", "zed oh ee", "zoe"),
        ("en", "Tom", None),  # a word, not letters
        ("de", "Pantone", None),
        ("de", "", None),
    ],
)
def test_letters_are_read_however_they_are_said(lang, said, letters):
    assert letters_in(said, setup_grammar(lang)) == letters


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_recogniser_listens_for_every_letter_its_word_and_the_way_out(lang):
    g = setup_grammar(lang)
    heard = listened_for(lang)
    every = {letters_in(p, g) for p in heard} - {None}
    assert set("abcdefghijklmnopqrstuvwxyz") <= every
    assert set(g.spelling.done) | set(g.spelling.back) | set(g.spelling.cancel) <= set(heard)
    assert all(letters_in(p, g) is None or len(letters_in(p, g)) == 1 for p in heard)


@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("espeak-ng", "sox", "soxi")), reason="needs espeak-ng, sox"
)
def test_the_benchmark_says_letters_and_counts_what_was_taken(tmp_path: Path) -> None:
    from voice.bench.spelling_speech import main

    assert main(["--lang", "de", "--letters", "mk", "--out", str(tmp_path)]) == 0
    (result,) = json.loads((tmp_path / "spelling-speech.json").read_text(encoding="utf-8"))
    assert [row["form"] for row in result["rows"]] == ["letter", "with word", "word"]
    said = [c["said"] for c in result["clips"]]
    assert said == ["M", "K", "M wie Martha", "K wie Kaufmann", "Martha", "Kaufmann"]
    with_word = [c for c in result["clips"] if c["form"] == "with word"]
    assert all(c["right"] for c in with_word), with_word  # the surest way, on the fitted voice
    assert "| de | de | with word | 2 | 100.0% |" in (tmp_path / "spelling-speech.md").read_text()


def test_the_benchmark_refuses_letters_it_cannot_say(capsys: pytest.CaptureFixture[str]) -> None:
    from voice.bench.spelling_speech import main

    assert main(["--letters", "a1"]) == 2
    assert "only the letters a to z" in capsys.readouterr().err
