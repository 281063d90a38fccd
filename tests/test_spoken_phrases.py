"""What a recogniser can output is understood as what it means, in every game and phase.

A recogniser only ever outputs sentences of its phrase list (``session.phrases()``, the
templates expanded without the typed-only lists and values: ``Grammar.phrases``). For
each phase reached in a
seeded game of every game and language, a fixed sample of those sentences is parsed as
in play; the meaning must be one the templates give that sentence with the *spoken*
lists (so a recogniser can never produce "gold": typed-only values exist only so that a
typed "gold" can be answered with "that colour is not in this game").
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator

import pytest
from hassil import recognize_all

from games.engine import Setup
from voice.output.sinks import NullOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session
from voice.understanding.grammar import LANGUAGES, Grammar
from voice.understanding.intents import _plain

PER_PHASE = 40
MAX_PHASES = 6


def phases(game: str, lang: str) -> Iterator[tuple[str, Session]]:
    """Distinct phases of one seeded game (played by its legal actions)."""
    adapter = ADAPTERS[game]
    players = ("Anna", "Ben", "Cem")
    setup = Setup(players, 4, "Anna", adapter.default_options(lang))
    session = Session(adapter, lang, setup, NullOutput())
    session.start()
    rng = random.Random(7)
    seen: set = set()
    for _ in range(120):
        phase = session.phase()
        key = (phase.intents, tuple(sorted(phase.slots.items())))
        if key not in seen:
            seen.add(key)
            yield f"phase {len(seen)}", session
            if len(seen) >= MAX_PHASES:
                return
        game_ = session.game
        if game_.is_over():
            return
        actions = [a for a in game_.legal_actions() if a.name != "penalty"]
        if not actions:
            return
        session.game.apply(rng.choice(actions))


def readings(grammar: Grammar, phrase: str, intents: set[str]) -> list[tuple]:
    """Every meaning the templates give ``phrase`` with the spoken lists."""
    found = []
    for result in recognize_all(
        phrase, grammar.intents, slot_lists=grammar.spoken_lists(), language=grammar.lang
    ):
        if result.intent.name in intents:
            slots = {k: _plain(e.value) for k, e in result.entities.items()}
            found.append((result.intent.name, slots))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(ADAPTERS))
def test_every_spoken_sentence_means_what_it_says(game: str, lang: str) -> None:
    checked = 0
    for name, session in phases(game, lang):
        phase = session.phase()
        by_phrase: dict[str, set[str]] = defaultdict(set)
        for phrase, intent in session.grammar.phrases(phase.intents, phase.slots):
            by_phrase[phrase].add(intent)
        assert by_phrase, f"{game}/{lang} {name}: nothing to listen for"
        phrases = sorted(by_phrase)
        sample = random.Random(1).sample(phrases, min(PER_PHASE, len(phrases)))
        for phrase in sample:
            intent = session.parser.parse(phrase, phase.intents, phase.slots)
            assert intent is not None, (game, lang, name, phrase)
            meanings = readings(session.grammar, phrase, by_phrase[phrase])
            if intent.name == "board":  # the board reader turns the slots into items
                colours = {m[1].get("colour") for m in meanings if m[0] == "board"}
                items = intent.slots.get("items") or []
                assert items and {i["colour"] for i in items} <= colours | {None}, phrase
                checked += 1
                continue
            got = (intent.name, dict(intent.slots))
            assert got in meanings, (game, lang, name, phrase, got, meanings)
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typed_only_colours_are_never_heard_but_still_understood_typed(lang: str) -> None:
    adapter = ADAPTERS["farben"]
    setup = Setup(("Anna", "Ben", "Cem"), options=adapter.default_options(lang))
    grammar = Grammar(lang, "farben", adapter.dynamic_lists(setup, lang))
    assert "other_colour" in grammar.typed_only_lists
    spoken = {w for phrase, _ in grammar.phrases() for w in phrase.split()}
    for word in ("gold", "golden", "beige", "magenta", "silber" if lang == "de" else "silver"):
        assert word in grammar.vocabulary and word not in spoken, word
    for word in {"de": ("braun", "rot", "rosa", "grau"), "en": ("brown", "red", "pink")}[lang]:
        assert word in spoken
    parser = adapter.parser(grammar, setup)
    said = {"de": "Anna hat gold gespielt", "en": "Anna played gold"}[lang]
    intent = parser.parse(said)
    assert intent is not None and intent.slots.get("colour") == "gold"
