"""Print-and-play card sheets as PDF: ``farbspiel cards GAME --pdf FILE``.

Built with fpdf2: pure Python (no C library to install), small, well kept, and it embeds
TrueType fonts with full Unicode, so German umlauts and ß print as they are. The font is
DejaVu Sans from Debian's ``fonts-dejavu-core`` (installed by ``setup.sh``).

Cards sit in a grid with dashed cut lines around each; A4 or Letter; ``--large-print``
uses fewer, larger cards per page. What each card says comes from the game's adapter
(:meth:`GameAdapter.card_sheet`): cards of text (a title, then lines to read) or word
cards (a few words, large and centred).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice.output.messages import console_text
from voice.session.adapters.base import GameAdapter

PAPERS = {"a4": "A4", "letter": "Letter"}
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)
MARGIN = 10.0  # mm


@dataclass(frozen=True)
class Layout:
    columns: int
    rows: int
    title_pt: float
    text_pt: float


LAYOUTS = {  # by the kind of card (CardSheet.kind), then large print or not
    "text": {False: Layout(2, 4, 15, 11), True: Layout(1, 3, 24, 17)},
    "words": {False: Layout(3, 6, 18, 18), True: Layout(2, 4, 30, 30)},
}


def add_cards_pdf_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pdf", type=Path, metavar="FILE")  # help texts: cli.yaml
    p.add_argument("--paper", choices=tuple(PAPERS), default="a4")
    p.add_argument("--large-print", action="store_true")


def _font(name: str) -> Path:
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return path
    from voice.errors import UsageError

    raise UsageError(console_text("font_missing", name=name))


def write_cards_pdf(adapter: GameAdapter, lang: str, args: argparse.Namespace) -> None:
    """Write the sheets of ``adapter``'s game to ``args.pdf``."""
    sheet = adapter.card_sheet(lang, getattr(args, "deck", None))
    layout = LAYOUTS[sheet.kind][bool(getattr(args, "large_print", False))]
    paper = PAPERS[getattr(args, "paper", "a4")]
    pdf = _sheets(sheet.cards, layout, paper, centred=sheet.kind == "words")
    try:
        pdf.output(str(args.pdf))
    except OSError as exc:
        from voice.errors import CliError

        raise CliError(console_text("pdf_unwritable", path=args.pdf, reason=exc)) from None


def _sheets(
    cards: Sequence[tuple[str, Sequence[str]]], layout: Layout, paper: str, centred: bool = False
) -> Any:
    from fpdf import FPDF

    pdf = FPDF(orientation="portrait", unit="mm", format=paper)
    pdf.set_auto_page_break(False)
    pdf.add_font("DejaVu", "", str(_font("DejaVuSans.ttf")))
    pdf.add_font("DejaVu", "B", str(_font("DejaVuSans-Bold.ttf")))
    pdf.set_title("farbspiel cards")
    width = (pdf.w - 2 * MARGIN) / layout.columns
    height = (pdf.h - 2 * MARGIN) / layout.rows
    per_page = layout.columns * layout.rows
    for index, (number, lines) in enumerate(cards):
        if index % per_page == 0:
            pdf.add_page()
        slot = index % per_page
        x = MARGIN + (slot % layout.columns) * width
        y = MARGIN + (slot // layout.columns) * height
        _cut_lines(pdf, x, y, width, height)
        _card(pdf, x, y, width, height, number, lines, layout, centred)
    return pdf


def _cut_lines(pdf: Any, x: float, y: float, w: float, h: float) -> None:
    pdf.set_draw_color(90, 90, 90)
    pdf.set_line_width(0.3)
    with pdf.local_context():
        pdf.set_dash_pattern(dash=2, gap=1.5)
        pdf.rect(x, y, w, h)


def _card(
    pdf: Any,
    x: float,
    y: float,
    w: float,
    h: float,
    number: str,
    lines: Sequence[str],
    layout: Layout,
    centred: bool,
) -> None:
    pad = 4.0
    inner = w - 2 * pad
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("DejaVu", "B", min(layout.text_pt * 0.8, 12))
    pdf.set_xy(x + pad, y + pad)
    pdf.cell(inner, layout.text_pt * 0.45, f"# {number}", align="R")
    top = y + pad + layout.text_pt * 0.5
    if centred:  # a word card: the two words, large, in the middle
        pdf.set_font("DejaVu", "B", layout.title_pt)
        line_h = layout.title_pt * 0.5
        block = line_h * len(lines)
        pdf.set_xy(x + pad, y + (h - block) / 2)
        for line in lines:
            pdf.set_x(x + pad)
            pdf.multi_cell(inner, line_h, line, align="C", new_x="LMARGIN", new_y="NEXT")
        return
    pdf.set_xy(x + pad, top)
    pdf.set_font("DejaVu", "B", layout.title_pt)
    pdf.multi_cell(inner, layout.title_pt * 0.5, lines[0], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", layout.text_pt)
    for line in lines[1:]:
        pdf.set_x(x + pad)
        pdf.multi_cell(inner, layout.text_pt * 0.48, line, new_x="LMARGIN", new_y="NEXT")
