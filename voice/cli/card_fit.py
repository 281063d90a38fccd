"""Fitting a card's text into its box, for the printed sheets (``voice/cli/cards_pdf.py``).

Every line is measured in the font it is printed in. Text wraps at spaces; a word wider
than a whole line is hyphenated where the language allows it (pyphen, which reads the
hyphenation patterns of LibreOffice and TeX; after a hyphen the word already has, no
second one is added). The whole card is shrunk step by step, down to a readable smallest
size, until everything fits; shrinking is tried before hyphenating. If nothing fits, the
answer says why (:class:`TooLong`): a word no line can hold, or text too long for the card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

PT = 25.4 / 72
"""Millimetres per point."""
LEADING = 1.25
"""Line height per font size (DejaVu Sans reaches 1.164 of its size from top to bottom)."""
SCALE_STEP = 0.04
"""How much of the full size each shrinking step takes off."""
SHRINK_BEFORE_HYPHENATING = 0.75
"""Down to this share of the full size a card is shrunk before a word is hyphenated."""

Measure = Callable[[str, bool, float], float]
"""Width in mm of a text printed bold or not at a size in points."""
Breaks = Callable[[str], Sequence[int]]
"""The places a word may be hyphenated at (indexes into the word, ascending)."""

_HYPHENS = "-\u2010\u2011"
_EDGE = re.compile(r"^\W*|\W*$")
PYPHEN_DICTIONARIES = {"de": "de_DE", "en": "en_US"}


@dataclass(frozen=True)
class Paragraph:
    """One part of a card (a title, a hint): printed in one font and size."""

    text: str
    bold: bool
    size: float
    """Points at full size."""
    space_before: float = 0.0
    """Space above it, in its font size (ignored for the first paragraph)."""
    hanging: str = ""
    """A leading label ("1. "): later lines of the paragraph start where its text does."""


@dataclass(frozen=True)
class Line:
    """One printed line, placed in the card's text box."""

    text: str
    bold: bool
    size: float
    """Points."""
    x: float
    """Millimetres from the left of the text box."""
    top: float
    """Millimetres from the top of the text box to the top of the line."""

    @property
    def height(self) -> float:
        return self.size * PT * LEADING


@dataclass(frozen=True)
class Fitted:
    """A card's text that fits: its lines, their height and the share of full size."""

    lines: list[Line]
    height: float
    scale: float


@dataclass(frozen=True)
class TooLong:
    """Why a card's text does not fit, even at the smallest size with hyphenation."""

    word: str | None
    """A word no line can hold (it cannot be hyphenated small enough); ``None`` when the
    text as a whole is too long."""
    missing: float
    """The share of the text's height that finds no room (0 when ``word`` is set)."""
    size: float
    """The smallest size tried for the card's text, in points."""


def fit(
    paragraphs: Sequence[Paragraph],
    width: float,
    height: float,
    measure: Measure,
    breaks: Breaks | None,
    min_scale: float,
    centred: bool = False,
) -> Fitted | TooLong:
    """Lay ``paragraphs`` out in a box of ``width`` × ``height`` mm, as large as fits:
    first shrinking without hyphenation, then hyphenating (if ``breaks`` is given) from
    full size down to ``min_scale``."""
    attempts: list[tuple[float, Breaks | None]]
    if breaks is None:
        attempts = [(s, None) for s in _scales(min_scale)]
    else:
        plain = _scales(max(min_scale, SHRINK_BEFORE_HYPHENATING))
        attempts = [(s, None) for s in plain] + [(s, breaks) for s in _scales(min_scale)]
    last: Fitted | str | None = None
    for scale, hyphenate in attempts:
        last = _layout(paragraphs, scale, width, measure, hyphenate, centred)
        if isinstance(last, Fitted) and last.height <= height:
            return last
    smallest = min_scale * min(p.size for p in paragraphs)
    if isinstance(last, str):
        return TooLong(last, 0.0, round(smallest, 1))
    assert last is not None
    return TooLong(None, (last.height - height) / last.height, round(smallest, 1))


def _scales(smallest: float) -> list[float]:
    count = max(0, int((1.0 - smallest) / SCALE_STEP + 1e-9))
    scales = [1.0 - i * SCALE_STEP for i in range(count + 1)]
    return scales if scales[-1] <= smallest + 1e-9 else [*scales, smallest]


def _layout(
    paragraphs: Sequence[Paragraph],
    scale: float,
    width: float,
    measure: Measure,
    breaks: Breaks | None,
    centred: bool,
) -> Fitted | str:
    """The lines at ``scale``, or the word that no line can hold."""
    lines: list[Line] = []
    y = 0.0
    for index, para in enumerate(paragraphs):
        size = para.size * scale
        if index:
            y += para.space_before * size * PT
        wrapped = wrap(para, size, width, measure, breaks)
        if isinstance(wrapped, str):
            return wrapped
        for x, text in wrapped:
            if centred:
                x = (width - measure(text, para.bold, size)) / 2
            lines.append(Line(text, para.bold, size, x, y))
            y += size * PT * LEADING
    return Fitted(lines, y, scale)


def wrap(
    para: Paragraph, size: float, width: float, measure: Measure, breaks: Breaks | None
) -> list[tuple[float, str]] | str:
    """``para`` at ``size`` as lines of at most ``width`` mm (each with its indent), or the
    word that no line can hold even hyphenated."""

    def wide(text: str) -> float:
        return measure(text, para.bold, size)

    indent = wide(para.hanging) if para.hanging and para.text.startswith(para.hanging) else 0.0
    if indent > width / 2:
        indent = 0.0
    lines: list[tuple[float, str]] = []
    current = ""

    def room() -> float:
        return width - (indent if lines else 0.0)

    def flush() -> None:
        nonlocal current
        lines.append((indent if lines else 0.0, current))
        current = ""

    for word in para.text.split():
        start = 0
        places: Sequence[int] | None = None
        while start < len(word):
            rest = word[start:]
            joined = f"{current} {rest}" if current else rest
            if wide(joined) <= room():
                current = joined
                break
            if current and wide(rest) <= width - indent:
                flush()  # the rest fits on a line of its own
                continue
            if breaks is None:
                return word
            if places is None:
                places = breaks(word)
            cut = _cut(word, start, places, current, room(), wide)
            if cut is None:
                if not current:
                    return word
                flush()
                continue
            current, start = cut
            flush()
    if current:
        flush()
    return lines


def _cut(
    word: str,
    start: int,
    places: Sequence[int],
    current: str,
    room: float,
    wide: Callable[[str], float],
) -> tuple[str, int] | None:
    """The line ending in the longest piece of ``word[start:]`` that fits, hyphenated, and
    where the rest of the word starts; ``None`` if no piece fits."""
    for place in reversed(places):
        if place <= start:
            break
        piece = word[start:place]
        if piece[-1] not in _HYPHENS:
            piece += "-"
        line = f"{current} {piece}" if current else piece
        if wide(line) <= room:
            return line, place
    return None


def hyphenation(lang: str) -> Breaks | None:
    """The hyphenation places of words in ``lang`` (pyphen's patterns), or ``None`` when
    pyphen has no patterns for it. After a hyphen the word already has, it may always
    break."""
    code = _dictionary(lang)
    return None if code is None else lambda word: _breaks(code, word)


def _dictionary(lang: str) -> str | None:
    import pyphen

    code = PYPHEN_DICTIONARIES.get(lang) or pyphen.language_fallback(lang)
    return code if code in pyphen.LANGUAGES else None


@cache
def _pyphen(code: str) -> Any:
    import pyphen

    return pyphen.Pyphen(lang=code)


@cache
def _breaks(code: str, word: str) -> tuple[int, ...]:
    dictionary = _pyphen(code)
    places: set[int] = set()
    offset = 0
    for part in re.split(f"(?<=[{_HYPHENS}])", word):
        lead = _EDGE.match(part)
        core = _EDGE.sub("", part)
        skip = lead.end() if lead else 0
        places.update(offset + skip + p for p in dictionary.positions(core))
        offset += len(part)
        if part and part[-1] in _HYPHENS and offset < len(word):
            places.add(offset)
    return tuple(sorted(p for p in places if 0 < p < len(word)))
