"""Pantone wrong guesses through the real pocketsphinx engine: are guesses of well-known
characters outside the deck heard as themselves (a wrong guess), or snapped onto a deck
name (which might even be the Artist's card)?

espeak-ng speaks each guess (faint pink noise floor, as in the speech benchmark); the
recogniser listens for Ben's guess window exactly as in play, once with the name list of
the deck alone (as before issue 12) and once with the well-known characters beyond it.

    python -m voice.bench.pantone_wrong_guesses_speech [--lang en] [--out bench-results/...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from speech import hear, utterance  # noqa: E402

import voice.adapters.pantone as pantone_adapter  # noqa: E402
from games.engine import Setup  # noqa: E402
from voice.adapters import adapter_for  # noqa: E402
from voice.output import NullOutput  # noqa: E402
from voice.recognition.sphinx import SphinxRecogniser  # noqa: E402
from voice.session import Session  # noqa: E402

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


def run(lang: str, famous: bool, cache: Path) -> dict:
    adapter = adapter_for("pantone")
    setup = Setup(("Anna", "Ben", "Cem"), 3, "Anna", adapter.default_options(lang))
    patch = mock.patch.object(pantone_adapter, "famous_characters", lambda lang: ())
    with patch if not famous else _nothing():
        session = Session(adapter, lang, setup, NullOutput())
    session.start()
    session.hear("card 1" if lang == "en" else "karte 1")
    session.hear("done" if lang == "en" else "fertig")
    recogniser = SphinxRecogniser(lang, pronunciation_cache=cache)
    recogniser.set_phrases(session.phrases(), session.phrase_names())
    hear(
        recogniser,
        utterance("hello everybody" if lang == "en" else "hallo zusammen", VOICE[lang], 9),
    )
    phase = session.phase()
    rows = []
    for i, (text, name) in enumerate(SAID[lang]):
        recogniser.reset()
        heard = " ".join(t.text for t in hear(recogniser, utterance(text, VOICE[lang], seed=i)))
        intent = session.parser.parse(heard, phase.intents, phase.slots) if heard else None
        got = (
            intent.slots.get("character") if intent is not None and intent.name == "guess" else None
        )
        deck = {f for c in session.game.deck for f in c.forms}
        rows.append({"said": text, "heard": heard, "guess": got,
                     "as_said": got == name, "snapped_to_deck": got in deck})  # fmt: skip
    return {
        "famous_list": famous,
        "phrases": len(session.phrases()),
        "heard_as_said": sum(r["as_said"] for r in rows),
        "snapped_to_deck_name": sum(r["snapped_to_deck"] for r in rows),
        "utterances": len(rows),
        "rows": rows,
    }


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [run(args.lang, famous, Path(tmp) / "pron.json") for famous in (False, True)]
    out = args.out or ROOT / "bench-results" / f"pantone_wrong_guesses_{args.lang}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    for r in results:
        print(f"{args.lang} famous list {'on ' if r['famous_list'] else 'off'}: "
              f"{r['heard_as_said']}/{r['utterances']} heard as said, "
              f"{r['snapped_to_deck_name']} snapped onto a deck name ({r['phrases']} phrases)")  # noqa: E501  # fmt: skip
        for row in r["rows"]:
            print(f"   {row['said']!r:28} -> {row['heard']!r:32} {row['guess']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
