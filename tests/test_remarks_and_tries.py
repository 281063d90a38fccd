"""Sentences as people say them around a move (issue 24), read in the corpora's own
situations: a reason beside the move that mentions the speaker ("rosa, weil meine
Schultüte rosa war"), a question said beside a request that only tells something
("What do I do now? Help."), a try at a word card or at a player's colour taken back in
the same breath ("School, no wait, Holiday", "Cem had blue, no wait, Cem had purple"),
and words that only stress ("I honestly don't remember"). And what stays no move."""

from __future__ import annotations

from typing import Any

import pytest

from voice.bench.understanding import Tables, _entry_cases, _read, corpus_files
from voice.session.session import Session

TABLES = Tables()


def understood(game: str, lang: str, situation: str, text: str) -> tuple[Any, Session]:
    """The intent ``text`` is understood as in ``situation`` of the game's corpus, set up
    as the corpus's own entries are, and the session there."""
    _, _, doc = _read(corpus_files(game, lang)[0])
    entry = {"text": text, "before": situation, "never_move": True}
    (case,) = _entry_cases(
        game, lang, entry, doc.get("setup") or {}, doc.get("situations") or {}, "test"
    )
    session = TABLES.session(case)
    phase = session.phase()
    return session.parser.parse(text, phase.intents, phase.slots, last=phase.last), session


def parse(game: str, lang: str, situation: str, text: str) -> dict[str, Any] | None:
    """What ``text`` is understood as in ``situation`` (its meaning, as JSON)."""
    found, _ = understood(game, lang, situation, text)
    return None if found is None else found.to_json()


@pytest.mark.parametrize(
    ("lang", "situation", "text", "intent", "slots"),
    [
        ("de", "reveal", "Rosa, weil meine Schultüte rosa war", "reveal", {"colour": "pink"}),
        ("en", "reveal", "pink, because my schoolbag was pink", "reveal", {"colour": "pink"}),
        ("de", "side", "Schule, nee warte, Urlaub", "choose_side", {"word": "Urlaub"}),
        ("en", "side", "School, no wait, Holiday", "choose_side", {"word": "Holiday"}),
        ("en", "naming", "Cem had blue, no wait, Cem had purple.", "name_colour",
         {"player": "Cem", "colour": "purple"}),
        ("en", "naming", "What do I do now? Help.", "help", {}),
        ("de", "naming", "Was muss ich jetzt machen? Hilfe!", "help", {}),
        ("en", "naming", "Which stack did I get? Repeat that please.", "repeat", {}),
        # a sentence of the phase beside a player called, not that player to begin
        ("en", "choosing", "Ready! Finally, Cem.", "ready", {}),
        ("de", "choosing", "Bereit! Endlich, Mia.", "ready", {}),
        ("en", "naming", "Cem, give us a clue.", "hint", {"player": "Cem"}),
        ("de", "naming", "Mia, gib mal 'nen Hinweis.", "hint", {"player": "Mia"}),
        # whose card, before its colour
        ("en", "naming", "Cem had his white card", "name_colour",
         {"player": "Cem", "colour": "white"}),
        ("de", "naming", "Lena hat ihre bunte Karte gespielt.", "name_colour",
         {"player": "Lena", "colour": "multicoloured"}),
    ],
)  # fmt: skip
def test_said_around_a_sentence_is_understood(lang, situation, text, intent, slots):
    assert parse("farben", lang, situation, text) == {"intent": intent, "slots": slots}


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "reveal", "Red. Whose turn is it?"),  # a move and a question: not taken alone
        ("en", "naming", "Cem had blue, no wait, Anna had purple."),  # another player
        ("en", "naming", "Ben, not red, yellow"),  # advice to Ben
    ],
)
def test_what_is_more_than_a_remark_or_a_try_is_no_move(lang, situation, text):
    found = parse("farben", lang, situation, text)
    assert found is None or found["intent"] not in {"reveal", "name_colour"}, found


def test_a_remark_that_ends_in_another_sentence_is_not_a_remark():
    """ "Ja" with a remark that ends in "bereit" is the "bereit", not a yes."""
    assert parse("farben", "de", "choosing", "Ja, ich hab meine auch, bereit!") == {
        "intent": "ready",
        "slots": {},
    }


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "I honestly don't remember"), ("de", "Ich weiß es echt nicht mehr")],
)
def test_words_that_only_stress_change_nothing(lang, text):
    plain = {"en": "I don't remember", "de": "Ich weiß es nicht mehr"}[lang]
    assert parse("farben", lang, "naming", text) == parse("farben", lang, "naming", plain)
    assert parse("farben", lang, "naming", text) is not None


@pytest.mark.parametrize(
    ("lang", "situation", "text", "slots"),
    [
        ("de", "haus", "Hmm, blau oder grün... blau. Das Haus ist blau.",
         {"object": 8, "colour": "blue"}),
        ("de", "haus", "Ich male das Haus rosa an, so wie das Barbiehaus.",
         {"object": 8, "colour": "pink"}),
    ],
)  # fmt: skip
def test_a_move_said_in_full_after_thinking_or_with_a_likeness(lang, situation, text, slots):
    assert parse("alle-meine-farben", lang, situation, text) == {"intent": "place", "slots": slots}


@pytest.mark.parametrize(
    "text",
    [
        "Nicht blau, das Haus ist blau.",  # says two things
        "Der Ball wird rot. Das Haus ist blau.",  # two moves
        "Ben, rot! Das Haus ist blau.",  # advice to Ben before it
    ],
)
def test_a_move_after_other_moves_or_its_own_denial_is_not_taken(text):
    found = parse("alle-meine-farben", "de", "haus", text)
    assert found is None or found["intent"] != "place", found


@pytest.mark.parametrize(
    ("game", "lang", "situation", "text", "intent", "slots"),
    [
        ("alle-meine-farben", "de", "telefon", "Gelb, nee, orange! Orange.", "place",
         {"colour": "orange"}),
        ("alle-meine-farben", "de", "telefon", "Ähm... grün? Ja, grün.", "place",
         {"colour": "green"}),
        ("alle-meine-farben", "de", "telefon",
         "Gelb geht nicht, das liegt schon... ähm, dann nehm ich rosa.", "place",
         {"colour": "pink"}),
        ("farben", "en", "naming", "Cem had orange, no hang on, green. Green.", "name_colour",
         {"player": "Cem", "colour": "green"}),
        ("farben", "en", "naming", "Anna was... um... yellow? Yeah, I think yellow.",
         "name_colour", {"player": "Anna", "colour": "yellow"}),
        ("pantone", "en", "guessing", "Tinker Bell? No wait, Peppa Pig!", "guess",
         {"character": "Peppa Pig"}),
    ],
)  # fmt: skip
def test_the_value_a_player_settles_on_is_the_move(game, lang, situation, text, intent, slots):
    """Weighing aloud, asking oneself, taking a try back: the last value said counts
    ("Gelb, nee, orange! Orange." is orange, not two cards for the assistant)."""
    assert parse(game, lang, situation, text) == {"intent": intent, "slots": slots}


@pytest.mark.parametrize(
    ("game", "lang", "situation", "text"),
    [
        ("alle-meine-farben", "de", "telefon", "Grün? Ben, nimm grün."),  # advice to Ben
        ("alle-meine-farben", "de", "telefon", "Gelb. Oder grün?"),  # still asking
        ("alle-meine-farben", "de", "telefon", "Nicht lila... lila."),  # says two things
        ("pantone", "en", "guessing", "Tigger? No, Garfield?"),  # still thinking aloud
    ],
)
def test_what_is_still_weighed_or_advice_is_not_settled(game, lang, situation, text):
    found = parse(game, lang, situation, text)
    assert found is None or found["intent"] != "place", found
    assert found is None or found["slots"].get("character") != "Garfield", found


def test_a_wish_after_a_move_takes_nothing_back():
    assert parse("farben", "en", "scoring", "Grandmother for Ben, good luck") == {
        "intent": "choose_stack",
        "slots": {"word": "Grandmother", "player": "Ben"},
    }


@pytest.mark.parametrize(
    ("lang", "situation", "text", "intent", "slots"),
    [
        ("de", "hint_asked", "Oh je, ich weiß meine Farbe selbst nicht mehr", "forgot", {}),
        ("en", "hint_asked", "Oh no, I don't remember my own colour", "forgot", {}),
        ("en", "reveal", "Brown, because of the camping trip", "reveal", {"colour": "brown"}),
        ("de", "reveal", "Schwarz. Weil Schule halt doof war.", "reveal", {"colour": "black"}),
        ("en", "naming", "Uh, Anna... Anna had blue, I think.", "name_colour",
         {"player": "Anna", "colour": "blue"}),
        ("de", "naming", "Also Mia... Mia hatte bunt.", "name_colour",
         {"player": "Mia", "colour": "multicoloured"}),
    ],
)  # fmt: skip
def test_words_that_stress_tell_a_story_or_start_again_change_nothing(
    lang, situation, text, intent, slots
):
    """ "my own colour" is my colour; a word card in a story told beside the colour shown
    names no card; a name said twice is one name, not a stranger "uh Anna Anna"."""
    assert parse("farben", lang, situation, text) == {"intent": intent, "slots": slots}


def test_a_name_started_again_may_not_be_another_name():
    found = parse("farben", "de", "naming", "Mia... Lena hatte lila.")
    assert found is None or found["slots"].get("player") != "Lena", found


@pytest.mark.parametrize(
    ("lang", "text", "player"),
    [("de", "Die Lena.", "Lena"), ("de", "Der Jonas, ganz klar.", "Jonas"),
     ("de", "Lass die Mia anfangen", "Mia"), ("en", "Cem, obviously.", "Cem")],
)  # fmt: skip
def test_who_starts_said_with_an_article_or_a_stress(lang, text, player):
    assert parse("farben", lang, "start", text) == {
        "intent": "choose_first",
        "slots": {"player": player},
    }


def test_a_colour_beside_who_starts_only_describes():
    """While who starts is chosen no colour is played: "die orange Jacke" describes."""
    text = "Ähm, ich würde sagen Lena, die hat die orange Jacke an"
    assert parse("farben", "de", "start", text) == {
        "intent": "choose_first",
        "slots": {"player": "Lena"},
    }


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [("de", "Puh, weiß ich nicht.", "dont_know"), ("de", "Null Plan, sorry.", "dont_know"),
     ("en", "Dunno.", "dont_know"), ("en", "Haven't got a clue, sorry.", "dont_know"),
     ("de", "Was soll ich jetzt sagen?", "help"), ("en", "What am I supposed to do now?", "help")],
)  # fmt: skip
def test_a_namer_who_does_not_know_or_asks_what_to_say(lang, text, intent):
    assert parse("farben", lang, "naming", text) == {"intent": intent, "slots": {}}


@pytest.mark.parametrize(
    ("lang", "situation", "text", "slots"),
    [("de", "vogel", "Vogel grün, ne?", {"object": 12, "colour": "green"}),
     ("de", "vogel", "Ich mach den Vogel rot, okay?", {"object": 12, "colour": "red"}),
     ("en", "bird", "Bird green, yeah?", {"object": 12, "colour": "green"})],
)  # fmt: skip
def test_a_move_with_a_tag_question_is_made(lang, situation, text, slots):
    """Cheap to take back ("nein" right after it), so made and said back, not refused."""
    assert parse("alle-meine-farben", lang, situation, text) == {"intent": "place", "slots": slots}


@pytest.mark.parametrize(
    ("game", "lang", "situation", "text"),
    [("alle-meine-farben", "de", "vogel", "Vogel grün oder blau?"),  # still asks
     ("farben", "de", "naming", "Mia hatte weiß, oder?"),  # scores: a question stays one
     ("farben", "en", "naming", "Cem played green, right?")],
)  # fmt: skip
def test_a_real_question_or_a_costly_move_with_a_tag_is_no_move(game, lang, situation, text):
    found = parse(game, lang, situation, text)
    assert found is None or found["intent"] not in {"place", "name_colour"}, found


def test_a_correction_said_while_a_story_is_told_pauses_nothing():
    """ "no wait, I meant yellow" is a correction, which the story does not take ("not
    now"); its "wait" with the rest as a remark is no pause of the whole game."""
    found = parse("farben", "en", "story", "no wait, I meant yellow")
    assert found is not None and found["intent"] != "pause", found


@pytest.mark.parametrize(
    ("lang", "situation", "text", "colour"),
    [
        ("de", "hut", "Ach nee, gelb, nicht blau.", "yellow"),
        ("de", "hut", "Hoppla, das war orange, nicht blau.", "orange"),
        ("de", "hut", "Nee, nee, grün wollte ich!", "green"),
        ("en", "hat", "Oh silly me, yellow, not blue!", "yellow"),
        ("en", "hat", "Whoops, that was orange.", "orange"),
        ("en", "hat", "No no, I wanted green!", "green"),
    ],
)
def test_the_player_who_just_moved_puts_it_right_in_own_words(lang, situation, text, colour):
    """Said right after a move (the ball just went blue), with a word that corrects in
    front or "that was …": a correction of that move, never the next player's move."""
    found = parse("alle-meine-farben", lang, situation, text)
    assert found == {"intent": "correction", "slots": {"colour": colour}}


@pytest.mark.parametrize(
    ("lang", "situation", "text", "colour"),
    [("de", "hut", "Rot, nicht blau.", "red"), ("en", "hat", "Red, not blue.", "red")],
)
def test_a_contrast_without_a_correcting_word_stays_the_next_move(lang, situation, text, colour):
    found = parse("alle-meine-farben", lang, situation, text)
    assert found == {"intent": "place", "slots": {"colour": colour}}


@pytest.mark.parametrize(
    ("lang", "situation", "text", "items"),
    [
        ("en", "painting", "grey, three of them, up at the top",
         [{"colour": "grey", "count": 3, "place": "top"}]),
        ("de", "malen", "grau, drei Stück, ganz oben",
         [{"colour": "grey", "count": 3, "place": "top"}]),
        ("en", "painting", "one of the rainbow multicoloured ones in the middle",
         [{"colour": "multicoloured", "count": 1, "place": "middle"}]),
    ],
)  # fmt: skip
def test_a_count_or_place_said_after_its_colour_belongs_to_it(lang, situation, text, items):
    found = parse("pantone", lang, situation, text)
    assert found == {"intent": "board", "slots": {"items": items}}


@pytest.mark.parametrize(
    ("lang", "situation", "text", "items"),
    [
        ("en", "painting", "Look, two reds up top.",
         [{"colour": "red", "count": 2, "place": "top"}]),
        ("en", "painting", "One blue on the left, like a lake.",
         [{"colour": "blue", "count": 1, "place": "left"}]),
        ("de", "malen", "In die Mitte lege ich ein Weiß.",
         [{"colour": "white", "count": 1, "place": "middle"}]),
    ],
)  # fmt: skip
def test_a_board_told_beside_a_look_or_a_likeness_is_still_told(lang, situation, text, items):
    found = parse("pantone", lang, situation, text)
    assert found == {"intent": "board", "slots": {"items": items}}


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "painting", "Two red at the top, that's got to be a hat or something."),
        ("en", "painting", "Ben, green at the bottom, think about frogs!"),
        ("de", "malen", "Die drei grünen oben sind bestimmt Haare, oder?"),
        ("de", "malen", "Ich hätte unten ja blau genommen."),
        ("en", "guessing", "Dad, when's the pizza coming?"),
        ("en", "guessing", "Shh, she's thinking."),
        ("de", "raten", "Pst, Anna denkt nach."),
        # it looks, likens or knows: a remark about the board, not the Artist telling it
        ("en", "guessing", "Look at the greens in the middle, honey."),
        ("en", "painting", "The blue on the left looks a bit like a lake."),
        ("en", "guessing", "Three whites at the top, I know who that is!"),
        ("de", "raten", "Schau mal die zwei gelben oben, Schatz."),
        ("de", "malen", "Das Blau links sieht aus wie ein See."),
    ],
)
def test_talk_about_the_board_or_the_room_is_no_move(lang, situation, text):
    found = parse("pantone", lang, situation, text)
    assert found is None or found["intent"] not in ("board", "guess"), found


@pytest.mark.parametrize(
    ("lang", "text", "colour"),
    [
        ("de", "Apfel orange, weil rot nicht geht.", "orange"),
        ("de", "Der Apfel wird grün, ist ja klar.", "green"),
        ("en", "Orange for the apple, because I haven't got red.", "orange"),
    ],
)
def test_a_move_with_its_reason_beside_it_is_made(lang, text, colour):
    """A reason may name and deny another colour; a verb first with "ja" tells, not asks."""
    situation = "apfel" if lang == "de" else "apple"
    found = parse("alle-meine-farben", lang, situation, text)
    assert found == {"intent": "place", "slots": {"object": 13, "colour": colour}}


@pytest.mark.parametrize(
    ("lang", "text"),
    [("de", "Apfel rot, ist das okay?"), ("de", "Apfel rot, weil blau oder grün nicht geht")],
)
def test_a_move_with_a_question_or_a_weighing_beside_it_is_not_made(lang, text):
    found = parse("alle-meine-farben", lang, "apfel", text)
    assert found is None or found["intent"] != "place", found


@pytest.mark.parametrize(
    ("lang", "situation", "text", "colour"),
    [
        ("en", "bird", "Pink. Don't laugh.", "pink"),
        ("en", "bird", "Um, pink! Don't judge me!", "pink"),
        ("de", "vogel", "Rosa. Nicht lachen!", "pink"),
        ("de", "vogel", "Ähm, rosa. Guckt nicht so!", "pink"),
    ],
)
def test_a_sentence_after_the_move_about_something_else_may_deny(lang, situation, text, colour):
    """A sentence of its own after the move, about something the game never speaks of
    ("don't laugh"), leaves the move standing, even though it denies."""
    found = parse("alle-meine-farben", lang, situation, text)
    assert found is not None and found["intent"] == "place"
    assert found["slots"]["colour"] == colour


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "bird", "Pink. No, forget it."),  # taken back
        ("en", "bird", "Pink. Not on the bird."),  # about the move
        ("en", "bird", "Pink. Don't laugh?"),  # asks
        ("de", "vogel", "Rosa. Nee, lass mal."),
        ("de", "vogel", "Rosa. Nicht für den Vogel."),
        ("de", "vogel", "Rosa, nicht lachen"),  # no sentence of its own: still refused
    ],
)
def test_a_sentence_that_takes_back_names_or_asks_still_refuses(lang, situation, text):
    found = parse("alle-meine-farben", lang, situation, text)
    assert found is None or found["intent"] != "place"


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [
        ("en", "I'm bored, switch it off.", "quit"),
        ("en", "Okay, let's leave it here for tonight.", "quit"),
        ("en", "Stop the game for a minute, the dog's barking.", "pause"),
        ("en", "Pause it a sec, someone's at the door.", "pause"),
        ("de", "Keine Lust mehr, mach aus.", "quit"),
        ("de", "Komm, wir machen Schluss für heute.", "quit"),
        ("de", "Halt mal kurz das Spiel an, das Telefon klingelt.", "pause"),
    ],
)
def test_stopping_for_a_while_pauses_and_stopping_for_tonight_quits(lang, text, intent):
    situation = {"en": "bird", "de": "vogel"}[lang]
    found = parse("alle-meine-farben", lang, situation, text)
    assert found == {"intent": intent, "slots": {}}


@pytest.mark.parametrize(
    ("lang", "situation", "text", "colour", "object_"),
    [
        ("de", "haus", "Ein gelbes Haus.", "yellow", 8),  # inflected, with an article
        ("de", "apfel", "Ein grüner Apfel.", "green", 13),
        ("en", "apple", "A green apple.", "green", 13),
    ],
)
def test_a_move_with_an_article_before_it_is_sure(lang, situation, text, colour, object_):
    """An article before the colour ("ein gelbes Haus") is understood without asking."""
    found, session = understood("alle-meine-farben", lang, situation, text)
    assert found is not None and found.to_json() == {
        "intent": "place",
        "slots": {"colour": colour, "object": object_},
    }
    assert found.score >= session.confirm_below  # not asked back


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Put my green card on the house."), ("de", "Das Haus kriegt meine grüne Karte.")],
)
def test_my_card_of_a_colour_is_that_colour(lang, text):
    situation = {"en": "house", "de": "haus"}[lang]
    found = parse("alle-meine-farben", lang, situation, text)
    assert found == {"intent": "place", "slots": {"colour": "green", "object": 8}}


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "my shoes are pink"), ("de", "meine Schuhe sind rosa")]
)
def test_my_thing_of_a_colour_is_no_move(lang, text):
    situation = {"en": "shoe", "de": "schuh"}[lang]
    found = parse("alle-meine-farben", lang, situation, text)
    assert found is None or found["intent"] != "place"


@pytest.mark.parametrize(
    ("lang", "situation", "text", "intent", "slots"),
    [
        ("en", "reveal",
         "Yellow, because my grandad had a yellow caravan we took to Wales every summer.",
         "reveal", {"colour": "yellow"}),
        ("de", "reveal",
         "Grün, weil wir im Sommer immer auf dem Campingplatz am See gezeltet haben.",
         "reveal", {"colour": "green"}),
    ],
)  # fmt: skip
def test_a_colour_with_a_long_reason_after_it_is_the_move(lang, situation, text, intent, slots):
    assert parse("farben", lang, situation, text) == {"intent": intent, "slots": slots}


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Ben, the pasta is nearly ready, so clear all the stuff off the table now."),
        ("en", "Anna, the dog has been sitting by the back door for ages, let him out."),
        ("de", "Ben, die Nudeln sind gleich fertig, also räum schon mal den ganzen Kram weg."),
    ],
)
def test_a_long_remark_after_a_name_calls_that_player_and_chooses_nobody(lang, text):
    found = parse("farben", lang, "start", text)
    assert found is None or found["intent"] != "choose_first", found


@pytest.mark.parametrize(
    ("lang", "text", "player", "colour"),
    [
        ("de", "Die Mia hatte grün, da bin ich mir ganz sicher, wegen dem Garten.", "Mia", "green"),
        ("de", "Jonas... Jonas hatte gelb, wegen dem Strandball.", "Jonas", "yellow"),
        ("en", "Ben... Ben had yellow, because of the beach ball.", "Ben", "yellow"),
    ],
)
def test_a_name_with_an_article_or_said_twice_beside_a_reason_is_that_player(
    lang, text, player, colour
):
    found = parse("farben", lang, "naming", text)
    assert found is not None and found["intent"] == "name_colour", found
    assert (found["slots"]["player"], found["slots"]["colour"]) == (player, colour)


@pytest.mark.parametrize(
    ("lang", "text", "colour"),
    [
        ("en", "Myself? Pink.", "pink"),
        ("en", "Me... purple.", "purple"),
        ("de", "Ich selber: lila.", "purple"),
        ("de", "Meine eigene? Gelb.", "yellow"),
    ],
)
def test_oneself_said_before_the_colour_names_ones_own(lang, text, colour):
    found = parse("farben", lang, "naming", text)
    assert found == {"intent": "name_colour", "slots": {"colour": colour, "self": True}}


@pytest.mark.parametrize(
    ("lang", "text", "word"),
    [
        ("en", "Holiday. Let's see if she still knows the beach one.", "Holiday"),
        ("de", "Urlaub. Mal gucken, ob sie sich an das Freibad erinnert.", "Urlaub"),
    ],
)
def test_a_stack_chosen_with_lets_see_if_beside_it_is_chosen(lang, text, word):
    found = parse("farben", lang, "scoring", text)
    assert found == {"intent": "choose_stack", "slots": {"word": word}}, found


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [
        ("de", "Okay Leute, Spiel aus.", "quit"),
        ("de", "Wir brechen hier ab.", "quit"),
        ("de", "Bisschen gemütlicher, bitte.", "slower"),
        ("de", "Etwas zackiger bitte.", "faster"),
        ("en", "Let's pack it in.", "quit"),
        ("en", "A tad snappier, please.", "faster"),
        ("en", "Could you take it a little more gently?", "slower"),
    ],
)
def test_stopping_and_the_pace_in_everyday_words(lang, text, intent):
    found = parse("farben", lang, "story", text)
    assert found is not None and found["intent"] == intent, found


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "guessing", "If she puts Shrek down again I'm going to scream."),
        ("en", "guessing", "Stop singing the Frozen song, Ben, I can't think!"),
        ("de", "raten", "Falls das wieder Pumuckl ist, hör ich auf."),
        ("de", "raten", "Hör auf, das Biene-Maja-Lied zu singen, Cem!"),
    ],
)
def test_a_name_in_a_supposition_or_an_order_is_no_guess_and_not_asked(lang, situation, text):
    found, session = understood("pantone", lang, situation, text)
    assert found is None or found.name != "guess", found  # neither made nor asked back


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Ooh, I know this one. Forty-three.", 43),  # "this one", then the number
        ("I know this one forty-three", 43),
        ("one forty-three", 143),  # the number said the short way
        ("card one forty-three", 143),
    ],
)
def test_this_one_is_no_part_of_the_card_number(text: str, card: int) -> None:
    assert parse("pantone", "en", "choosing", text) == {"intent": "choose", "slots": {"card": card}}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Card forty. No peeking!", {"intent": "choose", "slots": {"card": 40}}),
        ("okay, card sixty-seven. No cheating!", {"intent": "choose", "slots": {"card": 67}}),
        ("Card forty. No, nothing.", None),  # a "no" that takes the card back
    ],
)
def test_a_no_that_forbids_a_doing_takes_nothing_back(text: str, found) -> None:
    assert parse("pantone", "en", "choosing", text) == found
