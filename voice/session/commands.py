"""The session's global commands, as a table: one row per intent of ``global_intents`` in
``grammars/<lang>/common.yaml`` - its handler, whether it is heard while the game is
paused or while a yes/no question waits, and the message keys it says.

A new global command is one :class:`Command` row and its handler here, its sentences in
every language's ``grammars/<lang>/common.yaml`` (and its name in ``global_intents``) and
its lines in every language's ``voice/output/prompts/<lang>/common.yaml``
(``tests/test_session_commands.py`` checks that they agree).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import Event
from voice.output.rate import MAX_RATE, MIN_RATE, RATE_STEP
from voice.session.core import Phase, Table
from voice.session.dialogue import CORRECTION, Dialogue

HELP_ITEMS = 2
"""How many moves "help" names; "more help" tells the rest and the questions."""


@dataclass(frozen=True)
class Call:
    """One global command heard: at which table, in which phase, with which slots."""

    table: Table
    dialogue: Dialogue
    phase: Phase
    """What was listened for when it was heard."""
    slots: Mapping[str, Any]


Handler = Callable[[Call], None]


@dataclass(frozen=True)
class Command:
    """One global command."""

    intent: str
    """Its intent in ``grammars/<lang>/common.yaml``."""
    handler: Handler
    while_paused: bool
    """Heard while the game is paused."""
    while_asking: bool
    """Heard while farbspiel waits for yes or no."""
    says: tuple[str, ...] = ()
    """Message keys of its answers (recorded as what it did, not as events)."""
    tells: tuple[str, ...] = ()
    """Message keys it says that are recorded like the game's events."""


class UnknownCommand(LookupError):
    """A global intent of the grammar has no row in :data:`COMMANDS` (a programming error:
    ``tests/test_session_commands.py`` finds it first)."""


# --- the handlers --------------------------------------------------------------------
def _repeat(call: Call) -> None:
    table = call.table
    lines = table.last_response or [
        t for e in table.game.prompt() if e.to is None and (t := table.render(e)) is not None
    ]
    for text in lines:
        table.say_line(text)


def _help(call: Call) -> None:
    _say_help(call, more=False)


def _more_help(call: Call) -> None:
    _say_help(call, more=True)


def _say_help(call: Call, more: bool) -> None:
    """Help names the (at most :data:`HELP_ITEMS`) moves that can be made now;
    "more help" the other moves, the questions and the commands of every moment."""
    table, intents = call.table, call.phase.intents
    if table.paused:
        table.respond([Event("help_paused")])
        return
    data: dict[str, Any] = {}
    for event in table.game.prompt():
        if event.to is None:
            data.update(event.data)
    moves: list[str] = []
    questions: list[str] = []
    adapter, grammar = table.adapter, table.grammar
    asking = adapter.queries | adapter.status_intents | adapter.help_later
    for intent in grammar.intents.intents:  # file order: stable and sensible
        if (
            intent in intents
            and intent not in grammar.global_intents
            and intent not in grammar.quiet_intents
            and intent != CORRECTION
        ):
            text = table.messages.render("help_" + intent, data)
            if text:
                (questions if intent in asking else moves).append(text)
    if CORRECTION in intents:  # last: it is about the move before
        text = table.messages.render("help_" + CORRECTION, data)
        questions += [text] if text else []
    if more:
        table.respond([Event("more_help", {"items": moves[HELP_ITEMS:] + questions})])
    else:
        table.respond([Event("help", {"items": moves[:HELP_ITEMS]})])


def _whose_turn(call: Call) -> None:
    """ "Is it Ben's turn?": yes or no first, when somebody in particular acts now; then
    the turn's prompt (who and what)."""
    game, named = call.table.game, call.slots.get("player")
    current = game.current_player()
    answer: list[Event] = []
    if isinstance(named, str) and current is not None:
        if named == current:
            answer = [Event("turn_yes", {"player": named})]
        else:
            answer = [Event("turn_no", {"player": named, "current": current})]
    call.table.respond(answer + game.prompt())


def _score(call: Call) -> None:
    call.table.respond(call.table.game.status())


def _undo(call: Call) -> None:
    call.dialogue.ask_undo()


def _quit(call: Call) -> None:
    call.dialogue.ask_quit()


def _pause(call: Call) -> None:
    table = call.table
    if table.paused:
        table.respond([Event("still_paused")])
        return
    table.paused = True
    table.timers.pause()
    # the table view stops its clocks; a game resumed from here goes on in the pause,
    # its timers where they stood
    _pause_changed(table, "paused", lambda: [])


def _continue(call: Call) -> None:
    table = call.table
    if not table.paused:
        table.respond([Event("not_paused")])
        return
    table.paused = False
    table.timers.go_on()
    _pause_changed(table, "continued", table.game.prompt)


def _pause_changed(table: Table, key: str, then: Callable[[], list[Event]]) -> None:
    """The pause began or ended (``key``): journal it, record it, say it and ``then``."""
    table.write_journal(lambda j: j.append_settings(table.pause_settings()))
    table.out.record({"type": key})
    table.respond([Event(key)] + then())


def _slower(call: Call) -> None:
    _change_rate(call.table, -RATE_STEP)


def _faster(call: Call) -> None:
    _change_rate(call.table, RATE_STEP)


def _change_rate(table: Table, step: int) -> None:
    rate = max(MIN_RATE, min(MAX_RATE, table.rate + step))
    if rate == table.rate:
        table.respond([Event("rate_slowest" if step < 0 else "rate_fastest")])
        return
    table.rate = rate
    table.out.set_rate(rate)
    table.write_journal(lambda j: j.append_setting("rate", rate))
    table.out.record({"type": "rate", "wpm": rate})
    table.respond([Event("rate_slower" if step < 0 else "rate_faster")])


def _disconnect_phone(call: Call) -> None:
    """ "Disconnect Anna's phone": a wrong claim undone; that player's private page is shut
    to the phone that had it, and any phone may pick the name again."""
    from voice.session.phones import release

    table, player = call.table, str(call.slots["player"])
    done = table.journal is not None and release(table.journal.path, player)
    if done and table.phones is not None:
        table.phones.forget(player)
    table.out.record({"type": "phone_disconnected", "player": player, "done": done})
    table.respond(
        [Event("phone_disconnected" if done else "phone_not_connected", {"player": player})]
    )


# --- the table -----------------------------------------------------------------------
ROWS: tuple[Command, ...] = (
    Command("repeat", _repeat, while_paused=True, while_asking=True),
    Command("help", _help, True, True, says=("help", "help_paused")),
    Command("more_help", _more_help, True, True, says=("more_help", "help_paused")),
    Command("whose_turn", _whose_turn, True, True, tells=("turn_yes", "turn_no")),
    Command("score", _score, True, True),
    Command("undo", _undo, False, False, says=("confirm_undo", "nothing_to_undo", "undo_revealed")),
    Command("pause", _pause, False, False, says=("paused", "still_paused")),
    Command("continue", _continue, True, False, says=("continued", "not_paused")),
    Command("slower", _slower, True, True, says=("rate_slower", "rate_slowest")),
    Command("faster", _faster, True, True, says=("rate_faster", "rate_fastest")),
    Command(
        "disconnect_phone",
        _disconnect_phone,
        True,
        True,
        says=("phone_disconnected", "phone_not_connected"),
    ),
    Command(
        "quit",
        _quit,
        True,
        True,
        says=("confirm_quit", "confirm_quit_unsaved", "confirm_quit_save_failed"),
    ),
)

COMMANDS: Mapping[str, Command] = {row.intent: row for row in ROWS}
"""The rows by intent."""

HEARD_WHILE_PAUSED = frozenset(row.intent for row in ROWS if row.while_paused)
HEARD_WHILE_ASKING = frozenset(row.intent for row in ROWS if row.while_asking)
ANSWER_KEYS = frozenset(key for row in ROWS for key in row.says)
"""The message keys of the commands' answers (not recorded as events)."""


def check(intents: Iterable[str]) -> None:
    """Every one of ``intents`` (a grammar's global intents) has a row."""
    missing = sorted(set(intents) - COMMANDS.keys())
    if missing:
        raise UnknownCommand(f"global intents without a session command: {missing}")


def run(name: str, call: Call) -> None:
    """Run the global command ``name``."""
    command = COMMANDS.get(name)
    if command is None:
        raise UnknownCommand(f"no session command for the global intent {name!r}")
    command.handler(call)
