"""How well set-up answers are understood: ``tests/understanding/setup/<lang>.yaml`` (the
fitted corpus) or held-out files in the same format (issue 29, item 5).

    python -m voice.bench.setup_understanding                         # the corpora
    python -m voice.bench.setup_understanding --held-out tests/heldout/C/setup.*.yaml

An answer is right when every part the entry names (game, players, options, a dialogue
word; the language where the entry names one) is what farbspiel understood and nothing
else was understood; an entry
without any part is noise and must set nothing. Per language: answers, share right,
noise that set something, median parse time. Writes ``bench-results/setup-understanding.md``
(or ``setup-understanding-heldout.md``) and ``.json`` beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from voice.setup.understanding import Answer, understand

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "tests" / "understanding" / "setup"
DEFAULT_OUT = ROOT / "bench-results"


def _value(value: Any) -> str:
    """An option's value as the set-up keeps it: a flag without a value is "true"."""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value)


def expected(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "word": case.get("word"),
        "game": case.get("game"),
        "players": list(case.get("players") or []),
        "options": {str(k): _value(v) for k, v in (case.get("options") or {}).items()},
        "lang": case.get("lang"),
    }


def got(answer: Answer) -> dict[str, Any]:
    implied = next((game for game, _ in answer.options.values()), None)  # "Profi": its game
    return {
        "word": answer.word,
        "game": answer.game or implied,
        "players": list(answer.players),
        "options": {k: v for k, (_, v) in answer.options.items()},
        "lang": answer.lang,
    }


def lang_of(path: Path) -> str:
    return path.stem.rpartition(".")[2] if "." in path.stem else path.stem


def measure(files: list[Path]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rows: dict[str, dict[str, Any]] = {}
    wrong: list[dict[str, Any]] = []
    for path in files:
        lang = lang_of(path)
        if lang not in ("de", "en"):
            raise ValueError(f"{path.name}: the file name must end in .de.yaml or .en.yaml")
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            raise ValueError(f"{path.name}: must be a list of entries")
        row = rows.setdefault(lang, {"lang": lang, "answers": 0, "right": 0, "noise": 0,
                                     "noise_set": 0, "ms": []})  # fmt: skip
        for case in data:
            if not isinstance(case, dict) or "text" not in case:
                continue
            want = expected(case)
            start = time.perf_counter()
            answer = understand(str(case["text"]), lang)
            row["ms"].append((time.perf_counter() - start) * 1000)
            have = got(answer)
            if "lang" not in case:  # as tests/test_setup.py: a language only where named
                have["lang"] = None
            row["answers"] += 1
            noise = not any(want.values())
            row["noise"] += noise
            if have == want:
                row["right"] += 1
            else:
                row["noise_set"] += noise
                wrong.append({"lang": lang, "text": case["text"], "want": want, "got": have})
    out = []
    for row in rows.values():
        ms = row.pop("ms")
        row["right_pct"] = round(100 * row["right"] / max(1, row["answers"]), 1)
        row["median_ms"] = round(statistics.median(ms), 3) if ms else 0.0
        out.append(row)
    return out, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.setup_understanding")
    parser.add_argument("--held-out", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args(argv)
    files = args.held_out or sorted(CORPORA.glob("*.yaml"))
    try:
        rows, wrong = measure(files)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(f"cannot measure: {exc}", file=sys.stderr)
        return 2
    name = "setup-understanding" + ("-heldout" if args.held_out else "")
    lines = [
        f"# Set-up answers understood ({'held out' if args.held_out else 'corpora'})",
        "",
        "`python -m voice.bench.setup_understanding"
        + (" --held-out " + " ".join(str(f) for f in files) if args.held_out else "")
        + "`",
        "",
        "| lang | answers | right | noise | noise that set something | median ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['lang']} | {r['answers']} | {r['right_pct']}% | {r['noise']} | "
            f"{r['noise_set']} | {r['median_ms']} |"
        )
    if args.show_failures:
        lines += ["", "## Not understood right", ""]
        lines += [f"- {w['lang']}: “{w['text']}” want {w['want']} got {w['got']}" for w in wrong]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out / f"{name}.json").write_text(
        json.dumps({"rows": rows, "wrong": wrong}, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
