"""Our own data for wrong Pantone guesses and for the assistant player: shape and safety.

- ``famous_characters_<lang>.yaml``: well-known characters that are not cards, so that a
  wrong guess is heard as its own name. None of them may be a name of a deck card, or a
  right guess would be counted wrong.
- ``farben_associations_<lang>.yaml``: what the assistant player of Farben may pick for
  each word card word: a colour, the short story it tells, and the one-word hint from
  that story it gives in the scoring phase.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.data import load
from games.farben import load_deck
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


def _deck_words(lang: str) -> list[str]:
    return [word for card in load_deck(lang) for word in card]


def _colour_words(lang: str) -> set[str]:
    names = {name.casefold() for entry in load("colours").values() for name in entry.values()}
    return names | {colour.casefold() for colour in load("colours")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_card_word_has_two_or_three_associations(lang: str) -> None:
    associations = load(f"farben_associations_{lang}")
    assert isinstance(associations, dict)
    assert sorted(associations) == sorted(_deck_words(lang))
    colours = set(load("colours"))
    for word, choices in associations.items():
        assert isinstance(choices, list) and 2 <= len(choices) <= 3, word
        for choice in choices:
            assert isinstance(choice, dict) and set(choice) == {"colour", "story", "hint"}, word
            assert choice["colour"] in colours, (word, choice)
        # Different choices for one word differ in colour and hint, so they can be told apart.
        assert len({c["colour"] for c in choices}) == len(choices), word
        assert len({c["hint"].casefold() for c in choices}) == len(choices), word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stories_are_one_or_two_short_sentences(lang: str) -> None:
    for word, choices in load(f"farben_associations_{lang}").items():
        for choice in choices:
            story = choice["story"]
            assert isinstance(story, str) and story == story.strip() and story, word
            assert len(story.split()) <= 35, story
            assert story[-1] in ".!?", story
            sentences = [s for s in re.split(r"(?<=[.!?])\s+", story) if s]
            assert 1 <= len(sentences) <= 2, story


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_hint_is_one_word_of_its_story_and_gives_nothing_away(lang: str) -> None:
    """The rules: a hint is one word the player used in the story, never the colour; and
    the card word itself would tell nothing."""
    colour_words = _colour_words(lang)
    for word, choices in load(f"farben_associations_{lang}").items():
        for choice in choices:
            hint = choice["hint"]
            assert isinstance(hint, str) and re.fullmatch(r"[^\W\d_]+", hint), (word, hint)
            assert re.search(rf"(?<!\w){re.escape(hint)}(?!\w)", choice["story"], re.I), (
                f"hint {hint!r} is not a word of the story for {word!r}: {choice['story']}"
            )
            assert hint.casefold() not in colour_words, (word, hint)
            assert hint.casefold() != word.casefold(), (word, hint)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_assistant_uses_every_colour_often(lang: str) -> None:
    used = Counter(
        choice["colour"]
        for choices in load(f"farben_associations_{lang}").values()
        for choice in choices
    )
    assert set(used) == set(load("colours"))
    assert min(used.values()) >= 15, used


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_story_names_no_other_colour(lang: str) -> None:
    """Players must later remember the colour from the story: a red story that mentions
    a white rabbit would mislead them."""
    endings = ("", "e", "en", "er", "es", "em") if lang == "de" else ("",)
    named_by = {
        name.casefold() + ending: colour
        for colour, entry in load("colours").items()
        for key, name in entry.items()
        if key.startswith(lang)
        for ending in endings
    }
    for word, choices in load(f"farben_associations_{lang}").items():
        for choice in choices:
            for spoken in re.findall(r"\w+", choice["story"].casefold()):
                assert named_by.get(spoken, choice["colour"]) == choice["colour"], (
                    f"the {choice['colour']} story for {word!r} says {spoken!r}"
                )
