"""Names no player can have: a name that, said alone, is a command ("Pause", "Hilfe",
"help") or, where colours are named on their own (Farben), a colour ("Rosa"). Nobody
could call that player, and calling them would pause the game instead. One check for the
command line (``play --players``) and the set-up by talking."""

from __future__ import annotations

from typing import Any

from games.engine import Setup
from voice.output.messages import console_text
from voice.session.adapters import ADAPTERS, adapter_for
from voice.understanding.grammar import Grammar
from words.text import normalize

YES_NO = ("affirm", "deny")


def player_name_problem(adapter: Any, lang: str, setup: Setup) -> str | None:
    """Why one of ``setup.players`` cannot be a player's name in this game, or None."""
    from hassil import recognize_all

    grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
    for name in setup.players:
        for result in recognize_all(
            normalize(name), grammar.intents, slot_lists=grammar.slot_lists, language=lang
        ):
            entities = result.entities
            if result.intent.name in grammar.global_intents or result.intent.name in YES_NO:
                return console_text("player_is_command", name=name, command=name)
            if adapter.names_with_colours and "colour" in entities and "player" not in entities:
                return console_text("player_is_colour", name=name)
    return None


def command_name_problem(lang: str, players: tuple[str, ...]) -> str | None:
    """Before the game is known: a name that is a command in every game ("Pause")."""
    game = next(g for g, a in ADAPTERS.items() if not a.names_with_colours)
    return player_name_problem(adapter_for(game), lang, Setup(players))
