"""Voice adapter of Alle meine Farben: options, object names, intents → actions."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from games.alle_meine_farben import VARIANTS, AlleMeineFarben
from games.data import load
from games.engine import Action, Game
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
            return Term({f: str(number) for f in ("", "nom", "Nom", "acc", "dat", "name")})
        entry = objects[number - 1]
        if lang == "de":
            nom, acc, dat = (f"{a} {entry['de']}" for a in _ARTICLES[entry["gender"]])
            name = entry["de"]
        else:
            nom = acc = dat = f"the {entry['en']}"
            name = entry["en"]
        return Term(
            {
                "": str(number),
                "nom": nom,
                "Nom": nom[:1].upper() + nom[1:],
                "acc": acc,
                "dat": dat,
                "name": name,
            }
        )

    return make


class AlleMeineFarbenAdapter(GameAdapter):
    game_id = "alle-meine-farben"
    default_lang = "de"
    engine = AlleMeineFarben
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

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        obj = object_term(lang)
        colour = colour_term(lang)
        cards = {k: colour for k in ("hand", "known", "cards", "assistant_cards")}
        return {"number": obj, "other": obj, "named": obj, "hidden": obj, **cards}
