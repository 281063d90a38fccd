"""A new name spelled letter by letter (issue 29, item 2): a name the recogniser cannot
know is said as its letters ("M, I, A" / "em, ih, ah"), then "fertig" / "done".

The words are data (``spelling`` in ``grammars/<lang>/setup.yaml``): how each letter is
said, the spelling alphabet ("D wie Dora", "D for Delta": b, d, e, g, p, t and v sound
alike said alone), and the words that end, take back or cancel the spelling. By voice a
letter is said at a time and said back; typed, any run counts ("M I A", "m-i-a").
"""

from __future__ import annotations

import re

from voice.setup.grammar import SetupGrammar, setup_grammar
from words.text import normalize

MAX_FORM_WORDS = 3
"""The most words a letter is said in ("double you", "as in")."""
MAX_LETTERS = 20
"""Longer than any name a table uses; more letters are not taken."""
_SPLIT = re.compile(r"[\s,.;:!?-]+")


def letters_in(raw: str, g: SetupGrammar) -> str | None:
    """The letters ``raw`` spells ("em i a" -> "mia", "d wie dora" -> "d", "delta" -> "d"),
    or None if any of it is no letter. A word of the spelling alphabet wins over the letter
    said before it: it is the one heard for sure."""
    words = [w for w in _SPLIT.split(normalize(raw)) if w]
    s = g.spelling
    found: list[str] = []
    i = 0
    while i < len(words):
        size, letter = _longest(words, i, s.words)
        if letter is None:
            size, letter = _longest(words, i, s.letters)
            if letter is None:
                return None
            link, _ = _longest(words, i + size, dict.fromkeys(s.link, ""))
            more, named = _longest(words, i + size + link, s.words) if link else (0, None)
            if named is not None:  # "b wie dora": dora
                size, letter = size + link + more, named
        found.append(letter)
        i += size
    return "".join(found) or None


def _longest(words: list[str], i: int, table: dict[str, str]) -> tuple[int, str | None]:
    """How many words at ``i`` make the longest entry of ``table``, and its value."""
    for size in range(min(MAX_FORM_WORDS, len(words) - i), 0, -1):
        value = table.get(" ".join(words[i : i + size]))
        if value is not None:
            return size, value
    return 0, None


def spelled_name(letters: str) -> str:
    """The name the letters spell, written as names are ("mia" -> "Mia")."""
    return letters[:1].upper() + letters[1:]


def listened_for(lang: str) -> list[str]:
    """What the recogniser listens for while a name is spelled: a letter at a time, alone
    or with its word ("d wie dora", "dora"), and what ends, takes back, cancels or asks for
    help. One letter at a time: pocketsphinx heard runs of letters in one breath worse than
    single letters (10 of 26 single letters right against 21; see RESULTS-LOG.md)."""
    g = setup_grammar(lang)
    s = g.spelling
    phrases = {*s.heard, *s.done, *s.cancel, *s.back, *g.words["help"], *s.words}
    phrases |= {f"{letter} {s.link[0]} {word}" for word, letter in s.words.items()}
    unheard = [f" {w} " for w in g.typed_only]
    return sorted(p for p in phrases if not any(w in f" {p} " for w in unheard))
