"""Hostile input, generated (hypothesis): arbitrary Unicode, huge inputs and control
characters for the parser of every game in both languages, for the running session,
for every command-line entry and option, and random corruption of save files, Pantone
deck files, Farben word lists and the settings file.

What must hold: never a traceback and never "internal error" (the CLI's last-resort
handler); exit codes 0, 1 or 2 only; a state that changes only through journalled
actions (so rejected input changes nothing); every input that is not table talk gets
an answer one can hear; corrupt files are left exactly as they were.

Profiles: ``ci`` (default: few examples, derandomised, quick) and ``report`` (many):

    FARBSPIEL_HYPOTHESIS_PROFILE=report python -m voice.bench.hostile

counts the generated cases per test (``FARBSPIEL_CASES_FILE``) into bench-results/.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import ROOT
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import Setup, replay
from games.pantone_deck import builtin_deck, deck_to_json
from voice.__main__ import main
from voice.cli.main import build_parser
from voice.session.adapters import ADAPTERS
from voice.session.journal import Header, Journal, read
from voice.session.session import Session
from voice.understanding.grammar import LANGUAGES, Grammar

PROFILE = os.environ.get("FARBSPIEL_HYPOTHESIS_PROFILE", "ci")
REPORT_FACTOR = 40
"""The report profile runs this many times the CI examples of every test."""

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
settings.register_profile(
    "report", deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
CASES: Counter[str] = Counter()


def examples(ci: int) -> settings:
    """Settings of one test: ``ci`` examples in CI, many more for the report."""
    factor = REPORT_FACTOR if PROFILE == "report" else 1
    return settings(settings.get_profile(PROFILE), max_examples=ci * factor)


def count(name: str) -> None:
    CASES[name] += 1


@pytest.fixture(scope="module", autouse=True)
def write_case_counts():
    yield
    where = os.environ.get("FARBSPIEL_CASES_FILE")
    if where:
        path = Path(where)
        old = json.loads(path.read_text()) if path.exists() else {}
        old.update(CASES)
        path.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")


# --- strategies ----------------------------------------------------------------------------
NASTY = [
    "",
    " ",
    "\x00",
    "\x00" * 300,
    "\x07\x08\x1b[31m\x1b[0m",
    "\r\n\r\n",
    "\t\v\f",
    "\x85\u2028\u2029",
    "\u202eAnna\u202c",
    "\ufeffrot",
    "\u200b\u200c\u200d",
    "e\u0301" * 200,
    "İİİ",  # lower() makes each two characters
    "ẞ ß ſ",
    "ﬁ ﬂ",
    "🙂" * 100,
    "👩‍👩‍👧‍👦",
    "𝔯𝔬𝔱",
    "ｒｏｔ",
    "%s %d {0} {colour} {{}}",
    "${HOME} $(ls) `ls`",
    "' OR 1=1 --",
    "[rot|grün]",
    "<b>rot</b>",
    "\\n\\x00",
    "a" * 301,
    "rot " * 5000,
]
ARGV_CHARACTERS = st.one_of(
    st.characters(exclude_characters="\x00"),  # a command line cannot hold a NUL byte
    st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF),  # undecodable bytes
)
ARGV_NASTY = ["Anna\udcff", "Zo\udce9", "\udcc3\udca4", "Ben,Cem\udcff", "a\udcff/b,c/d", "-", "--"]
argv_text = st.one_of(
    st.text(ARGV_CHARACTERS, max_size=40),
    st.sampled_from([s for s in NASTY if "\x00" not in s] + ARGV_NASTY),
    st.builds(
        lambda s, n: s * n, st.text(ARGV_CHARACTERS, min_size=1, max_size=5), st.integers(50, 3000)
    ),
)


def utterances(pool: list[str]) -> st.SearchStrategy[str]:
    """What a table (or a confused recogniser) might say: real sentences, broken ones,
    Unicode noise, control characters, huge inputs."""
    real = st.sampled_from(pool)
    return st.one_of(
        real,
        real,
        st.text(max_size=60),
        st.sampled_from(NASTY),
        st.tuples(real, st.text(max_size=8), st.integers(0, 60)).map(
            lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
        ),
        st.lists(real, min_size=2, max_size=4).map(" ".join),
        st.tuples(real, st.integers(2, 400)).map(lambda t: " ".join([t[0]] * t[1])),
        st.lists(st.sampled_from(sorted(_vocabulary_sample())), max_size=12).map(" ".join),
    )


@cache
def _vocabulary_sample() -> frozenset[str]:
    words: set[str] = set()
    for game, adapter in ADAPTERS.items():
        for lang in LANGUAGES:
            setup = _setups()[(game, lang)][0]
            words |= Grammar(lang, game, adapter.dynamic_lists(setup, lang)).vocabulary
    return frozenset(words)


def _golden_commands() -> Iterator[tuple[str, str, list[str], list[str]]]:
    """(game, lang, play argv, script lines) of every golden playthrough."""
    for path in sorted((ROOT / "tests" / "golden").glob("*/*.script")):
        text = path.read_text(encoding="utf-8").splitlines()
        argv = shlex.split(text[0].removeprefix("# farbspiel:"))
        args = build_parser().parse_args(argv)
        lines = [line.split("#", 1)[0].strip() for line in text[1:]]
        yield args.game, args.lang, argv, [line for line in lines if line]


@cache
def _setups() -> dict[tuple[str, str], tuple[Setup, list[str], list[str]]]:
    """Per game and language: the setup of its first golden playthrough, that
    playthrough's lines (to move a game forward), and every utterance of all golden
    playthroughs and golden sentences of that game and language (to say out of place)."""
    found: dict[tuple[str, str], tuple[Setup, list[str], list[str]]] = {}
    for game, lang, argv, lines in _golden_commands():
        said = [line for line in lines if not line.startswith("@+")]
        if (game, lang) in found:
            found[(game, lang)][2].extend(said)
            continue
        args = build_parser().parse_args(argv)
        adapter = ADAPTERS[game]
        setup = Setup(
            tuple(n.strip() for n in args.players.split(",")),
            args.seed or 0,
            args.first,
            adapter.options(args, lang),
        )
        found[(game, lang)] = (setup, lines, said)
    for (game, lang), (_, _, said) in found.items():
        for path in (ROOT / "tests" / "grammars" / lang).glob("*.yaml"):
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            if path.stem in (game, "common"):
                said += [s for block in doc["tests"] for s in block["sentences"]]
    return found


GAME_LANGS = [(g, lang) for g in ADAPTERS for lang in LANGUAGES]


# --- the parser ----------------------------------------------------------------------------
@cache
def _parser(game: str, lang: str):
    setup = _setups()[(game, lang)][0]
    adapter = ADAPTERS[game]
    grammar = Grammar(lang, game, adapter.dynamic_lists(setup, lang))
    return grammar, adapter.parser(grammar, setup)


@pytest.mark.parametrize(("game", "lang"), GAME_LANGS)
def test_the_parser_takes_anything_and_answers_an_intent_or_nothing(game, lang):
    grammar, parser = _parser(game, lang)
    names = sorted(grammar.intent_names)

    @examples(40)
    @given(
        text=utterances(_setups()[(game, lang)][2]),
        allowed=st.none() | st.sets(st.sampled_from(names)),
    )
    def check(text: str, allowed: set[str] | None) -> None:
        count(f"parser[{game}-{lang}]")
        intent = parser.parse(text, allowed)
        if intent is not None:
            assert intent.name in grammar.intent_names
            json.dumps(intent.to_json(), ensure_ascii=False).encode("utf-8")
            assert 0 < intent.score <= 1

    check()


# --- the running session ----------------------------------------------------------------------
class Recorder:
    """An output that keeps what a JSON output would print, checking it could."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def say(self, text: str) -> None:
        assert isinstance(text, str) and text.strip()
        assert not re.search(r"\{\w*(:[^}]*)?\}", text), f"unfilled blank in {text!r}"
        self.record({"type": "say", "text": text})

    def record(self, record: dict[str, Any]) -> None:
        json.dumps(record, ensure_ascii=False).encode("utf-8")  # a JSON line can hold it
        self.records.append(record)

    def set_rate(self, wpm: int) -> None:
        pass

    def close(self) -> None:
        pass


class Walk:
    """A game kept running across examples: it follows a golden playthrough, with hostile
    input thrown in between its lines; a finished game is replaced by a fresh one."""

    def __init__(self, game: str, lang: str) -> None:
        self.game, self.lang = game, lang
        self.dir = Path(tempfile.mkdtemp(prefix="farbspiel-walk-"))
        self.games = 0
        self.new_game()

    def new_game(self) -> None:
        setup, self.script, _ = _setups()[(self.game, self.lang)]
        self.position = 0
        adapter = ADAPTERS[self.game]
        self.games += 1
        save = self.dir / f"game-{self.games}.jsonl"
        journal = Journal.create(save, Header(self.game, self.lang, setup))
        self.out = Recorder()
        self.session = Session(adapter, self.lang, setup, self.out, journal=journal)
        self.session.start()
        self.clock = 0.0
        self.history: list[Any] = []

    def step(self, kind: str, value: Any) -> None:
        if kind == "next":  # the table goes on with the game
            for _ in range(value):
                if self.position >= len(self.script):
                    self.new_game()
                line = self.script[self.position]
                self.position += 1
                if line.startswith("@+"):
                    self.step("time", float(line[2:]))
                else:
                    self.step("hear", line)
            return
        session = self.session
        before_actions = list(session.actions)
        before_state = session.game.snapshot()
        start = len(self.out.records)
        self.history.append((kind, value))
        if kind == "hear":
            session.hear(value)
            session.tick(self.clock)
        else:
            self.clock += value
            session.tick(self.clock)
        new = self.out.records[start:]
        kinds = [r["type"] for r in new]
        where = f"{self.game}/{self.lang}, after {self.history}"
        adapter = ADAPTERS[self.game]
        rebuilt = replay(adapter.create(session.setup), session.actions).snapshot()
        assert session.game.snapshot() == rebuilt, f"state not from the journal: {where}"
        assert session.journal is not None and not session.save_broken
        assert read(session.journal.path).actions == session.actions, where
        silent = "ignored" in kinds or "thinking_aloud" in kinds  # a story, thinking aloud
        if kind == "hear" and ("not_understood" in kinds or silent):
            assert session.actions == before_actions, where
            assert session.game.snapshot() == before_state, where
        if kind == "hear" and not silent and not session.finished:
            assert "say" in kinds, f"no answer to {value!r}: {where}"
        if session.finished or len(self.history) > 1000:
            self.new_game()


@cache
def _walk(game: str, lang: str) -> Walk:
    return Walk(game, lang)


@pytest.mark.parametrize(("game", "lang"), GAME_LANGS)
def test_the_session_survives_hostile_input_and_changes_only_through_the_journal(game, lang):
    walk = _walk(game, lang)
    step = st.one_of(
        st.tuples(st.just("next"), st.integers(1, 8)),
        st.tuples(st.just("hear"), utterances(_setups()[(game, lang)][2])),
        st.tuples(st.just("time"), st.sampled_from([0.5, 1, 5, 10, 30, 60])),
    )

    @examples(20)
    @given(steps=st.lists(step, min_size=1, max_size=8))
    def check(steps: list[tuple[str, Any]]) -> None:
        count(f"session[{game}-{lang}]")
        for kind, value in steps:
            walk.step(kind, value)

    check()


# --- the command line ---------------------------------------------------------------------------
def run(argv: list[str]) -> tuple[int, str, str]:
    """``farbspiel`` in this process, with a strict UTF-8 stdout like a terminal's."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, raw.getvalue().decode("utf-8"), err.getvalue()


def assert_clean(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "internal error" not in err and "Traceback" not in err, err


EMPTY_SCRIPT = Path(tempfile.mkdtemp(prefix="farbspiel-empty-")) / "empty.script"
EMPTY_SCRIPT.write_text("")
atexit.register(shutil.rmtree, EMPTY_SCRIPT.parent, True)  # hypothesis: no tmp_path here

names = st.lists(
    st.sampled_from(["Anna", "Ben", "Cem", "Dan", "Eva", "Fritz", "Zoë", "Jean-Luc"]),
    min_size=1,
    max_size=7,
    unique=True,
).map(",".join)


def _option(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


GAME_OPTIONS = {
    "alle-meine-farben": st.tuples(
        _option("--variant", st.sampled_from(["basic", "profi", "pro", "PROFI"]) | argv_text),
    ),
    "farben": st.tuples(
        _option(
            "--words",
            st.sampled_from(["School/Holiday,Success/Monday", "Oma/Küche", "a/b,c/d"]) | argv_text,
        ),
        _option("--time-limit", st.sampled_from(["10", "60", "3600", "9", "1e3"]) | argv_text),
    ),
    "pantone": st.tuples(
        _option("--cards", st.sampled_from(["number", "deal", "physical", "box"]) | argv_text),
        st.one_of(
            st.just([]),
            st.just(["--teams"]),
            _option("--teams", st.sampled_from(["Anna,Cem/Ben,Dan", "Anna/Ben"]) | argv_text),
        ),
        _option("--target", st.sampled_from(["20", "1", "1000", "0", "-5"]) | argv_text),
        st.lists(st.sampled_from(["--speed", "--minimalist", "--abstract", "--renaissance"])),
    ),
}


@pytest.mark.parametrize("game", list(ADAPTERS))
def test_play_with_any_options_never_crashes_and_writes_nothing_when_refused(game, tmp_path):
    @examples(30)
    @given(
        players=names | argv_text,
        common=st.tuples(
            _option("--first", st.sampled_from(["Anna", "ben", "Zed"]) | argv_text),
            _option(
                "--seed", st.sampled_from(["0", "7", "-1", "99999999999999999999"]) | argv_text
            ),
            _option("--rate", st.sampled_from(["90", "300", "5", "fast"]) | argv_text),
            _option("--lang", st.sampled_from(["de", "en"]) | argv_text),
        ),
        own=GAME_OPTIONS[game],
    )
    def check(players: str, common: tuple[list[str], ...], own: tuple[Any, ...]) -> None:
        count(f"play[{game}]")
        save = tmp_path / f"save-{CASES[f'play[{game}]']}.jsonl"
        argv = ["play", game, "--players", players]
        for part in [*common, *own]:
            argv += part
        argv += ["--script", str(EMPTY_SCRIPT), "--save", str(save), "--private", "none"]
        code, out, err = run(argv)
        assert_clean(code, err)
        if code != 0:
            assert not save.exists(), f"a refused game left a save file: {err}"
        else:
            contents = read(save)
            assert contents.header.game == game and not contents.actions

    check()


@examples(80)
@given(
    game=st.sampled_from(list(ADAPTERS)) | argv_text,
    lang=st.none() | st.sampled_from(["de", "en"]) | argv_text,
    players=st.none() | names | argv_text,
    words=st.lists(argv_text, min_size=1, max_size=3),
)
def test_parse_prints_json_or_a_clear_message(game, lang, players, words):
    count("parse")
    argv = ["parse", game]
    argv += ["--lang", lang] if lang is not None else []
    argv += ["--players", players] if players is not None else []
    code, out, err = run(argv + ["--", *words])
    assert_clean(code, err)
    if code == 0:
        result = json.loads(out)
        assert (
            result["intent"] is None
            or result["intent"] in Grammar(lang or ADAPTERS[game].default_lang, game).intent_names
        )


@examples(40)
@given(
    game=st.sampled_from(list(ADAPTERS)) | argv_text,
    lang=st.none() | st.sampled_from(["de", "en"]) | argv_text,
    deck=st.none() | argv_text,
)
def test_cards_with_any_arguments(game, lang, deck):
    count("cards")
    argv = ["cards", game] + (["--lang", lang] if lang else []) + (["--deck", deck] if deck else [])
    assert_clean(*run(argv)[::2])


@examples(80)
@given(
    st.lists(
        argv_text | st.sampled_from(["play", "resume", "parse", "cards", "--json", "-h"]),
        max_size=6,
    )
)
def test_any_command_line_at_all(argv):
    count("argv")
    assume("-h" not in argv and "--help" not in argv)  # help exits through argparse's printer
    code, out, err = run(argv + ["--script", str(EMPTY_SCRIPT)] if argv[:1] == ["play"] else argv)
    assert_clean(code, err)


def test_resume_of_paths_that_are_no_save_files(tmp_path):
    for path in ["/", "/dev/null", "/proc/self/status", str(tmp_path), "does/not/exist.jsonl"]:
        count("resume-odd-paths")
        code, out, err = run(["resume", path, "--script", str(EMPTY_SCRIPT)])
        assert code == 1 and err.startswith("farbspiel: "), (path, err)
        assert_clean(code, err)


# --- corrupt files ------------------------------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**20, max_value=10**400)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(NASTY),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON/YAML tree a value could be swapped."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*prefix, i))
    return found


def _replace(node: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: _replace(node[head], rest, value)}
    copy = list(node)
    copy[head] = _replace(copy[head], rest, value)
    return copy


@st.composite
def corrupted(draw: Any, original: bytes, parse: Any, dump: Any) -> bytes:
    """``original`` with random damage: bit flips, cuts, spliced bytes, shuffled,
    dropped or doubled lines, or (in an otherwise valid file) a value of a wrong type."""
    kind = draw(
        st.sampled_from(["flip", "cut", "splice", "shuffle", "drop", "double", "retype", "deep"])
    )
    data = bytearray(original)
    if kind == "flip":
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
        return bytes(data)
    if kind == "cut":
        return bytes(data[: draw(st.integers(0, len(data)))])
    if kind == "splice":
        i = draw(st.integers(0, len(data)))
        return bytes(data[:i]) + draw(st.binary(min_size=1, max_size=40)) + bytes(data[i:])
    if kind == "deep":
        i = draw(st.integers(0, len(data)))
        return bytes(data[:i]) + b"[" * draw(st.integers(600, 1500)) + bytes(data[i:])
    lines = bytes(data).splitlines(keepends=True)
    if kind == "shuffle":
        return b"".join(draw(st.permutations(lines)))
    if kind in ("drop", "double"):
        i = draw(st.integers(0, len(lines) - 1))
        return b"".join(lines[:i] + ([] if kind == "drop" else [lines[i]] * 2) + lines[i + 1 :])
    tree = parse(original)
    path = draw(st.sampled_from(_paths(tree)))
    return dump(_replace(tree, path, draw(json_values)))


def _journal_lines(raw: bytes) -> list[Any]:
    return [json.loads(line) for line in raw.splitlines() if line.strip()]


def _dump_journal(records: Any) -> bytes:
    if not isinstance(records, list):
        records = [records]
    return b"".join(
        json.dumps(r, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n" for r in records
    )


@cache
def _saved_games() -> dict[str, bytes]:
    """A real save file of every game: a whole golden playthrough, and one cut short."""
    found: dict[str, bytes] = {}
    tmp = Path(tempfile.mkdtemp(prefix="farbspiel-saves-"))
    seen: set[str] = set()
    for game, _, argv, lines in _golden_commands():
        if game in seen:
            continue
        seen.add(game)
        script = tmp / f"{game}.script"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        save = tmp / f"{game}.jsonl"
        code, _, err = run([*argv, "--script", str(script), "--save", str(save)])
        assert code == 0, err
        raw = save.read_bytes()
        found[f"{game}-whole"] = raw
        cut = raw.splitlines(keepends=True)
        found[f"{game}-half"] = b"".join(cut[: len(cut) // 2])
    return found


SAVES = ["alle-meine-farben-whole", "alle-meine-farben-half", "farben-whole", "farben-half"]
SAVES += ["pantone-whole", "pantone-half"]


@pytest.mark.parametrize("name", SAVES)
def test_a_corrupt_save_file_is_refused_clearly_or_resumed_and_never_changed(name, tmp_path):
    original = _saved_games()[name]
    save = tmp_path / "save.jsonl"

    def parse(raw: bytes) -> list[Any]:
        return _journal_lines(raw)

    @examples(12)
    @given(damaged=corrupted(original, parse, _dump_journal))
    def check(damaged: bytes) -> None:
        count(f"save-file[{name}]")
        save.write_bytes(damaged)
        os.utime(save, ns=(1_000_000_000, 1_000_000_000))
        code, out, err = run(["resume", str(save), "--script", str(EMPTY_SCRIPT), "--json"])
        assert_clean(code, err)
        after = save.read_bytes()
        if code != 0:
            assert after == damaged and save.stat().st_mtime_ns == 1_000_000_000, err
            assert err.startswith("farbspiel: ")
        else:  # resumed: at most an unfinished last line was cut off
            assert damaged.startswith(after)
            assert after == damaged or not damaged.endswith(b"\n")

    check()


SMALL_DECK = yaml.safe_dump(deck_to_json(builtin_deck("en")[:12]), allow_unicode=True).encode()


def _parse_yaml(raw: bytes) -> Any:
    return yaml.safe_load(raw.decode("utf-8"))


def _dump_yaml(tree: Any) -> bytes:
    return yaml.safe_dump(tree, allow_unicode=True).encode("utf-8", "surrogatepass")


YAML_BOMBS = [
    b"- &a [x, x, x, x, x, x, x, x, x, x]\n"
    + b"".join(
        b"- &l%d [" % i + b", ".join([b"*a" if i == 1 else b"*l%d" % (i - 1)] * 10) + b"]\n"
        for i in range(1, 9)
    )
    + b"- name: Bomb\n  hints: [*l8, b, c, d]\n  aliases: *l8\n",
    b"[" * 800,  # deeper than Python's recursion limit lets PyYAML go
    b"{" * 800,
    b"- name: !!python/object/apply:os.system ['echo hacked']\n",
    b"- name: \x00\n",
    b"\xef\xbb\xbf- name: Bob\n  hints: [a, b, c, d]\n",
    b"- name: 1e999\n  hints: [.nan, .inf, -.inf, 0x1F]\n",
    b"- {name: Bob, hints: [a, b, c, d], name: Bob2}\n",
    b"cards: 5\n",
    b"- name: Bob\n\thints: [a, b, c, d]\n",
]


@examples(30)
@given(
    content=corrupted(SMALL_DECK, _parse_yaml, _dump_yaml) | st.sampled_from(YAML_BOMBS),
    command=st.sampled_from(["cards"] * 7 + ["play"]),
)
def test_a_corrupt_deck_file_gets_a_clear_message_and_is_left_alone(content, command):
    count("deck-file")
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "deck.yaml"
        deck.write_bytes(content)
        os.utime(deck, ns=(1_000_000_000, 1_000_000_000))
        if command == "cards":
            argv = ["cards", "pantone", "--deck", str(deck)]
        else:
            argv = ["play", "pantone", "--players", "Anna,Ben,Cem", "--deck", str(deck)]
            argv += ["--script", str(EMPTY_SCRIPT), "--save", str(Path(tmp) / "s.jsonl")]
        code, out, err = run(argv)
        assert_clean(code, err)
        assert deck.read_bytes() == content and deck.stat().st_mtime_ns == 1_000_000_000
        if code != 0:
            assert err.startswith("farbspiel: ") and not (Path(tmp) / "s.jsonl").exists()


NASTY_SETTINGS = [
    {"rate": 1e999},
    {"rate": float("nan")},
    {"rate": "fast"},
    {"rate": True},
    {"rate": [180]},
    {"rate": -(10**30)},
    {"last_save": "a\x00b"},
    {"last_save": 5},
    {"last_save": "/"},
    {"last_save": "/dev/null"},
    [1, 2],
]


@examples(30)
@given(
    content=st.binary(max_size=200)
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.sampled_from(NASTY_SETTINGS).map(lambda v: json.dumps(v).encode())
    | st.just(b"[" * 100_000)
)
def test_a_corrupt_settings_file_never_stops_a_game(content):
    count("settings-file")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "farbspiel" / "settings.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(content)
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "s.jsonl"
        argv = ["play", "alle-meine-farben", "--players", "Anna,Ben", "--save", str(save)]
        code, out, err = run([*argv, "--script", str(EMPTY_SCRIPT)])
        assert code == 0, err
        config.write_bytes(content)  # play remembered the save; resume without a file
        code, out, err = run(["resume", "--script", str(EMPTY_SCRIPT)])
        assert_clean(code, err)


@examples(30)
@given(
    words=st.lists(
        st.lists(st.text(max_size=12) | st.sampled_from(NASTY), min_size=0, max_size=3)
        | json_values,
        max_size=12,
    )
    | json_values
)
def test_corrupt_farben_word_cards_in_a_save_file(words):
    """Word cards stored in a save file (as --words puts them there), of any shape."""
    count("farben-words")
    raw = _saved_games()["farben-half"]
    records = _journal_lines(raw)
    records[0]["setup"]["options"]["words"] = words
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "s.jsonl"
        content = _dump_journal(records[:1])
        save.write_bytes(content)
        code, out, err = run(["resume", str(save), "--script", str(EMPTY_SCRIPT)])
        assert_clean(code, err)
        if code != 0:
            assert save.read_bytes() == content


def test_a_broken_word_list_or_deck_of_our_own_is_a_clear_message(monkeypatch, tmp_path):
    """Our own data files damaged (an edited installation): a message naming the file."""
    import importlib.resources

    from games import data

    real_files = importlib.resources.files
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    for path in real_files("games.data").iterdir():
        if path.name.endswith(".yaml"):
            (data_dir / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(
        importlib.resources,
        "files",
        lambda package: data_dir if package == "games.data" else real_files(package),
    )
    rng = random.Random(5)
    for name, game, players in [
        ("farben_words_en.yaml", "farben", "Anna,Ben,Cem"),
        ("pantone_en.yaml", "pantone", "Anna,Ben,Cem"),
    ]:
        original = (data_dir / name).read_bytes()
        for damage in [b"", b"- [a]\n- 5\n", original[: len(original) // 2], b"[" * 800]:
            (data_dir / name).write_bytes(damage)
            data.load.cache_clear()
            code, out, err = run(
                [
                    "play",
                    game,
                    "--players",
                    players,
                    "--script",
                    str(EMPTY_SCRIPT),
                    "--save",
                    str(tmp_path / f"{rng.random()}.jsonl"),
                ]
            )
            assert_clean(code, err)
            assert code == 1 and name in err, err
        (data_dir / name).write_bytes(original)
    data.load.cache_clear()


WRONG_TYPES = [  # (0: the header, 1: a move placing a colour; where; the wrong value)
    (1, ["action"], 5),
    (1, ["action"], "place"),
    (1, ["action", "name"], 5),
    (1, ["action", "args"], []),
    (1, ["action", "args"], {"colour": ["red"]}),
    (1, ["action", "args"], {"colour": {"red": 1}}),
    (1, ["action", "args"], {"colour": 1e999}),
    (1, ["action", "args"], {"object": "7"}),
    (1, ["action", "args"], {"player": None}),
    (0, ["setup"], 5),
    (0, ["setup", "players"], "Anna"),
    (0, ["setup", "players"], [1, 2]),
    (0, ["setup", "seed"], "7"),
    (0, ["setup", "seed"], 10**400),
    (0, ["setup", "first"], 5),
    (0, ["setup", "options"], []),
    (0, ["setup", "options"], {"variant": 5}),
    (0, ["setup", "options"], {"variant": ["profi"]}),
    (0, ["game"], None),
    (0, ["lang"], "fr"),
    (0, ["lang"], 5),
]


@pytest.mark.parametrize(("line", "path", "value"), WRONG_TYPES, ids=[str(w) for w in WRONG_TYPES])
def test_values_of_the_wrong_type_in_a_save_file(line, path, value, tmp_path):
    """Hand-edited save files, one wrong value at a time (the cases hypothesis may miss
    with few examples)."""
    records = _journal_lines(_saved_games()["alle-meine-farben-half"])
    if line == 1:  # the first move that places a colour
        line = next(i for i, r in enumerate(records) if r.get("action", {}).get("name") == "place")
    target = records[line]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    save = tmp_path / "save.jsonl"
    content = _dump_journal(records)
    save.write_bytes(content)
    code, out, err = run(["resume", str(save), "--script", str(EMPTY_SCRIPT)])
    assert_clean(code, err)
    if code != 0:
        assert save.read_bytes() == content and err.startswith("farbspiel: ")


def test_the_keyboard_takes_any_bytes_in_a_real_process(tmp_path):
    """Invalid UTF-8, NUL bytes, carriage returns and a 200 KB line without an end, typed
    into a real process: every game goes on and ends at end of input, without a crash."""
    rng = random.Random(3)
    blob = bytes(rng.randrange(256) for _ in range(20_000))
    typed = (
        blob
        + b"\n\xff\xfe\xfd\n\x00\x00rot\x00\n\r\r\n"
        + "grün\n".encode("latin-1")
        + b"x" * 200_000
        + b"\nrot\n"
    )
    for game in ADAPTERS:
        count("keyboard-bytes")
        proc = subprocess.run(
            [sys.executable, "-m", "voice", "play", game, "--players", "Anna,Ben,Cem"]
            + ["--input", "keyboard", "--json", "--save", str(tmp_path / f"{game}.jsonl")],
            input=typed,
            capture_output=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=300,
        )
        err = proc.stderr.decode("utf-8", "replace")
        assert proc.returncode == 0, err
        assert "internal error" not in err and "Traceback" not in err
        kinds = [json.loads(line)["type"] for line in proc.stdout.splitlines()]
        assert kinds.count("not_understood") >= 5


BENCH_OPTIONS = ["--lang", "--engine", "--voices-de", "--voices-en", "--noise", "--jobs"]
BENCH_OPTIONS += ["--seed", "--out", "--cache", "--model", "--quick", "--no-play"]


@examples(60)
@given(st.lists(argv_text | st.sampled_from(BENCH_OPTIONS + ["de,en", "pink:10"]), max_size=8))
def test_bench_with_any_arguments_runs_or_refuses_clearly(argv):
    """The benchmark's own run is replaced (it takes many minutes); what is tested is
    that any command line either reaches it with valid options or is refused clearly."""
    count("bench-argv")
    assume("-h" not in argv and "--help" not in argv)
    from unittest import mock

    from voice.bench import speech as bench

    reached = []
    with mock.patch.object(bench, "run_bench", lambda options, note: reached.append(options) or {}):
        code, out, err = run(["bench", *argv])
    assert_clean(code, err)
    if code == 0:
        (options,) = reached
        assert set(options.langs) <= {"de", "en"} and 1 <= options.jobs <= 16
    else:
        assert not reached and err.startswith("farbspiel")


@examples(40)
@given(
    action=st.sampled_from(["list", "check", "download", "nonsense"]),
    rest=st.lists(
        argv_text | st.sampled_from(["de", "en", "--model", "--from", "--game", "--players"]),
        max_size=5,
    ),
)
def test_models_with_any_arguments(action, rest, tmp_path_factory):
    count("models-argv")
    assume("-h" not in rest and "--help" not in rest)
    # vosk's model list is on the network: a download must say where it comes from
    assume(action != "download" or "--from" in rest)
    code, out, err = run(["models", action, *rest])
    assert_clean(code, err)


@examples(10)
@given(
    game=st.sampled_from(list(ADAPTERS)) | argv_text,
    wav=argv_text,
    players=st.none() | argv_text,
)
def test_recognize_with_any_arguments(game, wav, players):
    count("recognize-argv")
    argv = ["recognize", game, "--asr", "sphinx"]
    argv += ["--players", players] if players is not None else []
    code, out, err = run([*argv, "--", wav])
    assert_clean(code, err)
