"""The set-up understanding bench measures the set-up corpus and held-out files alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voice.bench.setup_understanding import main


def test_right_wrong_and_noise_are_counted(tmp_path: Path) -> None:
    held = tmp_path / "setup.en.yaml"
    held.write_text(
        '- {text: "Pantone please", game: pantone}\n'
        '- {text: "we are Anna and Ben", players: [Anna, Ben]}\n'
        '- {text: "uh hmm"}\n'
        '- {text: "Pantone", game: farben}\n',
        encoding="utf-8",
    )
    assert main(["--held-out", str(held), "--out", str(tmp_path)]) == 0
    (row,) = json.loads((tmp_path / "setup-understanding-heldout.json").read_text())["rows"]
    assert (row["lang"], row["answers"], row["right"], row["noise"]) == ("en", 4, 3, 1)
    assert row["noise_set"] == 0


def test_a_file_that_is_not_a_set_up_file_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "setup.fr.yaml"
    bad.write_text("- {text: x}\n", encoding="utf-8")
    assert main(["--held-out", str(bad), "--out", str(tmp_path)]) == 2
    assert "must end in .de.yaml or .en.yaml" in capsys.readouterr().err
