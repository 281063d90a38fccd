"""Letters of a new name said aloud and heard by the real recogniser (issue 29, item 2):
espeak-ng says each letter three ways (the letter alone, "M wie Martha" / "M for Mike",
the word of the spelling alphabet alone) with a faint pink noise floor, pocketsphinx
listens with what the set-up listens for while a name is spelled
(:func:`voice.setup.spelling.listened_for`), and what it heard goes through the same
letter reading as typed letters. A letter counts when the set-up takes it (the confidence
cut of :func:`voice.setup.listening.accepted`); a wrong letter is said back, and "nein"
takes it away, so wrong letters cost a word, not a wrong name.

    python -m voice.bench.spelling_speech                          # fitted voices de, en-us
    python -m voice.bench.spelling_speech --voice-de de+m3 --voice-en en-gb   # held out

Writes ``spelling-speech.md`` and ``spelling-speech.json`` (every clip: said, heard, read).
"""

from __future__ import annotations

import argparse
import json
import shutil
import string
import sys
import tempfile
from pathlib import Path
from typing import Any

from voice.bench.farben_naming_speech import make_clip
from voice.input.audio import WavFile
from voice.recognition.engines import open_recogniser, transcribe
from voice.setup.grammar import setup_grammar
from voice.setup.listening import accepted
from voice.setup.spelling import letters_in, listened_for

ROOT = Path(__file__).resolve().parents[2]
VOICES = {"de": "de", "en": "en-us"}
FORMS = ("letter", "with word", "word")


def _said(letter: str, form: str, lang: str) -> str:
    s = setup_grammar(lang).spelling
    word = next(w for w, value in s.words.items() if value == letter)
    if form == "letter":
        return letter.upper()
    if form == "with word":
        return f"{letter.upper()} {s.link[0]} {word.title()}"
    return word.title()


def measure(lang: str, voice: str | None, letters: str, folder: Path) -> dict[str, Any]:
    """Every letter of ``letters`` in each form, said by ``voice`` (default: the fitted)."""
    voice = voice or VOICES[lang]
    g = setup_grammar(lang)
    recogniser = open_recogniser("sphinx", lang, notify=lambda _: None)
    recogniser.set_phrases(listened_for(lang))
    clips: list[dict[str, Any]] = []
    try:
        for form in FORMS:
            for letter in letters:
                text = _said(letter, form, lang)
                clip = make_clip(text, voice, folder, len(clips))
                recogniser.reset()
                with WavFile(clip) as wav:
                    transcripts = list(transcribe(recogniser, wav.chunks()))
                taken = [a for t in transcripts if (a := accepted(t, recogniser, lang))]
                read = [letters_in(a, g) for a in taken]
                clips.append({
                    "form": form, "said": text, "letter": letter,
                    "heard": [t.text for t in transcripts if t.text], "taken": taken,
                    "right": read == [letter], "wrong": any(r not in (None, letter) for r in read),
                })  # fmt: skip
    finally:
        recogniser.close()
    rows = []
    for form in FORMS:
        mine = [c for c in clips if c["form"] == form]
        rows.append({
            "form": form, "letters": len(mine),
            "right_pct": round(100 * sum(c["right"] for c in mine) / max(1, len(mine)), 1),
            "wrong_pct": round(100 * sum(c["wrong"] for c in mine) / max(1, len(mine)), 1),
        })  # fmt: skip
    return {"lang": lang, "voice": voice, "held_out": voice != VOICES[lang], "rows": rows,
            "clips": clips}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.spelling_speech")
    parser.add_argument("--lang", choices=("de", "en"), action="append")
    parser.add_argument("--letters", default=string.ascii_lowercase, help="default: a to z")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--voice-de", help="espeak-ng voice for German (fitted: de)")
    parser.add_argument("--voice-en", help="espeak-ng voice for English (fitted: en-us)")
    args = parser.parse_args(argv)
    letters = "".join(dict.fromkeys(args.letters.lower()))
    if not letters or any(c not in string.ascii_lowercase for c in letters):
        print(f"--letters: only the letters a to z, not {args.letters!r}", file=sys.stderr)
        return 2
    for tool in ("espeak-ng", "sox", "soxi"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (apt install espeak-ng sox)", file=sys.stderr)
            return 2
    voices = {"de": args.voice_de, "en": args.voice_en}
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure(lang, voices[lang], letters, Path(tmp)) for lang in args.lang or VOICES]
    lines = [
        "# Letters of a name spelled aloud (espeak-ng) and heard (pocketsphinx, spelling list)",
        "",
        "`python -m voice.bench.spelling_speech"
        + "".join(f" --voice-{k} {v}" for k, v in voices.items() if v)
        + (f" --letters {letters}" if letters != string.ascii_lowercase else "")
        + "`",
        "",
        "Right: the letter taken at the first try. Wrong: another letter taken (said back;"
        " “nein” takes it away).",
        "",
        "| lang | voice | said as | letters | right | wrong |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in results:
        lines += [f"| {r['lang']} | {r['voice']} | {row['form']} | {row['letters']} | "
                  f"{row['right_pct']}% | {row['wrong_pct']}% |" for row in r["rows"]]  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "spelling-speech.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out / "spelling-speech.json").write_text(
        json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
