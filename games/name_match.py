"""Does a spoken guess name this character? Fuzzy, but strict where names are close.

Guesses arrive as recogniser output or typed text: articles go missing ("little mermaid"),
titles are spelled out ("mister potato head" for "Mr. Potato Head"), words are split or
merged ("spider man", "spiderman", "sand männchen"), and one word may be misheard
("harry porter"). All of that must still count. At the same time, similar names of
different characters must never count for each other: "Spider-Woman" is not
"Spider-Man", "Wario" is not "Mario", "Trick" is not "Tick".

The rules, applied to both sides after :func:`canonical` (lower case, no accents or
punctuation, umlauts folded, abbreviations spelled out, articles and small linking
words dropped, a leading title optional):

* equal word sequences, or equal once all spaces are removed (split/merged words): 100;
* each word of one side matching a consecutive piece of the other side's letters within
  a small spelling budget that grows with the word's length (0 changes up to 5 letters,
  1 up to 8, 2 beyond): 100 - 4 per change (this covers misheard words that are also
  split or merged differently);
* names of three or more content words may also have one word wrong, missing or extra
  when all the other words agree: 75 (low enough that the table is asked to confirm).

A deck-level decision (:func:`best_match`) takes the best-scoring character; the engine
accepts a guess for its card only if no other card scores higher.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from words.text import fold, normalize

EXACT = 100.0
ONE_WORD_WRONG = 75.0
PER_EDIT = 4.0
TITLE_DROPPED = 2.0

SPOKEN_ABBREVIATIONS: dict[str, dict[str, str]] = {
    "en": {
        "mr": "mister",
        "mrs": "missus",
        "ms": "miss",
        "dr": "doctor",
        "st": "saint",
        "prof": "professor",
        "capt": "captain",
        "jr": "junior",
        "sr": "senior",
    },
    "de": {
        "dr": "doktor",
        "hr": "herr",
        "fr": "frau",
        "st": "sankt",
        "prof": "professor",
        "käpt'n": "kapitän",
        "kapt": "kapitän",
    },
}
"""The one table of abbreviations in names and how recognisers spell them out, per
language: the recognisers listen for both forms, and the matcher expands both sides."""

_SAME_TITLE = {"doktor": "doctor", "sankt": "saint", "kapitaen": "kapitan", "kaptn": "kapitan"}
"""Spelled-out titles that are one title in both languages (compared alike)."""


def _matching_table() -> dict[str, str]:
    table: dict[str, str] = dict(_SAME_TITLE)
    for abbreviations in SPOKEN_ABBREVIATIONS.values():
        for short, spoken in abbreviations.items():
            spoken = fold(spoken)
            table.setdefault(fold(short), _SAME_TITLE.get(spoken, spoken))
    return table


_ABBREVIATIONS = _matching_table()
"""Folded abbreviation → the folded word both sides are compared with."""

# Words that carry no identity: articles and small linking words, in both languages.
_SMALL_WORDS = frozenset(
    "the a an of and in on at with from to von vom zu zum zur und mit aus im am an "
    "der die das den dem des ein eine einen einem einer eines".split()
)

# A leading title may be left out ("Potato Head", "Hook", "Blaubär").
_TITLES = frozenset(
    "mister missus miss doctor saint professor captain sir lady king queen prince princess "
    "uncle aunt count baron herr frau kapitan konig konigin prinz prinzessin onkel tante "
    "graf grafin ritter meister".split()
)


@lru_cache(maxsize=8192)
def canonical(text: str) -> tuple[str, ...]:
    """The words of ``text`` that identify a character, in a comparable spelling."""
    words = [_ABBREVIATIONS.get(w, w) for w in fold(text).split()]
    # Undo the folding of umlauts inside the title list ("könig" → "koenig" → "konig").
    words = [w.replace("oe", "o").replace("ae", "a") if _is_title(w) else w for w in words]
    content = [w for w in words if w not in _SMALL_WORDS]
    return tuple(content or words)


def spoken_words(text: str, small: bool = False) -> tuple[str, ...]:
    """The words of ``text`` that identify a character, as they are said: like
    :func:`canonical`, but spelled as written (umlauts and accents kept) so that a
    speech synthesiser says them right; ``small``: the small words kept too."""
    words = []
    for word in normalize(text).replace("-", " ").split():
        folded = fold(word)
        spoken = _ABBREVIATIONS.get(folded)
        words.append((spoken, folded) if spoken is not None else (word, folded))
    content = [w for w, f in words if small or f not in _SMALL_WORDS]
    return tuple(content or [w for w, _ in words])


def _is_title(word: str) -> bool:
    return word.replace("oe", "o").replace("ae", "a") in _TITLES


def _budget(length: int) -> int:
    """Spelling changes a word (or a whole name) of this length may have."""
    if length <= 5:
        return 0
    if length <= 8:
        return 1
    return 2


def _word_edits(a: str, b: str) -> int | None:
    """Changes between two words, or ``None`` if beyond the budget of the longer one."""
    if a == b:
        return 0
    limit = _budget(max(len(a), len(b)))
    if limit == 0:
        return None
    edits = Levenshtein.distance(a, b, score_cutoff=limit)
    return edits if edits <= limit else None


def _words_score(guess: Sequence[str], name: Sequence[str]) -> float | None:
    if tuple(guess) == tuple(name) or "".join(guess) == "".join(name):
        return EXACT
    found: list[int] = []
    # Every word allows at most two changes, so if the names written without spaces are
    # further apart than that, no way of splitting them can match (a cheap test first).
    limit = 2 * max(len(guess), len(name))
    if Levenshtein.distance("".join(guess), "".join(name), score_cutoff=limit) <= limit:
        found = [
            e
            for e in (_split_edits(guess, "".join(name)), _split_edits(name, "".join(guess)))
            if e is not None
        ]
    if found:
        edits = min(found)
        return EXACT - PER_EDIT * edits
    if _one_word_off(guess, name):
        return ONE_WORD_WRONG
    return None


def _split_edits(words: Sequence[str], letters: str) -> int | None:
    """Fewest spelling changes when ``letters`` is cut into ``len(words)`` pieces that
    match ``words`` one by one, each within that word's budget; ``None`` if no cut does.

    This lets "sponge bob squarepans" match "SpongeBob SquarePants" while "spider woman"
    never matches "Spider-Man": "woman" would have to match "man", beyond its budget.
    """
    count, size = len(words), len(letters)
    inf = 10**6
    # best[i][p]: fewest changes matching the first i words to letters[:p]
    best = [[inf] * (size + 1) for _ in range(count + 1)]
    best[0][0] = 0
    for i, word in enumerate(words, start=1):
        slack = _budget(len(word)) + 2
        for p in range(size + 1):
            if best[i - 1][p] >= inf:
                continue
            low, high = max(p + 1, p + len(word) - slack), min(size, p + len(word) + slack)
            for q in range(low, high + 1):
                edits = _word_edits(word, letters[p:q])
                if edits is not None and best[i - 1][p] + edits < best[i][q]:
                    best[i][q] = best[i - 1][p] + edits
    result = best[count][size]
    return result if result < inf else None


def _one_word_off(guess: Sequence[str], name: Sequence[str]) -> bool:
    """One word substituted, missing or extra, every other word within its budget.

    Only for names of three or more content words, and at least two words must agree.
    """
    if len(name) < 3 or abs(len(guess) - len(name)) > 1:
        return False
    rows, cols = len(guess), len(name)
    # Edit distance over words, where words within their spelling budget count as equal.
    cost = [[i + j if i == 0 or j == 0 else 0 for j in range(cols + 1)] for i in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            same = _word_edits(guess[i - 1], name[j - 1]) is not None
            cost[i][j] = min(
                cost[i - 1][j] + 1,
                cost[i][j - 1] + 1,
                cost[i - 1][j - 1] + (0 if same else 1),
            )
    return cost[rows][cols] <= 1 and min(rows, cols) - 1 >= 2


def score(guess: str, name: str) -> float | None:
    """How well ``guess`` names ``name`` (0-100), or ``None`` if it does not."""
    g, n = canonical(guess), canonical(name)
    if not g or not n:
        return None
    found = _words_score(g, n)
    # A leading title may be left out on either side ("Potato Head", "Käpt'n Blaubär"),
    # scoring a little lower so that a card really called "Louie" beats "King Louie".
    if len(n) > 1 and _is_title(n[0]):
        found = _better(found, _words_score(g, n[1:]), TITLE_DROPPED)
    if len(g) > 1 and _is_title(g[0]):
        found = _better(found, _words_score(g[1:], n), TITLE_DROPPED)
    return found


def _better(found: float | None, other: float | None, penalty: float) -> float | None:
    if other is None:
        return found
    other -= penalty
    return other if found is None or other > found else found


@dataclass(frozen=True)
class Match:
    """The best character for a guess."""

    card: int
    """Index of the character in the deck (0-based)."""

    form: str
    """The name or alias that matched, as written in the deck."""

    score: float
    """0-100; 100 for an exact or merely re-spaced name."""


def best_match(guess: str, cards: Sequence[Iterable[str]]) -> Match | None:
    """The character ``guess`` names best among ``cards`` (each: its name and aliases).

    Ties between different cards keep the first; callers that judge a guess for one
    card use :func:`names_card`.
    """
    best: Match | None = None
    for index, forms in enumerate(cards):
        for form in forms:
            found = score(guess, form)
            if found is not None and (best is None or found > best.score):
                best = Match(index, form, found)
    return best


def card_score(guess: str, forms: Iterable[str]) -> float | None:
    """The best score of ``guess`` against one card's name and aliases."""
    scores = [s for f in forms if (s := score(guess, f)) is not None]
    return max(scores) if scores else None


def names_card(guess: str, card: int, cards: Sequence[Iterable[str]]) -> bool:
    """True if ``guess`` names card ``card`` and no other card better."""
    own = card_score(guess, cards[card])
    if own is None:
        return False
    return all(
        (other := card_score(guess, forms)) is None or other <= own
        for index, forms in enumerate(cards)
        if index != card
    )
