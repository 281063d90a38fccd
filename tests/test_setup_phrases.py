"""What recognisers listen for during set-up comes from the set-up grammar, and every
sentence of it is understood as what it says (one source, as the games' templates)."""

from __future__ import annotations

import pytest

from voice.setup.phrases import setup_phrases
from voice.setup.understanding import understand


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_set_up_phrase_means_something_and_names_are_players(lang):
    phrases = setup_phrases(lang, ["Anna", "Ben", "Cem"])
    assert len(phrases) == len(set(phrases)) and all(p == p.strip().lower() for p in phrases)
    for phrase in phrases:
        assert not understand(phrase, lang, players_asked=True).empty, phrase
    said = "wir sind anna ben und cem" if lang == "de" else "we are anna ben and cem"
    assert said in phrases
    assert understand(said, lang).players == ("Anna", "Ben", "Cem")


def test_words_german_voices_cannot_say_are_never_listened_for():
    assert not [p for p in setup_phrases("de", ["Anna"]) if "renaissance" in p.split()]
    assert understand("Pantone, renaissance", "de").options == {
        "--renaissance": ("pantone", "true")
    }
