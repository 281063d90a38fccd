"""The Farben engine: rounds, the scoring phase exactly as the rulebook, secrets, timers,
bad input (state unchanged), and random games played to the end."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from games.engine import Action, Ambiguous, GameError, NotAllowed, NotNow, Setup, SetupError
from games.farben import COLOURS, ROUNDS, Farben, load_deck

WORDS = [
    ["Success", "Monday"],
    ["School", "Holiday"],
    ["Childhood", "Winter"],
    ["Grandmother", "Kitchen"],
    ["Summer", "Fear"],
    ["Love", "Forest"],
    ["Music", "Hospital"],
    ["Birthday", "Sunday"],
    ["Sea", "Exam"],
    ["Friendship", "Autumn"],
]
RULEBOOK_TABLE = ("Julia", "Eva", "Thomas", "Roman")  # clockwise: Julia sits right of Eva


def new_game(players=("Anna", "Ben", "Cem"), first="Anna", **options) -> Farben:
    options.setdefault("deck", "en")
    options.setdefault("words", WORDS)
    game = Farben(Setup(tuple(players), 7, first, options))
    game.start()
    return game


def play_rounds(game: Farben, colour: Callable[[str, int], str] | None = None) -> list:
    """Play all ten rounds, choosing the first side; returns every event."""
    events = []
    while game.stage in ("side", "choosing", "reveal", "story"):
        if game.stage == "side":
            events += game.apply(Action("side", {"side": 1}))
        elif game.stage == "choosing":
            events += game.apply(Action("ready"))
        elif game.stage == "reveal":
            player = game.teller
            if colour is None:
                hand = game.colours_in_hand(player)
                chosen = hand[(game.players.index(player) * 3 + game.round) % len(hand)]
            else:
                chosen = colour(player, game.round)
            events += game.apply(Action("reveal", {"colour": chosen}))
        else:
            events += game.apply(Action("done"))
    return events


def refused(game: Farben, action: Action, error: type[GameError], key: str) -> GameError:
    """Apply ``action``, expecting a refusal with ``key`` and no change of state."""
    before = json.dumps(game.snapshot(), sort_keys=True)
    with pytest.raises(error) as info:
        game.apply(action)
    assert info.value.key == key
    assert json.dumps(game.snapshot(), sort_keys=True) == before
    return info.value


# --- the rulebook's example ------------------------------------------------------------
SUCCESS = {"Julia": "blue", "Roman": "pink", "Thomas": "green", "Eva": "orange"}


def rulebook_game() -> Farben:
    """Julia starts the first round, so Eva is the last starting player (round 10)."""
    game = new_game(RULEBOOK_TABLE, first="Julia")

    def colour(player: str, round_index: int) -> str:
        if round_index == 0:
            return SUCCESS[player]
        others = [c for c in COLOURS if c != SUCCESS[player]]
        return others[(round_index + RULEBOOK_TABLE.index(player)) % len(others)]

    play_rounds(game, colour)
    return game


def test_rulebook_success_example_gives_eva_5_and_one_each_to_the_others() -> None:
    game = rulebook_game()
    assert game.stage == "choose_stack"
    assert (game.namer, game.chooser) == ("Eva", "Julia")
    game.apply(Action("stack", {"word": "Success"}))
    [julia] = game.apply(Action("name", {"player": "Julia", "colour": "blue"}))
    assert (julia.data["correct"], julia.data["namer_points"], julia.data["owner_points"]) == (
        True,
        2,
        1,
    )
    game.apply(Action("name", {"player": "Roman", "colour": "pink"}))
    [asked] = game.apply(Action("hint", {"player": "Thomas"}))
    assert asked.type == "hint_asked" and asked.data["player"] == "Thomas"
    [thomas] = game.apply(Action("name", {"colour": "green"}))  # after "Judo": Thomas is meant
    assert (thomas.data["player"], thomas.data["hint"], thomas.data["namer_points"]) == (
        "Thomas",
        True,
        1,
    )
    own, done, turn = game.apply(Action("name", {"player": "Eva", "colour": "red"}))
    assert own.data["correct"] is False and own.data["truth"] == "orange"
    assert done.type == "stack_done" and done.data["gained"] == 5
    assert game.scores == {"Julia": 1, "Eva": 5, "Thomas": 1, "Roman": 1}
    # "Now Thomas has a go and Eva selects a stack for him."
    assert turn.type == "stack_turn"
    assert (turn.data["player"], turn.data["chooser"]) == ("Thomas", "Eva")


# --- rounds -----------------------------------------------------------------------------
def test_round_order_left_of_the_starter_first_starter_last_and_rotating() -> None:
    game = new_game(("Anna", "Ben", "Cem", "Dana"), first="Cem")
    starters, tellers = [], []
    while game.stage != "choose_stack":
        if game.stage == "side":
            starters.append(game.starter)
            game.apply(Action("side", {"side": 2}))
        elif game.stage == "choosing":
            game.apply(Action("ready"))
        elif game.stage == "reveal":
            if game.round == 0:
                tellers.append(game.teller)
            colour = game.colours_in_hand(game.teller)[0]
            game.apply(Action("reveal", {"colour": colour}))
        else:
            game.apply(Action("done"))
    assert tellers == ["Dana", "Anna", "Ben", "Cem"]
    assert starters == ["Cem", "Dana", "Anna", "Ben"] * 2 + ["Cem", "Dana"]
    assert [s.word for s in game.stacks] == [card[1] for card in WORDS]
    # the last starting player (Dana) begins the scoring; the player to her right chooses
    assert (game.namer, game.chooser) == ("Dana", "Cem")


def test_side_by_word_or_by_position_and_words_of_other_cards_are_refused() -> None:
    game = new_game()
    refused(game, Action("side", {"word": "Winter"}), NotAllowed, "word_not_on_card")
    refused(game, Action("side", {"side": 3}), NotAllowed, "no_such_side")
    refused(game, Action("ready"), NotNow, "wait_side")
    [chosen] = game.apply(Action("side", {"word": "monday"}))  # case does not matter
    assert chosen.data["word"] == "Monday"


def test_a_story_ends_only_with_done_after_the_colour() -> None:
    game = new_game()
    game.apply(Action("side", {"side": 1}))
    refused(game, Action("reveal", {"colour": "red"}), NotNow, "wait_choosing")
    game.apply(Action("ready"))
    assert game.teller == "Ben"
    refused(game, Action("done"), NotAllowed, "colour_first")
    refused(game, Action("reveal", {"colour": "red", "player": "Cem"}), NotAllowed,
            "not_your_turn_to_tell")  # fmt: skip
    refused(game, Action("reveal", {"colour": "turquoise"}), NotAllowed, "unknown_colour")
    game.apply(Action("reveal", {"colour": "red", "player": "Ben"}))
    assert game.stage == "story" and game.expecting().quiet
    refused(game, Action("reveal", {"colour": "blue"}), NotNow, "wait_story")
    [tell] = game.apply(Action("done"))
    assert tell.type == "tell" and tell.data["player"] == "Cem"


def test_every_colour_card_is_played_once_and_the_refusal_gives_nothing_away() -> None:
    game = new_game()
    play_one_round(game, {"Ben": "purple", "Cem": "red", "Anna": "blue"})
    game.apply(Action("side", {"side": 1}))
    game.apply(Action("ready"))
    assert game.teller == "Cem"
    error = refused(game, Action("reveal", {"colour": "red"}), NotAllowed, "card_already_played")
    assert error.params == {"player": "Cem"}  # neither the colour nor the word
    assert "red" not in game.colours_in_hand("Cem")
    assert game.expecting().slots["colour"] == tuple(game.colours_in_hand("Cem"))


def play_one_round(game: Farben, colours: dict[str, str]) -> None:
    game.apply(Action("side", {"side": 1}))
    game.apply(Action("ready"))
    for _ in game.players:
        game.apply(Action("reveal", {"colour": colours[game.teller]}))
        game.apply(Action("done"))


# --- scoring ---------------------------------------------------------------------------
@pytest.mark.parametrize(("count", "each", "unplayed"), [(3, 3, 1), (4, 2, 2), (5, 2, 0)])
def test_stacks_per_player_and_unplayed_stacks(count: int, each: int, unplayed: int) -> None:
    players = ("Anna", "Ben", "Cem", "Dana", "Emil")[:count]
    game = new_game(players)
    play_rounds(game)
    turns: dict[str, int] = {p: 0 for p in players}
    events = []
    while not game.is_over():
        turns[game.namer] += 1
        left = [s.word for s in game.stacks if s.scored_by is None]
        if len(left) > 1:
            game.apply(Action("stack", {"word": left[0]}))
        else:  # the very last stack (five players) needs no choosing
            assert game.stage == "naming" and game.stack is not None
            assert game.stack.word == left[0]
        for owner in game.unnamed():
            events += game.apply(Action("name", {"player": owner, "colour": "white"}))
    assert turns == {p: each for p in players}
    kinds = [e.type for e in events]
    assert kinds[-1] == "game_over"
    assert ("unplayed" in kinds) == (unplayed > 0)
    assert len([s for s in game.stacks if s.scored_by is None]) == unplayed


def scoring_game(players=("Anna", "Ben", "Cem")) -> Farben:
    game = new_game(players)
    play_rounds(game)
    return game


def truth(game: Farben, player: str) -> str:
    assert game.stack is not None
    return game.stack.colours[player]


def test_points_own_colour_two_in_total_hint_one_each_wrong_none() -> None:
    game = scoring_game()
    namer = game.namer
    game.apply(Action("stack", {"word": game.stacks[0].word}))
    ben, cem = [p for p in game.unnamed() if p != namer]
    [own] = game.apply(Action("name", {"player": namer, "colour": truth(game, namer)}))
    assert (own.data["own"], own.data["namer_points"], own.data["owner_points"]) == (True, 2, 0)
    game.apply(Action("hint", {"player": ben}))
    [hinted] = game.apply(Action("name", {"player": ben, "colour": truth(game, ben)}))
    assert (hinted.data["namer_points"], hinted.data["owner_points"]) == (1, 1)
    wrong_colour = next(c for c in COLOURS if c != truth(game, cem))
    wrong, done, _ = game.apply(Action("name", {"player": cem, "colour": wrong_colour}))
    assert wrong.data["truth"] == truth_of(game, 0, cem)
    assert (wrong.data["namer_points"], wrong.data["owner_points"]) == (0, 0)
    assert done.data["gained"] == 3
    assert game.scores == {namer: 3, ben: 1, cem: 0}


def truth_of(game: Farben, stack_index: int, player: str) -> str:
    return game.stacks[stack_index].colours[player]


def test_hints_none_for_ones_own_colour_none_from_who_forgot_one_per_player() -> None:
    game = scoring_game()
    namer = game.namer
    game.apply(Action("stack", {"word": game.stacks[1].word}))
    first, second = [p for p in game.unnamed() if p != namer]
    refused(game, Action("hint", {"player": namer}), NotAllowed, "no_hint_for_own")
    # no hint asked: "I don't know" is the namer's, for which card? (several are face down)
    refused(game, Action("forgot"), Ambiguous, "which_card_unknown")
    game.apply(Action("hint", {"player": first}))
    assert game.expecting().quiet  # the hint word is table talk
    assert "forgot" in game.expecting().intents
    [no_hint] = game.apply(Action("forgot"))
    assert no_hint.type == "no_hint" and no_hint.data["player"] == first
    refused(game, Action("hint", {"player": first}), NotAllowed, "owner_forgot")
    [named] = game.apply(Action("name", {"player": first, "colour": truth(game, first)}))
    assert (named.data["hint"], named.data["namer_points"]) == (False, 2)  # no hint given
    game.apply(Action("hint", {"player": second}))
    refused(game, Action("hint", {"player": second}), NotAllowed, "already_hinted")
    refused(game, Action("hint", {"player": first}), NotAllowed, "already_named")


def test_a_bare_colour_needs_a_name_unless_only_one_card_is_left() -> None:
    game = scoring_game()
    namer = game.namer
    game.apply(Action("stack", {"word": game.stacks[2].word}))
    error = refused(game, Action("name", {"colour": "red"}), Ambiguous, "whose_colour")
    assert error.params["players"] == game.unnamed()
    refused(game, Action("hint", {}), Ambiguous, "hint_from_whom")
    for player in game.unnamed()[:-1]:
        game.apply(Action("name", {"player": player, "colour": "red"}))
    assert game.unnamed() == [namer]
    [last, *_] = game.apply(Action("name", {"colour": truth(game, namer)}))
    assert last.data["player"] == namer and last.data["correct"]


@pytest.mark.parametrize(
    ("action", "error", "key"),
    [
        (Action("name", {"player": "Zoe", "colour": "red"}), NotAllowed, "unknown_player"),
        (Action("name", {"player": "Ben", "colour": "turquoise"}), NotAllowed, "unknown_colour"),
        (Action("hint", {"player": "Zoe"}), NotAllowed, "unknown_player"),
        (Action("stack", {"word": "Monday"}), NotNow, "wait_naming"),
        (Action("side", {"side": 1}), NotNow, "wait_naming"),
        (Action("ready"), NotNow, "wait_naming"),
        (Action("first", {"player": "Ben"}), NotNow, "wait_naming"),
        (Action("timer", {"turn": 0, "left": 0}), NotNow, "stale_timer"),
        (Action("fly"), NotNow, "unknown_action"),
        (
            Action("name", {"player": "Ben", "colour": "red", "bonus": 5}),
            NotAllowed,
            "unknown_argument",
        ),  # fmt: skip
    ],
)
def test_bad_input_while_naming_is_refused_and_changes_nothing(action, error, key) -> None:
    game = scoring_game()
    game.apply(Action("stack", {"word": game.stacks[0].word}))
    refused(game, action, error, key)


def test_stacks_chosen_by_word_used_ones_other_sides_and_unknown_ones_refused() -> None:
    game = scoring_game()
    first_word = game.stacks[0].word  # "Success", the first side of card 1
    refused(game, Action("stack", {"word": "Atlantis"}), NotAllowed, "no_such_stack")
    error = refused(game, Action("stack", {"word": "Monday"}), NotAllowed, "stack_other_side")
    assert error.params["stack"] == first_word
    refused(
        game, Action("stack", {"word": first_word, "player": "Ben"}), NotAllowed, "stack_is_for"
    )
    namer = game.namer
    game.apply(Action("stack", {"word": first_word.upper(), "player": namer}))
    for player in game.unnamed():
        game.apply(Action("name", {"player": player, "colour": "black"}))
    error = refused(game, Action("stack", {"word": first_word}), NotAllowed, "stack_used")
    assert error.params["by"] == namer
    assert first_word not in error.params["left"]


def test_naming_the_same_player_twice_is_refused() -> None:
    game = scoring_game()
    game.apply(Action("stack", {"word": game.stacks[0].word}))
    game.apply(Action("name", {"player": "Ben", "colour": "black"}))
    error = refused(game, Action("name", {"player": "Ben", "colour": "red"}), NotAllowed,
                    "already_named")  # fmt: skip
    assert error.params["colour"] == truth_of(game, 0, "Ben")  # turned over already


# --- what stays secret -------------------------------------------------------------------
def test_colours_of_face_down_cards_are_never_told() -> None:
    game = new_game()
    play_one_round(game, {"Ben": "purple", "Cem": "red", "Anna": "blue"})
    refused_query(game, {"word": "Success", "player": "Ben"}, "colour_secret")
    refused_query(game, {"word": "Success"}, "colour_secret")
    refused_query(game, {"word": "Atlantis"}, "unknown_stack")
    play_rounds(game)
    game.apply(Action("stack", {"word": "Success"}))
    game.apply(Action("name", {"player": "Ben", "colour": "red"}))  # wrong: purple shown
    [answer] = game.query("colour_of", {"word": "Success", "player": "Ben"})
    assert answer.data["colour"] == "purple"
    [stack] = game.query("colour_of", {"word": "Success"})
    assert stack.data["cards"] == [{"player": "Ben", "colour": "purple"}]
    assert sorted(stack.data["hidden"]) == ["Anna", "Cem"]
    refused_query(game, {"word": "Success", "player": "Cem"}, "colour_secret")
    assert game.namer == "Anna"
    refused_query(game, {"word": "Success", "self": True}, "colour_secret")  # "what did I say"
    game.apply(Action("name", {"player": "Anna", "colour": "blue"}))
    [mine] = game.query("colour_of", {"word": "Success", "self": True})
    assert (mine.data["player"], mine.data["colour"]) == ("Anna", "blue")


def refused_query(game: Farben, args: dict, key: str) -> None:
    before = game.snapshot()
    with pytest.raises(GameError) as info:
        game.query("colour_of", args)
    assert info.value.key == key
    assert game.snapshot() == before


def public_events(game: Farben) -> list:
    """Everything the table can ask for at any moment (besides the colour questions)."""
    events = game.prompt() + game.status()
    for name in ("words", "stacks_left", "left_to_name"):
        try:
            events += game.query(name, {})
        except GameError as exc:
            events.append(exc)
    return events


def hidden_colours(game: Farben) -> set[str]:
    return {c for s in game.stacks for p, c in s.colours.items() if p not in s.revealed}


def test_no_answer_ever_contains_a_face_down_colour() -> None:
    """Public answers carry no colour at all while cards lie face down: prompts, status,
    word and stack questions (colours named in the round are only said once, then)."""
    rng = random.Random(5)
    game = new_game(("Anna", "Ben", "Cem", "Dana"))
    while not game.is_over():
        if hidden_colours(game):
            for event in public_events(game):
                text = json.dumps(getattr(event, "data", getattr(event, "params", {})))
                hidden_words = {f'"{c}"' for c in COLOURS}
                assert not any(w in text for w in hidden_words), (game.stage, text)
        game.apply(rng.choice(game.legal_actions()))


# --- time limit ----------------------------------------------------------------------------
def test_time_limit_warns_at_30_and_10_seconds_and_ends_the_turn() -> None:
    game = new_game(time_limit=60)
    assert game.timers() == []
    play_rounds(game)
    assert game.timers() == []  # not while the stack is being chosen
    game.apply(Action("stack", {"word": "Success"}))
    steps = []
    game.apply(Action("name", {"player": "Ben", "colour": truth(game, "Ben")}))
    while game.timers():
        [timer] = game.timers()
        steps.append((timer.seconds, timer.action.args["left"]))
        events = game.apply(timer.action)
    assert steps == [(30.0, 30), (20.0, 10), (10.0, 0)]
    up = next(e for e in events if e.type == "time_up")
    assert [u["player"] for u in up.data["unnamed"]] == [p for p in ("Cem", "Anna")]
    assert game.scores["Cem"] == 0 and game.stage == "choose_stack"
    assert game.stacks[0].scored_by is not None


def test_short_time_limits_only_warn_what_fits() -> None:
    game = new_game(time_limit=20)
    play_rounds(game)
    game.apply(Action("stack", {"word": "Success"}))
    [timer] = game.timers()
    assert (timer.seconds, timer.action.args["left"]) == (10.0, 10)
    refused(game, Action("timer", {"turn": 0, "left": 0}), NotNow, "stale_timer")
    refused(game, Action("timer", {"turn": 1, "left": 10}), NotNow, "stale_timer")


# --- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "options", "key"),
    [
        (("Anna", "Ben"), {}, "player_count"),
        (("A", "B", "C", "D", "E", "F"), {}, "player_count"),
        (("Anna", "Ben", "Cem"), {"deck": "fr"}, "unknown_deck"),
        (("Anna", "Ben", "Cem"), {"time_limit": 5}, "bad_time_limit"),
        (("Anna", "Ben", "Cem"), {"time_limit": "60"}, "bad_time_limit"),
        (("Anna", "Ben", "Cem"), {"colour": "red"}, "unknown_option"),
        (("Anna", "Ben", "Cem"), {"words": "School/Holiday"}, "bad_words"),
        (("Anna", "Ben", "Cem"), {"words": [["School"]]}, "bad_card"),
        (("Anna", "Ben", "Cem"), {"words": [["School", " "]]}, "bad_word"),
        (("Anna", "Ben", "Cem"), {"words": [["School", "school"]]}, "same_sides"),
        (
            ("Anna", "Ben", "Cem"),
            {"words": [["School", "Work"], ["school", "Money"]]},
            "word_twice",
        ),
        (("Anna", "Ben", "Cem"), {"words": [["School", "W" * 41]]}, "word_too_long"),
        (("Anna", "Ben", "Cem"), {"words": [["a", "b"]] * 11}, "too_many_cards"),
        (("Anna", "Ben", "Cem"), {"words": [["Anna", "Holiday"]]}, "word_is_player"),
    ],
)
def test_impossible_setups_are_refused(players, options, key) -> None:
    with pytest.raises(SetupError) as info:
        Farben(Setup(players, 0, None, options))
    assert info.value.key == key


def test_cards_fixed_first_then_our_deck_without_repeats_and_seeded() -> None:
    setup = Setup(("Anna", "Ben", "Cem"), 3, None, {"deck": "de", "words": [["Schule", "Ferien"]]})
    cards = Farben(setup).cards
    assert len(cards) == ROUNDS and cards[0] == ("Schule", "Ferien")
    words = [w.casefold() for card in cards for w in card]
    assert len(set(words)) == len(words) and "urlaub" not in words[:2]
    assert all(card in load_deck("de") for card in cards[1:])
    assert Farben(setup).cards == cards  # the seed decides
    assert Farben(Setup(setup.players, 4, None, setup.options)).cards != cards


def test_deck_cards_with_a_players_name_are_left_out() -> None:
    deck = load_deck("en")
    player = deck[0][0]  # a player called like a word, e.g. "School"
    for seed in range(20):
        cards = Farben(Setup((player, "Ben", "Cem"), seed, None, {"deck": "en"})).cards
        assert deck[0] not in cards


def test_the_table_chooses_who_starts_or_draws_lots() -> None:
    game = Farben(Setup(("Anna", "Ben", "Cem"), 11, None, {"words": WORDS}))
    [welcome, ask] = game.start()
    assert ask.type == "ask_first" and ask.data["rule"] == "most_colourful"
    refused(game, Action("side", {"side": 1}), NotNow, "choose_first_now")
    refused(game, Action("first", {"player": "Zoe"}), NotAllowed, "unknown_player")
    first, card = game.apply(Action("first", {"random": True}))
    assert first.data["chosen_by"] == "lot" and card.data["player"] == first.data["player"]


# --- random games ----------------------------------------------------------------------------
JUNK = [
    Action("name", {"player": "Zoe", "colour": "red"}),
    Action("name", {"player": "Anna", "colour": "teal"}),
    Action("stack", {"word": "Atlantis"}),
    Action("side", {"word": "Atlantis"}),
    Action("side", {"side": 0}),
    Action("reveal", {"colour": "teal"}),
    Action("hint", {"player": "Zoe"}),
    Action("forgot"),
    Action("ready"),
    Action("done"),
    Action("timer", {"turn": 99, "left": 0}),
    Action("first", {"player": "Anna"}),
    Action("jump"),
    Action("ready", {"everyone": True}),
    Action("name", {"player": "Anna", "colour": "red", "points": 2}),
    Action("timer", {"id": "no-such-timer"}),
]


def test_random_games_end_never_crash_and_refusals_change_nothing() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        players = ("Anna", "Ben", "Cem", "Dana", "Emil")[: rng.choice((3, 4, 5))]
        options: dict = {"deck": rng.choice(("de", "en"))}
        if rng.random() < 0.5:
            options["time_limit"] = rng.choice((10, 25, 60))
        setup = Setup(players, seed, None, options)
        game = Farben(setup)
        game.start()
        history: list[Action] = []
        events = []
        while not game.is_over():
            assert len(history) < 2000
            for junk in rng.sample(JUNK, 3) + [Action("hint", {"player": game.current_player()})]:
                before = game.snapshot()
                try:
                    events += game.apply(junk)
                except GameError:
                    assert game.snapshot() == before, junk
                else:
                    history.append(junk)
                if game.is_over():
                    break
            if game.is_over():
                break
            choices = game.legal_actions() + [t.action for t in game.timers()]
            action = rng.choice(choices)
            events += game.apply(action)  # a legal action is always accepted
            history.append(action)
        result = game.result()
        assert set(result["scores"]) == set(players)
        assert result["winners"] and all(
            result["scores"][w] == max(result["scores"].values()) for w in result["winners"]
        )
        assert_points_follow_the_rules(game, events)
        replayed = Farben(setup)
        replayed.start()
        for action in history:
            replayed.apply(action)
        assert replayed.snapshot() == game.snapshot()


def assert_points_follow_the_rules(game: Farben, events: list) -> None:
    """Every point comes from a card named in the scoring phase, by the rulebook's table."""
    expected = {p: 0 for p in game.players}
    for event in events:
        if event.type != "named":
            continue
        d = event.data
        if not d["correct"]:
            points = (0, 0)
        elif d["own"]:
            points = (2, 0)
        else:
            points = (1, 1) if d["hint"] else (2, 1)
        assert (d["namer_points"], d["owner_points"]) == points, d
        expected[d["namer"]] += points[0]
        expected[d["player"]] += points[1]
    assert game.scores == expected


# --- questions -------------------------------------------------------------------------------
def test_a_name_nobody_has_is_answered_as_such() -> None:
    game = scoring_game()
    game.apply(Action("stack", {"word": "Success"}))
    before = game.snapshot()
    for heard, key, params in [
        ("zoe", "unknown_player", {"name": "Zoe"}),
        ("mary ann", "unknown_player", {"name": "Mary Ann"}),
        ("so yesterday my friend", "not_understood", {}),  # a sentence, not a name
        ("ben", "wait_naming", None),  # a player after all: say what the table waits for
        # a player's name inside words nobody could parse ("no Ben", "Anna Cem"): not
        # someone who is not at the table
        ("no ben", "not_understood", {}),
        ("anna cem", "not_understood", {}),
    ]:
        with pytest.raises(GameError) as info:
            game.query("unknown_player", {"stranger": heard})
        assert info.value.key == key
        assert params is None or info.value.params == params
    assert game.snapshot() == before


def test_what_the_table_can_ask_in_each_phase() -> None:
    game = new_game()
    [card] = game.query("words", {})
    assert (card.type, card.data["words"]) == ("card", ["Success", "Monday"])
    [pile] = game.query("stacks_left", {})
    assert (pile.type, pile.data) == ("stacks_so_far", {"words": [], "pile": 10})
    with pytest.raises(NotNow):
        game.query("left_to_name", {})
    game.apply(Action("side", {"word": "Success"}))
    game.apply(Action("ready"))
    [left] = game.query("left_to_name", {})
    assert (left.type, left.data["players"]) == ("left_to_tell", ["Ben", "Cem", "Anna"])
    [word] = game.query("words", {})
    assert (word.type, word.data["word"]) == ("round_word", "Success")
    [status] = game.status()
    assert status.data == {"phase": "rounds", "scores": game.scores, "round": 1, "rounds": 10}
    play_rounds(game)
    [stacks] = game.query("stacks_left", {})
    assert stacks.type == "stacks_left" and len(stacks.data["words"]) == 10
    game.apply(Action("stack", {"word": "Success"}))
    [naming] = game.query("left_to_name", {})
    assert naming.data["players"] == ["Ben", "Cem", "Anna"]
    [status] = game.status()
    assert (status.data["phase"], status.data["turns_left"]) == ("scoring", 9)


def test_undo_and_confirmations_name_every_move() -> None:
    game = new_game()
    assert game.describe(Action("side", {"side": 2})).data["word"] == "Monday"
    game.apply(Action("side", {"side": 1}))
    game.apply(Action("ready"))
    reveal = game.describe(Action("reveal", {"colour": "red"}))
    assert (reveal.type, reveal.data["player"], reveal.data["word"]) == (
        "action_reveal",
        "Ben",
        "Success",
    )
    play_rounds(game)
    stack = game.describe(Action("stack", {"word": "Success"}))
    assert (stack.data["chooser"], stack.data["namer"]) == ("Cem", "Anna")
    game.apply(Action("stack", {"word": "Success"}))
    name = game.describe(Action("name", {"player": "Ben", "colour": "red"}))
    assert (name.type, name.data["namer"], name.data["owner"]) == ("action_name", "Anna", "Ben")
    game.apply(Action("hint", {"player": "Cem"}))
    assert game.describe(Action("forgot")).data["owner"] == "Cem"
    assert game.describe(Action("forgot")).data["gave_up"] is False
    assert game.describe(Action("forgot", {"player": "Ben"})).data["gave_up"] is True


def test_the_namer_may_not_know_a_colour_the_card_is_turned_over_without_points() -> None:
    game = scoring_game()
    namer = game.namer
    game.apply(Action("stack", {"word": game.stacks[1].word}))
    first, second = [p for p in game.unnamed() if p != namer]
    before = dict(game.scores)
    [gave_up] = game.apply(Action("forgot", {"player": first}))
    assert gave_up.type == "gave_up" and gave_up.data["truth"] == truth(game, first)
    assert gave_up.data["reveals"] and game.scores == before
    assert first not in game.unnamed()
    refused(game, Action("name", {"player": first, "colour": truth(game, first)}), NotAllowed,
            "already_named")  # fmt: skip
    # with only one card left, "I don't know" can only mean that one
    game.apply(Action("name", {"player": second, "colour": truth(game, second)}))
    events = game.apply(Action("forgot"))
    assert events[0].type == "gave_up" and events[0].data["own"] is True


def test_a_wrong_answer_says_the_truth_and_is_marked_as_revealing() -> None:
    game = scoring_game()
    namer = game.namer
    game.apply(Action("stack", {"word": game.stacks[1].word}))
    other = next(p for p in game.unnamed() if p != namer)
    wrong = next(c for c in ("red", "blue") if c != truth(game, other))
    [named] = game.apply(Action("name", {"player": other, "colour": wrong}))
    assert named.data["correct"] is False and named.data["reveals"] is True
