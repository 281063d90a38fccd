"""Fold a measured held-out set into the corpora (issue 24, item 2).

    python -m voice.bench.fold_held_out tests/heldout/C/*.yaml

Only after its held-out accuracy has been measured and reported: each entry is appended to
``tests/understanding/<game>.<lang>.yaml`` under a comment naming the set, in the corpus
format (the speaker dropped, since the corpus does not use it). An entry that is not
understood right at the moment of folding is marked ``known_failure`` (the corpus test
then notices when it starts to work), so the corpus targets keep measuring what farbspiel
understands while nothing the writer wrote is lost. Set-up files and entries that cannot
be measured are left out and named. The corpus file is only appended to, never rewritten,
so its comments stay.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from voice.bench.understanding import CORPORA, CorpusError, Tables, _read, load_held_out, run_case

KNOWN = "held-out {name}: not understood when folded in"


def folded_entries(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The corpus entries for a held-out file, and what was left out (with why)."""
    cases, bad = load_held_out(path)
    _, _, doc = _read(path)
    tables = Tables()
    outcomes = {id(c): run_case(tables, c) for c in cases}
    by_text = {(c.text, c.where): outcomes[id(c)] for c in cases}
    left = [f"{u.where}: {u.reason}" for u in bad]
    skip = {u.where for u in bad}
    entries: list[dict[str, Any]] = []
    for number, entry in enumerate(doc.get("entries") or [], start=1):
        where = f"{path.name} entry {number}"
        if where in skip or not isinstance(entry, dict):
            continue
        out = {
            k: entry[k] for k in ("text", "texts", "before", "expect", "never_move") if k in entry
        }
        texts = entry.get("texts") or [entry.get("text")]
        right = [t for t in texts if by_text[(str(t), where)].right]
        wrong = [t for t in texts if not by_text[(str(t), where)].right]
        for group, failing in ((right, False), (wrong, True)):
            if not group:
                continue  # the texts understood apart from those not (a test per group)
            part = {k: v for k, v in out.items() if k not in ("text", "texts")}
            part = {"texts": group, **part} if len(group) > 1 else {"text": group[0], **part}
            if failing:
                part["known_failure"] = KNOWN.format(name=path.parent.name)
            entries.append(part)
    return entries, left


def fold_file(path: Path, corpora: Path = CORPORA) -> tuple[Path, int, int, list[str]]:
    """Append the entries of one held-out file to its corpus in ``corpora``:
    (corpus, entries, marked, left)."""
    game, lang, _ = _read(path)
    corpus = corpora / f"{game}.{lang}.yaml"
    entries, left = folded_entries(path)
    lines = [
        "",
        f"  # --- held-out set {path.parent.name} ({path.name}), written blind, measured, "
        "then folded in ---",
    ]
    for entry in entries:
        dumped = yaml.safe_dump([entry], allow_unicode=True, sort_keys=False, width=10_000)
        lines += ["  " + line for line in dumped.rstrip("\n").splitlines()]
    with corpus.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    marked = sum("known_failure" in e for e in entries)
    return corpus, len(entries), marked, left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.fold_held_out")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            corpus, count, marked, left = fold_file(path)
        except (CorpusError, OSError) as exc:
            print(f"{path}: not folded: {exc}", file=sys.stderr)
            status = 2
            continue
        print(f"{path} -> {corpus.name}: {count} entries, {marked} marked known_failure")
        for why in left:
            print(f"  left out: {why}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
