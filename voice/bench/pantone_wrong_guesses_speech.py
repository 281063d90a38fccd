"""Pantone wrong guesses through the real pocketsphinx engine: are guesses of well-known
characters outside the deck heard as themselves (a wrong guess), or snapped onto a deck
name (which might even be the Artist's card)?

espeak-ng speaks each guess (faint pink noise floor, as in the speech benchmark); the
recogniser listens for Ben's guess window exactly as in play, with the deck's names and
the well-known characters beyond it (``games/data/famous_characters_<lang>.yaml``). The
run without that list (the state before issue 12) is in RESULTS-LOG.md.

    python -m voice.bench.pantone_wrong_guesses_speech [--lang en] [--out FILE] [--count N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from games.engine import Setup
from games.pantone import Pantone
from voice.bench.audio import hear, utterance
from voice.output.sinks import NullOutput
from voice.recognition.sphinx import SphinxRecogniser
from voice.session.adapters import adapter_for
from voice.session.session import Session

ROOT = Path(__file__).resolve().parents[2]

SAID = {
    "en": [
        ("is it daisy duck", "Daisy Duck"),
        ("scrooge mcduck", "Scrooge McDuck"),
        ("pluto", "Pluto"),
        ("is it bambi", "Bambi"),
        ("dumbo", "Dumbo"),
        ("spider woman", "Spider-Woman"),
        ("is it batgirl", "Batgirl"),
        ("catwoman", "Catwoman"),
        ("wario", "Wario"),
        ("is it bowser", "Bowser"),
        ("yoshi", "Yoshi"),
        ("princess peach", "Princess Peach"),
        ("is it fiona", "Fiona"),
        ("han solo", "Han Solo"),
        ("is it legolas", "Legolas"),
        ("mufasa", "Mufasa"),
        ("is it timon", "Timon"),
        ("fred flintstone", "Fred Flintstone"),
        ("is it yogi bear", "Yogi Bear"),
        ("daffy duck", "Daffy Duck"),
    ],
    "de": [
        ("ist es daisy duck", "Daisy Duck"),
        ("pluto", "Pluto"),
        ("ist es bambi", "Bambi"),
        ("dumbo", "Dumbo"),
        ("ist es batgirl", "Batgirl"),
        ("wario", "Wario"),
        ("ist es luigi", "Luigi"),
        ("yoshi", "Yoshi"),
        ("bart simpson", "Bart Simpson"),
        ("ist es homer simpson", "Homer Simpson"),
        ("fred feuerstein", "Fred Feuerstein"),
        ("ist es mufasa", "Mufasa"),
        ("timon", "Timon"),
        ("ist es legolas", "Legolas"),
        ("han solo", "Han Solo"),
        ("schweinchen dick", "Schweinchen Dick"),
    ],
}
VOICE = {"en": "en-us", "de": "de"}


def session_at_the_guesses(lang: str) -> Session:
    """A Pantone game where Anna has laid out card 1: Ben's guess window is open."""
    adapter = adapter_for("pantone")
    setup = Setup(("Anna", "Ben", "Cem"), 3, "Anna", adapter.default_options(lang))
    session = Session(adapter, lang, setup, NullOutput())
    session.start()
    session.hear("card 1" if lang == "en" else "karte 1")
    session.hear("done" if lang == "en" else "fertig")
    return session


def run(lang: str, cache: Path, count: int | None = None) -> dict[str, Any]:
    """The first ``count`` (all) guesses of :data:`SAID` heard and parsed as in play."""
    session = session_at_the_guesses(lang)
    recogniser = SphinxRecogniser(lang, pronunciation_cache=cache)
    recogniser.set_phrases(session.phrases(), session.phrase_names())
    hear(
        recogniser,
        utterance("hello everybody" if lang == "en" else "hallo zusammen", VOICE[lang], 9),
    )
    phase = session.phase()
    game = session.game
    assert isinstance(game, Pantone)
    deck = {f for c in game.deck for f in c.forms}
    rows = []
    for i, (text, name) in enumerate(SAID[lang][:count]):
        recogniser.reset()
        heard = " ".join(t.text for t in hear(recogniser, utterance(text, VOICE[lang], seed=i)))
        intent = session.parser.parse(heard, phase.intents, phase.slots) if heard else None
        got = (
            intent.slots.get("character") if intent is not None and intent.name == "guess" else None
        )
        rows.append({"said": text, "heard": heard, "guess": got,
                     "as_said": got == name, "snapped_to_deck": got in deck})  # fmt: skip
    return {
        "phrases": len(session.phrases()),
        "heard_as_said": sum(r["as_said"] for r in rows),
        "snapped_to_deck_name": sum(r["snapped_to_deck"] for r in rows),
        "utterances": len(rows),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--count", type=int, help="only the first N guesses")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        result = run(args.lang, Path(tmp) / "pron.json", args.count)
    out = args.out or ROOT / "bench-results" / f"pantone_wrong_guesses_{args.lang}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{args.lang}: {result['heard_as_said']}/{result['utterances']} heard as said, "
          f"{result['snapped_to_deck_name']} snapped onto a deck name "
          f"({result['phrases']} phrases)")  # fmt: skip
    for row in result["rows"]:
        print(f"   {row['said']!r:28} -> {row['heard']!r:32} {row['guess']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
