"""Golden sentence tests (after Home Assistant's intents repo): for every language and
game, ``tests/grammars/<lang>/<game>.yaml`` lists sentences with the intent and slots they
must give. ``tests/grammars/<lang>/_failures.yaml`` lists sentences we know we do not
understand yet; they are asserted to fail, so fixing one is noticed."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from games.engine import Setup
from voice.session.adapters import ADAPTERS
from voice.understanding.grammar import LANGUAGES, Grammar
from voice.understanding.intents import IntentParser

HERE = Path(__file__).parent / "grammars"


@cache
def parser(lang: str, game: str, players: tuple[str, ...]) -> IntentParser:
    adapter = ADAPTERS[game]
    setup = Setup(players, options=adapter.default_options(lang))
    return adapter.parser(Grammar(lang, game, adapter.dynamic_lists(setup, lang)), setup)


def cases(kind: str) -> list[tuple[str, str, str, tuple[str, ...], dict]]:
    found = []
    for path in sorted(HERE.glob(f"*/{kind}.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        lang = path.parent.name
        for block in doc["tests"]:
            for sentence in block["sentences"]:
                found.append(
                    (
                        lang,
                        block.get("game", doc.get("game")),
                        sentence,
                        tuple(doc.get("players", ["Anna", "Ben", "Cem"])),
                        block,
                    )
                )
    return found


GOLDEN = [c for game in ADAPTERS for c in cases(game)] + cases("common")
FAILURES = cases("_failures")


@pytest.mark.parametrize(
    ("lang", "game", "sentence", "players", "block"), GOLDEN, ids=[f"{c[0]}:{c[2]}" for c in GOLDEN]
)
def test_sentence_gives_intent(lang, game, sentence, players, block) -> None:
    intent = parser(lang, game, players).parse(sentence)
    assert intent is not None, f"not understood: {sentence!r}"
    assert intent.name == block["intent"]
    assert dict(intent.slots) == block.get("slots", {})


@pytest.mark.parametrize(
    ("lang", "game", "sentence", "players", "block"),
    FAILURES,
    ids=[f"{c[0]}:{c[2]}" for c in FAILURES],
)
def test_known_failure_still_fails(lang, game, sentence, players, block) -> None:
    intent = parser(lang, game, players).parse(sentence)
    wrong = (
        intent is None
        or intent.name != block.get("intent")
        or (dict(intent.slots) != block.get("slots", {}))
    )
    assert wrong, f"{sentence!r} is understood now: move it from _failures.yaml to the golden file"


def test_every_game_and_language_has_golden_sentences() -> None:
    for lang in LANGUAGES:
        assert (HERE / lang / "common.yaml").exists()
        for game in ADAPTERS:
            assert (HERE / lang / f"{game}.yaml").exists(), f"no golden sentences {lang}/{game}"


@pytest.mark.parametrize("text", ["", "   ", "!!!", "x" * 10_000, "ä" * 301, "\x00\x01\x02"])
def test_garbage_is_not_understood(text: str) -> None:
    for lang in LANGUAGES:
        for game in ADAPTERS:
            assert parser(lang, game, ("Anna", "Ben", "Cem")).parse(text) is None
