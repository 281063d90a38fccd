"""Pantone guesses: fuzzy where recognisers stumble, strict where names are close.

A wrong guess that counts as right spoils a round, so the near-miss tests matter as
much as the fuzzy ones.
"""

from __future__ import annotations

import pytest

from games.name_match import best_match, card_score, names_card, score
from games.pantone_deck import builtin_deck
from words.text import fold

# What recognisers and typists produce for a right guess.
RIGHT = [
    # missing or extra articles
    ("little mermaid", "The Little Mermaid"),
    ("the little mermaid", "Little Mermaid"),
    ("grinch", "The Grinch"),
    ("winnie pooh", "Winnie the Pooh"),
    ("very hungry caterpillar", "The Very Hungry Caterpillar"),
    ("grüffelo", "Der Grüffelo"),
    ("kleine raupe nimmersatt", "Die kleine Raupe Nimmersatt"),
    # abbreviations spelled out, titles left out
    ("mister potato head", "Mr. Potato Head"),
    ("potato head", "Mr. Potato Head"),
    ("doctor seuss", "Dr. Seuss"),
    ("hook", "Captain Hook"),
    ("kapitän blaubär", "Käpt'n Blaubär"),
    ("käptn blaubär", "Käpt'n Blaubär"),
    ("blaubär", "Käpt'n Blaubär"),
    # split and merged words
    ("spiderman", "Spider-Man"),
    ("spider man", "Spider-Man"),
    ("sponge bob square pants", "SpongeBob SquarePants"),
    ("pacman", "Pac-Man"),
    ("sand männchen", "Sandmännchen"),
    ("scooby doo", "Scooby-Doo"),
    ("e t", "E.T."),
    # spelling folded the way people type without umlauts
    ("sandmaennchen", "Sandmännchen"),
    ("gruffelo", "Der Grüffelo"),
    # one word misheard
    ("harry porter", "Harry Potter"),
    ("pinochio", "Pinocchio"),
    ("pumuckel", "Pumuckl"),
    ("sponge bob squarepans", "SpongeBob SquarePants"),
    ("mogli", "Mowgli"),
    ("hermione", "Hermine"),
    # long names: one word wrong, missing or extra
    ("little red riding cap", "Little Red Riding Hood"),
    ("red riding hood", "Little Red Riding Hood"),
    ("wicked witch of the east", "Wicked Witch of the West"),
]

# Similar names of different characters: never the same.
NEAR_MISSES = [
    ("spider woman", "Spider-Man"),
    ("superman", "Spider-Man"),
    ("batgirl", "Batman"),
    ("catwoman", "Batman"),
    ("wario", "Mario"),
    ("trick", "Tick"),
    ("track", "Tick, Trick und Track"),
    ("tick", "Tick, Trick und Track"),
    ("minnie mouse", "Mickey Mouse"),
    ("daisy duck", "Donald Duck"),
    ("dagobert duck", "Donald Duck"),
    ("snow queen", "Snow White"),
    ("queen of spades", "Queen of Hearts"),
    ("bart simpson", "Lisa Simpson"),
    ("simpson", "Bart Simpson"),
    ("captain america", "Captain Hook"),
    ("peter rabbit", "Peter Pan"),
    ("darth maul", "Darth Vader"),
    ("dora", "Dory"),
    ("bert", "Bart"),
    ("elmo", "Elsa"),
    ("tim", "Tom"),
    ("sam", "Sams"),
    ("luke", "Lucky Luke"),
    ("mickey", "Minnie Mouse"),
    ("max", "Max und Moritz"),
    ("lisa", "Mona Lisa"),
    ("kleine hexe", "Die kleine Raupe Nimmersatt"),
    ("kleiner tiger", "Der kleine Maulwurf"),
    ("iron man", "Tin Man"),
    ("wonder woman", "Spider-Man"),
]


@pytest.mark.parametrize(("guess", "name"), RIGHT)
def test_typical_recogniser_output_counts(guess: str, name: str) -> None:
    assert score(guess, name) is not None, f"{guess!r} should name {name!r}"


@pytest.mark.parametrize(("guess", "name"), NEAR_MISSES)
def test_near_misses_never_count(guess: str, name: str) -> None:
    assert score(guess, name) is None, f"{guess!r} must not count for {name!r}"


def test_one_wrong_word_is_only_a_weak_match() -> None:
    """So weak that the session asks the table to confirm (below 0.8)."""
    found = score("little red riding cap", "Little Red Riding Hood")
    assert found is not None and found < 80
    assert score("mister potato head", "Mr. Potato Head") == 100


def test_closest_card_wins_when_both_are_in_the_deck() -> None:
    cards = [("Tiger",), ("Tigger",), ("King Louie",), ("Louie",), ("Mr. Potato Head",)]
    assert names_card("tiger", 0, cards)
    assert not names_card("tiger", 1, cards)  # "tiger" is close to Tigger, but Tiger is closer
    assert names_card("tigger", 1, cards)
    assert names_card("louie", 3, cards)
    assert not names_card("louie", 2, cards)  # a dropped title scores a little lower
    assert names_card("king louie", 2, cards)
    assert names_card("mister potato head", 4, cards)
    assert best_match("is it pinocchio", cards) is None


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_name_in_our_decks_counts_for_its_own_card_only(lang: str) -> None:
    """Each name and alias names its own card, and no other card scores as well."""
    deck = builtin_deck(lang)
    cards = [card.forms for card in deck]
    problems = []
    for index, card in enumerate(deck):
        for form in card.forms:
            scores = [card_score(form, forms) for forms in cards]
            own = scores[index]
            if own is None:
                problems.append(f"{form!r} does not name its own card")
                continue
            problems += [
                f"{form!r} also names {deck[other].name!r}"
                for other, found in enumerate(scores)
                if other != index and found is not None and found >= own
            ]
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_our_decks_are_complete_and_hints_do_not_give_the_name_away(lang: str) -> None:
    deck = builtin_deck(lang)
    assert len(deck) >= 100
    for card in deck:
        assert len(card.hints) == 4
        name_words = {w for form in card.forms for w in fold(form).split() if len(w) >= 4}
        for hint in card.hints:
            hint_words = {w for w in fold(hint).split() if len(w) >= 4}
            assert not hint_words & name_words, f"{card.name}: hint {hint!r} gives it away"
            assert not hint.endswith("."), f"{card.name}: {hint!r} (messages add the full stop)"
