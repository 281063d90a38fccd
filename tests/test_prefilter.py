"""The template pre-filter (voice/understanding/prefilter.py) hands hassil only the
sentences that may match a text, for speed. It must never leave out one that matches:
every sentence a template says keeps that template, and hassil finds exactly what it
finds with all the templates."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hassil import Intents, recognize_all
from hassil.expression import Sentence
from hassil.intents import IntentData, TextSlotList
from hassil.sample import sample_expression

from games.engine import Setup
from voice.session.adapters import ADAPTERS
from voice.understanding.grammar import Grammar
from voice.understanding.prefilter import TemplateFilter
from words.text import normalize

GAMES = [(game, lang) for game in sorted(ADAPTERS) for lang in ("de", "en")]

PER_TEMPLATE = 400
"""Sentences sampled per template (every value of every list is also tried on its own)."""


@cache
def grammar(game: str, lang: str) -> Grammar:
    adapter = ADAPTERS[game]
    setup = Setup(("Anna", "Ben", "Cem"), 0, None, adapter.default_options(lang))
    return Grammar(lang, game, adapter.dynamic_lists(setup, lang))


def templates(g: Grammar) -> list[tuple[IntentData, Sentence]]:
    return [
        (data, sentence)
        for intent in g.intents.intents.values()
        for data in intent.data
        for sentence in data.sentences
    ]


def kept(g: Grammar, text: str) -> set[int]:
    """The sentences (by id) the filter keeps for ``text``."""
    narrowed = g.candidates(g.intents, text)
    return {
        id(sentence)
        for intent in narrowed.intents.values()
        for data in intent.data
        for sentence in data.sentences
    }


def said(g: Grammar, data: IntentData, expression: object, limit: int | None) -> list[str]:
    lists = {**g.slot_lists, **data.slot_lists}
    rules = {**g.intents.expansion_rules, **data.expansion_rules}
    found = sample_expression(expression, lists, rules, language=g.lang)  # type: ignore[arg-type]
    return list(itertools.islice(found, limit))


@pytest.mark.parametrize(("game", "lang"), GAMES)
def test_every_sentence_a_template_says_keeps_it(game: str, lang: str) -> None:
    g = grammar(game, lang)
    for data, sentence in templates(g):
        for text in said(g, data, sentence.expression, PER_TEMPLATE):
            for form in {text, normalize(text)}:
                assert id(sentence) in kept(g, form), (sentence.text, form)


@pytest.mark.parametrize(("game", "lang"), GAMES)
def test_every_list_value_keeps_the_templates_that_name_its_list(game: str, lang: str) -> None:
    """Sampling a template stops after :data:`PER_TEMPLATE` sentences, before the last
    values of a long list (Pantone's characters): each value is tried on its own."""
    g = grammar(game, lang)
    for data, sentence in templates(g):
        rules = {**g.intents.expansion_rules, **data.expansion_rules}
        for name in set(sentence.list_names(rules)):
            slot_list = {**g.slot_lists, **data.slot_lists}.get(name)
            if not isinstance(slot_list, TextSlotList):
                continue
            for value in slot_list.values:
                for text in said(g, data, value.text_in, None):
                    if normalize(text):
                        assert id(sentence) in kept(g, normalize(text)), (sentence.text, text)


def results(g: Grammar, text: str, intents: Intents) -> list[object]:
    return [
        (r.intent.name, sorted((k, str(e.value), e.text) for k, e in r.entities.items()),
         r.text_chunks_matched, r.intent_sentence.text if r.intent_sentence else None)
        for r in recognize_all(text, intents, slot_lists=g.lists_for(text), language=g.lang)
    ]  # fmt: skip


def variants(g: Grammar, text: str, rng: random.Random) -> list[str]:
    """``text`` as players slip and type: a skip word before it, a word left out or
    doubled, two words joined by "-" or "_", a number, capitals."""
    words = text.split()
    skip = rng.choice(g.intents.skip_words) if g.intents.skip_words else "so"
    out = [text, f"{skip} {text}", text.upper(), f"{text} 2"]
    if len(words) > 1:
        i = rng.randrange(len(words) - 1)
        out.append(" ".join(words[:i] + words[i + 1 :]))
        out.append(" ".join(words[: i + 1] + words[i:]))
        out.append(" ".join([*words[:i], words[i] + "-" + words[i + 1], *words[i + 2 :]]))
        out.append(" ".join([*words[:i], words[i] + "_" + words[i + 1], *words[i + 2 :]]))
    return out


@pytest.mark.parametrize(("game", "lang"), GAMES)
def test_hassil_finds_the_same_with_the_filter(game: str, lang: str) -> None:
    g = grammar(game, lang)
    rng = random.Random(11)
    texts = [normalize(text) for _, text in rng.sample(g.phrases(limit=5_000), 80)]
    texts += ["anna hatte rot", "i think it's the grinch", "karte 12", "hmm", "ja", "nein"]
    every = g.intents
    some = {k: v for i, (k, v) in enumerate(every.intents.items()) if i % 2}
    part = Intents(every.language, some, every.slot_lists, every.expansion_rules,
                   every.skip_words, every.settings)  # fmt: skip
    for text in {v for t in texts for v in variants(g, t, rng)}:
        assert results(g, text, g.candidates(every, text)) == results(g, text, every), text
        assert results(g, text, g.candidates(part, text)) == results(g, text, part), text


def test_templates_that_cannot_say_a_word_are_left_out() -> None:
    g = grammar("farben", "de")
    text = "anna hatte rot gewählt"
    assert len(kept(g, text)) < len(templates(g)) / 10
    assert len(kept(g, "rot")) < len(templates(g)) / 4


KINDS = Intents.from_dict(
    {
        "language": "de",
        "skip_words": ["äh", "also bitte"],
        "expansion_rules": {"farbe": "{colour} [farbe]", "karte": "(karte|nummer)"},
        "lists": {
            "colour": {"values": ["rot", "(grün|gruen)", "hell-blau", "dunkel blau"]},
            "zahl": {"range": {"from": 1, "to": 20}},
            "fremd": {"wildcard": True},
        },
        "intents": {
            "take": {"data": [{"sentences": ["(ich;nehme) {colour}", "[bitte] nimm <farbe>"]}]},
            "ending": {"data": [{"sentences": ["rot(e|en) [bitte]"]}]},
            "card": {"data": [{"sentences": ["<karte> {zahl}", "seite {1..5:seite}"]}]},
            "stranger": {"data": [{"sentences": ["{fremd} hat <farbe>"]}]},
            "animal": {
                "data": [
                    {
                        "sentences": ["<ruf> {tier}"],
                        "lists": {"tier": {"values": ["hund", "t shirt"]}},
                        "expansion_rules": {"ruf": "(hallo|hey)"},
                    }
                ]
            },
        },
    }
)
"""One template of every kind hassil reads and the grammars use: permutations,
optionals, alternatives, expansion rules (the grammar's and a block's own), lists with
templates as values, a block's own list, a range list, an inline range, a wildcard, skip
words, words said without a space between them, "-" and "_" between words."""


@pytest.mark.parametrize(
    ("text", "kept_names"),
    [
        ("nehme ich grün", {"take", "card", "stranger"}),
        ("äh ich nehme hell-blau", {"take", "card", "stranger"}),
        ("ich nehme HELL-BLAU", {"take", "card", "stranger"}),
        ("also bitte nimm dunkel blau farbe", {"take", "card", "stranger"}),
        ("rote", {"ending", "card", "stranger"}),
        ("roten bitte", {"ending", "card", "stranger"}),
        ("karte 12", {"card", "stranger"}),
        ("nummer zwölf", {"card", "stranger"}),
        ("seite 3", {"card", "stranger"}),
        ("Otto hat rot", {"card", "stranger"}),
        ("hey t-shirt", {"animal", "card", "stranger"}),
        ("hey T_Shirt", {"animal", "card", "stranger"}),
        ("hallo hund", {"animal", "card", "stranger"}),
    ],
)
def test_every_kind_of_template_is_kept_where_it_may_match(text: str, kept_names: set[str]) -> None:
    """Templates that can say anything (a range, a wildcard) are always kept; the others
    only where they can say every word; hassil finds the same either way (the text as
    typed: hassil reads "-" and "_" as spaces where a template has none)."""
    lists = dict(KINDS.slot_lists)
    templates = TemplateFilter(KINDS, lists)
    narrowed = templates.narrowed(KINDS, templates.mask(text))
    assert set(narrowed.intents) == kept_names

    def found(intents: Intents) -> list[object]:
        return [
            (r.intent.name, sorted((k, str(e.value)) for k, e in r.entities.items()))
            for r in recognize_all(text, intents, language="de")
        ]

    assert found(narrowed) == found(KINDS)
    assert found(KINDS), text  # each text is said by some template
