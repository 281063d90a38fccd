"""Voice adapter of Alle meine Farben: options, object names, intents → actions."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from games.alle_meine_farben import VARIANTS, AlleMeineFarben
from games.data import load
from games.engine import JSON, Action, Event, Game, Setup
from games.seat import seat_of
from voice.output.messages import Term, TermMaker, colour_term
from voice.session.adapters.base import GameAdapter
from voice.understanding.intents import Intent

# German article forms by gender: nominative, accusative, dative.
_ARTICLES = {"m": ("der", "den", "dem"), "f": ("die", "die", "der"), "n": ("das", "das", "dem")}


def object_term(lang: str) -> TermMaker:
    """Object numbers → "der Hut" / "den Hut" / "dem Hut" / "the hat" (``""``: the number)."""
    objects = load("alle_meine_farben")["objects"]

    def make(number: Any) -> Term:
        if not isinstance(number, int) or not 1 <= number <= len(objects):
            forms = ("", "nom", "Nom", "acc", "dat", "name", "from")
            return Term({f: str(number) for f in forms})
        entry = objects[number - 1]
        if lang == "de":
            nom, acc, dat = (f"{a} {entry['de']}" for a in _ARTICLES[entry["gender"]])
            name = entry["de"]
            source = f"von der {name}" if entry["gender"] == "f" else f"vom {name}"
        else:
            nom = acc = dat = f"the {entry['en']}"
            name = entry["en"]
            source = f"from the {name}"
        return Term(
            {
                "": str(number),
                "nom": nom,
                "Nom": nom[:1].upper() + nom[1:],
                "acc": acc,
                "dat": dat,
                "name": name,
                "from": source,
            }
        )

    return make


_CARD_MOVES = frozenset({"placed", "placed_hidden", "passed"})
"""Events of a card leaving a hand (and perhaps one drawn): undo sends them back."""


class AlleMeineFarbenAdapter(GameAdapter):
    game_id = "alle-meine-farben"
    default_lang = "de"
    engine = AlleMeineFarben
    table_view = "voice.display.views_alle_meine_farben"
    correctable = frozenset({"place"})
    said_back = frozenset({"first", "place"})

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--variant",
            default="basic",
            metavar="|".join(VARIANTS),
        )  # help texts: voice/output/prompts/<lang>/cli.yaml

    def options(self, args: argparse.Namespace, lang: str) -> dict[str, Any]:
        variant = (getattr(args, "variant", None) or "basic").strip().lower()
        if variant in ("pro", "profivariante"):
            variant = "profi"
        return {"variant": variant}  # the engine refuses a variant it does not know

    def action_for(self, intent: Intent, game: Game) -> Action:
        if intent.name == "assistant_cards":
            slots = intent.slots
            colours = [slots[k] for k in ("first", "second", "third") if k in slots]
            args: dict[str, Any] = {"colours": colours}
            if "player" in slots:
                args["player"] = slots["player"]
            return Action("cards", args)
        return super().action_for(intent, game)

    def table_undo(self, setup: Setup, moves: Sequence[Sequence[Event]]) -> list[Event]:
        """Newest first: the card laid goes back (to the hand, or face up before the
        assistant), the card put aside comes back, the card drawn goes back on the pile."""
        seat = seat_of(setup)
        told: list[Event] = []
        for events in reversed(moves):
            for event in events:
                if event.type not in _CARD_MOVES:
                    continue
                data: dict[str, JSON] = {
                    "player": event.data["player"],
                    "number": event.data["number"],
                    "seat": seat is not None and event.data["player"] == seat.name,
                }
                if "colour" in event.data:
                    data["colour"] = event.data["colour"]
                back = "table_discard_back" if event.type == "passed" else "table_card_back"
                if event.data.get("drew"):
                    told.append(Event("table_draw_back", dict(data)))
                told.append(Event(back, data))
        return told

    def table_correct(self, setup: Setup, move: Sequence[Event], fixed: Action) -> list[Event]:
        """The card on the object is swapped for the one meant (the card drawn stays)."""
        for event in move:
            if event.type in ("placed", "placed_hidden"):
                data: dict[str, JSON] = {
                    "player": event.data["player"],
                    "number": event.data["number"],
                    "profi": event.type == "placed_hidden",
                }
                if event.type == "placed":
                    data.update(old=event.data.get("colour"), colour=fixed.args.get("colour"))
                return [Event("table_card_swap", data)]
        return []

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        obj = object_term(lang)
        colour = colour_term(lang)
        cards = {k: colour for k in ("hand", "known", "cards", "assistant_cards", "old")}
        return {"number": obj, "other": obj, "named": obj, "hidden": obj, **cards}
