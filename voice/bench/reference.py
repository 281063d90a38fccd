"""Reference games of Farben and Pantone for the benchmark, and what is said in them.

Like the Alle meine Farben reference game (:mod:`voice.bench.corpus`), each is played
through a real :class:`Session`: a seeded sequence of legal engine actions, and every
moment of the corpus is the session resumed at one point of it, with that moment's
grammar (``session.phrases()``) and meaning of words. What players say comes from
``games.yaml``; the phrase lists come from the adapters and grammars as they are, so the
benchmark measures whatever the templates say today.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from games.engine import Action, Setup
from games.farben import COLOURS
from voice.bench.corpus import CorpusError, Item, Moment, colour_name
from voice.output.sinks import NullOutput, Output
from voice.session.adapters import adapter_for
from voice.session.session import Session
from voice.understanding.policy import meaning_of
from words.text import normalize

GAMES = ("alle-meine-farben", "farben", "pantone")


@cache
def games_data(game: str, lang: str) -> Mapping[str, Any]:
    text = resources.files("voice.bench").joinpath("games.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)[game][lang]


@dataclass
class Planned:
    """One move of the play pass: the actions before it, the move, ways to say it."""

    key: str
    before: int
    """Index into the reference actions: the move is ``actions[before]``."""
    intended: Action
    texts: list[str]


@dataclass
class ReferencePlay:
    """A seeded game of ``game`` and the corpus said in it."""

    game: str
    lang: str
    seed: int = 1
    players: tuple[str, ...] = ()
    actions: list[Action] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        data = games_data(self.game, self.lang)
        self.players = tuple(data["players"])
        self.adapter = adapter_for(self.game)
        if self.game == "pantone":
            forms = {normalize(f) for card in self._deck() for f in card.forms}
            self.outside = [n for n in data["outside"] if normalize(n) not in forms]
        self.actions = self._play()
        self._games: dict[int, Any] = {}

    # --- the game ------------------------------------------------------------------------
    def setup(self) -> Setup:
        return Setup(self.players, self.seed, None, self.adapter.default_options(self.lang))

    def _deck(self) -> Sequence[Any]:
        from games.pantone_deck import builtin_deck

        return builtin_deck(self.lang)

    def session_at(self, before: int, out: Output | None = None) -> Session:
        session = Session(
            self.adapter,
            self.lang,
            self.setup(),
            out or NullOutput(),
            actions=self.actions[:before],
        )
        session.start(resumed=before > 0)
        return session

    def new_session(self) -> Session:
        return self.session_at(0)

    def game_at(self, before: int) -> Any:
        """The engine as it stands before ``actions[before]`` (kept; do not change it)."""
        if before not in self._games:
            self._games[before] = self.session_at(before).game
        return self._games[before]

    def canonical(self, meaning: Any, moment: Moment) -> Any:
        """A meaning as the game at ``moment`` takes it, so that two ways of saying the
        same thing compare equal: a character by the deck card it names (an alias is the
        same card as the name; a character outside the deck by its own first name), a
        side of the word card ("the upper one") by its word."""
        if meaning is None or moment.number is None:
            return meaning
        name, slots = meaning
        values = dict(slots)
        game = self.game_at(moment.number)
        if "character" in values:
            values["character"] = self._character(str(values["character"]), game)
        if name == "choose_side" and "side" in values:
            event = game.describe(Action("side", {"side": values.pop("side")}))
            values["word"] = event.data.get("word")
        return (name, tuple(sorted(values.items(), key=lambda kv: kv[0])))

    def _character(self, text: str, game: Any) -> tuple[str, Any]:
        card = game.card_named(text)  # as the session decides a guess (action_for)
        if card is not None:
            return ("card", card)
        from games.pantone_deck import famous_characters

        key = normalize(text)
        for other in famous_characters(self.lang):
            if key in {normalize(f) for f in other.forms}:
                return ("other", normalize(other.name))
        return ("other", key)

    def move_key(self, action: Mapping[str, Any] | None, before: int) -> Any:
        """What a move (as JSON) does to the game before ``actions[before]``: a guess by the
        card it names (``None``: a wrong guess that names no card of the deck, whatever
        its words), a side by its word, a stack without who chose it."""
        if not action:
            return None
        name = action.get("name")
        args = dict(action.get("args", {}))
        if name == "guess":
            game = self.game_at(before)
            text = str(args.get("text", ""))
            card = args["card"] if "card" in args else game.card_named(text)
            return ("guess", card)
        if name == "side" and "side" in args:
            event = self.game_at(before).describe(Action("side", args))
            args = {"word": event.data.get("word")}
        if name == "stack":
            args.pop("player", None)
        return (name, tuple(sorted(args.items(), key=lambda kv: kv[0])))

    def _play(self) -> list[Action]:
        rng = random.Random(f"{self.game}|{self.lang}|{self.seed}")
        game = self.adapter.create(self.setup())
        game.start()
        actions: list[Action] = []
        self._so_far = actions
        limit = 400 if self.game == "farben" else 60
        while not game.is_over() and len(actions) < limit:
            action = self._choose(game, rng)
            game.apply(action)
            actions.append(action)
        return actions

    def _choose(self, game: Any, rng: random.Random) -> Action:
        legal = game.legal_actions()
        if self.game == "farben":
            if game.stage == "choose_first":
                return Action("first", {"player": rng.choice(self.players)})
            if game.stage == "side":
                return rng.choice([a for a in legal if "word" in a.args])
            if game.stage == "naming":
                hints = [a for a in legal if a.name == "hint"]
                if hints and rng.random() < 0.15:
                    return rng.choice(hints)
                names = [a for a in legal if a.name == "name"]
                return rng.choice(names)
            return rng.choice(legal)
        stage = game.stage
        if stage == "choose_first":
            return Action("first", {"player": rng.choice(self.players)})
        if stage in ("create", "hint"):
            return Action("done")
        if stage == "choose":
            return rng.choice([a for a in legal if a.name == "choose"])
        if stage == "guess":
            roll = rng.random()
            if not any(a.name == "pass" for a in self._so_far):
                roll = 0.4  # every kind of move at least once: the first guess passes
            guesses = [a for a in legal if a.name == "guess"]
            if roll < 0.06:
                others = [p for p in self.players if p != game.current_player()]
                return Action("penalty", {"player": rng.choice(others)})
            if roll < 0.3 and self.outside:
                return Action("guess", {"text": rng.choice(self.outside)})
            if roll < 0.45:
                return Action("pass")
            right = guesses[-1]
            if roll < 0.6 and len(guesses) > 1:
                return guesses[0]
            return right
        return rng.choice([a for a in legal if a.name != "timer"])

    # --- what is said --------------------------------------------------------------------
    def texts(self, action: Action) -> list[str]:
        """Ways the corpus says ``action`` (varied phrasings, the first the plainest)."""
        data = games_data(self.game, self.lang)
        args = action.args
        name = action.name
        if name == "first":
            return [t.format(name=args["player"]) for t in data["first"]]
        if name == "guess":
            return [t.format(character=args["text"]) for t in data["guess"]]
        if name == "penalty":
            return [t.format(player=args["player"]) for t in data["penalty"]]
        if name == "choose":
            return [t.format(card=args["card"]) for t in data["choose"]]
        if name in ("side", "stack"):
            return [t.format(word=args["word"]) for t in data[name]]
        if name in ("reveal", "name"):
            colour = colour_name(args["colour"], self.lang)
            return [t.format(colour=colour, player=args.get("player", "")) for t in data[name]]
        if name == "hint":
            return [t.format(player=args["player"]) for t in data["hint"]]
        return list(data[name])

    def kind_of(self, action: Action) -> str:
        if action.name == "guess" and action.args["text"] in self.outside:
            return "wrong_guess"
        return "move"

    # --- the recognition corpus ----------------------------------------------------------
    def selected(self) -> list[int]:
        """Indices of the reference actions the recognition pass says (every kind of
        move, spread over the game)."""
        caps = (
            {"first": 1, "side": 3, "ready": 3, "reveal": 8, "done": 4, "stack": 3,
             "name": 12, "hint": 3}
            if self.game == "farben"
            else {"first": 1, "choose": 5, "done": 5, "guess": 14, "pass": 3, "penalty": 3}
        )  # fmt: skip
        counts: dict[str, int] = {}
        chosen = []
        for index, action in enumerate(self.actions):
            kind = action.name
            if kind == "guess" and action.args["text"] in self.outside:
                kind = "outside"
                caps.setdefault("outside", 6)
            if counts.get(kind, 0) < caps.get(kind, 0):
                counts[kind] = counts.get(kind, 0) + 1
                chosen.append(index)
        return chosen

    def moments(self) -> dict[str, Moment]:
        out: dict[str, Moment] = {}
        session = self.new_session()  # one grammar for all (its phrase lists are cached)
        for index in self.selected():
            session.actions = list(self.actions[:index])
            session.check_replay()
            out[f"at{index}"] = Moment(
                f"at{index}",
                session.phase(),
                tuple(session.phrases()),
                index,
                session.phrase_names(),
            )
        return out

    def items(self, moments: Mapping[str, Moment]) -> list[Item]:
        data = games_data(self.game, self.lang)
        parser = self.new_session().parser
        items: list[Item] = []
        commands = list(data["commands"]) + (list(data["hints"]) if "hints" in data else [])
        talk = list(data["table_talk"])
        quiet = [k for k, m in moments.items() if m.phase.quiet]

        def add(text: str, moment: str, kind: str) -> None:
            expected = None
            if kind != "table_talk":
                phase = moments[moment].phase
                intent = parser.parse(text, phase.intents, phase.slots, last=phase.last)
                if intent is None and kind != "wrong_guess":
                    raise CorpusError(f"{self.game} {self.lang}: {text!r} is not understood")
                if intent is not None:
                    expected = meaning_of(intent, phase.slots)
            items.append(Item(text, moment, kind, expected))

        for n, (key, moment) in enumerate(moments.items()):
            action = self.actions[moment.number or 0]
            texts = self.texts(action)
            kind = self.kind_of(action)
            for k in (0, 1) if len(texts) > 1 else (0,):
                add(texts[(n + k) % len(texts)], key, kind)
            if commands and n % 2 == 1:
                text = commands.pop(0)
                if "hints" in data and text in data["hints"]:
                    # the hints are asked for while guessing
                    guessing = [k for k, m in moments.items() if "hints" in m.phase.intents] or [
                        key
                    ]
                    add(text, guessing[n % len(guessing)], "command")
                else:
                    add(text, key, "command")
        places = quiet or list(moments)
        for n, text in enumerate(talk):
            add(text, places[n % len(places)], "table_talk")
        # the table talk of Alle meine Farben (family chatter) is said here too
        from voice.bench.corpus import corpus_data

        every = list(moments)
        for n, text in enumerate(corpus_data(self.lang)["table_talk"][:10]):
            add(text, every[(3 * n) % len(every)], "table_talk")
        return items

    # --- the play pass -------------------------------------------------------------------
    def plan(self) -> list[Planned]:
        """Farben: the first round and the first turns of the scoring phase; Pantone: the
        first turns, from the start."""
        if self.game == "farben":
            first_round = list(range(0, 9))
            scoring = next(
                (i for i, a in enumerate(self.actions) if a.name == "stack"), len(self.actions)
            )
            indices = first_round + list(range(scoring, min(scoring + 12, len(self.actions))))
        else:
            indices = list(range(0, min(18, len(self.actions))))
        return [
            Planned(f"move{i}", i, self.actions[i], self.texts(self.actions[i])) for i in indices
        ]


__all__ = ["COLOURS", "GAMES", "Planned", "ReferencePlay"]
