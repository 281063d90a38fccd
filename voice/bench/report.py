"""Benchmark numbers → a markdown report, a PNG chart and the raw results as JSON."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voice.bench.run import Heard, Played
from voice.bench.voices import DEFAULT_SPEED, FITTED_VOICES


@dataclass
class Row:
    """Aggregated numbers of one group (engine, language, [voice,] condition)."""

    key: tuple[str, ...]
    utterances: int = 0
    accuracy: float | None = None
    false_accepts: float | None = None
    table_talk: int = 0
    p50: float | None = None
    p95: float | None = None
    moves: int = 0
    wrong_per_move: float | None = None
    standing_per_move: float | None = None
    confirmations_per_move: float | None = None
    utterances_per_move: float | None = None
    typed_per_move: float | None = None


def percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def aggregate(
    heard: Sequence[Heard], played: Sequence[Played], key: Callable[[Any], tuple[str, ...]]
) -> list[Row]:
    groups: dict[tuple[str, ...], tuple[list[Heard], list[Played]]] = defaultdict(lambda: ([], []))
    for h in heard:
        groups[key(h)][0].append(h)
    for p in played:
        groups[key(p)][1].append(p)
    rows = []
    for k in sorted(groups, key=_sort_key):
        hs, ps = groups[k]
        row = Row(k)
        commands = [h for h in hs if h.kind != "table_talk"]
        talk = [h for h in hs if h.kind == "table_talk"]
        row.utterances = len(commands)
        row.table_talk = len(talk)
        if commands:
            row.accuracy = sum(h.correct for h in commands) / len(commands)
        if talk:
            row.false_accepts = sum(h.decision in ("act", "confirm") for h in talk) / len(talk)
        latencies = [h.latency for h in commands if h.latency is not None]
        latencies += [x for p in ps for x in p.latencies]
        row.p50, row.p95 = percentile(latencies, 50), percentile(latencies, 95)
        if ps:
            n = len(ps)
            row.moves = n
            row.wrong_per_move = sum(p.wrong_applied for p in ps) / n
            row.standing_per_move = sum(getattr(p, "wrong_standing", 0) for p in ps) / n
            row.confirmations_per_move = sum(p.confirmations for p in ps) / n
            row.utterances_per_move = sum(p.utterances for p in ps) / n
            row.typed_per_move = sum(not p.done for p in ps) / n
        rows.append(row)
    return rows


_CONDITION_ORDER = ["clean", "pink 20 dB", "pink 10 dB", "pink 5 dB"]


def _sort_key(key: tuple[str, ...]) -> tuple[Any, ...]:
    out: list[Any] = []
    for part in key:
        if part in _CONDITION_ORDER:
            out.append((0, _CONDITION_ORDER.index(part), part))
        else:
            out.append((1, 0, part))
    return tuple(out)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{1000 * value:.0f} ms"


def _num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def table(rows: Iterable[Row], key_names: Sequence[str]) -> list[str]:
    head = list(key_names) + [
        "commands",
        "intent accuracy",
        "table talk accepted",
        "latency p50",
        "latency p95",
        "moves",
        "wrong moves / move",
        "wrong left standing / move",
        "confirmations / move",
        "utterances / move",
        "typed / move",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = list(r.key) + [
            str(r.utterances),
            _pct(r.accuracy),
            f"{_pct(r.false_accepts)} of {r.table_talk}" if r.table_talk else "–",
            _ms(r.p50),
            _ms(r.p95),
            str(r.moves) if r.moves else "–",
            _pct(r.wrong_per_move),
            _pct(r.standing_per_move),
            _num(r.confirmations_per_move),
            _num(r.utterances_per_move),
            _pct(r.typed_per_move),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


@dataclass(frozen=True)
class Target:
    text: str
    measured: float | None
    limit: float
    above: bool  # True: measured must be >= limit
    unit: str = "%"

    @property
    def met(self) -> bool | None:
        if self.measured is None:
            return None
        return self.measured >= self.limit if self.above else self.measured <= self.limit

    def cells(self) -> list[str]:
        value = (
            _pct(self.measured)
            if self.unit == "%"
            else _ms(self.measured)
            if self.unit == "ms"
            else _num(self.measured)
        )
        limit = (
            f"{100 * self.limit:g}%"
            if self.unit == "%"
            else f"{1000 * self.limit:g} ms"
            if self.unit == "ms"
            else f"{self.limit:g}"
        )
        sign = "≥" if self.above else "≤"
        verdict = {True: "yes", False: "**no**", None: "not measured"}[self.met]
        return [self.text, f"{sign} {limit}", value, verdict]


Value = Callable[[str, str, str], float | None]
"""``value(lang, condition, field)``: a field of that row, ``None`` when not measured."""


def targets(
    rows: Sequence[Row],
    engine: str = "sphinx",
    game_rows: Sequence[Row] = (),
    realtime: Mapping[str, float] | None = None,
) -> list[Target]:
    """The issue's targets, evaluated on the (engine, language, condition) rows, and on
    the (engine, game, language, condition) rows where given."""

    def val(lang: str, condition: str, field: str) -> float | None:
        row = next((r for r in rows if r.key == (engine, lang, condition)), None)
        return getattr(row, field) if row is not None else None

    return [
        *_language_targets(val),
        *_game_targets(game_rows, engine),
        *_wrong_move_targets(val),
        *_latency_targets(rows, engine, val),
    ]


def _language_targets(val: Value) -> list[Target]:
    return [
        Target("English intent accuracy, quiet room", val("en", "clean", "accuracy"), 0.97, True),
        Target("German intent accuracy, quiet room", val("de", "clean", "accuracy"), 0.90, True),
        Target(
            "English intent accuracy, pink 10 dB", val("en", "pink 10 dB", "accuracy"), 0.90, True
        ),
        Target(
            "German intent accuracy, pink 10 dB", val("de", "pink 10 dB", "accuracy"), 0.80, True
        ),
        Target(
            "English table talk accepted, quiet room",
            val("en", "clean", "false_accepts"),
            0.05,
            False,
        ),
        Target(
            "German table talk accepted, quiet room",
            val("de", "clean", "false_accepts"),
            0.05,
            False,
        ),
    ]


def _game_targets(game_rows: Sequence[Row], engine: str) -> list[Target]:
    """Per game: accuracy and utterances per move in a quiet room, wrong moves applied."""
    out = []
    for r in game_rows:
        if r.key[0] != engine or r.key[-1] != "clean":
            continue
        game, lang = r.key[1], r.key[2]
        out.append(Target(f"{game} {lang}: intent accuracy, quiet room", r.accuracy, 0.9, True))
        out.append(
            Target(f"{game} {lang}: utterances per move, quiet room", r.utterances_per_move,
                   1.3, False, "n")
        )  # fmt: skip
        if lang == "de":
            out.append(
                Target(f"{game} de: confirmations per move, quiet room",
                       r.confirmations_per_move, 0.3, False, "n")
            )  # fmt: skip
    for r in game_rows:
        if r.key[0] != engine or r.key[-1] not in ("clean", "pink 10 dB"):
            continue
        limit = 0.01 if r.key[-1] == "clean" else 0.03
        out.append(
            Target(f"{r.key[1]} {r.key[2]}: wrong moves applied per move, {r.key[-1]}",
                   r.wrong_per_move, limit, False)
        )  # fmt: skip
        out.append(
            Target(f"{r.key[1]} {r.key[2]}: wrong moves left standing per move, {r.key[-1]}",
                   r.standing_per_move, limit, False)
        )  # fmt: skip
    return out


def _wrong_move_targets(val: Value) -> list[Target]:
    out = []
    for lang in ("de", "en"):
        out.append(
            Target(
                f"{lang}: wrong moves applied per move, quiet room",
                val(lang, "clean", "wrong_per_move"),
                0.01,
                False,
            )
        )
        out.append(
            Target(
                f"{lang}: wrong moves applied per move, pink 10 dB",
                val(lang, "pink 10 dB", "wrong_per_move"),
                0.03,
                False,
            )
        )
    return out


def _latency_targets(rows: Sequence[Row], engine: str, val: Value) -> list[Target]:
    out = []
    for lang in ("de", "en"):
        worst = [r.p95 for r in rows if r.key[:2] == (engine, lang) and r.p95 is not None]
        out.append(
            Target(
                f"{lang}: latency p95, end of speech → decision (worst condition)",
                max(worst) if worst else None,
                0.3,
                False,
                "ms",
            )
        )
        quiet = val(lang, "clean", "p95")
        out.append(Target(f"{lang}: latency p95, quiet room", quiet, 0.3, False, "ms"))
    return out


def limits(heard: Sequence[Heard], played: Sequence[Played]) -> list[str]:
    """What the misses are made of, measured: per game, language and noise, the share of
    commands the recogniser gave nothing for, that it heard right but the policy did not
    take (ignored or asked again), and that it heard as something else; and where the
    utterances per move went (first tries, confirmations answered, repeats)."""
    head = (
        "| engine | game | lang | noise | commands | right | of which too unsure to act "
        "| nothing heard | heard as something else | utterances / move | of which "
        "confirmations | of which repeats |"
    )
    lines = [head, "|" + "---|" * 12]
    groups: dict[tuple[str, ...], tuple[list[Heard], list[Played]]] = defaultdict(lambda: ([], []))
    for h in heard:
        if h.kind != "table_talk":
            groups[(h.engine, h.game, h.lang, h.condition)][0].append(h)
    for p in played:
        groups[(p.engine, p.game, p.lang, p.condition)][1].append(p)
    for key in sorted(groups, key=_sort_key):
        hs, ps = groups[key]
        n = len(hs) or 1
        right = sum(bool(h.correct) for h in hs)
        nothing = sum(not h.correct and not h.heard for h in hs)
        other = sum(not h.correct and bool(h.heard) for h in hs)
        # the meaning was right but the policy ignored it or asked again
        untaken = sum(bool(h.correct) and h.decision in ("ignore", "ask_again") for h in hs)
        moves = len(ps) or 1
        per_move = sum(p.utterances for p in ps) / moves if ps else None
        confirmations = sum(p.confirmations for p in ps) / moves if ps else None
        repeats = (per_move - 1 - (confirmations or 0)) if per_move is not None else None
        lines.append(
            "| "
            + " | ".join(
                list(key)
                + [
                    str(len(hs)),
                    _pct(right / n),
                    _pct(untaken / n),
                    _pct(nothing / n),
                    _pct(other / n),
                    _num(per_move),
                    _num(confirmations),
                    _num(repeats),
                ]
            )
            + " |"
        )
    return lines


def wrong_moves(played: Sequence[Played]) -> list[str]:
    """Every wrong move the play pass applied: what was said, what it was heard as, and
    (if it was an answer) which question it answered."""
    lines = []
    for p in played:
        for w in p.wrong:
            heard = "; ".join(f"“{h['text']}” {h['confidence']:.3f}" for h in w["heard"])
            asked = f", answering “{w['answering']}” about {w['asked']}" if w["answering"] else ""
            lines.append(
                f"- {p.game} {p.lang} {p.voice} {p.condition}, {p.move}: said “{w['said']}”, "
                f"heard {heard or '(nothing)'}{asked}; applied {w['applied']}"
            )
    return lines


def confusions(heard: Sequence[Heard], lang: str, top: int = 12) -> list[str]:
    counts: Counter[tuple[str, str]] = Counter()
    for h in heard:
        if h.lang == lang and h.kind != "table_talk" and not h.correct:
            counts[(h.text, h.heard or "(nothing)")] += 1
    return [f"- {n}× “{said}” → “{got}”" for (said, got), n in counts.most_common(top)]


_META = ("date", "engines", "pocketsphinx", "espeak-ng", "voices", "games", "front end",
         "corpus", "seconds", "machine")  # fmt: skip
_INTRO = (
    "Synthetic speech stands in for players (see voice/bench/README.md). *quiet room*: "
    "pink noise 35 dB below the speech. *Intent accuracy*: share of commands whose "
    "meaning was recognised (rejected ones count as wrong). *Table talk accepted*: "
    "chatter the play policy would have acted on or asked to confirm. *Latency*: end of "
    "speech → decision. *Play*: the reference game played by voice with the play "
    "policy; wrong moves are moves applied that the player did not say."
)


def _write_results(out_dir: Path, heard: Sequence[Heard], played: Sequence[Played],
                   meta: dict[str, Any]) -> Path:  # fmt: skip
    """The raw results, written first: a run is never lost to a problem with the report."""
    results = out_dir / "results.json"
    data = {"meta": meta, "heard": [h.to_json() for h in heard],
            "played": [p.to_json() for p in played]}  # fmt: skip
    results.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return results


FITTED = "fitted"
HELD_OUT = "held out"


def voice_set(voice: str, lang: str) -> str:
    """Whether ``voice`` is one the benchmark's figures were fitted on (the default voices
    of :data:`voice.bench.voices.FITTED_VOICES`) or one never used for fitting."""

    def spec(name: str) -> str:  # "en-us" and "en-us@160" are the same voice
        return name if "@" in name else f"{name}@{DEFAULT_SPEED}"

    return FITTED if spec(voice) in {spec(v) for v in FITTED_VOICES.get(lang, ())} else HELD_OUT


def _of_set(items: Sequence[Any], which: str) -> list[Any]:
    return [x for x in items if voice_set(x.voice, x.lang) == which]


def _head(meta: dict[str, Any], heard: Sequence[Heard], played: Sequence[Played]) -> list[str]:
    """The report's title, the run's facts, what the measures mean, the targets: each on
    the fitted voices and on the held-out ones, side by side."""
    lines = ["# farbspiel speech benchmark", ""]
    lines.append(f"Command: `{meta.get('command', 'farbspiel bench')}`  ")
    lines += [f"{name}: {meta[name]}  " for name in _META if name in meta]
    lines += ["", _INTRO, "", "## Targets", ""]
    sets = {}
    for which in (FITTED, HELD_OUT):
        hs, ps = _of_set(heard, which), _of_set(played, which)
        summary = aggregate(hs, ps, lambda x: (x.engine, x.lang, x.condition))
        per_game = aggregate(hs, ps, lambda x: (x.engine, x.game, x.lang, x.condition))
        engines = sorted({r.key[0] for r in summary})
        sets[which] = {
            (engine, t.text): t for engine in engines for t in targets(summary, engine, per_game)
        }
    lines += ["| target | goal | fitted voices | met | held-out voices | met |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    engines = sorted({e for found in sets.values() for e, _ in found}) or ["sphinx"]
    keys = list(dict.fromkeys([*sets[FITTED], *sets[HELD_OUT]]))
    for engine, text in keys:
        fitted, held = sets[FITTED].get((engine, text)), sets[HELD_OUT].get((engine, text))
        first = fitted or held
        assert first is not None
        label = f"{engine}: {text}" if len(engines) > 1 else text
        cells = [label, first.cells()[1]]
        for target in (fitted, held):
            cells += target.cells()[2:] if target is not None else ["–", "not measured"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Held-out voices beside the fitted ones", ""]
    lines += held_out_gap(heard, played)
    return lines


GAP = 0.03
"""Held-out voices must be within this much of the fitted ones (intent accuracy)."""


def held_out_gap(heard: Sequence[Heard], played: Sequence[Played]) -> list[str]:
    """Per engine, game, language and noise: the fitted and held-out figures side by side,
    and whether the held-out intent accuracy is within :data:`GAP` of the fitted one."""
    rows = aggregate(
        heard,
        played,
        lambda x: (x.engine, x.game, x.lang, x.condition, voice_set(x.voice, x.lang)),
    )
    by = {r.key: r for r in rows}
    head = ("| engine | game | lang | noise | intent accuracy fitted | held out | within 3 "
            "points | table talk accepted fitted | held out | utterances / move fitted | "
            "held out | latency p95 fitted | held out |")  # fmt: skip
    lines = [head, "|" + "---|" * 13]
    for key in dict.fromkeys(r.key[:-1] for r in rows):
        fitted, held = by.get((*key, FITTED)), by.get((*key, HELD_OUT))
        if fitted is None or held is None:
            within = "no held-out voices" if held is None else "no fitted voices"
        elif fitted.accuracy is None or held.accuracy is None:
            within = "–"
        else:
            within = "yes" if held.accuracy >= fitted.accuracy - GAP else "**no**"
        cells = list(key)
        cells += [_pct(fitted.accuracy if fitted else None), _pct(held.accuracy if held else None)]
        cells.append(within)
        for field in ("false_accepts", "utterances_per_move", "p95"):
            for row in (fitted, held):
                value = getattr(row, field) if row is not None else None
                cells.append(
                    _pct(value) if field == "false_accepts"
                    else _ms(value) if field == "p95" else _num(value)
                )  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _findings(heard: Sequence[Heard], played: Sequence[Played], meta: dict[str, Any]) -> list[str]:
    """What limits it, the wrong moves, the misrecognitions and the compute."""
    lines = ["", "## What limits it", ""]
    lines += [
        "Measured, per table: where the commands that were not understood went, and what "
        "the utterances per move are made of (a confirmation question costs the answer; a "
        "repeat is a try that was ignored, asked again, or confirmed and denied).",
        "",
    ]
    lines += limits(heard, played)
    wrong = wrong_moves(played)
    if wrong:
        lines += ["", "## Wrong moves applied (play pass)", ""] + wrong
    for lang in sorted({h.lang for h in heard}):
        found = confusions(heard, lang)
        if found:
            lines += ["", f"## Most frequent misrecognitions ({lang})", ""] + found
    if "realtime" in meta:
        lines += ["", "## Compute", "", meta["realtime"]]
    return lines


def write_report(
    out_dir: Path,
    heard: Sequence[Heard],
    played: Sequence[Played],
    meta: dict[str, Any],
) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    results = _write_results(out_dir, heard, played, meta)

    def vs(x: Any) -> str:
        return voice_set(x.voice, x.lang)

    summary = aggregate(heard, played, lambda x: (x.engine, x.lang, x.condition, vs(x)))
    per_game = aggregate(heard, played, lambda x: (x.engine, x.game, x.lang, x.condition, vs(x)))
    per_voice = aggregate(heard, played, lambda x: (x.engine, x.game, x.lang, x.voice, x.condition))
    per_kind = aggregate(
        heard, [], lambda x: (x.engine, x.game, x.lang, x.condition, x.kind, vs(x))
    )
    lines = _head(meta, heard, played)
    lines += ["", "## By engine, language and noise (all games)", ""]
    lines += table(summary, ["engine", "lang", "noise", "voices"])
    lines += ["", "## By game", ""]
    lines += table(per_game, ["engine", "game", "lang", "noise", "voices"])
    lines += ["", "## By kind of utterance", ""]
    lines += table(per_kind, ["engine", "game", "lang", "noise", "kind", "voices"])
    lines += ["", "## By voice", ""]
    lines += table(per_voice, ["engine", "game", "lang", "voice", "noise"])
    lines += _findings(heard, played, meta)
    report = out_dir / "report.md"
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = {"report": report, "results": results}
    by_noise = aggregate(heard, played, lambda x: (x.engine, x.game, x.lang, vs(x), x.condition))
    chart = write_chart(out_dir / "chart.png", by_noise)
    if chart is not None:
        paths["chart"] = chart
    return paths


def write_chart(path: Path, rows: Sequence[Row]) -> Path | None:
    """Accuracy, false accepts, wrong moves and latency by noise; None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    conditions = sorted({r.key[-1] for r in rows}, key=lambda c: _sort_key((c,)))
    series = sorted({r.key[:-1] for r in rows})
    panels = [
        ("intent accuracy (%)", lambda r: r.accuracy, 100),
        ("table talk accepted (%)", lambda r: r.false_accepts, 100),
        ("wrong moves applied per move (%)", lambda r: r.wrong_per_move, 100),
        ("latency p95 (ms)", lambda r: r.p95, 1000),
    ]
    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    width = 0.8 / max(1, len(series))
    x = np.arange(len(conditions))
    for ax, (title, get, scale) in zip(axes.flat, panels, strict=True):
        for i, name in enumerate(series):
            values = []
            for condition in conditions:
                row = next((r for r in rows if r.key == (*name, condition)), None)
                value = get(row) if row is not None else None
                values.append(np.nan if value is None else value * scale)
            ax.bar(x + i * width - 0.4 + width / 2, values, width, label=" ".join(name))
        ax.set_title(title)
        ax.set_xticks(x)
        ax.set_xticklabels(conditions, rotation=20, fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    axes.flat[0].legend(fontsize=6, ncol=2)
    fig.suptitle("farbspiel speech benchmark")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
