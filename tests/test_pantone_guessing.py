"""Pantone guess windows as the table plays them: every utterance of the guesser is their
guess (a name outside the deck is a wrong guess, and the turn moves on), negations and
thinking aloud are no guess, guessing out of turn stays an explicit command, the journal
keeps what was decided, and the recogniser hears wrong guesses as themselves."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli, write_script

from games.engine import Action, Setup
from games.pantone import Pantone
from voice.input.clock import VirtualClock
from voice.output.sinks import JsonOutput
from voice.output.sinks import RecordingOutput as Recorder
from voice.session.adapters import ADAPTERS
from voice.session.loops import run_script
from voice.session.session import Session

ADAPTER = ADAPTERS["pantone"]
# Card 12 of the English deck is Sleeping Beauty; card 1 of the German deck Das Sandmännchen.


def play(lines: list[str], lang: str = "en", players=("Anna", "Ben", "Cem"), **options: Any):
    opts = {**ADAPTER.default_options(lang), **options}
    stream = io.StringIO()
    session = Session(
        ADAPTER,
        lang,
        Setup(tuple(players), 5, "Anna", opts),
        JsonOutput(stream),
        private=Recorder(),
    )
    session.start()
    run_script(session, lines, VirtualClock())
    return session, [json.loads(line) for line in stream.getvalue().splitlines()]


def of_type(records: list[dict], *types: str) -> list[dict]:
    return [r for r in records if r["type"] in types]


def test_a_name_outside_the_deck_is_a_wrong_guess_and_the_turn_moves_on() -> None:
    session, records = play(["card 12", "done", "Daisy Duck", "is it a blue kangaroo?", "pass"])
    guesses = of_type(records, "wrong_guess", "passed", "not_understood", "guess_turn")
    assert guesses == [
        {"type": "guess_turn", "player": "Ben", "round": 0},
        {"type": "wrong_guess", "player": "Ben", "guess": "Daisy Duck"},
        {"type": "guess_turn", "player": "Cem", "round": 0},
        {"type": "wrong_guess", "player": "Cem", "guess": "blue kangaroo"},
        {"type": "guess_turn", "player": "Ben", "round": 1},  # after hint 1
        {"type": "passed", "player": "Ben"},
        {"type": "guess_turn", "player": "Cem", "round": 1},
    ]
    said = [r["text"] for r in records if r["type"] == "say"]
    assert "Not Daisy Duck." in said and "Not blue kangaroo." in said


def test_the_next_line_is_never_taken_for_the_previous_guesser() -> None:
    """The bug of issue 12: "Scrooge McDuck" was "not understood", Ben's window stayed
    open, and Cem's right guess scored for Ben."""
    _, records = play(["card 12", "done", "Scrooge McDuck", "sleeping beauty"])
    guessed = of_type(records, "guessed")
    assert guessed and guessed[0]["player"] == "Cem" and guessed[0]["scorers"] == ["Cem", "Anna"]
    assert not of_type(records, "not_understood")


def test_a_negation_is_no_guess_and_the_window_stays_with_the_guesser() -> None:
    session, records = play(["card 12", "done", "it's not Mickey", "hmm", "sleeping beauty"])
    assert of_type(records, "thinking_aloud") == [
        {"type": "thinking_aloud", "player": "Ben"},
        {"type": "thinking_aloud", "player": "Ben"},
    ]
    assert not of_type(records, "wrong_guess", "not_understood", "confirm")
    assert of_type(records, "guessed")[0]["player"] == "Ben"
    said = [r["text"] for r in records if r["type"] == "say"]
    assert not any("Mickey" in s for s in said)  # thinking aloud gets no answer at all


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "Is Anna still painting?"), ("de", "Malt die Anna immer noch?")]
)
def test_a_question_about_a_player_in_the_guess_window_is_no_guess(lang: str, text: str) -> None:
    """Nobody at the table is a character: words about a player are no wrong guess that
    would end the guesser's try."""
    start = ["karte 1", "fertig"] if lang == "de" else ["card 12", "done"]
    _, records = play(start + [text], lang=lang)
    assert not of_type(records, "guessed", "wrong_guess", "confirm")


@pytest.mark.parametrize("text", ["Ich sag nix. Gar nix.", "nix", "Ich weiß nix."])
def test_saying_nothing_in_german_is_no_guess(text: str) -> None:
    """ "Ich sag nix": "nix" is how German tables say "nichts", no character's name."""
    _, records = play(["karte 1", "fertig", text], lang="de")
    assert not of_type(records, "guessed", "wrong_guess", "confirm")
    assert of_type(records, "thinking_aloud") == [{"type": "thinking_aloud", "player": "Ben"}]


@pytest.mark.parametrize(
    ("text", "lang", "card"),
    [
        ("ist es vielleicht der Grinch?", "de", 1),
        ("ähm, ich glaube, das ist das Sandmännchen", "de", 1),
        ("das ist bestimmt nicht das Sandmännchen", "de", 1),
        ("it's not sleeping beauty", "en", 12),
        ("that can't be sleeping beauty", "en", 12),
    ],
)
def test_negated_names_never_score_and_questions_are_guesses(text, lang, card) -> None:
    start = ["karte 1", "fertig"] if lang == "de" else ["card 12", "done"]
    _, records = play(start + [text], lang=lang)
    negated = "nicht" in text or "not" in text or "can't" in text
    if negated:
        assert not of_type(records, "guessed", "wrong_guess")
        assert of_type(records, "thinking_aloud")
    else:  # a question is the usual way to guess in Pantone
        assert of_type(records, "wrong_guess") or of_type(records, "guessed")


def test_guessing_out_of_turn_is_a_separate_command() -> None:
    # While Anna paints the table talks: a blurted name is no guess and costs nothing ...
    _, records = play(["card 12", "is it sleeping beauty", "penalty for Ben", "done"])
    assert not of_type(records, "guessed", "wrong_guess", "blurted_right")
    # ... until the table says so
    assert of_type(records, "penalty") == [{"type": "penalty", "player": "Ben", "score": -1}]
    _, records = play(["karte 1", "fertig", "Strafe für Cem", "Daisy Duck"], lang="de")
    assert of_type(records, "penalty")[0]["player"] == "Cem"
    assert of_type(records, "wrong_guess") == [
        {"type": "wrong_guess", "player": "Ben", "guess": "Daisy Duck"}  # still Ben's window
    ]


def test_fuzzy_deck_names_still_count_with_titles_articles_and_aliases() -> None:
    for line, lang, card in [
        ("mister potato head", "en", 1),
        ("Potato Head", "en", 1),
        ("I think it's the grinch", "en", 37),
        ("der Grinch", "de", None),
    ]:
        number = card or next(
            n
            for n, c in enumerate(ADAPTER.default_options(lang)["deck"], 1)
            if c["name"] == "Der Grinch"
        )
        start = [f"card {number}", "done"] if lang == "en" else [f"karte {number}", "fertig"]
        _, records = play(start + [line], lang=lang)
        assert of_type(records, "guessed"), line


def test_the_journal_keeps_the_decision_and_the_words(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    script = write_script(
        tmp_path / "a.script",
        ["card 12", "done", "um, is it daisy duck?", "I think it's sleeping beauty"],
    )
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben,Cem", "--first", "Anna",
        "--save", str(save), "--script", str(script), "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    text = save.read_text(encoding="utf-8")
    guesses = [
        json.loads(line) for line in text.splitlines() if '"guess"' in line and '"args"' in line
    ]
    args = [g.get("args") or g.get("action", {}).get("args") for g in guesses]
    assert {"text": "um is it daisy duck", "name": "Daisy Duck", "card": None} in args
    assert {"text": "i think it's sleeping beauty", "name": "Sleeping Beauty", "card": 12} in args
    run = run_cli("resume", str(save), "--script", "/dev/null", "--json")
    assert run.code == 0, run.err


def test_old_saved_guesses_without_a_decision_still_replay() -> None:
    options = ADAPTER.default_options("en")
    game = Pantone(Setup(("Anna", "Ben", "Cem"), 1, "Anna", options))
    game.start()
    for action in (Action("choose", {"card": 1}), Action("done")):
        game.apply(action)
    assert game.apply(Action("guess", {"text": "Pinocchio"}))[0].type == "wrong_guess"
    assert game.apply(Action("guess", {"text": "mister potato head"}))[0].type == "guessed"


def test_a_decided_guess_is_judged_by_its_card_alone() -> None:
    options = ADAPTER.default_options("en")
    game = Pantone(Setup(("Anna", "Ben", "Cem"), 1, "Anna", options))
    game.start()
    game.apply(Action("choose", {"card": 1}))
    game.apply(Action("done"))
    wrong = game.apply(Action("guess", {"text": "potato", "name": "Daisy Duck", "card": None}))
    assert wrong[0].data == {"player": "Ben", "guess": "Daisy Duck"}
    right = game.apply(Action("guess", {"text": "xyz", "name": "Potato Head", "card": 1}))
    assert right[0].type == "guessed" and right[0].data["player"] == "Cem"


def test_an_own_deck_with_a_well_known_name_makes_it_a_card(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "\n".join(
            f"- {{name: {name}, hints: [a, b, c, d]}}"
            for name in ["Daisy Duck", "Grandma Duck", "Pluto", "Goofy", "Mickey Mouse", "Donald"]
        ),
        encoding="utf-8",
    )
    script = write_script(tmp_path / "a.script", ["card 1", "done", "is it daisy duck"])
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben", "--first", "Anna", "--deck", str(deck),
        "--script", str(script), "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "Yes! Ben got it: Daisy Duck. 5 points for Ben." in run.said


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_recogniser_listens_for_wrong_names_and_negations_too(lang: str) -> None:
    session, _ = play(["card 12", "done"] if lang == "en" else ["karte 1", "fertig"], lang=lang)
    phrases = set(session.phrases())
    daisy = {"en": ["daisy duck", "is it daisy duck", "it's not mickey"],
             "de": ["daisy duck", "ist es daisy duck", "das ist nicht micky"]}[lang]  # fmt: skip
    assert set(daisy) <= phrases
    phase = session.phase()
    for phrase in daisy:
        intent = session.parser.parse(phrase, phase.intents, phase.slots)
        negated = {"not", "nicht"} & set(phrase.split())
        assert intent is not None and intent.name == ("thinking" if negated else "guess")


@pytest.mark.parametrize(
    ("lines", "lang", "name"),
    [
        (["card 12", "done", "hey, Mickey Mouse"], "en", "Mickey Mouse"),
        (["card 12", "done", "yeah mickey mouse"], "en", "Mickey Mouse"),
        (["karte 1", "fertig", "genau, Micky Maus"], "de", "Micky Maus"),
        (["karte 1", "fertig", "ach, ist es Micky Maus"], "de", "Micky Maus"),
    ],
)
def test_a_word_that_only_opens_the_sentence_does_not_make_a_guess_unsure(
    lines: list[str], lang: str, name: str
) -> None:
    """ "hey, Mickey Mouse" is as sure a guess as "Mickey Mouse": it is taken at once,
    not asked about ("Ben guesses Mickey Mouse, right?")."""
    _, records = play(lines, lang)
    assert not of_type(records, "confirm")
    assert [r["guess"] for r in of_type(records, "wrong_guess")] == [name]


@pytest.mark.parametrize(
    ("lines", "lang", "name"),
    [
        (["card 12", "done", "Shrek! It's Shrek."], "en", "Shrek"),
        (["karte 1", "fertig", "Grobi! Das ist Grobi."], "de", "Grobi"),
        # a question, answered by the name said last
        (["card 12", "done", "Ooh, is that Shrek? Shrek."], "en", "Shrek"),
        (["karte 1", "fertig", "Ist das Grobi? Ja, Grobi."], "de", "Grobi"),
    ],
)
def test_a_name_said_again_as_a_sentence_of_its_own_is_taken_at_once(
    lines: list[str], lang: str, name: str
) -> None:
    """A name said alone and again in a longer sentence is as sure as said alone: it is
    judged at once, not asked about first."""
    _, records = play(lines, lang)
    assert not of_type(records, "confirm")
    assert [r["guess"] for r in of_type(records, "wrong_guess")] == [name]


@pytest.mark.parametrize(
    "line",
    [
        "Shrek, maybe? Green and all.",
        "Shrek. No wait, Mulan. Final answer.",
        "Shrek. Shrek?",  # the name said last still asks
        "Is it Shrek? He's green.",
    ],
)
def test_a_name_beside_a_hedge_or_another_name_is_still_asked_about(line: str) -> None:
    _, records = play(["card 12", "done", line])
    assert of_type(records, "confirm")
    assert not of_type(records, "wrong_guess")


def test_a_no_before_a_name_is_still_asked_about() -> None:
    """ "nein Bambi" may be a refusal: no opening word, so it is confirmed first."""
    _, records = play(["karte 1", "fertig", "nein Bambi"], "de")
    assert of_type(records, "confirm")
    assert not of_type(records, "wrong_guess")


def test_a_wrong_guess_is_said_back_as_a_sentence_says_it() -> None:
    """The answer to a wrong guess reads like a sentence: an article inside it in lower
    case ("Not the Grinch", not "Not The Grinch"), and a German answer that begins with
    the guess in capitals ("Blaues Känguru ist es nicht")."""
    _, records = play(["card 12", "done", "the grinch"])
    assert "Not the Grinch." in [r["text"] for r in of_type(records, "say")]
    _, records = play(["karte 1", "fertig", "ist es ein blaues Känguru", "der Grinch"], "de")
    said = [r["text"] for r in of_type(records, "say")]
    assert "Blaues Känguru ist es nicht." in said
    assert "Der Grinch ist es nicht." in said


@pytest.mark.parametrize(
    ("lang", "imagined", "meant"),
    [
        ("en", "I would have said Cinderella but there's no blue", "I'd say Cinderella"),
        (
            "de",
            "ich hätte ja Gargamel gesagt, aber da fehlt das Schwarz",
            "ich würde sagen Gargamel",
        ),
    ],
)
def test_a_guess_only_imagined_is_no_guess_but_a_polite_one_is(lang, imagined, meant):
    """ "I would have said …" is thinking aloud; "I'd say …" is the guess."""
    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options=adapter.default_options(lang))
    session = Session(adapter, lang, setup, Recorder())
    session.start()
    for line in [
        "Anna",
        {"de": "Karte 12", "en": "card 12"}[lang],
        {"de": "fertig", "en": "done"}[lang],
    ]:
        session.hear(line)
    phase = session.phase()
    assert session.parser.parse(imagined, phase.intents, phase.slots).name == "thinking"
    assert session.parser.parse(meant, phase.intents, phase.slots).name == "guess"


@pytest.mark.parametrize(
    ("said", "guess"),
    [
        ("If I were you I'd say Rapunzel, Ben.", "I'd say Rapunzel"),
        ("Remember, Cem, when we saw Peter Pan?", "I think it's Peter Pan"),
    ],
)
def test_a_name_in_words_said_to_another_player_is_no_guess(said, guess):
    """Advice or a memory told to a player by name costs the guesser no try."""
    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options=adapter.default_options("en"))
    session = Session(adapter, "en", setup, Recorder())
    session.start()
    for line in ["Anna", "card 12", "done"]:
        session.hear(line)
    phase = session.phase()
    assert session.parser.parse(said, phase.intents, phase.slots).name == "thinking"
    assert session.parser.parse(guess, phase.intents, phase.slots).name == "guess"


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (["card 12", "done", "Is Rapunzel the one with the tower? Asking for a friend."], "en"),
        (["card 12", "done", "Does Shrek have green ears?"], "en"),
        (["karte 1", "fertig", "Hat Rumpelstilzchen überhaupt 'nen Bart? Ich frag nur."], "de"),
        (["karte 1", "fertig", "Ich hätt sofort Sandmännchen gesagt."], "de"),
    ],
)
def test_a_question_about_a_character_or_a_guess_only_imagined_costs_no_try(
    lines: list[str], lang: str
) -> None:
    """Asking about a character ("Hat Rumpelstilzchen einen Bart?") or saying what one
    would have guessed is no guess: nothing is asked back, no try is used."""
    _, records = play(lines, lang)
    assert not of_type(records, "confirm")
    assert not of_type(records, "wrong_guess") and not of_type(records, "guessed")
