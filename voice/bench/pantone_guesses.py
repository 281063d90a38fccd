"""Pantone guesses: how big the recogniser's phrase list is in a guess window, how long it
takes to build, how fast a guess is parsed and judged, and how the matcher decides on a
fixed corpus of recogniser-like utterances.

    python -m voice.bench.pantone_guesses [--out bench-results/pantone_guesses.json]

Writes the numbers as JSON (and prints them). Timings are medians and 95th percentiles
of repeated runs on whatever machine runs it; compare ratios, not absolute values.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from games.engine import Action, Setup
from games.name_match import names_card
from games.pantone import Pantone
from voice.output.sinks import NullOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session
from voice.understanding.grammar import Grammar

ROOT = Path(__file__).resolve().parents[2]

# (utterance, the deck name it must be understood as, or None: not a guess of any card)
CORPUS: dict[str, list[tuple[str, str | None]]] = {
    "en": [
        ("is it mister potato head", "Mr. Potato Head"),
        ("potato head", "Potato Head"),
        ("spiderman", "Spider-Man"),
        ("spider man", "Spider-Man"),
        ("is it harry porter", "Harry Potter"),
        ("sponge bob square pants", "SpongeBob SquarePants"),
        ("little red riding cap", "Little Red Riding Hood"),
        ("I think it's the grinch", "The Grinch"),
        ("pinochio", "Pinocchio"),
        ("is it dora", "Dora"),
        ("dory", "Dory"),
        ("is it the little mermaid", "The Little Mermaid"),
        ("spider woman", None),
        ("batgirl", None),
        ("wario", None),
        ("daisy duck", None),
        ("is it my turn", None),
        ("what a lovely picture", None),
        ("pass", None),
        ("how much time is left", None),
    ],
    "de": [
        ("ist es das sandmännchen", "Das Sandmännchen"),
        ("sand männchen", "Das Sandmännchen"),
        ("ist es pumuckel", "Pumuckl"),
        ("käptn blaubär", "Käpt'n Blaubär"),
        ("ich glaube das ist der grüffelo", "Der Grüffelo"),
        ("tick trick und track", "Tick, Trick und Track"),
        ("biene maja", "Biene Maja"),
        ("tiger", "Tiger"),
        ("tigger", "Tigger"),
        ("pippi langstrumpf", "Pippi Langstrumpf"),
        ("spider frau", None),
        ("daisy duck", None),
        ("trick", None),
        ("keine ahnung", None),
        ("das ist aber schön gemalt", None),
        ("wie viel zeit ist noch", None),
    ],
}


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(1000 * statistics.median(values), 2),
        "p95_ms": round(1000 * _percentile(values, 0.95), 2),
    }


def _build_times(lang: str, setup: Setup, repeats: int) -> list[float]:
    """Building the game's grammar and parser (what a new game or a resume costs)."""
    adapter = ADAPTERS["pantone"]
    builds = []
    for _ in range(repeats):
        start = time.perf_counter()
        grammar = Grammar(lang, "pantone", adapter.dynamic_lists(setup, lang))
        adapter.parser(grammar, setup)
        builds.append(time.perf_counter() - start)
    return builds


def _guess_window(lang: str, setup: Setup, repeats: int) -> tuple[Session, list[float], int]:
    """A session in Ben's guess window, the times to build its phrase list, its size."""
    phrase_times, phrase_count = [], 0
    for _ in range(repeats):
        session = Session(ADAPTERS["pantone"], lang, setup, NullOutput())
        session.start()
        session.game.apply(Action("choose", {"card": 1}))
        session.game.apply(Action("done"))
        start = time.perf_counter()
        phrase_count = len(session.phrases())
        phrase_times.append(time.perf_counter() - start)
    return session, phrase_times, phrase_count


def _parse_corpus(
    session: Session, lang: str, owner: dict[str, int], repeats: int
) -> tuple[list[float], int, list[dict[str, Any]]]:
    """Parse times of the corpus, how many are understood right, and the outcomes."""
    phase = session.phase()
    parse_times: list[float] = []
    right = 0
    outcomes = []
    for repeat in range(repeats):
        for text, expected in CORPUS[lang]:
            start = time.perf_counter()
            intent = session.parser.parse(text, phase.intents, phase.slots)
            parse_times.append(time.perf_counter() - start)
            got = intent.slots.get("character") if intent and intent.name == "guess" else None
            if repeat == 0:
                # None expected: the utterance names no card (in a guess window it is a
                # wrong guess in its own words, or another command)
                right += got == expected or (expected is None and got not in owner)
                outcomes.append({"text": text, "expected": expected, "got": got})
    return parse_times, right, outcomes


def _judge_times(game: Pantone, lang: str, owner: dict[str, int], repeats: int) -> list[float]:
    """Judge each guess against the card it names (the costly case: all other cards are
    then compared too), or against card 1 when it names none."""
    judge_times = []
    for _ in range(repeats):
        for text, expected in CORPUS[lang]:
            card = owner.get(expected, 0) if expected else 0
            start = time.perf_counter()
            names_card(text, card, game.forms)
            judge_times.append(time.perf_counter() - start)
    return judge_times


def run(lang: str, repeats: int) -> dict[str, Any]:
    options = ADAPTERS["pantone"].default_options(lang)
    setup = Setup(("Anna", "Ben", "Cem"), 1, "Anna", options)
    builds = _build_times(lang, setup, repeats)
    session, phrase_times, phrase_count = _guess_window(lang, setup, repeats)
    game = session.game
    assert isinstance(game, Pantone)
    owner = {form: index for index, forms in enumerate(game.forms) for form in forms}
    parse_times, right, outcomes = _parse_corpus(session, lang, owner, repeats)
    judge_times = _judge_times(game, lang, owner, repeats)
    return {
        "deck_cards": len(game.deck),
        "deck_names_and_aliases": sum(len(f) for f in game.forms),
        "grammar_and_parser_build": _ms(builds),
        "guess_window_phrases": phrase_count,
        "guess_window_phrase_list_build": _ms(phrase_times),
        "parse_per_utterance": _ms(parse_times),
        "judge_per_guess": _ms(judge_times),
        "corpus_size": len(CORPUS[lang]),
        "corpus_right": right,
        "corpus": outcomes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results" / "pantone_guesses.json")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    results = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "repeats": args.repeats,
        "languages": {lang: run(lang, args.repeats) for lang in CORPUS},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for lang, data in results["languages"].items():
        summary = {k: v for k, v in data.items() if k != "corpus"}
        print(lang, json.dumps(summary, ensure_ascii=False))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
