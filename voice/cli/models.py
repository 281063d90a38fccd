"""``farbspiel models list | download LANG | check LANG``: the speech models, and which
grammar words of every game a model lacks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.engine import Setup
from voice.output.messages import console_text, set_console_language
from voice.recognition.base import RecogniserError
from voice.recognition.models import (
    LANGUAGES,
    CheckReport,
    ModelError,
    download,
    find_model,
    locations,
    missing_model_message,
    missing_words,
    project_models_dir,
    user_models_dir,
    vosk_cache_dirs,
)
from voice.recognition.vosk import VoskRecogniser, supports_grammar
from voice.session.adapters import ADAPTERS
from voice.understanding.grammar import Grammar


def check_games(
    lang: str, knows: Callable[[str], bool], players: Sequence[str], games: Sequence[str] = ()
) -> list[CheckReport]:
    """Which words of each game's grammar (all phrases, all phases) the model lacks."""
    reports = []
    for game_id, adapter in ADAPTERS.items():
        if games and game_id not in games:
            continue
        setup = Setup(tuple(players), options=adapter.default_options(lang))
        grammar = Grammar(lang, game_id, adapter.dynamic_lists(setup, lang))
        phrases = (p for p, _ in grammar.phrases())
        count, words, missing = missing_words(phrases, knows)
        reports.append(CheckReport(game_id, count, words, missing))
    return reports


def format_check(reports: Sequence[CheckReport], examples: int = 3) -> list[str]:
    """The report of ``models check``, line by line, in the console's language."""
    lines = []
    for report in reports:
        if not report.missing:
            lines.append(
                console_text(
                    "models_check_all_known",
                    game=report.game,
                    words=report.words,
                    phrases=report.phrases,
                )
            )
            continue
        broken_phrases = len({p for ps in report.missing.values() for p in ps})
        lines.append(
            console_text(
                "models_check_unknown",
                game=report.game,
                unknown=len(report.missing),
                words=report.words,
                broken=broken_phrases,
                phrases=report.phrases,
            )
        )
        for word in sorted(report.missing, key=lambda w: (-len(report.missing[w]), w)):
            broken = report.missing[word]
            shown = ", ".join(f'"{p}"' for p in broken[:examples])
            more = max(0, len(broken) - examples)
            text = console_text(
                "models_check_word", word=word, count=len(broken), examples=shown, more=more
            )
            lines.append(f"  {text}")
    return lines


# --- the `farbspiel models` command ------------------------------------------------------------
def add_models_parser(commands: Any, parser_class: Any) -> None:
    models = commands.add_parser("models")  # help texts: cli.yaml
    actions = models.add_subparsers(
        dest="models_command", metavar="ACTION", parser_class=parser_class
    )
    actions.required = True
    listing = actions.add_parser("list")
    listing.add_argument("--model", type=Path, metavar="DIR")
    listing.add_argument("--lang", choices=LANGUAGES)
    fetch = actions.add_parser("download")
    fetch.add_argument("lang", choices=LANGUAGES, metavar="LANG")
    fetch.add_argument("--from", dest="source", metavar="ZIP")
    check = actions.add_parser("check")
    check.add_argument("lang", choices=LANGUAGES, metavar="LANG")
    check.add_argument("--model", type=Path, metavar="DIR")
    check.add_argument("--game", action="append", default=[])
    check.add_argument("--players", default="Anna,Ben,Cem")


def cmd_models(args: Any) -> int:
    if args.models_command == "list":
        return _cmd_list(args)
    if args.models_command == "download":
        return _cmd_download(args)
    return _cmd_check(args)


def _source(source: str) -> str:
    return console_text("model_source", source=source)


def _cmd_list(args: Any) -> int:
    if args.lang is not None:
        set_console_language(args.lang)
    for lang in LANGUAGES:
        found = locations(lang, args.model) if args.model else locations(lang)
        chosen = next((loc for loc in found if loc.usable), None)
        if chosen is None:
            print(console_text("models_none", language=lang))
        else:
            static = not supports_grammar(chosen.path)
            where = _source(chosen.source)
            print(console_text("models_found", language=lang, path=chosen.path, source=where,
                               static=static))  # fmt: skip
        for loc in found:
            if loc is not chosen:
                where = _source(loc.source)
                if loc.problem is not None:
                    text = console_text("models_unusable", path=loc.path, source=where,
                                        problem=loc.problem)  # fmt: skip
                else:
                    text = console_text("models_also", path=loc.path, source=where)
                print(f"    {text}")
    places = [str(p) for p in [project_models_dir() / "<lang>", user_models_dir() / "<lang>"]]
    places += [str(p) for p in vosk_cache_dirs()]
    print(console_text("models_looked_in", places=", ".join(places)))
    print(console_text("models_without"))
    return 0


def _progress(done: int, total: int) -> None:
    if total:
        text = console_text("models_progress", share=f"{done / total:6.1%}",
                            megabytes=f"{total / 1e6:.0f}")  # fmt: skip
        print(f"\r  {text}", end="", file=sys.stderr, flush=True)


def _cmd_download(args: Any) -> int:
    text = console_text("models_installing", language=args.lang)
    print(f"farbspiel: {text}", file=sys.stderr)
    path = download(args.lang, args.source, progress=_progress if sys.stderr.isatty() else None)
    done = console_text("models_installed", path=path)
    print(f"\n{done}" if sys.stderr.isatty() else done)
    return 0


def _cmd_check(args: Any) -> int:
    location = find_model(args.lang, args.model)
    if location is None:
        notice = missing_model_message(args.lang)
        raise ModelError(key=notice.key, **notice.params)
    try:
        recogniser = VoskRecogniser(location.path)
    except RecogniserError as exc:
        raise ModelError(key="model_reinstall", problems=[exc], lang=args.lang) from None
    unknown_games = [g for g in args.game if g not in ADAPTERS]
    if unknown_games:
        raise ModelError(key="unknown_game", game=unknown_games[0], games=", ".join(ADAPTERS))
    players = [p.strip() for p in args.players.split(",") if p.strip()] or ["Anna"]
    print(console_text("models_check_model", path=location.path, source=_source(location.source)))
    print(console_text("models_check_players", players=", ".join(players)))
    reports = check_games(args.lang, recogniser.knows, players, args.game)
    for line in format_check(reports):
        print(line)
    return 1 if any(r.missing for r in reports) else 0
