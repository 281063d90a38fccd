"""The table of global commands (voice/session/commands.py) agrees with every language's
grammar and prompts, and when a command is heard is what its row says."""

from __future__ import annotations

import pytest
import yaml

from games.engine import Setup
from voice.output.messages import Messages
from voice.output.sinks import RecordingOutput
from voice.session import commands
from voice.session.adapters import ADAPTERS, adapter_for
from voice.session.commands import COMMANDS, ROWS, UnknownCommand
from voice.session.session import Session
from voice.understanding.grammar import LANGUAGES
from voice.understanding.intents import Intent

GRAMMARS = "grammars"


def common_grammar(lang: str) -> dict:
    path = f"{GRAMMARS}/{lang}/common.yaml"
    with open(path, encoding="utf-8") as file:
        return yaml.safe_load(file)


def session(lang: str = "en") -> Session:
    adapter = adapter_for("alle-meine-farben")
    setup = Setup(("Anna", "Ben", "Cem"), 3, "Anna", adapter.default_options(lang))
    table = Session(adapter, lang, setup, RecordingOutput())
    table.start()
    return table


def said(table: Session) -> list[str]:
    return list(table.out.said)  # type: ignore[attr-defined]


def sentence(table: Session, intent: str) -> str:
    """A sentence of ``intent`` the recogniser could hear now."""
    phrases = table.grammar.phrases({intent}, limit=1)
    assert phrases, intent
    return phrases[0][0]


def test_the_languages_are_the_two_the_table_is_checked_against() -> None:
    assert set(LANGUAGES) == {"de", "en"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_global_intent_of_the_grammar_has_a_row_with_a_handler(lang: str) -> None:
    grammar = common_grammar(lang)
    for intent in grammar["global_intents"]:
        assert intent in COMMANDS, f"{lang}: global intent {intent} has no session command"
        assert callable(COMMANDS[intent].handler)
    assert len(COMMANDS) == len(ROWS), "one row per intent"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_row_is_a_global_intent_with_sentences_in_every_language(lang: str) -> None:
    grammar = common_grammar(lang)
    for row in ROWS:
        assert row.intent in grammar["global_intents"], f"{lang}: {row.intent}"
        assert grammar["intents"][row.intent]["data"], f"{lang}: {row.intent} has no sentences"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(ADAPTERS))
def test_every_message_key_of_the_session_is_in_the_prompts(lang: str, game: str) -> None:
    messages = Messages(lang, game, ADAPTERS[game].terms(lang))
    keys = {k for row in ROWS for k in (*row.says, *row.tells)} | Session.ANSWER_KEYS
    missing = sorted(k for k in keys if not messages.has(k))
    assert not missing, f"{lang}/{game}: no prompt for {missing}"


def test_a_global_intent_without_a_row_stops_the_session_before_it_starts(monkeypatch) -> None:
    monkeypatch.setattr(commands, "COMMANDS", {k: v for k, v in COMMANDS.items() if k != "score"})
    with pytest.raises(UnknownCommand, match="score"):
        session()


def test_an_intent_without_a_row_is_an_error_not_silence(monkeypatch) -> None:
    table = session()
    monkeypatch.setattr(commands, "COMMANDS", {k: v for k, v in COMMANDS.items() if k != "score"})
    with pytest.raises(UnknownCommand, match="score"):
        table._handle(Intent("score"), 1.0, table.phase())


@pytest.mark.parametrize("row", ROWS, ids=[row.intent for row in ROWS])
def test_while_paused_only_the_rows_heard_in_a_pause_are_answered(row) -> None:
    table = session()
    still_paused = table.messages.render("still_paused")
    table.hear(sentence(table, "pause"))
    assert table.paused
    table.hear(sentence(table, row.intent))
    if row.while_paused:
        assert said(table)[-1] != still_paused, row.intent
    else:
        assert said(table)[-1] == still_paused, row.intent


@pytest.mark.parametrize("row", ROWS, ids=[row.intent for row in ROWS])
def test_while_a_question_waits_only_the_rows_heard_then_are_answered(row) -> None:
    table = session()
    yes_or_no = table.messages.render("yes_or_no")
    table.hear(sentence(table, "quit"))
    assert table.awaiting == ("quit", None)
    table.hear(sentence(table, row.intent))
    if row.while_asking:
        assert said(table)[-1] != yes_or_no, row.intent
    else:
        assert said(table)[-1] == yes_or_no, row.intent
    assert not table.finished


def test_the_phase_hears_exactly_the_rows_marked_for_it() -> None:
    table = session()
    table.hear(sentence(table, "pause"))
    assert table.phase().intents == commands.HEARD_WHILE_PAUSED
    table.hear(sentence(table, "continue"))
    table.hear(sentence(table, "quit"))
    assert table.phase().intents == commands.HEARD_WHILE_ASKING | {"affirm", "deny"}


def test_in_a_pause_and_at_a_question_the_table_can_still_ask_and_leave() -> None:
    """What players rely on: in a pause and while yes or no is awaited, repeat, help,
    whose turn, the score, the speech rate and quit still answer; undo and pause wait
    (and "continue" only ends a pause)."""
    always = {"repeat", "help", "more_help", "whose_turn", "score", "slower", "faster", "quit"}
    assert always <= commands.HEARD_WHILE_ASKING
    assert always | {"continue"} <= commands.HEARD_WHILE_PAUSED
    assert not {"undo", "pause"} & (commands.HEARD_WHILE_ASKING | commands.HEARD_WHILE_PAUSED)
    assert "continue" not in commands.HEARD_WHILE_ASKING
