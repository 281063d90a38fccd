"""Never a move the player did not make (the guard), and the guarded fallback for what the
templates miss (voice/understanding/fallback.py), typed and spoken, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Thresholds, Transcript
from voice.session.adapters import adapter_for
from voice.session.session import Session
from words.text import normalize

VOSK_LIKE = Thresholds(act=0.9, confirm=0.5, answer=0.5, affirm=0.75, ignore=0.3)


def amf(lang: str, *before: str) -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    setup = Setup(("Anna", "Ben"), 0, "Anna", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), lang, setup, out)
    session.start()
    for line in before:
        session.hear(line)
    out.said.clear()
    out.records.clear()
    return session, out


def test_the_probe_a_negated_move_places_nothing() -> None:
    """farbspiel play alle-meine-farben --players Anna,Ben --first Anna --lang de"""
    session, _ = amf("de", "Ich male den Ball rot an")
    assert [a.args for a in session.actions] == [{"object": 1, "colour": "red"}]
    session.hear("der Hut wird nicht gelb")
    assert len(session.actions) == 1
    assert session.awaiting is None


REFUSED = {
    "de": [
        "der Hut wird nicht gelb",
        "die Säge nicht gelb",
        "kein rot",
        "bloß nicht blau",
        "Ich male den Hut rot und grün an",
        "Nehm ich blau?",
        "soll ich blau nehmen",
        "blau oder lieber grün",
        "ich wünschte, der Hut wäre blau",
        "Ben, nimm doch lila",
        "du solltest lila nehmen",
    ],
    "en": [
        "the hat is not yellow",
        "not yellow",
        "no red",
        "don't make it blue",
        "I'll colour the hat red and green",
        "should I play blue",
        "blue or green",
        "I wish the hat were blue",
        "Ben, play purple",
        "you could do green",
    ],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in REFUSED.items() for t in v])
def test_refused_forms_are_no_move_typed_or_spoken(lang: str, text: str) -> None:
    session, _ = amf(lang, "rot" if lang == "de" else "red")
    moves = len(session.actions)
    session.hear(text)
    assert len(session.actions) == moves and session.awaiting is None
    session.policy = session.policy.for_recogniser(type("R", (), {"thresholds": VOSK_LIKE}))
    session.hear_speech(Transcript(text.lower().replace("?", "").replace(",", ""), 0.99))
    assert len(session.actions) == moves and session.awaiting is None


@pytest.mark.parametrize(
    ("lang", "text", "ok"),
    [
        ("de", "Nehm ich blau?", True),
        ("de", "kann ich rot nehmen", False),
        ("en", "can I do blue?", True),
        ("en", "is red allowed", False),
    ],
)
def test_a_question_about_a_colour_is_answered(lang: str, text: str, ok: bool) -> None:
    session, out = amf(lang, "rot" if lang == "de" else "red")  # red lies in row 1
    session.hear(text)
    assert len(session.actions) == 1
    answer = out.said[-1]
    assert answer.startswith(("Ja", "Yes") if ok else ("Nein", "No"))


def test_a_fallback_guess_is_confirmed_before_it_counts() -> None:
    """No template says it this way; every word is one the templates use: asked first."""
    session, out = amf("de")
    session.hear("rot mache ich den Ball an")
    assert session.awaiting is not None and session.awaiting[0] == "move"
    assert session.actions == []
    session.hear("ja")
    assert session.actions[-1].args == {"colour": "red", "object": 1}


def test_a_pronoun_stands_for_the_object_in_play() -> None:
    session, _ = amf("de", "blau")
    session.hear("ich mal ihn lila an")  # den Hut
    assert session.actions[-1].args["colour"] == "purple"
    session, _ = amf("en", "blue")
    session.hear("paint this one purple")
    assert session.actions[-1].args["colour"] == "purple"


def test_words_no_template_uses_are_never_guessed() -> None:
    session, _ = amf("de")
    for text in ("meine Jacke ist auch rot", "rot ist doof", "Opa hatte einen roten Hut"):
        session.hear(text)
    assert session.actions == [] and session.awaiting is None


PHASES = {
    "de": {"alle-meine-farben": ["blau"], "farben": ["Jonas fängt an", "das erste", "bereit"]},
    "en": {"alle-meine-farben": ["blue"], "farben": ["Ben starts", "the first one", "ready"]},
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_what_a_recogniser_can_output_is_never_refused(lang: str) -> None:
    """Every phrase of a guarded move the recognisers listen for, in several phases, is
    understood as that move: the guard never turns a template sentence away."""
    for game, lines in PHASES[lang].items():
        adapter = adapter_for(game)
        players = ("Anna", "Jonas", "Mia") if lang == "de" else ("Anna", "Ben", "Cem")
        first = "Anna" if game != "farben" else None
        setup = Setup(players, 0, first, adapter.default_options(lang))
        session = Session(adapter, lang, setup, RecordingOutput())
        session.start()
        for line in ["", *lines]:
            if line:
                session.hear(line)
            phase = session.phase()
            guarded = phase.intents & session.grammar.guarded_intents
            phrases = [p for p, i in session.grammar.phrases(guarded, phase.slots) if i in guarded]
            for phrase in phrases[:: max(1, len(phrases) // 150)]:
                found = session.parser.parse(phrase, phase.intents, phase.slots)
                assert found is not None and found.name in guarded, (line, phrase)


HINTS = {
    "de": [
        "einen Tipp von Lena",
        "Lena, gib mir bitte einen Tipp",
        "Lena einen Hinweis bitte",
        "Lena Tipp",
        "ich brauche einen Tipp von Lena",
        "kann ich einen Hinweis von Lena haben",
        "kann ich bitte einen Tipp von Lena bekommen",
        "Lena, kannst du mir einen Tipp geben",
        "gib mir einen Tipp, Lena",
        "Tipp bitte von Lena",
    ],
    "en": [
        "a hint from Anna",
        "Anna, give me a hint please",
        "Anna a hint please",
        "Anna hint",
        "can I have a hint from Anna",
        "give me a hint from Anna",
        "I need a hint from Anna",
        "give me a hint, Anna",
        "Anna, can you give me a hint",
        "could I get a hint from Anna",
        "a clue from Anna",
    ],
}
GOLDEN = Path(__file__).parent / "golden" / "farben"


def _script(lang: str, upto: int) -> list[str]:
    raw = (GOLDEN / f"three-players-{lang}.script").read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in raw[:upto] if line.split("#", 1)[0].strip()]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_way_of_asking_for_a_hint_works_typed_and_spoken_on_every_stack(lang: str) -> None:
    """Name first or last, Tipp or Hinweis, "can I have / give me / I need": understood
    typed, and among the sentences the recognisers listen for, on the first stack and on
    a later one."""
    if lang == "de":
        players = ("Lena", "Jonas", "Mia")
        words = (
            "Schule/Urlaub,Kindheit/Winter,Oma/Küche,Erfolg/Montag,Sommer/Angst,Liebe/Wald,"
            "Musik/Krankenhaus,Geburtstag/Sonntag,Meer/Prüfung,Freundschaft/Herbst"
        )
        stacks = {107: "Musik", 125: None}  # the first stack; the second (Erfolg)
    else:
        players = ("Anna", "Ben", "Cem")
        words = (
            "School/Holiday,Childhood/Winter,Grandmother/Kitchen,Success/Monday,Summer/Fear,"
            "Love/Forest,Music/Hospital,Birthday/Sunday,Sea/Exam,Friendship/Autumn"
        )
        stacks = {116: "Summer", 134: None}  # the first stack; the second (Friendship)
    cards = [card.split("/") for card in words.split(",")]
    for upto, stack in stacks.items():
        setup = Setup(players, 3, None, {"deck": lang, "words": cards})
        session = Session(adapter_for("farben"), lang, setup, RecordingOutput())
        session.start()
        for line in _script(lang, upto) + ([stack] if stack else []):
            session.hear(line)
        phase = session.phase()
        assert "hint" in phase.intents, (stack, session.game.phase)
        heard = set(session.phrases())
        for text in HINTS[lang]:
            found = session.parser.parse(text, phase.intents, phase.slots)
            giver = "Lena" if lang == "de" else "Anna"
            assert found is not None and found.name == "hint", text
            assert found.slots.get("player") == giver, text
            assert normalize(text) in heard, text


def test_a_player_called_will_is_no_question() -> None:
    adapter = adapter_for("farben")
    setup = Setup(("Will", "May", "Hope"), 0, None, adapter.default_options("en"))
    session = Session(adapter, "en", setup, RecordingOutput())
    for text, player in (("Will played blue", "Will"), ("May had red", "May")):
        found = session.parser.parse(text, frozenset({"name_colour"}), {})
        assert found is not None and found.slots == {
            "player": player,
            "colour": found.slots["colour"],
        }
    assert session.parser.parse("did Will play blue", frozenset({"name_colour"}), {}) is None


# --- openings before a name (Farben's scoring: "yeah, Cem had green") --------------------
TABLES = {
    "de": (
        ("Lena", "Jonas", "Mia"),
        "Schule/Urlaub,Kindheit/Winter,Oma/Küche,Erfolg/Montag,Sommer/Angst,Liebe/Wald,"
        "Musik/Krankenhaus,Geburtstag/Sonntag,Meer/Prüfung,Freundschaft/Herbst",
        107,
        "Musik",
    ),
    "en": (
        ("Anna", "Ben", "Cem"),
        "School/Holiday,Childhood/Winter,Grandmother/Kitchen,Success/Monday,Summer/Fear,"
        "Love/Forest,Music/Hospital,Birthday/Sunday,Sea/Exam,Friendship/Autumn",
        116,
        "Summer",
    ),
}
"""The golden three-player games, up to the first stack being scored (Jonas / Ben names)."""

OPENED_NAMES = {
    "de": [
        ("ja Mia hatte grün", "Mia"),
        ("ja, Mia hatte grün", "Mia"),
        ("genau, Mia hat grün gewählt", "Mia"),
        ("ach, Mia hatte grün", "Mia"),
        ("ja also Mia hatte grün", "Mia"),
        ("äh, ja, Mia hatte grün", "Mia"),
        ("naja, die Mia hatte grün", "Mia"),
        ("die Lena hatte grün", "Lena"),
        ("aber Lena hatte grün", "Lena"),
    ],
    "en": [
        ("yeah Cem had green", "Cem"),
        ("yeah, Cem had green", "Cem"),
        ("yes Cem played green", "Cem"),
        ("well yeah, Cem had green", "Cem"),
        ("oh yeah Cem had green", "Cem"),
        ("yep, Cem chose green", "Cem"),
        ("ok so Cem had green", "Cem"),
        ("hey, Anna had green", "Anna"),
        ("right, Anna had green", "Anna"),
        ("but Cem had green", "Cem"),
        ("but Anna played green", "Anna"),
    ],
}

NEVER_NAMED = {
    "de": [
        "ja Mia hatte nicht grün",
        "nein Mia hatte grün",
        "nicht Mia, Lena hatte grün",
        "ja hatte Mia grün",
        "und hatte Mia grün",
        "hatte Mia grün?",
        "aber hatte Mia grün",
        "ja Mia hatte grün oder gelb",
        "Lena Mia hatte grün",
    ],
    "en": [
        "yeah Cem didn't have green",
        "but Cem didn't have green",
        "no Cem had green",
        "not Cem, Anna had green",
        "did Cem have green?",
        "did Cem have green",
        "and did Cem have green",
        "but did Cem have green",
        "yeah, did Cem have green",
        "so was it Cem who had green",
        "but Cem had green or blue",
        "Cem had green but",
        "Anna Cem had green",
        "say Cem had green",
    ],
}


def _scoring(lang: str) -> Session:
    players, words, upto, stack = TABLES[lang]
    cards = [card.split("/") for card in words.split(",")]
    setup = Setup(players, 3, None, {"deck": lang, "words": cards})
    session = Session(adapter_for("farben"), lang, setup, RecordingOutput())
    session.start()
    for line in [*_script(lang, upto), stack]:
        session.hear(line)
    assert "name_colour" in session.phase().intents
    return session


@pytest.fixture(scope="module")
def scoring() -> dict[str, Session]:
    return {lang: _scoring(lang) for lang in TABLES}


@pytest.mark.parametrize(
    ("lang", "text", "player"), [(k, *t) for k, v in OPENED_NAMES.items() for t in v]
)
def test_a_name_after_an_opening_word_is_that_player(
    scoring: dict[str, Session], lang: str, text: str, player: str | None
) -> None:
    """An opening word before a name is no part of it: "yeah Cem had green" names Cem,
    not a player called "yeah Cem" who is not at the table; "but" that opens a sentence
    is no refusal."""
    session = scoring[lang]
    phase = session.phase()
    found = session.parser.parse(text, phase.intents, phase.slots)
    if player is None:
        assert found is None or found.name != "name_colour", text
        return
    assert found is not None, text
    assert (found.name, found.slots) == ("name_colour", {"player": player, "colour": "green"})
    assert found.score >= session.confirm_below, text  # acted on at once, typed


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in NEVER_NAMED.items() for t in v])
def test_an_opening_word_never_makes_a_negation_or_question_a_move(
    scoring: dict[str, Session], lang: str, text: str
) -> None:
    session = scoring[lang]
    phase = session.phase()
    found = session.parser.parse(text, phase.intents, phase.slots)
    assert found is None or found.name != "name_colour", (text, found)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_naming_after_an_opening_word_in_play(lang: str) -> None:
    """Typed at the table: table talk changes nothing and is not answered as a stranger;
    a real stranger still is; the opened sentence scores."""
    session = _scoring(lang)
    out = session.out
    assert isinstance(out, RecordingOutput)
    moves = len(session.actions)
    for text in NEVER_NAMED[lang]:
        out.records.clear()
        session.hear(text)
        assert len(session.actions) == moves, text
        assert session.awaiting is None, text
        refused = [r for r in out.records if r.get("type") == "refused"]
        assert all(r.get("reason") != "unknown_player" for r in refused), (text, refused)
    out.records.clear()
    session.hear("ja Dieter hatte grün" if lang == "de" else "yeah Dieter had green")
    assert [r for r in out.records if r.get("type") == "refused"] == [
        {"type": "refused", "reason": "unknown_player", "name": "Dieter"}
    ]
    out.records.clear()
    other = "Mia" if lang == "de" else "Cem"
    session.hear("ja, Mia hatte gelb" if lang == "de" else "yeah, Cem had green")
    named = [r for r in out.records if r.get("type") == "named"]
    assert len(named) == 1 and named[0]["player"] == other, out.records
    assert len(session.actions) == moves + 1


@pytest.mark.parametrize(
    ("lang", "text", "player"),
    [("de", "jetzt erinnere ich mich: Mia hatte gelb", "Mia"),
     ("en", "oh, now I remember, Cem had green", "Cem")],
)  # fmt: skip
def test_a_name_after_words_that_lead_in_is_named(lang: str, text: str, player: str) -> None:
    """Words that lead in to the naming ("now I remember") are no stranger called so."""
    session = _scoring(lang)
    out = session.out
    assert isinstance(out, RecordingOutput)
    out.records.clear()
    session.hear(text)
    named = [r for r in out.records if r.get("type") == "named"]
    assert len(named) == 1 and named[0]["player"] == player, out.records
