"""English words whose stressed vowel the en-us model hears as another phone, spoken to the
real pocketsphinx recogniser (audio by espeak-ng's en-us): "done" (ʌ) was heard as "go on"
and "grey" (eɪ) as "green" until they had the alternative pronunciations of
``pronounce.STRESSED_VOWELS`` (measured in the benchmark, voice/bench/RESULTS-LOG.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from speech import hear, needs_tts, utterance

from voice.recognition.pronounce import Pronouncer
from voice.recognition.sphinx import SphinxRecogniser, default_model_dir

COLOURS = "red blue green yellow grey pink brown black white purple orange".split()
PLAYERS = ("anna", "ben", "julia")


@needs_tts
def test_stressed_vowels_get_a_second_pronunciation(tmp_path: Path) -> None:
    dictionary = str(default_model_dir() / "cmudict-en-us.dict")
    said = Pronouncer("en", dictionary, tmp_path / "en.json").pronunciations(
        ["done", "grey", "game", "red", "kiki"]
    )
    assert said["done"] == ["D AH N", "D AA N"]
    assert said["grey"] == ["G R EY", "G R EH IY"]
    # eɪ only at the end of a word: inside ("game") it let table talk in
    assert said["game"] == ["G EY M"]
    assert said["red"] == ["R EH D"]  # no such vowel: the dictionary's alone
    assert said["kiki"] == ["K IY K IY"]
    # cached with the words: a second pronouncer asks espeak-ng nothing
    again = Pronouncer("en", dictionary, tmp_path / "en.json")
    assert again._known["done +"] == ["D AA N"]


@pytest.fixture(scope="module")
def recogniser(tmp_path_factory) -> SphinxRecogniser:
    cache = tmp_path_factory.mktemp("pron") / "en.json"
    recogniser = SphinxRecogniser("en", pronunciation_cache=cache)
    recogniser.set_phrases(["yes", "no"])
    # a table talks a little before the first command (the engine adapts to the room)
    hear(recogniser, utterance("hello everybody, let's play", "en-us", seed=9))
    return recogniser


@needs_tts
@pytest.mark.slow
def test_done_is_not_heard_as_go_on(recogniser: SphinxRecogniser) -> None:
    """Pantone's Artist says "done" while "go on" (carry on after a pause) is listened
    for too."""
    recogniser.set_phrases(["done", "all done", "i'm done", "go on", "undo", "help"])
    recogniser.reset()
    (heard,) = hear(recogniser, utterance("Done", "en-us", seed=4))
    assert heard.text == "done"


@needs_tts
@pytest.mark.slow
@pytest.mark.parametrize("said", ["grey for Anna", "grey for Ben"])
def test_grey_is_not_heard_as_green(recogniser: SphinxRecogniser, said: str) -> None:
    """Farben's scoring phase: naming who played grey."""
    recogniser.set_phrases(
        [f"{c} for {p}" for c in COLOURS for p in PLAYERS]
        + [f"{p} played {c}" for c in COLOURS for p in PLAYERS]
    )
    recogniser.reset()
    (heard,) = hear(recogniser, utterance(said, "en-us", seed=len(said)))
    assert heard.text == said.lower()
