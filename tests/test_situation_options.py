"""A corpus situation may play with its own options: Pantone with the table's own printed
cards, where the Artist (not farbspiel) says whether a guess is right."""

from __future__ import annotations

import pytest

from voice.bench.understanding import CORPORA, Tables, _entry_cases, _read, run_case

JUDGING = {"en": "judging", "de": "urteilen"}


@pytest.mark.parametrize(
    ("lang", "text", "intent"),
    [("en", "yes, that's right", "correct"), ("de", "nein, leider falsch", "wrong")],
)
def test_the_artist_judges_in_the_physical_cards_situation(
    lang: str, text: str, intent: str
) -> None:
    _, _, doc = _read(CORPORA / f"pantone.{lang}.yaml")
    entry = {"text": text, "before": JUDGING[lang], "expect": {"intent": intent, "slots": {}}}
    (case,) = _entry_cases("pantone", lang, entry, doc["setup"], doc["situations"], "test")
    assert case.setup.options["cards"] == "physical"
    tables = Tables()
    assert tables.session(case).game.stage == "verdict"
    assert run_case(tables, case).right


def test_an_entry_still_overrides_the_situations_options() -> None:
    _, _, doc = _read(CORPORA / "pantone.en.yaml")
    entry = {"text": "x", "before": "judging", "never_move": True, "options": {"cards": "deal"}}
    (case,) = _entry_cases("pantone", "en", entry, doc["setup"], doc["situations"], "test")
    assert case.setup.options["cards"] == "deal"
