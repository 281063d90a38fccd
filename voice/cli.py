"""The ``farbspiel`` command line.

Exit codes: 0 done, 1 something outside the command line failed (a save file, a model,
audio), 2 the command line itself cannot work, 130 interrupted (the game is saved).
Users never see a traceback: unexpected errors are written to a log file instead.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import json
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any

from games.data import DataError
from games.engine import Setup, SetupError
from voice.adapters import ADAPTERS, UsageError, adapter_for
from voice.asr import ENGINES, RecogniserError
from voice.audio import AudioError
from voice.clock import RealClock, VirtualClock
from voice.grammar import LANGUAGES, Grammar, GrammarError, normalize
from voice.journal import Contents, Header, Journal, JournalError, read, rewrite
from voice.loop import LineReader, run_keyboard, run_script
from voice.models import ModelError, add_models_parser, cmd_models
from voice.output import JsonOutput, MultiOutput, NullOutput, Output, TextOutput
from voice.session import Session
from voice.settings import (
    MAX_RATE,
    MIN_RATE,
    clamp_rate,
    data_dir,
    load_settings,
    save_settings,
)

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MAX_NAME = 40


class CliError(Exception):
    """A failure outside the command line (files, devices); exit code 1."""


# --- parser --------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() decides the exit code."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(f"{message}\n(try: {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="farbspiel", description="Voice game master for colour party games.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    play = commands.add_parser("play", help="start a game")
    games = play.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    games.required = True
    for game_id, adapter in ADAPTERS.items():
        game = games.add_parser(game_id, help=f"play {game_id}")
        _add_game_options(game, adapter.default_lang)
        _add_io_options(game)
        adapter.add_arguments(game)

    resume = commands.add_parser("resume", help="continue a saved game")
    resume.add_argument(
        "file", nargs="?", type=Path, help="the save file (default: the game saved last)"
    )
    _add_io_options(resume)

    parse = commands.add_parser("parse", help="show the intent a sentence means, as JSON")
    parse.add_argument("game", metavar="GAME", help=" | ".join(ADAPTERS))
    parse.add_argument("--lang", choices=LANGUAGES, help="language (default: the game's own)")
    parse.add_argument(
        "--players",
        default="Anna,Ben,Cem",
        help="player names the sentence may use (default: Anna,Ben,Cem)",
    )
    parse.add_argument("text", nargs="+", help="the sentence")

    cards = commands.add_parser("cards", help="print a game's numbered cards (to print them)")
    cards.add_argument("game", metavar="GAME", help=" | ".join(ADAPTERS))
    cards.add_argument("--lang", choices=LANGUAGES, help="language (default: the game's own)")
    cards.add_argument("--deck", type=Path, metavar="FILE", help="a deck file of your own")
    add_models_parser(commands, _Parser)
    from voice.recognize import add_recognize_parser

    add_recognize_parser(commands)
    from voice.bench.cli import add_bench_parser

    add_bench_parser(commands)
    return parser


def _add_game_options(p: argparse.ArgumentParser, default_lang: str) -> None:
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default_lang,
        help=f"language of the game (default: {default_lang})",
    )
    p.add_argument(
        "--players", required=True, help='player names in seat order, clockwise: "Anna,Ben,Cem"'
    )
    p.add_argument("--first", metavar="NAME", help="who starts (default: the game's own rule)")
    p.add_argument("--seed", type=int, help="seed for shuffling and drawing lots")
    p.add_argument("--save", type=Path, metavar="FILE", help="where to save the game")


def _add_io_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--input",
        choices=("auto", "mic", "keyboard"),
        default="auto",
        help="where moves come from: the microphone or the keyboard "
        "(default: auto, the microphone when one works)",
    )
    p.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="read utterances from FILE (virtual time, '@+N' lines advance it)",
    )
    p.add_argument(
        "--voice",
        choices=("auto", "tts", "text", "none"),
        default="auto",
        help="how farbspiel answers: speech and text, text, or nothing "
        "(default: auto, speech when sound can be played)",
    )
    p.add_argument(
        "--asr",
        choices=ENGINES,
        default="auto",
        help="speech recogniser (default: auto, vosk when its model is installed)",
    )
    p.add_argument("--model", type=Path, metavar="DIR", help="the vosk model folder to use")
    from voice.frontend import add_front_end_arguments

    add_front_end_arguments(p)
    p.add_argument("--json", action="store_true", help="print every event as a JSON line")
    p.add_argument(
        "--private",
        default="stderr",
        metavar="stderr|none|FILE",
        help="where secrets for one player go (their character card): stderr (default), "
        "none, or a file such as a second terminal (/dev/pts/3)",
    )
    p.add_argument(
        "--rate",
        type=int,
        metavar="WPM",
        help=f"speech rate in words per minute ({MIN_RATE}-{MAX_RATE})",
    )


# --- play / resume ---------------------------------------------------------------------
def _players(text: str) -> tuple[str, ...]:
    names = tuple(" ".join(n.split()) for n in text.split(","))
    for name in names:
        if not name:
            raise UsageError('--players has an empty name; write them like "Anna,Ben,Cem"')
        if len(name) > MAX_NAME:
            raise UsageError(f"--players: {name[:20]!r}... is too long (at most {MAX_NAME})")
        if not any(c.isalpha() for c in name) or not normalize(name):
            raise UsageError(f"--players: {name!r} is not a name farbspiel can say or hear")
    spoken = [normalize(n) for n in names]
    for name in spoken:
        if spoken.count(name) > 1:
            raise UsageError(
                f"--players: two players are called {name!r}; give them names that sound different"
            )
    return names


def _first(name: str | None, players: tuple[str, ...]) -> str | None:
    if name is None:
        return None
    for player in players:
        if normalize(player) == normalize(name):
            return player
    raise UsageError(f"--first {name!r} is not one of the players ({', '.join(players)})")


def _check_rate(rate: int | None) -> int | None:
    if rate is not None and not MIN_RATE <= rate <= MAX_RATE:
        raise UsageError(f"--rate must be between {MIN_RATE} and {MAX_RATE} words per minute")
    return rate


def _make_output(args: argparse.Namespace, lang: str) -> Output:
    outputs: list[Output] = []
    if args.json:
        outputs.append(JsonOutput(sys.stdout))
    if args.voice in ("auto", "tts", "text") and not args.json:
        outputs.append(TextOutput(sys.stdout))
    if args.script is None and args.voice in ("auto", "tts"):
        from voice.devices import open_speech

        speech = open_speech(lang, args.voice, quiet=args.json)
        if speech is not None:
            outputs.append(speech)
    return MultiOutput(outputs) if outputs else NullOutput()


def _make_private_output(args: argparse.Namespace) -> Output | None:
    """The private channel: never the table's output. (A second audio device for
    headphones can plug in here as another :class:`Output`.)"""
    where = args.private
    if where == "none":
        return None
    if where == "stderr":
        return TextOutput(sys.stderr, prefix="(private) ")
    try:
        stream = open(where, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
    except OSError as exc:
        raise CliError(f"--private: cannot write to {where}: {exc.strerror}") from None
    return TextOutput(stream, prefix="", owned=True)


def _check_audio_options(args: argparse.Namespace) -> None:
    """With --script nothing touches an audio device (the contract tests rely on it)."""
    if args.script is None:
        return
    if args.input == "mic":
        raise UsageError("--script takes the place of the microphone; leave out --input mic")
    if args.voice == "tts":
        raise UsageError("--script runs in virtual time without sound; leave out --voice tts")


def _default_save(game_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "saves" / f"{game_id}-{stamp}.jsonl"


def cmd_play(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    players = _players(args.players)
    first = _first(args.first, players)
    rate = _check_rate(args.rate)
    if args.seed is not None and args.seed < 0:
        raise UsageError("--seed must be 0 or more")
    seed = args.seed if args.seed is not None else _dt.datetime.now().microsecond
    options = adapter.options(args, args.lang)
    _check_audio_options(args)
    setup = Setup(players, seed, first, options)
    try:
        adapter.create(setup)  # checks the setup before anything is written
    except SetupError as exc:
        raise UsageError(_setup_message(args.game, exc)) from None
    script = _open_script(args.script)
    save = args.save if args.save is not None or script is not None else _default_save(args.game)
    journal = Journal.create(save, Header(args.game, args.lang, setup)) if save else None
    if journal is not None:
        _remember_save(journal.path)
    settings = load_settings()
    session = Session(
        adapter,
        args.lang,
        setup,
        _make_output(args, args.lang),
        journal=journal,
        rate=rate if rate is not None else clamp_rate(settings.get("rate")),
        private=_make_private_output(args),
    )
    return _run(session, args, script)


def cmd_resume(args: argparse.Namespace) -> int:
    path = args.file or _last_save()
    contents = read(path)
    adapter = adapter_for(contents.header.game)
    rate = _check_rate(args.rate)
    _check_audio_options(args)
    script = _open_script(args.script)
    if rate is None:
        rate = clamp_rate(contents.settings.get("rate", load_settings().get("rate")))
    try:
        adapter.create(contents.header.setup)
    except SetupError as exc:  # a save file edited by hand, or from another version
        message = _setup_message(contents.header.game, exc)
        raise CliError(f"{path} cannot be resumed: {message}") from None
    session = Session(
        adapter,
        contents.header.lang,
        contents.header.setup,
        _make_output(args, contents.header.lang),
        actions=contents.actions,
        rate=rate,
        private=_make_private_output(args),
    )
    session.check_replay()  # refuses a damaged journal before the file is touched
    if contents.upgraded_from is not None:
        session.journal = _upgrade_file(path, contents)
    else:
        cut = contents.valid_length if contents.dropped_tail else None
        session.journal = Journal.reopen(path, cut)
    _remember_save(path)
    return _run(session, args, script, resumed=True, dropped_tail=contents.dropped_tail)


def _upgrade_file(path: Path, contents: Contents) -> Journal:
    """Write a save file of an older format anew in today's format, keeping a copy of the
    old file beside it (so an older farbspiel can still open that one)."""
    old = contents.upgraded_from
    backup = path.with_name(f"{path.name}.format-{old}")
    try:
        if not backup.exists():
            shutil.copy2(path, backup)
    except OSError as exc:
        message = f"cannot keep a copy of {path} before upgrading it: {exc.strerror}"
        raise CliError(message) from None
    header = contents.header
    journal = rewrite(
        path, Header(header.game, header.lang, header.setup), contents.actions, contents.settings
    )
    print(
        f"farbspiel: {path} was saved in format {old}; it now uses format {header.version} "
        f"(the old file is kept as {backup})",
        file=sys.stderr,
    )
    return journal


def _run(
    session: Session,
    args: argparse.Namespace,
    script: list[str] | None,
    resumed: bool = False,
    dropped_tail: bool = False,
) -> int:
    try:
        if script is not None:
            clock = VirtualClock()
            session.start(resumed, dropped_tail)
            run_script(session, script, clock)
        else:
            clock_real = RealClock()
            session.clock = clock_real.now
            from voice.devices import open_microphone_input

            mic = open_microphone_input(args, session.lang)
            if mic is not None:
                mic.run(session, clock_real, resumed, dropped_tail)
                return EXIT_OK
            session.reset_clock(clock_real.now())
            if args.input == "auto" and not args.json:
                print(
                    "farbspiel: listening to the keyboard (type what you would say).",
                    file=sys.stderr,
                )
            session.start(resumed, dropped_tail)
            prompt = sys.stderr if sys.stdin.isatty() else None
            run_keyboard(session, LineReader(sys.stdin.fileno()), clock_real, prompt)
        return EXIT_OK if _report_unsaved(session) else EXIT_FAILURE
    except KeyboardInterrupt:
        if session.journal is not None and session.save_now():
            print(
                f"\nfarbspiel: stopped. The game is saved in {session.journal.path}; "
                f"continue with: farbspiel resume {session.journal.path}",
                file=sys.stderr,
            )
        else:
            _report_unsaved(session)
        return EXIT_INTERRUPTED
    except OSError as exc:  # our own output or input failed: a full disk, a closed terminal
        if isinstance(exc, BrokenPipeError):
            raise
        saved = session.journal is not None and session.save_now()
        where = f"; the game is saved in {session.journal.path}" if saved else ""
        with contextlib.suppress(OSError):
            print(
                f"farbspiel: stopped: cannot write the game's output or read its input "
                f"({exc.strerror}){where}",
                file=sys.stderr,
            )
            if not saved:
                _report_unsaved(session)
        return EXIT_FAILURE
    finally:
        session.out.close()
        if session.private is not None:
            session.private.close()
        if session.journal is not None:
            session.journal.close()


def _report_unsaved(session: Session) -> bool:
    """Try a failed save once more at the end; say what is missing if it still fails.
    True if everything is saved (or nothing was to be)."""
    if session.journal is None or session.save_now():
        return True
    print(
        f"farbspiel: the last moves could not be saved ({session.save_error}). "
        f"{session.journal.path} holds the game up to the moment saving failed.",
        file=sys.stderr,
    )
    return False


def _open_script(path: Path | None) -> list[str] | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CliError(f"no script file {path}") from None
    except UnicodeDecodeError:
        raise CliError(f"script file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise CliError(f"cannot read script file {path}: {exc.strerror}") from None


def _remember_save(path: Path) -> None:
    settings = load_settings()
    settings["last_save"] = str(Path(path).resolve())
    save_settings(settings)


def _last_save() -> Path:
    last = load_settings().get("last_save")
    with contextlib.suppress(ValueError):  # a NUL in a hand-edited settings file
        if isinstance(last, str) and Path(last).is_file():
            return Path(last)
    saves = sorted((data_dir() / "saves").glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    if not saves:
        raise CliError("there is no saved game yet; start one with `farbspiel play GAME`")
    return saves[-1]


_SETUP_TEXT = {
    "player_count": "{game} needs {low} to {high} players, not {count}",
    "player_name_empty": "a player name is empty",
    "player_name_twice": "{name!r} is listed twice in --players",
    "unknown_first": "--first {name!r} is not one of the players",
    "unknown_variant": "unknown variant {variant!r}",
    "unknown_option": "unknown option {option!r}",
    "unknown_deck": "there is no word deck {deck!r}",
    "bad_time_limit": "the time limit must be {low} to {high} seconds, not {value}",
    "bad_words": "the word cards are not a list of cards",
    "bad_card": "word card {card} does not have two sides",
    "bad_word": "word card {card} has a word that cannot be said: {word!r}",
    "word_twice": "the word {word!r} (card {card}) appears twice",
    "too_many_cards": "{count} word cards, but a game uses only {rounds}",
    "word_is_player": "the word {word!r} is also a player's name",
    "deck_too_small": "the deck has {cards} cards; this table needs at least {needed}",
    "bad_deck": "the deck has problems: {problems}",
    "player_named_like_team": "in a team game no player may be called like a team: {teams}",
}


def _setup_message(game: str, exc: SetupError) -> str:
    template = _SETUP_TEXT.get(exc.key)
    if template is None:
        details = ", ".join(f"{k}={v}" for k, v in exc.params.items())
        return f"{game} cannot start: {exc.key} {details}".strip()
    return template.format(game=game, **exc.params)


# --- parse -------------------------------------------------------------------------------
def cmd_parse(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    lang = args.lang or adapter.default_lang
    setup = Setup(_players(args.players), options=adapter.default_options(lang))
    grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
    intent = adapter.parser(grammar, setup).parse(" ".join(args.text))
    result = intent.to_json() if intent is not None else {"intent": None}
    print(json.dumps(result, ensure_ascii=False))
    return EXIT_OK


# --- cards -------------------------------------------------------------------------------
def cmd_cards(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    print(adapter.printable_cards(args.lang or adapter.default_lang, args))
    return EXIT_OK


# --- main --------------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    from voice.bench.cli import run_bench_command

    return run_bench_command(args)


def cmd_recognize(args: argparse.Namespace) -> int:
    from voice.recognize import run_recognize

    return run_recognize(args)


COMMANDS = {
    "play": cmd_play,
    "resume": cmd_resume,
    "parse": cmd_parse,
    "models": cmd_models,
    "recognize": cmd_recognize,
    "cards": cmd_cards,
    "bench": cmd_bench,
}


_POSITIONAL = frozenset({"command", "game", "text", "file"})


def _check_text(args: argparse.Namespace) -> None:
    """Refuse words and names with bytes that are not UTF-8 (they reach argv as lone
    surrogates, which no output and no save file can hold). File paths may have them."""
    for name, value in vars(args).items():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and any("\ud800" <= c <= "\udfff" for c in text):
                shown = text.encode("utf-8", "replace").decode("utf-8")
                where = name if name in _POSITIONAL else "--" + name.replace("_", "-")
                raise UsageError(
                    f"{where}: {shown!r} is not valid text "
                    "(its bytes are not UTF-8); check the terminal's character set"
                )


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        _check_text(args)
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"farbspiel: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (
        CliError,
        JournalError,
        GrammarError,
        DataError,
        ModelError,
        RecogniserError,
        AudioError,
    ) as exc:
        print(f"farbspiel: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("\nfarbspiel: stopped.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`)
        _silence_stdout()
        return EXIT_FAILURE
    except Exception as exc:  # noqa: BLE001 - last line of defence: no tracebacks for users
        log = _log_crash()
        print(
            f"farbspiel: internal error ({type(exc).__name__}: {exc}). "
            f"Details: {log}. Saved games are kept.",
            file=sys.stderr,
        )
        return EXIT_FAILURE


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def _log_crash() -> str:
    path = data_dir() / "error.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"--- {_dt.datetime.now().isoformat()}\n{traceback.format_exc()}\n")
    except OSError:
        return "(no log could be written)"
    return str(path)


if __name__ == "__main__":
    raise SystemExit(main())
