"""Every prompt, rendered with the numbers 0, 1, 2 and 5, in both languages: the noun forms
fit the number (CLDR plural rules via Babel), no German prompt assumes a gender, terms
stay consistent, and no prompt carries words of the other language.

Data for the prompts comes from the golden playthroughs (real events), completed by the
samples below for prompts those games never reach.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voice.output.messages import Messages, _prompt_file
from voice.session.adapters import ADAPTERS

GOLDEN = Path(__file__).parent / "golden"
LANGS = ("de", "en")
NUMBERS = (0, 1, 2, 5)

COUNTS = frozenset(
    {
        "pile", "count", "coloured", "points", "seconds", "gained", "score", "turns_left",
        "copies", "stacks_each", "target", "time_limit", "left", "turns", "rounds", "free",
    }
)  # fmt: skip
"""Fields that count something: each is rendered with 0, 1, 2 and 5 ..."""
AT_LEAST_ONE = frozenset({"target", "stacks_each", "time_limit", "copies", "rounds", "turns"})
"""... except 0 for these, which the engines and the command line never let be 0 (a
target score, stacks per player, a time limit, copies of a colour)."""

SAMPLE: dict[str, Any] = {
    "player": "Anna", "players": ["Anna", "Ben"], "artist": "Anna", "namer": "Anna",
    "owner": "Ben", "chooser": "Ben", "teller": "Ben", "hint_from": "Ben", "by": "Ben",
    "others": ["Ben", "Cem"], "members": ["Ben", "Cem"], "scorers": ["Anna", "Ben"],
    "winners": ["Anna"], "order": [{"player": "Ben"}, {"player": "Cem"}], "hidden": ["Cem"],
    "colour": "purple", "truth": "blue", "colours": ["red", "blue"], "number": 3, "other": 2,
    "named": 5, "line": "row", "index": 2, "limit": 4, "word": "Schule", "stack": "Schule",
    "words": ["Schule", "Urlaub"], "card": 12, "name": "Pinocchio", "hint": "Holz",
    "guess": "Pinocchio", "text": "Pinocchio", "rule": "any", "modes": ["speed"],
    "team": "Team A", "scores": {"Anna": 3, "Ben": 1}, "penalties": {"Anna": 1, "Ben": 0},
    "items": ["„ja“"], "action": "Anna", "round": 3, "phase": 2, "turn": 1, "cells": 20,
    "hints": [{"number": 1, "hint": "Holz"}], "unnamed": [{"player": "Ben", "colour": "red"}],
    "cards": [{"player": "Ben", "colour": "red"}], "name_or_number": "12", "what": "create",
    "score_list": {"Anna": 1}, "option": "x", "value": 3, "low": 3, "high": 5, "deck": "x",
    "problems": "x", "teams": "Team A", "variant": "basic", "variants": ["basic"],
    "path": "/tmp/spiel.jsonl", "line_number": 4, "move": 3, "good": 2, "file": "x",
    "points": 3, "pile": 3, "count": 3, "coloured": 3, "seconds": 30, "gained": 3,
    "score": 3, "turns_left": 3, "copies": 4, "stacks_each": 2, "target": 20,
    "time_limit": 60, "turns": 3, "rounds": 10,
    "command": "farbspiel resume", "folder": "/tmp", "reason": "x", "option_name": "--x",
    "row": 1, "column": 2, "current": False, "state": "empty",
    "choices": "a, b", "found": "x", "game": "pantone", "copy": "/tmp/x", "key": "x",
    "assistant": "Robo",
    "said": 2, "names": ["Pinocchio", "Pinocchio"], "address": "192.168.1.20:8765", "place": 2,
}  # fmt: skip

# per game: fields whose meaning differs from SAMPLE
SAMPLE_BY_GAME: dict[str, dict[str, Any]] = {
    "alle-meine-farben": {
        "cells": 20,
    },
    "farben": {"left": ["Montag"], "cards": [{"player": "Ben", "colour": "red"}]},
    "pantone": {"cards": [{"card": 4, "name": "Pinocchio"}], "left": 2},
}
_BOARD_ITEMS = [{"colour": "yellow", "count": 2, "place": "top"}]
SAMPLE_BY_KEY: dict[str, dict[str, Any]] = {
    "confirm_undo_seat": {"seat": ["Robo"]},
    "table_card_swap": {"old": "blue"},
    "board_set": {"items": _BOARD_ITEMS},
    "board_is": {"items": _BOARD_ITEMS},
    "action_board": {"items": _BOARD_ITEMS},
    "board_item": dict(_BOARD_ITEMS[0]),
    "board_line": {
        "cells": [
            {"number": 1, "state": "coloured", "colour": "red"},
            {"number": 2, "state": "empty"},
            {"number": 3, "state": "empty"},
        ],
        "filled": [{"number": 1, "state": "coloured", "colour": "red"}],
        "hidden": [4, 5],
        "free": 2,
    },
    "placed_so_far": {
        "filled": [{"number": 1, "state": "coloured", "colour": "red"}],
        "hidden": [4, 5],
        "free": 2,
    },
    "welcome": {"cards": "number"},
    "card_rules": {"cards": "number"},
    "artist": {"cards": "deal"},
}

WORD_FORMS = {
    # (singular, plural) nouns that follow a number
    "de": [
        ("Karte", "Karten"), ("Punkt", "Punkte"), ("Sekunde", "Sekunden"),
        ("Wortkarte", "Wortkarten"), ("Figurenkarte", "Figurenkarten"),
        ("Hinweis", "Hinweise"), ("Strafpunkt", "Strafpunkte"), ("Gegenstand", "Gegenstände"),
        ("Farbkarte", "Farbkarten"), ("Zug", "Züge"),
    ],
    "en": [
        ("card", "cards"), ("point", "points"), ("second", "seconds"), ("stack", "stacks"),
        ("hint", "hints"), ("word card", "word cards"), ("swatch", "swatches"),
        ("penalty point", "penalty points"), ("object", "objects"), ("move", "moves"),
        ("character card", "character cards"),
    ],
}  # fmt: skip


def golden_data() -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(game, lang) → {key: [data, ...]} from the golden playthroughs' events."""
    found: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}
    for jsonl in sorted(GOLDEN.glob("*/*.jsonl")):
        header = jsonl.with_suffix(".script").read_text(encoding="utf-8").splitlines()[0]
        game = jsonl.parent.name
        lang = "de" if "--lang de" in header else "en" if "--lang en" in header else None
        if lang is None:
            lang = ADAPTERS[game].default_lang
        bucket = found.setdefault((game, lang), {})
        for line in jsonl.read_text(encoding="utf-8").splitlines():
            event = json.loads(line)
            kind = event.pop("type")
            if kind == "refused":
                kind = event.pop("reason")
            if kind in ("say", "private"):
                continue
            bucket.setdefault(kind, []).append(event)
    return found  # type: ignore[return-value]


GOLDEN_DATA = golden_data()


def fields_of(template: Any) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    names: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            continue
        for _, name, _, _ in string.Formatter().parse(text):
            if name:
                names.add(re.split(r"[.\[]", name)[0])
    return names


def conditions_of(template: Any) -> list[dict[str, Any]]:
    """Data that makes each case of a mapping template apply."""
    if not isinstance(template, dict):
        return [{}]
    out = []
    for condition in template:
        forced: dict[str, Any] = {}
        if condition != "default":
            for part in str(condition).split(","):
                name, _, value = part.strip().partition("=")
                if name.startswith("#"):
                    forced[name[1:]] = [SAMPLE["player"]] * int(value) if value else []
                elif "~" in name:
                    continue
                elif value in ("true", "false"):
                    forced[name] = value == "true"
                elif value == "None":
                    forced[name] = None
                elif value.isdigit():
                    forced[name] = int(value)
                else:
                    forced[name] = value
        out.append(forced)
    return out


def renderings(game: str, lang: str) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(key, data, text) for every prompt of ``game``, every case, every number."""
    adapter = ADAPTERS[game]
    messages = Messages(lang, game, adapter.terms(lang))
    real = GOLDEN_DATA.get((game, lang), {})
    for key, template in messages.templates.items():
        if key.startswith("_"):
            continue
        cases = template if isinstance(template, dict) else {}
        needed = fields_of(template) | {c.partition("=")[0].lstrip("#") for c in cases}
        base = {**SAMPLE, **SAMPLE_BY_GAME.get(game, {}), **SAMPLE_BY_KEY.get(key, {})}
        if "items" not in SAMPLE_BY_KEY.get(key, {}):
            base["items"] = ["„ja“"] if lang == "de" else ["“yes”"]
        for example in real.get(key, [])[:1] or [{}]:
            for forced in conditions_of(template):
                data = {f: base[f] for f in needed if f in base and f != "default"}
                data.update({k: v for k, v in example.items()})
                data.update(forced)
                counts = [f for f in needed if f in COUNTS and isinstance(data.get(f), int)]
                counts = [f for f in counts if f not in forced]
                for n in NUMBERS if counts else (None,):
                    filled = dict(data)
                    for f in counts:
                        filled[f] = max(n, 1) if f in AT_LEAST_ONE and n is not None else n
                    # the "score" of a player can be 0..5; so can the points in a list
                    text = messages.render(key, filled)
                    if text is not None:
                        yield key, filled, text


def _bad_number_forms(lang: str, text: str) -> list[str]:
    problems = []
    for singular, plural in WORD_FORMS[lang]:
        if re.search(rf"(?<![\d,.]) ?\b1 {re.escape(plural)}\b", text):
            problems.append(f"'1 {plural}'")
        if re.search(rf"\b[025] {re.escape(singular)}\b(?!n|e|s)", text):
            problems.append(f"a number other than 1 with '{singular}'")
        if re.search(rf"(?<![\d,.:]) \b0 {re.escape(plural)}\b|^0 {re.escape(plural)}", text):
            problems.append(f"'0 {plural}' (say 'none'/'kein')")
    if lang == "de" and re.search(r"\b1 von \d+ \w+ sind\b", text):
        problems.append("'1 von ... sind'")
    if lang == "en" and re.search(r"\b1 of \d+ \w+ are\b", text):
        problems.append("'1 of ... are'")
    if lang == "de" and re.search(r"\bJe 1 Punkte\b|\bsind noch 1\b", text):
        problems.append("singular after 1")
    return problems


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(ADAPTERS))
def test_every_prompt_fits_every_number(game: str, lang: str) -> None:
    problems = []
    rendered = set()
    for key, data, text in renderings(game, lang):
        rendered.add(key)
        for problem in _bad_number_forms(lang, text):
            problems.append(f"{key} {data}: {text!r}: {problem}")
    assert not problems, "\n".join(problems[:20])
    templates = {k for k in Messages(lang, game, ADAPTERS[game].terms(lang)).templates}
    silent = {k for k in templates if not k.startswith("_")} - rendered
    assert not silent, f"prompts never rendered by this test: {sorted(silent)}"


def test_plural_syntax_follows_babel() -> None:
    messages = Messages("de", "alle-meine-farben", ADAPTERS["alle-meine-farben"].terms("de"))
    messages.templates["t"] = "{n:plural:0=keine Karte|one=eine Karte|other=# Karten}"
    assert [messages.render("t", {"n": n}) for n in NUMBERS] == [
        "keine Karte",
        "eine Karte",
        "2 Karten",
        "5 Karten",
    ]
    messages.templates["c"] = {"n~one": "ein Stapel", "default": "{n} Stapel"}
    assert [messages.render("c", {"n": n}) for n in NUMBERS] == [
        "0 Stapel", "ein Stapel", "2 Stapel", "5 Stapel"
    ]  # fmt: skip


def test_status_says_the_pile_is_empty() -> None:
    for lang, empty in (("de", "Stapel ist leer"), ("en", "pile is empty")):
        messages = Messages(lang, "alle-meine-farben", ADAPTERS["alle-meine-farben"].terms(lang))
        data = {"variant": "basic", "coloured": 1, "cells": 20, "pile": 0}
        text = messages.render("status", data)
        assert empty in text, text
        assert " 0 " not in text


# --- wording --------------------------------------------------------------------------------
def _all_texts(lang: str) -> Iterator[tuple[str, str, str]]:
    for game in ADAPTERS:
        for key, _, text in renderings(game, lang):  # command-line options are no words
            yield game, key, re.sub(r"--[a-z-]+( (number|page|none))?", " ", text)
    for name in ("cli",):
        for key, value in _prompt_file(lang, name).items():
            for text in value.values() if isinstance(value, dict) else [value]:
                if isinstance(text, str):  # blanks, options and argparse's %s are no words
                    text = re.sub(r"\{[^}]*\}|--[a-z-]+|%\([a-z_]+\)[sr]|%s", " ", text)
                    yield name, key, text


GENDERED_DE = re.compile(
    r"\b(du bist (der |ein )?Künstler|der Künstler|Sie oder er|seine Karten|von dem, der"
    r"|jeder von euch|Jeder ist|Jeder spielt|Keiner|keiner)\b"
)


def test_german_prompts_do_not_assume_a_gender() -> None:
    found = [f"{g}/{k}: {t}" for g, k, t in _all_texts("de") if GENDERED_DE.search(t)]
    assert not found, "\n".join(found[:20])


def test_german_pantone_tells_guess_and_hint_apart() -> None:
    found = [f"{g}/{k}: {t}" for g, k, t in _all_texts("de") if g == "pantone" and "Tipp" in t]
    assert not found, "\n".join(found[:20])
    hints = [t for g, k, t in _all_texts("de") if g == "pantone" and k == "hint"]
    assert hints and all("Hinweis" in t for t in hints)


LOWER_COLOURS = "rot|gelb|grün|blau|lila|rosa|orange|weiß|schwarz|grau|braun|bunt"


def test_german_colour_nouns_are_capitalised() -> None:
    found = [
        f"{g}/{k}: {t}"
        for g, k, t in _all_texts("de")
        if re.search(rf"\b(die Farbe|in der Farbe|Karten in) ({LOWER_COLOURS})\b", t)
    ]
    assert not found, "\n".join(found[:20])


# A handful of everyday function words per language; a prompt of the other language that
# holds one of them is very likely untranslated. Names of games and commands are allowed.
ENGLISH_WORDS = frozenset(
    "the and or is are you your say said please card cards point points help yes no "
    "with without this that what which who there here now turn game saved file".split()
)
GERMAN_WORDS = frozenset(
    "der die das und oder ist sind du dein deine bitte karte karten punkt punkte hilfe "
    "ja nein mit ohne jetzt noch nicht wer welche spiel gespeichert datei".split()
)
ALLOWED = {
    "de": {"farbspiel", "resume", "play", "pantone", "farben", "alle", "meine", "cards"},
    "en": {"farbspiel", "alle", "meine", "farben", "pantone", "mein", "das"},
}
# the sample data's own words (player names, word cards) are not the prompt's
SAMPLE_WORDS = {"anna", "ben", "cem", "schule", "urlaub", "montag", "holz", "pinocchio"}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", text)}


@pytest.mark.parametrize("lang", LANGS)
def test_no_words_of_the_other_language(lang: str) -> None:
    foreign = ENGLISH_WORDS if lang == "de" else GERMAN_WORDS
    found = []
    for game, key, text in _all_texts(lang):
        stray = (_words(text) & foreign) - ALLOWED[lang] - SAMPLE_WORDS
        if lang == "de":  # "die", "das" etc. are German; only English-only words count
            stray -= GERMAN_WORDS
        else:
            stray -= ENGLISH_WORDS
        if stray:
            found.append(f"{game}/{key}: {sorted(stray)}: {text}")
    assert not found, "\n".join(found[:20])


# --- brevity, measured on real games --------------------------------------------------------
def test_help_says_what_can_be_said_now_in_about_20_words(tmp_path):
    """Help asked after every line of one golden game per game (the whole measurement of
    all games: ``python -m voice.bench.prompt_words``)."""
    from voice.bench.prompt_words import measure

    scripts = [
        GOLDEN / "alle-meine-farben" / "basic-de-won.script",
        GOLDEN / "farben" / "three-players-de.script",
        GOLDEN / "pantone" / "eigene-karten-de.script",
    ]
    result = measure(scripts)
    assert result["help_max_words"] <= 22, result["longest_help"]
    assert result["max_words"] <= 40


def test_prompts_say_type_to_a_keyboard_player():
    for lang, spoken, typed in (("de", "„fertig“ sagst", "„fertig“ schreibst"),
                                ("en", "you say “done”", "you type “done”")):  # fmt: skip
        messages = Messages(lang, "farben", ADAPTERS["farben"].terms(lang))
        data = {"colour": "blue", "player": "Lena", "explain": True}
        assert spoken in messages.render("colour_told", data)
        messages.typing = True
        assert typed in messages.render("colour_told", data)
        assert ("Schreib „Hilfe“" if lang == "de" else "Type “help”") in messages.render(
            "not_understood"
        )
