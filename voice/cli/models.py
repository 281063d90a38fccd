"""``farbspiel models list | download LANG | check LANG``: the speech models, and which
grammar words of every game a model lacks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.engine import Setup
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
    lines = []
    for report in reports:
        if not report.missing:
            lines.append(
                f"{report.game}: all {report.words} words of its {report.phrases} sentences "
                "are known to the model"
            )
            continue
        lines.append(
            f"{report.game}: {len(report.missing)} of {report.words} words are unknown to the "
            f"model; they break {len({p for ps in report.missing.values() for p in ps})} of "
            f"{report.phrases} sentences:"
        )
        for word in sorted(report.missing, key=lambda w: (-len(report.missing[w]), w)):
            broken = report.missing[word]
            shown = ", ".join(f'"{p}"' for p in broken[:examples])
            more = f" and {len(broken) - examples} more" if len(broken) > examples else ""
            lines.append(f"  {word!r}: {len(broken)} sentence(s), e.g. {shown}{more}")
    return lines


# --- the `farbspiel models` command ------------------------------------------------------------
def add_models_parser(commands: Any, parser_class: Any) -> None:
    models = commands.add_parser("models", help="list, download or check speech models")
    actions = models.add_subparsers(
        dest="models_command", metavar="ACTION", parser_class=parser_class
    )
    actions.required = True
    listing = actions.add_parser("list", help="where the speech models are")
    listing.add_argument("--model", type=Path, metavar="DIR", help="also check this model folder")
    fetch = actions.add_parser("download", help="install the vosk model of a language")
    fetch.add_argument("lang", choices=LANGUAGES)
    fetch.add_argument(
        "--from",
        dest="source",
        metavar="ZIP",
        help="install from a model .zip file or URL instead of vosk's model list",
    )
    check = actions.add_parser("check", help="list grammar words the model does not know")
    check.add_argument("lang", choices=LANGUAGES)
    check.add_argument("--model", type=Path, metavar="DIR", help="the model folder to check")
    check.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    check.add_argument(
        "--players",
        default="Anna,Ben,Cem",
        help="player names to check as well (default: Anna,Ben,Cem)",
    )


def cmd_models(args: Any) -> int:
    if args.models_command == "list":
        return _cmd_list(args)
    if args.models_command == "download":
        return _cmd_download(args)
    return _cmd_check(args)


def _cmd_list(args: Any) -> int:
    for lang in LANGUAGES:
        found = locations(lang, args.model) if args.model else locations(lang)
        chosen = next((loc for loc in found if loc.usable), None)
        if chosen is None:
            print(f"{lang}: no vosk model — install one with: farbspiel models download {lang}")
        else:
            kind = "" if supports_grammar(chosen.path) else " (static graph: no per-phase grammars)"
            print(f"{lang}: {chosen.path} [{chosen.source}]{kind}")
        for loc in found:
            if loc is not chosen:
                state = "not usable: " + loc.problem if loc.problem else "also there"
                print(f"    {loc.path} [{loc.source}] {state}")
    print(
        "Looked in: --model DIR, "
        + ", ".join(
            str(p)
            for p in [project_models_dir() / "<lang>", user_models_dir() / "<lang>"]
            + vosk_cache_dirs()
        )
    )
    print("Without a vosk model, --asr auto uses pocketsphinx (English model built in).")
    return 0


def _progress(done: int, total: int) -> None:
    if total:
        print(
            f"\r  {done / total:6.1%} of {total / 1e6:.0f} MB", end="", file=sys.stderr, flush=True
        )


def _cmd_download(args: Any) -> int:
    print(f"farbspiel: installing the vosk model for {args.lang} ...", file=sys.stderr)
    path = download(args.lang, args.source, progress=_progress if sys.stderr.isatty() else None)
    print(f"\ninstalled: {path}" if sys.stderr.isatty() else f"installed: {path}")
    return 0


def _cmd_check(args: Any) -> int:
    location = find_model(args.lang, args.model)
    if location is None:
        raise ModelError(missing_model_message(args.lang))
    try:
        recogniser = VoskRecogniser(location.path)
    except RecogniserError as exc:
        raise ModelError(
            f"{exc}; reinstall it with: farbspiel models download {args.lang}"
        ) from None
    unknown_games = [g for g in args.game if g not in ADAPTERS]
    if unknown_games:
        raise ModelError(f"unknown game {unknown_games[0]!r}; choose from: {', '.join(ADAPTERS)}")
    players = [p.strip() for p in args.players.split(",") if p.strip()] or ["Anna"]
    print(f"model: {location.path} [{location.source}]")
    print(f"players checked: {', '.join(players)} (--players to check your names)")
    reports = check_games(args.lang, recogniser.knows, players, args.game)
    for line in format_check(reports):
        print(line)
    return 1 if any(r.missing for r in reports) else 0
