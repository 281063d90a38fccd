"""Pantone: paint a character with colour swatches; the others guess who it is.

Play runs in phases; in each phase every player is the Artist once, clockwise from the
first Artist. Phase 1 allows any swatches, phase 2 at most one swatch of each colour,
phase 3 exactly three swatches in total (modes change this: minimalist is three
swatches every phase, abstract is any swatches that must not touch).

An Artist's turn:

1. The Artist gets a character secretly. ``cards="number"``: they name a card of the
   (printed) deck by number ("card 12"). ``cards="deal"``: the engine deals four cards
   the first time (shown only to the Artist through private events), the Artist puts
   one aside and plays one of the three kept cards in each phase. ``cards="physical"``:
   the table's own card deck; the engine never learns the character, the Artist says
   "ready", judges every guess ("correct" / "wrong") and reads the hints aloud.
2. Creation: a timer of 60 seconds (30 in speed mode) with spoken checkpoints; the
   Artist may say "done" early.
3. Guessing in rounds: no hint, then hints 1 to 4. In every round each other player
   (teams: the Artist's team first, then the other team) gets one guess in a timed
   window, starting left of the Artist; silence counts as a pass. A right guess scores
   5/4/3/2/1 points by round, for the guesser and the Artist (two players: only the
   guesser; teams: the guessing team). Nobody after hint 4: nobody scores.

Every guess counts: a guess naming a character that is not the Artist's, or none of the
deck at all ("Daisy Duck", "a rabbit"), is wrong and ends that player's try. The voice
layer decides what a guess names and the ``guess`` action carries that decision (see
:meth:`Pantone._apply_guess`), so a saved game replays the same however name matching
changes. What the guesser says while thinking ("it's not Mickey") is no guess: the
``thinking`` question answers it with a silent event.

A guess made out of turn costs a point when the table says so ("penalty for Ben"); if
that guess was right, the Artist still scores and the turn ends.

The game ends after three phases (renaissance: when a score reaches the target, or the
deck runs out). Time only reaches the engine as ``timer`` actions for the timers it
lists in :meth:`Pantone.timers`.

Secrets: the chosen character is only ever put into events addressed to the Artist
(``Event.to``) until it is guessed or revealed at the end of the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.deck_files import DeckError
from games.engine import (
    JSON,
    Action,
    Event,
    Expectation,
    Game,
    Move,
    NotAllowed,
    NotNow,
    Setup,
    SetupError,
    Timer,
    left_of,
    seats_from,
    winners,
)
from games.name_match import best_match, names_card
from games.pantone_deck import Character, parse_deck
from games.pantone_saves import decide_guess, name_clock

CARD_MODES = ("number", "deal", "physical")
CREATE_SECONDS = 60
SPEED_CREATE_SECONDS = 30
CHECKPOINTS = (30, 10)
"""Seconds left that are announced while the Artist paints."""
GUESS_SECONDS = 5
PHYSICAL_GUESS_SECONDS = 8
"""With the table's own cards the Artist must also say "correct" or "wrong" in time."""
HINT_READ_SECONDS = 10
"""With the table's own cards: time for the Artist to read a hint before guessing."""
POINTS = (5, 4, 3, 2, 1)
"""Points by round: no hint, hint 1, ..., hint 4."""
HINTS = len(POINTS) - 1
PHASES = 3
DEALT = 4
KEPT = 3
DEFAULT_TARGET = 20
TEAM_NAMES = ("Team A", "Team B")
"""Team ids; they read the same in German and English."""

RULES = ("any", "one_each", "three")
"""The swatch rule of phases 1, 2, 3 (ids; the voice layer words them)."""


BOARD_STAGES = ("create", "hint", "guess", "verdict")
"""While a picture lies on the board, the players may say what lies on it."""
MAX_BOARD_ITEMS = 20


class Pantone(Game):
    game_id = "pantone"
    min_players = 2
    max_players = 10
    save_upgrades = {1: decide_guess, 2: name_clock}
    setup_limits = {"target": DEFAULT_TARGET}
    moves = {
        "discard": Move("_apply_discard", ("card", "place")),
        "choose": Move("_apply_choose", ("card", "place")),
        "ready": Move("_apply_ready"),
        "done": Move("_apply_done"),
        "guess": Move("_apply_guess", ("text", "name", "card")),
        "pass": Move("_apply_pass"),
        "correct": Move("_apply_correct", ("player",)),
        "wrong": Move("_apply_wrong"),
        "penalty": Move("_apply_penalty", ("player", "right")),
        "timer": Move("_apply_timer", ("clock", "turn", "left", "round", "side")),
        "board": Move("_apply_board", ("items",)),
    }
    questions = {
        "hints": "_ask_hints",
        "hint_words": "_ask_hints",
        "last_hint": "_ask_last_hint",
        "far_card": "_ask_far_card",
        "time_left": "_ask_time_left",
        "phase_info": "_ask_phase_info",
        "my_cards": "_ask_my_cards",
        "board_query": "_ask_board",
        "thinking": "_ask_thinking",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        options = setup.options
        try:
            self.deck: tuple[Character, ...] = parse_deck(options.get("deck"), "the deck")
        except DeckError as exc:
            raise SetupError("bad_deck", problems="; ".join(map(str, exc.problems))) from None
        self.forms = [card.forms for card in self.deck]
        self.card_mode: str = options.get("cards", "number")
        if self.card_mode not in CARD_MODES:
            raise SetupError("unknown_card_mode", mode=self.card_mode, modes=list(CARD_MODES))
        self.speed = _flag(options, "speed")
        self.minimalist = _flag(options, "minimalist")
        self.abstract = _flag(options, "abstract")
        if self.minimalist and self.abstract:
            raise SetupError("modes_conflict", modes=["minimalist", "abstract"])
        target = options.get("target")
        if target is not None and (type(target) is not int or not 1 <= target <= 1000):
            raise SetupError("bad_target", target=str(target))
        self.target: int | None = target
        self.teams: dict[str, tuple[str, ...]] | None = _teams(options.get("teams"), self.players)
        needed = len(self.players) * (DEALT if self.card_mode == "deal" else PHASES)
        if self.card_mode != "physical" and self.target is None and len(self.deck) < needed:
            raise SetupError(
                "deck_too_small",
                source=str(options.get("deck_source", "")),
                cards=len(self.deck),
                players=len(self.players),
                needed=needed,
                deal=self.card_mode == "deal",
            )

        self.phase = 0
        self.first_artist: str = self.players[0]
        self.artist: str = self.players[0]
        self.turn_in_phase = 0
        self.card: int | None = None
        self.out_of_game: list[int] = []
        self.hands: dict[str, list[int]] = {p: [] for p in self.players}
        self.round = 0
        self.queue: list[str] = []
        self.heard: str | None = None
        sides = list(self.teams) if self.teams else list(self.players)
        self.scores: dict[str, int] = {side: 0 for side in sides}
        self.clock_steps = 0
        """Checkpoints of the creation countdown already announced (see :meth:`timers`)."""
        self.outcome: str | None = None
        self.board: list[dict[str, JSON]] = []
        """What the players said lies on the board (the engine cannot see it)."""

    # --- rules of the table -----------------------------------------------------------
    @property
    def create_seconds(self) -> int:
        """How long the Artist paints (speed painter: half as long)."""
        return SPEED_CREATE_SECONDS if self.speed else CREATE_SECONDS

    @property
    def renaissance(self) -> bool:
        return self.target is not None

    @property
    def physical(self) -> bool:
        return self.card_mode == "physical"

    def rule(self, phase: int | None = None) -> str:
        """The swatch rule of ``phase`` (default: the current one)."""
        if self.minimalist:
            return "three"
        if self.abstract:
            return "abstract"
        return RULES[((phase or self.phase or 1) - 1) % PHASES]

    def team_of(self, player: str) -> str:
        assert self.teams is not None
        return next(name for name, members in self.teams.items() if player in members)

    def _guess_order(self) -> list[str]:
        """Who guesses this round, in order: players left of the Artist, or teams."""
        if self.teams:
            own = self.team_of(self.artist)
            return [own] + [t for t in self.teams if t != own]
        return seats_from(self.players, self.artist)[1:]

    def _guessers_of(self, side: str) -> list[str]:
        """The players who speak for ``side`` (a player, or a team without its Artist)."""
        if self.teams and side in self.teams:
            return [p for p in self.teams[side] if p != self.artist]
        return [side]

    # --- starting ------------------------------------------------------------------
    def start(self) -> list[Event]:
        data: dict[str, JSON] = {
            "players": list(self.players),
            "cards": self.card_mode,
            "phases": PHASES,
            "renaissance": self.renaissance,
        }
        if self.target is not None:
            data["target"] = self.target
        events = [Event("welcome", data), Event("card_rules", {"cards": self.card_mode})]
        modes = [m for m in ("speed", "minimalist", "abstract") if getattr(self, m)]
        if modes:
            events.append(Event("modes", {"modes": modes}))
        for team, members in (self.teams or {}).items():
            events.append(Event("team", {"player": team, "members": list(members)}))
        return events + self._opening()

    def _first_by_rule(self) -> tuple[str, str] | None:
        if self.teams:  # the team rules pick the first Artist at random
            return self.rng.choice(self.players), "lot"
        return None

    def _begin(self, player: str, chosen_by: str) -> list[Event]:
        self.first_artist = player
        events = [Event("first", {"player": player, "chosen_by": chosen_by})]
        return events + self._start_phase(1)

    def _start_phase(self, phase: int) -> list[Event]:
        self.phase = phase
        self.turn_in_phase = 0
        data: dict[str, JSON] = {"phase": phase, "rule": self.rule()}
        if phase > PHASES:  # renaissance goes round the phases again
            data["like"] = (phase - 1) % PHASES + 1
        return [Event("phase", data)] + self._start_turn(self.first_artist)

    def _start_turn(self, artist: str) -> list[Event]:
        self.artist = artist
        self.card = None
        self.round = 0
        self.queue = []
        self.heard = None
        self.board = []
        if self.card_mode == "number" and not self._unused():
            return [Event("deck_used_up")] + self._finish("deck_used_up")
        events: list[Event] = []
        if self.card_mode == "deal" and not self.hands[artist]:
            pool = self._unused()
            if not pool:
                return [Event("deck_used_up")] + self._finish("deck_used_up")
            self.hands[artist] = sorted(self.rng.sample(pool, min(DEALT, len(pool))))
            events.append(Event("dealt", {"player": artist, "count": len(self.hands[artist])}))
        if self.card_mode == "deal" and len(self.hands[artist]) > KEPT:
            self.stage = "discard"
            return events + [self._hand_event(), self._ask_discard_event()]
        self.stage = "choose"
        events.append(self._artist_event())
        if self.card_mode == "deal":
            events.append(self._hand_event())
        return events

    def _unused(self) -> list[int]:
        taken = set(self.out_of_game)
        for hand in self.hands.values():
            taken.update(hand)
        return [n for n in range(1, len(self.deck) + 1) if n not in taken]

    # --- what the session asks ------------------------------------------------------
    def current_player(self) -> str | None:
        if self.stage in ("discard", "choose", "create", "hint", "verdict"):
            return self.artist
        if self.stage == "guess" and not self.teams:
            return self.queue[0]
        return None

    def expecting(self) -> Expectation:
        stage = self.stage
        always = {"phase_info", "penalty", "hint_words", "last_hint"}
        if stage in BOARD_STAGES:
            always |= {"board", "board_query"}
        if stage == "choose_first":
            return Expectation(frozenset({"choose_first", "random_first"}))
        if stage == "discard":
            return Expectation(
                frozenset({"discard", "my_cards", "far_card"} | always),
                self.artist,
                {"card": tuple(self.hands[self.artist])},
            )
        if stage == "choose":
            if self.physical:
                return Expectation(frozenset({"ready"} | always), self.artist)
            intents = {"choose", "far_card"} | always
            if self.card_mode == "deal":
                intents.add("my_cards")
                if len(self.hands[self.artist]) == 1:
                    intents.add("ready")
            allowed = self.hands[self.artist] if self.card_mode == "deal" else self._unused()
            return Expectation(frozenset(intents), self.artist, {"card": tuple(allowed)})
        # While the Artist paints or reads a hint, and while guesses at the box's own
        # cards fly (only the Artist can judge them), the table talks: stay quiet.
        if stage == "create":
            intents = {"done", "time_left"} | always
            if not self.physical:
                intents.add("my_cards")
            return Expectation(frozenset(intents), self.artist, quiet=True)
        if stage == "hint":
            return Expectation(frozenset({"done", "hints"} | always), self.artist, quiet=True)
        if stage == "guess":
            # Everything the guesser says is their guess; what is not (thinking aloud, a
            # negation) is passed over without a word: their seconds are running.
            intents = {"guess", "pass", "hints", "time_left", "thinking"} | always
            if self.physical:
                intents |= {"correct", "wrong"}
            return Expectation(frozenset(intents), self.current_player(), quiet=True)
        if stage == "verdict":
            return Expectation(frozenset({"correct", "wrong", "hints"} | always), self.artist)
        return Expectation(frozenset())

    def _due_timer(self) -> Timer | None:
        """The clock of the step in play, derived from the state like every game's:
        creation (in steps to each announced checkpoint), a guess window, or the Artist
        reading a hint aloud (own cards). A turn is ``phase.turn_in_phase``."""
        turn = f"{self.phase}.{self.turn_in_phase}"
        if self.stage == "create":
            total = self.create_seconds
            steps = [c for c in CHECKPOINTS if c < total] + [0]
            left = steps[self.clock_steps]
            before = total if self.clock_steps == 0 else steps[self.clock_steps - 1]
            args: dict[str, JSON] = {"clock": "create", "turn": turn, "left": left}
            return Timer(
                f"pantone:{turn}:create:{left}",
                float(before - left),
                Action("timer", args),
                then=left,
            )
        if self.stage == "guess" and self.queue:
            side = self.queue[0]
            seconds = PHYSICAL_GUESS_SECONDS if self.physical else GUESS_SECONDS
            args = {"clock": "guess", "turn": turn, "round": self.round, "side": side}
            timer_id = f"pantone:{turn}:guess:{self.round}:{side}"
            return Timer(timer_id, float(seconds), Action("timer", args))
        if self.stage == "hint":
            args = {"clock": "hint", "turn": turn, "round": self.round}
            timer_id = f"pantone:{turn}:hint:{self.round}"
            return Timer(timer_id, float(HINT_READ_SECONDS), Action("timer", args))
        return None

    def legal_actions(self) -> list[Action]:
        stage = self.stage
        if stage == "choose_first":
            return [Action("first", {"player": p}) for p in self.players] + [
                Action("first", {"random": True})
            ]
        if stage == "over":
            return []
        actions = [Action("penalty", {"player": p}) for p in self.players]
        if stage in ("create", "hint", "guess", "verdict"):
            actions += [
                Action("penalty", {"player": p, "right": True})
                for p in self.players
                if p != self.artist
            ]
        due = self._due_timer()
        if due is not None:
            actions.append(due.action)
        if stage == "discard":
            actions += [Action("discard", {"card": n}) for n in self.hands[self.artist]]
        elif stage == "choose":
            if self.physical:
                actions.append(Action("ready"))
            else:
                cards = self.hands[self.artist] if self.card_mode == "deal" else self._unused()
                actions += [Action("choose", {"card": n}) for n in cards]
        elif stage in ("create", "hint"):
            actions.append(Action("done"))
        elif stage == "guess":
            actions.append(Action("pass"))
            other = self._another_card()
            if other is not None:
                actions.append(_decided_guess(self.deck[other - 1].name, other))
            actions.append(_decided_guess("Nobody Of This Deck", None))
            if self.physical:
                actions += [Action("correct"), Action("wrong")]
            else:
                assert self.card is not None
                actions.append(_decided_guess(self.deck[self.card - 1].name, self.card))
        elif stage == "verdict":
            actions += [Action("correct"), Action("wrong")]
        return actions

    def _another_card(self) -> int | None:
        """A card number other than the Artist's (a wrong guess for random play)."""
        for number in (1, 2):
            if number != self.card and number <= len(self.deck):
                return number
        return None

    # --- applying ------------------------------------------------------------------
    def _apply_discard(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "discard":
            raise NotNow("no_discard_now", player=self.artist)
        number = self._card_number(args)
        hand = self.hands[self.artist]
        if number not in hand:
            raise NotAllowed("not_in_hand", player=self.artist, card=number)
        hand.remove(number)
        self.out_of_game.append(number)
        self.stage = "choose"
        # (dealt cards: the table hears that a card went, never which: the printed deck
        # would tell what is left in the Artist's hand)
        return [
            Event("discarded", {"player": self.artist, "secret": True}),
            self._hand_event(),
            self._artist_event(),
        ]

    def _apply_choose(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage == "discard":
            raise NotNow("discard_first", player=self.artist)
        if self.stage != "choose":
            raise NotNow("card_already_chosen", player=self.artist)
        if self.physical:
            raise NotAllowed("physical_say_ready", player=self.artist)
        number = self._card_number(args)
        if self.card_mode == "deal":
            if number not in self.hands[self.artist]:
                raise NotAllowed("not_in_hand", player=self.artist, card=number)
            self.hands[self.artist].remove(number)
        elif number in self.out_of_game:
            raise NotAllowed("card_used", card=number)
        return self._take_card(number)

    def _take_card(self, number: int) -> list[Event]:
        self.card = number
        self.out_of_game.append(number)
        card = self.deck[number - 1]
        secret = Event(
            "your_character",
            {"player": self.artist, "card": number, "name": card.name},
            to=self.artist,
        )
        # dealt cards: the table hears only that a card was chosen (its number and the
        # printed deck would give the character away)
        told: dict[str, JSON] = {"player": self.artist}
        if self.card_mode == "deal":
            told["secret"] = True
        else:
            told["card"] = number
        return [Event("chosen", told), secret] + (self._start_creating())

    def _card_number(self, args: Mapping[str, JSON]) -> int:
        """The deck number of the card meant: said as such, or (dealt cards) by its place
        in the Artist's private hand, as they were told it ("my second card")."""
        if "place" in args:
            if self.card_mode != "deal" or self.artist is None:
                raise NotAllowed("say_card_number", player=self.artist)
            hand, place = self.hands[self.artist], args["place"]
            if type(place) is not int or not 1 <= place <= len(hand):
                raise NotAllowed(
                    "no_such_place", player=self.artist, place=str(place), count=len(hand)
                )
            return hand[place - 1]
        number = args.get("card")
        if type(number) is not int or not 1 <= number <= len(self.deck):
            raise NotAllowed("no_such_card", card=str(number), count=len(self.deck))
        return number

    def _apply_ready(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage != "choose":
            raise NotNow("not_choosing", player=self.artist)
        if self.card_mode == "deal":
            hand = self.hands[self.artist]
            if len(hand) != 1:
                raise NotAllowed("say_card_number", player=self.artist)
            return self._take_card(hand.pop())
        if self.card_mode == "number":
            raise NotAllowed("say_card_number", player=self.artist)
        return [Event("ready", {"player": self.artist})] + self._start_creating()

    def _start_creating(self) -> list[Event]:
        self.stage = "create"
        self.clock_steps = 0
        data = {"player": self.artist, "seconds": self.create_seconds, "rule": self.rule()}
        return [Event("create_start", data)]

    def _apply_timer(self, args: Mapping[str, JSON]) -> list[Event]:
        due = self._timer_for(args)
        clock = due.action.args["clock"]
        if clock == "create":
            if due.then > 0:
                self.clock_steps += 1
                return [Event("time_left", {"seconds": int(due.then)})]
            return [Event("times_up", {"player": self.artist})] + self._start_guessing()
        if clock == "hint":
            return self._open_window()
        side = self.queue[0]
        return [Event("no_guess", self._side_data(side))] + self._next_guesser()

    def _apply_done(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage == "create":
            return [Event("done_early", {"player": self.artist})] + self._start_guessing()
        if self.stage == "hint":
            return self._open_window()
        raise NotNow("nothing_to_finish", player=self.artist)

    def _apply_board(self, args: Mapping[str, JSON]) -> list[Event]:
        """A player says what lies on the board, often in parts as the Artist lays it.

        What is said adds to the board: a colour at a place said again takes its new
        count, everything else said before stays (undo takes a sentence back).
        """
        if self.stage not in BOARD_STAGES:
            raise NotNow("board_too_early")
        self.board = _merged_board(self.board, _board_items(args.get("items")))
        return [Event("board_set", {"items": [dict(i) for i in self.board]})]

    # --- guessing ----------------------------------------------------------------------
    def _start_guessing(self) -> list[Event]:
        self.round = 0
        self.queue = self._guess_order()
        order = [self._side_data(s) for s in self.queue]
        return [Event("guessing_starts", {"order": order})] + self._open_window()

    def _open_window(self) -> list[Event]:
        self.stage = "guess"
        self.heard = None
        return [self._guess_turn_event()]

    def _guess_turn_event(self) -> Event:
        data = {**self._side_data(self.queue[0]), "round": self.round}
        return Event("guess_turn", data)

    def _side_data(self, side: str) -> dict[str, JSON]:
        """Who guesses: ``{"player": "Ben"}``, or a team with the members who speak."""
        if self.teams and side in self.teams:
            return {"player": side, "team": True, "members": self._guessers_of(side)}
        return {"player": side}

    def _apply_guess(self, args: Mapping[str, JSON]) -> list[Event]:
        """A guess: ``text`` is what the guesser said. A decided guess also carries
        ``card``, the deck card it names (1-based) or ``None`` when it names no card of
        the deck, and ``name``, the character it names as the deck (or the list of other
        characters) writes it, or the guess's own words. Without ``card`` (saved games of
        older versions) the engine matches ``text`` against the deck itself."""
        text = args.get("text")
        if not isinstance(text, str) or not text.strip():
            raise NotAllowed("empty_guess")
        name = args.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise NotAllowed("empty_guess")
        if "card" in args:
            number = args["card"]
            bad = type(number) is not int or not 1 <= number <= len(self.deck)
            if number is not None and bad:
                raise NotAllowed("no_such_card", card=str(number), count=len(self.deck))
        self._check_guessing()
        side = self.queue[0]
        if self.physical:  # only the Artist knows; wait for their verdict
            self.stage = "verdict"
            self.heard = name or text
            return [Event("ask_verdict", {**self._side_data(side), "artist": self.artist})]
        assert self.card is not None
        named = args["card"] if "card" in args else self.named_card(text)
        if named == self.card:
            return self._right(side)
        data = {**self._side_data(side), "guess": self._spoken_guess(args)}
        return [Event("wrong_guess", data)] + self._next_guesser()

    def card_named(self, name: str) -> int | None:
        """The card whose name or alias is ``name`` exactly (the Artist's own card first,
        when two cards share it), or ``None``: the decision on a guess the parser matched."""
        if self.card is not None and name in self.deck[self.card - 1].forms:
            return self.card
        return next((n for n, card in enumerate(self.deck, start=1) if name in card.forms), None)

    def named_card(self, text: str) -> int | None:
        """The decision on a guess: the card number it names (the Artist's card when it
        names that one at least as well as any other), or ``None`` for no card of the deck.

        The session stores this decision in the guess action (``card``), so a saved game
        replays the same verdicts even when the name matcher improves later.
        """
        if self.card is not None and names_card(text, self.card - 1, self.forms):
            return self.card
        match = best_match(text, self.forms)
        return match.card + 1 if match is not None else None

    def _spoken_guess(self, args: Mapping[str, JSON]) -> str:
        """The guess as the deck writes it, if it names a card; else as decided or heard."""
        name = args.get("name")
        if isinstance(name, str) and name.strip():
            return " ".join(name.split())
        number = args.get("card")
        if type(number) is int and 1 <= number <= len(self.deck):
            return self.deck[number - 1].name
        text = str(args.get("text", ""))
        match = best_match(text, self.forms) if "card" not in args else None
        return match.form if match is not None else " ".join(text.split())

    def _check_guessing(self) -> None:
        if self.stage == "guess":
            return
        if self.stage == "create":
            raise NotNow("still_painting", player=self.artist)
        if self.stage == "hint":
            raise NotNow("hint_first", player=self.artist)
        if self.stage == "verdict":
            raise NotNow("waiting_for_verdict", player=self.artist)
        raise NotNow("no_guessing_now")

    def _apply_pass(self, args: Mapping[str, JSON]) -> list[Event]:
        self._check_guessing()
        side = self.queue[0]
        return [Event("passed", self._side_data(side))] + self._next_guesser()

    def _apply_correct(self, args: Mapping[str, JSON]) -> list[Event]:
        if not self.physical:
            raise NotAllowed("engine_judges")
        if self.stage not in ("guess", "verdict"):
            raise NotNow("no_guess_to_judge", player=self.artist)
        named = args.get("player")
        if named is None:
            return self._right(self.queue[0])
        if named not in self.players:
            raise NotAllowed("unknown_player", name=str(named))
        if named == self.artist:
            raise NotAllowed("artist_cannot_guess", player=self.artist)
        return self._right(self.team_of(str(named)) if self.teams else str(named))

    def _apply_wrong(self, args: Mapping[str, JSON]) -> list[Event]:
        if not self.physical:
            raise NotAllowed("engine_judges")
        if self.stage not in ("guess", "verdict"):
            raise NotNow("no_guess_to_judge", player=self.artist)
        side = self.queue[0]
        return [Event("judged_wrong", self._side_data(side))] + self._next_guesser()

    def _next_guesser(self) -> list[Event]:
        self.queue.pop(0)
        if self.queue:
            return self._open_window()
        if self.round >= HINTS:
            return self._nobody()
        self.round += 1
        self.queue = self._guess_order()
        data: dict[str, JSON] = {"round": self.round, "artist": self.artist}
        if self.physical:
            self.stage = "hint"
            return [Event("read_hint", data)]
        assert self.card is not None
        data["hint"] = self.deck[self.card - 1].hints[self.round - 1]
        return [Event("hint", data)] + self._open_window()

    def _right(self, side: str) -> list[Event]:
        points = POINTS[self.round]
        if self.teams:
            scorers = [side]
        elif len(self.players) == 2:
            scorers = [side]
        else:
            scorers = [side, self.artist]
        for scorer in scorers:
            self.scores[scorer] += points
        data: dict[str, JSON] = {
            **self._side_data(side),
            "artist": self.artist,
            "round": self.round,
            "points": points,
            "scorers": scorers,
        }
        data.update(self._reveal_data())
        return [Event("guessed", data)] + self._end_turn()

    def _reveal_data(self) -> dict[str, JSON]:
        """The character, now said or shown (``reveals``: an undo must not hide it again)."""
        if self.card is None:  # the table's own card: the Artist shows it
            return {"physical": True, "reveals": True}
        name = self.deck[self.card - 1].name
        return {"physical": False, "name": name, "card": self.card, "reveals": True}

    def _nobody(self) -> list[Event]:
        data: dict[str, JSON] = {"artist": self.artist, **self._reveal_data()}
        return [Event("nobody_guessed", data)] + self._end_turn()

    # --- penalties -------------------------------------------------------------------------
    def _apply_penalty(self, args: Mapping[str, JSON]) -> list[Event]:
        player = args.get("player")
        if player not in self.players:
            raise NotAllowed("unknown_player", name=str(player))
        player = str(player)
        right = bool(args.get("right"))
        if right:
            if self.stage not in ("create", "hint", "guess", "verdict"):
                raise NotNow("no_character_in_play")
            if player == self.artist:
                raise NotAllowed("artist_cannot_guess", player=player)
        side = self.team_of(player) if self.teams else player
        self.scores[side] -= 1
        data: dict[str, JSON] = {"player": player, "score": self.scores[side]}
        if self.teams:
            data.update(teams=True, team=side)
        events = [Event("penalty", data)]
        if not right:
            return events
        # The blurted guess was right: the Artist still scores; the character is out.
        points = POINTS[self.round]
        if self.teams:
            scorers = [self.team_of(self.artist)]
        elif len(self.players) == 2:
            scorers = []
        else:
            scorers = [self.artist]
        for scorer in scorers:
            self.scores[scorer] += points
        right_data: dict[str, JSON] = {
            "player": player,
            "artist": self.artist,
            "points": points,
            "scorers": scorers,
            **self._reveal_data(),
        }
        return events + [Event("blurted_right", right_data)] + self._end_turn()

    # --- end of a turn, a phase, the game ---------------------------------------------------
    def _end_turn(self) -> list[Event]:
        self.queue = []
        self.heard = None
        self.turn_in_phase += 1
        if self.renaissance and max(self.scores.values()) >= (self.target or 0):
            return [Event("target_reached", {"target": self.target})] + self._finish("target")
        if self.turn_in_phase < len(self.players):
            return self._start_turn(left_of(self.players, self.artist))
        if not self.renaissance and self.phase >= PHASES:
            return self._finish("phases_done")  # the final scores follow at once
        events = [Event("phase_over", {"phase": self.phase, "scores": dict(self.scores)})]
        return events + self._start_phase(self.phase + 1)

    def _finish(self, outcome: str) -> list[Event]:
        self.stage = "over"
        self.outcome = outcome
        return [Event("game_over", self.result())]

    def result(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"scores": dict(self.scores), "winners": winners(self.scores)}
        if self.teams:
            data["teams"] = {k: list(v) for k, v in self.teams.items()}
        return data

    # --- events that repeat --------------------------------------------------------------
    def _artist_event(self) -> Event:
        data: dict[str, JSON] = {
            "player": self.artist,
            "cards": self.card_mode,
            "phase": self.phase,
            "rule": self.rule(),
        }
        if self.card_mode == "deal":
            data["left"] = len(self.hands[self.artist])
        return Event("artist", data)

    def _ask_discard_event(self) -> Event:
        return Event("ask_discard", {"player": self.artist, "count": len(self.hands[self.artist])})

    def _hand_event(self) -> Event:
        # (in this order: the Artist names a card by its place, "my second card")
        cards = [{"card": n, "name": self.deck[n - 1].name} for n in self.hands[self.artist]]
        return Event("hand", {"player": self.artist, "cards": cards}, to=self.artist)

    # --- questions ----------------------------------------------------------------------------
    def query(self, name: str, args: Mapping[str, JSON]) -> list[Event]:
        if name == "thinking":  # answered in every stage (it is never a turn's question)
            return self._ask_thinking(args)
        if self.stage in ("choose_first", "over") and name != "phase_info":
            raise NotNow("no_turn_running")
        return super().query(name, args)

    def _ask_thinking(self, args: Mapping[str, JSON]) -> list[Event]:
        """Thinking aloud in a guess window ("it's not Mickey"): no guess, no words. Two
        names at once ("Mickey or Minnie?", ``names``) are no guess either: one try each,
        so the guesser is asked for one of them (their seconds still run)."""
        if self.stage == "guess" and self.queue:
            names = args.get("names")
            if isinstance(names, list) and len(names) > 1:
                return [Event("one_guess", {**self._side_data(self.queue[0]), "names": names})]
            return [Event("thinking_aloud", self._side_data(self.queue[0]))]
        return []

    def _ask_hints(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._hints_event()]

    def _ask_last_hint(self, args: Mapping[str, JSON]) -> list[Event]:
        data = dict(self._hints_event().data)
        hints = data.pop("hints", None) or []
        if hints:
            data["hint"] = hints[-1]["hint"]
        return [Event("last_hint", data)]

    def _ask_far_card(self, args: Mapping[str, JSON]) -> list[Event]:
        """A card number beyond the deck ("card 200" of 152)."""
        raise NotAllowed("card_out_of_range", card=str(args.get("card")), count=len(self.deck))

    def _ask_time_left(self, args: Mapping[str, JSON]) -> list[Event]:
        return [self._time_left_event(args)]

    def _ask_phase_info(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage == "choose_first":
            raise NotNow("choose_first_now")
        data = {
            "phase": self.phase,
            "rule": self.rule(),
            "artist": self.artist,
            "turn": self.turn_in_phase + 1,
            "turns": len(self.players),
        }
        return [Event("phase_info", data)]

    def _ask_my_cards(self, args: Mapping[str, JSON]) -> list[Event]:
        return self._my_cards()

    def _ask_board(self, args: Mapping[str, JSON]) -> list[Event]:
        if self.stage not in BOARD_STAGES:
            raise NotNow("board_too_early")
        if not self.board:
            return [Event("board_unknown")]
        return [Event("board_is", {"items": [dict(i) for i in self.board]})]

    def _hints_event(self) -> Event:
        given = self.round if self.stage in ("guess", "hint", "verdict") else 0
        data: dict[str, JSON] = {"count": given, "physical": self.physical}
        if not self.physical and self.card is not None:
            data["hints"] = [
                {"number": i, "hint": h}
                for i, h in enumerate(self.deck[self.card - 1].hints[:given], start=1)
            ]
        return Event("hints_so_far", data)

    def _time_left_event(self, args: Mapping[str, JSON]) -> Event:
        seconds = self._seconds_left(args)
        data = {"what": self.stage, "seconds": round(seconds), **self._current_side()}
        return Event("clock", data)

    def _current_side(self) -> dict[str, JSON]:
        """Whoever the running clock is for: the guesser, or else the Artist."""
        if self.stage == "guess" and self.queue:
            return self._side_data(self.queue[0])
        return {"player": self.artist}

    def _my_cards(self) -> list[Event]:
        if self.physical:
            raise NotAllowed("own_cards_physical")
        if self.card is not None and self.stage in ("create", "hint", "guess", "verdict"):
            card = self.deck[self.card - 1]
            data = {"player": self.artist, "card": self.card, "name": card.name}
            return [
                Event("told_privately", {"player": self.artist}),
                Event("your_character", data, to=self.artist),
            ]
        if self.card_mode == "deal" and self.stage in ("discard", "choose"):
            return [Event("told_privately", {"player": self.artist}), self._hand_event()]
        raise NotNow("no_card_yet", player=self.artist)

    def status(self) -> list[Event]:
        data: dict[str, JSON] = {
            "scores": dict(self.scores),
            "phase": self.phase,
            "artist": self.artist,
            "started": self.stage != "choose_first",
            "over": self.stage == "over",
        }
        if self.target is not None:
            data["target"] = self.target
        return [Event("status", data)]

    def prompt(self) -> list[Event]:
        stage = self.stage
        if stage == "choose_first":
            return [self._ask_first()]
        # While choosing, the Artist needs their dealt cards again (after resume, undo,
        # "whose turn"): told privately, like the first time.
        if stage == "discard":
            return [self._ask_discard_event(), self._hand_event()]
        if stage == "choose":
            hand = [self._hand_event()] if self.card_mode == "deal" else []
            return [self._artist_event(), *hand]
        if stage == "create":
            return [Event("painting", {"player": self.artist, "rule": self.rule()})]
        if stage == "hint":
            return [Event("read_hint", {"round": self.round, "artist": self.artist})]
        if stage == "guess":
            return [self._guess_turn_event()]
        if stage == "verdict":
            return [Event("ask_verdict", {**self._side_data(self.queue[0]), "artist": self.artist})]
        return [Event("game_over", self.result())]

    def public(self, action: Action) -> Action:
        """A guess without its verdict: the card it names may be the Artist's own."""
        if action.name == "guess":
            return Action("guess", {k: v for k, v in action.args.items() if k != "card"})
        return action

    def describe(self, action: Action) -> Event:
        """Names ``action`` as taken in the current state (never the secret character)."""
        data: dict[str, JSON] = {"player": self.artist, **self.public(action).args}
        if action.name in ("guess", "pass") and self.queue:
            data.update(self._side_data(self.queue[0]))
        if action.name == "guess":
            data["text"] = self._spoken_guess(action.args)
        if action.name == "penalty":
            data["player"] = action.args.get("player")
        return Event("action_" + action.name, data)

    def snapshot(self) -> dict[str, JSON]:
        return {
            "stage": self.stage,
            "phase": self.phase,
            "first_artist": self.first_artist,
            "artist": self.artist,
            "turn_in_phase": self.turn_in_phase,
            "card": self.card,
            "out_of_game": list(self.out_of_game),
            "hands": {p: list(h) for p, h in self.hands.items()},
            "round": self.round,
            "queue": list(self.queue),
            "heard": self.heard,
            "scores": dict(self.scores),
            "clock_steps": self.clock_steps,
            "outcome": self.outcome,
            "board": [dict(i) for i in self.board],
        }


def _board_items(value: Any) -> list[dict[str, JSON]]:
    """Board items from an action: ``[{"colour": id, "count": n, "place": id}, ...]``."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_BOARD_ITEMS:
        raise NotAllowed("bad_board")
    items = []
    for item in value:
        if not isinstance(item, Mapping):
            raise NotAllowed("bad_board")
        colour, count, place = item.get("colour"), item.get("count", 1), item.get("place")
        if not isinstance(colour, str) or not isinstance(place, str):
            raise NotAllowed("bad_board")
        if type(count) is not int or not 1 <= count <= 60:
            raise NotAllowed("bad_board")
        items.append({"colour": colour, "count": count, "place": place})
    return items


def _merged_board(
    board: list[dict[str, JSON]], told: list[dict[str, JSON]]
) -> list[dict[str, JSON]]:
    """The board with what was just told: same colour at the same place takes the new
    count, the rest is added in the order told; never more than ``MAX_BOARD_ITEMS``."""
    merged = [dict(i) for i in board]
    for item in told:
        same = [i for i in merged if (i["colour"], i["place"]) == (item["colour"], item["place"])]
        if same:
            same[0]["count"] = item["count"]
        else:
            merged.append(dict(item))
    if len(merged) > MAX_BOARD_ITEMS:
        raise NotAllowed("bad_board")
    return merged


def _decided_guess(name: str, card: int | None) -> Action:
    """A guess as the voice layer decides it (``card``: the deck card it names)."""
    return Action("guess", {"text": name.lower(), "name": name, "card": card})


def _flag(options: Mapping[str, Any], name: str) -> bool:
    value = options.get(name, False)
    if not isinstance(value, bool):
        raise SetupError("bad_option", option=name, value=str(value))
    return value


def _teams(value: Any, players: tuple[str, ...]) -> dict[str, tuple[str, ...]] | None:
    """Two teams from ``[[...], [...]]``; every player in exactly one, two or more each."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != len(TEAM_NAMES)
        or not all(isinstance(t, list) for t in value)
    ):
        raise SetupError("bad_teams")
    if len(players) < 2 * len(TEAM_NAMES):
        raise SetupError("teams_too_few")
    if any(p.casefold() in (t.casefold() for t in TEAM_NAMES) for p in players):
        raise SetupError("player_named_like_team", teams=", ".join(TEAM_NAMES))
    members = [p for team in value for p in team]
    for member in members:
        if member not in players:
            raise SetupError("team_member_unknown", name=str(member))
    for player in players:
        if members.count(player) != 1:
            raise SetupError("not_in_one_team", name=player)
    if any(len(team) < 2 for team in value):
        raise SetupError("team_too_small")
    if abs(len(value[0]) - len(value[1])) > 1:
        raise SetupError("teams_unequal")
    return {name: tuple(team) for name, team in zip(TEAM_NAMES, value, strict=True)}
