"""Farben's grammar: every intent has golden sentences, and every sentence a recogniser may
be given in a phase is understood as an intent of that phase."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from games.engine import Action, Setup
from voice.output.sinks import NullOutput
from voice.session.adapters.farben import FarbenAdapter
from voice.session.session import Session
from voice.understanding.grammar import LANGUAGES, Grammar

HERE = Path(__file__).parent / "grammars"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_farben_intent_has_golden_sentences(lang: str) -> None:
    doc = yaml.safe_load((HERE / lang / "farben.yaml").read_text(encoding="utf-8"))
    covered = {block["intent"] for block in doc["tests"]}
    grammar = Grammar(lang, "farben")
    assert grammar.game_intents - {"affirm", "deny"} <= covered


def phases(lang: str):
    """A session walked through every phase of a game (with a hint asked once)."""
    setup = Setup(("Anna", "Ben", "Cem"), 2, "Ben", {"deck": lang})
    session = Session(FarbenAdapter(), lang, setup, NullOutput())
    session.start()
    game = session.game
    seen: set[str] = set()
    while not game.is_over():
        phase = game.stage + (":hint" if game.hint_pending else "")
        if phase not in seen:
            seen.add(phase)
            yield phase, session
        actions = game.legal_actions()
        hints = [a for a in actions if a.name == "hint"]
        if game.stage == "naming" and hints and ":hint" not in "".join(seen):
            game.apply(hints[0])
        else:
            game.apply(next((a for a in actions if a.name != "hint"), Action("forgot")))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_the_recogniser_may_hear_is_understood_in_every_phase(lang: str) -> None:
    rng = random.Random(3)
    checked = 0
    for phase_name, session in phases(lang):
        phase = session.phase()
        phrases = session.phrases()
        assert phrases, phase_name
        for phrase in rng.sample(phrases, min(60, len(phrases))):
            intent = session.parser.parse(phrase, phase.intents, phase.slots)
            assert intent is not None and intent.name in phase.intents, (phase_name, phrase)
            checked += 1
    assert checked > 300
