"""The held-out writer's sheet (python -m voice.bench.writer_sheet) tells each situation and
intent but shows no sentence of the corpora, so a writer who reads it has not read them."""

from __future__ import annotations

from pathlib import Path

import yaml

from voice.bench.understanding import corpus_files
from voice.bench.writer_sheet import main


def test_every_situation_and_intent_is_told_and_no_corpus_sentence_is_shown(
    tmp_path: Path,
) -> None:
    assert main(["--out", str(tmp_path)]) == 0
    for corpus in corpus_files():
        text = (tmp_path / f"{corpus.stem}.md").read_text(encoding="utf-8")
        doc = yaml.safe_load(corpus.read_text(encoding="utf-8"))
        for name in doc.get("situations") or {}:
            assert f"### {name}\n" in text
        assert "farbspiel has just said: “" in text
        # what farbspiel itself says there is what a player hears too; the rest is ours
        said = "\n".join(
            line
            for line in text.lower().split("## slot values")[0].splitlines()
            if not line.startswith("farbspiel has")
        )
        for entry in doc["entries"]:
            for sentence in entry.get("texts") or [entry["text"]]:
                if len(sentence.split()) >= 3:
                    assert sentence.lower() not in said, (corpus.name, sentence)
    amf = (tmp_path / "alle-meine-farben.de.md").read_text(encoding="utf-8")
    assert "`place`" in amf and "2 = Hut" in amf and "`guess`" not in amf
    pantone = (tmp_path / "pantone.en.md").read_text(encoding="utf-8")
    assert "`guess`" in pantone and "`place`" not in pantone
