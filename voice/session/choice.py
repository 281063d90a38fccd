"""The choice question: where two readings of a move compete ("lila" or "rosa", the
recogniser nearly as sure of either), farbspiel asks "Meinst du lila oder rosa?" instead of
yes or no (issue 25, item 1).

The answer is one of the two colours, said as the move is ("lila", "den Ball rosa": that
move is made), "nein" or "keins davon" (nothing is made), or "nein, doch gelb" (that colour,
asked about in turn). "ja" or another colour asks again which of the two; commands are
heard as while a yes/no question waits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine import Action, Event, GameError
from voice.session.core import Phase, Question, Table

SLOT = "colour"
"""The slot two readings may differ in to be asked as a choice."""

KEYS = frozenset({"confirm_choice", "choose_one"})
"""The message keys the choice question says."""


@dataclass
class ChoiceQuestion(Question):
    """ "Meinst du lila oder rosa?": ``action`` (the likelier reading) or ``other``, both
    said with the intent ``intent`` (heard while asked: "lila", "den Ball rosa")."""

    kind: ClassVar[str] = "choice"
    action: Action
    other: Action
    intent: str

    def values(self) -> tuple[Any, Any]:
        return self.action.args[SLOT], self.other.args[SLOT]


def differs_in_colour(action: Action, other: Action) -> bool:
    """Are ``action`` and ``other`` the same move with another colour?"""
    if action.name != other.name or set(action.args) != set(other.args):
        return False
    differing = {k for k in action.args if action.args[k] != other.args[k]}
    return differing == {SLOT} and all(isinstance(a.args[SLOT], str) for a in (action, other))


def ask(table: Table, action: Action, other: Action, intent: str) -> bool:
    """Ask "Meinst du lila oder rosa?"; False (nothing asked) if ``other`` is no move
    with another colour or the game would not allow it now."""
    if not differs_in_colour(action, other):
        return False
    try:
        table.rebuild(table.actions).apply(other)
    except GameError:
        return False
    question = ChoiceQuestion(action, other, intent)
    table.question = question
    public = [table.game.public(a).to_json() for a in (action, other)]
    table.out.record({"type": "confirm", "what": "choice", "action": public[0], "other": public[1]})
    say(table, question, "confirm_choice")
    return True


def phase(table: Table, question: ChoiceQuestion, intents: frozenset[str]) -> Phase:
    """What is heard while the choice waits: ``intents`` and the move's own sentences, with
    the slots the game expects ("lila", "den Ball rosa")."""
    slots = {k: tuple(v) for k, v in table.game.expecting().slots.items()}
    return Phase(intents | {question.intent}, slots)


def say(table: Table, question: ChoiceQuestion, key: str) -> None:
    table.respond([Event(key, {"colours": list(question.values())})])


def picked(question: ChoiceQuestion, slots: Mapping[str, Any]) -> Action | None:
    """The move ``slots`` chose ("lila"), or None if it names neither colour."""
    colour = slots.get(SLOT)
    for action in (question.action, question.other):
        if colour == action.args[SLOT]:
            return action
    return None


def answered(
    table: Table,
    question: ChoiceQuestion,
    name: str,
    slots: Mapping[str, Any],
    phase: Phase,
    apply: Callable[[Action], None],
) -> bool:
    """Handle ``name`` said to the choice: one of the two colours makes that move (with
    ``apply``), "ja", another colour or what is no answer asks again which. False for
    "nein" and "nein, doch gelb" (answered as for the yes/no question) and commands."""
    if name in {"affirm", question.intent}:
        chosen = picked(question, slots)
        if chosen is None:  # "ja" or another colour: which of the two?
            say(table, question, "choose_one")
        else:
            table.question = None
            apply(chosen)
        return True
    if name not in phase.intents:
        say(table, question, "choose_one")
        return True
    return False
