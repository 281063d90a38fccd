"""Our own Farben word decks: shape, no repeats, and every word choosable by voice."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from games.farben import MAX_WORD_LENGTH, load_deck
from voice.session.adapters.farben import word_conflicts
from voice.understanding.grammar import LANGUAGES
from words.text import normalize

DATA = Path(__file__).resolve().parent.parent / "games" / "data"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deck_has_at_least_60_double_sided_cards_of_plain_words(lang: str) -> None:
    raw = yaml.safe_load((DATA / f"farben_words_{lang}.yaml").read_text(encoding="utf-8"))
    assert isinstance(raw, list) and len(raw) >= 60
    for card in raw:
        assert isinstance(card, list) and len(card) == 2, card
        for word in card:
            assert isinstance(word, str) and word == word.strip(), card
            assert 0 < len(word) <= MAX_WORD_LENGTH and word[0].isupper(), word
            assert all(c.isalpha() or c == " " for c in word), word
    assert load_deck(lang) == [tuple(card) for card in raw]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_appears_twice_even_spoken(lang: str) -> None:
    words = [normalize(w) for card in load_deck(lang) for w in card]
    assert len(words) >= 120
    repeated = sorted({w for w in words if words.count(w) > 1})
    assert not repeated


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_said_alone_means_that_word(lang: str) -> None:
    """No word is a colour, a colour synonym or a command, so each can be chosen by voice."""
    words = [w for card in load_deck(lang) for w in card]
    assert word_conflicts(lang, words, ["Anna", "Ben", "Cem"]) == {}


def test_the_decks_differ_by_language() -> None:
    english = {w for card in load_deck("en") for w in card}
    german = {w for card in load_deck("de") for w in card}
    assert len(english & german) <= 10  # a few words are the same in both (Radio, Zoo)
