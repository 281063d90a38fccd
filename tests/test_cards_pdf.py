"""Printable card sheets: rendered with poppler (pdftoppm) and read back (pdftotext)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import run_cli


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip


def _page_size(pdf: Path) -> str:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return next(line for line in info.stdout.splitlines() if line.startswith("Page size"))


def _rendered_ink(pdf: Path, tmp_path: Path) -> float:
    """Share of dark pixels on page 1 as rendered by pdftoppm (greyscale PGM)."""
    subprocess.run(["pdftoppm", "-r", "30", "-gray", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True)  # fmt: skip
    raw = next(tmp_path.glob("page*.pgm")).read_bytes()
    pixels = raw.split(b"\n", 3)[3]
    return sum(1 for b in pixels if b < 128) / len(pixels)


def test_pantone_sheets_in_german_carry_number_name_umlauts_and_hints(tmp_path: Path) -> None:
    pdf = tmp_path / "pantone.pdf"
    run = run_cli("cards", "pantone", "--lang", "de", "--pdf", str(pdf))
    assert run.code == 0, run.err
    text = _text(pdf)
    for expected in ("Das Sandmännchen", "1. Spitzbart", "4. Schickt Kinder ins Bett", "# 1",
                     "Kommt mit immer neuen Fahrzeugen", "Klatschmohnwiese"):  # fmt: skip
        assert expected in text
    assert "A4" in _page_size(pdf)
    assert 0.002 < _rendered_ink(pdf, tmp_path) < 0.3  # text and cut lines, not blank


def test_large_print_letter_and_a_deck_of_ones_own(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "- {name: Oma Grete, aliases: [Grete], hints: [Garten, Kuchen, Brille, Katze]}\n"
        "- {name: Onkel Jörg, aliases: [], hints: [Bart, Fußball, Grillen, Witze]}\n",
        encoding="utf-8",
    )
    pdf = tmp_path / "own.pdf"
    run = run_cli("cards", "pantone", "--lang", "de", "--deck", str(deck), "--pdf", str(pdf),
                  "--paper", "letter", "--large-print")  # fmt: skip
    assert run.code == 0, run.err
    text = _text(pdf)
    assert "Onkel Jörg" in text and "2. Fußball" in text and "(auch: Grete)" in text
    assert "612 x 792" in _page_size(pdf)  # Letter


def test_farben_word_cards(tmp_path: Path) -> None:
    pdf = tmp_path / "farben.pdf"
    run = run_cli("cards", "farben", "--lang", "de", "--pdf", str(pdf))
    assert run.code == 0, run.err
    text = _text(pdf)
    assert "Schule" in text and "Urlaub" in text and "Küche" in text
    own = tmp_path / "words.yaml"
    own.write_text("- [Straße, Frühstück]\n- [Geschenk]\n", encoding="utf-8")
    run = run_cli("cards", "farben", "--deck", str(own), "--pdf", str(tmp_path / "x.pdf"))
    assert run.code == 2 and "card 2" in run.err
    own.write_text("- [Straße, Frühstück]\n", encoding="utf-8")
    run = run_cli("cards", "farben", "--deck", str(own), "--pdf", str(tmp_path / "x.pdf"))
    assert run.code == 0 and "Frühstück" in _text(tmp_path / "x.pdf")


def test_a_game_without_cards_of_its_own_writes_no_sheet(tmp_path: Path) -> None:
    pdf = tmp_path / "amf.pdf"
    run = run_cli("cards", "alle-meine-farben", "--pdf", str(pdf))
    assert run.code == 2 and "hat keine eigenen Karten zum Ausdrucken" in run.err
    assert not pdf.exists()
