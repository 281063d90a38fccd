"""Export what families said (the corpora of ``tests/understanding``) as the examples the
learnt reading of questions learns from (:mod:`voice.understanding.learned`):
``grammars/<lang>/<game>.examples.txt``, one ``intent<TAB>words`` line per utterance
(``talk`` for table talk), the words as the parser sees them.

    python -m voice.bench.examples          # write all six files
    python -m voice.bench.examples --check  # exit 1 when one is out of date

Run it after folding a held-out set into the corpora; ``tests/test_learned.py`` fails
while a file is out of date. Only corpora: a sealed held-out set must never be in here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voice.bench.understanding import CorpusError, Tables, corpus_files, load_cases
from voice.understanding.learned import TALK, masked
from words.text import normalize

ROOT = Path(__file__).resolve().parents[2]
HEADER = (
    "# What families said and meant, from tests/understanding/{name}: written by\n"
    "# python -m voice.bench.examples (do not edit; fold new sentences into the corpus).\n"
)


def examples_text(corpus: Path) -> tuple[Path, str]:
    """Where the examples of ``corpus`` go, and their text."""
    cases = load_cases(corpus)
    if not cases:
        raise CorpusError(f"{corpus.name}: no entries")
    game, lang = cases[0].game, cases[0].lang
    tables = Tables()
    lines = set()
    for case in cases:
        session = tables.session(case)  # with that table's players
        parser = session.parser
        words = parser.grammar.frames.standard(normalize(case.text))
        words = masked(parser.fallback, words, session.phase().slots)
        label = TALK if case.expect is None else str(case.expect["intent"])
        if words and "\t" not in words:
            lines.add(f"{label}\t{words}")
    target = ROOT / "grammars" / lang / f"{game}.examples.txt"
    return target, HEADER.format(name=corpus.name) + "".join(f"{x}\n" for x in sorted(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.examples")
    parser.add_argument("--check", action="store_true", help="only say which are out of date")
    args = parser.parse_args(argv)
    stale = []
    for corpus in corpus_files():
        target, text = examples_text(corpus)
        old = target.read_text(encoding="utf-8") if target.is_file() else None
        if old == text:
            continue
        stale.append(target)
        if not args.check:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    if args.check and stale:
        for target in stale:
            print(f"out of date: {target.relative_to(ROOT)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
