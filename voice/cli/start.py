"""``farbspiel`` (or ``farbspiel play``) without a game: set the game up by talking.

The dialogue (voice.setup) asks for the game and the players and says the set-up back;
on "yes" the game starts exactly as its command line would (``farbspiel play GAME ...``).
This module gets the command line's own parser and ``play`` as arguments (it must not
import voice.cli.main).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from games.engine import SetupError
from voice.errors import UsageError
from voice.input.lines import LineReader, read_script
from voice.output.messages import Messages, console_language, explain, set_console_language
from voice.output.sinks import Output
from voice.session.adapters import ADAPTERS
from voice.session.player_names import command_name_problem
from voice.setup.dialogue import Remembered, Reply, SetupDialogue, TooFew
from voice.setup.household import Household, HouseholdDamaged, load_household, save_household

SILENCE = 20.0
"""Seconds of typed silence before the question is repeated, shortly."""

Parse = Callable[[list[str]], argparse.Namespace]
Play = Callable[[argparse.Namespace], int]


def run_setup(
    rest: list[str],
    parse: Parse,
    play: Play,
    prepare: Callable[[argparse.Namespace], Any],
    make_output: Callable[[argparse.Namespace, str], Output],
    open_script: Callable[[Any], list[str] | None],
    extra: dict[str, Any],
) -> int:
    """Talk the set-up through, then start the game. ``rest``: the options after ``play``
    (input and output: --script, --json, --voice, --lang ...), checked by the real parser."""
    known, problem = _household()
    lang = _option(rest, "--lang") or known.lang or console_language()
    io = parse(["play", next(iter(ADAPTERS)), "--players", "A", *rest])  # the options' own checks
    lines = open_script(io.script)
    reader = _keyboard() if lines is None else None
    if lines is None and reader is None:
        lines = []  # no input to read: nothing can be set up

    def check(argv: list[str]) -> str | TooFew | None:
        try:
            set_console_language(dialogue.plan.lang)
            prepare(parse(["play", *argv, *_without_lang(rest)]))
        except UsageError as exc:
            # the game's own reason is the context of the command line's message
            cause = exc.__context__
            if isinstance(cause, SetupError) and cause.key == "player_count":
                count, low = cause.params.get("count"), cause.params.get("low")
                if isinstance(count, int) and isinstance(low, int) and count < low:
                    return TooFew(low - count)
            return explain(exc)
        return None

    remembered = Remembered(known.last, known.options, tuple(known.players), known.assistant)

    def names(lang: str, players: tuple[str, ...]) -> str | None:
        set_console_language(lang)
        return command_name_problem(lang, players)

    dialogue = SetupDialogue(lang, check, known=remembered, names=names)
    ears = _Ears(io, reader, remembered.players, dialogue) if lines is None else None
    out = make_output(io, lang)
    if problem is not None:
        out.say(Messages(lang, "setup", {}).require(*problem))
    reply = dialogue.first()
    answers = _answers(lines, reader)
    rounds = 0
    while True:
        try:
            if ears is not None and ears.open(out):  # by voice (and typing)
                out, answers = ears.gate, ears.answers()
            start, left = _talk(dialogue, out, answers, reply)
        finally:
            if ears is not None:
                ears.close()  # the game opens its own microphone and recogniser
            out.close()
        if start is None:
            return 0
        args = parse(["play", *start, *_without_lang(rest)])
        for key, value in extra.items():
            setattr(args, key, value)
        if args.rate is None and known.rate is not None:
            args.rate = known.rate
        rounds += 1
        if rounds > 1 and args.save is not None:  # "neue Runde" with --save FILE: FILE-2 ...
            args.save = _numbered(args.save)
        known.remember(dialogue.plan, args.rate)
        if problem is None or problem[0] == "household_damaged":  # never over a kept file
            save_household(known)
        args.script_lines = left
        args.line_reader = reader
        played = dialogue.plan
        code = play(args)
        if getattr(args, "rate_now", None) is not None:
            known.rate = args.rate_now  # said "slower" / "faster" in the game
            if problem is None or problem[0] == "household_damaged":
                save_household(known)
        if code != 0 or not getattr(args, "finished", False):
            return code
        if left is not None:  # the script goes on after the game's end
            at = getattr(args, "script_left", None)
            if at is None:
                return code
            answers = _answers(left[at - 1 :], None)
        out = make_output(io, played.lang)
        reply = dialogue.game_ended(played)


class _Ears:
    """The set-up heard through the microphone, as the game will be (``--input``,
    ``--asr``, ``--model``): opened for each round of set-up, closed before the game
    opens its own. Nothing to hear with (no microphone, no recogniser): the keyboard, as
    the games say (``--input mic`` that cannot work is refused as for a game)."""

    def __init__(
        self,
        io: argparse.Namespace,
        keyboard: LineReader | None,
        household: tuple[str, ...],
        dialogue: SetupDialogue,
    ) -> None:
        self.io = io
        self.keyboard = keyboard
        self.household = household
        self.dialogue = dialogue
        self.recogniser: Any = None
        self.microphone: Any = None
        self.gate: Any = None

    def open(self, out: Output) -> bool:
        from voice.cli.devices import open_microphone_input
        from voice.input.audio import AudioError, Microphone

        heard = open_microphone_input(self.io, self.dialogue.plan.lang)
        if heard is None:
            return False
        try:
            microphone = Microphone()
            microphone.start()
        except AudioError as exc:
            heard.recogniser.close()
            if self.io.input == "mic":
                raise
            print(f"farbspiel: {explain(exc)}", file=sys.stderr)
            return False
        from voice.session.microphone import ECHO_TAIL, SpeakingGate

        self.recogniser, self.microphone = heard.recogniser, microphone
        self.gate = SpeakingGate(out, tail=ECHO_TAIL)
        return True

    def answers(self) -> Iterator[tuple[str | None, list[str] | None]]:
        from voice.setup.listening import SetupListener

        def wanted() -> tuple[str, tuple[str, ...], bool]:
            plan = self.dialogue.plan
            names = tuple(dict.fromkeys((*plan.players, *self.household)))
            return plan.lang, names, self.dialogue.spelling

        listener = SetupListener(
            self.recogniser, self.microphone, self.gate, wanted, self.keyboard, SILENCE,
            weighty=self.dialogue.changes_game,
        )  # fmt: skip
        return listener.answers()

    def close(self) -> None:
        if self.microphone is not None:
            self.microphone.close()
        if self.recogniser is not None:
            self.recogniser.close()
        self.microphone = self.recogniser = None


def _numbered(path: Path) -> Path:
    """The first of FILE-2, FILE-3 ... beside ``path`` that does not exist yet."""
    n = 2
    while (found := path.with_name(f"{path.stem}-{n}{path.suffix}")).exists():
        n += 1
    return found


def _household() -> tuple[Household, tuple[str, dict[str, object]] | None]:
    """The remembered household, and what to say if its file could not be read."""
    try:
        return load_household(), None
    except HouseholdDamaged as exc:
        if exc.kept is None:
            return Household(), ("household_unreadable", {"reason": exc.reason, "path": exc.path})
        return Household(), ("household_damaged", {"reason": exc.reason, "kept": exc.kept})


def _keyboard() -> LineReader | None:
    try:
        return LineReader(sys.stdin.fileno())
    except (OSError, ValueError):  # no standard input (closed, or replaced by a test runner)
        return None


def _talk(
    dialogue: SetupDialogue,
    out: Output,
    answers: Iterator[tuple[str | None, list[str] | None]],
    first: Reply,
) -> tuple[list[str] | None, list[str] | None]:
    """Ask and listen until the table says yes: the command line and the script lines left."""
    _say(out, dialogue, first)
    for text, left in answers:
        reply = dialogue.hear(text) if text is not None else dialogue.repeat()
        _say(out, dialogue, reply)
        if reply.start is not None:
            return reply.start, left
        if reply.done:
            return None, None
    if not dialogue.after:
        _say(out, dialogue, Reply("input_ended"))
    return None, None


def _answers(
    lines: list[str] | None, reader: LineReader | None
) -> Iterator[tuple[str | None, list[str] | None]]:
    """Each answer (None: silence) with the script lines after it."""
    if lines is not None:
        for item in read_script(lines):
            if item.text is not None:
                yield item.text, lines[item.number :]
            elif item.seconds is not None:
                yield None, lines[item.number :]
        return
    assert reader is not None
    while True:
        line = reader.readline(SILENCE)
        if line == "":
            return
        yield (line.strip() or None) if line is not None else None, None


def _say(out: Output, dialogue: SetupDialogue, reply: Reply) -> None:
    messages = Messages(dialogue.plan.lang, "setup", {})
    data = _texts(messages, reply.data)
    text = messages.require(reply.key, data)
    if "next" in reply.data:  # "Zurück." then the question it went back to
        text += " " + messages.require(str(reply.data["next"]), data)
    out.say(text)


def _texts(messages: Messages, data: dict[str, Any]) -> dict[str, Any]:
    if "players" not in data:
        return data
    games = messages.templates.get("_games", {})
    table = messages.templates.get("_options", {})
    options = []
    for item in data["options"]:
        flag, value = item.split("=", 1)
        words = table.get(flag, {})
        said = value
        if flag == "teams" and "/" in value:  # "Anna und Cem gegen Ben und Dana"
            sides = [messages.join(side.split(",")) for side in value.split("/", 1)]
            said = f" {messages.templates.get('_against', '/')} ".join(sides)
        options.append(str(words.get(value, words.get("default", value))).format(value=said))
    return {
        **data,
        "game": games.get(data["game"], data["game"]),
        "examples": messages.templates.get("_examples", {}).get(data["game"], ""),
        "players": messages.join(data["players"]),
        "options": "".join(", " + o for o in options),
    }


def _option(argv: Sequence[str], flag: str) -> str | None:
    for i, word in enumerate(argv):
        if word == flag and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith(flag + "="):
            return word.split("=", 1)[1]
    return None


def _without_lang(argv: Sequence[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--lang":
            skip = True
        elif not word.startswith("--lang="):
            out.append(word)
    return out
