"""Voice adapter of Farben: word cards and time limit from the command line, the word
list for the grammar, quoted words in messages, intents → actions."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hassil import recognize_all

from games.deck_files import MAX_CARDS, DeckError, Problem, check_text
from games.engine import Action, Event, Game, Setup
from games.errors import Reason
from games.farben import (
    MAX_WORD_LENGTH,
    TIME_LIMIT_RANGE,
    Farben,
    key,
    load_deck,
)
from games.seat import seat_of
from voice.errors import UsageError
from voice.output.messages import Term, TermMaker, colour_term, console_text
from voice.session.adapters.base import CardSheet, GameAdapter, _spoken, read_deck_yaml
from voice.understanding.grammar import Grammar, SlotValue
from voice.understanding.intents import Intent
from words.text import normalize

_TABLE_UNDO = {
    "card": "table_word_card_back",
    "round_done": "table_stack_back",
    "word_chosen": "table_cards_up",
    "colour_told": "table_card_down",
    "stack_chosen": "table_stack_down",
}
"""What the table undoes when a move whose events include the key is taken back."""

WORD_INTENTS = frozenset({"choose_side", "choose_stack"})
"""What a word card's word said on its own may mean."""

_QUOTES = {"de": ("„", "“"), "en": ("“", "”")}
_TEMPLATE_CHARACTERS = set('[](){}<>|#/\\"')


def word_term(lang: str) -> TermMaker:
    """Word card words → quoted for messages (``plain``: without quotes)."""
    opening, closing = _QUOTES.get(lang, _QUOTES["en"])

    def make(word: Any) -> Term:
        return Term({"": f"{opening}{word}{closing}", "plain": str(word)})

    return make


def parse_words(text: str) -> list[list[str]]:
    """``"School/Holiday,Success/Monday"`` → ``[["School", "Holiday"], ...]``.

    Raises :class:`UsageError` with what is wrong and how to write it. Only the writing is
    checked here (and that a word fits in a sentence template); how many cards, how long,
    each word once are the engine's rules.
    """
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or not all(items):
        raise UsageError(console_text("words_empty_card"))
    cards: list[list[str]] = []
    for number, item in enumerate(items, start=1):
        sides = [" ".join(side.split()) for side in item.split("/")]
        if len(sides) != 2 or not all(sides):
            raise UsageError(console_text("words_two_sides", card=number, item=item))
        for word in sides:
            if _TEMPLATE_CHARACTERS & set(word):
                raise UsageError(console_text("words_unsayable", card=number, word=word))
        cards.append(sides)
    return cards


class WordProblem(Problem):
    """One thing wrong with a word file; its entries are called cards."""

    @property
    def key(self) -> str:
        return "words_problem" if self.entry is not None else "deck_whole_problem"


def load_word_file(path: Path) -> list[tuple[str, str]]:
    """The word cards of a file of the players' own (``cards farben --deck FILE``): a YAML
    list of ``[side 1, side 2]``. Every problem, by card and side, in one
    :class:`UsageError` in the console's language."""
    data = read_deck_yaml(path, MAX_CARDS)
    if isinstance(data, dict) and "cards" in data:
        data = data["cards"]
    problems: list[Problem] = []
    if not isinstance(data, list) or not data:
        problems.append(WordProblem(None, None, "words_file_not_a_list"))
    elif len(data) > MAX_CARDS:
        problems.append(
            WordProblem(None, None, "deck_too_many", {"cards": len(data), "limit": MAX_CARDS})
        )
    cards: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for number, card in enumerate(data if not problems else [], start=1):
        if not isinstance(card, list) or len(card) != 2:
            count = len(card) if isinstance(card, list) else 0
            problems.append(WordProblem(number, None, "words_file_two_sides", {"found": count}))
            continue
        sides: list[str] = []
        for side, value in enumerate(card, start=1):

            def problem(
                _where: Any, reason: str, side: int = side, number: int = number, **values: Any
            ) -> None:
                inner = Reason(reason, values)
                what = {"side": side, "problem": inner}
                problems.append(WordProblem(number, None, "words_file_side", what))

            word = check_text(value, "", MAX_WORD_LENGTH, problem, required=True)
            if word is not None and _TEMPLATE_CHARACTERS & set(word):
                problem("", "deck_brackets", text=word)
                word = None
            if word is not None and key(word) in seen:
                problem("", "words_file_twice", word=word, first=seen[key(word)])
                word = None
            if word is not None:
                seen[key(word)] = number
                sides.append(word)
        if len(sides) == 2:
            cards.append((sides[0], sides[1]))
    if problems:
        raise UsageError(str(DeckError(problems, f"--deck {path}")))
    return cards


def _player_names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def word_conflicts(lang: str, words: Iterable[str], players: Sequence[str]) -> dict[str, str]:
    """Words that, said alone, would also mean something else (a colour, a command, a
    player): ``{word: what it collides with}``. Such a word could never be chosen by voice.
    """
    words = list(words)
    names = {key(p): p for p in players}
    grammar = Grammar(
        lang,
        FarbenAdapter.game_id,
        {
            "player": [SlotValue(_spoken(p), p) for p in players or ["Anna"]],
            "word": [SlotValue(_spoken(w), w) for w in words],
        },
    )
    conflicts: dict[str, str] = {}
    for word in words:
        if key(word) in names:
            conflicts[word] = f"player:{names[key(word)]}"
            continue
        for result in recognize_all(
            normalize(word), grammar.intents, slot_lists=grammar.slot_lists, language=lang
        ):
            name = result.intent.name
            if name in WORD_INTENTS and "word" in result.entities:
                continue
            if name in ("reveal", "name_colour"):
                conflicts[word] = "colour:"
            else:
                conflicts[word] = f"command:{normalize(word)}"
            break
    return conflicts


class FarbenAdapter(GameAdapter):
    game_id = "farben"
    default_lang = "en"
    engine = Farben
    table_view = "voice.display.views_farben"
    extra_queries = frozenset({"unknown_player"})
    correctable = frozenset({"reveal"})
    # (never "name" or "hint": an answer that scores is held a moment before it counts)
    said_back = frozenset({"first", "side", "ready", "reveal", "done", "stack"})
    correction_passes = frozenset({"done"})  # the story told after the colour was shown
    names_with_colours = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--words",
            metavar='"A/B,C/D,..."',
        )  # help texts: voice/output/prompts/<lang>/cli.yaml
        parser.add_argument("--time-limit", metavar="SECONDS")

    def printable_cards(self, lang: str, args: argparse.Namespace) -> str:
        """The word cards as numbered text (``farbspiel cards farben``): our own deck in
        ``lang``, or a word file of the players' own (``--deck``)."""
        deck_file = getattr(args, "deck", None)
        pairs = load_word_file(deck_file) if deck_file is not None else load_deck(lang)
        title = console_text("farben_cards_title", count=len(pairs), lang=lang)
        width = len(str(len(pairs)))
        lines = [title, "=" * len(title), ""]
        lines += [f"{n:>{width}}  {a} — {b}" for n, (a, b) in enumerate(pairs, start=1)]
        lines += ["", console_text("farben_cards_hint", lang=lang)]
        return "\n".join(lines)

    def card_sheet(self, lang: str, deck_file: Path | None) -> CardSheet:
        pairs = load_word_file(deck_file) if deck_file is not None else load_deck(lang)
        cards = [(f"{n}", [a, "—", b]) for n, (a, b) in enumerate(pairs, start=1)]
        return CardSheet(cards, "words")

    def options(self, args: argparse.Namespace, lang: str) -> dict[str, Any]:
        options: dict[str, Any] = {"deck": lang}
        text = getattr(args, "words", None)
        if text is not None:
            cards = parse_words(text)
            players = _player_names(getattr(args, "players", None))
            conflicts = word_conflicts(lang, [w for c in cards for w in c], players)
            if conflicts:
                word, other = next(iter(conflicts.items()))
                kind, _, what = other.partition(":")
                raise UsageError(
                    console_text(f"words_conflict_{kind}", word=word, player=what, command=what)
                )
            options["words"] = cards
        limit = getattr(args, "time_limit", None)
        if limit is not None:
            options["time_limit"] = _time_limit(limit)
        return options

    def default_options(self, lang: str) -> dict[str, Any]:
        return {"deck": lang}

    def dynamic_lists(self, setup: Setup, lang: str) -> Mapping[str, Sequence[SlotValue]]:
        """Players, and every word that may be said: this game's cards first, then the
        rest of the deck (so a word of another card gets a clear "not on this card")."""
        lists = dict(super().dynamic_lists(setup, lang))
        players = {key(p) for p in setup.players}
        fixed = [w for card in setup.options.get("words") or [] for w in card]
        deck = str(setup.options.get("deck", lang))
        words: dict[str, str] = {}
        for word in fixed + [w for card in load_deck(deck) for w in card]:
            if key(word) not in players:
                words.setdefault(key(word), word)
        lists["word"] = [SlotValue(_spoken(w), w) for w in words.values()]
        return lists

    def table_undo(self, setup: Setup, moves: Sequence[Sequence[Event]]) -> list[Event]:
        """Newest first: a word card taken goes back, a stack put aside comes back, cards
        laid for a word are picked up, a colour shown lies face down again, a stack
        taken for scoring is put down (a correction changes only what was heard: the
        card on the table is the truth)."""
        seat = seat_of(setup)
        told: list[Event] = []
        for events in reversed(moves):
            for event in reversed(events):
                back = _TABLE_UNDO.get(event.type)
                virtual = seat is not None and event.data.get("player") == seat.name
                if back is not None and not (virtual and back == "table_card_down"):
                    # the assistant's colour cards are virtual: nothing to turn over
                    data = {k: event.data[k] for k in ("player", "word") if k in event.data}
                    told.append(Event(back, data))
        return told

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        word = word_term(lang)
        colour = colour_term(lang)
        terms = {name: word for name in ("word", "words", "stack", "left")}
        return {**terms, "colour": colour, "colours": colour, "truth": colour}

    def action_for(self, intent: Intent, game: Game) -> Action:
        slots = intent.slots
        name = intent.name
        if name in ("choose_side", "choose_stack"):
            args = {k: v for k, v in slots.items() if k in ("word", "side", "player")}
            return Action("side" if name == "choose_side" else "stack", args)
        if name in ("ready", "done"):
            # Both mean "we're through": choosing (ready) or telling (done), as the phase says.
            expected = game.expecting().intents
            if "ready" in expected:
                return Action("ready")
            if "done" in expected or "reveal" in expected:
                return Action("done")
            return Action(name)
        if name in ("reveal", "name_colour", "hint"):
            args = {k: v for k, v in slots.items() if k in ("colour", "player")}
            if slots.get("self"):
                args["player"] = game.current_player()
            action = {"reveal": "reveal", "name_colour": "name", "hint": "hint"}[name]
            if name == "name_colour" and "reveal" in game.expecting().intents:
                action = "reveal"  # "Ben: purple" while Ben shows his card
            return Action(action, args)
        if name == "forgot":
            return Action(name)
        if name == "dont_know":  # the namer: "no idea what Cem had"
            player = game.current_player() if slots.get("self") else slots.get("player")
            return Action("forgot", {"player": player} if player else {})
        return super().action_for(intent, game)


def _time_limit(text: Any) -> int:
    """The seconds of ``--time-limit``; their range is the engine's rule."""
    try:
        return int(str(text).strip())
    except ValueError:
        low, high = TIME_LIMIT_RANGE
        raise UsageError(console_text("time_limit_bad", low=low, high=high, value=text)) from None
