"""The assistant's strategy in Farben (see :mod:`games.assistant` for what it may know):
its own colour cards (a virtual set of 12), the word cards, and every colour said aloud
when a player revealed it, remembered per (word, player) by a seeded generator."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.assistant_turn import Notes, Turn, decision_rng
from games.data import DataError, load
from games.engine import JSON, Action, Event
from games.farben import COLOURS, Farben, key
from games.seat import Seat


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

    hand = game.colours_in_hand(seat.name)
    rng = decision_rng(game.setup, seat, "colour", key(word))
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

    lang = _lang(game)
    matching = [a for a in associations(lang).get(key(word), []) if a.colour == colour]
    if matching:
        return decision_rng(game.setup, seat, "story", key(word), colour).choice(matching)
    stories = fallback_stories(lang).get(colour) or [Association(colour, "{word}.", word)]
    story = decision_rng(game.setup, seat, "story", key(word), colour).choice(stories)
    return Association(colour, story.story.format(word=word), story.hint.format(word=word))


def memory(game: Any, seat: Seat, stack: Any, player: str) -> str:
    """How well the assistant remembers ``player``'s colour on ``stack``: ``"sure"``,
    ``"vague"`` or ``"lost"``. Decided by a generator seeded for this one reveal, so it
    is the same whenever it is asked (and on every replay)."""

    level = LEVEL_MEMORY[seat.level]
    rng = decision_rng(game.setup, seat, "memory", key(stack.word), player)
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

    level = LEVEL_MEMORY[seat.level]
    chance = (
        level.after_hint_vague
        if memory(game, seat, stack, player) == "vague"
        else level.after_hint_lost
    )
    return decision_rng(game.setup, seat, "hint", key(stack.word), player).random() < chance


def _guess(game: Any, seat: Seat, stack: Any, player: str) -> str:
    """A colour for ``player`` on ``stack`` when memory fails: one they could have played
    (not one it is sure they played for another word, nor one turned over elsewhere)."""

    elsewhere = set()
    for other in game.stacks:
        if other is stack or player not in other.colours:
            continue
        if player in other.revealed or memory(game, seat, other, player) == "sure":
            elsewhere.add(other.colours[player])
    candidates = [c for c in COLOURS if c not in elsewhere] or list(COLOURS)
    return decision_rng(game.setup, seat, "guess", key(stack.word), player).choice(candidates)


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
        word = decision_rng(game.setup, seat, "stack", game.turn).choice(left)
        say = Event("assistant_stack", {"player": me, "word": word, "namer": game.namer})
        return Turn((say,), Action("stack", {"word": word}))
    if phase == "naming" and game.hint_pending == me and game.namer != me:
        return _farben_give_hint(game, seat, notes)
    if phase == "naming" and game.namer == me:
        return _farben_name(game, seat, notes)
    return None


def _farben_side(game: Any, seat: Seat) -> Turn:

    card = game.cards[game.round]
    known = associations(_lang(game))
    with_stories = [i for i, w in enumerate(card) if known.get(key(w))]
    rng = decision_rng(game.setup, seat, "side", game.round)
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


def waits_for_hint(game: Farben, seat: Seat) -> bool:
    """Whether the assistant asked someone for a hint and waits for them to say it (the
    session tells it, through :class:`Notes`, once that person has spoken)."""
    return bool(
        game.stage == "naming"
        and game.namer == seat.name
        and game.hint_pending not in (None, seat.name)
    )


def next_turn(game: Farben, seat: Seat, notes: Notes) -> Turn | None:
    return _farben_turn(game, seat, notes)
