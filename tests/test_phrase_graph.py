"""The phrase list → finite-state grammar that pocketsphinx decodes with."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Setup
from voice.output.sinks import NullOutput
from voice.recognition.phrase_graph import Automaton, joined_names, spoken_words
from voice.session.adapters import adapter_for
from voice.session.session import Session
from words.numbers import number_words

WORDS = st.sampled_from(["ich", "male", "den", "hut", "lila", "rot", "an", "ja", "nein"])
SENTENCES = st.lists(st.lists(WORDS, min_size=1, max_size=5), min_size=1, max_size=30)


@settings(max_examples=200, deadline=None)
@given(SENTENCES, st.lists(st.lists(WORDS, min_size=1, max_size=5), max_size=30))
def test_the_automaton_accepts_exactly_the_sentences(sentences, others) -> None:
    automaton = Automaton(sentences)
    for words in sentences:
        assert automaton.accepts(words)
    wanted = {tuple(s) for s in sentences}
    for words in others:
        assert automaton.accepts(words) == (tuple(words) in wanted)


@settings(max_examples=100, deadline=None)
@given(SENTENCES)
def test_the_fsg_arcs_spell_exactly_the_sentences(sentences) -> None:
    automaton = Automaton(sentences)
    token = {w: w.upper() for s in sentences for w in s}
    start, final, arcs = automaton.transitions(token)
    found: set[tuple[str, ...]] = set()
    pending = [(start, ())]
    while pending:
        state, path = pending.pop()
        for source, target, prob, word in arcs:
            if source == state:
                assert prob == 1.0
                if target == final:
                    found.add((*path, word))
                else:
                    pending.append((target, (*path, word)))
    assert found == {tuple(w.upper() for w in s) for s in sentences}


def test_a_play_phase_folds_into_a_small_graph() -> None:
    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), "de", setup, NullOutput())
    session.start()
    phrases = session.phrases()
    automaton = Automaton(spoken_words(p, "de") for p in phrases)
    words = sum(len(spoken_words(p, "de")) for p in phrases)
    assert len(phrases) > 2000  # every way to say a move, a question or a command
    assert len(automaton) < 250  # shared beginnings and endings are one path (211 now)
    assert automaton.arcs < words / 10


def test_numbers_are_spoken_as_words() -> None:
    assert spoken_words("nummer 12 wird grün", "de") == ["nummer", "zwölf", "wird", "grün"]
    assert spoken_words("what's in row 3", "en") == ["what's", "in", "row", "three"]
    assert number_words(21, "en") == ("twenty", "one")


@pytest.mark.parametrize("phrase", ["a_b", "rot!", "x <b>"])
def test_a_token_nobody_can_say_is_refused(phrase: str) -> None:
    with pytest.raises(ValueError, match="cannot say"):
        spoken_words(phrase, "de")


def test_names_are_joined_into_one_word_longest_first() -> None:
    names = frozenset({("mister", "potato", "head"), ("potato", "head"), ("e", "t")})
    said = "is it mister potato head or e t or potato head".split()
    assert joined_names(said, names) == [
        "is",
        "it",
        "mister_potato_head",
        "or",
        "e_t",
        "or",
        "potato_head",
    ]
    assert joined_names(["mister", "potato"], names) == ["mister", "potato"]  # not a name


def test_names_said_alike_share_their_arcs() -> None:
    """The names "mr potato head" and "mister potato head" sound the same: one decoder
    word, one arc, so the decoder does not split the probability between two spellings."""
    automaton = Automaton([["is", "it", "mr_potato_head"], ["is", "it", "mister_potato_head"]])
    token = {"is": "is", "it": "it", "mr_potato_head": "w1x", "mister_potato_head": "w1x"}
    _, _, arcs = automaton.transitions(token)
    assert [arc[3] for arc in arcs].count("w1x") == 1
