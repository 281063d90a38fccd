"""What the voice layer needs to know about one game, beyond its pure engine.

An adapter joins a game's engine (``games/``), its sentence templates (``grammars/``),
its messages (``voice/output/prompts/``) and its command-line options. The session loop only
talks to games through an adapter.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml

from games.engine import Action, Event, Game, Setup
from voice.errors import UsageError
from voice.output.messages import TermMaker, console_text
from voice.understanding.grammar import Grammar, SlotValue
from voice.understanding.intents import Intent, IntentParser
from words.text import normalize


@dataclass(frozen=True)
class CardSheet:
    """A game's cards to print and cut out (``farbspiel cards GAME --pdf FILE``); the
    command line lays them out on the page."""

    cards: Sequence[tuple[str, Sequence[str]]]
    """Per card: its number as printed, and its lines of text."""

    kind: Literal["text", "words"]
    """``text``: the first line is the card's title, the others are read (a character and
    its hints); ``words``: a few words, printed large in the middle of the card."""


class GameAdapter:
    """Base adapter; a game overrides what differs."""

    game_id: ClassVar[str]
    default_lang: ClassVar[str] = "en"
    engine: ClassVar[type[Game]]

    table_view: ClassVar[str]
    """The module that draws the game's part of the table view (``farbspiel display``):
    its ``render(state, lang)`` (see ``voice.display.views.GameView``). Named, not
    imported: the table view is a later stage than the session."""

    extra_queries: ClassVar[frozenset[str]] = frozenset()
    """Intents answered by :meth:`Game.query` beyond the engine's table of questions."""

    @property
    def queries(self) -> frozenset[str]:
        """Game intents answered by :meth:`Game.query` (never journalled): the engine's
        questions, so a new question is one row in the engine."""
        return frozenset(self.engine.questions) | self.extra_queries

    status_intents: ClassVar[frozenset[str]] = frozenset({"status"})
    """Game intents answered by :meth:`Game.status`, like the global "score"."""

    help_later: ClassVar[frozenset[str]] = frozenset()
    """Moves that "help" leaves to "more help" (they are not what the game waits for)."""

    name_lists: ClassVar[tuple[str, ...]] = ("player",)
    """Slot lists of names: recognisers may hear a name of several words as one word."""

    names_with_colours: ClassVar[bool] = False
    """Players are named together with colours ("Julia blue"), so a player may not be
    called like a colour ("Rosa")."""

    correctable: ClassVar[frozenset[str]] = frozenset()
    """Actions with a colour that "nein, doch gelb" said after them may correct (the
    session asks first; see ``Session._correctable``)."""

    said_back: ClassVar[frozenset[str]] = frozenset()
    """Moves cheap to take back whose acknowledgement says them back ("Der Hut ist jetzt
    lila"): made at once where a recogniser is fairly sure, not asked first; "nein" or
    "nein, doch gelb" right after takes them back (implicit confirmation). Moves that cannot
    be taken back cheaply (a guess judged, an answer that scores) are never listed: heard
    fairly sure, they are said back and held a moment before they count
    (:meth:`Dialogue.hold`)."""

    correction_passes: ClassVar[frozenset[str]] = frozenset()
    """Actions that may lie between such a move and its correction; made again after it."""

    def table_undo(self, setup: Setup, moves: Sequence[Sequence[Event]]) -> list[Event]:
        """What the real table must do with its cards when moves are taken back: one
        instruction event per thing to do ("Ben, take your card back from the hat"), said
        in this order. ``moves`` holds the events each taken-back action caused, oldest
        first. Each instruction's type is a stable key a test can follow."""
        return []

    def table_correct(self, setup: Setup, move: Sequence[Event], fixed: Action) -> list[Event]:
        """What the real table must do when the move that caused the events ``move`` is
        corrected to ``fixed`` (its card swapped for the right one); nothing is drawn
        again."""
        return []

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Game-specific ``play`` options."""

    def options(self, args: argparse.Namespace, lang: str) -> dict[str, Any]:
        """Turn parsed options into ``Setup.options``. Raises :class:`UsageError`."""
        return {}

    def default_options(self, lang: str) -> dict[str, Any]:
        """``Setup.options`` when no command line gives any (``parse``, tests)."""
        return {}

    def create(self, setup: Setup) -> Game:
        return self.engine(setup)

    def dynamic_lists(self, setup: Setup, lang: str) -> Mapping[str, Sequence[SlotValue]]:
        """Slot lists that depend on the table (player names, ...)."""
        return {"player": [SlotValue(_spoken(p), p) for p in setup.players]}

    def parser(self, grammar: Grammar, setup: Setup) -> IntentParser:
        """The intent parser for this game (games that hear names from a deck override)."""
        return IntentParser(grammar)

    def printable_cards(self, lang: str, args: argparse.Namespace) -> str:
        """The game's cards as numbered text to print (``farbspiel cards GAME``)."""
        raise UsageError(console_text("no_cards_to_print", game=self.game_id))

    def card_sheet(self, lang: str, deck_file: Path | None) -> CardSheet:
        """The game's cards for the printed sheets: our own deck in ``lang``, or a deck
        file of the players' own. Raises :class:`UsageError` (a game without cards, a
        deck file that cannot be read)."""
        raise UsageError(console_text("no_cards_to_print", game=self.game_id))

    def must_tell_privately(self, event: Event, setup: Setup) -> bool:
        """Whether a private event (``event.to`` set) tells its player something they
        cannot know otherwise; when there is no private channel, farbspiel then says how
        to set one up instead."""
        return True

    def untold(self, action: Action, game: Game) -> tuple[str, dict[str, Any]] | None:
        """Without a private channel: why ``action`` is refused, if it names what only
        that channel could have told its player (Pantone's dealt cards); else ``None``."""
        return None

    def said_aloud(self, action: Action, game: Game) -> tuple[str, dict[str, Any]] | None:
        """Why ``action`` is refused when it would tell the table a secret by the way it was
        said (a dealt card's deck number); else ``None``."""
        return None

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        """Word forms of the game's values, for messages."""
        return {}

    def yes_no_intent(self, yes: bool, game: Game) -> str | None:
        """The game intent a plain "yes" or "no" means when farbspiel asked nothing
        itself but the game waits for a yes-or-no move (the Artist's verdict on a guess
        with the box's own cards); ``None``: nothing to confirm."""
        return None

    def action_for(self, intent: Intent, game: Game) -> Action:
        """The engine action an (understood, expected) game intent stands for."""
        if intent.name == "choose_first":
            return Action("first", {"player": intent.slots["player"]})
        if intent.name == "random_first":
            return Action("first", {"random": True})
        return Action(intent.name, dict(intent.slots))


MAX_DECK_BYTES = 2_000_000
"""The largest deck file read (far more than any deck of 1000 cards needs)."""


def read_deck_yaml(path: Path, limit: int) -> Any:
    """The YAML data of a deck file of the players' own (``--deck``); every way reading it
    can fail is a :class:`UsageError` in the console's language (``limit``: the most
    cards a deck may have, said when the file is far too large)."""
    try:
        if path.stat().st_size > MAX_DECK_BYTES:
            raise UsageError(console_text("deck_file_too_large", path=path, limit=limit))
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(console_text("deck_file_missing", path=path)) from None
    except IsADirectoryError:
        raise UsageError(console_text("deck_file_folder", path=path)) from None
    except UnicodeDecodeError:
        raise UsageError(console_text("deck_file_not_utf8", path=path)) from None
    except OSError as exc:
        raise UsageError(console_text("deck_file_unreadable", path=path, reason=exc)) from None
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise UsageError(console_text("deck_file_nested", path=path)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        detail = str(getattr(exc, "problem", None) or "")
        text = console_text("deck_file_bad_yaml", path=path, line=line, column=column,
                            detail=detail)  # fmt: skip
        raise UsageError(text) from None


def _spoken(name: str) -> str:
    """A player name as recognisers would write it (no template syntax survives)."""
    return normalize("".join(" " if c in "[](){}<>|" else c for c in name))
