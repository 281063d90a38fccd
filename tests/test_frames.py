"""Conversational frames over every intent (issue 24): a name before or after, politeness,
a question around a request, a preface, an answer inside a longer sentence, a
self-correction, a tail - the same for every intent of every game, typed into a real
session, with the guard kept; and table talk answered with silence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from games.engine import Setup
from voice.output.sinks import RecordingOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session
from voice.understanding.grammar import LANGUAGES

PLAYERS = ("Anna", "Ben", "Cem")


def table(game: str, lang: str, lines: list[str], **options: Any) -> Session:
    adapter = ADAPTERS[game]
    opts = {**adapter.default_options(lang), **options}
    session = Session(adapter, lang, Setup(PLAYERS, 3, "Anna", opts), RecordingOutput())
    session.start()
    for line in lines:
        session.hear(line)
    return session


def guess_window(lang: str) -> Session:
    """Pantone with card 12 painted and done: Ben's guess window is open."""
    return table("pantone", lang, ["card 12" if lang == "en" else "Karte 12",
                                   "done" if lang == "en" else "fertig"])  # fmt: skip


def said_to(session: Session, text: str) -> tuple[list[str], list[str]]:
    """What the session says to ``text`` and the kinds of what it records."""
    out = session.out
    assert isinstance(out, RecordingOutput)
    out.said.clear()
    out.records.clear()
    session.hear(text)
    return list(out.said), [r["type"] for r in out.records]


# --- every intent gets the frames ----------------------------------------------------------
WRAPS = {
    "en": ["okay, {}, please", "game master, {}", "um, {}, thanks", "so {}"],
    "de": ["okay, {}, bitte", "Spielleiter, {}", "ähm, {}, danke", "also {}"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(ADAPTERS))
def test_every_intent_is_understood_inside_the_frames(game: str, lang: str) -> None:
    """A sentence of each intent of the game (and the session's commands) means the same
    inside a preface and politeness, after the game's name for itself, after a filler:
    nothing is listed per intent, so a new intent has the frames too."""
    session = table(game, lang, [])
    grammar, parser = session.grammar, session.parser
    checked: set[str] = set()
    wrong = []
    for intent in sorted(grammar.intent_names - grammar.quiet_intents - {"thinking"}):
        for phrase, _ in grammar.phrases([intent], limit=3):
            plain = parser.parse(phrase)
            if plain is None or plain.name != intent:
                continue  # a sentence another intent owns as well ("yes")
            for wrap in WRAPS[lang]:
                framed = parser.parse(wrap.format(phrase))
                if framed is None or (framed.name, framed.slots) != (plain.name, plain.slots):
                    wrong.append((wrap.format(phrase), framed and framed.to_json()))
            checked.add(intent)
    assert not wrong, wrong[:10]
    assert len(checked) >= 15, checked  # most intents have sentences of their own


def test_the_frames_add_nothing_the_recognisers_listen_for() -> None:
    """Frames are typed and recognised-text only: no phrase a recogniser listens for
    begins with the game's name for itself, and a framed sentence is not in the list."""
    for lang, master in (("en", "game master"), ("de", "spielleiter")):
        session = table("alle-meine-farben", lang, ["Anna" if lang == "de" else "Anna starts"])
        phrases = session.phrases()
        assert phrases and not [p for p in phrases if p.startswith(master)]
        framed = "sorry red" if lang == "en" else "sorry rot"
        assert framed not in phrases


# --- the examples, in their situations ------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "ask", "answer"),
    [
        ("en", "Cem, can I have a hint", "Cem, one word from your story"),
        ("en", "can I have a hint, Cem?", "Cem, one word from your story"),
        ("de", "Lena, kann ich einen Tipp haben", "Lena, bitte ein Wort aus deiner Geschichte"),
        ("de", "kannst du mir einen Tipp geben, Lena", "Lena, bitte ein Wort aus deiner"),
    ],
)
def test_the_player_named_first_or_last_is_asked_for_the_hint(lang, ask, answer) -> None:
    session = scoring_table(lang)
    said, _ = said_to(session, ask)
    assert said and said[0].startswith(answer)


CORPORA = Path(__file__).parent / "understanding"


def corpus_table(game: str, lang: str, situation: str, *more: str) -> Session:
    """A session in a situation of the understanding corpus of ``game`` and ``lang``."""
    doc = yaml.safe_load((CORPORA / f"{game}.{lang}.yaml").read_text(encoding="utf-8"))
    conf = doc["setup"]
    adapter = ADAPTERS[game]
    options = {**adapter.default_options(lang), **conf.get("options", {})}
    setup = Setup(tuple(conf["players"]), conf.get("seed", 0), conf.get("first"), options)
    session = Session(adapter, lang, setup, RecordingOutput())
    session.start()
    for line in [*doc["situations"][situation], *more]:
        session.hear(line)
    return session


def scoring_table(lang: str) -> Session:
    """Farben after ten rounds: Ben (Jonas) names the colours of a stack; Cem (Lena) was
    at the table."""
    return corpus_table("farben", lang, "scoring", "Summer" if lang == "en" else "Sommer")


def test_an_answer_inside_a_longer_sentence_chooses_the_side() -> None:
    for lang, line in (
        ("en", "okay I've got my word, it's the first one"),
        ("de", "okay, ich hab mein Wort, es ist das erste"),
    ):
        session = corpus_table("farben", lang, "side")
        before = len(session.actions)
        session.hear(line)
        assert session.actions[before:] and session.actions[-1].args.get("side") == 1


@pytest.mark.parametrize(
    ("lang", "first", "fix", "colour"),
    [
        ("en", "blue", "sorry, green", "green"),
        ("en", "blue", "oops, red", "red"),
        ("en", "blue", "no, green", "green"),
        ("de", "blau", "nein warte, lila", "lila"),
        ("de", "blau", "äh nee, grün", "grün"),
        ("de", "blau", "quatsch, rot", "rot"),
    ],
)
def test_a_self_correction_as_people_say_it_changes_the_move(lang, first, fix, colour):
    session = table("alle-meine-farben", lang, [first])
    moves = len(session.actions)
    said, _ = said_to(session, fix)  # right after the move: changed at once and said so
    assert session.awaiting is None and len(session.actions) == moves
    assert colour in said[0]
    ids = {"lila": "purple", "grün": "green", "rot": "red"}
    assert session.actions[-1].args["colour"] == ids.get(colour, colour)


@pytest.mark.parametrize(("lang", "refusal"), [("en", "no green"), ("de", "nein grün")])
def test_a_refusal_without_a_pause_stays_one(lang: str, refusal: str) -> None:
    """Without a typed pause "no green" is what it says, not a correction."""
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = list(session.actions)
    said_to(session, refusal)
    assert session.awaiting is None and session.actions == moves


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "ooh I know this"), ("en", "oh come on"), ("en", "uhhh"), ("de", "ähhh"),
     ("de", "oh, das kenne ich"), ("en", "wait"), ("de", "warte mal"),
     ("de", "Ich hätt's sofort gewusst."), ("en", "um, I totally knew that"),
     ("en", "It's so obvious."), ("en", "Spinning wheel? What?"),
     ("de", "Das ist doch total eindeutig."), ("de", "Spitzbart? Hä?"),
     # a remark about the game is no character's name, and a puzzled noise tries none
     ("en", "Ahh, now it makes sense."), ("en", "Good hint, to be fair."), ("en", "Huh?"),
     ("de", "Ahh, jetzt macht's Sinn."), ("de", "Guter Hinweis, muss man sagen."), ("de", "Hä?"),
     ("de", "Oh, Moment, Sekunde..."), ("de", "Warte warte warte, ich weiß es gleich..."),
     ("en", "Okay, spinning wheel, let me think about that for a sec.")],
)  # fmt: skip
def test_thinking_aloud_in_the_guess_window_costs_nothing(lang: str, line: str) -> None:
    session = guess_window(lang)
    moves = list(session.actions)
    said, kinds = said_to(session, line)
    assert session.actions == moves and not session.paused and said == []
    assert kinds == ["thinking_aloud"]


@pytest.mark.parametrize(
    ("lang", "line", "action"),
    [("en", "that's a penalty for Cem", "penalty"), ("en", "pass, sorry", "pass"),
     ("de", "das ist eine Strafe für Cem", "penalty"), ("en", "nope, pass", "pass"),
     ("de", "nö, passe", "pass")],
)  # fmt: skip
def test_a_pass_or_a_penalty_in_a_guess_window_is_what_it_says(lang, line, action) -> None:
    session = guess_window(lang)
    session.hear(line)
    assert session.actions[-1].name == action


def test_wait_pauses_the_game_outside_a_guess_window() -> None:
    session = table("pantone", "de", ["Karte 12"])
    session.hear("warte mal")
    assert session.paused


# --- the guard stays -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "word"),
    [("en", "Can I take School?", "School"), ("de", "Kann ich Urlaub nehmen?", "Urlaub"),
     ("de", "Darf ich bitte Schule nehmen?", "Schule")],
)  # fmt: skip
def test_asking_leave_for_a_choice_cheap_to_take_back_makes_it(lang, line, word) -> None:
    """Farben's side of the word card is chosen when its chooser asks whether they may
    take it: said back, "nein" takes it back; Alle meine Farben's "darf ich rot?" still
    asks which colours go (below)."""
    session = corpus_table("farben", lang, "side")
    before = len(session.actions)
    session.hear(line)
    assert session.actions[before:] and session.actions[-1].args.get("word") == word


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "can I play red?"), ("en", "Ben, play purple"), ("en", "um, red, okay?"),
     ("en", "give me the red card"), ("en", "no, not green"), ("de", "kann ich rot nehmen?"),
     ("de", "Ben, nimm lila"), ("de", "ähm, rot, oder?"), ("de", "gib mir mal die rote Karte")],
)  # fmt: skip
def test_a_frame_never_turns_a_question_advice_or_a_negation_into_a_move(lang, line) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = list(session.actions)
    said_to(session, line)
    assert session.actions == moves and session.awaiting is None


# --- silence for table talk, "not understood" for what is meant for the game ---------------
@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "pass me the juice"), ("en", "my dog ate the ball yesterday"), ("en", "hmm"),
     ("en", "did Cem play green"), ("en", "Ben, what would you take?"), ("en", "hand me the juice"),
     ("de", "reich mir mal den Saft"), ("de", "Mein Hund hat gestern den Ball gefressen"),
     ("de", "ich male den Hut nicht lila an"), ("de", "soll ich blau nehmen"), ("de", "ähm")],
)  # fmt: skip
def test_table_talk_gets_no_answer(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    said, kinds = said_to(session, line)
    assert said == [] and kinds == ["ignored"]


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "game master, blah"), ("en", "row hat"), ("en", ""), ("de", "Zed fängt an"),
     ("de", "Spielleiter, bla bla"), ("de", "🙂")],
)  # fmt: skip
def test_what_is_meant_for_the_game_is_answered_not_understood(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    said, kinds = said_to(session, line)
    assert kinds == ["not_understood"]
    assert said == [
        "Sorry, I didn't catch that. Say “help” to hear what you can say now."
        if lang == "en"
        else "Das habe ich nicht verstanden. Sag „Hilfe“, dann sage ich, was gerade geht."
    ]


# --- a remark beside the sentence ----------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "colour"),
    [("en", "purple, because of my jumper", "purple"), ("en", "green, obviously", "green"),
     ("en", "yellow because the sun is yellow", "yellow"),
     ("de", "lila, wegen dem Ranzen", "purple"), ("de", "grün weil die Wiese grün ist", "green"),
     ("de", "also gelb. Das passt halt", "yellow"),
     ("de", "gelb, so knallgelb wie Gummistiefel", "yellow"),
     ("de", "rot, so rot wie 'ne Tomate", "red"),
     ("en", "orange, because red is already in that row", "orange"),
     ("de", "orange, weil rot schon in der Reihe liegt", "orange")],
)  # fmt: skip
def test_a_move_with_a_remark_beside_it_is_the_move(lang: str, line: str, colour: str) -> None:
    """A reason or a remark after a pause, or opened by "because"/"wegen", that names
    nothing of the game: the move is made as if said alone."""
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = len(session.actions)
    said_to(session, line)
    assert len(session.actions) == moves + 1 or session.awaiting is not None
    made = session.actions[-1] if len(session.actions) > moves else None
    if made is not None:
        assert made.args.get("colour") == colour


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "purple, because Ben said so"), ("en", "purple, or not?"), ("en", "red, no, wait"),
     ("en", "purple, don't you think"), ("de", "lila, weil Ben das will"),
     ("de", "lila, oder nicht?"), ("de", "rot, wie bei Ben"), ("de", "grün, keine Ahnung"),
     ("de", "gelb, so wie du willst"), ("de", "rot, so rot wie was?")],
)  # fmt: skip
def test_a_remark_that_names_someone_asks_or_denies_keeps_it_no_move(lang, line) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = list(session.actions)
    said_to(session, line)
    assert session.actions == moves and session.awaiting is None


def test_a_remark_may_hold_a_word_card_that_is_not_on_the_table() -> None:
    """Farben's deck has hundreds of words ("beach"); only the two on the card count."""
    session = table("farben", "en", [], words=[["School", "Holiday"], ["Childhood", "Winter"]])
    session.hear("I'll take Holiday, because of the beach")
    assert session.actions[-1].args.get("word") == "Holiday"
    # the other word on the card, in a reason after the choice: still the choice ...
    session = table("farben", "en", [], words=[["School", "Holiday"], ["Childhood", "Winter"]])
    session.hear("Holiday, because School is boring")
    assert [a.args.get("word") for a in session.actions] == ["Holiday"]
    # ... but not while still weighing
    session = table("farben", "en", [], words=[["School", "Holiday"], ["Childhood", "Winter"]])
    session.hear("Holiday, because School or maybe not")
    assert session.actions == []


# --- a try taken back in the same breath ---------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "colour"),
    [("de", "Gelb, nein, warte, orange!", "orange"), ("de", "gelb nein warte orange", "orange"),
     ("de", "Rot, äh nee, lila", "purple"), ("en", "Yellow, no wait, orange!", "orange"),
     ("en", "red, no, orange", "orange"), ("en", "yellow, silly me, green", "green"),
     ("de", "rot, nicht blau", "red"), ("en", "red, not blue", "red"),
     # a family's own words: colours as adjectives, a comparison, "and done", progressive
     ("de", "Rot. Roter Hut.", "red"), ("de", "Hut orange, wie eine Apfelsine", "orange"),
     ("de", "Ich mach den Hut rot und fertig.", "red"),
     ("en", "hat orange like a carrot", "orange"), ("en", "I'm making the hat yellow.", "yellow"),
     ("en", "Right, we'll use the green card for the hat, please.", "green")],
)  # fmt: skip
def test_the_colour_left_standing_is_the_move(lang: str, line: str, colour: str) -> None:
    """A colour taken back before the game master answered does not count; "rot, nicht
    blau" says red again; a move in a family's own words is made (the hat is in play)."""
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = len(session.actions)
    session.hear(line)
    assert len(session.actions) == moves + 1
    assert session.actions[-1].args.get("colour") == colour


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "no red, no green"), ("de", "Ben, nicht rot, gelb"), ("de", "blau oder lieber grün?"),
     ("de", "rot? nein, blau"), ("en", "red or maybe, no, orange")],
)  # fmt: skip
def test_a_refusal_advice_or_question_is_no_taking_back(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = list(session.actions)
    session.hear(line)
    assert session.actions == moves and session.awaiting is None


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Ich hab kein Lila, ich muss passen."), ("en", "I can't do anything, I pass."),
     ("en", "I've only got red and orange, I pass.")],
)  # fmt: skip
def test_a_reason_before_a_pass_is_the_pass(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    session.hear(line)
    assert session.actions[-1].name == "pass"


# --- requests to the game master in the family's own words ---------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "rate_step"),
    [("de", "Könnten Sie bitte etwas langsamer sprechen? Ich komme da nicht ganz mit.", -1),
     ("de", "Langsamer bitte, ich komm nicht mit.", -1),
     ("de", "du kannst ruhig schneller reden", 1),
     ("en", "Slower please, I can't keep up.", -1),
     ("en", "could you talk a bit slower please?", -1),
     ("en", "speed it up", 1)],
)  # fmt: skip
def test_a_request_in_other_words_is_carried_out(lang: str, line: str, rate_step: int) -> None:
    """A request to the game master (slower, faster) said in words no template lists, with
    a remark beside it, is found by its key words: the voice changes speed."""
    session = table("alle-meine-farben", lang, [])
    before = session.rate
    session.hear(line)
    assert (session.rate > before) if rate_step > 0 else (session.rate < before)


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "ich brauche keine Hilfe"), ("de", "Pause. Nein, doch nicht."),
     ("en", "I don't need help"), ("en", "Granny, stop looking at my cards.")],
)  # fmt: skip
def test_a_request_denied_or_meant_for_someone_else_is_let_be(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, [])
    said, kinds = said_to(session, line)
    assert not session.paused and "help" not in kinds and "confirm" not in kinds, (said, kinds)


@pytest.mark.parametrize(
    ("lang", "line", "answer"),
    [("de", "Wo ist denn die Tasse auf dem Spielfeld, bitte?", "Die Tasse liegt in Reihe 3"),
     ("de", "Was hat der Ball für eine Farbe?", "Ball"),
     ("en", "Where's the cup on the board, please?", "The cup is in row 3")],
)  # fmt: skip
def test_a_question_about_the_board_in_other_words_is_answered(
    lang: str, line: str, answer: str
) -> None:
    """A blind player's question about one object, in words no template lists, gets the
    answer about that object; said to another player in common words, it gets none."""
    session = table("alle-meine-farben", lang, ["Anna", "blau" if lang == "de" else "blue"])
    said, kinds = said_to(session, line)
    assert said and answer in said[0], said
    assert "not_understood" not in kinds
    said, kinds = said_to(session, "Ben, was meinst du, was das ist?")
    assert said == [] and kinds == ["ignored"]


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Tigger. Nee, Garfield!"), ("de", "Tigger, äh, ich meine Garfield"),
     ("en", "Tigger, no wait, Garfield")],
)  # fmt: skip
def test_a_name_taken_back_in_the_same_breath_leaves_the_other_as_the_guess(
    lang: str, line: str
) -> None:
    session = guess_window(lang)
    said, _ = said_to(session, line)
    assert any("Garfield" in s for s in said) and not any("Tigger" in s for s in said), said


# --- a player said beside a question is not who it asks about ---------------------------
@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Who's after Ben?"), ("en", "Is it me or Ben?"), ("de", "Wer ist nach Ben dran?"),
     ("de", "Ist jetzt Ben dran oder ich?")],
)  # fmt: skip
def test_who_comes_next_beside_a_name_tells_whose_turn_it_is(lang: str, line: str) -> None:
    """Asked whose turn it is with another player named beside the question, the table
    says whose turn it is; it never answers as if asked "is it Ben's turn?"."""
    session = table("alle-meine-farben", lang, [])
    said, kinds = said_to(session, line)
    assert said and "not_understood" not in kinds
    assert "turn_no" not in kinds and "turn_yes" not in kinds
    assert any("Anna" in s for s in said)  # Anna starts: her turn is said


@pytest.mark.parametrize(
    ("lang", "line", "colour"),
    [("en", "Ben here: yellow", "yellow"), ("en", "yellow for the hat, says Ben", "yellow"),
     ("en", "okay, this is Ben, and yellow for the hat", "yellow"),
     ("de", "Ben hier: gelb", "yellow"), ("de", "Gelb für den Hut, sagt Ben", "yellow"),
     ("de", "also ich bin Ben und ich nehm gelb", "yellow")],
)  # fmt: skip
def test_a_player_who_says_who_speaks_makes_the_move(lang: str, line: str, colour: str) -> None:
    """Saying one's own name first ("Ben here", "ich bin Ben und …") or last ("…, says
    Ben") calls no one: the move is made, as a blind player at the table would say it."""
    session = table("alle-meine-farben", lang, ["Anna" if lang == "en" else "Anna"])
    session.hear("blue" if lang == "en" else "blau")  # Anna's ball; Ben's hat next
    moves = len(session.actions)
    said_to(session, line)
    assert len(session.actions) == moves + 1, session.out
    assert session.actions[-1].args.get("colour") == colour


@pytest.mark.parametrize(("lang", "line"), [("en", "Ben, yellow"), ("de", "Ben, gelb")])
def test_a_name_said_to_someone_beside_a_move_is_still_advice(lang: str, line: str) -> None:
    session = table("alle-meine-farben", lang, ["Anna"])
    session.hear("blue" if lang == "en" else "blau")
    moves = list(session.actions)
    said_to(session, line)
    assert session.actions == moves and session.awaiting is None


@pytest.mark.parametrize(
    ("lang", "line", "kind", "heard"),
    [("en", "I'll ask Cem for a hint instead", "hint_asked", "Cem, one word"),
     ("en", "For Cem I'll need a hint", "hint_asked", "Cem, one word"),
     ("en", "Whose colour do I still need to say?", "left_to_name", "Still face down"),
     ("de", "Ich brauch 'nen Hinweis von Lena.", "hint_asked", "Lena, bitte ein Wort"),
     ("de", "Dann frag ich halt Lena nach einem Tipp.", "hint_asked", "Lena, bitte ein Wort"),
     ("de", "Wer hat seine Farbe noch nicht gezeigt?", "left_to_name", "Noch verdeckt")],
)  # fmt: skip
def test_farben_hints_and_who_is_left_asked_as_people_ask(lang, line, kind, heard) -> None:
    """While naming colours: a hint asked from someone in a sentence of one's own, and
    who is still face down, asked about oneself ("whose colour do I still need to say")."""
    session = corpus_table("farben", lang, "naming")
    said, kinds = said_to(session, line)
    assert kinds == [kind] and any(line.startswith(heard) for line in said), said


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Cem blurted out Maleficent while it's Ben's turn! Penalty, Cem."),
     ("en", "She talked! That's a point off for Cem"),
     ("de", "Cem hat Gargamel reingerufen, obwohl Ben dran ist! Minuspunkt für Cem."),
     ("de", "Cem hat auf Annas Karte geguckt, das gibt Punktabzug für Cem!"),
     ("en", "Cem just shouted it out and it's not his go! Point off for Cem."),
     ("en", "Cem, you're not allowed to talk! That's a penalty, Cem.")],
)  # fmt: skip
def test_a_penalty_beside_its_accusation_is_the_penalty_not_a_guess(lang, line) -> None:
    """The accusation may name characters and players: the penalty is given to Cem, and
    the name blurted out is no guess of the guesser's."""
    session = guess_window(lang)
    moves = len(session.actions)
    session.hear(line)
    assert [(a.name, a.args.get("player")) for a in session.actions[moves:]] == [("penalty", "Cem")]


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "No penalty for Cem."), ("en", "Cem shouted! No penalty for Cem, though."),
     ("en", "Penalty for Cem? He didn't say anything."), ("de", "Kein Strafpunkt für Cem."),
     ("de", "Cem hat gerufen, aber keine Strafe für Cem.")],
)  # fmt: skip
def test_a_penalty_denied_or_asked_about_is_given_to_no_one(lang: str, line: str) -> None:
    session = guess_window(lang)
    moves = len(session.actions)
    session.hear(line)
    assert not [a for a in session.actions[moves:] if a.name == "penalty"]


def _understood(session: Session, text: str) -> tuple[str, dict[str, Any]] | None:
    phase = session.phase()
    found = session.parser.parse(text, phase.intents, phase.slots, last=phase.last)
    return None if found is None else (found.name, dict(found.slots))


@pytest.mark.parametrize(
    ("lang", "line", "meant"),
    [("de", "Ah, jetzt! Lena, du hattest schwarz.", {"player": "Lena", "colour": "black"}),
     ("de", "Jetzt Lena: die hatte grün.", {"player": "Lena", "colour": "green"}),
     ("de", "Ach so, klar, dann hatte Lena schwarz.", {"player": "Lena", "colour": "black"}),
     ("de", "Okay, und Lenas Farbe war rosa, so ein Babyrosa.",
      {"player": "Lena", "colour": "pink"}),
     ("de", "Und ich? Ich hatte bunt.", {"self": True, "colour": "multicoloured"}),
     ("en", "Ah, got it! Anna, you had pink.", {"player": "Anna", "colour": "pink"}),
     ("en", "Now Anna: she had brown.", {"player": "Anna", "colour": "brown"})],
)  # fmt: skip
def test_farben_a_colour_named_after_the_player_spoken_to_or_of(lang, line, meant) -> None:
    """While naming colours the namer turns to a player ("Lena, du hattest schwarz") or
    names them first and goes on with a pronoun: that player had that colour."""
    session = corpus_table("farben", lang, "naming")
    assert _understood(session, line) == ("name_colour", meant)


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Lena, du solltest schwarz nehmen."), ("de", "Und ich ich hatte Glück."),
     ("de", "Und ich? Ich hatte bunt, weil Musik ja irgendwie alles ist.")],
)  # fmt: skip
def test_farben_advice_and_pronouns_are_no_colour_named_for_a_stranger(lang, line) -> None:
    """Advice to a player is no colour named; nobody at the table is called "und ich"."""
    session = corpus_table("farben", lang, "naming")
    found = _understood(session, line)
    assert found is None or (found[0] != "unknown_player" and "player" not in found[1]), found


@pytest.mark.parametrize(
    ("lang", "line", "colour"),
    [("en", "Red like a fire engine!", "red"), ("en", "Yellow like a canary.", "yellow"),
     ("de", "Rot wie ein Feuerwehrauto!", "red"), ("de", "Gelb wie ein Kanarienvogel.", "yellow")],
)  # fmt: skip
def test_alle_meine_farben_a_colour_with_a_likeness_colours_the_square_in_play(
    lang, line, colour
) -> None:
    """The square in play is known: its colour said with what it looks like is the move."""
    session = corpus_table("alle-meine-farben", lang, "car" if lang == "en" else "auto")
    assert _understood(session, line) == ("place", {"colour": colour})


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Rot, rot, rot sind alle meine Kleider..."),
     ("de", "Grün, grün, grün sind alle meine Kleider"),
     ("en", "Red, red, red are all my clothes")],
)  # fmt: skip
def test_alle_meine_farben_the_song_sung_at_the_table_colours_nothing(lang, line) -> None:
    session = corpus_table("alle-meine-farben", lang, "car" if lang == "en" else "auto")
    assert _understood(session, line) is None


def test_alle_meine_farben_the_move_after_the_song_is_made() -> None:
    session = corpus_table("alle-meine-farben", "de", "schuh")
    line = "Blau, blau, blau sind alle meine Kleider … äh, der Schuh wird blau."
    assert _understood(session, line) == ("place", {"object": 10, "colour": "blue"})


def test_farben_rot_wie_die_liebe_as_a_hint_stays_a_hint() -> None:
    """A one-word hint with a likeness names no colour: nobody's colour is in play."""
    session = corpus_table("farben", "de", "hint_asked")
    assert _understood(session, "rot wie die Liebe") is None


@pytest.mark.parametrize(
    ("lang", "situation", "line", "meant"),
    [("de", "side", "ich nehm das zweite, ne?", ("choose_side", {"side": 2})),
     ("en", "side", "I'll take the second one, right?", ("choose_side", {"side": 2}))],
)  # fmt: skip
def test_farben_a_move_with_a_tag_question_after_it_is_made(lang, situation, line, meant) -> None:
    session = corpus_table("farben", lang, situation)
    assert _understood(session, line) == meant


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Cem had green or blue?"), ("en", "Cem played green, right?"),
     ("de", "Mia hatte weiß, oder?")],
)  # fmt: skip
def test_farben_a_colour_named_for_someone_as_a_question_is_still_asked(lang, line) -> None:
    """Naming asks nothing: "Mia hatte weiß, oder?" wants to know, and is no move."""
    session = corpus_table("farben", lang, "naming")
    assert _understood(session, line) is None


# --- undo with the reason beside it --------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Mach rückgängig bitte, der Ball war falsch."),
     ("de", "Ach Mist, der Ball war falsch, nimm das wieder zurück."),
     ("de", "Mach mal rückgängig, den Ball will ich nochmal neu."),
     ("en", "Wait, undo! I messed up, I didn't want blue on the ball."),
     ("en", "Take that back please, the ball was wrong.")],
)  # fmt: skip
def test_undo_said_with_why_names_the_move_and_is_asked_back(lang: str, line: str) -> None:
    """Taking a move back, people say why, naming what they take back: it is asked back
    ("Shall I take this back: Anna colours the ball blue?") and nothing moves yet."""
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    moves = list(session.actions)
    said, _ = said_to(session, line)
    assert session.actions == moves
    assert said and said[-1].startswith(
        "Shall I take this back:" if lang == "en" else "Soll ich das zurücknehmen:"
    ), said


@pytest.mark.parametrize(
    ("lang", "line"),
    [("de", "Nicht rückgängig machen, der Ball ist richtig."),
     ("de", "Rückgängig? War der Ball denn falsch?"),
     ("en", "Don't undo it, the ball is fine."), ("en", "Undo? Was the ball wrong?")],
)  # fmt: skip
def test_undo_denied_or_asked_about_with_a_reason_takes_nothing_back(lang, line) -> None:
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau"])
    said, _ = said_to(session, line)
    assert not any(s.startswith(("Shall I take", "Soll ich das zurück")) for s in said), said


# --- "do I ..., or does Anna?" -------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "asks"),
    [("de", "Muss ich jetzt aussuchen oder die Cem?", True),
     ("de", "Moment, such ich aus oder Ben?", True),
     ("en", "Wait, do I pick, or does Ben?", True),
     ("en", "Hang on, am I choosing or is Cem?", True),
     ("de", "ich nehm blau oder Ben?", False), ("en", "I pick blue or Cem?", False),
     ("en", "I think Ben or Cem", False)],
)  # fmt: skip
def test_me_or_them_asks_whose_turn_it_is(lang: str, line: str, asks: bool) -> None:
    """Asking whether oneself or another player does what comes next is asking whose turn
    it is: the answer names who, and nothing moves; a colour in it makes it something
    else."""
    session = table("alle-meine-farben", lang, [])
    moves = list(session.actions)
    said, kinds = said_to(session, line)
    assert session.actions == moves
    told = any(s.startswith(("Anna", "It's Anna", "Anna ist")) for s in said)
    assert told == asks, said


# --- "yes, take it back": the request said again answers yes ---------------------------------
@pytest.mark.parametrize(
    ("lang", "first", "answer", "undone"),
    [("en", "undo", "yes, take it back", True), ("en", "undo", "yeah, undo it", True),
     ("de", "rückgängig", "ja, nimm das zurück", True),
     ("de", "rückgängig", "ja, mach rückgängig", True),
     ("en", "undo", "no, don't take it back", False),
     ("de", "rückgängig", "nein, nicht zurücknehmen", False)],
)  # fmt: skip
def test_the_undo_asked_back_is_answered_in_its_own_words(lang, first, answer, undone) -> None:
    """ "Shall I take this back?" "Yes, take it back.": a yes, not "please answer yes or
    no" (one more sentence for the table)."""
    session = table("alle-meine-farben", lang, ["blue" if lang == "en" else "blau", first])
    said, _ = said_to(session, answer)
    assert len(session.actions) == (0 if undone else 1)
    assert not any("yes or no" in s or "ja oder nein" in s for s in said), said


@pytest.mark.parametrize(
    ("lang", "line", "intent"),
    [("en", "So yeah, that's it. Done.", "done"), ("de", "Ja, fertig.", "done"),
     ("en", "Okay.", "affirm")],
)  # fmt: skip
def test_a_yes_that_only_opens_a_sentence_is_that_sentence(lang, line, intent) -> None:
    session = table("farben", lang, [])
    found = session.parser.parse(line, {"affirm", "deny", "done", "help"}, {})
    assert found is not None and found.name == intent, found


# --- a player named with what they wear ----------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "first"),
    [("en", "It's gotta be Cem with his stripy rainbow socks.", "Cem"),
     ("en", "Ben with those trainers, obviously", "Ben"),
     ("de", "Ganz klar der Cem mit seinen grünen Socken.", "Cem"),
     ("de", "Na, das ist doch eindeutig Ben mit seinen Regenbogensocken.", "Ben"),
     ("en", "I'm done with these crisps, anyone want the rest?", None)],
)  # fmt: skip
def test_the_first_player_is_named_with_what_they_wear(lang, line, first) -> None:
    """Farben starts with the most colourfully dressed player, named with the clothes:
    the clothes are a remark beside the name; "done with these crisps" describes no one."""
    adapter = ADAPTERS["farben"]
    setup = Setup(PLAYERS, 3, None, adapter.default_options(lang))
    session = Session(adapter, lang, setup, RecordingOutput())
    session.start()
    moves = list(session.actions)
    said_to(session, line)
    if first is None:
        assert session.actions == moves
    else:
        assert session.actions[-1].args.get("player") == first, session.actions


# --- dialect and quick speech ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "colour"),
    [("Des Ball mach i gelb.", "yellow"), ("Mach ma des Ball rot.", "red"),
     ("Dat Ball mach ich grün.", "green"), ("Isch tät sagen rosa.", "pink")],
)  # fmt: skip
def test_a_move_in_dialect_is_the_move(line: str, colour: str) -> None:
    """ "Des Auto mach i gelb": words of a dialect or of quick speech are read as the
    standard words they stand for, one for one."""
    session = table("alle-meine-farben", "de", [])
    said_to(session, line)
    assert session.actions and session.actions[-1].args.get("colour") == colour, session.actions


# --- the square named by its place -----------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "First row, first spot, blue."), ("en", "Number one in blue, please."),
     ("en", "One's gonna be blue."), ("de", "Erste Reihe, erstes Feld: blau."),
     ("de", "Reihe eins, Feld eins, blau")],
)  # fmt: skip
def test_the_square_in_play_named_by_its_place_or_number_takes_the_colour(lang, line) -> None:
    """A blind player hears squares by row and column and names them so, in their own
    words ("spot", "Feld", "number one"): the move is made on that square."""
    session = table("alle-meine-farben", lang, [])
    said_to(session, line)
    assert [(a.args.get("object"), a.args.get("colour")) for a in session.actions] == [(1, "blue")]


@pytest.mark.parametrize(
    ("lang", "line", "intent"),
    [("en", "Ready ready ready!", "ready"), ("de", "Fertig fertig fertig!", "done"),
     ("en", "Hospital Hospital", "choose_stack")],
)  # fmt: skip
def test_a_word_said_over_and_over_is_said_once(lang: str, line: str, intent: str) -> None:
    session = table("farben", lang, [])
    found = session.parser.parse(line, {intent, "help"}, {})
    assert found is not None and found.name == intent, found


@pytest.mark.parametrize(
    ("lang", "line", "repeats"),
    [("de", "Sag's nochmal, ich hab's nicht gehört, der Ben war zu laut.", True),
     ("en", "Say that again please, Cem was talking over you.", True),
     ("de", "Nochmal bitte. Blau für den Ball.", False)],
)  # fmt: skip
def test_a_request_beside_a_remark_about_a_player_is_the_request(lang, line, repeats) -> None:
    """ "Nochmal, der Ben war zu laut": a player named beside a request that moves nothing
    hides nothing; a colour beside it is a move of its own and stays unsure."""
    session = table("alle-meine-farben", lang, [])
    found = session.parser.parse(line, {"repeat", "place", "help"}, {"object": [1]})
    assert (found is not None and found.name == "repeat") == repeats, found
