"""Farben: associate a colour with a word, tell why, and later remember who chose what.

Rounds (10): the starting player picks a side of the next word card; everybody lays a
colour card face down ("ready"); then, beginning left of the starting player and ending
with them, each player reveals and names their colour, tells their story and says
"done". Every player owns one set of 12 colour cards, so each colour can be played at
most once per player and game. The finished stack (word card + everyone's card, face
down) is put aside and the role of starting player moves clockwise.

Scoring phase: the last starting player begins, then clockwise. The player to the right
of the current player chooses a stack (by its word); the current player names the colour
of every player's card on it, in any order, their own included. Correct: 2 points to the
namer and 1 to the owner (own colour: 2 in total); correct after a hint from the owner:
1 point each; wrong: no points, and the true colour is announced. Nobody gives a hint
for one's own colour, and an owner who does not remember their colour cannot give one.
Each player scores 3 stacks with 3 players, 2 with 4 or 5. An optional time limit per
turn is announced in steps (30 and 10 seconds left, time's up) through engine timers;
colours not named in time score nothing.

What stays secret (this is a memory game): a card's colour is said aloud when its owner
reveals it in the round, then the card lies face down again and the engine never tells
it until the card is turned over in the scoring phase (named, or the turn ran out of
time). Word cards on the stacks, the points and whose turn it is are public, as on the
real table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.data import DataError, load
from games.engine import (
    JSON,
    Action,
    Ambiguous,
    Event,
    Expectation,
    Game,
    GameError,
    Move,
    NotAllowed,
    NotNow,
    Setup,
    SetupError,
    Timer,
    right_of,
    seats_from,
    winners,
)
from games.seat import seat_of
from words.text import normalize

COLOURS: tuple[str, ...] = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "pink",
    "white",
    "black",
    "grey",
    "brown",
    "multicoloured",
)
"""The 12 colour cards of every player's set, in the order farbspiel lists them."""

ROUNDS = 10
STACKS_EACH: Mapping[int, int] = {3: 3, 4: 2, 5: 2}
"""Stacks every player scores, by number of players."""

DECKS = ("de", "en")
MAX_WORD_LENGTH = 40
TIME_LIMIT_RANGE = (10, 3600)
WARNINGS = (30, 10)
"""Seconds left at which a timed turn is warned (only those shorter than the limit)."""

OPTIONS = frozenset({"deck", "words", "time_limit", "assistant"})


def load_deck(lang: str) -> list[tuple[str, str]]:
    """The word cards of our own deck for ``lang`` (``games/data/farben_words_<lang>``).

    Raises :class:`DataError` naming the card if the file was edited into something
    that cannot be played.
    """
    if lang not in DECKS:
        raise SetupError("unknown_deck", deck=lang, decks=list(DECKS))
    where = f"games/data/farben_words_{lang}.yaml"
    data = load(f"farben_words_{lang}")
    if not isinstance(data, list) or len(data) < ROUNDS:
        raise DataError(key="data_words_list", where=where, rounds=ROUNDS)
    cards = []
    for number, card in enumerate(data, start=1):
        if not (isinstance(card, list) and len(card) == 2 and all(_sayable(w) for w in card)):
            raise DataError(key="data_words_card", where=where, card=number, limit=MAX_WORD_LENGTH)
        cards.append((card[0].strip(), card[1].strip()))
    return cards


def _sayable(word: Any) -> bool:
    return (
        isinstance(word, str)
        and 0 < len(word.strip()) <= MAX_WORD_LENGTH
        and any(c.isalpha() for c in word)
        and not set("[](){}<>|") & set(word)
    )


def key(word: str) -> str:
    """How two words are compared: case, spacing and punctuation do not matter."""
    return normalize(word).casefold()


@dataclass
class Stack:
    """One word card with the colour cards played for it (face down unless revealed)."""

    word: str
    card: tuple[str, str]
    starter: str
    colours: dict[str, str] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    scored_by: str | None = None


@dataclass
class Naming:
    """One colour named in the scoring phase."""

    colour: str
    correct: bool
    hint: bool


class Farben(Game):
    game_id = "farben"
    min_players = 3
    max_players = 5
    first_rule = "most_colourful"
    setup_limits = {"time_low": TIME_LIMIT_RANGE[0], "time_high": TIME_LIMIT_RANGE[1]}
    moves = {
        "side": Move("_apply_side", ("side", "word")),
        "ready": Move("_apply_ready"),
        "reveal": Move("_apply_reveal", ("colour", "player")),
        "done": Move("_apply_done"),
        "stack": Move("_apply_stack", ("word", "player")),
        "name": Move("_apply_name", ("player", "colour")),
        "hint": Move("_apply_hint", ("player",)),
        "forgot": Move("_apply_forgot", ("player",)),
        "timer": Move("_apply_timer", ("turn", "left")),
    }
    questions = {
        "words": "_ask_words",
        "stacks_left": "_ask_stacks_left",
        "left_to_name": "_ask_left_to_name",
        "colour_of": "_ask_colour_of",
        "colours_left": "_ask_colours_left",
        "time_left": "_ask_time_left",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        unknown = set(setup.options) - OPTIONS
        if unknown:
            raise SetupError("unknown_option", option=sorted(unknown)[0])
        deck = setup.options.get("deck", "en")
        if not isinstance(deck, str):
            raise SetupError("unknown_deck", deck=str(deck), decks=list(DECKS))
        self.deck = deck
        self.seat = seat_of(setup)  # the engine plays no differently; checked here
        self.time_limit = _time_limit(setup.options.get("time_limit"))
        self.cards: list[tuple[str, str]] = self._deal(_fixed_words(setup.options.get("words")))
        self.stacks_each = STACKS_EACH[len(self.players)]
        self.stage = "choose_first"
        self.first: str = self.players[0]
        self.round = 0  # index of the current round, 0..ROUNDS-1
        self.starter: str = self.players[0]
        self.tellers: list[str] = []
        self.stacks: list[Stack] = []
        self.scores: dict[str, int] = {p: 0 for p in self.players}
        # scoring phase
        self.turn = 0  # index of the current scoring turn
        self.order: list[str] = []  # scoring turns go round this seat order
        self.stack: Stack | None = None  # the stack being scored
        self.named: dict[str, Naming] = {}
        self.hinted: set[str] = set()
        self.forgot: set[str] = set()
        self.hint_pending: str | None = None
        self.gained = 0
        self.warnings_given = 0  # time warnings given in this turn

    def _deal(self, fixed: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The fixed cards first, then cards of our deck shuffled by the seed.

        Deck cards with a word already on the table or equal to a player's name are left
        out, so every word names one stack and never a player.
        """
        names = {key(p) for p in self.players}
        for word in (w for card in fixed for w in card):
            if key(word) in names:
                raise SetupError("word_is_player", word=word, players=list(self.players))
        taken = {key(w) for card in fixed for w in card} | names
        deck = load_deck(self.deck)
        self.rng.shuffle(deck)
        cards = list(fixed)
        for card in deck:
            if len(cards) >= ROUNDS:
                break
            if key(card[0]) in taken or key(card[1]) in taken:
                continue
            cards.append(card)
            taken |= {key(card[0]), key(card[1])}
        return cards

    # --- starting ------------------------------------------------------------------
    def start(self) -> list[Event]:
        events = [
            Event(
                "welcome",
                {
                    "players": list(self.players),
                    "rounds": ROUNDS,
                    "stacks_each": self.stacks_each,
                    "time_limit": self.time_limit,
                },
            )
        ]
        return events + self._opening()

    def _begin(self, player: str, chosen_by: str) -> list[Event]:
        self.first = player
        events = [Event("first", {"player": player, "chosen_by": chosen_by})]
        return events + self._start_round(0)

    def _start_round(self, index: int) -> list[Event]:
        self.round = index
        self.starter = seats_from(self.players, self.first)[index % len(self.players)]
        self.stage = "side"
        return [self._card_event()]

    # --- what the session asks ------------------------------------------------------
    @property
    def word(self) -> str | None:
        """The word of the current round's stack, once its side is chosen."""
        if self.stage in ("choosing", "reveal", "story"):
            return self.stacks[-1].word
        return None

    @property
    def teller(self) -> str:
        return self.tellers[0]

    @property
    def namer(self) -> str:
        return self.order[self.turn % len(self.players)]

    @property
    def chooser(self) -> str:
        return right_of(self.players, self.namer)

    def current_player(self) -> str | None:
        if self.stage == "side":
            return self.starter
        if self.stage in ("reveal", "story"):
            return self.teller
        if self.stage == "choose_stack":
            return self.chooser
        if self.stage == "naming":
            return self.namer
        return None

    def expecting(self) -> Expectation:
        # Questions that make sense now; colours may only be asked for once cards are
        # turned over, which happens in the scoring phase.
        rounds = {"words", "stacks_left", "status", "colours_left"}
        scoring = rounds | {"colour_of"}
        scored = tuple(s.word for s in self.stacks if s.revealed)
        if self.stage == "choose_first":
            return Expectation(frozenset({"choose_first", "random_first"}))
        if self.stage == "side":
            card = self.cards[self.round]
            return Expectation(frozenset({"choose_side"} | rounds), self.starter, {"word": card})
        if self.stage == "choosing":
            # "done" counts as "ready" here (the adapter says so); both end the choosing.
            return Expectation(frozenset({"ready", "done"} | rounds), quiet=True)
        if self.stage == "reveal":
            hand = tuple(self.colours_in_hand(self.teller))
            intents = frozenset({"reveal", "left_to_name"} | rounds)
            return Expectation(intents, self.teller, {"colour": hand})
        if self.stage == "story":
            intents = frozenset({"done", "left_to_name"} | rounds)
            return Expectation(intents, self.teller, quiet=True)
        if self.stage == "choose_stack":
            left = tuple(s.word for s in self.stacks if s.scored_by is None)
            return Expectation(
                frozenset({"choose_stack"} | scoring), self.chooser, {"word": left + scored}
            )
        if self.stage == "naming":
            heard = {"name_colour", "hint", "left_to_name", "forgot", "dont_know"} | scoring
            if self.time_limit is not None:
                heard.add("time_left")
            quiet = self.hint_pending is not None  # the owner says their hint word now
            assert self.stack is not None
            words = (self.stack.word,) + tuple(w for w in scored if w != self.stack.word)
            return Expectation(frozenset(heard), self.namer, {"word": words}, quiet)
        return Expectation(frozenset())

    def legal_actions(self) -> list[Action]:
        if self.stage == "choose_first":
            return [Action("first", {"player": p}) for p in self.players] + [
                Action("first", {"random": True})
            ]
        if self.stage == "side":
            card = self.cards[self.round]
            return [Action("side", {"side": 1}), Action("side", {"side": 2})] + [
                Action("side", {"word": w}) for w in card
            ]
        if self.stage == "choosing":
            return [Action("ready")]
        if self.stage == "reveal":
            return [Action("reveal", {"colour": c}) for c in self.colours_in_hand(self.teller)]
        if self.stage == "story":
            return [Action("done")]
        if self.stage == "choose_stack":
            return [Action("stack", {"word": s.word}) for s in self.stacks if s.scored_by is None]
        if self.stage == "naming":
            unnamed = self.unnamed()
            actions = [Action("name", {"player": p, "colour": c}) for p in unnamed for c in COLOURS]
            actions += [
                Action("hint", {"player": p})
                for p in unnamed
                if p != self.namer and p not in self.hinted and p not in self.forgot
            ]
            if self.hint_pending is not None:
                actions.append(Action("forgot"))
            return actions
        return []

    # --- applying ------------------------------------------------------------------
    def _not_now(self) -> GameError:
        return self._wait()

    def _wait(self) -> NotNow:
        """The error for an action that does not fit: says what the table waits for."""
        if self.stage == "over":
            return NotNow("game_is_over")
        return NotNow("wait_" + self.stage, **self._situation())

    def _situation(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"player": self.current_player()}
        if self.stage == "side":
            data["words"] = list(self.cards[self.round])
        elif self.stage in ("choosing", "reveal", "story"):
            data["word"] = self.word
        elif self.stage == "choose_stack":
            data.update(player=self.namer, chooser=self.chooser)
        elif self.stage == "naming":
            assert self.stack is not None
            data["word"] = self.stack.word
        return data

    def _apply_side(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "side":
            raise self._wait()
        card = self.cards[self.round]
        if "side" in args:
            side = args["side"]
            if side not in (1, 2) or isinstance(side, bool):
                raise NotAllowed("no_such_side", side=str(side), words=list(card))
            word = card[int(side) - 1]
        else:
            named = args.get("word")
            matches = [w for w in card if isinstance(named, str) and key(w) == key(named)]
            if not matches:
                raise NotAllowed("word_not_on_card", word=str(named), words=list(card))
            word = matches[0]
        self.stacks.append(Stack(word, card, self.starter))
        self.tellers = seats_from(self.players, self.starter)[1:] + [self.starter]
        self.stage = "choosing"
        data = {"round": self.round + 1, "player": self.starter, "word": word}
        return [Event("word_chosen", data)]

    def _apply_ready(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "choosing":
            raise self._wait()
        self.stage = "reveal"
        return [self._tell_event(first=True)]

    def _apply_reveal(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "reveal":
            raise self._wait()
        teller = self.teller
        player = args.get("player")
        if player is not None and player != teller:
            if player not in self.players:
                raise NotAllowed("unknown_player", name=str(player))
            raise NotAllowed("not_your_turn_to_tell", player=player, teller=teller)
        colour = args.get("colour")
        if colour not in COLOURS:
            raise NotAllowed("unknown_colour", colour=str(colour), colours=list(COLOURS))
        if colour not in self.colours_in_hand(teller):
            # Deliberately without the colour or the word: that would give a card away.
            raise NotAllowed("card_already_played", player=teller)
        stack = self.stacks[-1]
        stack.colours[teller] = str(colour)
        self.stage = "story"
        explain = self.round == 0 and len(self.tellers) == len(self.players)  # the very first
        data = {"player": teller, "colour": colour, "word": stack.word, "explain": explain}
        return [Event("colour_told", data)]

    def _apply_done(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage == "reveal":
            raise NotAllowed("colour_first", player=self.teller, word=self.word)
        if self.stage != "story":
            raise self._wait()
        self.tellers.pop(0)
        if self.tellers:
            self.stage = "reveal"
            return [self._tell_event(first=False)]
        word = self.stacks[-1].word
        events = [Event("round_done", {"round": self.round + 1, "rounds": ROUNDS, "word": word})]
        if self.round + 1 < ROUNDS:
            return events + self._start_round(self.round + 1)
        return events + self._start_scoring()

    # --- scoring phase ---------------------------------------------------------------
    def _start_scoring(self) -> list[Event]:
        self.order = seats_from(self.players, self.starter)  # the last starter begins
        self.turn = 0
        self.stage = "choose_stack"
        start = Event(
            "scoring_start",
            {"player": self.namer, "stacks_each": self.stacks_each, "players": self.order},
        )
        return [start] + self._next_turn()

    def _apply_stack(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "choose_stack":
            raise self._wait()
        player = args.get("player")
        if player is not None and player != self.namer:
            if player not in self.players:
                raise NotAllowed("unknown_player", name=str(player))
            raise NotAllowed("stack_is_for", player=player, namer=self.namer)
        return self._take(self._find_stack(args.get("word")))

    def _take(self, stack: Stack) -> list[Event]:
        """The current player takes ``stack`` and starts naming its colours."""
        self.stack = stack
        self.named = {}
        self.hinted = set()
        self.forgot = set()
        self.hint_pending = None
        self.gained = 0
        self.warnings_given = 0
        self.stage = "naming"
        data: dict[str, JSON] = {
            "player": self.namer,
            "chooser": self.chooser,
            "word": stack.word,
            "players": self.unnamed(),
            "others": [p for p in self.unnamed() if p != self.namer],
            "time_limit": self.time_limit,
        }
        return [Event("stack_chosen", data)]

    def _next_turn(self) -> list[Event]:
        """The next player's turn; when a single stack is left there is nothing to choose."""
        self.stage = "choose_stack"
        left = [s for s in self.stacks if s.scored_by is None]
        if len(left) == 1:
            return [self._stack_turn_event()] + self._take(left[0])
        return [self._stack_turn_event()]

    def _find_stack(self, named: JSON) -> Stack:
        word = named if isinstance(named, str) else str(named)
        left = [s.word for s in self.stacks if s.scored_by is None]
        for stack in self.stacks:
            if key(stack.word) == key(word):
                if stack.scored_by is not None:
                    raise NotAllowed("stack_used", word=stack.word, by=stack.scored_by, left=left)
                return stack
            other = [w for w in stack.card if w != stack.word][0]
            if key(other) == key(word):
                raise NotAllowed("stack_other_side", word=other, stack=stack.word, left=left)
        raise NotAllowed("no_such_stack", word=word, left=left)

    def _apply_name(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "naming":
            raise self._wait()
        assert self.stack is not None
        colour = args.get("colour")
        if colour not in COLOURS:
            raise NotAllowed("unknown_colour", colour=str(colour), colours=list(COLOURS))
        owner = self._owner(args.get("player"), colour=str(colour))
        truth = self.stack.colours[owner]
        correct = truth == colour
        hint = owner in self.hinted
        own = owner == self.namer
        namer_points = owner_points = 0
        if correct:
            namer_points = 1 if hint else 2
            owner_points = 0 if own else 1
        self.scores[self.namer] += namer_points
        self.scores[owner] += owner_points
        self.gained += namer_points
        self.named[owner] = Naming(str(colour), correct, hint)
        self.stack.revealed.add(owner)
        self.hint_pending = None
        data: dict[str, JSON] = {
            "namer": self.namer,
            "player": owner,
            "colour": colour,
            "correct": correct,
            "hint": hint,
            "own": own,
            "namer_points": namer_points,
            "owner_points": owner_points,
            "to_name": self.unnamed(),
        }
        if not correct:
            data["truth"] = truth
            data["reveals"] = True  # the true colour is said: no taking this back
        events = [Event("named", data)]
        if not self.unnamed():
            events += self._finish_stack()
        return events

    def _owner(self, player: JSON, colour: str) -> str:
        """Whose card is named: the one said, or the only one it can be."""
        if player is None:
            if self.hint_pending is not None:
                return self.hint_pending
            unnamed = self.unnamed()
            if len(unnamed) == 1:
                return unnamed[0]
            raise Ambiguous("whose_colour", colour=colour, players=unnamed)
        if player not in self.players:
            raise NotAllowed("unknown_player", name=str(player))
        owner = str(player)
        if owner in self.named:
            raise NotAllowed("already_named", player=owner, colour=self._shown(owner))
        return owner

    def _shown(self, owner: str) -> str:
        assert self.stack is not None
        return self.stack.colours[owner]  # only ever called for turned-over cards

    def _apply_hint(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "naming":
            raise self._wait()
        player = args.get("player")
        if player is None:
            others = [p for p in self.unnamed() if p != self.namer]
            if len(others) != 1:
                raise Ambiguous("hint_from_whom", players=others)
            player = others[0]
        if player not in self.players:
            raise NotAllowed("unknown_player", name=str(player))
        owner = str(player)
        if owner == self.namer:
            raise NotAllowed("no_hint_for_own", player=owner)
        if owner in self.named:
            raise NotAllowed("already_named", player=owner, colour=self._shown(owner))
        if owner in self.forgot:
            raise NotAllowed("owner_forgot", player=owner)
        if owner in self.hinted:
            raise NotAllowed("already_hinted", player=owner, namer=self.namer)
        self.hinted.add(owner)
        self.hint_pending = owner
        return [Event("hint_asked", {"player": owner, "namer": self.namer})]

    def _apply_forgot(self, args: Mapping[str, JSON]) -> list[Event]:
        """ "I don't remember": from the owner asked for a hint, there is no hint; from the
        namer ("no idea what Cem had"), that card is turned over without points."""
        if self.stage != "naming":
            raise self._wait()
        owner = self.hint_pending
        if owner is None or args.get("player") is not None:
            return self._give_up(args.get("player"))
        self.hinted.discard(owner)
        self.forgot.add(owner)
        self.hint_pending = None
        return [Event("no_hint", {"player": owner, "namer": self.namer})]

    def _give_up(self, player: JSON) -> list[Event]:
        assert self.stack is not None
        if player is None and self.hint_pending is None and len(self.unnamed()) > 1:
            raise Ambiguous("which_card_unknown", players=self.unnamed())
        owner = self._owner(player, colour="")
        truth = self.stack.colours[owner]
        self.named[owner] = Naming("", False, owner in self.hinted)
        self.stack.revealed.add(owner)
        self.hint_pending = None
        data: dict[str, JSON] = {
            "namer": self.namer,
            "player": owner,
            "truth": truth,
            "own": owner == self.namer,
            "to_name": self.unnamed(),
            "reveals": True,
        }
        events = [Event("gave_up", data)]
        if not self.unnamed():
            events += self._finish_stack()
        return events

    def _apply_timer(self, args: Mapping[str, JSON]) -> list[Event]:
        left = int(self._timer_for(args).action.args["left"])
        if left > 0:
            self.warnings_given += 1
            return [Event("time_warning", {"player": self.namer, "seconds": left})]
        assert self.stack is not None
        unnamed = [{"player": p, "colour": self.stack.colours[p]} for p in self.unnamed()]
        self.stack.revealed.update(self.unnamed())
        self.hint_pending = None
        data: dict[str, JSON] = {"player": self.namer, "word": self.stack.word, "unnamed": unnamed}
        if unnamed:
            data["reveals"] = True
        event = Event("time_up", data)
        return [event] + self._finish_stack()

    def _finish_stack(self) -> list[Event]:
        assert self.stack is not None
        self.stack.scored_by = self.namer
        done = Event(
            "stack_done",
            {
                "player": self.namer,
                "word": self.stack.word,
                "gained": self.gained,
                "score": self.scores[self.namer],
            },
        )
        self.stack = None
        self.named = {}
        self.hint_pending = None
        self.turn += 1
        if self.turn >= self.stacks_each * len(self.players):
            return [done] + self._finish()
        return [done] + self._next_turn()

    def _finish(self) -> list[Event]:
        self.stage = "over"
        events: list[Event] = []
        unplayed = [s.word for s in self.stacks if s.scored_by is None]
        if unplayed:
            events.append(Event("unplayed", {"words": unplayed}))
        return events + [Event("game_over", self.result())]

    def result(self) -> dict[str, JSON]:
        return {"scores": dict(self.scores), "winners": winners(self.scores)}

    # --- timers ----------------------------------------------------------------------
    def _due_timer(self) -> Timer | None:
        """The next step of a timed turn; steps are chained so only one runs at a time."""
        if self.time_limit is None or self.stage != "naming":
            return None
        steps = [w for w in WARNINGS if w < self.time_limit] + [0]
        if self.warnings_given >= len(steps):
            return None
        left = steps[self.warnings_given]
        previous = self.time_limit if self.warnings_given == 0 else steps[self.warnings_given - 1]
        return Timer(
            f"farben:{self.turn}:{left}",
            float(previous - left),
            Action("timer", {"turn": self.turn, "left": left}),
            then=float(left),
        )

    def _ask_time_left(self, args: Mapping[str, JSON]) -> list[Event]:
        """How long the namer still has (a timed scoring turn, ``--time-limit``)."""
        seconds = round(self._seconds_left(args))
        return [Event("clock", {"player": self.namer, "seconds": seconds})]

    # --- questions -------------------------------------------------------------------
    def colours_in_hand(self, player: str) -> list[str]:
        """The colour cards ``player`` has not played yet (each card is played once)."""
        used = {s.colours[player] for s in self.stacks if player in s.colours}
        return [c for c in COLOURS if c not in used]

    def unnamed(self) -> list[str]:
        """Players whose card on the stack being scored is still face down, in the order
        they are listed: clockwise from the namer's left, the namer last."""
        if self.stack is None:
            return []
        seats = seats_from(self.players, self.namer)
        return [p for p in seats[1:] + seats[:1] if p not in self.named]

    def query(self, name: str, args: Mapping[str, JSON]) -> list[Event]:
        if name == "unknown_player":
            raise self._stranger(args.get("stranger"))
        if self.stage == "choose_first" and name in self.questions:
            raise NotNow("choose_first_now")
        return super().query(name, args)

    def _colours_left(self, args: Mapping[str, JSON]) -> Event:
        """The colour cards a player has not shown yet: public, since every card played
        was shown face up when it was played."""
        player = args.get("player")
        if player is None and args.get("self"):
            player = self.current_player()
            if player is None:
                raise Ambiguous("colours_left_whom", players=list(self.players))
        if player not in self.players:
            raise NotAllowed("unknown_player", name=str(player))
        colours = self.colours_in_hand(str(player))
        return Event("colours_left", {"player": player, "colours": colours, "count": len(colours)})

    def _stranger(self, heard: JSON) -> GameError:
        """The answer to a name heard where a player's name belongs but nobody has."""
        words = str(heard or "").split()
        if not words or len(words) > 2:  # a sentence rather than a name: not understood
            return NotAllowed("not_understood")
        name = " ".join(w[:1].upper() + w[1:] for w in words)
        players = {key(p) for p in self.players}
        if key(name) in players:  # the player's intent did not fit
            return NotNow("choose_first_now") if self.stage == "choose_first" else self._wait()
        parts = (" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, 3))
        if any(key(part) in players for part in parts):
            # "no Cem", "Anna Cem": a player's name in words we did not understand, not
            # someone who is not at the table
            return NotAllowed("not_understood")
        return NotAllowed("unknown_player", name=name)

    def _ask_words(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._words_event()]

    def _ask_stacks_left(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._stacks_event()]

    def _ask_left_to_name(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._left_event()]

    def _ask_colour_of(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._colour_of(args)]

    def _ask_colours_left(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._colours_left(args)]

    def _words_event(self) -> Event:
        if self.stage == "side":
            return self._card_event()
        if self.stage in ("choosing", "reveal", "story"):
            return Event("round_word", {"round": self.round + 1, "word": self.word})
        if self.stage == "naming":
            assert self.stack is not None
            return Event("naming_word", {"player": self.namer, "word": self.stack.word})
        return self._stacks_event()

    def _stacks_event(self) -> Event:
        if self.stage in ("side", "choosing", "reveal", "story"):
            words = [s.word for s in self.stacks]
            pile = ROUNDS - self.round - 1 + (1 if self.stage == "side" else 0)
            return Event("stacks_so_far", {"words": words, "pile": pile})
        left = [s.word for s in self.stacks if s.scored_by is None]
        return Event("stacks_left", {"words": left, "over": self.stage == "over"})

    def _left_event(self) -> Event:
        if self.stage in ("reveal", "story"):
            return Event("left_to_tell", {"word": self.word, "players": list(self.tellers)})
        if self.stage == "naming":
            assert self.stack is not None
            return Event(
                "left_to_name",
                {"player": self.namer, "word": self.stack.word, "players": self.unnamed()},
            )
        raise NotNow("no_stack_now", **self._situation())

    def _colour_of(self, args: Mapping[str, JSON]) -> Event:
        word = args.get("word")
        stack = next((s for s in self.stacks if key(s.word) == key(str(word))), None)
        if stack is None:
            raise NotAllowed("unknown_stack", word=str(word), words=[s.word for s in self.stacks])
        player = args.get("player")
        if player is None and args.get("self"):
            player = self.current_player()
            if player is None:
                raise Ambiguous("colour_of_whom", word=stack.word)
        if player is not None and player not in self.players:
            raise NotAllowed("unknown_player", name=str(player))
        if player is not None:
            if player not in stack.revealed:
                raise NotAllowed("colour_secret", word=stack.word, player=player)
            return Event(
                "colour_of", {"word": stack.word, "player": player, "colour": stack.colours[player]}
            )
        shown = [
            {"player": p, "colour": stack.colours[p]} for p in self.players if p in stack.revealed
        ]
        if not shown:
            raise NotAllowed("colour_secret", word=stack.word, player=None)
        hidden = [p for p in self.players if p not in stack.revealed]
        return Event("colours_of", {"word": stack.word, "cards": shown, "hidden": hidden})

    def status(self) -> list[Event]:
        data: dict[str, JSON] = {"phase": "rounds", "scores": dict(self.scores)}
        if self.stage in ("choose_first", "side", "choosing", "reveal", "story"):
            data.update(round=self.round + 1, rounds=ROUNDS)
        elif self.stage == "over":
            data.update(phase="over", winners=winners(self.scores))
        else:
            left = self.stacks_each * len(self.players) - self.turn
            data.update(phase="scoring", turns_left=left)
        return [Event("status", data)]

    def prompt(self) -> list[Event]:
        if self.stage == "choose_first":
            return [self._ask_first()]
        if self.stage == "side":
            return [self._card_event()]
        if self.stage == "choosing":
            return [Event("choose_colour", {"word": self.word})]
        if self.stage == "reveal":
            return [self._tell_event(first=False)]
        if self.stage == "story":
            return [Event("telling", {"player": self.teller, "word": self.word})]
        if self.stage == "choose_stack":
            return [self._stack_turn_event()]
        if self.stage == "naming":
            assert self.stack is not None
            data: dict[str, JSON] = {
                "player": self.namer,
                "word": self.stack.word,
                "players": self.unnamed(),
                "hint_from": self.hint_pending,
            }
            return [Event("naming", data)]
        return [Event("game_over", self.result())]

    def _card_event(self) -> Event:
        return Event(
            "card",
            {
                "round": self.round + 1,
                "rounds": ROUNDS,
                "player": self.starter,
                "words": list(self.cards[self.round]),
            },
        )

    def _tell_event(self, first: bool) -> Event:
        return Event("tell", {"player": self.teller, "word": self.word, "first": first})

    def _stack_turn_event(self) -> Event:
        done = self.turn // len(self.players)
        return Event(
            "stack_turn",
            {
                "player": self.namer,
                "chooser": self.chooser,
                "number": done + 1,
                "stacks_each": self.stacks_each,
                "words": [s.word for s in self.stacks if s.scored_by is None],
            },
        )

    def describe(self, action: Action) -> Event:
        """Names ``action`` as taken in the current state (the state before it)."""
        args = action.args
        data: dict[str, JSON] = dict(args)
        if action.name == "side":
            data["player"] = self.starter
            side = args.get("side")
            if self.stage == "side" and side in (1, 2) and not isinstance(side, bool):
                data["word"] = self.cards[self.round][int(side) - 1]
        elif action.name in ("reveal", "done"):
            data.update(player=self.current_player(), word=self.word)
        elif action.name == "stack":
            data.update(namer=self.namer if self.order else None, chooser=self.current_player())
        elif action.name in ("name", "hint"):
            data.update(namer=self.current_player(), owner=args.get("player"))
        elif action.name == "forgot":
            gave_up = self.hint_pending is None or args.get("player") is not None
            data.update(owner=args.get("player") or self.hint_pending, namer=self.namer)
            data["gave_up"] = gave_up
        return Event("action_" + action.name, data)

    def snapshot(self) -> dict[str, JSON]:
        return {
            "stage": self.stage,
            "cards": [list(c) for c in self.cards],
            "first": self.first,
            "round": self.round,
            "starter": self.starter,
            "tellers": list(self.tellers),
            "stacks": [
                {
                    "word": s.word,
                    "starter": s.starter,
                    "colours": dict(s.colours),
                    "revealed": sorted(s.revealed),
                    "scored_by": s.scored_by,
                }
                for s in self.stacks
            ],
            "scores": dict(self.scores),
            "turn": self.turn,
            "order": list(self.order),
            "stack": self.stack.word if self.stack else None,
            "named": {p: [n.colour, n.correct, n.hint] for p, n in self.named.items()},
            "hinted": sorted(self.hinted),
            "forgot": sorted(self.forgot),
            "hint_pending": self.hint_pending,
            "gained": self.gained,
            "warnings_given": self.warnings_given,
        }


def _time_limit(value: JSON) -> int | None:
    if value is None:
        return None
    low, high = TIME_LIMIT_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError("bad_time_limit", value=str(value), low=low, high=high)
    return value


def _fixed_words(value: JSON) -> list[tuple[str, str]]:
    """Check the ``words`` option: up to 10 cards of two different, unique words."""
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise SetupError("bad_words", reason="not_a_list")
    if len(value) > ROUNDS:
        raise SetupError("too_many_cards", count=len(value), rounds=ROUNDS)
    cards: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for number, card in enumerate(value, start=1):
        if (
            not isinstance(card, Sequence)
            or isinstance(card, str)
            or len(card) != 2
            or not all(isinstance(w, str) for w in card)
        ):
            raise SetupError("bad_card", card=number)
        a, b = (" ".join(w.split()) for w in card)
        for word in (a, b):
            if len(word) > MAX_WORD_LENGTH:
                raise SetupError(
                    "word_too_long", card=number, word=word[:20], limit=MAX_WORD_LENGTH
                )
            if not any(c.isalpha() for c in word):
                raise SetupError("bad_word", card=number, word=word)
            if seen.get(key(word)) == number:
                raise SetupError("same_sides", card=number, word=word)
            if key(word) in seen:
                raise SetupError("word_twice", card=number, word=word, first=seen[key(word)])
            seen[key(word)] = number
        cards.append((a, b))
    return cards
