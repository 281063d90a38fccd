"""Fit pocketsphinx's "in grammar?" confidence per language on the fitted voices and judge
it on the held-out voices (issue 25, item 2).

    farbspiel bench --no-play --out DIR …              # the recognition pass, any voices
    python -m voice.bench.fit_confidence DIR/results.json [--out bench-results]

The recogniser's confidence is ``in grammar × this very sentence`` (voice/recognition/sphinx.py):
a logistic model of how well the grammar's best sentence fits the sounds compared with free
phones. It was one model for both languages, though German goes through the English acoustic
model and fits it worse. This reads every utterance of a recognition pass (its acoustic
measures are in ``details``), fits the model per language by logistic regression on the
*fitted* voices only (``voices.FITTED_VOICES``; label: the meaning was recognised), and
reports, for the model in use and for the refitted one, on the fitted and on the held-out
voices side by side: the log-loss, the share of commands right and sure enough to be taken
on the first try, the wrong meanings and the table talk that would be taken. A refit is
worth keeping only where the held-out columns improve as well.

Writes ``fit-confidence.{md,json}`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice.bench.voices import FITTED_VOICES
from voice.recognition import sphinx
from voice.recognition.base import Thresholds

MEASURES = ("ratio", "distance", "length", "margin", "unexplained", "grammar")
"""What the model may weigh: the three of the model in use (see
``SphinxRecogniser._fit_to_phones``), then three more signals: the n-best margin (the
probability the n-best list gives the best sentence), the seconds of speech the best
path leaves unexplained, and the size of the phase's grammar (the log of its arcs: a big
grammar makes pocketsphinx compute more senones, and the same audio's path then scores
worse against the phone loop; RESULTS-LOG, stop 37)."""


@dataclass(frozen=True)
class Sample:
    lang: str
    voice: str
    kind: str
    features: tuple[float, ...]
    """The :data:`MEASURES`."""
    label: bool
    """The meaning was recognised (never for table talk)."""
    confidence: float
    """The meaning confidence the bench measured with the model in use."""
    cap: float
    """The most the utterance may be trusted whatever the model says (unexplained speech,
    a long mixed utterance, a far talker, no phones at all)."""
    fitted: bool
    parsed: bool
    """The transcript meant something in the phase (else nothing is taken, however sure)."""


def _cap(d: dict[str, Any]) -> float:
    cap = 1.0
    over = d.get("over_floor")
    if d.get("loop_phones") == 0:
        cap = 0.0
    if d.get("unexplained", 0.0) > sphinx.UNEXPLAINED_MAX and over is not None:
        if over >= sphinx.QUIET_ROOM_DB:
            cap = min(cap, sphinx.UNEXPLAINED_CONFIDENCE)
    if d.get("frames", 0) / 100.0 > sphinx.LONG_UTTERANCE:
        cap = min(cap, sphinx.LONG_UTTERANCE_CONFIDENCE)
    if over is not None and over < sphinx.NEAR_TALKER_DB:
        cap = min(cap, sphinx.FAR_TALKER_CONFIDENCE)
    return cap


def samples(results: dict[str, Any]) -> list[Sample]:
    """The utterances of a recognition pass that carry the model's measures."""
    fitted = {v for voices in FITTED_VOICES.values() for v in voices}
    out = []
    for h in results.get("heard", []):
        d = h.get("details") or {}
        if "ratio" not in d or "path_phones" not in d:
            continue  # nothing decoded, or no phone loop
        length = math.log((d["path_phones"] + 1) / (d["loop_phones"] + 1))
        voice = str(h["voice"])
        name = voice.split("@")[0] if voice.endswith("@160") else voice
        out.append(
            Sample(
                lang=h["lang"],
                voice=voice,
                kind=h["kind"],
                features=(
                    float(d["ratio"]),
                    float(d["phone_distance"]),
                    length,
                    float((d.get("posteriors") or {}).get(d.get("hyp"), 1.0)),
                    float(d.get("unexplained", 0.0)),
                    math.log1p(float(d.get("grammar_arcs", 0))),
                ),
                label=bool(h.get("correct")) and h["kind"] != "table_talk",
                confidence=float(h.get("confidence") or 0.0),
                cap=_cap(d),
                fitted=name in fitted or voice in fitted,
                parsed=str(h.get("meaning")) != "None"
                and not str(h.get("meaning")).startswith("('talk'"),
            )
        )
    return out


Weights = tuple[float, ...]
"""One weight per measure of :data:`MEASURES`, then the bias."""

IN_USE: Weights = (
    sphinx.IN_GRAMMAR_RATIO,
    sphinx.IN_GRAMMAR_DISTANCE,
    sphinx.IN_GRAMMAR_LENGTH,
    0.0,
    0.0,
    getattr(sphinx, "IN_GRAMMAR_SIZE", 0.0),
    sphinx.IN_GRAMMAR_BIAS,
)


def in_grammar(w: Weights, s: Sample) -> float:
    x = sum(wi * xi for wi, xi in zip(w, (*s.features, 1.0), strict=True))
    return min(s.cap, sphinx._sigmoid(x))


def fit(
    train: Sequence[Sample], used: Sequence[str], start: Weights = IN_USE, l2: float = 0.01
) -> Weights:
    """Logistic regression on the ``used`` measures (the others keep weight 0) by Newton's
    method: a few small solves, no library needed for seven weights; lightly regularised
    towards the weights in use."""
    keep = [*(MEASURES.index(m) for m in used), len(start) - 1]
    w = [x if i in keep else 0.0 for i, x in enumerate(start)]
    for _ in range(50):
        n = len(keep)
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for s in train:
            x = (*s.features, 1.0)
            p = sphinx._sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            for a, i in enumerate(keep):
                grad[a] += (p - s.label) * x[i]
                for b, j in enumerate(keep):
                    hess[a][b] += p * (1 - p) * x[i] * x[j]
        for a, i in enumerate(keep):
            grad[a] += l2 * (w[i] - start[i])
            hess[a][a] += l2
        step = _solve(hess, grad)
        for a, i in enumerate(keep):
            w[i] -= step[a]
        if max(abs(si) for si in step) < 1e-6:
            break
    return tuple(w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def no_worse(w: Weights, train: Sequence[Sample], thresholds: Thresholds) -> Weights:
    """``w`` with its bias lowered until, on the fitted voices, it takes no more wrong
    meanings and no more table talk than the model in use: a refit must buy its better
    first tries with better separation, not with a lower bar."""
    base = judge(IN_USE, train, thresholds)
    bias = w[-1]
    for _ in range(200):
        trial = (*w[:-1], bias)
        got = judge(trial, train, thresholds)
        if all(got[k] <= base[k] for k in ("wrong_taken", "wrong_at_once", "talk_taken")):
            return trial
        bias -= 0.05
    return IN_USE


def judge(w: Weights, group: Sequence[Sample], thresholds: Thresholds) -> dict[str, Any]:
    """What the play policy would do with the group's utterances under the model ``w``:
    the meaning confidence scales with the in-grammar part (the rest is the n-best's)."""
    loss, right, wrong, talk, commands, talks, acted, rash = 0.0, 0, 0, 0, 0, 0, 0, 0
    for s in group:
        old, new = in_grammar(IN_USE, s), in_grammar(w, s)
        conf = s.confidence * new / old if old > 0 else 0.0
        p = min(max(new, 1e-6), 1 - 1e-6)
        loss -= math.log(p) if s.label else math.log(1 - p)
        if s.kind == "table_talk":
            talks += 1
            talk += s.parsed and conf >= thresholds.confirm
            continue
        commands += 1
        sure = conf >= thresholds.confirm
        right += s.label and sure
        wrong += (not s.label) and s.parsed and sure
        acted += s.label and conf >= thresholds.act
        rash += (not s.label) and s.parsed and conf >= thresholds.act
    n = max(1, len(group))
    return {
        "utterances": len(group),
        "log_loss": round(loss / n, 4),
        "right_first_try": round(100 * right / max(1, commands), 1),
        "right_at_once": round(100 * acted / max(1, commands), 1),
        "wrong_taken": round(100 * wrong / max(1, commands), 1),
        "wrong_at_once": round(100 * rash / max(1, commands), 2),
        "talk_taken": round(100 * talk / max(1, talks), 1),
    }


def report(data: list[Sample]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for lang in sorted({s.lang for s in data}):
        mine = [s for s in data if s.lang == lang]
        train = [s for s in mine if s.fitted]
        th = sphinx.THRESHOLDS[lang]
        models = {
            "in use": IN_USE,
            "refit": no_worse(fit(train, MEASURES[:3]), train, th),
            "refit + margin, unexplained": no_worse(fit(train, MEASURES[:5]), train, th),
            "refit + grammar size": no_worse(fit(train, (*MEASURES[:3], "grammar")), train, th),
        }
        out[lang] = {
            "weights": {name: tuple(round(x, 3) for x in w) for name, w in models.items()},
            "rows": [
                {
                    "model": model,
                    "voices": which,
                    **judge(w, [s for s in mine if s.fitted == f], th),
                }
                for model, w in models.items()
                for which, f in (("fitted", True), ("held out", False))
            ],
        }
    return out


def markdown(result: dict[str, Any], source: str) -> str:
    lines = [
        "# The in-grammar confidence, fitted per language (issue 25, item 2)",
        "",
        f"`python -m voice.bench.fit_confidence {source}`: fitted on the fitted voices only.",
        "",
    ]
    for lang, r in result.items():
        lines += [
            f"## {lang}",
            "",
            *(
                f"- weights ({', '.join(MEASURES)}, bias), {m}: {w}"
                for m, w in r["weights"].items()
            ),
            "",
            "| model | voices | utterances | log-loss | commands right, first try | "
            "right, at once | wrong taken | wrong at once | table talk taken |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in r["rows"]:
            lines.append(
                f"| {row['model']} | {row['voices']} | {row['utterances']} | {row['log_loss']} | "
                f"{row['right_first_try']}% | {row['right_at_once']}% | {row['wrong_taken']}% | "
                f"{row['wrong_at_once']}% | "
                f"{row['talk_taken']}% |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.fit_confidence")
    parser.add_argument("results", type=Path, help="results.json of a recognition pass")
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    args = parser.parse_args(argv)
    try:
        data = samples(json.loads(args.results.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.results}: {exc}", file=sys.stderr)
        return 2
    if not data:
        print(f"{args.results}: no utterance with the recogniser's measures", file=sys.stderr)
        return 2
    result = report(data)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fit-confidence.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    text = markdown(result, str(args.results))
    (args.out / "fit-confidence.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
