"""Voice adapter of Alle meine Farben: options, object names, intents → actions."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from games.alle_meine_farben import VARIANTS, AlleMeineFarben
from games.data import load
from voice.adapters.base import GameAdapter, UsageError
from voice.messages import Term, TermMaker, console_text

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
    queries = frozenset(
        {"allowed_colours", "board_row", "board_column"}
        | {"where_is", "object_colour", "placed", "whole_board"}
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--variant",
            default="basic",
            metavar="|".join(VARIANTS),
            help="basic: play together (default); profi: everyone for themselves, "
            "cards face down, penalty points at the reveal",
        )

    def options(self, args: argparse.Namespace, lang: str) -> dict[str, Any]:
        variant = (getattr(args, "variant", None) or "basic").strip().lower()
        if variant in ("pro", "profivariante"):
            variant = "profi"
        if variant not in VARIANTS:
            variants = ", ".join(VARIANTS)
            text = console_text("variant_unknown", variant=args.variant, variants=variants)
            raise UsageError(text)
        return {"variant": variant}

    def terms(self, lang: str) -> Mapping[str, TermMaker]:
        obj = object_term(lang)
        return {"number": obj, "other": obj, "named": obj, "hidden": obj}
