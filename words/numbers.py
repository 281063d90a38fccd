"""How numbers are said in each language: cardinal words ("21" → "twenty one") and the
spoken and typed forms of ordinals ("2." → "zweite"). The CLDR number rules come from
unicode-rbnf (also hassil's); every layer that hears or says a number asks here."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from words.text import normalize


@cache
def _number_engine(lang: str) -> Any:
    from unicode_rbnf import RbnfEngine

    return RbnfEngine.for_language(lang)


@cache
def number_words(number: int, lang: str) -> tuple[str, ...]:
    """How ``number`` is said: ``12`` → ``("zwölf",)``, ``21`` → ``("twenty", "one")``."""
    text = _number_engine(lang).format_number(number).text
    return tuple(re.sub(r"[\s\-]+", " ", text).strip().lower().split())


@cache
def ordinal_forms(number: int, lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """How an ordinal number is said (``2`` → "zweite", "zweiten", … / "second") and how
    it may be typed besides ("2te", "2." / "2nd"; a full stop is gone after
    :func:`normalize`, so the bare digits count too)."""
    from unicode_rbnf import FormatPurpose

    result = _number_engine(lang).format_number(number, purpose=FormatPurpose.ORDINAL)
    said: list[str] = []
    for text in [result.text, *result.text_by_ruleset.values()]:
        words = normalize(text)
        said.append(words)
        if lang == "de" and words.startswith("einhundert"):
            said.append(words.removeprefix("ein"))
        if lang == "en" and "hundred " in words:
            said.append(words.replace("hundred ", "hundred and ", 1))
    if lang == "de":
        stem = "t" if number % 100 < 20 else "st"  # zweite, zwanzigste
        typed = [str(number), *(f"{number}{stem}{end}" for end in ("e", "en", "er", "es", "em"))]
    else:
        last = number % 10 if number % 100 not in (11, 12, 13) else 0
        typed = [str(number), f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(last, 'th') }"]
    return tuple(dict.fromkeys(said)), tuple(typed)
