"""The games farbspiel can run, by command-line name."""

from __future__ import annotations

from voice.errors import UsageError
from voice.output.messages import console_text
from voice.session.adapters.alle_meine_farben import AlleMeineFarbenAdapter
from voice.session.adapters.base import GameAdapter
from voice.session.adapters.farben import FarbenAdapter
from voice.session.adapters.pantone import PantoneAdapter

ADAPTERS: dict[str, GameAdapter] = {
    adapter.game_id: adapter
    for adapter in (AlleMeineFarbenAdapter(), FarbenAdapter(), PantoneAdapter())
}


def adapter_for(game_id: str) -> GameAdapter:
    """The adapter of ``game_id``; a clear :class:`UsageError` for unknown names."""
    try:
        return ADAPTERS[game_id]
    except KeyError:
        text = console_text("unknown_game", game=game_id, games=", ".join(ADAPTERS))
        raise UsageError(text) from None


__all__ = ["ADAPTERS", "GameAdapter", "UsageError", "adapter_for"]
