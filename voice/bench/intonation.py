"""Question or statement by the voice's melody (:mod:`voice.recognition.intonation`),
measured: every sentence the speech benchmark says to the recogniser (moves, commands and
answers of all three games) is said twice, as a statement and as a question (espeak-ng's
and mbrola's question intonation), in a quiet room and in noise, through the audio front
end, and the pitch module judges the end of each.

    python -m voice.bench.intonation [--lang de] [--voices-de de,mb-de5] [--noise clean,pink:10]

Writes ``bench-results/intonation.{md,json}``: per language, voice and noise, how many
statements were taken for questions (a move then asked about instead of applied), how
many questions were heard as questions (one that is not would be applied as a move), and
what the analysis costs per utterance.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voice.bench import audio
from voice.bench.reference import GAMES
from voice.bench.run import Condition
from voice.recognition import intonation as pitch
from voice.recognition.frontend import DEFAULT as DEFAULT_FRONT_END
from voice.recognition.frontend import FrontEnd

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "bench-results"
TUNED_ON = {"de": ("de",), "en": ("en-us",)}
"""The voices the thresholds were chosen on; every other voice is held out."""
DEFAULT_VOICES = {
    "de": ("de", "de+f3", "de@200", "mb-de5", "mb-de6"),
    "en": ("en-us", "en-us+f3", "en-us@200", "mb-us1", "mb-us2"),
}
PREROLL = 0.3
"""Seconds of the room before the voice in an utterance's audio (the endpointer's)."""
TRAILING = pitch.AFTER_VOICE
"""Seconds of the room after it: the recognisers hand over the audio up to this far
after the last word's end."""


@dataclass
class Judged:
    lang: str
    voice: str
    condition: str
    text: str
    asked: bool
    """Said as a question."""
    heard_question: bool
    rise: float | None
    level: float | None
    seconds: float
    """CPU seconds of the analysis."""
    audio_seconds: float


def sentences(lang: str) -> list[str]:
    """The benchmark's spoken sentences of every game (no table talk), without their
    final punctuation, each once."""
    from voice.bench.speech import _corpus, _reference

    out: dict[str, None] = {}
    for game in GAMES:
        if game == "alle-meine-farben":
            _, _, items = _corpus(lang, 1)
        else:
            _, _, items = _reference(game, lang, 1)
        for item in items:
            if item.kind in ("move", "command", "answer"):
                out.setdefault(item.text.rstrip(" .!?"), None)
    return list(out)


def voice_of(spec: str) -> audio.Voice:
    name, _, speed = spec.partition("@")
    return audio.Voice(name, int(speed) if speed else 160)


def judge_all(
    lang: str,
    voice: audio.Voice,
    condition: Condition,
    texts: Sequence[str],
    cache_dir: Path | None,
) -> list[Judged]:
    """Every text said both ways into one stream of the room, through the front end."""
    rng_seed = audio.seed_of("intonation", lang, voice.label, condition.label)
    front = FrontEnd(DEFAULT_FRONT_END)
    noise_gain = audio.SPEECH_LEVEL * 10 ** (-condition.snr / 20)
    out: list[Judged] = []
    # the front end's room estimate needs a moment of the room first
    lead = audio.pink_noise(audio.SAMPLE_RATE * 2, rng_seed) * noise_gain
    front.process(audio.to_pcm(lead))
    for i, text in enumerate(texts):
        for asked in (False, True):
            clip = audio.synthesise(text + ("?" if asked else "."), voice, cache_dir)
            before, after = int(PREROLL * audio.SAMPLE_RATE), int(TRAILING * audio.SAMPLE_RATE)
            signal = np.concatenate(
                [np.zeros(before, np.float32), clip, np.zeros(after, np.float32)]
            )
            noise = _noise(condition, lang, len(signal), rng_seed + 2 * i + asked)
            cleaned = front.process(audio.to_pcm(signal + noise * noise_gain))
            started = time.process_time()
            result = pitch.intonation(cleaned)
            spent = time.process_time() - started
            out.append(
                Judged(
                    lang,
                    voice.label,
                    condition.label,
                    text,
                    asked,
                    result is not None and result.question,
                    None if result is None else result.rise,
                    None if result is None else result.level,
                    spent,
                    min(len(cleaned) / 2 / audio.SAMPLE_RATE, pitch.ANALYSED),
                )
            )
    return out


def _noise(condition: Condition, lang: str, length: int, seed: int) -> np.ndarray:
    if condition.noise == "white":
        return audio.white_noise(length, seed)
    if condition.noise == "babble":  # other people talking, as in the speech benchmark
        from voice.bench.corpus import corpus_data
        from voice.bench.speech import BABBLE_VOICES

        voices = [audio.Voice(v) for v in BABBLE_VOICES[lang] if audio.voice_works(v)]
        return audio.babble_noise(length, seed, corpus_data(lang)["babble"], voices)
    return audio.pink_noise(length, seed)


def summarise(judged: Sequence[Judged]) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str, str], list[Judged]] = {}
    for j in judged:
        rows.setdefault((j.lang, j.voice, j.condition), []).append(j)
    out = []
    for (lang, voice, condition), group in rows.items():
        statements = [j for j in group if not j.asked]
        questions = [j for j in group if j.asked]
        costs = sorted(j.seconds * 1000 for j in group)
        out.append(
            {
                "lang": lang,
                "voice": voice,
                "condition": condition,
                "tuned_on": voice in {f"{v}@160" for v in TUNED_ON[lang]},
                "statements": len(statements),
                "statements_as_questions": sum(j.heard_question for j in statements),
                "questions": len(questions),
                "questions_heard": sum(j.heard_question for j in questions),
                "no_melody": sum(j.rise is None for j in group),
                "cost_median_ms": round(statistics.median(costs), 2),
                "cost_p95_ms": round(costs[int(0.95 * (len(costs) - 1))], 2),
                "real_time_factor": round(
                    sum(j.seconds for j in group) / sum(j.audio_seconds for j in group), 4
                ),
            }
        )
    return out


def markdown(rows: Sequence[dict[str, Any]], command: str) -> str:
    lines = [
        "# Intonation: question or statement",
        "",
        f"`{command}`",
        "",
        "Each sentence said as a statement and as a question; * = the voice the thresholds "
        f"were chosen on (rise ≥ {pitch.RISE_MIN} semitones and level ≥ {pitch.LEVEL_MIN}).",
        "",
        "| lang | voice | noise | statements taken for questions | questions heard "
        "| no melody | cost median / p95 ms | CPU share |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        star = " *" if r["tuned_on"] else ""
        lines.append(
            f"| {r['lang']} | {r['voice']}{star} | {r['condition']} "
            f"| {r['statements_as_questions']}/{r['statements']} "
            f"({100 * r['statements_as_questions'] / max(1, r['statements']):.1f}%) "
            f"| {r['questions_heard']}/{r['questions']} "
            f"({100 * r['questions_heard'] / max(1, r['questions']):.1f}%) "
            f"| {r['no_melody']} | {r['cost_median_ms']} / {r['cost_p95_ms']} "
            f"| {100 * r['real_time_factor']:.2f}% |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.intonation")
    parser.add_argument("--lang", choices=("de", "en"))
    parser.add_argument("--voices-de", default=",".join(DEFAULT_VOICES["de"]))
    parser.add_argument("--voices-en", default=",".join(DEFAULT_VOICES["en"]))
    parser.add_argument("--noise", default="clean,pink:10")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N sentences a language")
    parser.add_argument("--cache-dir", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    langs = (args.lang,) if args.lang else ("de", "en")
    voices = {"de": args.voices_de.split(","), "en": args.voices_en.split(",")}
    conditions = [Condition.parse(c) for c in args.noise.split(",")]
    judged: list[Judged] = []
    for lang in langs:
        texts = sentences(lang)
        if args.limit is not None:
            texts = texts[: args.limit]
        for spec in voices[lang]:
            voice = voice_of(spec.strip())
            if not audio.voice_works(voice.name):
                print(f"voice {voice.name} is not installed: left out", file=sys.stderr)
                continue
            for condition in conditions:
                judged += judge_all(lang, voice, condition, texts, args.cache_dir)
                print(f"intonation: {lang} {voice.label} {condition.label}", file=sys.stderr)
    rows = summarise(judged)
    command = "python -m voice.bench.intonation " + " ".join(argv or sys.argv[1:])
    report = markdown(rows, command.strip())
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "intonation.md").write_text(report, encoding="utf-8")
    (args.out / "intonation.json").write_text(
        json.dumps(
            {"summary": rows, "judged": [asdict(j) for j in judged]}, ensure_ascii=False, indent=1
        ),
        encoding="utf-8",
    )
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
