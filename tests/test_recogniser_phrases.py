"""Every sentence the recogniser may output is understood by the parser, in every phase.

The recogniser listens for ``session.phrases()`` of the current phase (minus what only
typing produces, such as digits), so for each phase of scripted games in both languages
each of those phrases must parse to an intent the phase expects. Phases with thousands
of sentences are checked on a fixed, even sample that still contains every word; set
``FARBSPIEL_ALL_PHRASES=1`` to check every single sentence (a few minutes).
"""

from __future__ import annotations

import os

import pytest

from games.engine import Setup
from voice.output.sinks import NullOutput, RecordingOutput
from voice.recognition.vosk import build_grammar
from voice.session.adapters import adapter_for
from voice.session.session import Session

SAMPLE = 800
ALL = bool(os.environ.get("FARBSPIEL_ALL_PHRASES"))


def phases(lang: str, variant: str):
    """(name, session) at each phase of a short game: first player, play, a move to
    confirm, pause, undo to confirm, quit to confirm."""
    adapter = adapter_for("alle-meine-farben")
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options={"variant": variant})
    session = Session(adapter, lang, setup, NullOutput())
    session.start()
    yes = "ja" if lang == "de" else "yes"
    steps = {
        "de": ["Anna", ("Rot", 0.5), yes, "Pause", "weiter", "rückgängig", "nein", "beenden"],
        "en": ["Anna starts", ("red", 0.5), yes, "pause", "continue", "undo", "no", "quit"],
    }[lang]
    if variant == "profi":  # the pro variant draws lots for the first player itself
        steps = steps[1:]
    yield "start", session
    for step in steps:
        text, confidence = step if isinstance(step, tuple) else (step, 1.0)
        session.hear(text, confidence)
        yield f"after {text!r}", session


def heard_by_recogniser(phrases: list[str]) -> list[str]:
    """What the recogniser can output: a model that knows every word still hears no digits."""
    return sorted(build_grammar(phrases, lambda word: not word.isdigit()).phrases)


def sample(phrases: list[str]) -> list[str]:
    if ALL or len(phrases) <= SAMPLE:
        return phrases
    chosen = set(phrases[:: len(phrases) // SAMPLE + 1])
    covered = {w for p in chosen for w in p.split()}
    for phrase in phrases:  # every word of the phase appears in some checked sentence
        if not set(phrase.split()) <= covered:
            chosen.add(phrase)
            covered.update(phrase.split())
    return sorted(chosen)


@pytest.mark.parametrize("variant", ["basic", "profi"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_phrase_of_every_phase_is_understood(lang, variant):
    checked = 0
    seen = []
    for name, session in phases(lang, variant):
        phase = session.phase()
        if phase in seen:
            continue  # the same phase again: the same sentences
        seen.append(phase)
        phrases = heard_by_recogniser(session.phrases())
        assert phrases, f"{name}: nothing to listen for"
        wrong = []
        for phrase in sample(phrases):
            intent = session.parser.parse(phrase, phase.intents, phase.slots)
            if intent is None or intent.name not in phase.intents:
                wrong.append((phrase, intent.name if intent else None))
            checked += 1
        assert not wrong, f"{lang}/{variant} {name}: not understood as expected: {wrong[:10]}"
    # basic: first player, play (object 1), confirm a move (or correct its colour), play
    # (object 2, or correct the colour of object 1), pause, confirm undo or quit (yes or
    # no only); profi: no first player
    assert len(seen) == (6 if variant == "basic" else 5) and checked > 1000


@pytest.mark.parametrize(("lang", "go_on"), [("de", "mach weiter"), ("en", "continue")])
def test_go_on_is_listened_for_only_while_paused(lang, go_on):
    """Out of a pause "weiter" means nothing, and the recogniser pulled long table talk
    onto it ("Morgen fahren wir zu Oma und Opa" heard as "mach weiter", measured): it is
    in the grammar while the game is paused. Typed, it is still answered."""
    setup = Setup(("Anna", "Ben", "Cem"), seed=3, options={"variant": "basic"})
    out = RecordingOutput()
    session = Session(adapter_for("alle-meine-farben"), lang, setup, out)
    session.start()
    session.hear("Anna" if lang == "de" else "Anna starts")
    assert go_on not in session.phrases() and "pause" in session.phrases()
    session.hear("pause")
    assert go_on in session.phrases()
    session.hear(go_on)
    assert not session.paused and go_on not in session.phrases()
    session.hear(go_on)  # typed out of a pause: answered, not "not understood"
    running = {"de": "Das Spiel läuft doch.", "en": "The game is already running."}
    assert out.said[-1] == running[lang]
