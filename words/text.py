"""The one text normalisation of farbspiel: how typed text, recogniser output, card words
and names are made comparable (here because the engines compare words too)."""

from __future__ import annotations

import re
import unicodedata

# Characters a recogniser never outputs; stripped before matching and from phrases.
_PUNCT = re.compile(r"[^\w\s'’\-]+")
_SPACE = re.compile(r"[\s\-]+")
_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "'": ""})


def normalize(text: str, *, keep_case: bool = False) -> str:
    """Lower-case, NFC, punctuation to spaces, single spaces: what recognisers output.
    ``keep_case``: the same words with their letters as typed (a name to show)."""
    text = unicodedata.normalize("NFC", text).replace("’", "'")
    text = _PUNCT.sub(" ", text if keep_case else text.lower())
    return _SPACE.sub(" ", text).strip()


def fold(text: str) -> str:
    """:func:`normalize`, then umlauts as ae/oe/ue, other accents and apostrophes
    dropped, anything but letters and digits as spaces (for matching names)."""
    text = unicodedata.normalize("NFKD", normalize(text).translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())
