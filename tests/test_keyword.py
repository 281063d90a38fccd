"""Push-to-talk by keyword: the recogniser listens only for sentences after the keyword, and
the rest of farbspiel sees the sentences without it (our own logic; a fake engine)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from voice.recognition.base import Alternative, Recogniser, Transcript, Word
from voice.recognition.keyword import KEYWORDS, KeywordRecogniser, with_keyword


class Engine(Recogniser):
    """Says what it is told to, once per chunk."""

    def __init__(self) -> None:
        self.phrases: list[str] = []
        self.next: Transcript | None = None

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        self.phrases = list(phrases)

    def accept(self, chunk: bytes) -> Transcript | None:
        out, self.next = self.next, None
        return out

    def finish(self) -> Transcript | None:
        return None

    def reset(self) -> None:
        pass


def test_every_phrase_is_listened_for_after_the_keyword_and_heard_without_it() -> None:
    engine = Engine()
    rec = KeywordRecogniser(engine, "Game master")
    rec.set_phrases(["the hat purple", "help"])
    assert engine.phrases == ["game master the hat purple", "game master help"]
    engine.next = Transcript(
        "game master the hat purple",
        0.9,
        words=(Word("game", 0, 0.2, 1), Word("master", 0.2, 0.5, 1), Word("the", 0.6, 0.7, 1)),
        alternatives=(Alternative("game master help", 0.05), Alternative("oh well", 0.01)),
    )
    heard = rec.accept(b"\0\0")
    assert heard is not None
    assert heard.text == "the hat purple" and heard.confidence == 0.9
    assert [w.word for w in heard.words] == ["the"]
    assert heard.alternatives == (Alternative("help", 0.05),)


def test_a_sentence_without_the_keyword_is_nothing_for_the_game() -> None:
    engine = Engine()
    rec = with_keyword(engine, "de", "default")
    assert isinstance(rec, KeywordRecogniser) and rec.keyword == KEYWORDS["de"].lower()
    rec.set_phrases(["hilfe"])
    engine.next = Transcript("hilfe", 0.99)  # an engine that lets words through anyway
    heard = rec.accept(b"\0\0")
    assert heard is not None and heard.text == ""


def test_no_keyword_leaves_the_recogniser_alone() -> None:
    engine = Engine()
    assert with_keyword(engine, "en", "") is engine
    with pytest.raises(ValueError):
        KeywordRecogniser(engine, " , ")


def test_the_keyword_is_a_front_end_option_of_every_command() -> None:
    import argparse

    from voice.recognition.frontend import (
        DEFAULT,
        add_front_end_arguments,
        parse_spec,
        settings_from,
        with_front_end,
    )

    parser = argparse.ArgumentParser()
    add_front_end_arguments(parser)
    assert settings_from(parser.parse_args([])).keyword == ""
    assert settings_from(parser.parse_args(["--push-to-talk"])).keyword == "default"
    own = settings_from(parser.parse_args(["--keyword", "Robo"]))
    assert own.keyword == "Robo" and "keyword" in own.label
    assert parse_spec("speex+ns2+keyword").keyword == "default"
    engine = Engine()
    heard = with_front_end(engine, own, "de")
    assert isinstance(heard, KeywordRecogniser) and heard.keyword == "robo"
    assert with_front_end(engine, DEFAULT, "de") is not heard
