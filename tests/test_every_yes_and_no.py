"""No question can stall a game: every question farbspiel asks (every kind of
:mod:`voice.session.dialogue`, and the Artist's verdict in Pantone with the box's own
cards) takes every ordinary yes and no of its language, and a question waiting when its
guess window ends is dropped: the window's timer wins."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Alternative, Transcript
from voice.session.adapters import ADAPTERS
from voice.session.core import Question
from voice.session.session import Session

YES = {
    "de": ["ja", "genau", "jo", "jap", "passt", "klar", "ja genau", "ja, das stimmt", "stimmt",
           "richtig", "okay", "na klar", "das passt"],
    "en": ["yes", "yep", "yeah", "yup", "sure", "yes, that's right", "yeah sure", "correct",
           "right", "okay", "that's right", "of course", "exactly"],
}  # fmt: skip
NO = {
    "de": ["nein", "nee", "nö", "ne", "nein danke", "falsch", "stimmt nicht", "nein, falsch",
           "das ist falsch"],
    "en": ["no", "nope", "nah", "no thanks", "no, that's wrong", "wrong", "that's not right"],
}  # fmt: skip
PLAYERS = {"de": ("Anna", "Ben", "Cem"), "en": ("Anna", "Ben", "Cem")}


def session(game: str, lang: str, **options: object) -> Session:
    adapter = ADAPTERS[game]
    opts = {**adapter.default_options(lang), **options}
    table = Session(adapter, lang, Setup(PLAYERS[lang], 3, None, opts), RecordingOutput())
    table.start()
    return table


def amf_move(lang: str) -> Session:
    table = session("alle-meine-farben", lang)
    table.hear("Anna")
    table.hear("blau" if lang == "de" else "blue", 0.0)  # unsure: "Blau für ... – richtig?"
    return table


def amf_after_move(lang: str, then: str) -> Session:
    table = session("alle-meine-farben", lang)
    table.hear("Anna")
    table.hear("blau" if lang == "de" else "blue")
    table.hear(then)
    return table


def amf_undo(lang: str) -> Session:
    return amf_after_move(lang, "rückgängig" if lang == "de" else "undo")


def amf_correct(lang: str) -> Session:
    table = session("alle-meine-farben", lang)
    table.hear("Anna")
    table.hear("blau" if lang == "de" else "blue")
    table.hear("wie steht es" if lang == "de" else "what's the score")  # not right after
    table.hear("nein, doch gelb" if lang == "de" else "no wait, yellow")  # so it is asked
    return table


def amf_quit(lang: str) -> Session:
    return amf_after_move(lang, "spiel beenden" if lang == "de" else "quit")


ASKED: dict[str, Callable[[str], Session]] = {
    "move": amf_move,
    "undo": amf_undo,
    "correct": amf_correct,
    "quit": amf_quit,
}


def amf_choice(lang: str) -> Session:
    table = session("alle-meine-farben", lang)
    table.hear("Anna")
    best, other = ("lila", "rosa") if lang == "de" else ("purple", "pink")
    table.hear_speech(Transcript(best, 0.55, alternatives=(Alternative(other, 0.4),)))
    return table  # "Meinst du lila oder rosa?"


def test_every_kind_of_question_is_asked_here() -> None:
    kinds = {cls.kind for cls in Question.__subclasses__()}
    assert kinds == set(ASKED) | {"choice"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_choice_takes_every_no_and_a_yes_asks_which(lang: str) -> None:
    """ "Meinst du lila oder rosa?" is no yes/no question: every no cancels it, a yes asks
    which of the two, and naming one then makes it - the game never stalls."""
    for word, yes in [(w, True) for w in YES[lang]] + [(w, False) for w in NO[lang]]:
        table = amf_choice(lang)
        assert table.awaiting is not None and table.awaiting[0] == "choice", word
        table.hear(word)
        assert table.actions == [table.actions[0]], word  # nothing made on a yes or a no
        assert (table.awaiting is not None) is yes, word
        if yes:
            table.hear("rosa" if lang == "de" else "pink")
            assert table.awaiting is None and len(table.actions) == 2, word


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("kind", sorted(ASKED))
def test_every_question_takes_every_yes_and_no(lang: str, kind: str) -> None:
    for word, yes in [(w, True) for w in YES[lang]] + [(w, False) for w in NO[lang]]:
        table = ASKED[kind](lang)
        assert table.awaiting is not None and table.awaiting[0] == kind, (kind, word)
        before = list(table.actions)
        table.hear(word)
        assert table.awaiting is None, (kind, word)  # answered, not "ja oder nein?"
        changed = table.actions != before or table.finished
        assert changed is yes, (kind, word)


def verdict(lang: str) -> Session:
    table = session("pantone", lang, cards="physical")
    lines = ["Anna", "bereit", "fertig"] if lang == "de" else ["Anna", "ready", "done"]
    for line in lines:
        table.hear(line)
    table.hear("ist es Pumuckl" if lang == "de" else "is it Pinocchio")
    assert table.game.stage == "verdict"
    return table


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_artists_verdict_takes_every_yes_and_no(lang: str) -> None:
    for word, yes in [(w, True) for w in YES[lang]] + [(w, False) for w in NO[lang]]:
        table = verdict(lang)
        table.hear(word)
        types = [r.get("type") for r in table.out.records]  # type: ignore[attr-defined]
        assert "nothing_to_confirm" not in types, word
        assert table.game.stage != "verdict", word
        assert ("guessed" in types) is yes, word
        assert ("judged_wrong" in types) is not yes, word


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_guess_asked_back_expires_with_its_window(lang: str) -> None:
    table = session("pantone", lang)
    table.hear("Anna")
    table.hear("Karte 13" if lang == "de" else "card 13")
    table.hear("fertig" if lang == "de" else "done")
    guesser = table.game.queue[0]
    table.hear("Rotkäppchen" if lang == "de" else "little red riding hood", 0.0)
    assert table.awaiting is not None and table.awaiting[0] == "move"
    assert table.seconds_to_next_timer() is not None  # the window's clock keeps running
    table.run_timers(table.timers.now + 6)
    assert table.awaiting is None
    assert table.game.queue[0] != guesser  # the window closed; the next one guesses
    table.hear("ja" if lang == "de" else "yes")
    assert table.awaiting is None


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_spoken_yes_gives_the_verdict_too(lang: str) -> None:
    table = verdict(lang)
    table.hear_speech(Transcript("jo" if lang == "de" else "yep", 0.9))
    assert table.game.stage != "verdict"
    assert any(r.get("type") == "guessed" for r in table.out.records)  # type: ignore[attr-defined]
