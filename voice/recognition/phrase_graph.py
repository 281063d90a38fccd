"""A phrase list → the finite-state grammar pocketsphinx decodes with.

The phrase list of a game phase (expanded from the same hassil templates the parser uses)
holds thousands of sentences. They are folded into the minimal acyclic automaton that
accepts exactly them (shared prefixes and shared suffixes merged): a few hundred arcs.

Why not JSGF: pocketsphinx compiles a JSGF rule reference by copying the rule at every
place it is used, so a grammar with shared parts grows back into the full sentence tree
(measured: the 79,000 sentences of the unnarrowed play phase gave 205,000 states and 1.8
million arcs, 4-17 s to compile and about 20 s to decode one utterance). The automaton
here is the same language with 118 states, handed over as an FSG directly.

Digits in phrases ("nummer 12 wird rot") are spoken as number words; the grammar maps
what was recognised back to the phrase as the parser knows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from words.numbers import number_words

_DIGITS = re.compile(r"^\d+$")
_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)*$")  # letters, inner apostrophes ("i'll")


def spoken_words(phrase: str, lang: str) -> list[str]:
    """The words of a normalised phrase as they are said (digits become words).

    Raises ValueError for a token that is neither a word nor a number.
    """
    words: list[str] = []
    for token in phrase.split():
        said = _spoken_token(token, lang)
        if said is None:
            raise ValueError(f"cannot say {token!r} in the phrase {phrase!r}")
        words.extend(said)
    return words


NAME_JOINER = "_"
"""Joins the words of a name into one decoder word (``mister_potato_head``)."""


def joined_names(words: Sequence[str], names: frozenset[tuple[str, ...]]) -> list[str]:
    """``words`` with every run that is one of ``names`` (each a tuple of two or more
    words) joined into one word, longest names first, left to right:
    ``["is", "it", "mister", "potato", "head"]`` → ``["is", "it", "mister_potato_head"]``.
    """
    if not names:
        return list(words)
    starting = _names_by_first_word(names)
    out: list[str] = []
    i = 0
    while i < len(words):
        for name in starting.get(words[i], ()):
            if tuple(words[i : i + len(name)]) == name:
                out.append(NAME_JOINER.join(name))
                i += len(name)
                break
        else:
            out.append(words[i])
            i += 1
    return out


@lru_cache(maxsize=32)
def _names_by_first_word(
    names: frozenset[tuple[str, ...]],
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The names by their first word, the longest first (a phrase list of thousands of
    sentences is joined against the same names)."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        by_first.setdefault(name[0], []).append(name)
    return {
        first: tuple(sorted(group, key=lambda n: (-len(n), n))) for first, group in by_first.items()
    }


@cache
def _spoken_token(token: str, lang: str) -> tuple[str, ...] | None:
    if _DIGITS.match(token):
        return number_words(int(token), lang)
    return (token,) if _WORD.match(token) else None


class Automaton:
    """The minimal acyclic automaton accepting exactly the given word sequences."""

    def __init__(self, sentences: Iterable[Sequence[str]]) -> None:
        # a trie first, then states with the same future are merged, bottom-up
        trie_final: list[bool] = [False]
        trie_edges: list[dict[str, int]] = [{}]
        for words in sentences:
            node = 0
            for word in words:
                nxt = trie_edges[node].get(word)
                if nxt is None:
                    nxt = len(trie_final)
                    trie_final.append(False)
                    trie_edges.append({})
                    trie_edges[node][word] = nxt
                node = nxt
            trie_final[node] = True
        self.final: list[bool] = []
        self.edges: list[dict[str, int]] = []
        registry: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}
        canon: dict[int, int] = {}
        # a trie node's children have larger numbers: reverse order visits children first
        for node in range(len(trie_final) - 1, -1, -1):
            edges = {w: canon[c] for w, c in trie_edges[node].items()}
            key = (trie_final[node], tuple(sorted(edges.items())))
            state = registry.get(key)
            if state is None:
                state = registry[key] = len(self.final)
                self.final.append(trie_final[node])
                self.edges.append(edges)
            canon[node] = state
        self.start = canon[0]

    def __len__(self) -> int:
        return len(self.final)

    @property
    def arcs(self) -> int:
        return sum(len(e) for e in self.edges)

    def accepts(self, words: Sequence[str]) -> bool:
        state = self.start
        for word in words:
            nxt = self.edges[state].get(word)
            if nxt is None:
                return False
            state = nxt
        return self.final[state]

    def transitions(
        self, token: dict[str, str]
    ) -> tuple[int, int, list[tuple[int, int, float, str]]]:
        """``(start, final, arcs)`` for pocketsphinx's ``create_fsg``.

        FSGs have a single final state. A word that can end a sentence gets a second arc
        straight into it (rather than an empty arc from its accepting state, which
        pocketsphinx's search follows poorly at the end of an utterance).
        Every arc has probability 1: all sentences of a phase are equally welcome, and
        longer ones are not penalised for their length. Words that share a token (names
        said alike) share their arcs.
        """
        final = len(self)
        arcs: dict[tuple[int, int, float, str], None] = {}
        for state, edges in enumerate(self.edges):
            for word, child in edges.items():
                if self.edges[child]:
                    arcs.setdefault((state, child, 1.0, token[word]), None)
                if self.final[child]:
                    arcs.setdefault((state, final, 1.0, token[word]), None)
        return self.start, final, list(arcs)
