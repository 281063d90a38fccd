"""Rules of Alle meine Farben as the engine runs them (no voice involved)."""

from __future__ import annotations

import pytest

from games.alle_meine_farben import CELLS, AlleMeineFarben, column_of, row_of
from games.engine import Action, NotAllowed, NotNow, Setup, SetupError

# A full colouring that respects the rules: colour index (row + 2*column) mod 7.
ORDER = ["red", "yellow", "green", "blue", "orange", "pink", "purple"]
VALID = {n: ORDER[(row_of(n) - 1 + 2 * (column_of(n) - 1)) % 7] for n in range(1, CELLS + 1)}


def game(players=("Anna", "Ben", "Cem"), variant="basic", first="Anna", seed=1):
    g = AlleMeineFarben(Setup(tuple(players), seed, first, {"variant": variant}))
    g.start()
    return g


def place(g, colour, **extra):
    return g.apply(Action("place", {"colour": colour, **extra}))


def test_grid_positions_follow_the_numbering():
    assert (row_of(1), column_of(1)) == (1, 1)
    assert (row_of(5), column_of(5)) == (1, 5)
    assert (row_of(6), column_of(6)) == (2, 1)
    assert (row_of(20), column_of(20)) == (4, 5)


def test_turns_go_clockwise_from_the_first_player_and_objects_go_in_order():
    g = game()
    assert (g.current_player(), g.number) == ("Anna", 1)
    place(g, "red")
    assert (g.current_player(), g.number) == ("Ben", 2)
    place(g, "green")
    assert (g.current_player(), g.number) == ("Cem", 3)


def test_a_colour_twice_in_a_row_is_refused_with_the_place_where_it_lies():
    g = game()
    place(g, "purple")
    before = g.snapshot()
    with pytest.raises(NotAllowed) as err:
        place(g, "purple")
    assert err.value.key == "colour_in_row"
    assert err.value.params["index"] == 1 and err.value.params["other"] == 1
    assert g.snapshot() == before


def test_a_colour_twice_in_a_column_is_refused():
    g = game()
    for n in range(1, 6):
        place(g, VALID[n])
    with pytest.raises(NotAllowed) as err:
        place(g, VALID[1])  # number 6 is under number 1
    assert err.value.key == "colour_in_column"
    assert err.value.params["other"] == 1


def test_naming_another_object_is_corrected_and_changes_nothing():
    g = game()
    before = g.snapshot()
    with pytest.raises(NotAllowed) as err:
        place(g, "red", object=5)
    assert err.value.key == "wrong_object" and err.value.params["number"] == 1
    assert g.snapshot() == before
    place(g, "red", object=1)
    assert g.board[1].colour == "red"


def test_pass_discards_and_draws_and_the_next_player_tries_the_same_object():
    g = game()
    place(g, VALID[1])  # now one colour no longer fits number 2
    pile = g.pile
    player = g.current_player()
    events = g.apply(Action("pass"))
    assert [e.type for e in events] == ["passed", "turn"]
    assert (g.number, g.pile, g.hands[player]) == (2, pile - 1, 3)
    assert g.current_player() != player


def test_passing_is_refused_while_every_colour_still_fits():
    g = game()
    before = g.snapshot()
    with pytest.raises(NotAllowed) as err:
        g.apply(Action("pass"))  # number 1: any card in the hand fits
    assert err.value.key == "pass_not_needed" and err.value.params == {"number": 1}
    assert g.snapshot() == before
    assert Action("pass") not in g.legal_actions()


def test_draw_pile_is_tracked_from_28_cards():
    g = game(players=("Anna", "Ben"))
    assert g.pile == 28 - 2 * 3
    for n in range(1, 11):
        place(g, VALID[n])
    assert g.pile == 22 - 10
    assert g.hands == {"Anna": 3, "Ben": 3}


def test_once_the_pile_is_empty_hands_shrink_and_empty_hands_are_skipped():
    g = game(players=("Anna", "Ben"))
    place(g, VALID[1])  # a colour is blocked for number 2, so passing is allowed
    for _ in range(21):  # 21 passes empty the pile; hands stay full
        g.apply(Action("pass"))
    assert g.pile == 0 and g.hands == {"Anna": 3, "Ben": 3}
    for _ in range(5):
        g.apply(Action("pass"))
    assert g.hands == {"Anna": 0, "Ben": 1} and g.current_player() == "Ben"
    events = g.apply(Action("pass"))
    assert events[-1].type == "game_over" and g.result() == {"coloured": 1, "won": False}


def test_all_twenty_coloured_wins_together():
    g = game()
    for n in range(1, CELLS + 1):
        events = place(g, VALID[n])
    assert events[-1].type == "game_over"
    assert g.result() == {"coloured": 20, "won": True}
    assert g.is_over()
    with pytest.raises(NotNow):
        place(g, "red")


def test_no_fitting_colour_left_ends_the_game():
    g = game(players=("Anna",), first=None)
    # Row 4 (16-19) and column 5 (5, 10, 15) hold all seven colours around number 20.
    blocked = [
        "yellow",
        "red",
        "blue",
        "green",
        "orange",
        "green",
        "blue",
        "red",
        "yellow",
        "pink",
        "blue",
        "green",
        "yellow",
        "red",
        "purple",
        "red",
        "yellow",
        "green",
    ]
    for colour in blocked:
        place(g, colour)
    events = place(g, "blue")  # number 19
    assert [e.type for e in events][-2:] == ["no_colour_fits", "game_over"]
    assert g.result() == {"coloured": 19, "won": False}


def test_a_fifth_card_of_a_colour_does_not_exist():
    g = game(players=("Anna",), first=None)
    uses = {"red": [1, 7, 13, 19]}  # diagonal positions never share row or column
    for n in range(1, 20):
        if n in uses["red"]:
            place(g, "red")
        else:
            place(g, next(c for c in g.allowed_colours() if c != "red"))
        if n == 19:
            break
    assert "red" not in g.allowed_colours()


def test_allowed_colours_query_lists_what_fits():
    g = game()
    place(g, "red")
    events = g.query("allowed_colours", {})
    assert events[0].data["colours"] == [c for c in ORDER if c != "red"]


def test_asking_about_one_colour_says_whether_it_fits():
    g = game()
    place(g, "red")
    (no,) = g.query("allowed_colours", {"colour": "red"})
    assert no.type == "colour_allowed" and no.data["ok"] is False
    assert "red" not in no.data["colours"]
    (yes,) = g.query("allowed_colours", {"colour": "blue"})
    assert yes.data["ok"] is True and yes.data["number"] == 2


def test_board_queries_read_rows_and_columns_and_reject_impossible_lines():
    g = game()
    place(g, "red")
    row = g.query("board_row", {"index": 1})[0].data["cells"]
    assert row[0] == {"number": 1, "state": "coloured", "colour": "red"}
    assert row[1] == {"number": 2, "state": "empty"}
    col = g.query("board_column", {"index": 1})[0].data["cells"]
    assert [c["number"] for c in col] == [1, 6, 11, 16]
    for name, index in (("board_row", 5), ("board_column", 6), ("board_row", 0)):
        with pytest.raises(NotAllowed):
            g.query(name, {"index": index})


def test_profi_accepts_rule_breaking_colours_silently_and_never_tells():
    g = game(variant="profi", first=None, seed=5)
    first = g.current_player()
    assert first in g.players
    place(g, "red")
    events = place(g, "red")  # breaks the row rule: accepted, nothing said about it
    # the colour named aloud is said back, but not that it breaks the rule
    assert [e.type for e in events] == ["placed_hidden", "turn"]
    assert events[0].data["colour"] == "red"
    with pytest.raises(NotAllowed) as err:
        g.query("allowed_colours", {})
    assert err.value.key == "secret_in_profi"
    with pytest.raises(NotAllowed):
        g.apply(Action("pass"))
    row = g.query("board_row", {"index": 1})[0].data["cells"]
    assert row[0] == {"number": 1, "state": "hidden"}


def test_profi_reveal_gives_one_penalty_per_card_even_when_it_clashes_twice():
    g = game(players=("Anna", "Ben"), variant="profi", first="Anna")  # Anna lays odd numbers
    colours = dict(VALID)
    colours[7] = "yellow"  # Anna: yellow already lies at 6 in row 2
    colours[10] = "purple"  # frees a green card for number 12
    colours[12] = "green"  # Ben: green at 11 (row 3) and at 2 (column 2): one penalty
    events = []
    for n in range(1, CELLS + 1):
        events = place(g, colours[n])
    penalised = {
        e.data["number"]: e.data["player"]
        for e in events
        if e.type == "revealed" and e.data["penalty"]
    }
    assert penalised == {7: "Anna", 12: "Ben"}
    assert g.result() == {"penalties": {"Anna": 1, "Ben": 1}, "winners": ["Anna", "Ben"]}


def test_profi_reveal_counts_only_cards_revealed_before():
    g = game(players=("Anna", "Ben"), variant="profi", first="Anna")
    colours = dict(VALID)
    colours[2] = "red"  # same as number 1; 1 is revealed first, so 2 is the clash
    events = []
    for n in range(1, CELLS + 1):
        events = place(g, colours[n])
    clashes = [e.data["number"] for e in events if e.type == "revealed" and e.data["penalty"]]
    assert clashes == [2]
    assert g.result() == {"penalties": {"Anna": 0, "Ben": 1}, "winners": ["Anna"]}


def test_first_player_is_asked_for_unless_given():
    g = AlleMeineFarben(Setup(("Anna", "Ben"), 1))
    events = g.start()
    assert events[-1].type == "ask_first" and g.current_player() is None
    with pytest.raises(NotNow):
        g.apply(Action("place", {"colour": "red"}))
    with pytest.raises(NotAllowed):
        g.apply(Action("first", {"player": "Zoe"}))
    g.apply(Action("first", {"player": "Ben"}))
    assert g.current_player() == "Ben"


def test_drawing_lots_for_the_first_player_depends_only_on_the_seed():
    picks = set()
    for seed in range(20):
        g = AlleMeineFarben(Setup(("Anna", "Ben", "Cem"), seed))
        g.start()
        g.apply(Action("first", {"random": True}))
        again = AlleMeineFarben(Setup(("Anna", "Ben", "Cem"), seed))
        again.start()
        again.apply(Action("first", {"random": True}))
        assert g.current_player() == again.current_player()
        picks.add(g.current_player())
    assert picks == {"Anna", "Ben", "Cem"}


@pytest.mark.parametrize(
    ("players", "options", "key"),
    [
        ((), {}, "player_count"),
        (("A",) * 7, {}, "player_count"),
        (("Anna", "anna"), {}, "player_name_twice"),
        (("Anna", " "), {}, "player_name_empty"),
        (("Anna",), {"variant": "profi"}, "player_count"),
        (("Anna", "Ben"), {"variant": "extreme"}, "unknown_variant"),
    ],
)
def test_impossible_setups_are_refused(players, options, key):
    with pytest.raises(SetupError) as err:
        AlleMeineFarben(Setup(players, 0, None, options))
    assert err.value.key == key
