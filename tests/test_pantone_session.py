"""Pantone at the table: what is said aloud, what only the Artist hears, deck files,
saving and resuming, the recogniser's phrase lists."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli, run_process, write_script

from games.engine import Setup
from voice.input.clock import VirtualClock
from voice.output.sinks import JsonOutput
from voice.output.sinks import RecordingOutput as Recorder
from voice.session.adapters import ADAPTERS
from voice.session.loops import run_script
from voice.session.session import Session

ADAPTER = ADAPTERS["pantone"]


def play(lines: list[str], lang: str = "en", players=("Anna", "Ben", "Cem"), **options: Any):
    """Play a script; returns (public JSON records, private recorder)."""
    opts = {**ADAPTER.default_options(lang), **options}
    stream = io.StringIO()
    private = Recorder()
    session = Session(
        ADAPTER, lang, Setup(tuple(players), 5, None, opts), JsonOutput(stream), private=private
    )
    session.start()
    run_script(session, lines, VirtualClock())
    public = [json.loads(line) for line in stream.getvalue().splitlines()]
    return public, private


SNOOPING = [
    "repeat",
    "help",
    "whose turn is it",
    "what were the hints",
    "which phase is it",
    "score",
    "how much time is left",
]


@pytest.mark.parametrize("cards", ["number", "deal"])
def test_the_character_is_never_said_aloud_before_it_is_guessed(cards: str) -> None:
    lines = ["Anna"]
    if cards == "deal":
        lines += SNOOPING + ["my cards"]
    lines += ["card 95" if cards == "number" else "@+0"]
    public, private = play(["Anna"], cards=cards)  # to learn the dealt hand
    if cards == "deal":
        hand = next(r for r in private.records if r["type"] == "hand")["cards"]
        lines += ["discard my first card", "my second card"]  # by place in the hand
    lines += SNOOPING + ["my cards", "done"] + SNOOPING + ["@+5", "@+5"] + SNOOPING
    public, private = play(lines, cards=cards)
    secrets = [r for r in private.records if r["type"] == "your_character"]
    assert secrets and all(r["to"] == "Anna" for r in private.records)
    name = secrets[0]["name"]
    hand_names = [c["name"] for r in private.records if r["type"] == "hand" for c in r["cards"]]
    text = json.dumps(public, ensure_ascii=False).lower()  # "the Grinch" inside sentences
    assert name.lower() not in text
    for other in hand_names:
        assert other.lower() not in text
    assert {"type": "private", "to": "Anna", "about": "your_character"} in public
    assert any(name.lower() in said.lower() for said in private.said)
    if cards == "deal":  # the table heard that a card was chosen, never its deck number
        assert secrets[0]["card"] == hand[2]["card"]
        for number in (c["card"] for c in hand):
            assert f"card {number}" not in text and f'"card": {number}' not in text
        assert "anna has put a card aside." in text and "anna has chosen a card." in text


def test_the_name_is_said_once_guessed_and_nobody_else_gets_private_lines() -> None:
    public, private = play(["Anna", "card 1", "done", "potato head"])
    said = [r["text"] for r in public if r["type"] == "say"]
    assert "Yes! Ben got it: Mr. Potato Head. 5 points each for Ben and Anna." in said
    assert private.said == ["Anna, your character is Mr. Potato Head, card 1."]


def test_time_left_is_spoken_from_the_running_clock() -> None:
    public, _ = play(["Anna", "card 1", "@+12", "how much time is left", "@+25", "time left"])
    said = [r["text"] for r in public if r["type"] == "say"]
    assert "Anna has 48 seconds left to paint." in said
    assert "Anna has 23 seconds left to paint." in said
    public, _ = play(["Anna", "card 1", "done", "@+2", "how much time is left"])
    assert "Ben has 3 seconds left to guess." in [r["text"] for r in public if r["type"] == "say"]


def test_a_one_word_off_guess_is_confirmed_first() -> None:
    public, _ = play(["Anna", "card 13", "done", "little red riding cap", "no", "pass"])
    said = [r["text"] for r in public if r["type"] == "say"]
    assert "Ben guesses Little Red Riding Hood, right?" in said
    assert "Ben passes." in said  # the denied guess did not count; the window stayed open


def test_the_artists_yes_and_no_judge_a_guess_with_own_cards() -> None:
    public, _ = play(["Anna", "ready", "done", "is it pinocchio", "no"], cards="physical")
    assert {"type": "judged_wrong", "player": "Ben"} in public
    public, _ = play(["Anna", "bereit", "fertig", "richtig"], lang="de", cards="physical")
    assert any(r["type"] == "guessed" and r["player"] == "Ben" for r in public)


# --- the recogniser's phrase lists ----------------------------------------------------------
def _session(lang: str = "en", **options: Any) -> Session:
    opts = {**ADAPTER.default_options(lang), **options}
    session = Session(ADAPTER, lang, Setup(("Anna", "Ben", "Cem"), 5, "Anna", opts), Recorder())
    session.start()
    return session


def test_guess_phrases_come_from_the_deck_and_are_never_narrowed_to_the_card() -> None:
    session = _session()
    session.hear("card 1")
    session.hear("done")
    phrases = set(session.phrases())
    for name in ("mister potato head", "is it mr potato head", "spiderman", "the grinch"):
        assert name in phrases
    assert "pass" in phrases and "repeat" in phrases
    # Every name and alias of the deck can be recognised.
    deck = ADAPTER.default_options("en")["deck"]
    spoken = {p for p in phrases}
    assert all(any(f"{w}" in spoken for w in _plain_forms(card)) for card in deck)


def _plain_forms(card: dict[str, Any]) -> list[str]:
    from words.text import normalize

    forms = [card["name"], *card["aliases"]]
    return [normalize(f) for f in forms if not any(c.isdigit() for c in f)]


def test_choosing_from_dealt_cards_narrows_the_numbers_to_the_hand() -> None:
    session = _session(cards="deal")
    hand = session.game.hands["Anna"]
    phrases = session.phrases()
    numbers = {
        p.removeprefix("discard card ").removeprefix("number ")
        for p in phrases
        if p.startswith("discard card ")
    }
    # beyond the deck's last card, numbers are heard only to be refused ("there are only
    # 152 cards"); within the deck only the hand's numbers are heard
    deck = len(session.game.deck)
    beyond = {w for n in range(deck + 1, 400) for w in [str(n), *_words([n])]}
    assert numbers and numbers - beyond <= {str(n) for n in hand} | _words(hand)


def _words(numbers: list[int]) -> set[str]:
    from voice.session.adapters.pantone import number_forms

    return {w for n in numbers for w in number_forms(n, "en")}


def test_every_phrase_of_a_guess_window_is_understood_as_what_it_says() -> None:
    session = _session()
    session.hear("card 1")
    session.hear("done")
    phase = session.phase()
    pairs = session.grammar.phrases(phase.intents, phase.slots)
    assert len(pairs) > 1000
    for phrase, intent in pairs[:: max(1, len(pairs) // 400)]:
        parsed = session.parser.parse(phrase, phase.intents, phase.slots)
        assert parsed is not None and parsed.name == intent, phrase


# --- deck files ------------------------------------------------------------------------------
GOOD_DECK = """\
- name: Grandma Duck
  aliases: [Grandma]
  hints: [Farm, Glasses, Old car, Bakes pies]
- name: Sir Lancelot
  hints: [Armour, Round table, Knight, Guinevere]
- name: The Moon
  aliases: []
  hints: [Night, Round, Tides, Astronauts]
"""

BROKEN_DECK = """\
- name: Grandma Duck
  aliases: Grandma
  hints: [Farm, Glasses, Old car]
- hints: [a, b, c, d]
- name: Grandma Duck
  hints: [Farm, Glasses, Old car, yes]
- name: R2-D2
  hint: [x]
  hints: [Beeps, Robot, Blue, Droid]
- just a string
"""


def test_a_broken_deck_names_every_problem_by_entry_and_field(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(BROKEN_DECK, encoding="utf-8")
    run = run_process(
        "play", "pantone", "--players", "Anna,Ben", "--deck", str(deck), "--script", "/dev/null"
    )
    assert run.code == 2
    assert "Traceback" not in run.err
    for expected in [
        "entry 1 (Grandma Duck), aliases: must be a list",
        "entry 1 (Grandma Duck), hints: needs exactly 4 hints, found 3",
        "entry 2, name: missing",
        "entry 3 (Grandma Duck), hints[4]: must be text, but YAML read a yes/no value True",
        "entry 4 (R2-D2), hint: unknown field",
        "entry 4 (R2-D2), name: “R2-D2” has digits",
        "entry 5: must be a card",
    ]:
        assert expected in run.err, run.err
    assert run.out == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("- name: [unclosed\n", "is not valid YAML at line"),
        ("name: Batman\n", "a deck must be a list of cards"),
        ("", "a deck must be a list of cards"),
        (
            "- name: A\n  hints: [a, b, c, d]\n- name: a\n  hints: [a, b, c, d]\n",
            "already a name of entry 1",
        ),
    ],
)
def test_deck_file_errors_are_clear(tmp_path: Path, content: str, message: str) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(content, encoding="utf-8")
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben", "--deck", str(deck), "--script", "/dev/null"
    )
    assert run.code == 2 and message in run.err, run.err


def test_missing_or_unreadable_deck_files(tmp_path: Path) -> None:
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--deck", str(tmp_path / "nope.yaml"))
    assert run.code == 2 and "there is no file" in run.err
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--deck", str(tmp_path))
    assert run.code == 2 and "is a folder" in run.err
    binary = tmp_path / "deck.yaml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--deck", str(binary))
    assert run.code == 2 and "not UTF-8" in run.err


def test_a_small_deck_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(GOOD_DECK, encoding="utf-8")
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--deck", str(deck))
    assert run.code == 2 and "has 3 cards, but 2 players need at least 6" in run.err


def test_own_deck_plays_and_resumes_even_after_the_file_changed(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(GOOD_DECK, encoding="utf-8")
    save = tmp_path / "game.jsonl"
    script = write_script(tmp_path / "a.script", ["card 2", "done", "sir lancelot"])
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben", "--first", "Anna", "--target", "30",
        "--deck", str(deck), "--save", str(save), "--script", str(script), "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "Yes! Ben got it: Sir Lancelot. 5 points for Ben." in run.said
    deck.write_text("this file is now something else entirely", encoding="utf-8")
    script = write_script(tmp_path / "b.script", ["card 1", "done", "is it grandma"])
    run = run_cli("resume", str(save), "--script", str(script), "--json")
    assert run.code == 0, run.err
    assert "Yes! Anna got it: Grandma Duck. 5 points for Anna." in run.said


def test_private_lines_go_to_the_private_file_only(tmp_path: Path) -> None:
    private = tmp_path / "private.txt"
    script = write_script(tmp_path / "a.script", ["Anna", "card 1"])
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben", "--seed", "1", "--private", str(private),
        "--script", str(script),
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "Potato" not in run.out and "Potato" not in run.err
    assert private.read_text(encoding="utf-8") == (
        "Anna, your character is Mr. Potato Head, card 1.\n"
    )
    nowhere = str(tmp_path / "no" / "x")
    run = run_cli("play", "pantone", "--players", "Anna,Ben", "--private", nowhere)
    assert run.code == 1 and "--private: cannot write" in run.err


def test_the_card_list_prints_numbered_cards(tmp_path: Path) -> None:
    run = run_cli("cards", "pantone", "--lang", "de")
    assert run.code == 0
    assert run.out.startswith("Pantone: Figurenkarten (Deutsch), 165 Karten\n")
    assert "  1  Das Sandmännchen\n" in run.out
    assert "Hinweise: 1. Spitzbart  2. Jeden Abend im Fernsehen" in run.out
    deck = tmp_path / "deck.yaml"
    deck.write_text(GOOD_DECK, encoding="utf-8")
    run = run_cli("cards", "pantone", "--deck", str(deck))
    assert run.out.splitlines()[3:6] == [
        "1  Grandma Duck",
        "   also: Grandma",
        "   hints: 1. Farm  2. Glasses  3. Old car  4. Bakes pies",
    ]
    run = run_cli("cards", "alle-meine-farben")  # a German game: said in German
    assert run.code == 2 and "hat keine eigenen Karten zum Ausdrucken" in run.err
    run = run_cli("cards", "alle-meine-farben", "--lang", "en")
    assert run.code == 2 and "no cards of its own" in run.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--cards", "telepathy"], "there is no --cards “telepathy”"),
        (["--minimalist", "--abstract"], "contradict"),
        (["--target", "0"], "--target must be between"),
        (["--teams"], "--teams needs at least 4 players"),
    ],
)
def test_odd_options_are_refused_clearly(argv: list[str], message: str) -> None:
    run = run_cli("play", "pantone", "--players", "Anna,Ben,Cem", *argv)
    assert run.code == 2 and message in run.err, run.err


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ("Anna,Ben,Cem,Dan/Eve", "each team needs at least two"),
        ("Anna,Ben/Cem,Zoe", "“Zoe” is not one of the players"),
        ("Anna,Ben,Cem/Dan,Eve,Anna", "must be in exactly one team"),
        ("Anna,Ben", 'like "Anna,Cem/Ben,Dan"'),
    ],
)
def test_bad_teams_on_the_command_line(teams: str, message: str) -> None:
    run = run_cli("play", "pantone", "--players", "Anna,Ben,Cem,Dan,Eve", "--teams", teams)
    assert run.code == 2 and message in run.err, run.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--teams", "Anna,Ben,Cem,Dan/Eve"],
            "--teams: jedes Team braucht mindestens zwei Personen",
        ),
        (["--target", "0"], "--target muss zwischen 1 und 1000 Punkten liegen"),
        (["--minimalist", "--abstract"], "widersprechen sich"),
    ],
)
def test_the_engines_setup_rules_speak_german_in_a_german_game(argv, message) -> None:
    """Team sizes, the target and the painting modes are checked by the engine alone; its
    reasons reach the command line in the game's language."""
    run = run_cli("play", "pantone", "--lang", "de", "--players", "Anna,Ben,Cem,Dan,Eve", *argv)
    assert run.code == 2 and message in run.err, run.err
    assert "Traceback" not in run.err


def test_parse_command_knows_the_deck_names() -> None:
    run = run_cli("parse", "pantone", "--lang", "de", "ist es der grüffelo")
    assert json.loads(run.out) == {"intent": "guess", "slots": {"character": "Der Grüffelo"}}
    # Batgirl is no card, but a well-known character: a guess of her (a wrong one), never
    # of Batman; a name nobody knows is no guess outside a guess window.
    run = run_cli("parse", "pantone", "batgirl")
    assert json.loads(run.out) == {"intent": "guess", "slots": {"character": "Batgirl"}}
    run = run_cli("parse", "pantone", "spider woman")
    assert json.loads(run.out).get("slots", {}).get("character") != "Spider-Man"
    run = run_cli("parse", "pantone", "zorgblat the tenth")
    assert json.loads(run.out) == {"intent": None}


# --- every message exists in both languages ------------------------------------------------
SILENT = {"ready"}  # announced by the event that follows


@pytest.mark.parametrize("lang", ["de", "en"])
def test_everything_the_engine_says_has_words_in_both_languages(lang: str) -> None:
    import random

    from games.engine import Action, GameError
    from games.pantone import Pantone
    from voice.output.messages import Messages

    messages = Messages(lang, "pantone", ADAPTER.terms(lang))
    seen: set[str] = set()

    def say(event_type: str, data: Any) -> None:
        text = messages.render(event_type, data)
        assert text or event_type in SILENT, event_type
        seen.add(event_type)

    modes: list[dict[str, Any]] = [
        {},
        {"cards": "deal", "speed": True},
        {"cards": "physical", "target": 8},
        {"minimalist": True},
        {"abstract": True, "target": 30},
        {"teams": [["Anna", "Cem"], ["Ben", "Dan"]]},
        {"teams": [["Anna", "Cem"], ["Ben", "Dan"]], "cards": "physical"},
    ]
    junk = [
        Action("guess", {"text": "pinocchio"}),
        Action("pass"),
        Action("done"),
        Action("ready"),
        Action("correct"),
        Action("wrong"),
        Action("choose", {"card": 1}),
        Action("choose", {"card": 999}),
        Action("discard", {"card": 1}),
        Action("penalty", {"player": "Anna", "right": True}),
    ]
    for mode in modes:
        for seed in range(3):
            rng = random.Random(seed)
            players = ("Anna", "Ben", "Cem", "Dan")[: 4 if "teams" in mode else 2 + seed % 2]
            options = {**ADAPTER.default_options(lang), **mode}
            game = Pantone(Setup(players, seed, None, options))
            for event in game.start():
                say(event.type, event.data)
            while not game.is_over():
                for name in ("hints", "phase_info", "my_cards", "time_left"):
                    args = {"timers_left": {t.id: 3.0 for t in game.timers()}}
                    try:
                        events = game.query(name, args)
                    except GameError as refusal:
                        say(refusal.key, refusal.params)
                        continue
                    for event in events:
                        say(event.type, event.data)
                for event in game.status() + game.prompt():
                    say(event.type, event.data)
                try:
                    for event in game.apply(rng.choice(junk)):  # some are fine moves
                        say(event.type, event.data)
                except GameError as refusal:
                    say(refusal.key, refusal.params)
                if game.is_over():
                    break
                legal = game.legal_actions()
                moves = [a for a in legal if a.name != "penalty"] or legal
                action = rng.choice(moves if rng.random() < 0.9 else legal)
                if action.name != "timer":  # undo and confirmations never name timers
                    say(game.describe(action).type, game.describe(action).data)
                for event in game.apply(action):
                    say(event.type, event.data)
    expected = {
        "welcome", "card_rules", "modes", "team", "ask_first", "first", "phase", "artist",
        "dealt", "hand", "ask_discard", "discarded", "chosen", "your_character",
        "create_start", "time_left", "times_up", "done_early", "guessing_starts",
        "guess_turn", "wrong_guess", "passed", "no_guess", "ask_verdict", "judged_wrong",
        "hint", "read_hint", "guessed", "nobody_guessed", "penalty", "blurted_right",
        "target_reached", "phase_over", "game_over", "hints_so_far", "clock", "phase_info",
        "told_privately", "status", "painting",
    }  # fmt: skip
    assert expected <= seen, expected - seen


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_pantone_intent_has_golden_sentences(lang: str) -> None:
    import yaml

    templates = Path(__file__).parent.parent / "grammars" / lang / "pantone.yaml"
    own = set(yaml.safe_load(templates.read_text("utf-8"))["intents"])
    path = Path(__file__).parent / "grammars" / lang / "pantone.yaml"
    tested = {block["intent"] for block in yaml.safe_load(path.read_text("utf-8"))["tests"]}
    assert own and own <= tested, own - tested


def test_help_in_a_guess_window_names_the_guesser_for_the_artist() -> None:
    public, _ = play(["Anna", "ready", "done", "more help"], cards="physical")
    help_text = [r["text"] for r in public if r["type"] == "say"][-1]
    assert "for the Artist: “correct”, or “Ben got it”" in help_text


def test_resume_tells_the_artist_their_dealt_cards_again_privately(tmp_path: Path) -> None:
    # (the private lines used to go to stderr, the shared terminal; now to a private
    # channel only: here a file standing for the Artist's own second terminal)
    save, screen = tmp_path / "game.jsonl", tmp_path / "second-terminal.txt"
    first = write_script(tmp_path / "a.script", ["Anna"])
    run = run_cli(
        "play", "pantone", "--players", "Anna,Ben", "--seed", "4", "--cards", "deal",
        "--save", str(save), "--script", str(first), "--json", "--private", str(screen),
    )  # fmt: skip
    told = screen.read_text(encoding="utf-8").splitlines()
    hand = [line for line in told if "your cards" in line]
    assert run.code == 0 and len(hand) == 1 and "your cards" not in run.err + run.out
    run = run_cli("resume", str(save), "--script", "/dev/null", "--json", "--private", str(screen))
    assert run.code == 0, run.err
    assert screen.read_text(encoding="utf-8").splitlines() == hand * 2  # the same four cards
    assert "Anna, put one of your 4 cards aside" in " ".join(run.said)
    assert {"type": "private", "to": "Anna", "about": "hand"} in run.events


def test_in_real_time_the_next_guess_window_starts_after_the_announcement():
    """Saying "no guess from Ben, Cem's turn" takes time; Cem's five seconds start after."""
    from games.engine import Setup
    from voice.session.adapters import adapter_for
    from voice.session.session import Session

    now = [0.0]

    class SpeakingTakesTime:
        def say(self, text: str) -> None:
            now[0] += 2.0  # each spoken line takes two seconds of real time

        def record(self, record: dict) -> None:
            pass

        def set_rate(self, wpm: int) -> None:
            pass

        def close(self) -> None:
            pass

    adapter = adapter_for("pantone")
    setup = Setup(("Anna", "Ben", "Cem"), 3, "Anna", adapter.default_options("en"))
    session = Session(adapter, "en", setup, SpeakingTakesTime())
    session.clock = lambda: now[0]
    session.start()
    for line in ("card 1", "done"):
        session.hear(line)
        session.tick(now[0])
    assert session.game.current_player() == "Ben"
    wait = session.seconds_to_next_timer()
    assert wait == pytest.approx(5.0)
    now[0] += wait  # Ben stays silent for his whole window
    session.tick(now[0])
    assert session.game.current_player() == "Cem"
    session.tick(now[0])  # the loop looks at the clock again once the words are out
    assert session.seconds_to_next_timer() == pytest.approx(5.0)


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("en", ["Anna", "card 12", "done", "who's guessing?", "where's the cat?",
                "how many points does Anna have"]),
        ("de", ["Anna", "Karte 12", "fertig", "wer rät gerade?", "wo ist die Katze?",
                "wie viele Punkte hat Anna"]),
    ],
)  # fmt: skip
def test_a_question_in_the_guess_window_is_no_wrong_guess(lang: str, lines: list[str]) -> None:
    """Found by playing: "who's guessing?" was "Not who's guessing." and cost Ben his try."""
    guesses = ("wrong_guess", "guessed")
    public, _ = play(lines, lang)
    assert not [r for r in public if r["type"] in guesses]
    said = [r["text"] for r in public if r["type"] == "say"]
    scores = {"en": "Scores: Anna 0, Ben 0 and Cem 0.", "de": "Punkte: Anna 0, Ben 0 und Cem 0."}
    assert any(s.startswith(scores[lang]) for s in said), said[-3:]
    public, _ = play([*lines, "Mickey Mouse"], lang)  # and the guesser still has their try
    assert [r["player"] for r in public if r["type"] in guesses] == ["Ben"]


@pytest.mark.parametrize(
    ("lang", "lines", "asked"),
    [
        ("en", ["Anna", "card 12", "done", "is it Mickey or Minnie?"],
         "Ben, one guess: Mickey or Minnie?"),
        ("de", ["Anna", "Karte 12", "fertig", "Micky Maus oder Minnie Maus"],
         "Ben, bitte nur ein Name: Micky Maus oder Minnie Maus?"),
    ],
)  # fmt: skip
def test_two_names_at_once_are_no_guess_the_guesser_is_asked_for_one(lang, lines, asked):
    """Found by playing: "is it Mickey or Minnie?" was asked about as "Mickey" alone."""
    public, _ = play(lines, lang)
    said = [r["text"] for r in public if r["type"] == "say"]
    assert said[-1] == asked
    assert not [r for r in public if r["type"] in ("wrong_guess", "guessed", "confirm")]


@pytest.mark.parametrize(
    ("line", "card"),
    [("I'll go with twelve", 12), ("I want a hundred and fifty-two!", 152),
     ("card one-oh-seven", 107), ("Right, I've decided. One forty.", 140),
     ("Mine's sixty-seven.", 67), ("Let's do the one with twenty-two on it.", 22)],
)  # fmt: skip
def test_a_card_number_is_chosen_as_people_say_it(line: str, card: int) -> None:
    """The Artist's card said with a word of choosing and a bare number, "a hundred and
    …", or in pairs of digits ("one forty", "one-oh-seven")."""
    session = _session("en")
    moves = len(session.actions)
    session.hear(line)
    assert len(session.actions) == moves + 1
    assert session.actions[-1].args.get("card") == card


@pytest.mark.parametrize(
    ("lang", "lines", "question", "told"),
    [("en", ["card 12", "two red at the top", "done"], "Is the one at the top red or orange?",
      "2 red at the top"),
     ("en", ["card 12", "two red at the top", "done"],
      "Are there two or three red ones at the top?", "2 red at the top"),
     ("de", ["Karte 12", "oben zweimal rot", "fertig"], "Ist das oben rot oder orange?",
      "oben 2-mal Rot"),
     ("en", ["card 12", "two black at the bottom", "done"],
      "Is that two or three black ones down there?", "2 black at the bottom"),
     ("en", ["card 12", "two black at the bottom", "done"], "Anything brown in the middle?",
      "2 black at the bottom"),
     ("de", ["Karte 12", "unten zweimal schwarz", "fertig"],
      "Sind das zwei oder drei schwarze unten?", "unten 2-mal Schwarz"),
     ("de", ["Karte 12", "unten zweimal schwarz", "fertig"], "Ist in der Mitte was Braunes?",
      "unten 2-mal Schwarz")],
)  # fmt: skip
def test_a_guesser_who_cannot_see_a_swatch_well_hears_the_board(lang, lines, question, told):
    """ "Is the one at the top red or orange?": the board as the Artist told it, never a
    guess of a character named "red or orange"."""
    session = _session(lang)
    for line in lines:
        session.hear(line)
    moves = list(session.actions)
    out = session.out
    assert isinstance(out, Recorder)
    out.said.clear()
    session.hear(question)
    assert session.actions == moves
    assert any(told in line for line in out.said), out.said


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "What does phase one mean?"), ("en", "Which round is this anyway?"),
     ("de", "Was heißt das jetzt, Phase eins?"), ("de", "Welche Runde ist das jetzt eigentlich?")],
)  # fmt: skip
def test_which_phase_it_is_asked_as_people_ask(lang: str, line: str) -> None:
    session = _session(lang)
    session.hear("card 12" if lang == "en" else "Karte 12")
    out = session.out
    assert isinstance(out, Recorder)
    out.records.clear()
    session.hear(line)
    assert [r["type"] for r in out.records] == ["phase_info"]


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Read out everything she put down."), ("en", "Read me out what he laid again"),
     ("de", "Lies mal vor, was sie hingelegt hat."), ("de", "Lies nochmal vor, was er gelegt hat")],
)  # fmt: skip
def test_the_hints_asked_for_with_he_or_she(lang: str, line: str) -> None:
    """The Artist is "she" or "he" to the guessers: what they laid is read out."""
    session = _session(lang)
    session.hear("card 12" if lang == "en" else "Karte 12")
    session.hear("done" if lang == "en" else "fertig")
    phase = session.phase()
    found = session.parser.parse(line, phase.intents, phase.slots)
    assert found is not None and found.name == "hints", found
