"""``farbspiel recognize``: the real recogniser over WAV files, one JSON line per file.

The recogniser listens for every sentence of the game (all phases), as a player could say
any of them at some point; the transcript then goes through the same parser as in play.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.engine import Setup
from voice.input.audio import AudioError, WavFile
from voice.recognition.engines import (
    ASR_METAVAR,
    Recogniser,
    Transcript,
    asr_option,
    open_recogniser,
    transcribe,
)
from voice.session.adapters import adapter_for
from voice.understanding.grammar import LANGUAGES, Grammar
from voice.understanding.intents import IntentParser


def add_recognize_parser(commands: Any) -> None:
    rec = commands.add_parser("recognize")  # help texts: cli.yaml
    rec.add_argument("game", metavar="GAME")
    rec.add_argument("--lang", choices=LANGUAGES)
    rec.add_argument("--asr", type=asr_option, default="auto", metavar=ASR_METAVAR)
    rec.add_argument("--model", type=Path, metavar="DIR")
    from voice.recognition.frontend import add_front_end_arguments

    add_front_end_arguments(rec)
    rec.add_argument("--players", default="Anna,Ben,Cem")
    rec.add_argument("wav", nargs="+", type=Path, metavar="WAV")


def whole_game_phrases(grammar: Grammar) -> list[str]:
    return list(dict.fromkeys(phrase for phrase, _ in grammar.phrases()))


def recognize_file(recogniser: Recogniser, parser: IntentParser, path: Path) -> dict[str, Any]:
    """The JSON record of one file: transcript, confidence and the intent it means.

    The file is streamed: a recording of hours takes time, not memory.
    """
    try:
        with WavFile(path) as wav:
            recogniser.reset()
            heard: list[Transcript] = [t for t in transcribe(recogniser, wav.chunks()) if t.text]
    except AudioError as exc:
        recogniser.reset()
        return {"file": str(path), "error": str(exc)}
    text = " ".join(t.text for t in heard)
    record: dict[str, Any] = {
        "file": str(path),
        "transcript": text,
        "confidence": round(min((t.confidence for t in heard), default=0.0), 3),
    }
    if len(heard) > 1:
        record["utterances"] = [
            {"text": t.text, "confidence": round(t.confidence, 3)} for t in heard
        ]
    intent = parser.parse(text) if text else None
    record.update(intent.to_json() if intent is not None else {"intent": None})
    return record


def run_recognize(args: argparse.Namespace) -> int:
    adapter = adapter_for(args.game)
    lang = args.lang or adapter.default_lang
    from voice.cli.options import players_option

    setup = Setup(players_option(args.players), options=adapter.default_options(lang))
    grammar = Grammar(lang, adapter.game_id, adapter.dynamic_lists(setup, lang))
    from voice.cli.devices import note
    from voice.recognition.frontend import settings_from

    front_end = settings_from(args)
    recogniser = open_recogniser(args.asr, lang, args.model, notify=note, front_end=front_end)
    try:
        recogniser.set_phrases(whole_game_phrases(grammar))
    except ValueError as exc:
        from voice.recognition.engines import RecogniserError

        raise RecogniserError(key="recognize_cannot_listen", game=args.game, problem=exc) from None
    return _print_records(recogniser, IntentParser(grammar), args.wav)


def _print_records(recogniser: Recogniser, parser: IntentParser, files: Sequence[Path]) -> int:
    failed = False
    try:
        for path in files:
            record = recognize_file(recogniser, parser, path)
            failed |= "error" in record
            print(_printable(json.dumps(record, ensure_ascii=False)), flush=True)
            if "error" in record:
                print(_printable(f"farbspiel: {record['error']}"), file=sys.stderr)
    finally:
        recogniser.close()
    return 1 if failed else 0


def _printable(text: str) -> str:
    """File names whose bytes are not UTF-8 reach us with surrogates no terminal can show;
    they are printed with a replacement character instead."""
    return text.encode("utf-8", "replace").decode("utf-8")
