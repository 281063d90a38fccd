"""``farbspiel bench``: the whole benchmark, table by table, and its report."""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from games.errors import FarbspielError
from voice.bench import audio
from voice.bench.audio import Voice
from voice.bench.corpus import Item, Moment, ReferenceGame, build_items, corpus_data
from voice.bench.reference import GAMES, ReferencePlay
from voice.bench.report import write_report
from voice.bench.run import (
    Condition,
    Heard,
    Played,
    Table,
    play_pass,
    play_reference,
    recognition_pass,
)
from voice.bench.voices import DEFAULT_SPEED, DEFAULT_VOICES
from voice.errors import Notice
from voice.recognition.base import Recogniser, RecogniserError
from voice.recognition.frontend import DEFAULT as DEFAULT_FRONT_END
from voice.recognition.frontend import FrontEndSettings, with_front_end
from voice.understanding.policy import PlayPolicy
from voice.wyoming import is_wyoming_uri

BABBLE_VOICES = {
    "de": ("de+m3", "de+f2", "de+m5", "de+f4", "de+m2"),
    "en": ("en-gb+m3", "en-us+f2", "en-gb-x-rp+m5", "en-us+f4", "en-029"),
}
DEFAULT_CONDITIONS = ("clean", "pink:20", "pink:10", "pink:5", "white:10", "babble:10")


@dataclass(frozen=True)
class BenchOptions:
    out: Path
    langs: tuple[str, ...] = ("de", "en")
    games: tuple[str, ...] = GAMES
    front_ends: tuple[FrontEndSettings, ...] = (DEFAULT_FRONT_END,)
    engines: tuple[str, ...] = ("sphinx",)
    voices: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_VOICES))
    conditions: tuple[str, ...] = DEFAULT_CONDITIONS
    play: bool = True
    items_limit: int | None = None
    moves_limit: int | None = None
    jobs: int = 1
    seed: int = 1
    model_dir: Path | None = None
    cache_dir: Path | None = None
    command: str = "farbspiel bench"


class BenchError(FarbspielError, RuntimeError):
    """The benchmark cannot run; the message says why."""

    default_key = "bench"


@dataclass(frozen=True)
class _Job:
    engine: str
    game: str
    front_end: FrontEndSettings
    lang: str
    voice: Voice
    condition: Condition
    options: BenchOptions


def quick_options(options: BenchOptions) -> BenchOptions:
    """A smoke run: one voice per language, two noise levels, a few items per game."""
    voices = {lang: options.voices.get(lang, DEFAULT_VOICES[lang])[:1] for lang in options.langs}
    return replace(
        options,
        voices=voices,
        conditions=("clean", "pink:10"),
        items_limit=7,
        moves_limit=2,
    )


def open_engine(
    engine: str,
    lang: str,
    model_dir: Path | None,
    front_end: FrontEndSettings = DEFAULT_FRONT_END,
) -> Recogniser:
    if engine == "sphinx":
        from voice.recognition.sphinx import SphinxRecogniser

        return with_front_end(SphinxRecogniser(lang, vad=front_end.vad), front_end, lang)
    if is_wyoming_uri(engine):  # the household's voice server, with farbspiel's front end
        from voice.recognition.wyoming import WyomingRecogniser

        told: list[str | Notice] = []
        service = WyomingRecogniser(engine, lang, told.append, vad=front_end.vad)
        if service.info is None or service.refused:  # not there, or not for this language
            from voice.output.messages import console_text

            said = [n if isinstance(n, str) else console_text(n.key, **n.params) for n in told]
            service.close()
            raise BenchError("; ".join(said) or f"{engine} cannot be used")
        return with_front_end(service, front_end, lang)
    import voice.recognition.engines

    opener = getattr(voice.recognition.engines, "open_recogniser", None)
    if opener is None:
        raise BenchError(f"the engine {engine!r} is not part of this build; use --engine sphinx")
    return with_front_end(opener(engine, lang, model_dir), front_end, lang)


@cache
def _reference(
    game: str, lang: str, seed: int
) -> tuple[ReferencePlay, dict[str, Moment], list[Item]]:
    ref = ReferencePlay(game, lang, seed)
    moments = ref.moments()
    return ref, moments, ref.items(moments)


@cache
def _corpus(lang: str, seed: int) -> tuple[ReferenceGame, dict[str, Moment], list[Item]]:
    game = ReferenceGame(lang, seed)
    moments = game.moments()
    return game, moments, build_items(game, moments)


def _limited(items: list[Item], limit: int | None) -> list[Item]:
    """The first items, with table talk kept in proportion."""
    if limit is None:
        return items
    talk = [i for i in items if i.kind == "table_talk"][: min(limit, max(2, limit // 5))]
    other = [i for i in items if i.kind != "table_talk"][: max(0, limit - len(talk))]
    chosen = set(map(id, talk + other))
    return [i for i in items if id(i) in chosen]


def run_table(job: _Job) -> tuple[list[Heard], list[Played], dict[str, float]]:
    """Both passes for one engine, language, voice and noise (runs in a worker)."""
    options = job.options
    if job.game == "alle-meine-farben":
        game: Any
        game, moments, items = _corpus(job.lang, options.seed)
    else:
        game, moments, items = _reference(job.game, job.lang, options.seed)
    items = _limited(items, options.items_limit)
    cache_dir = options.cache_dir
    babble_voices = [Voice(v) for v in BABBLE_VOICES[job.lang] if audio.voice_works(v)]
    babble_text = corpus_data(job.lang)["babble"]

    def babble(length: int, seed: int) -> np.ndarray:
        return audio.babble_noise(length, seed, babble_text, babble_voices)

    labels = {"engine": job.engine, "lang": job.lang, "game": job.game}
    if len(options.front_ends) > 1:  # a comparison: the engine column names the front end
        labels["engine"] = f"{job.engine} {job.front_end.label}"
    # a Wyoming service hears the very noise pocketsphinx hears: the two compare
    engine = "sphinx" if is_wyoming_uri(job.engine) else job.engine
    seed = audio.seed_of(engine, job.lang, job.voice.label, job.condition.label, options.seed)
    if job.game != "alle-meine-farben":
        seed = audio.seed_of(seed, job.game)
    recogniser = open_engine(job.engine, job.lang, options.model_dir, job.front_end)
    session = game.new_session()
    policy = PlayPolicy(session.parser).for_recogniser(recogniser)
    table = Table(recogniser, job.condition, seed, babble, _spoken_keyword(job.lang, job.front_end),
                  remote=is_wyoming_uri(job.engine))  # fmt: skip
    same = getattr(game, "canonical", None)
    extra = {"canonical": same} if same is not None else {}
    heard = recognition_pass(
        table, items, moments, policy, session.is_move, job.voice, labels, cache_dir, **extra
    )
    front_seconds = getattr(recogniser, "front_seconds", 0.0)
    played: list[Played] = []
    if options.play:
        recogniser = open_engine(job.engine, job.lang, options.model_dir, job.front_end)
        table.recogniser = recogniser
        if job.game == "alle-meine-farben":
            played = play_pass(table, game, job.voice, labels, cache_dir, options.moves_limit)
        else:
            played = play_reference(table, game, job.voice, labels, cache_dir, options.moves_limit)
        front_seconds += getattr(recogniser, "front_seconds", 0.0)
    stats = {
        "front": front_seconds,
        "audio": table.stats.audio_seconds,
        "compute": table.stats.compute_seconds,
        "noise_utterances": table.stats.noise_utterances,
        "noise_accepted": table.stats.noise_accepted,
    }
    return heard, played, stats


def _spoken_keyword(lang: str, front_end: FrontEndSettings) -> str:
    """What the simulated players say before every sentence for the game."""
    from voice.recognition.keyword import KEYWORDS

    if not front_end.keyword:
        return ""
    return KEYWORDS[lang] if front_end.keyword == "default" else front_end.keyword


def jobs(options: BenchOptions, note: Callable[[str], None]) -> list[_Job]:
    out = []
    conditions = [Condition.parse(c) for c in options.conditions]
    for lang in options.langs:
        voices = [parse_voice(v) for v in options.voices.get(lang, DEFAULT_VOICES[lang])]
        usable = [v for v in voices if audio.voice_works(v.name)]
        missing = [v.name for v in voices if v not in usable]
        if missing:
            note(f"voices not installed, left out: {', '.join(missing)}")
        if not usable:
            raise BenchError(f"no usable voice for {lang}: espeak-ng cannot speak any of them")
        for engine in options.engines:
            for game in options.games:
                for front in options.front_ends:
                    for voice in usable:
                        for condition in conditions:
                            out.append(_Job(engine, game, front, lang, voice, condition, options))
    return out


def parse_voice(spec: str) -> Voice:
    """``NAME`` or ``NAME@WPM`` → a Voice (ValueError for a bad speed)."""
    name, _, speed = spec.strip().partition("@")
    if not name:
        raise ValueError(f"{spec!r} names no voice")
    if not speed:
        return Voice(name, DEFAULT_SPEED)
    if not speed.isdigit() or not 80 <= int(speed) <= 450:
        raise ValueError(f"{spec!r}: the speed must be 80 to 450 words per minute")
    return Voice(name, int(speed))


@dataclass
class _Totals:
    """What the tables measured, summed: audio heard, compute, per front end, cleaning,
    and the utterances of their own (noise) and those taken as a command."""

    audio: float = 0.0
    compute: float = 0.0
    by_front: dict[str, list[float]] = field(default_factory=dict)
    cleaning: float = 0.0
    noise_utterances: int = 0
    noise_accepted: int = 0

    def add(self, front_end: str, stats: Mapping[str, float]) -> None:
        self.audio += stats["audio"]
        self.compute += stats["compute"]
        front = self.by_front.setdefault(front_end, [0.0, 0.0])
        front[0] += stats["audio"]
        front[1] += stats["compute"]
        self.cleaning += stats["front"]
        self.noise_utterances += int(stats["noise_utterances"])
        self.noise_accepted += int(stats["noise_accepted"])

    def realtime(self) -> str:
        return (
            f"{self.audio:.0f} s of audio took {self.compute:.0f} s to recognise "
            f"(real-time factor {self.compute / max(self.audio, 1e-9):.3f}, both passes, "
            f"grammar switching included). Utterances of their own (noise, sentences "
            f"cut in two): {self.noise_utterances}, of which the policy would have taken "
            f"{self.noise_accepted} as a command."
            + "".join(
                f" Front end {label}: real-time factor {c / max(a, 1e-9):.4f}."
                for label, (a, c) in sorted(self.by_front.items())
            )
            + (
                f" Of the compute, cleaning the audio took {self.cleaning:.1f} s "
                f"({100 * self.cleaning / max(self.compute - self.cleaning, 1e-9):.1f}% on "
                "top of the recogniser)."
            )
        )


def run_bench(options: BenchOptions, note: Callable[[str], None] = print) -> dict[str, Path]:
    started = time.perf_counter()
    load_before = _load()
    todo = jobs(options, note)
    note(f"{len(todo)} tables to run ({options.jobs} at a time)")
    heard: list[Heard] = []
    played: list[Played] = []
    totals = _Totals()
    try:
        with contextlib.ExitStack() as stack:
            mapper: Any = map
            if options.jobs > 1:
                mapper = stack.enter_context(ProcessPoolExecutor(max_workers=options.jobs)).map
            for job, (h, p, s) in zip(todo, mapper(run_table, todo), strict=True):
                heard += h
                played += p
                totals.add(job.front_end.label, s)
                note(_progress(job, h, p))
    except RecogniserError as exc:
        raise BenchError(str(exc)) from exc
    elapsed = time.perf_counter() - started
    meta = _meta(options, todo, elapsed, load_before)
    meta["realtime"] = totals.realtime()
    return write_report(options.out, heard, played, meta)


def _meta(options: BenchOptions, todo: Sequence[_Job], elapsed: float,
          load_before: Any) -> dict[str, Any]:  # fmt: skip
    """The facts of the run the report starts with."""
    return {
        "command": options.command,
        "date": _dt.datetime.now().isoformat(timespec="seconds"),
        "engines": ", ".join(options.engines),
        "pocketsphinx": _version("pocketsphinx"),
        "espeak-ng": _espeak_version(),
        "voices": "; ".join(
            f"{lang}: {', '.join(sorted({j.voice.label for j in todo if j.lang == lang}))}"
            for lang in options.langs
        ),
        "games": ", ".join(options.games),
        "front end": "; ".join(f.label for f in options.front_ends),
        "push-to-talk": "; ".join(
            f"{f.label}: keyword {', '.join(_spoken_keyword(lang, f) for lang in options.langs)}"
            for f in options.front_ends
            if f.keyword
        )
        or "off",
        "seconds": round(elapsed),
        "machine": f"{os.cpu_count()} cores, shared; load average {load_before} at the "
        f"start, {_load()} at the end (compute is counted as CPU time, see README)",
    }


def _progress(job: _Job, heard: Sequence[Heard], played: Sequence[Played]) -> str:
    commands = [h for h in heard if h.kind != "table_talk"]
    right = sum(h.correct for h in commands)
    wrong = sum(p.wrong_applied for p in played)
    return (
        f"{job.engine} {job.game:17} {job.front_end.label:10} {job.lang} "
        f"{job.voice.label:16} {job.condition.label:12} "
        f"{right}/{len(commands)} right, {len(played)} moves, {wrong} wrong applied"
    )


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _espeak_version() -> str:
    from voice.recognition.pronounce import espeak_version

    return espeak_version().split(" Data at")[0]
