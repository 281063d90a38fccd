"""Our own data for wrong Pantone guesses and for the assistant player: shape and safety.

- ``famous_characters_<lang>.yaml``: well-known characters that are not cards, so that a
  wrong guess is heard as its own name. None of them may be a name of a deck card, or a
  right guess would be counted wrong.
"""

from __future__ import annotations

import re

import pytest

from games.data import load
from games.name_match import canonical

LANGUAGES = ("en", "de")
LEADING_ARTICLE = re.compile(r"^(the|der|die|das|den|dem)\s+", re.IGNORECASE)
MAX_NAME = 80  # as for deck names (games/pantone_deck.py)


def _plain(text: str) -> str:
    """Case-insensitive, without a leading article: "The Grinch" and "grinch" are equal."""
    return LEADING_ARTICLE.sub("", text.strip()).casefold()


def _spoken(text: str) -> tuple[str, ...]:
    """The form in which the guess matcher compares names (also without spaces)."""
    words = canonical(text)
    return ("".join(words),)


def _forms(entry: dict) -> list[str]:
    return [entry["name"], *entry["aliases"]]


def _deck_forms(lang: str) -> dict[str, str]:
    return {form: card["name"] for card in load(f"pantone_{lang}") for form in _forms(card)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_characters_file_has_many_well_formed_entries(lang: str) -> None:
    characters = load(f"famous_characters_{lang}")
    assert isinstance(characters, list) and len(characters) >= 300
    for entry in characters:
        assert isinstance(entry, dict) and set(entry) == {"name", "aliases"}, entry
        assert isinstance(entry["aliases"], list), entry
        for form in _forms(entry):
            assert isinstance(form, str) and form == form.strip() and form, entry
            assert len(form) <= MAX_NAME, form
            assert any(c.isalpha() for c in form), form
        # Recognisers write numbers as words: at least one form must be sayable as written.
        assert any(not any(c.isdigit() for c in f) for f in _forms(entry)), entry


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_character_is_named_twice(lang: str) -> None:
    owner: dict[str, int] = {}
    characters = load(f"famous_characters_{lang}")
    for number, entry in enumerate(characters):
        forms = _forms(entry)
        assert len({f.casefold() for f in forms}) == len(forms), entry
        for form in forms:
            for key in (_plain(form), *_spoken(form)):
                other = owner.setdefault(key, number)
                assert other == number, (
                    f"{form!r} of {entry['name']!r} is also a name of {characters[other]!r}"
                )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_character_is_a_deck_card(lang: str) -> None:
    """A right guess must never be heard as one of these: no name or alias equals a deck
    name or alias, neither as written (ignoring case and a leading article) nor as the
    guess matcher compares names ("Spider Man" = "Spider-Man" = "spiderman")."""
    deck: dict[str, str] = {}
    for form, card in _deck_forms(lang).items():
        for key in (_plain(form), *_spoken(form)):
            deck[key] = card
    clashes = {
        f"{form!r} ({entry['name']}) = deck card {deck[key]!r}"
        for entry in load(f"famous_characters_{lang}")
        for form in _forms(entry)
        for key in (_plain(form), *_spoken(form))
        if key in deck
    }
    assert not clashes
