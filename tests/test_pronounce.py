"""Pronunciations for pocketsphinx: the IPA → en-us phone table, espeak-ng, the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rapidfuzz.distance import Levenshtein

from games.engine import Setup
from voice.recognition import pronounce
from voice.recognition.pronounce import (
    ARPABET,
    IPA_TO_ARPABET,
    Pronouncer,
    PronunciationError,
    cmudict,
    espeak_ipa,
    ipa_to_arpabet,
)
from voice.recognition.sphinx import default_model_dir
from voice.session.adapters import ADAPTERS, adapter_for
from voice.understanding.grammar import Grammar

NAMES = ("Anna", "Ben", "Cem", "Jürgen", "Zoë", "Björn", "Chloé", "Mehmet", "Xaver", "Renée")


def grammar_words(lang: str) -> list[str]:
    words: set[str] = set()
    for game_id in ADAPTERS:
        adapter = adapter_for(game_id)
        setup = Setup(NAMES, options=adapter.default_options(lang))
        words |= Grammar(lang, game_id, adapter.dynamic_lists(setup, lang)).vocabulary
    return sorted(words)


def dictionary() -> str:
    return str(default_model_dir() / "cmudict-en-us.dict")


def test_every_phone_of_the_table_is_one_the_model_knows() -> None:
    model_phones = {p for prons in cmudict(dictionary()).values() for x in prons for p in x.split()}
    assert model_phones == ARPABET
    for lang, table in IPA_TO_ARPABET.items():
        for symbol, value in table.items():
            for option in value.split("|"):
                assert set(option.split()) <= ARPABET, (lang, symbol, option)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_word_of_every_grammar_gets_a_pronunciation(lang: str) -> None:
    words = grammar_words(lang) + [n.lower() for n in NAMES]
    for word, ipa in zip(words, espeak_ipa(words, lang), strict=True):
        variants = ipa_to_arpabet(ipa, lang)  # raises on a symbol the table lacks
        assert 1 <= len(variants) <= pronounce.MAX_VARIANTS, word


def character_words(lang: str) -> set[str]:
    """Words of Pantone's character names (the deck and the well-known characters)."""
    adapter = adapter_for("pantone")
    lists = adapter.dynamic_lists(Setup(NAMES, options=adapter.default_options(lang)), lang)
    names = [*lists["character"], *lists.get("other_character", [])]
    return {w for value in names for w in str(value.value).lower().split()}


def test_english_words_said_by_espeak_match_the_cmu_dictionary() -> None:
    """The table is right if espeak's English, mapped, mostly equals the CMU dictionary.

    Character names ("Bowser", "Kenobi") are left out, like player names: how a name is
    said varies, and the dictionary has one reading of it; the table is judged on words."""
    cmu = cmudict(dictionary())
    names = character_words("en")
    words = [w for w in grammar_words("en") if w in cmu and "'" not in w and w not in names]
    distances = []
    for word, ipa in zip(words, espeak_ipa(words, "en"), strict=True):
        ours = ipa_to_arpabet(ipa, "en")[0].split()
        distances.append(
            min(Levenshtein.distance(ours, p.split()) / len(p.split()) for p in cmu[word])
        )
    exact = sum(d == 0 for d in distances) / len(distances)
    assert len(words) > 150
    assert exact >= 0.9, f"only {exact:.0%} of English words map exactly"
    assert sum(distances) / len(distances) <= 0.03


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("lila", "L IY L AA"),
        ("rot", "R OW T"),
        ("hut", "HH UW T"),
        ("grün", "G AH UW N"),
        ("ich", "IH SH"),
        ("zwölf", "T S V ER L F"),
        ("schuh", "SH UW"),
    ],
)
def test_german_words_map_as_a_german_says_them(word: str, expected: str) -> None:
    (ipa,) = espeak_ipa([word], "de")
    assert ipa_to_arpabet(ipa, "de")[0] == expected


def test_unclear_sounds_get_a_second_pronunciation() -> None:
    (ipa,) = espeak_ipa(["grün"], "de")
    # after g the r is a short vowel to the en-us model, or an R; never left out
    assert ipa_to_arpabet(ipa, "de") == ["G AH UW N", "G R UW N", "G AH IY N"]
    (ipa,) = espeak_ipa(["rot"], "de")
    assert ipa_to_arpabet(ipa, "de") == ["R OW T", "OW T"]  # German r is no English R


def test_german_numbers_are_said_the_way_a_number_is_read(tmp_path: Path) -> None:
    # espeak-ng reads the written word "sechsundvierzig" with v and a long i, but says
    # the number 46 (and people say it) with f and a short i, like "vierzig" in 145
    said = Pronouncer("de", None, tmp_path / "de.json").pronunciations(
        ["sechsundvierzig", "einundvierzig", "einhundert", "lila"]
    )
    assert said["sechsundvierzig"][0] == "Z EH K S UH N T F IH R T S IH SH"
    assert said["einundvierzig"][0].endswith("T F IH R T S IH SH")
    assert said["einhundert"][0] == "HH UH N D AH T"  # still said without its "ein"
    assert said["lila"][0] == "L IY L AA"  # other words as before


def test_a_symbol_without_a_phone_is_an_error_not_a_guess() -> None:
    with pytest.raises(PronunciationError, match="ʘ"):
        ipa_to_arpabet("bʘa", "de")


def test_german_words_are_said_the_german_way_even_if_english_has_them(tmp_path: Path) -> None:
    german = Pronouncer("de", dictionary(), tmp_path / "de.json").pronunciations(["die", "rot"])
    english = Pronouncer("en", dictionary(), tmp_path / "en.json").pronunciations(["die", "red"])
    assert german["die"][0] == "D IY"
    assert english["die"][0] == "D AY"  # from the CMU dictionary
    assert english["red"] == list(cmudict(dictionary())["red"])


def test_pronunciations_are_cached_on_disk(tmp_path: Path, monkeypatch) -> None:
    cache = tmp_path / "de.json"
    first = Pronouncer("de", dictionary(), cache).pronunciations(["mülleimer", "zoë"])
    assert json.loads(cache.read_text(encoding="utf-8"))["words"]["zoë"] == first["zoë"]

    def no_espeak(words, lang):  # type: ignore[no-untyped-def]
        raise AssertionError("espeak-ng called although the cache has the words")

    monkeypatch.setattr(pronounce, "espeak_ipa", no_espeak)
    again = Pronouncer("de", dictionary(), cache).pronunciations(["mülleimer", "zoë"])
    assert again == first


def test_a_cache_from_another_table_or_a_broken_one_is_ignored(tmp_path: Path) -> None:
    cache = tmp_path / "de.json"
    cache.write_text(json.dumps({"key": "old", "words": {"rot": ["B AA D"]}}), encoding="utf-8")
    assert Pronouncer("de", dictionary(), cache).pronunciations(["rot"])["rot"][0] == "R OW T"
    cache.write_text("{not json", encoding="utf-8")
    assert Pronouncer("de", dictionary(), cache).pronunciations(["rot"])["rot"][0] == "R OW T"


def test_without_espeak_the_message_says_how_to_get_it(monkeypatch) -> None:
    monkeypatch.setattr(pronounce.shutil, "which", lambda name: None)
    with pytest.raises(PronunciationError, match="apt install espeak-ng"):
        espeak_ipa(["hallo"], "de")
