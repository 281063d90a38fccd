"""Grammar.lists_for cuts the long run-time lists (Pantone's hundreds of names, card
numbers) down per utterance, for speed. It must never change what is understood: every
parse with the cut lists equals the parse with the whole lists."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hassil import recognize_all

from games.engine import Setup
from voice.session.adapters import ADAPTERS
from voice.understanding.grammar import Grammar
from words.text import normalize


@cache
def grammar(game: str, lang: str) -> Grammar:
    adapter = ADAPTERS[game]
    setup = Setup(("Anna", "Ben", "Cem"), 0, None, adapter.default_options(lang))
    return Grammar(lang, game, adapter.dynamic_lists(setup, lang))


def results(g: Grammar, text: str, lists) -> list:
    return [
        (r.intent.name, sorted((k, str(e.value), e.text) for k, e in r.entities.items()),
         r.text_chunks_matched)
        for r in recognize_all(text, g.intents, slot_lists=lists, language=g.lang)
    ]  # fmt: skip


SAID = {
    "de": [
        "ist es micky maus",
        "ich glaube das ist der grinch",
        "daisy duck",
        "spiderman",
        "spider man",
        "karte zwölf",
        "ich nehme karte 12",
        "karte hundertzwölf",
        "nummer 200",
        "das ist bestimmt nicht der grinch",
        "ähm also vielleicht pikachu",
        "hmm",
        "strafe für ben",
        "was liegt auf dem bild",
    ],
    "en": [
        "is it mickey mouse",
        "i think it's the grinch",
        "daisy duck",
        "spider-man",
        "spiderman",
        "card twelve",
        "i'll take card 12",
        "card one hundred and twelve",
        "it's not mickey",
        "um well maybe pikachu",
        "penalty for ben",
        "scrooge mcduck",
    ],
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_cut_lists_understand_exactly_what_the_whole_lists_do(lang: str) -> None:
    g = grammar("pantone", lang)
    rng = random.Random(7)
    phrases = [p for p, _ in g.phrases(limit=4_000)]
    texts = SAID[lang] + rng.sample(phrases, 60)
    for text in texts:  # and each with a word left out: near-misses and partial names
        words = text.split()
        if len(words) > 1:
            i = rng.randrange(len(words))
            texts.append(" ".join(words[:i] + words[i + 1 :]))
    for text in map(normalize, texts):
        assert results(g, text, g.lists_for(text)) == results(g, text, g.slot_lists), text


def test_the_lists_are_cut_to_the_names_that_can_occur() -> None:
    g = grammar("pantone", "en")
    whole = len(g.slot_lists["character"].values) + len(g.slot_lists["other_character"].values)
    cut = g.lists_for("is it mickey mouse")
    kept = len(cut["character"].values) + len(cut["other_character"].values)
    assert 0 < kept < whole / 10
    assert len(cut["card"].values) < 5  # no card number is said: (almost) none kept
