"""Set-up answers said aloud and heard by the real recogniser, as the games' commands are
measured: espeak-ng speaks each answer of the set-up corpus
(``tests/understanding/setup/<lang>.yaml``) with a faint pink noise floor, pocketsphinx
listens with the set-up's phrase list (:func:`voice.setup.phrases.setup_phrases`, the
answer's players standing for the household's remembered ones), and the transcript goes
through the same understanding as typed answers. Right: as in
``voice.bench.setup_understanding``; noise entries must set nothing.

    python -m voice.bench.setup_speech [--lang de] [--limit N] [--out bench-results]
    python -m voice.bench.setup_speech --voice-de de+m3 --voice-en en-gb \
        --held-out tests/heldout/2026-12-05d/setup.*.yaml     # voices and answers held out

Writes ``setup-speech.md`` and ``setup-speech.json`` (every clip: said, heard, understood).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from voice.bench.farben_naming_speech import make_clip
from voice.bench.setup_understanding import CORPORA, expected, got, lang_of
from voice.input.audio import WavFile
from voice.recognition.engines import open_recogniser, transcribe
from voice.setup.listening import accepted
from voice.setup.phrases import setup_phrases
from voice.setup.understanding import understand

ROOT = Path(__file__).resolve().parents[2]
VOICES = {"de": "de", "en": "en-us"}
HOUSEHOLD = ("Anna", "Ben", "Cem")
"""The players listened for when an answer names none."""


def _cases(lang: str, limit: int | None, files: list[Path] | None = None) -> list[dict[str, Any]]:
    """The answers of ``lang``: the fitted corpus, or the held-out ``files`` of that language."""
    paths = [f for f in files if lang_of(f) == lang] if files else [CORPORA / f"{lang}.yaml"]
    cases = []
    for path in paths:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        cases += [c for c in data if isinstance(c, dict) and str(c.get("text") or "").strip()]
    return cases[:limit] if limit is not None else cases


def measure(
    lang: str,
    limit: int | None,
    folder: Path,
    voice: str | None = None,
    files: list[Path] | None = None,
) -> dict[str, Any]:
    """``voice``: an espeak-ng voice other than the fitted one; ``files``: held-out answers."""
    voice = voice or VOICES[lang]
    recogniser = open_recogniser("sphinx", lang, notify=lambda _: None)
    rows: list[dict[str, Any]] = []
    try:
        for index, case in enumerate(_cases(lang, limit, files)):
            clip = make_clip(str(case["text"]), voice, folder, index)
            names = tuple(case.get("players") or HOUSEHOLD)
            recogniser.set_phrases(setup_phrases(lang, names))
            recogniser.reset()
            start = time.perf_counter()
            with WavFile(clip) as wav:
                transcripts = list(transcribe(recogniser, wav.chunks()))
            seconds = time.perf_counter() - start
            heard = " ".join(t.text for t in transcripts if t.text)
            # what the set-up takes: only what the recogniser is sure enough of
            kept = " ".join(a for t in transcripts if (a := accepted(t, recogniser, lang)))
            want = expected(case)
            have, cut = (_understood(text, lang, case) for text in (heard, kept))
            noise = not any(want.values())
            row = {"said": case["text"], "heard": heard, "right": have == want, "noise": noise}
            row |= {"kept": kept, "right_cut": cut == want}
            row["confidences"] = [round(t.confidence, 3) for t in transcripts if t.text]
            row["texts"] = [t.text for t in transcripts if t.text]
            rows.append({**row, "want": want, "got": have, "seconds": seconds})
    finally:
        recogniser.close()
    noise_rows = [r for r in rows if r["noise"]]
    return {
        "lang": lang,
        "voice": voice,
        "held_out": bool(files) or voice != VOICES[lang],
        "answers": len(rows),
        "right_pct": round(100 * sum(r["right"] for r in rows) / max(1, len(rows)), 1),
        "noise": len(noise_rows),
        "noise_set": sum(not r["right"] for r in noise_rows),
        "right_cut_pct": round(100 * sum(r["right_cut"] for r in rows) / max(1, len(rows)), 1),
        "noise_set_cut": sum(not r["right_cut"] for r in noise_rows),
        "median_s": round(statistics.median(r["seconds"] for r in rows), 3) if rows else 0.0,
        "clips": rows,
    }


def _understood(text: str, lang: str, case: dict[str, Any]) -> dict[str, Any]:
    have = got(understand(text, lang))
    if "lang" not in case:
        have["lang"] = None
    return have


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.setup_speech")
    parser.add_argument("--lang", choices=("de", "en"), action="append")
    parser.add_argument("--limit", type=int, help="only the first N answers per language")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--voice-de", help="espeak-ng voice for German (fitted: de)")
    parser.add_argument("--voice-en", help="espeak-ng voice for English (fitted: en-us)")
    parser.add_argument("--held-out", nargs="+", type=Path, help="setup.<lang>.yaml files")
    args = parser.parse_args(argv)
    voices = {"de": args.voice_de, "en": args.voice_en}
    for tool in ("espeak-ng", "sox", "soxi"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (apt install espeak-ng sox)", file=sys.stderr)
            return 2
    try:  # a held-out file missing or broken: said, as setup_understanding says it
        with tempfile.TemporaryDirectory() as tmp:
            results = [
                measure(lang, args.limit, Path(tmp), voices[lang], args.held_out)
                for lang in args.lang or ("de", "en")
            ]
    except (OSError, yaml.YAMLError) as exc:
        print(f"cannot measure: {exc}", file=sys.stderr)
        return 2
    lines = [
        "# Set-up answers spoken (espeak-ng) and heard (pocketsphinx, set-up phrase list)",
        "",
        "`python -m voice.bench.setup_speech"
        + (f" --limit {args.limit}" if args.limit else "")
        + "".join(f" --voice-{k} {v}" for k, v in voices.items() if v)
        + (" --held-out " + " ".join(map(str, args.held_out)) if args.held_out else "")
        + "`",
        "",
        "Right and noise that set something: all that was heard, and (after the arrow) only"
        " what the set-up takes (the confidence cut of voice.setup.listening).",
        "",
        "| lang | voice | answers | right | noise | noise that set something | median s per clip |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['lang']} | {r['voice']} | {r['answers']} | {r['right_pct']}% → "
                     f"{r['right_cut_pct']}% | {r['noise']} | {r['noise_set']} → "
                     f"{r['noise_set_cut']} | {r['median_s']} |")  # fmt: skip
    lines += ["", "## Not understood right", ""]
    lines += [f"- {r['lang']}: “{c['said']}” heard “{c['heard']}”" for r in results
              for c in r["clips"] if not c["right"]]  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "setup-speech.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out / "setup-speech.json").write_text(
        json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    print("\n".join(lines[: 10 + len(results)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
