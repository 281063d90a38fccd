"""German Farben naming through the real pocketsphinx engine, as a player would hear it.

espeak-ng speaks sentences of the scoring phase ("Julia hat blau gespielt", "meine war
orange", "rosa") with several voices; sox resamples them to 16 kHz and adds a faint pink
noise floor (about 35 dB below the speech: digitally silent clips mislead pocketsphinx);
then ``farbspiel recognize farben --lang de --asr sphinx`` (the command the issue measured
with) recognises all clips, and each transcript's parse is compared with the colour and
player that were said.

    python -m voice.bench.farben_naming_speech [--out bench-results/farben_naming_speech.json]

Writes the accuracy (overall, per voice, per colour) and every wrong clip as JSON.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "Anna,Ben,Julia"
VOICES = ("de", "de+f3", "de+m3")
NOISE_DB = -35
"""Level of the pink noise floor relative to full scale after the speech is normalised
to -3 dBFS peak (about 35 dB below the speech)."""

COLOURS = {
    "rot": "red",
    "gelb": "yellow",
    "grün": "green",
    "blau": "blue",
    "orange": "orange",
    "rosa": "pink",
    "lila": "purple",
    "weiß": "white",
    "schwarz": "black",
    "grau": "grey",
    "braun": "brown",
    "bunt": "multicoloured",
}
# (sentence pattern, the player it names or None)
FRAMES = (
    ("Julia hat {c} gespielt", "Julia"),
    ("Ben hatte {c}", "Ben"),
    ("meine war {c}", None),
    ("{c}", None),
)


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True)


def make_clip(text: str, voice: str, folder: Path, index: int) -> Path:
    """``text`` said by espeak-ng's ``voice`` over a faint pink-noise floor, the same
    samples every time (sox ``-R``: its noise and dither are otherwise new on each run, and
    a test heard through pocketsphinx could pass or fail by chance)."""
    raw = folder / f"raw-{index}.wav"
    speech = folder / f"speech-{index}.wav"
    noise = folder / f"noise-{index}.wav"
    out = folder / f"clip-{index:03d}.wav"
    _run("espeak-ng", "-v", voice, "-w", str(raw), text)
    # speech at 16 kHz mono, 0.4 s of room before and after it
    _run("sox", "-R", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(speech),
         "norm", "-3", "pad", "0.4", "0.4")  # fmt: skip
    length = subprocess.run(
        ["soxi", "-D", str(speech)], check=True, capture_output=True, text=True
    ).stdout.strip()
    _run("sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", str(noise),
         "synth", length, "pinknoise", "vol", f"{NOISE_DB}dB")  # fmt: skip
    _run("sox", "-R", "-m", str(speech), str(noise), str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench-results" / "farben_naming_speech.json"
    )
    parser.add_argument("--farbspiel", default=str(ROOT / ".venv" / "bin" / "farbspiel"))
    parser.add_argument("--limit", type=int, help="only the first N clips")
    args = parser.parse_args(argv)
    for tool in ("espeak-ng", "sox", "soxi"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (apt install espeak-ng sox)", file=sys.stderr)
            return 2
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files: list[str] = []
        for voice in VOICES:
            for word, colour in COLOURS.items():
                for frame, player in FRAMES:
                    if args.limit is not None and len(files) >= args.limit:
                        break
                    text = frame.format(c=word)
                    path = make_clip(text, voice, folder, len(files))
                    files.append(str(path))
                    cases.append({"voice": voice, "text": text, "colour": colour, "player": player})
        run = subprocess.run(
            [args.farbspiel, "recognize", "farben", "--lang", "de", "--asr", "sphinx",
             "--players", PLAYERS, *files],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    records = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if len(records) != len(cases):
        print(run.stderr, file=sys.stderr)
        return 1
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong = []
    for case, record in zip(cases, records, strict=True):
        slots = record.get("slots", {})
        ok = (
            record.get("intent") in ("name_colour", "reveal")
            and slots.get("colour") == case["colour"]
            and (case["player"] is None or slots.get("player") == case["player"])
        )
        for key in ("all", f"voice {case['voice']}", f"colour {case['colour']}"):
            total[key] += 1
            right[key] += ok
        if not ok:
            wrong.append({**case, "heard": record.get("transcript"), "slots": slots,
                          "intent": record.get("intent")})  # fmt: skip
    result = {
        "command": "farbspiel recognize farben --lang de --asr sphinx --players " + PLAYERS,
        "noise_floor_db": NOISE_DB,
        "clips": len(cases),
        "accuracy": {k: round(right[k] / total[k], 3) for k in sorted(total)},
        "wrong": wrong,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("command", "clips", "accuracy")}, ensure_ascii=False))
    for item in wrong:
        print(f"  {item['voice']:7} {item['text']!r:32} -> {item['heard']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
