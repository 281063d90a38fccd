"""``farbspiel bench``: its command-line options (kept light: the benchmark itself is only
imported when it runs)."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

LANGS = ("de", "en")
ENGINES = ("sphinx", "vosk")


def add_bench_parser(commands: Any) -> None:
    bench = commands.add_parser(
        "bench",
        help="the speech benchmark (synthetic speech + noise → recogniser → report)",
        description="Synthesises the game's commands and table talk with several voices, "
        "mixes in noise, runs the real recogniser, parser and play policy, and writes "
        "report.md, chart.png and results.json into --out.",
    )
    bench.add_argument("--lang", default="de,en", help="languages, comma-separated (de,en)")
    bench.add_argument(
        "--engine",
        default="sphinx",
        help="engines, comma-separated: sphinx, vosk, or a Wyoming speech-to-text service "
        "tcp://HOST:PORT (default: sphinx)",
    )
    bench.add_argument(
        "--voices-de",
        help="espeak-ng voices for German, NAME or NAME@WPM (default: the fitted voices "
        "de,de@200,de+f3,mb-de6 and the held-out voices de+m3,de+m1@140,mb-de5; mbrola "
        "voices where installed; a voice not among the fitted ones is reported as held out)",
    )
    bench.add_argument(
        "--voices-en",
        help="espeak-ng voices for English, NAME or NAME@WPM (default: the fitted voices "
        "en-us,en-us@200,en-us+f3,mb-us2 and the held-out voices en-gb,en-us+m1@140,mb-us3)",
    )
    bench.add_argument(
        "--noise",
        default="clean,pink:20,pink:10,pink:5,white:10,babble:10",
        help="noise conditions: clean (pink 35 dB below speech) or KIND:SNR with KIND "
        "pink, white or babble",
    )
    bench.add_argument(
        "--games",
        default="alle-meine-farben,farben,pantone",
        help="games, comma-separated (alle-meine-farben,farben,pantone)",
    )
    from voice.recognition.frontend import add_front_end_arguments

    add_front_end_arguments(bench)
    bench.add_argument(
        "--front-ends",
        metavar="SPEC,...",
        help="compare front ends, each written as raw or parts joined by + (ns2, agc3, "
        "below30, speex, silero, keyword), e.g. raw,ns2,ns2+agc3,silero (instead of the "
        "options above); with keyword the players say it before every sentence",
    )
    bench.add_argument("--out", type=Path, default=Path("bench-results"), help="output folder")
    bench.add_argument("--quick", action="store_true", help="a small smoke run (CI)")
    bench.add_argument(
        "--items", type=int, metavar="N", help="at most N utterances per table (all)"
    )
    bench.add_argument("--moves", type=int, metavar="N", help="at most N moves per play pass")
    bench.add_argument("--no-play", action="store_true", help="skip the play-policy games")
    bench.add_argument("--jobs", type=int, default=1, help="tables run in parallel (1)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the reference game (1)")
    bench.add_argument("--model", type=Path, help="vosk model folder (vosk engine)")
    bench.add_argument("--cache", type=Path, help="where synthesised speech is kept between runs")


def _list(value: str, name: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    from voice.errors import UsageError

    items = tuple(v.strip() for v in value.split(",") if v.strip())
    if not items:
        raise UsageError(f"{name} needs at least one value")
    if allowed is not None:
        from voice.wyoming import is_wyoming_uri, uri_is_usable

        for item in items:
            if name == "--engine" and is_wyoming_uri(item) and uri_is_usable(item):
                continue  # a Wyoming service (the household's voice server)
            if item not in allowed:
                choices = (*allowed, "tcp://HOST:PORT") if name == "--engine" else allowed
                raise UsageError(f"{name}: {item!r} is not one of {', '.join(choices)}")
    return items


def _front_ends(args: argparse.Namespace) -> tuple[Any, ...]:
    from voice.errors import UsageError
    from voice.recognition.frontend import parse_spec, settings_from

    try:
        if args.front_ends:
            return tuple(parse_spec(s) for s in _list(args.front_ends, "--front-ends"))
        return (settings_from(args),)
    except ValueError as exc:
        raise UsageError(f"front end: {exc}") from None


def _conditions(args: argparse.Namespace) -> tuple[str, ...]:
    """--noise, each condition checked; and the numbers of the command line."""
    from voice.bench.run import Condition
    from voice.errors import UsageError

    noise = _list(args.noise, "--noise")
    for spec in noise:
        try:
            Condition.parse(spec)
        except ValueError as exc:
            raise UsageError(f"--noise: {exc}") from None
    if not 1 <= args.jobs <= 16:
        raise UsageError("--jobs must be between 1 and 16")
    for name in ("items", "moves"):
        value = getattr(args, name)
        if value is not None and not 1 <= value <= 10_000:
            raise UsageError(f"--{name} must be between 1 and 10000")
    if args.seed < 0:
        raise UsageError("--seed must be 0 or more")
    return noise


def _voices(args: argparse.Namespace, defaults: Mapping[str, Any]) -> dict[str, Any]:
    from voice.bench.speech import parse_voice
    from voice.errors import UsageError

    voices = dict(defaults)
    for lang, given in (("de", args.voices_de), ("en", args.voices_en)):
        if given:
            voices[lang] = _list(given, f"--voices-{lang}")
            for spec in voices[lang]:
                try:
                    parse_voice(spec)
                except ValueError as exc:
                    raise UsageError(f"--voices-{lang}: {exc}") from None
    return voices


def run_bench_command(args: argparse.Namespace) -> int:
    from voice.bench.audio import AudioError
    from voice.bench.reference import GAMES
    from voice.bench.speech import BenchError, BenchOptions, quick_options, run_bench
    from voice.errors import CliError
    from voice.recognition.pronounce import cache_dir

    langs = _list(args.lang, "--lang", LANGS)
    games = _list(args.games, "--games", GAMES)
    fronts = _front_ends(args)
    engines = _list(args.engine, "--engine", ENGINES)
    noise = _conditions(args)
    options = BenchOptions(
        out=args.out,
        langs=langs,
        games=games,
        front_ends=fronts,
        engines=engines,
        conditions=noise,
        play=not args.no_play,
        items_limit=args.items,
        moves_limit=args.moves,
        jobs=args.jobs,
        seed=args.seed,
        model_dir=args.model,
        cache_dir=args.cache or cache_dir() / "bench",
        command="farbspiel " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
    )
    voices = _voices(args, options.voices)
    options = BenchOptions(**{**options.__dict__, "voices": voices})
    if args.quick:
        options = quick_options(options)

    def note(text: str) -> None:
        print(f"farbspiel bench: {text}", file=sys.stderr, flush=True)

    try:
        paths = run_bench(options, note)
    except (BenchError, AudioError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot write the report to {args.out}: {exc.strerror}") from None
    for kind, path in paths.items():
        print(f"{kind}: {path}")
    if "chart" not in paths:
        note("no chart: matplotlib is missing (pip install 'farbspiel[bench]')")
    return 0


class BenchCommand:
    """``farbspiel bench`` as a command handed to :func:`voice.cli.main.main`."""

    name = "bench"

    def add_parser(self, commands: Any) -> None:
        add_bench_parser(commands)

    def run(self, args: argparse.Namespace) -> int:
        return run_bench_command(args)
