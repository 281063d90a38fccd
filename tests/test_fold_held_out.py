"""A measured held-out set is folded into its corpus (python -m voice.bench.fold_held_out):
every measurable entry lands there, what is not understood yet as a known failure, and the
corpus still reads and keeps its comments."""

from __future__ import annotations

import shutil
from pathlib import Path

from voice.bench.fold_held_out import fold_file
from voice.bench.understanding import CORPORA, load_cases

FIXTURE = Path(__file__).parent / "data" / "heldout" / "farben.en.yaml"


def test_folding_appends_the_measurable_entries_and_marks_what_fails(tmp_path: Path) -> None:
    shutil.copy(CORPORA / "farben.en.yaml", tmp_path / "farben.en.yaml")
    before = load_cases(tmp_path / "farben.en.yaml")
    held = tmp_path / "C"
    held.mkdir()
    text = FIXTURE.read_text(encoding="utf-8")
    # one entry that cannot be understood today: it must be folded as a known failure
    text = text.replace(
        '  - text: "red"\n    before: the_reveal',
        '  - text: "zzz qqq"\n    before: reveal\n    speaker: Cem\n'
        '    expect: {intent: reveal, slots: {colour: red}}\n  - text: "red"\n'
        "    before: the_reveal",
        1,
    )
    (held / "farben.en.yaml").write_text(text, encoding="utf-8")
    corpus, count, marked, left = fold_file(held / "farben.en.yaml", tmp_path)
    assert corpus == tmp_path / "farben.en.yaml"
    assert (count, marked, len(left)) == (4, 1, 3)
    after = load_cases(corpus)
    added = after[len(before) :]
    assert [c.text for c in added] == [
        "I chose red", "Cem green", "pass me the juice, would you", "zzz qqq",
    ]  # fmt: skip
    assert [c.known_failure is not None for c in added] == [False, False, False, True]
    assert "held-out set C" in corpus.read_text(encoding="utf-8")
    assert corpus.read_text(encoding="utf-8").startswith(
        (CORPORA / "farben.en.yaml").read_text(encoding="utf-8")
    )


def test_an_entry_with_texts_understood_and_not_is_folded_as_two(tmp_path: Path) -> None:
    """Only the texts not understood are known failures: the corpus test then notices the
    day each of them starts to work, and the others are checked from the start."""
    shutil.copy(CORPORA / "farben.en.yaml", tmp_path / "farben.en.yaml")
    held = tmp_path / "C"
    held.mkdir()
    (held / "farben.en.yaml").write_text(
        "game: farben\nlang: en\nentries:\n"
        '  - texts: ["I chose red", "zzz qqq", "qqq zzz"]\n'
        "    before: story\n    speaker: Cem\n"
        "    expect: {intent: reveal, slots: {colour: red}}\n",
        encoding="utf-8",
    )
    corpus, count, marked, _ = fold_file(held / "farben.en.yaml", tmp_path)
    assert (count, marked) == (2, 1)
    added = load_cases(corpus)[-3:]
    assert [(c.text, c.known_failure is not None) for c in added] == [
        ("I chose red", False), ("zzz qqq", True), ("qqq zzz", True),
    ]  # fmt: skip
