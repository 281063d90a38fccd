"""The Pantone engine: turns, timers, points, the two-player rule, teams, modes, secrets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import (
    Action,
    Event,
    GameError,
    NotAllowed,
    NotNow,
    Setup,
    SetupError,
    Timer,
    replay,
)
from games.pantone import GUESS_SECONDS, PHYSICAL_GUESS_SECONDS, Pantone

NAMES = [
    "Mr. Potato Head",
    "Pinocchio",
    "Spider-Man",
    "Superman",
    "Tick",
    "Trick",
    "Snow White",
    "Little Red Riding Hood",
    "Peter Pan",
    "Captain Hook",
    "Mario",
    "Luigi",
    "The Grinch",
    "Elsa",
    "Olaf",
    "Shrek",
]
DECK = [
    {"name": n, "aliases": [], "hints": [f"{n[:2]} one", "second", "third", "fourth"]}
    for n in NAMES
]
DECK[0] = {
    "name": "Mr. Potato Head",
    "aliases": ["Potato Head"],
    "hints": ["Plastic", "Comes apart", "Vegetable", "Toy Story"],
}
PLAYERS3 = ("Anna", "Ben", "Cem")


def game(
    players: tuple[str, ...] = PLAYERS3, first: str | None = "Anna", **options: Any
) -> Pantone:
    g = Pantone(Setup(players, 7, first, {"deck": DECK, **options}))
    g.start()
    return g


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def clock(g: Pantone) -> Timer | None:
    """The timer the game wants running now (at most one)."""
    running = g.timers()
    assert len(running) <= 1
    return running[0] if running else None


def fire(g: Pantone) -> list[Event]:
    """Let the running timer run out."""
    due = clock(g)
    assert due is not None
    return g.apply(due.action)


def paint(g: Pantone, card: int = 1) -> list[Event]:
    """Choose ``card`` and finish painting early; guessing starts."""
    g.apply(Action("choose", {"card": card}))
    return g.apply(Action("done"))


def nobody_in_round(g: Pantone) -> list[Event]:
    events: list[Event] = []
    for _ in g.queue[:]:
        events += g.apply(Action("pass"))
    return events


# --- a turn -----------------------------------------------------------------------------
def test_creation_timer_speaks_thirty_ten_and_times_up() -> None:
    g = game()
    events = g.apply(Action("choose", {"card": 1}))
    assert ("create_start", 60) == (events[-1].type, events[-1].data["seconds"])
    assert (t := clock(g)) is not None and t.seconds == 30
    assert fire(g) == [Event("time_left", {"seconds": 30})]
    assert (t := clock(g)) is not None and t.seconds == 20
    assert fire(g) == [Event("time_left", {"seconds": 10})]
    assert (t := clock(g)) is not None and t.seconds == 10
    events = fire(g)
    assert types(events) == ["times_up", "guessing_starts", "guess_turn"]
    assert events[-1].data["player"] == "Ben"  # left of the Artist
    assert (t := clock(g)) is not None and t.seconds == GUESS_SECONDS


def test_speed_painter_has_thirty_seconds() -> None:
    g = game(speed=True)
    events = g.apply(Action("choose", {"card": 1}))
    assert events[-1].data["seconds"] == 30
    assert (t := clock(g)) is not None and t.seconds == 20
    assert fire(g) == [Event("time_left", {"seconds": 10})]
    assert types(fire(g))[0] == "times_up"


def test_done_ends_creation_early_and_stops_the_clock() -> None:
    g = game()
    g.apply(Action("choose", {"card": 1}))
    first_timer = clock(g)
    assert first_timer is not None
    events = g.apply(Action("done"))
    assert types(events) == ["done_early", "guessing_starts", "guess_turn"]
    assert (t := clock(g)) is not None and t.id != first_timer.id
    with pytest.raises(NotNow):
        g.apply(first_timer.action)


def test_silence_is_a_pass_and_hints_come_in_order() -> None:
    g = game()
    paint(g, card=2)
    hints = []
    for _ in range(4):
        events = fire(g) + fire(g)  # Ben and Cem stay silent
        assert types(events)[:2] == ["no_guess", "guess_turn"]
        hint = next(e for e in events if e.type == "hint")
        hints.append((hint.data["round"], hint.data["hint"]))
    assert hints == [(1, "Pi one"), (2, "second"), (3, "third"), (4, "fourth")]


@pytest.mark.parametrize(("round_", "points"), [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1)])
def test_points_for_guesser_and_artist_by_round(round_: int, points: int) -> None:
    g = game()
    paint(g, card=1)
    for _ in range(round_):
        nobody_in_round(g)
    g.apply(Action("pass"))  # Ben passes, Cem guesses right
    events = g.apply(Action("guess", {"text": "mister potato head"}))
    guessed = events[0]
    assert guessed.type == "guessed"
    assert guessed.data["scorers"] == ["Cem", "Anna"]
    assert guessed.data["points"] == points
    assert guessed.data["name"] == "Mr. Potato Head"
    assert g.scores == {"Anna": points, "Ben": 0, "Cem": points}
    assert g.artist == "Ben" and g.stage == "choose"


def test_nobody_after_hint_four_scores_nothing_and_reveals() -> None:
    g = game()
    paint(g, card=2)
    events: list[Event] = []
    for _ in range(5):
        events = nobody_in_round(g)
    reveal = next(e for e in events if e.type == "nobody_guessed")
    assert reveal.data == {
        "artist": "Anna",
        "physical": False,
        "name": "Pinocchio",
        "card": 2,
        "reveals": True,
    }
    assert g.scores == {"Anna": 0, "Ben": 0, "Cem": 0}
    assert g.artist == "Ben"


def test_wrong_guess_passes_the_window_on() -> None:
    g = game()
    paint(g, card=1)
    events = g.apply(Action("guess", {"text": "pinocchio"}))
    assert events[0] == Event("wrong_guess", {"player": "Ben", "guess": "Pinocchio"})
    assert events[1].type == "guess_turn" and events[1].data["player"] == "Cem"


def test_near_miss_is_a_wrong_guess() -> None:
    g = game()
    paint(g, card=3)  # Spider-Man
    assert g.apply(Action("guess", {"text": "superman"}))[0].type == "wrong_guess"
    assert g.apply(Action("guess", {"text": "spider woman"}))[0].type == "wrong_guess"
    events = g.apply(Action("guess", {"text": "spiderman"}))  # Ben again, after hint 1
    assert events[0].type == "guessed"


def test_two_players_only_the_guesser_scores() -> None:
    g = game(players=("Anna", "Ben"))
    paint(g, card=1)
    events = g.apply(Action("guess", {"text": "potato head"}))
    assert events[0].data["scorers"] == ["Ben"]
    assert g.scores == {"Anna": 0, "Ben": 5}
    paint(g, card=2)  # Ben paints, Anna guesses after one silent window
    fire(g)
    g.apply(Action("guess", {"text": "pinocchio"}))
    assert g.scores == {"Anna": 4, "Ben": 5}


def test_a_card_is_played_only_once() -> None:
    g = game()
    paint(g, card=1)
    g.apply(Action("guess", {"text": "potato head"}))
    before = g.snapshot()
    with pytest.raises(NotAllowed) as refused:
        g.apply(Action("choose", {"card": 1}))
    assert refused.value.key == "card_used"
    with pytest.raises(NotAllowed):
        g.apply(Action("choose", {"card": 99}))
    assert g.snapshot() == before


def test_three_phases_everyone_artist_once_each_then_winners() -> None:
    g = game()
    artists, phases = [], []
    card = 1
    while not g.is_over():
        artists.append(g.artist)
        phases.append((g.phase, g.rule()))
        paint(g, card)
        g.apply(Action("guess", {"text": NAMES[card - 1]}))
        card += 1
    assert artists == ["Anna", "Ben", "Cem"] * 3
    assert [p for p, _ in phases[::3]] == [1, 2, 3]
    assert [r for _, r in phases[::3]] == ["any", "one_each", "three"]
    # Each player scored 5 three times as the Artist and three times as the guesser.
    assert g.result() == {
        "scores": {"Anna": 30, "Ben": 30, "Cem": 30},
        "winners": ["Anna", "Ben", "Cem"],
    }


def test_minimalist_and_abstract_rules_hold_in_every_phase() -> None:
    assert {game(minimalist=True).rule(p) for p in (1, 2, 3)} == {"three"}
    assert {game(abstract=True).rule(p) for p in (1, 2, 3)} == {"abstract"}
    with pytest.raises(SetupError):
        Pantone(Setup(PLAYERS3, 1, None, {"deck": DECK, "minimalist": True, "abstract": True}))


def test_first_artist_is_asked_for_unless_given() -> None:
    g = game(first=None)
    assert g.stage == "choose_first" and g.expecting().intents == {"choose_first", "random_first"}
    events = g.apply(Action("first", {"player": "Cem"}))
    assert types(events) == ["first", "phase", "artist"]
    assert g.artist == "Cem"


# --- penalties ---------------------------------------------------------------------------
def test_penalty_costs_one_point_any_time() -> None:
    g = game()
    g.apply(Action("choose", {"card": 1}))
    assert g.apply(Action("penalty", {"player": "Cem"})) == [
        Event("penalty", {"player": "Cem", "score": -1})
    ]
    assert g.stage == "create"  # painting goes on


def test_right_guess_out_of_turn_still_scores_for_the_artist() -> None:
    g = game()
    paint(g, card=1)
    g.apply(Action("pass"))  # round 0 done for Ben; Cem's window
    events = g.apply(Action("penalty", {"player": "Ben", "right": True}))
    assert types(events)[:2] == ["penalty", "blurted_right"]
    assert events[1].data["scorers"] == ["Anna"] and events[1].data["points"] == 5
    assert g.scores == {"Anna": 5, "Ben": -1, "Cem": 0}
    assert g.artist == "Ben"
    with pytest.raises(NotAllowed):  # the Artist cannot blurt their own card
        paint(g, card=2)
        g.apply(Action("penalty", {"player": "Ben", "right": True}))


# --- card choice modes ---------------------------------------------------------------------
def test_dealt_cards_are_private_discard_then_choose() -> None:
    g = Pantone(Setup(PLAYERS3, 3, "Anna", {"deck": DECK, "cards": "deal"}))
    events = g.start()
    hand_event = next(e for e in events if e.type == "hand")
    assert hand_event.to == "Anna" and len(hand_event.data["cards"]) == 4
    assert g.stage == "discard"
    hand = list(g.hands["Anna"])
    outsider = next(n for n in range(1, 17) if n not in hand)
    with pytest.raises(NotAllowed):
        g.apply(Action("discard", {"card": outsider}))
    with pytest.raises(NotNow):
        g.apply(Action("choose", {"card": hand[0]}))
    events = g.apply(Action("discard", {"card": hand[0]}))
    assert types(events) == ["discarded", "hand", "artist"]
    assert events[1].to == "Anna" and len(events[1].data["cards"]) == 3
    with pytest.raises(NotAllowed):
        g.apply(Action("choose", {"card": outsider}))
    events = g.apply(Action("choose", {"card": hand[1]}))
    secret = next(e for e in events if e.type == "your_character")
    assert secret.to == "Anna" and secret.data["card"] == hand[1]
    assert g.hands["Anna"] == hand[2:]


def test_dealt_last_card_can_be_taken_with_ready() -> None:
    g = Pantone(Setup(("Anna", "Ben"), 5, "Anna", {"deck": DECK, "cards": "deal"}))
    g.start()
    while not g.is_over():
        if g.stage == "discard":
            g.apply(Action("discard", {"card": g.hands[g.artist][0]}))
        elif g.stage == "choose":
            if len(g.hands[g.artist]) == 1:
                events = g.apply(Action("ready"))
                assert "your_character" in types(events)
            else:
                g.apply(Action("choose", {"card": g.hands[g.artist][0]}))
        else:
            g.apply(Action("done"))
            for _ in range(5):
                g.apply(Action("pass"))
    assert g.phase == 3 and all(not hand for hand in g.hands.values())


def test_physical_cards_the_artist_judges_and_reads_hints() -> None:
    g = game(cards="physical")
    with pytest.raises(NotAllowed):
        g.apply(Action("choose", {"card": 3}))
    events = g.apply(Action("ready"))
    assert "your_character" not in types(events)
    g.apply(Action("done"))
    assert (t := clock(g)) is not None and t.seconds == PHYSICAL_GUESS_SECONDS
    events = g.apply(Action("guess", {"text": "pinocchio"}))
    assert events == [Event("ask_verdict", {"player": "Ben", "artist": "Anna"})]
    assert clock(g) is None  # waits for the Artist
    assert types(g.apply(Action("wrong"))) == ["judged_wrong", "guess_turn"]
    events = fire(g)  # Cem stays silent: the Artist reads hint 1
    assert types(events) == ["no_guess", "read_hint"]
    assert g.stage == "hint"
    g.apply(Action("done"))
    events = g.apply(Action("correct", {"player": "Cem"}))
    assert events[0].data["physical"] is True and "name" not in events[0].data
    assert g.scores == {"Anna": 4, "Ben": 0, "Cem": 4}


def test_physical_hint_reading_times_out_into_guessing() -> None:
    g = game(cards="physical")
    g.apply(Action("ready"))
    g.apply(Action("done"))
    fire(g)
    fire(g)
    assert g.stage == "hint"
    assert types(fire(g)) == ["guess_turn"]


def test_engine_judges_when_it_knows_the_card() -> None:
    g = game()
    paint(g, card=1)
    with pytest.raises(NotAllowed):
        g.apply(Action("correct"))


# --- teams ------------------------------------------------------------------------------------
TEAMS = [["Anna", "Cem"], ["Ben", "Dan"]]


def test_teams_artists_team_guesses_first_and_teams_score() -> None:
    g = game(players=("Anna", "Ben", "Cem", "Dan"), first="Anna", teams=TEAMS)
    assert list(g.scores) == ["Team A", "Team B"]
    events = paint(g, card=1)
    order = next(e for e in events if e.type == "guessing_starts").data["order"]
    assert [o["player"] for o in order] == ["Team A", "Team B"]
    assert order[0]["members"] == ["Cem"]  # the Artist does not guess
    assert g.current_player() is None  # anyone of the team may speak
    g.apply(Action("guess", {"text": "pinocchio"}))  # Team A wrong
    g.apply(Action("pass"))  # Team B passes
    events = g.apply(Action("guess", {"text": "potato head"}))  # Team A, after hint 1
    assert events[0].data["scorers"] == ["Team A"] and events[0].data["points"] == 4
    assert g.scores == {"Team A": 4, "Team B": 0}
    assert g.apply(Action("penalty", {"player": "Dan"}))[0].data["team"] == "Team B"
    assert g.scores == {"Team A": 4, "Team B": -1}


def test_teams_first_artist_is_drawn_by_lot() -> None:
    g = Pantone(Setup(("Anna", "Ben", "Cem", "Dan"), 11, None, {"deck": DECK, "teams": TEAMS}))
    events = g.start()
    first = next(e for e in events if e.type == "first")
    assert first.data["chosen_by"] == "lot" and g.stage == "choose"


@pytest.mark.parametrize(
    "teams",
    [
        [["Anna", "Ben", "Cem"], ["Dan"]],
        [["Anna", "Ben"], ["Cem", "Eve"]],
        [["Anna", "Ben"], ["Ben", "Dan"]],
        "Anna,Ben",
    ],
)
def test_bad_teams_are_refused(teams: Any) -> None:
    with pytest.raises(SetupError):
        Pantone(Setup(("Anna", "Ben", "Cem", "Dan"), 1, None, {"deck": DECK, "teams": teams}))


# --- renaissance -------------------------------------------------------------------------------
def test_renaissance_plays_to_the_target_and_goes_round_the_phases() -> None:
    g = game(players=("Anna", "Ben"), target=12)
    card = 1
    phase_events = []
    while not g.is_over():
        events = paint(g, card)
        events += g.apply(Action("guess", {"text": NAMES[card - 1]}))
        phase_events += [e for e in events if e.type == "phase"]
        card += 1
    assert [e.data.get("like") for e in phase_events] == [None, None]  # phases 2 and 3
    assert g.outcome == "target" and g.scores == {"Anna": 10, "Ben": 15}
    assert g.result()["winners"] == ["Ben"]


def test_renaissance_phase_four_is_like_phase_one() -> None:
    g = game(players=("Anna", "Ben"), target=100)
    events: list[Event] = []
    for card in range(1, 8):
        events += paint(g, card)
        for _ in range(5):
            events += g.apply(Action("pass"))
    phase4 = next(e for e in events if e.type == "phase" and e.data["phase"] == 4)
    assert phase4.data == {"phase": 4, "rule": "any", "like": 1}


def test_renaissance_ends_when_the_deck_is_used_up() -> None:
    g = game(players=("Anna", "Ben"), target=100)
    for card in range(1, len(DECK) + 1):
        paint(g, card)
        for _ in range(5):
            g.apply(Action("pass"))
    assert g.is_over() and g.outcome == "deck_used_up"


# --- secrets, robustness ---------------------------------------------------------------------
def test_the_character_never_appears_in_public_events_before_the_reveal() -> None:
    rng = random.Random(5)
    for seed in range(30):
        options = {"deck": DECK, "cards": rng.choice(["number", "deal"])}
        g = Pantone(Setup(PLAYERS3, seed, "Anna", options))
        events = g.start()
        while not g.is_over():
            before = g.card
            action = random.Random(seed * 1000 + len(events)).choice(g.legal_actions())
            try:
                new = g.apply(action)
            except GameError:
                continue
            card = g.card if g.card is not None else before
            secret = DECK[card - 1]["name"] if card else None
            for event in new:
                if event.type in ("guessed", "nobody_guessed", "blurted_right"):
                    break
                if event.to is None and secret is not None and event.type != "wrong_guess":
                    assert secret not in json.dumps(event.data, ensure_ascii=False), event
            events += new
        hands = [e for e in events if e.type in ("hand", "your_character")]
        assert all(e.to is not None for e in hands)


MODES: list[dict[str, Any]] = [
    {},
    {"cards": "deal"},
    {"cards": "physical"},
    {"speed": True, "minimalist": True},
    {"abstract": True, "target": 9},
    {"teams": "alternate"},
    {"teams": "alternate", "cards": "physical", "target": 7},
]


def _options(mode: dict[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    options = {"deck": DECK, **mode}
    if options.get("teams") == "alternate":
        options["teams"] = [list(players[0::2]), list(players[1::2])]
    return options


@pytest.mark.parametrize("mode", MODES, ids=[json.dumps(m) for m in MODES])
def test_random_games_end_and_refusals_change_nothing(mode: dict[str, Any]) -> None:
    junk = [
        Action("guess", {"text": ""}),
        Action("guess", {"text": 5}),
        Action("choose", {"card": 0}),
        Action("choose", {"card": "12"}),
        Action("discard", {"card": 99}),
        Action("penalty", {"player": "Zoe"}),
        Action("correct", {"player": "Zoe"}),
        Action("timer", {"id": "create-999"}),
        Action("timer", {"clock": "create", "turn": "9.9", "left": 30}),
        Action("fly"),
        Action("first", {"player": "Zoe"}),
    ]
    for seed in range(40):
        rng = random.Random(seed)
        players = ("Anna", "Ben", "Cem", "Dan")[: 4 if "teams" in mode else rng.choice([2, 3, 4])]
        setup = Setup(players, seed, None, _options(mode, players))
        g = Pantone(setup)
        g.start()
        taken: list[Action] = []
        for _ in range(3000):
            if g.is_over():
                break
            if rng.random() < 0.2:
                before = json.dumps(g.snapshot(), sort_keys=True)
                with pytest.raises(GameError):
                    g.apply(rng.choice(junk))
                assert json.dumps(g.snapshot(), sort_keys=True) == before
                continue
            # Penalties are legal at any time; favour the moves that drive the game on.
            legal = g.legal_actions()
            moves = [a for a in legal if a.name != "penalty"] or legal
            action = rng.choice(moves if rng.random() < 0.95 else legal)
            g.apply(action)
            taken.append(action)
            g.expecting()
            g.prompt()
            g.status()
        assert g.is_over(), f"seed {seed} did not finish"
        assert set(g.result()) >= {"scores", "winners"}
        again = replay(Pantone(setup), taken)
        assert again.snapshot() == g.snapshot()


def test_bad_setups_are_refused() -> None:
    with pytest.raises(SetupError):
        players = ("Anna", "Ben", "Cem", "Team A")
        Pantone(
            Setup(players, 1, None, {"deck": DECK, "teams": [["Anna", "Cem"], ["Ben", "Team A"]]})
        )
    with pytest.raises(SetupError) as small:
        Pantone(Setup(PLAYERS3 + ("Dan", "Eve", "Fay"), 1, None, {"deck": DECK}))
    assert small.value.key == "deck_too_small"
    with pytest.raises(SetupError) as broken:
        Pantone(Setup(PLAYERS3, 1, None, {"deck": [{"name": "X"}]}))
    assert broken.value.key == "bad_deck"
    with pytest.raises(SetupError):
        Pantone(Setup(PLAYERS3, 1, None, {"deck": DECK, "cards": "telepathy"}))
    with pytest.raises(SetupError):
        Pantone(Setup(("Anna",), 1, None, {"deck": DECK}))
