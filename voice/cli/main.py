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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from games.assistant import ASSISTANT_GAMES
from games.data import DataError
from games.engine import Setup, SetupError
from games.seat import LEVELS as ASSISTANT_LEVELS
from games.seat import seat_players
from voice.cli.cards_pdf import add_cards_pdf_options, write_cards_pdf
from voice.cli.display import (
    add_display_options,
    check_table_view,
    cmd_display,
    start_table_view,
)
from voice.cli.help import install_argparse_translation, localise
from voice.cli.models import add_models_parser, cmd_models
from voice.cli.options import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    TTS_METAVAR,
    players_option,
    tts_option,
)
from voice.errors import CliError, UsageError
from voice.input.audio import AudioError
from voice.input.clock import RealClock, VirtualClock
from voice.input.lines import LineReader
from voice.output.messages import (
    console_language,
    console_text,
    console_words,
    explain,
    set_console_language,
)
from voice.output.rate import MAX_RATE, MIN_RATE, clamp_rate
from voice.output.sinks import JsonOutput, MultiOutput, NullOutput, Output, TextOutput
from voice.output.tts import TtsError
from voice.paths import data_dir
from voice.recognition.engines import ASR_METAVAR, RecogniserError, asr_option
from voice.recognition.frontend import add_front_end_arguments
from voice.recognition.models import ModelError
from voice.session.adapters import ADAPTERS, adapter_for
from voice.session.journal import (
    Contents,
    Header,
    Journal,
    JournalError,
    damaged_copy,
    read,
    rewrite,
)
from voice.session.loops import run_keyboard, run_script
from voice.session.player_names import player_name_problem
from voice.session.session import Session
from voice.session.settings import last_save, load_settings, remember_save
from voice.understanding.grammar import LANGUAGES, Grammar, GrammarError
from voice.understanding.learned import warm
from words.text import normalize


# --- parser --------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() decides the exit code, and says
    a wrong value in the console's language (names the option, the value, what fits)."""

    def error(self, message: str) -> Any:
        raise UsageError(console_text("usage_hint", message=message, prog=self.prog))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        if action.dest in ("game", "command", "models_command") or isinstance(
            action, argparse._SubParsersAction
        ):
            choices = ", ".join(map(str, action.choices))
            key = "unknown_game" if action.dest == "game" else "unknown_command"
            if action.dest == "game" and value in LANGUAGES:  # `play --lang de GAME`
                key = "lang_before_game"
            raise UsageError(console_text(key, game=value, command=value, games=choices))
        shown = _choices_text(action.choices)
        raise argparse.ArgumentError(action, console_text("bad_choice", value=value, choices=shown))

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        if action.type is int:
            try:
                return int(arg_string)
            except ValueError:
                raise argparse.ArgumentError(
                    action, console_text("bad_whole_number", value=arg_string)
                ) from None
        return super()._get_value(action, arg_string)


def _choices_text(choices: Any) -> str:
    if isinstance(choices, range):
        return f"{choices.start}-{choices.stop - 1}"
    return ", ".join(map(str, choices))


class Command(Protocol):
    """A command the program adds on top of the game commands (``farbspiel bench``): the
    measurements sit above the command line in the house, so they are handed in."""

    name: str

    def add_parser(self, commands: Any) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def build_parser(extra: Sequence[Command] = ()) -> argparse.ArgumentParser:
    parser = _Parser(prog="farbspiel")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    play = commands.add_parser("play")
    games = play.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    games.required = True
    for game_id, adapter in ADAPTERS.items():
        game = games.add_parser(game_id)
        _add_game_options(game, adapter.default_lang)
        _add_io_options(game)
        adapter.add_arguments(game)

    resume = commands.add_parser("resume")
    resume.add_argument("file", nargs="?", type=Path)
    resume.add_argument("--repair", action="store_true")
    _add_io_options(resume)

    parse = commands.add_parser("parse")
    parse.add_argument("game", metavar="GAME")
    parse.add_argument("--lang", choices=LANGUAGES)
    parse.add_argument("--players", default="Anna,Ben,Cem")
    parse.add_argument("text", nargs="+")

    cards = commands.add_parser("cards")
    cards.add_argument("game", metavar="GAME")
    cards.add_argument("--lang", choices=LANGUAGES)
    cards.add_argument("--deck", type=Path, metavar="FILE")
    add_cards_pdf_options(cards)

    display = commands.add_parser("display")
    display.add_argument("file", nargs="?", type=Path)
    add_display_options(display, with_flag=False)
    add_models_parser(commands, _Parser)
    from voice.cli.recognize import add_recognize_parser

    add_recognize_parser(commands)
    for command in extra:
        command.add_parser(commands)
    localise(parser, _help_blanks())
    return parser


def _help_blanks() -> dict[str, Any]:
    """The numbers and names the help texts name (from the code that checks them)."""
    limits = {k: v for a in ADAPTERS.values() for k, v in a.engine.setup_limits.items()}
    return {"rate_low": MIN_RATE, "rate_high": MAX_RATE, **limits, "games": ", ".join(ADAPTERS)}


def _add_game_options(p: argparse.ArgumentParser, default_lang: str) -> None:
    p.add_argument("--lang", choices=LANGUAGES, default=default_lang)
    p.add_argument("--players", required=True)
    p.add_argument("--first", metavar="NAME")
    p.add_argument("--seed", type=int)
    p.add_argument("--assistant", metavar="NAME")
    p.add_argument("--assistant-level", choices=ASSISTANT_LEVELS, default="normal")
    p.add_argument("--assistant-seat", type=int, metavar="N")
    p.add_argument("--save", type=Path, metavar="FILE")


def _add_io_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", choices=("auto", "mic", "keyboard"), default="auto")
    p.add_argument("--script", type=Path, metavar="FILE")
    p.add_argument("--voice", choices=("auto", "tts", "text", "none"), default="auto")
    p.add_argument("--asr", type=asr_option, default="auto", metavar=ASR_METAVAR)
    p.add_argument("--tts", type=tts_option, metavar=TTS_METAVAR)
    p.add_argument("--tts-voice", metavar="NAME")
    p.add_argument("--satellite", type=tts_option, metavar="tcp://HOST:PORT")
    p.add_argument("--model", type=Path, metavar="DIR")
    add_front_end_arguments(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--private", default="none", metavar="page|none|FILE")
    add_display_options(p, with_flag=True)
    p.add_argument("--rate", type=int, metavar="WPM")


# --- play / resume ---------------------------------------------------------------------
def _check_player_names(adapter: Any, lang: str, setup: Setup) -> None:
    """Refuse a player's name that is a command or a colour (voice/session/player_names.py)."""
    problem = player_name_problem(adapter, lang, setup)
    if problem is not None:
        raise UsageError(problem)


def _first(name: str | None, players: tuple[str, ...]) -> str | None:
    if name is None:
        return None
    for player in players:
        if normalize(player) == normalize(name):
            return player
    raise UsageError(console_text("first_unknown", name=name, players=", ".join(players)))


def _check_rate(rate: int | None) -> int | None:
    if rate is not None and not MIN_RATE <= rate <= MAX_RATE:
        raise UsageError(console_text("rate_range", low=MIN_RATE, high=MAX_RATE))
    return rate


def _make_output(args: argparse.Namespace, lang: str) -> Output:
    outputs: list[Output] = []
    if args.json:
        outputs.append(JsonOutput(sys.stdout))
    if args.voice in ("auto", "tts", "text") and not args.json:
        outputs.append(TextOutput(sys.stdout))
    if args.script is None and args.voice in ("auto", "tts"):
        from voice.cli.devices import open_speech

        speech = open_speech(
            lang, args.voice, quiet=args.json, tts=args.tts, tts_voice=args.tts_voice,
            satellite=_satellite_link(args),
        )  # fmt: skip
        if speech is not None:
            outputs.append(speech)
    return MultiOutput(outputs) if outputs else NullOutput()


def _satellite_link(args: argparse.Namespace) -> Any:
    """The connection to ``--satellite`` (one for its microphone and its speaker), made
    once; None without one."""
    if getattr(args, "satellite", None) is None:
        return None
    if getattr(args, "satellite_link", None) is None:
        from voice.input.satellite import SatelliteLink

        args.satellite_link = SatelliteLink(args.satellite)
    return args.satellite_link


def _make_private_output(args: argparse.Namespace) -> Output | None:
    """The private channel: never the table's output, never the shared terminal. (A
    second audio device for headphones can plug in here as another :class:`Output`.)"""
    where = args.private
    if where == "none":
        return None
    if where == "page":
        return NullOutput()  # the private pages read the save file themselves
    if where in ("stderr", "stdout", "-", "/dev/stderr", "/dev/stdout", "/dev/tty"):
        raise UsageError(console_text("private_shared", where=where))
    try:
        stream = open(where, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
    except OSError as exc:
        raise CliError(console_text("private_unwritable", where=where, reason=exc)) from None
    return TextOutput(stream, prefix="", owned=True)


def _check_audio_options(args: argparse.Namespace) -> None:
    """With --script nothing touches an audio device (the contract tests rely on it)."""
    if args.script is None:
        return
    if args.input == "mic":
        raise UsageError(console_text("script_no_mic"))
    if args.voice == "tts" or args.tts is not None or args.satellite is not None:
        raise UsageError(console_text("script_no_tts"))


def _default_save(game_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "saves" / f"{game_id}-{stamp}.jsonl"


def _with_assistant(
    args: argparse.Namespace, players: tuple[str, ...]
) -> tuple[tuple[str, ...], str | None]:
    """The seat order with the assistant's seat (``--assistant``) added, and its name."""
    if args.assistant is None:
        if args.assistant_seat is not None:
            raise UsageError(console_text("assistant_seat_alone"))
        return players, None
    if args.game not in ASSISTANT_GAMES:
        games = list(ASSISTANT_GAMES)
        raise UsageError(console_text("assistant_game", games=games, game=args.game))
    (name,) = players_option(args.assistant) if "," not in args.assistant else ("",)
    if not name:
        raise UsageError(console_text("assistant_one_name"))
    if normalize(name) in {normalize(p) for p in players}:
        raise UsageError(console_text("assistant_like_player", name=name))
    try:
        return seat_players(players, name, args.assistant_seat), name
    except SetupError as exc:
        raise UsageError(console_text("assistant_bad_seat", seats=exc.params["seats"])) from None


def prepare_play(args: argparse.Namespace) -> tuple[Any, Setup, int | None]:
    """Everything ``play`` checks before anything is opened or written: the adapter, the
    set-up and the speech rate (a UsageError says what is wrong)."""
    adapter = adapter_for(args.game)
    set_console_language(args.lang)
    players, assistant = _with_assistant(args, players_option(args.players))
    first = _first(args.first, players)
    rate = _check_rate(args.rate)
    if args.seed is not None and args.seed < 0:
        raise UsageError(console_text("seed_negative"))
    seed = args.seed if args.seed is not None else _dt.datetime.now().microsecond
    options = adapter.options(args, args.lang)
    if assistant is not None:
        options["assistant"] = {"name": assistant, "level": args.assistant_level}
    _check_audio_options(args)
    setup = Setup(players, seed, first, options)
    try:
        adapter.create(setup)  # checks the setup before anything is written
    except SetupError as exc:
        raise UsageError(_setup_message(args.game, exc)) from None
    _check_player_names(adapter, args.lang, setup)
    return adapter, setup, rate


def cmd_play(args: argparse.Namespace) -> int:
    adapter, setup, rate = prepare_play(args)
    given = getattr(args, "script_lines", None)  # the rest of a set-up dialogue's script
    script = given if given is not None else _open_script(args.script)
    save = args.save if args.save is not None or script is not None else _default_save(args.game)
    private = _make_private_output(args)  # refusals before the save file is written
    try:
        check_table_view(args, args.lang)
        journal = Journal.create(save, Header(args.game, args.lang, setup)) if save else None
    except (CliError, JournalError):
        if private is not None:
            private.close()
        raise
    if journal is not None:
        remember_save(journal.path)
    settings = load_settings()
    session = Session(
        adapter,
        args.lang,
        setup,
        _make_output(args, args.lang),
        journal=journal,
        rate=rate if rate is not None else clamp_rate(settings.get("rate")),
        private=private,
    )
    initial_rate = session.rate
    code = _run(session, args, script)
    args.finished = session.game.is_over()  # a game set up by talking may be played again
    # "langsamer" in the game: a game set up by talking remembers it for the household
    args.rate_now = session.rate if session.rate != initial_rate else None
    return code


def cmd_resume(args: argparse.Namespace) -> int:
    path = args.file or last_save()
    contents = _read_save(path, repair=bool(getattr(args, "repair", False)))
    set_console_language(contents.header.lang)
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
        raise CliError(console_text("cannot_resume", path=path, problem=message)) from None
    session = Session(
        adapter,
        contents.header.lang,
        contents.header.setup,
        _make_output(args, contents.header.lang),
        actions=contents.actions,
        rate=rate,
        private=_make_private_output(args),
    )
    try:
        session.check_replay()  # refuses a damaged journal before the file is touched
    except JournalError:
        good = _replayable(adapter, contents)
        copy = damaged_copy(path)
        lang = contents.header.lang
        offer = console_text("save_bad_moves", lang, path=path, move=good + 1, good=good, copy=copy)
        if not (args.repair or _ask_repair(offer, good, args, lang)):
            raise JournalError(offer) from None
        del contents.actions[good:]
        contents.damaged_at = good + 1
        session.actions = list(contents.actions)
        session.check_replay()
    if contents.damaged_at is not None:
        session.journal = _repair_file(path, contents)
    elif contents.upgraded_from is not None:
        session.journal = _upgrade_file(path, contents)
    else:
        cut = contents.valid_length if contents.dropped_tail else None
        session.journal = Journal.reopen(path, cut)
    # a game saved in a pause resumes in the pause (as if farbspiel had never stopped):
    # what the table says before "weiter" is not taken for a move
    if contents.settings.get("paused") is True:
        ran = contents.settings.get("timers_ran")
        session.resume_in_pause(ran if isinstance(ran, dict) else None)
    remember_save(path)
    return _run(session, args, script, resumed=True, dropped_tail=contents.dropped_tail)


def _read_save(path: Path, repair: bool) -> Contents:
    """Read a save file; one damaged in the middle is refused with the offer to go on from
    its last good move (at a terminal: asked now; otherwise with ``--repair``)."""
    try:
        return read(path, keep_good=repair)
    except JournalError as exc:
        damage = getattr(exc, "damage", None)
        lang = getattr(exc, "lang", None)
        if damage is None or not _ask_repair(str(exc), damage[1] - 1, None, lang):
            raise
        return read(path, keep_good=True)


def _ask_repair(
    problem: str, good: int, args: argparse.Namespace | None, lang: str | None = None
) -> bool:
    """At a terminal, say what is damaged and ask whether to go on from move ``good`` -
    in the save's language ``lang`` (its words for yes), where it is known."""
    scripted = args is not None and (args.script is not None or args.json)
    if scripted or not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    print(f"farbspiel: {problem}", file=sys.stderr)
    try:
        answer = input(console_text("repair_question", lang, good=good))
    except EOFError:
        return False
    from voice.setup.understanding import yes_or_no

    said = answer.strip().lower()
    plain = yes_or_no(said, lang or console_language())
    return said in console_words("repair_yes", lang) or plain == "yes"


def _replayable(adapter: Any, contents: Contents) -> int:
    """How many of the saved actions replay, from the first on."""
    from games.engine import GameError

    game = adapter.create(contents.header.setup)
    game.start()
    for done, action in enumerate(contents.actions):
        try:
            game.apply(action)
        except GameError:
            return done
    return len(contents.actions)


def _repair_file(path: Path, contents: Contents) -> Journal:
    """Go on from the last good move: the damaged file is kept, untouched, beside the
    save file (``.damaged``), which is written anew with the good moves."""
    copy = damaged_copy(path)
    try:
        shutil.copy2(path, copy)
    except OSError as exc:
        raise CliError(console_text("save_cannot_copy", path=path, reason=exc)) from None
    header = contents.header
    journal = rewrite(
        path, Header(header.game, header.lang, header.setup), contents.actions, contents.settings
    )
    move = contents.damaged_at
    text = console_text("repaired", path=path, move=move, good=(move or 1) - 1, copy=copy)
    print(f"farbspiel: {text}", file=sys.stderr)
    return journal


def _upgrade_file(path: Path, contents: Contents) -> Journal:
    """Write a save file of an older format anew in today's format, keeping a copy of the
    old file beside it (so an older farbspiel can still open that one)."""
    old = contents.upgraded_from
    backup = path.with_name(f"{path.name}.format-{old}")
    try:
        if not backup.exists():
            shutil.copy2(path, backup)
    except OSError as exc:
        raise CliError(console_text("save_cannot_copy", path=path, reason=exc)) from None
    header = contents.header
    journal = rewrite(
        path, Header(header.game, header.lang, header.setup), contents.actions, contents.settings
    )
    text = console_text("upgraded", path=path, old=old, new=header.version, copy=backup)
    print(f"farbspiel: {text}", file=sys.stderr)
    return journal


def _run(
    session: Session,
    args: argparse.Namespace,
    script: list[str] | None,
    resumed: bool = False,
    dropped_tail: bool = False,
) -> int:
    table_view = start_table_view(session, args)
    if script is None:
        warm(session.grammar)  # the first odd question then costs no wait
    try:
        if script is not None:
            clock = VirtualClock()
            session.start(resumed, dropped_tail)
            args.script_left = args.run_lines(session, script, clock)
        else:
            clock_real = RealClock()
            session.clock = clock_real.now
            from voice.cli.devices import open_microphone_input

            _satellite_link(args)  # (made with the speech output, or here without it)
            mic = open_microphone_input(args, session.lang)
            if mic is not None:
                mic.run(session, clock_real, resumed, dropped_tail)
                return EXIT_OK
            session.reset_clock(clock_real.now())
            if args.input == "auto" and not args.json:
                print(f"farbspiel: {console_text('keyboard_listening')}", file=sys.stderr)
            session.messages.typing = True  # the prompts say "type", not "say"
            session.start(resumed, dropped_tail)
            prompt = sys.stderr if sys.stdin.isatty() else None
            reader = getattr(args, "line_reader", None) or LineReader(sys.stdin.fileno())
            run_keyboard(session, reader, clock_real, prompt)
            if not session.finished and prompt is not None:  # Ctrl-D at the terminal
                _say_saved(session, "input_ended_saved")
                return EXIT_OK
        return EXIT_OK if _report_unsaved(session) else EXIT_FAILURE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        if not _say_saved(session, "stopped_saved"):
            print(f"farbspiel: {console_text('stopped')}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # our own output or input failed: a full disk, a closed terminal
        if isinstance(exc, BrokenPipeError):
            raise
        saved = session.journal is not None and session.save_now()
        path = session.journal.path if session.journal is not None else ""
        text = console_text("io_failed", saved=saved, path=path, reason=exc)
        with contextlib.suppress(OSError):
            print(f"farbspiel: {text}", file=sys.stderr)
            if not saved:
                _report_unsaved(session)
        return EXIT_FAILURE
    finally:
        if table_view is not None:
            table_view.stop()
        session.out.close()
        if session.private is not None:
            session.private.close()
        if session.journal is not None:
            session.journal.close()


def _say_saved(session: Session, key: str) -> bool:
    """Say that the game is saved and how to go on (``key``); False if it is not saved,
    in which case what is missing was said instead."""
    if session.journal is not None and session.save_now():
        print(f"farbspiel: {console_text(key, path=session.journal.path)}", file=sys.stderr)
        return True
    if session.journal is not None:
        _report_unsaved(session)
    return False


def _report_unsaved(session: Session) -> bool:
    """Try a failed save once more at the end; say what is missing if it still fails.
    True if everything is saved (or nothing was to be)."""
    if session.journal is None or session.save_now():
        return True
    text = console_text("unsaved", reason=session.save_error, path=session.journal.path)
    print(f"farbspiel: {text}", file=sys.stderr)
    return False


def _open_script(path: Path | None) -> list[str] | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CliError(console_text("script_missing", path=path)) from None
    except UnicodeDecodeError:
        raise CliError(console_text("script_not_utf8", path=path)) from None
    except OSError as exc:
        raise CliError(console_text("script_unreadable", path=path, reason=exc)) from None


def _setup_message(game: str, exc: SetupError) -> str:
    """The engine's reason why a game cannot start, in the game's language."""
    params = {
        k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in exc.params.items()
    }
    try:
        return console_text("setup_" + exc.key, game=game, **params)
    except LookupError:  # a reason without its own message (or lacking a blank)
        return console_text("setup_other", game=game, key=exc.key)


# --- parse -------------------------------------------------------------------------------
def cmd_parse(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    lang = args.lang or adapter.default_lang
    setup = Setup(players_option(args.players), options=adapter.default_options(lang))
    grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
    intent = adapter.parser(grammar, setup).parse(" ".join(args.text))
    result = intent.to_json() if intent is not None else {"intent": None}
    print(json.dumps(result, ensure_ascii=False))
    return EXIT_OK


# --- cards -------------------------------------------------------------------------------
def cmd_cards(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    if args.pdf is not None:
        write_cards_pdf(adapter, args.lang or adapter.default_lang, args)
        return EXIT_OK
    print(adapter.printable_cards(args.lang or adapter.default_lang, args))
    return EXIT_OK


# --- main --------------------------------------------------------------------------------
def cmd_recognize(args: argparse.Namespace) -> int:
    from voice.cli.recognize import run_recognize

    return run_recognize(args)


COMMANDS = {
    "play": cmd_play,
    "resume": cmd_resume,
    "parse": cmd_parse,
    "models": cmd_models,
    "recognize": cmd_recognize,
    "cards": cmd_cards,
    "display": cmd_display,
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
                raise UsageError(console_text("bad_text", option=where, text=shown))


def _guess_language(argv: list[str]) -> str | None:
    """The game's language before the command line is understood (for its errors):
    ``--lang``, else the game's own default; ``None`` when neither is named."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGUAGES:
            return argv[i + 1]
        if arg.startswith("--lang=") and arg[7:] in LANGUAGES:
            return arg[7:]
    if argv[:1] == ["models"]:  # `models download de`: the language of the model
        return next((a for a in argv[2:] if a in LANGUAGES), None)
    for arg in argv:
        if arg in ADAPTERS:
            return ADAPTERS[arg].default_lang
    return None


ScriptRunner = Callable[[Session, Sequence[str], VirtualClock], int | None]
"""What feeds a ``--script``'s lines to the started session (:func:`run_script`)."""


def main(
    argv: list[str] | None = None,
    extra: Sequence[Command] = (),
    run_lines: ScriptRunner = run_script,
) -> int:
    """The command line. ``run_lines``: the benchmarks drive a scripted game line by line
    themselves (timing, killing) with everything else as the user runs it."""
    before = console_language()
    try:
        return _main(argv, extra, run_lines)
    finally:  # (run in-process by tests: leave no language behind)
        set_console_language(before)


def _main(argv: list[str] | None, extra: Sequence[Command], run_lines: ScriptRunner) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    set_console_language(_guess_language(raw) or _system_language())
    install_argparse_translation()
    try:
        if _wants_setup(raw):
            return _start_by_talking(raw[1:], extra, run_lines)
        args = build_parser(extra).parse_args(argv)
        args.run_lines = run_lines
        _check_text(args)
        handlers = {**COMMANDS, **{command.name: command.run for command in extra}}
        return handlers[args.command](args)
    except UsageError as exc:
        print(f"farbspiel: {explain(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except (
        CliError,
        JournalError,
        GrammarError,
        DataError,
        ModelError,
        RecogniserError,
        AudioError,
        TtsError,
    ) as exc:
        print(f"farbspiel: {explain(exc)}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print(f"\nfarbspiel: {console_text('stopped')}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`)
        _silence_stdout()
        return EXIT_FAILURE
    except Exception as exc:  # noqa: BLE001 - last line of defence: no tracebacks for users
        log = _log_crash()
        error = f"{type(exc).__name__}: {exc}"
        print(f"farbspiel: {console_text('internal_error', error=error, log=log)}", file=sys.stderr)
        return EXIT_FAILURE


def _wants_setup(raw: list[str]) -> bool:
    """``farbspiel`` alone, or ``play`` with options but no game: set up by talking."""
    if not raw:
        return True
    if raw[0] != "play" or "-h" in raw or "--help" in raw:
        return False
    if any(arg in ADAPTERS for arg in raw[1:]):  # a game is named (maybe after an option)
        return False
    return len(raw) == 1 or raw[1].startswith("-")


def _start_by_talking(rest: list[str], extra: Sequence[Command], run_lines: ScriptRunner) -> int:
    from voice.cli.start import run_setup

    parser = build_parser(extra)
    return run_setup(
        rest,
        parser.parse_args,
        cmd_play,
        prepare_play,
        _make_output,
        _open_script,
        {"run_lines": run_lines},
    )


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
        return console_text("no_log")
    return str(path)


def _system_language() -> str:
    """The user's language from the environment (LANGUAGE, LC_ALL, LANG), "en" otherwise."""
    import os

    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value[:2] in LANGUAGES:
            return value[:2]
    return "en"


if __name__ == "__main__":
    raise SystemExit(main())
