"""The assistant as a player (--assistant): its seat, its decisions, and how the session
plays it — in Farben and in Alle meine Farben (basic)."""

from __future__ import annotations

import json
import random
import shlex
from collections import Counter
from pathlib import Path

import pytest
from helpers import run_cli, write_script

from games.alle_meine_farben import COLOURS as AMF_COLOURS
from games.alle_meine_farben import COPIES, AlleMeineFarben
from games.assistant import Notes, next_turn
from games.data import load
from games.engine import Action, GameError, NotAllowed, NotNow, Setup, SetupError, replay
from games.farben import COLOURS, Farben, key
from games.farben_assistant import associations, farben_choice, memory
from games.seat import LEVELS, Seat, seat_of, seat_players
from voice.output.sinks import RecordingOutput
from voice.session.adapters import ADAPTERS
from voice.session.session import Session

WORDS = [
    ["School", "Holiday"],
    ["Childhood", "Winter"],
    ["Grandmother", "Kitchen"],
    ["Success", "Monday"],
    ["Summer", "Fear"],
    ["Love", "Forest"],
    ["Music", "Hospital"],
    ["Birthday", "Sunday"],
    ["Sea", "Exam"],
    ["Friendship", "Autumn"],
]


def farben_setup(seed: int = 1, level: str = "normal", players=("Anna", "Ben", "Robo"), **extra):
    options = {"deck": "en", "assistant": {"name": "Robo", "level": level}, **extra}
    return Setup(tuple(players), seed, None, options)


def amf_setup(seed: int = 1, level: str = "normal", players=("Mia", "Robo")):
    options = {"variant": "basic", "assistant": {"name": "Robo", "level": level}}
    return Setup(tuple(players), seed, None, options)


# --- the seat --------------------------------------------------------------------------
def test_the_assistant_sits_after_the_players_or_where_it_is_told() -> None:
    assert seat_players(("Anna", "Ben"), "Robo") == ("Anna", "Ben", "Robo")
    assert seat_players(("Anna", "Ben"), "Robo", 1) == ("Robo", "Anna", "Ben")
    assert seat_players(("Anna", "Ben"), "Robo", 2) == ("Anna", "Robo", "Ben")
    with pytest.raises(SetupError):
        seat_players(("Anna", "Ben"), "Robo", 4)


def test_two_people_and_the_assistant_are_a_legal_farben_game() -> None:
    Farben(farben_setup())
    with pytest.raises(SetupError) as err:
        Farben(farben_setup(players=("Anna", "Robo")))
    assert err.value.key == "player_count"


@pytest.mark.parametrize(
    "raw",
    [{"name": "Zed"}, {"name": "Robo", "level": "genius"}, "Robo", {"name": "Robo", "x": 1}],
)
def test_a_damaged_assistant_option_is_refused(raw) -> None:
    with pytest.raises(SetupError):
        seat_of(Setup(("Anna", "Ben", "Robo"), options={"assistant": raw}))


def test_the_assistant_does_not_play_the_profi_variant() -> None:
    setup = Setup(("Mia", "Robo"), options={"variant": "profi", "assistant": {"name": "Robo"}})
    with pytest.raises(SetupError) as err:
        AlleMeineFarben(setup)
    assert err.value.key == "assistant_not_in_profi"


# --- Farben: decisions ---------------------------------------------------------------------
def play_farben(game: Farben, seat: Seat, rng: random.Random) -> list[Action]:
    """Play to the end: the assistant by its own decisions, the people at random."""
    history = []
    game.start()
    for _ in range(3000):
        if game.is_over():
            break
        turn = next_turn(game, seat, Notes(hint_heard=True))
        if turn is not None and turn.action is not None:
            action = turn.action
        else:
            action = rng.choice(game.legal_actions())
        game.apply(action)  # the assistant's moves are always legal: apply never raises
        history.append(action)
    assert game.is_over()
    return history


def test_farben_assistant_plays_whole_games_and_replays_identically() -> None:
    for seed in range(25):
        setup = farben_setup(
            seed, LEVELS[seed % 3], players=("Anna", "Ben", "Robo", "Cem")[: 3 + seed % 2]
        )
        seat = seat_of(setup)
        game = Farben(setup)
        history = play_farben(game, seat, random.Random(seed))
        played = [s.colours["Robo"] for s in game.stacks]
        assert len(set(played)) == 10, "each of its 12 colours at most once per game"
        rebuilt = replay(Farben(setup), history)
        assert rebuilt.snapshot() == game.snapshot()


def test_its_colour_does_not_depend_on_what_others_laid_face_down() -> None:
    """Ben reveals before Robo; whatever Ben shows, Robo's choice is the same."""
    shown = set()
    for bens in ("red", "blue", "purple", "white"):
        game = Farben(farben_setup(3, words=WORDS))
        game.start()
        for action in [
            Action("first", {"player": "Anna"}),
            Action("side", {"side": 1}),
            Action("ready"),
            Action("reveal", {"colour": bens}),
            Action("done"),
        ]:
            game.apply(action)
        turn = next_turn(game, seat_of(game.setup))
        assert turn is not None and turn.action is not None and turn.action.name == "reveal"
        shown.add(turn.action.args["colour"])
    assert len(shown) == 1


def test_it_picks_a_colour_from_our_associations_with_its_story() -> None:
    game = Farben(farben_setup(5, words=WORDS))
    game.start()
    seat = seat_of(game.setup)
    choice = farben_choice(game, seat, "School")
    stories = associations("en")[key("School")]
    assert choice in stories


def test_a_word_without_associations_gets_a_fallback_story_with_the_word() -> None:
    game = Farben(farben_setup(5, words=[["Trampoline", "Lighthouse"]]))
    game.start()
    choice = farben_choice(game, seat_of(game.setup), "Trampoline")
    assert choice.colour in COLOURS
    assert "Trampoline" in choice.story
    assert choice.hint.casefold() in choice.story.casefold()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_association_files_are_well_formed(lang: str) -> None:
    """Every association: a colour of the game, a short story, a hint word from it; every
    word is a word of our deck."""
    deck = {key(w) for card in load(f"farben_words_{lang}") for w in card}
    found = associations(lang)
    assert found
    for word, entries in found.items():
        assert word in deck, f"{word!r} is not on any word card"
        assert entries
        for entry in entries:
            assert entry.colour in COLOURS
            assert entry.hint.casefold() in entry.story.casefold(), (word, entry.hint)
            assert entry.story.count(".") + entry.story.count("!") <= 3
    fallback = load(f"farben_assistant_{lang}")["fallback"]
    assert set(fallback) == set(COLOURS)
    for entries in fallback.values():
        for entry in entries:
            story = entry["story"].format(word="Xyz")
            assert "Xyz" in story and entry["hint"].casefold() in story.casefold()


def test_memory_is_fixed_by_the_seed_and_better_at_higher_levels() -> None:
    rates = {}
    for level in LEVELS:
        sure = total = 0
        for seed in range(30):
            setup = farben_setup(seed, level)
            game = Farben(setup)
            play_farben(game, seat_of(setup), random.Random(seed))
            again = replay(Farben(setup), [])  # same seed, another game object
            for stack in game.stacks:
                for player in ("Anna", "Ben"):
                    state = memory(game, seat_of(setup), stack, player)
                    assert state == memory(game, seat_of(setup), stack, player)
                    total += 1
                    sure += state == "sure"
            assert again.setup == setup
        rates[level] = sure / total
    assert rates["easy"] < rates["normal"] < rates["hard"]
    assert 0.15 < rates["easy"] and rates["hard"] < 0.95  # it forgets, but not everything


def test_it_names_what_it_remembers_correctly_and_never_a_colour_turned_over_elsewhere() -> None:
    for seed in range(15):
        setup = farben_setup(seed, "hard")
        seat = seat_of(setup)
        game = Farben(setup)
        game.start()
        rng = random.Random(seed)
        while not game.is_over():
            turn = next_turn(game, seat, Notes(hint_heard=True))
            if turn is not None and turn.action is not None:
                action = turn.action
                if action.name == "name" and game.hint_pending is None:
                    owner = action.args["player"]
                    state = memory(game, seat, game.stack, owner)
                    truth = game.stack.colours[owner]
                    if state == "sure":
                        assert action.args["colour"] == truth
                    else:
                        shown = {
                            s.colours[owner]
                            for s in game.stacks
                            if s is not game.stack and owner in s.revealed
                        }
                        assert action.args["colour"] not in shown
            else:
                action = rng.choice(game.legal_actions())
            game.apply(action)


# --- Alle meine Farben: decisions and its face-up hand --------------------------------------
def test_amf_assistant_asks_for_its_cards_and_plays_only_what_it_holds() -> None:
    game = AlleMeineFarben(amf_setup(2))
    events = game.start()
    assert [e.type for e in events][-1] == "assistant_cards_wanted"  # a child alone starts
    assert game.waiting_cards and game.current_player() is None
    with pytest.raises(NotNow):
        game.apply(Action("place", {"colour": "red"}))  # Mia waits for Robo's cards
    with pytest.raises(NotAllowed):
        game.apply(Action("cards", {"colours": ["red", "red", "red", "red"]}))
    with pytest.raises(NotAllowed):
        game.apply(Action("cards", {"colours": ["red"], "player": "Mia"}))
    game.apply(Action("cards", {"colours": ["red", "blue"]}))
    assert game.waiting_cards
    events = game.apply(Action("cards", {"colours": ["red"]}))
    assert [e.type for e in events] == ["assistant_cards_known", "turn"]
    game.apply(Action("place", {"colour": "red"}))  # Mia: the ball red
    turn = next_turn(game, seat_of(game.setup))
    assert turn is not None and turn.action == Action("place", {"colour": "blue"})
    with pytest.raises(NotAllowed):  # it holds no yellow card
        game.apply(Action("place", {"colour": "yellow"}))
    events = game.apply(turn.action)
    assert events[-1].type == "assistant_cards_wanted" and events[-1].data["count"] == 1
    assert game.face_up == ["red", "red"]


def test_amf_assistant_passes_naming_the_card_it_puts_away() -> None:
    game = AlleMeineFarben(amf_setup(4))
    game.start()
    game.apply(Action("cards", {"colours": ["red", "red", "blue"]}))
    game.apply(Action("place", {"colour": "red"}))  # Mia: ball red
    seat = seat_of(game.setup)
    assert next_turn(game, seat).action.args == {"colour": "blue"}
    game.apply(Action("place", {"colour": "blue"}))
    game.apply(Action("cards", {"colours": ["blue"]}))
    game.apply(Action("place", {"colour": "yellow"}))  # Mia: saw yellow
    turn = next_turn(game, seat)  # red and blue lie in row 1 already
    assert turn.action.name == "pass" and turn.action.args["colour"] in ("red", "blue")
    events = game.apply(turn.action)
    assert events[0].type == "passed" and events[0].data["colour"] == turn.action.args["colour"]
    assert game.face_out == [turn.action.args["colour"]]
    with pytest.raises(NotAllowed):  # a person's pass never names a card: it is secret
        game2 = AlleMeineFarben(amf_setup(4, players=("Mia", "Lea", "Robo")))
        game2.start()
        game2.apply(Action("first", {"player": "Mia"}))
        game2.apply(Action("cards", {"colours": ["red", "red", "blue"]}))
        game2.apply(Action("pass", {"colour": "red"}))


def test_amf_asks_again_when_nobody_answers_then_waits() -> None:
    game = AlleMeineFarben(amf_setup(2))
    game.start()
    asked = 0
    while game.timers():
        (timer,) = game.timers()
        assert timer.seconds >= 10
        (event,) = game.apply(timer.action)
        assert event.type == "assistant_cards_wanted" and event.data["again"]
        asked += 1
    assert asked == 3
    with pytest.raises(GameError):
        game.apply(Action("timer", {"ask": 0, "at": 0}))
    game.apply(Action("cards", {"colours": ["green", "pink", "orange"]}))
    assert not game.waiting_cards


def simulate_amf(setup: Setup, rng: random.Random) -> tuple[AlleMeineFarben, list[Action]]:
    """A real shuffled box: people play a random fitting card (or pass); the assistant
    is told its cards truthfully."""
    seat = seat_of(setup)
    deck = [c for c in AMF_COLOURS for _ in range(COPIES)]
    rng.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(3)] for p in setup.players}
    game = AlleMeineFarben(setup)
    game.start()
    history: list[Action] = []

    def apply(action: Action) -> None:
        game.apply(action)
        history.append(action)

    if game.stage == "choose_first":
        apply(Action("first", {"player": setup.players[0]}))
    told = 0
    for _ in range(500):
        if game.is_over():
            break
        if game.waiting_cards:
            known = len(game.face_up)
            apply(Action("cards", {"colours": hands[seat.name][known:]}))
            continue
        player = game.turn
        turn = next_turn(game, seat)
        if turn is not None:
            action = turn.action
            assert action.args["colour"] in hands[player]
        else:
            fits = [c for c in hands[player] if c in game.allowed_colours()]
            action = Action("place", {"colour": rng.choice(fits)}) if fits else Action("pass")
        colour = action.args.get("colour") or rng.choice(hands[player])
        apply(action)
        hands[player].remove(colour)
        if deck:
            hands[player].append(deck.pop())
        told += 1
    assert game.is_over()
    if seat is not None:  # what it knows lies in front of it (the last draw may be untold)
        assert not Counter(game.face_up) - Counter(hands[seat.name])
        assert len(hands[seat.name]) - len(game.face_up) <= 1
    return game, history


def test_amf_random_games_with_the_assistant_reach_the_end_and_replay() -> None:
    for seed in range(40):
        players = ("Mia", "Robo") if seed % 2 else ("Mia", "Lea", "Robo")
        level = "hard" if seed % 8 == 0 else LEVELS[seed % 2]  # hard plans: slower
        setup = amf_setup(seed, level, players)
        game, history = simulate_amf(setup, random.Random(seed))
        assert replay(AlleMeineFarben(setup), history).snapshot() == game.snapshot()


def test_amf_random_legal_actions_with_an_assistant_never_break_the_engine() -> None:
    for seed in range(30):
        setup = amf_setup(seed, "hard", ("Mia", "Robo", "Lea"))
        rng = random.Random(seed)
        game = AlleMeineFarben(setup)
        game.start()
        history = []
        for _ in range(400):
            if game.is_over():
                break
            options = game.legal_actions() + [t.action for t in game.timers()]
            action = rng.choice(options)
            game.apply(action)
            history.append(action)
        assert game.is_over()
        assert replay(AlleMeineFarben(setup), history).snapshot() == game.snapshot()


# --- the session --------------------------------------------------------------------------
def session(game_id: str, setup: Setup, lang: str = "en") -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    s = Session(ADAPTERS[game_id], lang, setup, out)
    s.start()
    return s, out


def test_session_undo_takes_back_the_persons_move_with_the_assistants_after_it() -> None:
    s, out = session("alle-meine-farben", amf_setup(2))
    s.hear("you have red, blue and yellow")
    s.hear("red")  # Mia: ball red; Robo plays at once and asks for its new card
    assert [a.name for a in s.actions] == ["cards", "place", "place"]
    s.hear("undo")
    assert any("Mia colours the ball red" in t for t in out.said[-1:])
    s.hear("yes")
    assert [a.name for a in s.actions] == ["cards"]
    assert s.game.turn == "Mia" and s.game.number == 1
    s.hear("whose turn is it")
    assert out.said[-1] == "Mia, number 1: the ball, row 1, column 1."


def test_session_assistant_lines_carry_its_name_and_repeat_keeps_them() -> None:
    s, out = session("alle-meine-farben", amf_setup(2))
    s.hear("you have red, blue and yellow")
    s.hear("red")
    spoken = [r for r in out.records if r.get("type", "").startswith("assistant_")]
    assert {r["type"] for r in spoken} >= {"assistant_cards_known", "assistant_place"}
    before = list(out.said)
    s.hear("repeat")
    again = out.said[len(before) :]
    assert again and any(t.startswith("Robo: I colour the hat") for t in again)


def test_session_farben_assistant_gives_its_hint_word_from_its_story() -> None:
    setup = farben_setup(4, "hard", words=WORDS)
    s, out = session("farben", setup)
    seat = seat_of(setup)
    rng = random.Random(1)
    s.hear("Anna is the most colourfully dressed")
    hinted = False
    for _ in range(400):
        game = s.game
        if s.finished:
            break
        if game.stage == "side":
            s.hear(game.cards[game.round][0])
        elif game.stage == "choosing":
            s.hear("ready")
        elif game.stage == "reveal":
            s.hear(rng.choice(game.colours_in_hand(game.teller)))
        elif game.stage == "story":
            s.hear("done")
        elif game.stage == "choose_stack":
            s.hear(next(x.word for x in game.stacks if x.scored_by is None))
        elif game.stage == "naming":
            owner = game.unnamed()[0]
            if game.hint_pending is not None:
                s.hear("Judo")  # a person's hint word: table talk, the assistant listens
                continue
            if owner == "Robo" and "Robo" not in game.hinted and not hinted:
                s.hear("a hint from Robo please")
                hinted = True
                said = out.said[-1]
                story = [
                    r["story"]
                    for r in out.records
                    if r.get("type") == "assistant_story" and r["word"] == game.stack.word
                ][0]
                hint = said.split(": ")[-1].rstrip(".")
                assert said.startswith("Robo: My hint for you")
                assert hint.casefold() in story.casefold()
                assert not any(c in hint.casefold() for c in ("red", "blue", "green"))
            s.hear(f"{owner} {game.stack.colours[owner]}")
    assert s.finished and hinted
    result = [r for r in out.records if r.get("type") == "game_over"][0]
    assert set(result["scores"]) == {"Anna", "Ben", "Robo"}
    assert seat.name in result["scores"]


SCRIPT = [
    "Anna is the most colourfully dressed",
    "School",
    "ready",
    "red",
    "done",
    "blue",
    "done",
    "Childhood",
    "ready",
    "green",
    "done",
]


def test_cli_saves_and_resumes_the_assistant_seat_identically(tmp_path: Path) -> None:
    words = ",".join("/".join(card) for card in WORDS)
    common = ["--players", "Anna,Ben", "--assistant", "Robo", "--assistant-seat", "2"]
    common += ["--seed", "9", "--words", words, "--json"]
    whole = write_script(tmp_path / "whole.script", SCRIPT)
    full = run_cli("play", "farben", *common, "--script", str(whole))
    assert full.code == 0, full.err
    first = write_script(tmp_path / "first.script", SCRIPT[:5])
    rest = write_script(tmp_path / "rest.script", SCRIPT[5:])
    save = tmp_path / "game.jsonl"
    part = run_cli("play", "farben", *common, "--script", str(first), "--save", str(save))
    assert part.code == 0, part.err
    resumed = run_cli("resume", str(save), "--script", str(rest), "--json")
    assert resumed.code == 0, resumed.err
    moves = [e for e in full.events if e.get("type") in ("colour_told", "word_chosen")]
    later = [
        e for e in part.events + resumed.events if e.get("type") in ("colour_told", "word_chosen")
    ]
    assert moves == later
    welcome = next(e for e in full.events if e.get("type") == "welcome")
    assert welcome["players"] == ["Anna", "Robo", "Ben"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pantone", "--players", "Anna,Ben", "--assistant", "Robo"], "not in pantone"),
        (["farben", "--players", "Anna,Ben", "--assistant", "anna"], "sounds like a player"),
        (
            ["farben", "--players", "Anna,Ben", "--assistant", "Robo", "--assistant-seat", "5"],
            "1 to 3",
        ),
        (["farben", "--players", "Anna", "--assistant", "Robo"], "3 to 5 players"),
        (
            ["alle-meine-farben", "--players", "Mia", "--assistant", "Robo", "--variant", "profi"],
            "Grundspiel",  # a German game (Alle meine Farben's default): said in German
        ),
        (["farben", "--players", "Anna,Ben", "--assistant-seat", "1"], "needs --assistant"),
    ],
)
def test_cli_refuses_assistant_options_that_cannot_work(argv, message, tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.script", ["help"])
    run = run_cli("play", *argv, "--script", str(script), "--json")
    assert run.code == 2
    assert message in run.err


@pytest.mark.parametrize("game_id", ["farben", "alle-meine-farben"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_random_utterances_with_an_assistant_seat_never_break_a_session(game_id, lang) -> None:
    """Sentences the grammar allows, in random order, plus table talk and time passing,
    at a table with the assistant: no crash, and the journal replays to the same state."""
    talk = ["", "ähm", "the dog ate my homework", "x" * 500, "Reihe 99", "Robo"]
    for seed in range(3):
        if game_id == "farben":
            setup = farben_setup(seed, LEVELS[seed], words=WORDS if lang == "en" else None)
            setup = Setup(setup.players, seed, None, {**setup.options, "deck": lang})
        else:
            setup = amf_setup(seed, LEVELS[seed], ("Mia", "Robo", "Lea")[: 2 + seed % 2])
        rng = random.Random(seed)
        s, _ = session(game_id, setup, lang)
        now = 0.0
        for _ in range(200):
            if s.finished:
                break
            if rng.random() < 0.1:
                s.hear(rng.choice(talk))
            elif rng.random() < 0.1:
                now += rng.choice([1, 5, 30])
                s.tick(now)
            else:
                s.hear(rng.choice(s.phrases()), confidence=rng.choice([1.0, 1.0, 0.5]))
        rebuilt = replay(ADAPTERS[game_id].create(setup), s.actions)
        assert rebuilt.snapshot() == s.game.snapshot()


def test_a_save_cut_before_the_assistants_reply_resumes_with_that_reply(tmp_path: Path) -> None:
    """A crash between a person's move and the assistant's (both are journalled one by
    one): on resume the assistant makes exactly the move it would have made."""
    golden = Path(__file__).parent / "golden" / "farben" / "with-assistant-couple-en.script"
    text = golden.read_text("utf-8").splitlines()
    argv = shlex.split(text[0].removeprefix("# farbspiel:"))
    said = [line.split("#")[0].strip() for line in text[1:]]
    script = write_script(tmp_path / "s.script", [x for x in said if x not in ("undo", "yes")])
    save = tmp_path / "whole.jsonl"
    assert run_cli(*argv, "--script", str(script), "--save", str(save)).code == 0
    lines = save.read_text("utf-8").splitlines(keepends=True)
    actions = [Action.from_json(json.loads(line)["action"]) for line in lines[1:]]
    setup = Setup.from_json(json.loads(lines[0])["setup"])
    mine = Session(ADAPTERS["farben"], "en", setup, RecordingOutput()).seat_moves(actions)
    assert len(mine) > 30  # reveals, stories, sides, stacks and namings of its own
    for cut in [i for i in range(len(actions) - 1) if i not in mine and i + 1 in mine][::7]:
        kept = lines[: cut + 2]  # the header and the actions up to the person's move
        cut_save = tmp_path / f"cut-{cut}.jsonl"
        cut_save.write_text("".join(kept), "utf-8")
        empty = write_script(tmp_path / "empty.script", [])
        assert run_cli("resume", str(cut_save), "--script", str(empty)).code == 0
        resumed = cut_save.read_text("utf-8").splitlines(keepends=True)
        assert resumed[: len(kept)] == kept
        replies = resumed[len(kept) :]
        assert replies and replies == lines[len(kept) : len(kept) + len(replies)]


def test_the_microphone_gate_passes_the_assistants_voice_on_and_counts_it_as_own_voice() -> None:
    from voice.output.sinks import MultiOutput
    from voice.session.microphone import SpeakingGate

    class Voices(RecordingOutput):
        def say_as(self, text: str, speaker: str) -> None:
            self.said.append(f"[{speaker}] {text}")

    inner = Voices()
    clock = iter([1.0, 2.0]).__next__
    gate = SpeakingGate(MultiOutput([inner]), tail=0.5, now=clock)
    gate.say_as("Robo: I pass.", "Robo")
    assert inner.said == ["[Robo] Robo: I pass."]
    assert gate._spans == [(1.0, 2.5)]


def test_the_assistant_benchmark_writes_its_numbers(tmp_path: Path) -> None:
    from voice.bench.assistant import main

    assert main(["--games", "1", "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "assistant.json").read_text("utf-8"))
    for table in results["amf"].values():
        assert set(table) == {"baseline_children_only", *LEVELS}
        assert all(0 <= table[level]["won"] <= 1 for level in LEVELS)
    for table in results["farben"].values():
        assert all(table[level]["assistant_mean"] >= 0 for level in LEVELS)
    assert "| 2 people+assistant | hard |" in (tmp_path / "assistant.md").read_text("utf-8")
