"""How Pantone moves saved by older formats read today (:attr:`Pantone.save_upgrades`).

Format 2 journals decisions, not what they were decided from: a guess carries the card it
was judged to name (``{"text": "mickey", "card": 2}``, ``"card": null`` for a name that is
no card of the deck), so a better name matcher never changes a saved game. Format 3 names
a timer by the clock it ends (``{"clock": "guess", "turn": "1.0", "round": 0, "side":
"Ben"}``) instead of a running number (``{"id": "guess-5"}``).
"""

from __future__ import annotations

from typing import Protocol

from games.engine import Action, Timer


class Pantone(Protocol):
    """What the upgrades read of :class:`games.pantone.Pantone` (which imports them)."""

    card: int | None

    @property
    def physical(self) -> bool: ...

    def timers(self) -> list[Timer]: ...

    def named_card(self, text: str) -> int | None: ...


def _clock_of(game: Pantone, action: Action) -> Action:
    """A format-1/2 timer (``{"id": "create-3"}``) as today's engine names it: the old
    engine accepted a timer only while it was the one running, so it is the clock due now."""
    if action.name != "timer" or "id" not in action.args:
        return action
    due = game.timers()
    if not due:
        raise ValueError("a timer ran out while no clock was running")
    return due[0].action


def decide_guess(game: Pantone, action: Action) -> tuple[Action, Action]:
    """Format 1 → 2: add the verdict to a guess, judged as format 1 did (the game as it
    was at that moment, the text matched once, now)."""
    if action.name == "guess" and "card" not in action.args and game.card is not None:
        if not game.physical and isinstance(action.args.get("text"), str):
            card = game.named_card(action.args["text"])
            action = Action("guess", {**action.args, "card": card})
    return action, _clock_of(game, action)


def name_clock(game: Pantone, action: Action) -> tuple[Action, Action]:
    """Format 2 → 3: a timer names the clock it ends instead of a running number."""
    clock = _clock_of(game, action)
    return clock, clock
