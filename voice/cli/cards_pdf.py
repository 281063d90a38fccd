"""Print-and-play card sheets as PDF: ``farbspiel cards GAME --pdf FILE``.

Built with fpdf2: pure Python (no C library to install), small, well kept, and it embeds
TrueType fonts with full Unicode, so German umlauts and ß print as they are. The font is
DejaVu Sans from Debian's ``fonts-dejavu-core`` (installed by ``setup.sh``).

Cards sit in a grid with dashed cut lines around each; A4 or Letter (``--paper``);
``--large-print`` uses fewer, larger cards per page. What each card says comes from the
game's adapter (:meth:`GameAdapter.card_sheet`): cards of text (a title, then lines to
read) or word cards (a few words, large and centred). Each card's number has a band of its
own at the top; the text goes below it, measured and shrunk or hyphenated to fit
(``voice/cli/card_fit.py``). A card whose text cannot fit at the smallest size, or that
has a character the font cannot print, is named with its number and nothing is written.
"""

from __future__ import annotations

import argparse
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.deck_files import MAX_PROBLEMS
from games.errors import Reason
from voice.cli.card_fit import LEADING, PT, Breaks, Fitted, Paragraph, TooLong, fit, hyphenation
from voice.output.messages import console_language, console_text
from voice.session.adapters.base import CardSheet, GameAdapter

PAPERS = {"a4": "A4", "letter": "Letter"}
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)
FONT_NAME = "DejaVu Sans"
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}  # by bold or not
MARGIN = 10.0
"""Millimetres of paper around the grid of cards."""
PAD = 4.0
"""Millimetres between a card's cut line and its text."""
NUMBER_GAP = 1.0
"""Millimetres between the band of the card's number and its text."""


@dataclass(frozen=True)
class Layout:
    """How one kind of card is printed."""

    columns: int
    rows: int
    title_pt: float
    text_pt: float
    min_text_pt: float
    """The smallest size the card's text may be shrunk to (the title shrinks alike)."""
    number_pt: float

    @property
    def min_scale(self) -> float:
        return self.min_text_pt / self.text_pt


LAYOUTS = {  # by the kind of card (CardSheet.kind), then large print or not
    "text": {False: Layout(2, 4, 15, 11, 7.5, 9), True: Layout(1, 3, 24, 17, 13, 13)},
    "words": {False: Layout(3, 6, 18, 18, 10, 9), True: Layout(2, 4, 30, 30, 17, 13)},
}


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in millimetres from the top left."""

    x: float
    y: float
    w: float
    h: float


def card_boxes(page_w: float, page_h: float, layout: Layout) -> list[Box]:
    """The cut boxes of one page's cards, in reading order."""
    w = (page_w - 2 * MARGIN) / layout.columns
    h = (page_h - 2 * MARGIN) / layout.rows
    return [
        Box(MARGIN + c * w, MARGIN + r * h, w, h)
        for r in range(layout.rows)
        for c in range(layout.columns)
    ]


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
    """Write the sheets of ``adapter``'s game to ``args.pdf``: every card checked first
    (one :class:`UsageError` naming each card that cannot be printed, and no file), then
    the whole file at once."""
    sheet = adapter.card_sheet(lang, getattr(args, "deck", None))
    layout = LAYOUTS[sheet.kind][bool(getattr(args, "large_print", False))]
    paper = PAPERS[getattr(args, "paper", "a4")]
    pdf = _sheets(sheet, layout, paper, hyphenation(lang), args.pdf)
    _write(pdf.output(), Path(args.pdf))


def _write(data: bytes | bytearray, path: Path) -> None:
    """``data`` to ``path`` whole or not at all (written beside it, then renamed)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        from voice.errors import CliError

        raise CliError(console_text("pdf_unwritable", path=path, reason=exc)) from None


def _new_pdf(paper: str) -> Any:
    from fpdf import FPDF

    pdf = FPDF(orientation="portrait", unit="mm", format=paper)
    pdf.set_auto_page_break(False)
    for bold, name in FONT_FILES.items():
        pdf.add_font("DejaVu", "B" if bold else "", str(_font(name)))
    pdf.set_title("farbspiel cards")
    return pdf


def _sheets(sheet: CardSheet, layout: Layout, paper: str, breaks: Breaks | None, path: Path) -> Any:
    pdf = _new_pdf(paper)
    boxes = card_boxes(pdf.w, pdf.h, layout)
    text_box = _text_box(boxes[0], layout)
    measure = _Measure(pdf)
    centred = sheet.kind == "words"
    fitted: list[Fitted] = []
    problems: list[Reason] = []
    for number, lines in sheet.cards:
        paragraphs = _paragraphs(sheet.kind, lines, layout)
        missing = _unprintable(pdf, paragraphs)
        if missing:
            chars = [f"{c} (U+{ord(c):04X} {unicodedata.name(c, '?')})" for c in missing]
            problems.append(_problem(number, lines, sheet.kind, "card_glyphs_missing",
                                     chars=chars, count=len(chars), font=FONT_NAME))  # fmt: skip
            continue
        result = fit(paragraphs, text_box.w, text_box.h, measure, breaks, layout.min_scale,
                     centred)  # fmt: skip
        if isinstance(result, TooLong):
            problems.append(_too_long(number, lines, sheet.kind, result))
            continue
        fitted.append(result)
    if problems:
        from voice.errors import UsageError

        shown = problems[:MAX_PROBLEMS]
        raise UsageError(console_text("cards_not_printable", path=path, count=len(problems),
                                      problems=shown, more=len(problems) - len(shown)))  # fmt: skip
    for index, ((number, _), card) in enumerate(zip(sheet.cards, fitted, strict=True)):
        if index % len(boxes) == 0:
            pdf.add_page()
        box = boxes[index % len(boxes)]
        _cut_lines(pdf, box)
        _number(pdf, box, number, layout)
        inner = _text_box(box, layout)
        top = inner.y + ((inner.h - card.height) / 2 if centred else 0.0)
        _draw(pdf, card, inner.x, top)
    return pdf


def _text_box(card: Box, layout: Layout) -> Box:
    """Where a card's text may go: inside its padding, below the band of its number."""
    band = layout.number_pt * PT * LEADING + NUMBER_GAP
    return Box(card.x + PAD, card.y + PAD + band, card.w - 2 * PAD, card.h - 2 * PAD - band)


def _paragraphs(kind: str, lines: Sequence[str], layout: Layout) -> list[Paragraph]:
    if kind == "words":  # the words of a word card, large and bold
        return [Paragraph(line, True, layout.title_pt) for line in lines]
    title = Paragraph(lines[0], True, layout.title_pt)
    rest = [Paragraph(line, False, layout.text_pt, 0.3, _label(line)) for line in lines[1:]]
    return [title, *rest]


def _label(line: str) -> str:
    """A hint's number ("1. "), if it starts with one: later lines are indented past it."""
    head, dot, _ = line.partition(". ")
    return f"{head}. " if dot and head.isdigit() else ""


class _Measure:
    """Widths of texts in the sheet's fonts (remembered: fitting tries many sizes)."""

    def __init__(self, pdf: Any) -> None:
        self.pdf = pdf
        self.known: dict[tuple[str, bool, float], float] = {}

    def __call__(self, text: str, bold: bool, size: float) -> float:
        key = (text, bold, size)
        if key not in self.known:
            self.pdf.set_font("DejaVu", "B" if bold else "", size)
            self.known[key] = float(self.pdf.get_string_width(text))
        return self.known[key]


def _unprintable(pdf: Any, paragraphs: Sequence[Paragraph]) -> list[str]:
    """The characters of a card that its fonts have no glyph for (first seen first)."""
    missing: dict[str, None] = {}
    for para in paragraphs:
        cmap = pdf.fonts["dejavuB" if para.bold else "dejavu"].cmap
        for char in para.text:
            if not char.isspace() and ord(char) not in cmap:
                missing.setdefault(char)
    return list(missing)


def _problem(number: str, lines: Sequence[str], kind: str, key: str, **values: Any) -> Reason:
    label = " ".join(lines) if kind == "words" else lines[0]
    if len(label) > 40:
        label = label[:39].rstrip() + "…"
    return Reason("card_problem", {"card": number, "label": label, "reason": Reason(key, values)})


def _too_long(number: str, lines: Sequence[str], kind: str, why: TooLong) -> Reason:
    from babel.numbers import format_decimal

    size = format_decimal(why.size, locale=console_language())
    if why.word is not None:
        return _problem(number, lines, kind, "card_word_too_wide", word=why.word, size=size)
    percent = max(1, round(why.missing * 100))
    return _problem(number, lines, kind, "card_too_full", size=size, percent=percent)


def _cut_lines(pdf: Any, box: Box) -> None:
    pdf.set_draw_color(90, 90, 90)
    pdf.set_line_width(0.3)
    with pdf.local_context():
        pdf.set_dash_pattern(dash=2, gap=1.5)
        pdf.rect(box.x, box.y, box.w, box.h)


def _number(pdf: Any, box: Box, number: str, layout: Layout) -> None:
    """The card's number, top right, in a band of its own."""
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("DejaVu", "B", layout.number_pt)
    text = f"# {number}"
    x = box.x + box.w - PAD - pdf.get_string_width(text)
    _text(pdf, x, box.y + PAD, text, layout.number_pt, "dejavuB")


def _draw(pdf: Any, card: Fitted, left: float, top: float) -> None:
    for line in card.lines:
        pdf.set_font("DejaVu", "B" if line.bold else "", line.size)
        font = "dejavuB" if line.bold else "dejavu"
        _text(pdf, left + line.x, top + line.top, line.text, line.size, font)


def _text(pdf: Any, x: float, top: float, text: str, size: float, font: str) -> None:
    """``text`` in a line box whose top is at ``top``: its glyphs centred in the box."""
    desc = pdf.fonts[font].desc
    ascent, descent = desc.ascent / 1000, -desc.descent / 1000
    line = size * PT * LEADING
    baseline = top + (line - (ascent + descent) * size * PT) / 2 + ascent * size * PT
    pdf.text(x, baseline, text)
