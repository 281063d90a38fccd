"""What a recogniser listens for while a game is set up: the set-up's own words
(``grammars/<lang>/setup.yaml``) as whole sentences, with the names the household is
likely to say (remembered players, or those given). One source for the parser and the
recogniser, as the games' templates are."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from voice.setup.grammar import setup_grammar
from words.text import normalize

INTROS = 3
"""How many of the grammar's ways to introduce the players are listened for."""
MAX_GROUP = 4
"""Players said in one breath at most in the phrase list (more: say them twice)."""
MINUTE = 60
TIME_SECONDS = (30, 60, 90)
"""Time limits listened for besides "one minute" ("zeitlimit dreißig sekunden")."""


def _group(names: Sequence[str], join: str) -> str:
    return " ".join(names) if len(names) < 2 else " ".join(names[:-1]) + f" {join} {names[-1]}"


def setup_phrases(lang: str, names: Sequence[str]) -> list[str]:
    """The set-up's sentences for ``lang``, ``names`` being the players to listen for."""
    g = setup_grammar(lang)
    found: set[str] = set()
    for phrases in g.names.values():
        found |= set(phrases)
    with_limit = normalize(str(g.time_limit["with"]))
    for option in g.options:
        found |= set(option.says)
        for name in g.names[option.game][:2]:
            found |= {f"{name} {say}" for say in option.says[:3]}
    for phrases in [*g.words.values(), *g.language.values()]:
        found |= set(phrases)
    found |= set(g.yes[0]) | set(g.no[0])
    found |= {normalize(str(p)) for p in g.teams["says"]}
    limit = normalize(str(g.time_limit["says"][0]))
    units: dict[str, float] = g.time_limit["units"]
    numbers: dict[str, float] = g.time_limit["numbers"]
    word = {value: name for name, value in reversed(numbers.items())}  # the first of each
    minute = next(u for u, v in units.items() if v == MINUTE)
    second = next(u for u, v in units.items() if v == 1)
    found |= {limit, with_limit}
    for lead in (limit, with_limit):
        if 1 in word:
            found.add(f"{lead} {word[1]} {minute}")
        found |= {f"{lead} {word[s]} {second}" for s in TIME_SECONDS if s in word}
    join, along = str(g.players["join"][0]), str(g.players["join"][1])  # "und", "mit"
    games = [phrases[0] for phrases in g.names.values()]
    said = [normalize(n) for n in names if normalize(n)]
    intros = [str(p) for p in g.players["intro"][:INTROS]]
    for size in range(1, min(MAX_GROUP, len(said)) + 1):
        for group in permutations(said, size):
            sentence = _group(group, join)
            found.add(sentence)
            found |= {f"{intro} {sentence}" for intro in intros}
            found |= {f"{game} {along} {sentence}" for game in games}
    unheard = [f" {w} " for w in g.typed_only]
    return sorted(p for p in found if p.strip() and not any(w in f" {p} " for w in unheard))
