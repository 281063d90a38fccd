"""Voice adapter of Pantone: options, the deck, the name lists the recogniser hears.

The guess list (``{character}``) is built from the deck's names and aliases and from a
list of well-known characters beyond the deck (``games/data/famous_characters_<lang>``),
so the recogniser's per-phase phrase list contains every name a guess may use and hears
a wrong guess ("Daisy Duck") as itself instead of snapping it onto a deck name. The
parser (:class:`voice.understanding.names.NameParser`) resolves what was said to one of them,
and in a guess window anything else the guesser says is a wrong guess in its own words.
The list is never narrowed to the Artist's card: that would give the character away.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from games.deck_files import MAX_CARDS, DeckError
from games.engine import Action, Event, Game, Setup, SetupError
from games.name_match import SPOKEN_ABBREVIATIONS
from games.pantone import CARD_MODES, DEFAULT_TARGET, Pantone
from games.pantone_deck import (
    Character,
    OtherCharacter,
    beyond_deck,
    builtin_deck,
    deck_to_json,
    famous_characters,
    parse_deck,
    printable,
)
from voice.errors import UsageError
from voice.output.messages import Term, TermMaker, console_text
from voice.session.adapters.base import CardSheet, GameAdapter, read_deck_yaml
from voice.understanding.board import BoardNameParser
from voice.understanding.grammar import Grammar, SlotValue
from voice.understanding.intents import Intent, IntentParser
from words.numbers import number_words
from words.text import normalize

FAR_CARDS = 300
"""Card numbers up to this (or 100 beyond a larger deck) are heard even beyond the deck,
to be refused clearly."""
PHASES = 3
DEALT = 4

_CARD_MODE_NAMES = {
    "number": "number",
    "numbers": "number",
    "deal": "deal",
    "dealt": "deal",
    "physical": "physical",
    "box": "physical",
    "own": "physical",
}

_LEADING_ARTICLES = {
    "en": ("the", "a", "an"),
    "de": ("der", "die", "das"),
}


class PantoneAdapter(GameAdapter):
    game_id = "pantone"
    default_lang = "en"
    engine = Pantone
    table_view = "voice.display.views_pantone"
    help_later = frozenset({"penalty"})  # anyone, any time: not what the game waits for
    # the Artist's own steps; never a guess, which is judged at once
    said_back = frozenset({"first", "choose", "done"})
    name_lists = ("player", "character", "other_character")

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--cards",
            default="number",
            metavar="|".join(CARD_MODES),
        )  # help texts: voice/output/prompts/<lang>/cli.yaml
        parser.add_argument(
            "--teams",
            nargs="?",
            const="alternate",
            metavar='"Anna,Cem/Ben,Dan"',
        )
        parser.add_argument("--speed", action="store_true")
        parser.add_argument("--minimalist", action="store_true")
        parser.add_argument("--abstract", action="store_true")
        parser.add_argument("--renaissance", action="store_true")
        parser.add_argument("--target", type=int, metavar="POINTS")
        parser.add_argument("--deck", type=Path, metavar="FILE")

    # --- options -------------------------------------------------------------------------
    def options(self, args: argparse.Namespace, lang: str) -> dict[str, Any]:
        players = [" ".join(n.split()) for n in str(args.players).split(",")]
        mode = _CARD_MODE_NAMES.get(str(getattr(args, "cards", "number")).strip().lower())
        if mode is None:
            text = console_text("cards_unknown", cards=args.cards, modes=", ".join(CARD_MODES))
            raise UsageError(text)
        target = args.target
        if args.renaissance and target is None:
            target = DEFAULT_TARGET
        teams = _teams(args.teams, players) if args.teams is not None else None
        if args.deck is not None:
            deck = load_deck_file(args.deck)
            source = str(args.deck)
        else:
            deck = builtin_deck(lang)
            source = f"builtin:{lang}"
        return {
            "cards": mode,
            "speed": bool(args.speed),
            "minimalist": bool(args.minimalist),
            "abstract": bool(args.abstract),
            "target": target,
            "teams": teams,
            "lang": lang,
            "deck_source": source,
            # The resolved deck itself, so that `resume` plays the same cards even if
            # the file changes or disappears.
            "deck": deck_to_json(deck),
        }

    def default_options(self, lang: str) -> dict[str, Any]:
        return {
            "cards": "number",
            "lang": lang,
            "deck_source": f"builtin:{lang}",
            "deck": deck_to_json(builtin_deck(lang)),
        }

    # --- what the recogniser and the parser hear -------------------------------------
    def dynamic_lists(self, setup: Setup, lang: str) -> Mapping[str, Sequence[SlotValue]]:
        deck = _deck_of(setup)
        lists = dict(super().dynamic_lists(setup, lang))
        lists["card"] = [
            SlotValue("(" + "|".join(number_forms(n, lang)) + ")", n)
            for n in range(1, len(deck) + 1)
        ]
        lists["character"] = character_values(deck, lang)
        # Well-known characters beyond the deck: a list of their own, said with fewer
        # carrier words (hundreds of names would otherwise swell every guess window). A
        # deck of one's own may hold every one of them: then the list repeats the deck
        # (run-time lists may not be empty; a deck name still means its card).
        lists["other_character"] = character_values(_others(deck, lang), lang) or lists["character"]

        # numbers beyond the deck, so "card 200" of 152 cards is heard as what it is (and
        # refused: "there are only 152 cards") instead of as the nearest card that exists
        lists["far_card"] = [
            SlotValue("(" + "|".join(number_forms(n, lang)) + ")", n)
            for n in range(len(deck) + 1, max(FAR_CARDS, len(deck) + 100) + 1)
        ]
        return lists

    def parser(self, grammar: Grammar, setup: Setup) -> IntentParser:
        deck = _deck_of(setup)
        others = [other.forms for other in _others(deck, grammar.lang)]
        forms = [card.forms for card in deck]
        return BoardNameParser(grammar, "guess", "character", forms, others)

    def table_undo(self, setup: Setup, moves: Sequence[Sequence[Event]]) -> list[Event]:
        """Taken back to before the painting began: the Artist takes the swatches laid
        out back (nothing else lies on the table: the character card is in their hand)."""
        started = [e for events in moves for e in events if e.type == "create_start"]
        return [Event("table_swatches_back", dict(started[0].data))] if started else []

    def yes_no_intent(self, yes: bool, game: Game) -> str | None:
        # "Anna, is that right?" "Yep." - the Artist's verdict, in any words of yes or no
        if isinstance(game, Pantone) and game.physical and game.stage == "verdict":
            return "correct" if yes else "wrong"
        return None

    def action_for(self, intent: Intent, game: Game) -> Action:
        slots = intent.slots
        if intent.name == "guess":
            # The decision goes into the journal: which card the guess names (None: no
            # card of the deck) and the name as decided; the words said, for the record.
            name = str(slots["character"])
            card = game.card_named(name) if isinstance(game, Pantone) else None
            return Action("guess", {"text": intent.text or name, "name": name, "card": card})
        if intent.name in ("choose", "discard"):
            if "place" in slots:  # "my second card": its place in the private hand
                return Action(intent.name, {"place": int(slots["place"])})
            return Action(intent.name, {"card": slots["card"]})
        if intent.name == "correct":
            return Action("correct", {"player": slots["player"]} if "player" in slots else {})
        if intent.name == "board":
            return Action("board", {"items": list(slots["items"])})
        if intent.name == "penalty":
            args: dict[str, Any] = {"player": slots["player"]}
            if slots.get("right"):
                args["right"] = True
            return Action("penalty", args)
        return super().action_for(intent, game)

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        tables = _prompt_terms(lang)
        return {
            "rule": _table_term(tables["rule"]),
            "modes": _table_term(tables["mode"]),
            "place": _table_term(_board_places(lang)),
            "name": character_term(lang),
            "guess": character_term(lang),
        }

    def must_tell_privately(self, event: Event, setup: Setup) -> bool:
        # With the printed deck the Artist chose the card themselves: nothing to tell.
        return not (event.type == "your_character" and setup.options.get("cards") == "number")

    def untold(self, action: Action, game: Game) -> tuple[str, dict[str, Any]] | None:
        # Dealt cards nobody could tell the Artist: a number said is a guess, not a choice.
        if not isinstance(game, Pantone) or game.card_mode != "deal":
            return None
        if action.name in ("discard", "choose", "ready") and game.stage in ("discard", "choose"):
            return "cards_not_told", {"player": game.artist}
        return None

    def said_aloud(self, action: Action, game: Game) -> tuple[str, dict[str, Any]] | None:
        # Dealt cards are named by their place in the private hand ("my second card"): a
        # deck number said aloud and the printed deck would tell the table the character.
        if not isinstance(game, Pantone) or game.card_mode != "deal":
            return None
        if action.name in ("discard", "choose") and "card" in action.args:
            return "say_place", {"player": game.artist}
        return None

    # --- printing the deck ---------------------------------------------------------------
    def printable_cards(self, lang: str, args: argparse.Namespace) -> str:
        deck_file = getattr(args, "deck", None)
        deck = load_deck_file(deck_file) if deck_file is not None else builtin_deck(lang)
        tables = _prompt_terms(lang)["print"]
        title = tables["title"].format(count=len(deck))
        return printable(deck, title, {"also": tables["also"], "hints": tables["hints"]})

    def card_sheet(self, lang: str, deck_file: Path | None) -> CardSheet:
        deck = load_deck_file(deck_file) if deck_file is not None else builtin_deck(lang)
        also = _prompt_terms(lang)["print"]["also"]
        return CardSheet([_card_lines(n, c, also) for n, c in enumerate(deck, start=1)], "text")


# --- the deck ------------------------------------------------------------------------------
def load_deck_file(path: Path) -> tuple[Character, ...]:
    """Read and check a deck file; every problem becomes one clear :class:`UsageError`."""
    data = read_deck_yaml(path, MAX_CARDS)
    try:
        return parse_deck(data, f"--deck {path}")
    except DeckError as exc:
        raise UsageError(exc.describe()) from None


def _card_lines(number: int, card: Character, also: str) -> tuple[str, list[str]]:
    """A printed card: its number; the name, the other names a guess may use, the hints."""
    lines = [card.name]
    if card.aliases:
        lines.append(f"({also}: {', '.join(card.aliases)})")
    lines += [f"{i}. {hint}" for i, hint in enumerate(card.hints, start=1)]
    return f"{number}", lines


def _deck_of(setup: Setup) -> tuple[Character, ...]:
    """The deck stored in the setup (checked again: a save file may have been edited)."""
    try:
        return parse_deck(setup.options.get("deck"))  # the saved deck
    except DeckError as exc:  # the same refusal as the engine's, for the same setup
        raise SetupError("bad_deck", problems="; ".join(map(str, exc.problems))) from None


def _others(deck: Sequence[Character], lang: str) -> tuple[OtherCharacter, ...]:
    """The well-known characters of ``lang`` that are no card of ``deck``."""
    return beyond_deck(famous_characters(lang), deck)


def character_values(deck: Sequence[Character | OtherCharacter], lang: str) -> list[SlotValue]:
    """The ``{character}`` list: every name and alias, as recognisers would write it.

    The slot value is the name or alias as the deck writes it.
    """
    values: list[SlotValue] = []
    for card in deck:
        for form in card.forms:
            spoken = spoken_template(form, lang)
            if spoken:
                values.append(SlotValue(spoken, form))
    return values


def spoken_template(name: str, lang: str) -> str:
    """A hassil template for how ``name`` may be said: abbreviations spelled out, a
    leading article optional, hyphenated words also merged ("spider man|spiderman")."""
    # apostrophes only inside a word ("jack o' lantern" is said "jack o lantern")
    words = [w.strip("'") for w in normalize(name).split() if w.strip("'")]
    if not words or not all(_SAYABLE_WORD.match(w) for w in words):
        return ""  # digits or signs: typed guesses still match it, recognisers skip it
    abbreviations = SPOKEN_ABBREVIATIONS.get(lang, {})
    parts = [f"({w}|{abbreviations[w]})" if w in abbreviations else w for w in words]
    optional_article = words[0] in _LEADING_ARTICLES.get(lang, ()) and len(words) > 1
    if optional_article:
        parts[0] = f"[{words[0]}]"
    template = " ".join(parts)
    if "-" in name and len(words) > 1:
        merged = "".join(words[1:] if optional_article else words)
        rest = f"[{words[0]}] " if optional_article else ""
        template = f"({template}|{rest}{merged})"
    return template


_SAYABLE_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)*$")
"""A word a recogniser can output (letters, inner apostrophes: "o'clock", "käpt'n")."""


def number_forms(number: int, lang: str) -> list[str]:
    """Ways to say a card number: digits, and the words recognisers write."""
    words = " ".join(number_words(number, lang))
    forms = [str(number), words]
    if lang == "en" and "hundred " in words:
        forms.append(words.replace("hundred ", "hundred and ", 1))
    if lang == "en" and 100 <= number <= 999:
        forms.extend(_hundreds_said_short(number, forms[1:]))
    if lang == "de" and words.startswith("einhundert"):
        forms.append(words.removeprefix("ein"))
    if lang == "de" and "hundert" in words and not words.endswith("hundert"):
        head, _, tail = words.partition("hundert")
        forms.append(f"{head}hundert {tail}")
    return list(dict.fromkeys(forms))


def _hundreds_said_short(number: int, said: list[str]) -> list[str]:
    """English ways to say a number of three digits besides the long one: "a hundred
    (and) twelve", digits in pairs ("one fifty-two", "one forty") and with "oh" for a
    nought ("one oh seven")."""
    head, rest = divmod(number, 100)
    first = " ".join(number_words(head, "en"))
    forms = [f"a {form.removeprefix('one ')}" for form in said if head == 1]
    if rest >= 10:
        forms.append(f"{first} {' '.join(number_words(rest, 'en'))}")
    elif rest > 0:
        digit = " ".join(number_words(rest, "en"))
        forms += [f"{first} oh {digit}", f"{first} zero {digit}"]
    return forms


# --- teams -----------------------------------------------------------------------------------
def _teams(spec: str, players: list[str]) -> list[list[str]]:
    """The two teams of ``--teams`` as lists of the players' names; whether they make a
    team game (sizes, everyone once) is the engine's rule."""
    if spec == "alternate":
        return [players[0::2], players[1::2]]
    halves = spec.split("/")
    if len(halves) != 2:
        raise UsageError(console_text("teams_format"))
    by_name = {normalize(p): p for p in players}
    teams: list[list[str]] = []
    for half in halves:
        team = []
        for raw in half.split(","):
            name = by_name.get(normalize(raw))
            if name is None:
                raise UsageError(console_text("teams_unknown", name=raw.strip()))
            team.append(name)
        teams.append(team)
    return teams


# --- words for messages ---------------------------------------------------------------------
@cache
def _prompt_terms(lang: str) -> dict[str, Any]:
    path = resources.files("voice.output").joinpath("prompts", lang, "pantone.yaml")
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))["_terms"]
    return data


@cache
def _board_places(lang: str) -> dict[str, Any]:
    path = resources.files("voice.output").joinpath("prompts", lang, "display.yaml")
    places: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))["_places"]
    return places


def character_term(lang: str) -> TermMaker:
    """A character's name inside a sentence: a leading article of the card's title is
    lower case there ("deine Figur ist die Zahnfee", "Not the Grinch"; ``title``: as on
    the card; ``cap``: at the start of a sentence, a guess in the player's words too:
    "Blaues Känguru ist es nicht")."""
    articles = {a.capitalize() for a in _LEADING_ARTICLES.get(lang, ())}

    def make(value: Any) -> Term:
        name = str(value)
        first, space, rest = name.partition(" ")
        inside = first.lower() + space + rest if space and first in articles else name
        return Term({"": inside, "title": name, "cap": name[:1].upper() + name[1:]})

    return make


def _table_term(table: Mapping[str, Mapping[str, str]]) -> TermMaker:
    """Ids → their word forms from a ``_terms`` table of the prompt file."""

    def make(value: Any) -> Term:
        forms = table.get(str(value))
        if forms is None:
            return Term({"": str(value), "short": str(value)})
        return Term(dict(forms))

    return make
