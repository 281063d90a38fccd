"""A move said in words of the family's own (voice/understanding/wrapped.py): the colour
goes on the square in play; talk about real things with the same words moves nothing."""

from __future__ import annotations

import pytest

from tests.test_remarks_and_tries import parse, understood


def moves_nothing(game: str, lang: str, situation: str, text: str, *moves: str) -> bool:
    """Is ``text`` none of ``moves`` in ``situation`` (talk, a question, nothing)?"""
    found, _ = understood(game, lang, situation, text)
    return found is None or found.name not in moves


@pytest.mark.parametrize(
    ("lang", "situation", "text", "colour"),
    [
        ("en", "house", "I'm gonna slap orange on the house, it's like a pumpkin house.", "orange"),
        ("en", "house", "Right, the house is getting blue, I reckon.", "blue"),
        ("en", "house", "Blue house. Like the seaside.", "blue"),
        ("en", "house", "Okay okay, house goes pink then, why not, it's a doll's house.", "pink"),
        ("en", "house", "Honey, I'm putting red on the house, okay?", "red"),
        ("de", "haus", "Dat Haus kritt jetzt Orange, wie 'n Kürbis.", "orange"),
        ("de", "haus", "So, ich leg mal Blau aufs Haus, das ist meine Lieblingsfarbe.", "blue"),
        ("de", "haus", "Blaues Haus. Wie am Meer.", "blue"),
        ("de", "haus", "Joa, dann machen wir das Haus halt rosa, warum nicht.", "pink"),
        ("de", "haus", "Das Haus, das mal ich lila an, warum nicht.", "purple"),
        ("en", "house", "The house... purple, why not, it's a funny house.", "purple"),
        ("de", "haus", "Das Haus... lila, warum nicht.", "purple"),
    ],
)
def test_a_move_in_words_of_ones_own_colours_the_square_in_play(
    lang: str, situation: str, text: str, colour: str
) -> None:
    assert parse("alle-meine-farben", lang, situation, text) == {
        "intent": "place",
        "slots": {"colour": colour, "object": 8},
    }


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        # someone's real thing, not the square
        ("en", "house", "Our neighbours are painting their house blue."),
        ("en", "house", "My auntie's house is gonna be yellow when they're done."),
        ("de", "haus", "Unser Haus wird im Sommer gelb gestrichen."),
        ("de", "haus", "Bei Papas Haus kommt jetzt rot drauf, hat er gesagt."),
        # a hand of cards, a wish, the past, a comparison
        ("en", "house", "I've got two blues, I could do the house blue."),
        ("en", "house", "I'd make the house green if I had a green."),
        ("en", "house", "We made the house red last time."),
        ("en", "house", "The house is going blue too, like last game."),
        ("de", "haus", "Ich hab zwei blaue, ich könnt das Haus blau machen."),
        ("de", "haus", "Ich würd das Haus grün machen."),
        ("de", "haus", "Das Haus war letztes Mal auch rot."),
        ("de", "haus", "Rot, rot, immer nur rot, wie langweilig."),
        # asked, denied or left open beside it
        ("en", "house", "House gets green? Or blue?"),
        ("en", "house", "I'm putting green on the house, or maybe not."),
        ("de", "haus", "Das Haus kriegt grün, oder doch nicht."),
        ("de", "haus", "Wo kommt denn das rote Haus hin?"),
        # another square, a player
        ("en", "house", "I'll put blue on the fish, Anna."),
        ("de", "haus", "Ben, mach du das Haus blau."),
    ],
)
def test_talk_with_the_same_words_moves_nothing(lang: str, situation: str, text: str) -> None:
    assert moves_nothing("alle-meine-farben", lang, situation, text, "place")


@pytest.mark.parametrize(
    ("lang", "text", "slots"),
    [
        (
            "en",
            "Right, Cem was grey, I'm pretty sure, because of the rainy bit.",
            {"player": "Cem", "colour": "grey"},
        ),
        ("en", "For myself I'll say brown, a hundred percent.", {"self": True, "colour": "brown"}),
        ("de", "Die Lena war grau, da wett ich drauf.", {"player": "Lena", "colour": "grey"}),
        ("de", "Für mich sag ich braun, hundert Prozent.", {"self": True, "colour": "brown"}),
    ],
)
def test_a_colour_named_for_a_player_in_many_words_is_named(
    lang: str, text: str, slots: dict[str, object]
) -> None:
    found = parse("farben", lang, "naming", text)
    assert found is not None and found["intent"] == "name_colour", (text, found)
    assert {k: found["slots"].get(k) for k in slots} == slots


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Cem had a grey hoodie on at school today."),
        ("en", "Go with grey for Cem, trust me."),
        ("en", "My cat is grey, she's called Smudge."),
        ("de", "Die Lena hatte heute 'nen grauen Pulli an."),
        ("de", "Nimm doch grau für die Lena."),
        ("de", "Meine Katze ist grau, die heißt Mausi."),
    ],
)
def test_talk_about_a_player_and_a_colour_names_nothing(lang: str, text: str) -> None:
    assert moves_nothing("farben", lang, "naming", text, "name_colour")


@pytest.mark.parametrize(
    ("lang", "situation", "text", "intent", "slots"),
    [
        (
            "en",
            "side",
            "Ooh, let's do Holiday, I've got a good one for that.",
            "choose_side",
            {"word": "Holiday"},
        ),
        (
            "de",
            "side",
            "Och, lass uns Urlaub machen, da hab ich was Gutes.",
            "choose_side",
            {"word": "Urlaub"},
        ),
        (
            "de",
            "start",
            "Der Jonas fängt an, der hat die bunteste Mütze auf.",
            "choose_first",
            {"player": "Jonas"},
        ),
    ],
)
def test_a_choice_in_many_words_is_made(
    lang: str, situation: str, text: str, intent: str, slots: dict[str, object]
) -> None:
    found = parse("farben", lang, situation, text)
    assert found is not None and found["intent"] == intent, (text, found)
    assert {k: found["slots"].get(k) for k in slots} == slots


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "side", "Holiday was so boring last year, honestly."),
        ("de", "side", "Schule war echt langweilig heute."),
        ("de", "scoring", "Mach mal die Musik leiser, Jonas."),
    ],
)
def test_talk_with_a_word_of_the_card_chooses_nothing(lang: str, situation: str, text: str) -> None:
    assert moves_nothing("farben", lang, situation, text, "choose_side", "choose_stack")


@pytest.mark.parametrize(
    ("lang", "situation", "text", "card"),
    [
        ("en", "choosing", "Okay, gonna play the forty-two, it looks fun.", 42),
        ("de", "wählen", "Also ich spiel die mit der 42, die sieht lustig aus.", 42),
    ],
)
def test_a_card_chosen_in_many_words_is_chosen(
    lang: str, situation: str, text: str, card: int
) -> None:
    assert parse("pantone", lang, situation, text) == {"intent": "choose", "slots": {"card": card}}


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "choosing", "I was going to play forty-two last time."),
        ("de", "wählen", "Du könntest ja die 42 nehmen, wenn du willst."),
    ],
)
def test_talk_about_a_card_chooses_nothing(lang: str, situation: str, text: str) -> None:
    assert moves_nothing("pantone", lang, situation, text, "choose")
