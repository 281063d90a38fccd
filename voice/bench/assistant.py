"""How well the assistant plays (issue 15): seeded simulated games, per level.

* Alle meine Farben (basic, cooperative): how often the table colours all 20 objects —
  a child alone with the assistant, and two children with it — against the same tables
  of children alone (no assistant) as the baseline.
* Farben: how many points the assistant scores against simulated people (a couple with
  the assistant as third seat, and three people with it as fourth).
* How long one decision of the assistant takes (its turns must not be slower than a
  person's).

Simulated people: in Alle meine Farben a child plays a random card of its hand that
fits (passing with a random card when none does); in Farben a person picks colours at
random, remembers another player's colour for sure with probability 0.55 (vaguely with
0.25, then a hint brings it back with 0.7), their own with 0.9, and guesses among the
colours not seen on stacks turned over already.

    python -m voice.bench.assistant [--games 200] [--out bench-results]

writes ``assistant.md`` and ``assistant.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.alle_meine_farben import CELLS, COPIES, AlleMeineFarben
from games.alle_meine_farben import COLOURS as AMF_COLOURS
from games.assistant import Notes, next_turn
from games.engine import Action, Setup
from games.farben import COLOURS, DECKS, Farben, key
from games.seat import LEVELS, seat_of

NAME = "Robo"
PEOPLE = ("Anna", "Ben", "Cem")

# --- simulated people in Farben ---------------------------------------------------------
SURE, VAGUE, OWN, AFTER_HINT = 0.55, 0.25, 0.9, 0.7


class Person:
    """A simulated Farben player: memories drawn once per (word, owner), seeded."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.seed = seed

    def _rng(self, *parts: Any) -> random.Random:
        return random.Random(":".join(str(p) for p in (self.seed, self.name, *parts)))

    def memory(self, word: str, owner: str) -> str:
        draw = self._rng("memory", key(word), owner).random()
        if owner == self.name:
            return "sure" if draw < OWN else "lost"
        return "sure" if draw < SURE else "vague" if draw < SURE + VAGUE else "lost"

    def recalls_after_hint(self, word: str, owner: str) -> bool:
        return self._rng("hint", key(word), owner).random() < AFTER_HINT

    def guess(self, game: Farben, owner: str) -> str:
        seen = {
            s.colours[owner] for s in game.stacks if s is not game.stack and owner in s.revealed
        }
        options = [c for c in COLOURS if c not in seen] or list(COLOURS)
        assert game.stack is not None  # a colour is guessed while a stack is named
        return self._rng("guess", key(game.stack.word), owner).choice(options)


def _person_action(game: Farben, people: dict[str, Person], rng: random.Random) -> Action:
    phase = game.stage
    if phase == "side":
        return Action("side", {"side": rng.randint(1, 2)})
    if phase == "choosing":
        return Action("ready")
    if phase == "reveal":
        return Action("reveal", {"colour": rng.choice(game.colours_in_hand(game.teller))})
    if phase == "story":
        return Action("done")
    if phase == "choose_stack":
        left = [s.word for s in game.stacks if s.scored_by is None]
        return Action("stack", {"word": rng.choice(left)})
    assert phase == "naming" and game.stack is not None
    word = game.stack.word
    if game.hint_pending is not None:
        owner = game.hint_pending
        if owner != NAME and people[owner].memory(word, owner) != "sure":
            return Action("forgot")  # the owner does not remember: no hint
        namer = people[game.namer]
        if namer.recalls_after_hint(word, owner):
            return Action("name", {"player": owner, "colour": game.stack.colours[owner]})
        return Action("name", {"player": owner, "colour": namer.guess(game, owner)})
    namer = people[game.namer]
    owner = game.unnamed()[0]
    state = namer.memory(word, owner)
    if state == "sure":
        return Action("name", {"player": owner, "colour": game.stack.colours[owner]})
    can_ask = owner != namer.name and owner not in game.hinted and owner not in game.forgot
    if state == "vague" and can_ask:
        return Action("hint", {"player": owner})
    return Action("name", {"player": owner, "colour": namer.guess(game, owner)})


def play_farben(setup: Setup, timings: list[float]) -> dict[str, int]:
    """One simulated Farben game; returns the scores."""
    seat = seat_of(setup)
    assert seat is not None
    rng = random.Random(f"farben-table:{setup.seed}")
    people = {p: Person(p, setup.seed) for p in setup.players if p != NAME}
    game = Farben(setup)
    game.start()
    game.apply(Action("first", {"player": rng.choice(setup.players)}))
    notes = Notes()
    for _ in range(2000):
        if game.is_over():
            break
        started = time.perf_counter()
        turn = next_turn(game, seat, notes)
        timings.append(time.perf_counter() - started)
        if turn is not None and turn.action is not None:
            game.apply(turn.action)
            continue
        if game.stage == "naming" and game.namer == NAME and game.hint_pending is not None:
            owner = game.hint_pending
            assert game.stack is not None  # naming: a stack is being named
            if people[owner].memory(game.stack.word, owner) == "sure":
                notes.hint_heard = True  # the person says their hint word
            else:
                game.apply(Action("forgot"))
            continue
        game.apply(_person_action(game, people, rng))
    assert game.is_over()
    return dict(game.scores)


# --- simulated children in Alle meine Farben -------------------------------------------------
def play_amf(
    players: Sequence[str], seed: int, level: str | None, timings: list[float]
) -> tuple[int, int]:
    """One simulated basic game with a real shuffled box; returns the objects coloured
    and the passes the table made (every pass costs a card the table may need later)."""
    options: dict[str, Any] = {"variant": "basic"}
    if level is not None:
        options["assistant"] = {"name": NAME, "level": level}
    setup = Setup(tuple(players), seed, players[0], options)
    seat = seat_of(setup)
    rng = random.Random(f"amf-table:{seed}")
    deck = [c for c in AMF_COLOURS for _ in range(COPIES)]
    rng.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(3)] for p in players}
    game = AlleMeineFarben(setup)
    game.start()
    passes = 0
    for _ in range(500):
        if game.is_over():
            break
        if game.waiting_cards:
            assert seat is not None
            known = len(game.face_up)
            game.apply(Action("cards", {"colours": hands[seat.name][known:]}))
            continue
        player = game.turn
        turn = None
        if seat is not None and player == seat.name:
            started = time.perf_counter()
            turn = next_turn(game, seat)
            timings.append(time.perf_counter() - started)
        if turn is not None and turn.action is not None:
            action = turn.action
        else:
            fits = [c for c in hands[player] if c in game.allowed_colours()]
            action = Action("place", {"colour": rng.choice(fits)}) if fits else Action("pass")
        colour = action.args.get("colour") or rng.choice(hands[player])
        game.apply(action)
        passes += action.name == "pass"
        hands[player].remove(str(colour))
        if deck:
            hands[player].append(deck.pop())
    assert game.is_over()
    return len(game.board), passes


# --- the measurement ----------------------------------------------------------------------
def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "median_ms": round(1000 * statistics.median(ordered), 3),
        "p95_ms": round(1000 * p95, 3),
        "max_ms": round(1000 * ordered[-1], 3),
    }


def measure(games: int) -> dict[str, Any]:
    results: dict[str, Any] = {"games_per_level": games, "amf": {}, "farben": {}}
    # Alle meine Farben
    tables = {"child+assistant": ("Mia",), "2 children+assistant": ("Mia", "Lea")}
    baselines = {"child+assistant": ("Mia", "Lea"), "2 children+assistant": ("Mia", "Lea", "Max")}
    for table, children in tables.items():
        row: dict[str, Any] = {}
        base = [play_amf(baselines[table], seed, None, []) for seed in range(games)]
        row["baseline_children_only"] = {
            "players": len(baselines[table]),
            "won": round(sum(c == CELLS for c, _ in base) / games, 3),
            "mean_coloured": round(statistics.mean(c for c, _ in base), 2),
            "mean_passes": round(statistics.mean(p for _, p in base), 2),
        }
        for level in LEVELS:
            timings: list[float] = []
            coloured = [play_amf((*children, NAME), seed, level, timings) for seed in range(games)]
            row[level] = {
                "won": round(sum(c == CELLS for c, _ in coloured) / games, 3),
                "mean_coloured": round(statistics.mean(c for c, _ in coloured), 2),
                "mean_passes": round(statistics.mean(p for _, p in coloured), 2),
                "decision": _ms(timings),
            }
        results["amf"][table] = row
    # Farben
    for people in (PEOPLE[:2], PEOPLE[:3]):
        table = f"{len(people)} people+assistant"
        row = {}
        for level in LEVELS:
            timings = []
            mine: list[int] = []
            theirs: list[float] = []
            wins = 0
            for seed in range(games):
                setup = Setup(
                    (*people, NAME),
                    seed,
                    None,
                    {"deck": DECKS[seed % 2], "assistant": {"name": NAME, "level": level}},
                )
                scores = play_farben(setup, timings)
                mine.append(scores[NAME])
                others = [scores[p] for p in people]
                theirs.append(statistics.mean(others))
                wins += scores[NAME] >= max(others)
            row[level] = {
                "assistant_mean": round(statistics.mean(mine), 2),
                "assistant_median": statistics.median(mine),
                "people_mean": round(statistics.mean(theirs), 2),
                "ratio": round(statistics.mean(mine) / statistics.mean(theirs), 3),
                "assistant_wins_or_ties": round(wins / games, 3),
                "decision": _ms(timings),
            }
        results["farben"][table] = row
    return results


def report(results: dict[str, Any], command: str) -> str:
    n = results["games_per_level"]
    lines = [
        "# The assistant as a player: simulated games",
        "",
        f"{n} seeded games per level and table. Reproduce with `{command}`.",
        "",
        "## Alle meine Farben (basic): share of games in which all 20 objects are coloured",
        "",
        "| table | children only (baseline) | easy | normal | hard |",
        "|---|---|---|---|---|",
    ]
    for table, row in results["amf"].items():
        base = row["baseline_children_only"]
        cells = [
            f"{row[level]['won']:.1%} ({row[level]['mean_coloured']}; {row[level]['mean_passes']})"
            for level in LEVELS
        ]
        lines.append(
            f"| {table} | {base['won']:.1%} ({base['mean_coloured']}; {base['mean_passes']}; "
            f"{base['players']} children) | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "(in brackets: objects coloured and passes per game, on average; every pass costs the",
        "table a card, and running out of cards is how most lost games end)",
        "",
        "## Farben: the assistant's points against simulated people",
        "",
        "| table | level | assistant mean (median) | people mean | ratio | wins or ties |",
        "|---|---|---|---|---|---|",
    ]
    for table, row in results["farben"].items():
        for level in LEVELS:
            r = row[level]
            lines.append(
                f"| {table} | {level} | {r['assistant_mean']} ({r['assistant_median']}) | "
                f"{r['people_mean']} | {r['ratio']} | {r['assistant_wins_or_ties']:.1%} |"
            )
    lines += [
        "",
        "## Time for one decision of the assistant",
        "",
        "| game | table | level | median ms | p95 ms | max ms |",
        "|---|---|---|---|---|---|",
    ]
    for game in ("amf", "farben"):
        for table, row in results[game].items():
            for level in LEVELS:
                d = row[level]["decision"]
                lines.append(
                    f"| {game} | {table} | {level} | {d['median_ms']} | {d['p95_ms']} | "
                    f"{d['max_ms']} |"
                )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.assistant", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per level (200)")
    parser.add_argument("--out", type=Path, default=Path("bench-results"), help="output folder")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    results = measure(args.games)
    args.out.mkdir(parents=True, exist_ok=True)
    command = f"python -m voice.bench.assistant --games {args.games}"
    (args.out / "assistant.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    (args.out / "assistant.md").write_text(report(results, command), "utf-8")
    print(report(results, command), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
