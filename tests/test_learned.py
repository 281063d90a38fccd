"""Questions and requests in words the templates do not list, learnt from what families
said (voice/understanding/learned.py, issue 24)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

import voice.understanding.learned as learned_module
from tests.test_remarks_and_tries import parse, understood
from voice.bench.understanding import corpus_files
from voice.understanding.learned import ExamplesError, learned, read_examples


@pytest.mark.parametrize(
    ("game", "lang", "situation", "text", "intent", "slots"),
    [
        ("farben", "en", "story", "where do things stand now", "status", {}),
        ("farben", "en", "story", "remind me what the two words were", "words", {}),
        ("farben", "en", "story", "what am I meant to be doing now", "help", {}),
        ("farben", "de", "story", "wie sieht's denn insgesamt aus bei uns", "status", {}),
        # moves: what families said teaches these; the values come from the words said
        ("farben", "en", "choosing", "All the cards are down now", "ready", {}),
        ("farben", "de", "start", "Los einfach einen aus", "random_first", {}),
    ],
)
def test_questions_and_moves_in_own_words_are_understood(
    game: str, lang: str, situation: str, text: str, intent: str, slots: dict[str, Any]
) -> None:
    assert parse(game, lang, situation, text) == {"intent": intent, "slots": slots}


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Ben, what have you got left for dinner?"),
        ("en", "don't take that back"),
        ("en", "never take that back"),
    ],
)
def test_talk_and_refusals_stay_unanswered(lang: str, text: str) -> None:
    assert parse("farben", lang, "story", text) is None


@pytest.mark.parametrize(
    ("lang", "situation", "text"),
    [
        ("en", "naming", "Ben, yours is green surely, you always pick green"),  # advice
        ("en", "naming", "did Ben have green for the football story?"),  # a question
        ("en", "start", "don't let Cem start, he always wins"),  # a refusal
        ("en", "start", "Cem, sit down and stop fidgeting, you're not starting"),
        ("de", "start", "Mia, setz dich hin, du bist noch lange nicht dran"),
    ],
)
def test_talk_with_names_and_colours_makes_no_move(lang: str, situation: str, text: str) -> None:
    assert parse("farben", lang, situation, text) is None


@pytest.mark.parametrize(
    ("game", "lang", "situation", "text"),
    [
        ("farben", "en", "naming", "Ah, now I remember!"),  # not "I don't remember"
        ("alle-meine-farben", "en", "house", "Our neighbours are painting their house blue."),
        ("alle-meine-farben", "en", "house", "The house is going blue too, like last game."),
    ],
)
def test_what_only_sounds_like_a_move_is_not_learnt_as_one(
    game: str, lang: str, situation: str, text: str
) -> None:
    found = parse(game, lang, situation, text)
    assert found is None or found["intent"] not in ("forgot", "place")


def test_a_move_the_model_is_less_sure_of_is_asked_back(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Let's have Ben get us going, he's dressed like a traffic cone"
    monkeypatch.setattr(learned_module, "SURE_MARGIN", 99.0)
    _, session = understood("farben", "en", "start", text)
    moves = len(session.actions)
    session.hear(text)
    assert len(session.actions) == moves  # nothing applied yet
    assert session.awaiting is not None and session.awaiting[0] == "move"
    session.hear("yes")
    assert len(session.actions) == moves + 1
    assert session.actions[-1].args == {"player": "Ben"}


def _read_in(text: str, situation: str = "story") -> Any:
    _, session = understood("farben", "en", situation, "x")
    phase = session.phase()
    parser = session.parser
    return learned(parser.grammar, parser.fallback, text, frozenset(phase.intents), phase.slots)


def test_taking_back_is_learnt_but_never_from_a_refusal() -> None:
    assert _read_in("i take that back").name == "undo"
    assert _read_in("don't take that back") is None  # the model ranks undo first here


def test_a_question_only_where_the_phase_takes_it() -> None:
    _, session = understood("farben", "en", "story", "x")
    parser = session.parser
    assert (
        learned(parser.grammar, parser.fallback, "where do things stand now", frozenset()) is None
    )


def test_a_broken_examples_file_leaves_understanding_working(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "farben.examples.txt"
    broken.write_text("status where do things stand\n", encoding="utf-8")  # no tab
    monkeypatch.setattr(learned_module, "examples_path", lambda lang, game: broken)
    learned_module.model.cache_clear()
    learned_module._failed.clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert _read_in("where do things stand now") is None
        assert "not learnt" in caplog.text
        # the templates still understand
        assert parse("farben", "en", "story", "whose turn is it") == {
            "intent": "whose_turn",
            "slots": {},
        }
    finally:
        learned_module.model.cache_clear()
        learned_module._failed.clear()


def test_examples_lines_are_checked() -> None:
    assert read_examples("# note\nstatus\twhere are we\n\ntalk\tdinner is ready\n") == [
        ("status", "where are we"),
        ("talk", "dinner is ready"),
    ]
    with pytest.raises(ExamplesError, match="line 2"):
        read_examples("status\twhere are we\nno tab here\n")


@pytest.mark.slow
def test_the_examples_are_the_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped examples are what the corpus says (``python -m voice.bench.examples``
    after folding a held-out set in), and ``--check`` tells when they are not; run on a
    copy of the repository's grammars folder."""
    import voice.bench.examples as examples

    (corpus,) = corpus_files("farben", "en")
    shipped = examples.ROOT / "grammars" / "en" / "farben.examples.txt"
    (tmp_path / "grammars" / "en").mkdir(parents=True)
    monkeypatch.setattr(examples, "ROOT", tmp_path)
    monkeypatch.setattr(examples, "corpus_files", lambda: [corpus])
    assert examples.main([]) == 0
    written = tmp_path / "grammars" / "en" / "farben.examples.txt"
    assert written.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")
    written.write_text(written.read_text(encoding="utf-8") + "talk\tan old line\n")
    assert examples.main(["--check"]) == 1


def test_the_quick_reading_gives_what_scikit_learn_gives() -> None:
    """The decision values worked out per utterance are the classifier's own."""
    model = learned_module.model("en", "farben")
    assert model is not None
    for text in ("whose go is it", "{player} had purple i reckon", "zzz", ""):
        expected = (model.vectorizer.transform([text]) @ model.weights + model.bias).ravel()
        assert model.values(text) == pytest.approx(expected, abs=1e-9)
