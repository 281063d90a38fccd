"""Words per prompt: how long farbspiel talks, measured on real games.

Plays every golden playthrough (``tests/golden/*/*.script``) in both of its languages as
written, and once more with "help" / "Hilfe" asked after every line (help changes nothing
in a game), and counts the words of everything said: per prompt (the event's message
key), the whole sentence and its first sentence (which must carry what matters).

    python -m voice.bench.prompt_words [--out bench-results]

writes ``prompt-words.json`` and ``prompt-words.md`` (the longest prompts first).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import shlex
import statistics
import sys
from collections import defaultdict
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
HELP = {"de": "Hilfe", "en": "help"}
HELP_STARTS = ("Jetzt geht:", "Now:", "Gerade wartet das Spiel", "The game is waiting")
_WORD = re.compile(r"[\wÄÖÜäöüß'’-]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ„“])")


def words(text: str) -> int:
    return len(_WORD.findall(text))


def first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0]


def _play(argv: list[str], lines: list[str]) -> list[dict[str, Any]]:
    from voice.cli.main import main

    script = Path(_tmp()) / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        main([*argv, "--script", str(script), "--json"])
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


_TMP: list[str] = []


def _tmp() -> str:
    if not _TMP:
        import tempfile

        _TMP.append(tempfile.mkdtemp(prefix="farbspiel-words-"))
    return _TMP[0]


def _said(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(message key, text) for every spoken line: a "say" is followed by its event."""
    pairs = []
    for i, event in enumerate(events):
        if event.get("type") != "say":
            continue
        following = events[i + 1] if i + 1 < len(events) else {}
        kind = following.get("type", "?")
        if event["text"].startswith(HELP_STARTS):
            kind = "help"
        elif kind == "refused":
            kind = following.get("reason", "refused")
        elif kind == "say":
            kind = "(session)"
        pairs.append((kind, event["text"]))
    return pairs


def measure(scripts: list[Path] | None = None) -> dict[str, Any]:
    """Words per prompt over the given golden scripts (default: all), with help asked
    after every line."""
    scripts = scripts or sorted(GOLDEN.glob("*/*.script"))
    per_key: dict[str, list[int]] = defaultdict(list)
    first: dict[str, list[int]] = defaultdict(list)
    longest: dict[str, str] = {}
    helps: list[tuple[int, str]] = []
    for path in scripts:
        text = path.read_text(encoding="utf-8").splitlines()
        argv = shlex.split(text[0].removeprefix("# farbspiel:"))
        lang = argv[argv.index("--lang") + 1] if "--lang" in argv else _default_lang(argv[1])
        body = [line for line in text[1:] if line.split("#")[0].strip()]
        with_help = [x for line in body for x in (line, HELP[lang])]
        for lines in (body, with_help):
            for key, said in _said(_play(argv, lines)):
                name = f"{lang}/{argv[1]}/{key}"
                per_key[name].append(words(said))
                first[name].append(words(first_sentence(said)))
                if words(said) >= max(per_key[name]):
                    longest[name] = said
                if key == "help":
                    helps.append((words(said), said))
    rows: list[dict[str, Any]] = sorted(
        (
            {
                "prompt": name,
                "count": len(counts),
                "median_words": statistics.median(counts),
                "max_words": max(counts),
                "max_first_sentence": max(first[name]),
                "longest": longest[name],
            }
            for name, counts in per_key.items()
        ),
        key=lambda r: (-r["max_words"], r["prompt"]),
    )
    all_counts = [c for counts in per_key.values() for c in counts]
    return {
        "scripts": [str(p.relative_to(ROOT)) for p in scripts],
        "spoken_lines": len(all_counts),
        "median_words": statistics.median(all_counts),
        "p90_words": statistics.quantiles(all_counts, n=10)[-1],
        "max_words": max(all_counts),
        "help_max_words": max(h[0] for h in helps) if helps else 0,
        "help_median_words": statistics.median(h[0] for h in helps) if helps else 0,
        "longest_help": max(helps)[1] if helps else "",
        "prompts": rows,
    }


def _default_lang(game: str) -> str:
    from voice.session.adapters import ADAPTERS

    return ADAPTERS[game].default_lang


def write_report(result: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "prompt-words.json").write_text(
        json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    lines = [
        "# Words per prompt",
        "",
        f"{result['spoken_lines']} spoken lines from {len(result['scripts'])} golden games "
        "(each also with help asked after every line).",
        "",
        f"- median {result['median_words']} words, p90 {result['p90_words']:.0f}, "
        f"longest {result['max_words']}",
        f"- help: median {result['help_median_words']}, longest {result['help_max_words']} "
        f"words: “{result['longest_help']}”",
        "",
        "| prompt | said | median | max | max first sentence | longest |",
        "|---|---|---|---|---|---|",
    ]
    for row in result["prompts"]:
        lines.append(
            f"| {row['prompt']} | {row['count']} | {row['median_words']} | {row['max_words']} "
            f"| {row['max_first_sentence']} | {row['longest']} |"
        )
    (out / "prompt-words.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    parser.add_argument("--script", type=Path, action="append", help="only this golden script")
    args = parser.parse_args(argv)
    result = measure([p.resolve() for p in args.script] if args.script else None)
    write_report(result, args.out)
    top = result["prompts"][0]
    print(
        f"{result['spoken_lines']} lines: median {result['median_words']} words, "
        f"longest {result['max_words']} ({top['prompt']}: “{top['longest']}”); "
        f"help at most {result['help_max_words']} words. Written to {args.out}/prompt-words.md",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
