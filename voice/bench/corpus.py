"""The benchmark's fixed corpus: a reference game of Alle meine Farben and what is said in it.

The reference game is played with typed input through a real :class:`Session`, so every
utterance of the corpus belongs to a real moment of play, with that moment's grammar
(``session.phrases()``) and meaning of words. Commands are rendered from
``corpus.yaml`` (the way players talk), table talk is taken from there as it is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from games.alle_meine_farben import CELLS, AlleMeineFarben
from games.data import load as load_data
from games.engine import Action, Setup, replay
from games.errors import FarbspielError
from voice.output.sinks import NullOutput
from voice.session.adapters import adapter_for
from voice.session.adapters.alle_meine_farben import object_term
from voice.session.session import Phase, Session
from voice.understanding.policy import meaning_of

GAME = "alle-meine-farben"


class CorpusError(FarbspielError, ValueError):
    """The corpus file does not fit the grammar (a sentence the game would not understand)."""

    default_key = "bench_corpus"


@cache
def corpus_data(lang: str) -> Mapping[str, Any]:
    text = resources.files("voice.bench").joinpath("corpus.yaml").read_text(encoding="utf-8")
    data: dict[str, Mapping[str, Any]] = yaml.safe_load(text)
    return data[lang]


@dataclass(frozen=True)
class Moment:
    """A moment of the reference game: what the session listens for then."""

    key: str
    """``first``, ``turn7`` (object 7 asked for) or ``confirm7`` (a move awaits yes/no)."""
    phase: Phase
    phrases: tuple[str, ...]
    number: int | None = None
    names: tuple[str, ...] = ()
    """Names of several words the phrases hold (``Session.phrase_names``)."""


@dataclass(frozen=True)
class Item:
    """One utterance of the corpus."""

    text: str
    moment: str
    kind: str
    """``move``, ``command``, ``answer`` or ``table_talk``."""
    expected: Any = None
    """What it means (:func:`voice.understanding.policy.meaning_of`); ``None`` for table talk."""


def colour_name(colour: str, lang: str) -> str:
    return str(load_data("colours")[colour][lang])


def move_text(template: str, number: int, colour: str, lang: str) -> str:
    obj = format(object_term(lang)(number), "acc")
    return template.format(colour=colour_name(colour, lang), object=obj)


@dataclass
class ReferenceGame:
    """A complete cooperative game: who starts and which colour each object gets."""

    lang: str
    seed: int = 1
    players: tuple[str, ...] = ()
    youngest: str = ""
    colours: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        data = corpus_data(self.lang)
        self.players = tuple(data["players"])
        self.youngest = data["youngest"]
        self.colours = _complete_colouring(self.setup(), self.youngest, self.seed)

    def setup(self) -> Setup:
        return Setup(self.players, self.seed, None, {"variant": "basic"})

    def new_session(self) -> Session:
        session = Session(adapter_for(GAME), self.lang, self.setup(), NullOutput())
        session.start()
        return session

    def actions(self, upto: int) -> list[Action]:
        """The typed actions that bring the game to object ``upto`` (1 = first turn)."""
        actions = [Action("first", {"player": self.youngest})]
        actions += [Action("place", {"colour": c}) for c in self.colours[: upto - 1]]
        return actions

    def moments(self) -> dict[str, Moment]:
        """Every moment the corpus uses, with its grammar."""
        session = self.new_session()
        out = {"first": _moment("first", session, None)}
        for number in range(1, CELLS + 1):
            session = Session(
                adapter_for(GAME),
                self.lang,
                self.setup(),
                NullOutput(),
                actions=self.actions(number),
            )
            session.start(resumed=True)
            out[f"turn{number}"] = _moment(f"turn{number}", session, number)
            session.hear(move_text("{colour}", number, self.colours[number - 1], self.lang), 0.0)
            out[f"confirm{number}"] = _moment(f"confirm{number}", session, number)
        return out


def _moment(key: str, session: Session, number: int | None) -> Moment:
    return Moment(key, session.phase(), tuple(session.phrases()), number, session.phrase_names())


def _complete_colouring(setup: Setup, first: str, seed: int) -> list[str]:
    """Colours for objects 1..20 that the rules allow, found by seeded backtracking."""
    rng = random.Random(seed)

    def extend(chosen: list[str]) -> list[str] | None:
        if len(chosen) == CELLS:
            return chosen
        game = replay(AlleMeineFarben(setup), [Action("first", {"player": first})])
        assert isinstance(game, AlleMeineFarben)
        for colour in chosen:
            game.apply(Action("place", {"colour": colour}))
        options = game.allowed_colours()
        rng.shuffle(options)
        for colour in options:
            found = extend(chosen + [colour])
            if found is not None:
                return found
        return None

    colours = extend([])
    if colours is None:  # pragma: no cover - the grid always has a colouring
        raise CorpusError("no complete colouring found")
    return colours


def build_items(game: ReferenceGame, moments: Mapping[str, Moment]) -> list[Item]:
    """The recognition corpus of one language, in the order of play."""
    data = corpus_data(game.lang)
    parser = game.new_session().parser
    items: list[Item] = []

    def add(text: str, moment: str, kind: str) -> None:
        expected = None
        if kind != "table_talk":
            phase = moments[moment].phase
            intent = parser.parse(text, phase.intents, phase.slots, last=phase.last)
            if intent is None:
                raise CorpusError(f"{game.lang}: {text!r} is not understood at {moment}")
            expected = meaning_of(intent, phase.slots)
        items.append(Item(text, moment, kind, expected))

    for template in data["first"]:
        add(template.format(name=game.youngest), "first", "move")
    moves = data["move"]
    commands = list(data["commands"]) + list(data["pass"])
    answers = [(t, "yes") for t in data["yes"]] + [(t, "no") for t in data["no"]]
    talk = list(data["table_talk"])
    for number in range(1, CELLS + 1):
        colour = game.colours[number - 1]
        turn = f"turn{number}"
        for k in (0, 2):
            template = moves[(number + k) % len(moves)]
            add(move_text(template, number, colour, game.lang), turn, "move")
        if commands:
            add(commands.pop(0), turn, "command")
        if answers and number % 2 == 0:
            add(answers.pop(0)[0], f"confirm{number}", "answer")
        for _ in range(2 if number <= 10 else 1):
            if talk:
                add(talk.pop(0), turn, "table_talk")
    # what is left over goes to the last turns
    for text in commands:
        add(text, f"turn{CELLS}", "command")
    for text, _ in answers:
        add(text, f"confirm{CELLS}", "answer")
    for text in talk:
        add(text, f"turn{CELLS}", "table_talk")
    return items
