"""The assistant as a player: a seat at the table that farbspiel plays itself.

Pure and seeded, like the engines: every decision is a function of the game's setup
(seed, the seat's name and level) and of what a person in that seat could know at that
moment. Nothing here reads a clock or keeps hidden state that a replay could not rebuild;
the session asks :func:`next_turn` whenever the game has changed, and applies the action
it gets like a player's (journalled, so a replay is identical).

What it may know:

* Farben: its own colour cards (it holds a virtual set of 12), the word cards, and every
  colour said aloud when a player revealed it. What it *remembers* of those is decided
  per (word, player) by a random generator seeded with the game's seed, the seat and the
  level — so it is fixed the moment the colour is revealed, and the same on every replay.
  It never looks at a face-down colour it was not told.
* Alle meine Farben (basic, cooperative): the board (face up), the cards lying face up in
  front of its own seat (the table told it which), and how many copies of each colour the
  box holds.

Its words are events too (types beginning with ``assistant_``): the voice layer says
them in the assistant's own voice, with its name before them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.data import DataError, load
from games.engine import JSON, Action, Event, Game, Setup
from games.seat import Seat


@dataclass(frozen=True)
class Turn:
    """What the assistant does next: say ``say`` (in its own voice), then apply
    ``action`` (``None``: it only speaks, e.g. a hint word)."""

    say: tuple[Event, ...] = ()
    action: Action | None = None


@dataclass
class Notes:
    """What the session observed that is not part of the game state: whether the hint
    the assistant asked for has been said, and which hint it has given itself."""

    hint_heard: bool = False
    hint_given: tuple[int, str] | None = None  # (scoring turn, namer)


def _rng(setup: Setup, seat: Seat, *parts: Any) -> random.Random:
    """A generator for one decision; a string seed hashes the same on every run."""
    return random.Random(":".join(str(p) for p in (setup.seed, seat.name, seat.level, *parts)))


def waits_for_hint(game: Game, seat: Seat) -> bool:
    """Whether the assistant asked someone for a hint and waits for them to say it (the
    session tells it, through :class:`Notes`, once that person has spoken)."""
    if game.game_id != "farben":
        return False
    g: Any = game
    return bool(
        g.stage == "naming" and g.namer == seat.name and g.hint_pending not in (None, seat.name)
    )


def next_turn(game: Game, seat: Seat, notes: Notes | None = None) -> Turn | None:
    """The assistant's next step in ``game``, or ``None`` when it is not its turn."""
    notes = notes or Notes()
    if game.is_over():
        return None
    if game.game_id == "farben":
        return _farben_turn(game, seat, notes)
    if game.game_id == "alle-meine-farben":
        return _amf_turn(game, seat)
    return None


# ======================================================================================
# Farben
# ======================================================================================
@dataclass(frozen=True)
class Association:
    colour: str
    story: str
    hint: str


@dataclass(frozen=True)
class Level:
    sure: float
    """Chance that a revealed colour of another player is remembered for sure."""
    vague: float
    """Chance that it is only half remembered (a hint brings it back, probably)."""
    own: float
    """Chance that it remembers its own colour."""
    after_hint_vague: float
    after_hint_lost: float
    decay: float
    """How much less likely a colour of the first round is remembered than one of the last."""


LEVEL_MEMORY: Mapping[str, Level] = {
    "easy": Level(0.30, 0.30, 0.80, 0.55, 0.25, 0.15),
    "normal": Level(0.55, 0.25, 0.93, 0.75, 0.35, 0.10),
    "hard": Level(0.80, 0.14, 1.00, 0.92, 0.50, 0.05),
}

_ASSOCIATIONS: dict[str, dict[str, list[Association]]] = {}


def associations(lang: str) -> dict[str, list[Association]]:
    """``games/data/farben_associations_<lang>.yaml``: word → associations (by word key).

    Raises :class:`DataError` naming the entry if the file was edited into something
    the assistant cannot use.
    """
    if lang in _ASSOCIATIONS:
        return _ASSOCIATIONS[lang]
    from games.farben import COLOURS, key

    where = f"games/data/farben_associations_{lang}.yaml"
    try:
        data = load(f"farben_associations_{lang}")
    except DataError:
        data = {}
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise DataError(key="data_associations", where=where)
    found: dict[str, list[Association]] = {}
    for word, entries in data.items():
        if not isinstance(entries, list):
            raise DataError(key="data_associations_list", where=where, word=str(word))
        items = []
        for entry in entries:
            if (
                not isinstance(entry, Mapping)
                or entry.get("colour") not in COLOURS
                or not isinstance(entry.get("story"), str)
                or not isinstance(entry.get("hint"), str)
                or not entry["story"].strip()
                or not entry["hint"].strip()
            ):
                raise DataError(key="data_association", where=where, word=str(word))
            items.append(
                Association(entry["colour"], entry["story"].strip(), entry["hint"].strip())
            )
        found[key(str(word))] = items
    _ASSOCIATIONS[lang] = found
    return found


def fallback_stories(lang: str) -> dict[str, list[Association]]:
    """Stories for a word without associations (a deck of one's own): per colour, with
    ``{word}`` standing for the word (``games/data/farben_assistant_<lang>.yaml``)."""
    data = load(f"farben_assistant_{lang}")
    return {
        colour: [Association(colour, e["story"], e["hint"]) for e in entries]
        for colour, entries in data["fallback"].items()
    }


def _lang(game: Any) -> str:
    return str(game.deck) if getattr(game, "deck", None) in ("de", "en") else "en"


def farben_choice(game: Any, seat: Seat, word: str) -> Association:
    """The colour (and story) the assistant plays for ``word``, from its hand."""
    from games.farben import key

    hand = game.colours_in_hand(seat.name)
    rng = _rng(game.setup, seat, "colour", key(word))
    lang = _lang(game)
    options = [a for a in associations(lang).get(key(word), []) if a.colour in hand]
    if options:
        return rng.choice(options)
    fallback = fallback_stories(lang)
    colour = rng.choice([c for c in hand if c in fallback] or hand)
    stories = fallback.get(colour) or [Association(colour, "{word}.", word)]
    story = rng.choice(stories)
    return Association(colour, story.story.format(word=word), story.hint.format(word=word))


def farben_story(game: Any, seat: Seat, word: str, colour: str) -> Association:
    """The story it told for ``word`` with ``colour`` (the same every time it is asked)."""
    from games.farben import key

    lang = _lang(game)
    matching = [a for a in associations(lang).get(key(word), []) if a.colour == colour]
    if matching:
        return _rng(game.setup, seat, "story", key(word), colour).choice(matching)
    stories = fallback_stories(lang).get(colour) or [Association(colour, "{word}.", word)]
    story = _rng(game.setup, seat, "story", key(word), colour).choice(stories)
    return Association(colour, story.story.format(word=word), story.hint.format(word=word))


def memory(game: Any, seat: Seat, stack: Any, player: str) -> str:
    """How well the assistant remembers ``player``'s colour on ``stack``: ``"sure"``,
    ``"vague"`` or ``"lost"``. Decided by a generator seeded for this one reveal, so it
    is the same whenever it is asked (and on every replay)."""
    from games.farben import key

    level = LEVEL_MEMORY[seat.level]
    rng = _rng(game.setup, seat, "memory", key(stack.word), player)
    draw = rng.random()
    if player == seat.name:
        return "sure" if draw < level.own else "lost"
    rounds = max(1, len(game.stacks) - 1)
    age = (len(game.stacks) - 1 - game.stacks.index(stack)) / rounds  # 0 newest, 1 oldest
    sure = max(0.0, level.sure - level.decay * age)
    if draw < sure:
        return "sure"
    if draw < sure + level.vague:
        return "vague"
    return "lost"


def _recalls_after_hint(game: Any, seat: Seat, stack: Any, player: str) -> bool:
    from games.farben import key

    level = LEVEL_MEMORY[seat.level]
    chance = (
        level.after_hint_vague
        if memory(game, seat, stack, player) == "vague"
        else level.after_hint_lost
    )
    return _rng(game.setup, seat, "hint", key(stack.word), player).random() < chance


def _guess(game: Any, seat: Seat, stack: Any, player: str) -> str:
    """A colour for ``player`` on ``stack`` when memory fails: one they could have played
    (not one it is sure they played for another word, nor one turned over elsewhere)."""
    from games.farben import COLOURS, key

    elsewhere = set()
    for other in game.stacks:
        if other is stack or player not in other.colours:
            continue
        if player in other.revealed or memory(game, seat, other, player) == "sure":
            elsewhere.add(other.colours[player])
    candidates = [c for c in COLOURS if c not in elsewhere] or list(COLOURS)
    return _rng(game.setup, seat, "guess", key(stack.word), player).choice(candidates)


def _farben_turn(game: Any, seat: Seat, notes: Notes) -> Turn | None:
    me = seat.name
    phase = game.stage
    if phase == "side" and game.starter == me:
        return _farben_side(game, seat)
    if phase == "reveal" and game.teller == me:
        choice = farben_choice(game, seat, game.word)
        say = Event("assistant_reveal", {"player": me, "word": game.word, "colour": choice.colour})
        return Turn((say,), Action("reveal", {"colour": choice.colour}))
    if phase == "story" and game.teller == me:
        colour = game.stacks[-1].colours[me]
        story = farben_story(game, seat, game.word, colour)
        say = Event("assistant_story", {"player": me, "word": game.word, "story": story.story})
        return Turn((say,), Action("done"))
    if phase == "choose_stack" and game.chooser == me:
        left = [s.word for s in game.stacks if s.scored_by is None]
        word = _rng(game.setup, seat, "stack", game.turn).choice(left)
        say = Event("assistant_stack", {"player": me, "word": word, "namer": game.namer})
        return Turn((say,), Action("stack", {"word": word}))
    if phase == "naming" and game.hint_pending == me and game.namer != me:
        return _farben_give_hint(game, seat, notes)
    if phase == "naming" and game.namer == me:
        return _farben_name(game, seat, notes)
    return None


def _farben_side(game: Any, seat: Seat) -> Turn:
    from games.farben import key

    card = game.cards[game.round]
    known = associations(_lang(game))
    with_stories = [i for i, w in enumerate(card) if known.get(key(w))]
    rng = _rng(game.setup, seat, "side", game.round)
    side = rng.choice(with_stories or [0, 1])
    word = card[side]
    say = Event("assistant_side", {"player": seat.name, "word": word})
    return Turn((say,), Action("side", {"side": side + 1}))


def _farben_give_hint(game: Any, seat: Seat, notes: Notes) -> Turn | None:
    stack = game.stack
    me = seat.name
    if memory(game, seat, stack, me) != "sure":
        say = Event("assistant_forgot", {"player": me, "namer": game.namer, "word": stack.word})
        return Turn((say,), Action("forgot"))
    marker = (game.turn, game.namer)
    if notes.hint_given == marker:
        return None  # said already; the namer names the colour now
    notes.hint_given = marker
    story = farben_story(game, seat, stack.word, stack.colours[me])
    say = Event("assistant_hint", {"player": me, "namer": game.namer, "hint": story.hint})
    return Turn((say,))


def _farben_name(game: Any, seat: Seat, notes: Notes) -> Turn | None:
    stack = game.stack
    me = seat.name
    if game.hint_pending is not None:
        owner = game.hint_pending
        if not notes.hint_heard:
            return None  # the owner is saying the hint word
        notes.hint_heard = False
        if _recalls_after_hint(game, seat, stack, owner):
            return _name(seat, owner, stack.colours[owner], after_hint=True)
        return _name(seat, owner, _guess(game, seat, stack, owner), unsure=True)
    notes.hint_heard = False
    unnamed = game.unnamed()
    if not unnamed:
        return None
    owner = unnamed[0]
    state = memory(game, seat, stack, owner)
    if state == "sure":
        return _name(seat, owner, stack.colours[owner])
    can_ask = owner != me and owner not in game.hinted and owner not in game.forgot
    wants_hint = state == "vague" or (state == "lost" and seat.level != "easy")
    if can_ask and wants_hint:
        say = Event("assistant_ask_hint", {"player": me, "owner": owner, "word": stack.word})
        return Turn((say,), Action("hint", {"player": owner}))
    return _name(seat, owner, _guess(game, seat, stack, owner), unsure=True)


def _name(
    seat: Seat, owner: str, colour: str, after_hint: bool = False, unsure: bool = False
) -> Turn:
    data: dict[str, JSON] = {
        "player": seat.name,
        "owner": owner,
        "colour": colour,
        "own": owner == seat.name,
        "after_hint": after_hint,
        "unsure": unsure,
    }
    return Turn(
        (Event("assistant_name", data),), Action("name", {"player": owner, "colour": colour})
    )


# ======================================================================================
# Alle meine Farben (basic)
# ======================================================================================
def _amf_turn(game: Any, seat: Seat) -> Turn | None:
    if game.profi or game.stage != "play" or game.waiting_cards:
        return None
    if game.turn != seat.name:
        return None
    hand = list(game.face_up)
    if not hand:
        return None
    number = game.number
    helper = _left_person(game, seat)
    legal = [c for c in dict.fromkeys(hand) if c in game.allowed_colours()]
    if legal:
        colour = amf_choose(game, seat, legal)
        data = {"player": seat.name, "number": number, "colour": colour, "helper": helper}
        return Turn((Event("assistant_place", data),), Action("place", {"colour": colour}))
    discard = amf_discard(game, seat, hand)
    data = {"player": seat.name, "number": number, "colour": discard, "helper": helper}
    return Turn((Event("assistant_pass", data),), Action("pass", {"colour": discard}))


def _left_person(game: Any, seat: Seat) -> str | None:
    """The person who lays the assistant's card for it: its left neighbour."""
    from games.engine import left_of

    person = left_of(game.players, seat.name)
    return None if person == seat.name else person


def _remaining(game: Any) -> dict[str, int]:
    """Copies of each colour not on the board and not put aside by the assistant."""
    from games.alle_meine_farben import COLOURS, COPIES

    left = {c: COPIES for c in COLOURS}
    for card in game.board.values():
        left[card.colour] -= 1
    for colour in game.face_out:
        left[colour] -= 1
    return left


def _free_cells(board: Mapping[int, Any], start: int) -> list[int]:
    from games.alle_meine_farben import CELLS

    return [n for n in range(start, CELLS + 1) if n not in board]


def _fits(board: Mapping[int, str], number: int, colour: str) -> bool:
    from games.alle_meine_farben import column_numbers, column_of, row_numbers, row_of

    for other in row_numbers(row_of(number)) + column_numbers(column_of(number)):
        if other != number and board.get(other) == colour:
            return False
    return True


def _flexibility(board: Mapping[int, str], copies: Mapping[str, int], start: int) -> float:
    """How open the rest of the grid stays: for every empty cell, how many colours still
    fit it (with copies left), counting nearly-blocked cells heavily."""
    from games.alle_meine_farben import CELLS, COLOURS

    score = 0.0
    for number in range(start, CELLS + 1):
        options = sum(1 for c in COLOURS if copies[c] > 0 and _fits(board, number, c))
        score += -10.0 if options == 0 else -1.0 / options
    return score


ROLLOUTS = 32
"""Simulated continuations per possible move at level hard."""


def _plan(game: Any, seat: Seat, moves: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Level hard: for each move (``("place"|"pass", colour)``), how well the table does
    in :data:`ROLLOUTS` simulated continuations after it: a game won counts 100 plus the
    cards still to spare, a game lost the objects it coloured.

    Only what the seat knows goes in: the board, its own face-up cards and the ones it
    put aside, how many cards everyone holds and the pile. The other hands and the pile
    are drawn at random from the cards not accounted for (the same draws for every
    move, so the moves are compared on equal terms); in the simulation everyone plays a
    random card that fits, and passes when none does.
    """
    from games.alle_meine_farben import CELLS, COLOURS, COPIES

    pool = [c for c, n in _remaining(game).items() for _ in range(n)]
    for colour in game.face_up:
        pool.remove(colour)
    wins = dict.fromkeys(moves, 0)
    base = {n: c.colour for n, c in game.board.items()}
    for index in range(ROLLOUTS):
        world = _rng(game.setup, seat, "plan", game.number, len(game.face_out), index)
        cards = list(pool)
        world.shuffle(cards)
        hands0 = {}
        for player in game.players:
            if player == seat.name:
                hands0[player] = list(game.face_up)
            else:
                hands0[player] = [cards.pop() for _ in range(min(game.hands[player], len(cards)))]
        pile0 = cards[: game.pile]
        for move in moves:
            play = random.Random(world.random())
            board = dict(base)
            placed = {c: 0 for c in COLOURS}
            for colour in board.values():
                placed[colour] += 1
            hands = {p: list(h) for p, h in hands0.items()}
            pile = list(pile0)
            number = game.number
            player = seat.name
            kind, colour = move
            while True:
                hand = hands[player]
                hand.remove(colour)
                if kind == "place":
                    board[number] = colour
                    placed[colour] += 1
                    number += 1
                if pile:
                    hand.append(pile.pop())
                if number > CELLS:  # won; the more cards to spare, the safer it was
                    wins[move] += 100 + len(pile) + sum(len(h) for h in hands.values())
                    break
                if not any(placed[c] < COPIES and _fits(board, number, c) for c in COLOURS):
                    wins[move] += number - 1  # lost, with this many coloured
                    break
                nxt = None
                seats = list(game.players)
                at = seats.index(player)
                for step in range(1, len(seats) + 1):
                    candidate = seats[(at + step) % len(seats)]
                    if hands[candidate]:
                        nxt = candidate
                        break
                if nxt is None:
                    wins[move] += number - 1  # nobody holds a card: lost
                    break
                player = nxt
                hand = hands[player]
                fits = [c for c in hand if placed[c] < COPIES and _fits(board, number, c)]
                if fits:
                    kind, colour = "place", play.choice(fits)
                else:
                    kind, colour = "pass", play.choice(hand)
    return wins


def amf_choose(game: Any, seat: Seat, legal: list[str]) -> str:
    """Which of its legal colours the assistant plays on the current object."""
    rng = _rng(game.setup, seat, "place", game.number, len(game.face_out))
    if seat.level == "easy" or len(legal) == 1:
        return rng.choice(legal)
    board = {n: c.colour for n, c in game.board.items()}
    copies = _remaining(game)
    hand = list(game.face_up)
    scores: dict[str, float] = {}
    plan = _plan(game, seat, [("place", c) for c in legal]) if seat.level == "hard" else {}
    for colour in legal:
        board[game.number] = colour
        copies[colour] -= 1
        flex = _flexibility(board, copies, game.number + 1)
        # keep colours that are still needed: cards of which few copies are left are
        # worth more later; holding two of a colour makes one of them cheap to play
        scarcity = 0.3 * (hand.count(colour) - 1) + 0.1 * copies[colour]
        score = flex + scarcity + 10.0 * plan.get(("place", colour), 0)
        scores[colour] = score + rng.random() * 1e-6
        copies[colour] += 1
        del board[game.number]
    return max(legal, key=lambda c: scores[c])


def amf_discard(game: Any, seat: Seat, hand: list[str]) -> str:
    """The card it puts aside when nothing fits: one whose colour is needed least."""
    rng = _rng(game.setup, seat, "discard", game.number, len(game.face_out))
    if seat.level == "easy":
        return rng.choice(hand)
    board = {n: c.colour for n, c in game.board.items()}
    free = _free_cells(game.board, game.number)

    def need(colour: str) -> float:
        places = sum(1 for n in free if _fits(board, n, colour))
        return places - 2.0 * (hand.count(colour) - 1)

    options = list(dict.fromkeys(hand))
    if seat.level == "hard" and len(options) > 1:
        plan = _plan(game, seat, [("pass", c) for c in options])
        return max(options, key=lambda c: (plan[("pass", c)], -need(c), rng.random()))
    return min(options, key=lambda c: (need(c), rng.random()))
