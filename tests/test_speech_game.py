"""End to end: a game of Alle meine Farben played entirely from audio.

Our own TTS (espeak-ng) speaks every utterance; the real pocketsphinx recogniser listens
with the grammar the session asks for (``session.phrases()``) at every moment; the session
with its play policy decides; the engine applies. The simulated player says each move,
answers confirmation questions truthfully, repeats when asked, and takes a wrongly heard
move back by voice ("rückgängig" – "ja"). Nothing is typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from speech import hear, needs_tts, utterance

from games.engine import Action, Setup
from voice.bench.corpus import ReferenceGame, move_text
from voice.output.sinks import RecordingOutput as Recorder
from voice.recognition.sphinx import SphinxRecogniser
from voice.session.adapters import adapter_for
from voice.session.session import Session

pytestmark = [needs_tts, pytest.mark.slow]

MAX_UTTERANCES_PER_MOVE = 8
WORDS = {
    "de": {
        "first": "{name} ist am jüngsten",
        "moves": ["Ich male {object} {colour} an", "{object} {colour}", "{colour} für {object}"],
        "yes": "ja",
        "no": "nein",
        "undo": "rückgängig",
    },
    "en": {
        "first": "{name} starts",
        "moves": ["I'll paint {object} {colour}", "{object} is {colour}", "{colour}"],
        "yes": "yes",
        "no": "no",
        "undo": "undo",
    },
}


@dataclass
class Table:
    """A session, a recogniser and a player who only speaks."""

    session: Session
    recogniser: SphinxRecogniser
    voice: str
    spoken: int = 0
    log: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.spoken += 1
        self.recogniser.set_phrases(self.session.phrases())
        for transcript in hear(self.recogniser, utterance(text, self.voice, seed=self.spoken)):
            self.session.hear_speech(transcript)
            self.log.append(f"said {text!r}, heard {transcript.text!r}")
            self.recogniser.set_phrases(self.session.phrases())


def same(action: Action, intended: Action, number: int) -> bool:
    args = dict(action.args)
    if args.get("object") == number:
        del args["object"]
    return action.name == intended.name and args == dict(intended.args)


@pytest.mark.parametrize(("lang", "voice"), [("de", "de"), ("en", "en-us")])
def test_a_whole_game_from_audio(lang: str, voice: str, tmp_path: Path) -> None:
    reference = ReferenceGame(lang, seed=3)
    words = WORDS[lang]
    setup = Setup(reference.players, 3, None, {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), lang, setup, Recorder())
    session.start()
    recogniser = SphinxRecogniser(lang, pronunciation_cache=tmp_path / "pron.json")
    table = Table(session, recogniser, voice)
    plan = [(Action("first", {"player": reference.youngest}), [words["first"]], 0)]
    plan += [
        (Action("place", {"colour": colour}), words["moves"], number)
        for number, colour in enumerate(reference.colours, start=1)
    ]
    wrong = 0
    for intended, templates, number in plan:
        tries = 0
        while True:
            assert tries < MAX_UTTERANCES_PER_MOVE, "\n".join(table.log[-12:])
            tries += 1
            before = len(session.actions)
            awaiting = session.awaiting
            if awaiting is not None:
                kind, proposed = awaiting
                right = kind == "move" and proposed is not None and same(proposed, intended, number)
                table.say(words["yes" if right else "no"])
            else:
                template = templates[tries % len(templates)]
                if intended.name == "first":
                    table.say(template.format(name=reference.youngest))
                else:
                    table.say(move_text(template, number, str(intended.args["colour"]), lang))
            if len(session.actions) > before:
                if same(session.actions[-1], intended, number):
                    break
                wrong += 1  # heard wrong: take it back, by voice
                count = len(session.actions)
                while len(session.actions) == count:
                    assert tries < MAX_UTTERANCES_PER_MOVE, "\n".join(table.log[-12:])
                    tries += 1
                    table.say(words["yes"] if session.awaiting else words["undo"])
    assert session.finished
    assert session.game.result() == {"coloured": 20, "won": True}
    assert [a.args["colour"] for a in session.actions[1:]] == reference.colours
    assert wrong <= 1, "\n".join(table.log)
    assert table.spoken <= 3 * len(plan), f"{table.spoken} utterances for {len(plan)} moves"
