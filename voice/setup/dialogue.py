"""The set-up dialogue: asks for the game and the players, says the set-up back, starts on
"yes". Pure logic: it gets answers as text and returns what to say (a prompt key and data).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz, process

from voice.setup.grammar import setup_grammar
from voice.setup.spelling import MAX_LETTERS, letters_in, spelled_name
from voice.setup.understanding import Answer, understand
from words.text import normalize


@dataclass(frozen=True)
class Plan:
    """A set-up so far: the game, the players, options (flag -> value), the language."""

    lang: str
    game: str | None = None
    players: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)

    def argv(self) -> list[str]:
        """The same set-up as a ``farbspiel play`` command line (after ``play``)."""
        assert self.game is not None
        line = [self.game, "--lang", self.lang, "--players", ",".join(self.players)]
        for flag, value in self.options.items():
            if value == "true":  # a flag without a value ("--speed")
                line.append(flag)
            elif value:
                line += [flag, value]
        return line


@dataclass
class Reply:
    key: str
    data: dict[str, object] = field(default_factory=dict)
    start: list[str] | None = None  # the command line to start, once confirmed
    done: bool = False  # the table wants to stop


@dataclass(frozen=True)
class TooFew:
    """A set-up that cannot start only because players are missing: ``more`` at least."""

    more: int


Check = Callable[[list[str]], str | TooFew | None]
"""Says why a command line cannot start (the command line's own message), or None."""
NameCheck = Callable[[str, tuple[str, ...]], str | None]
"""Before the game is known: why one of these names cannot be a player's (a command)."""


@dataclass(frozen=True)
class Remembered:
    """What the household file knows (voice/setup/household.py): all optional."""

    last: Plan | None = None
    options: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> preferred
    players: tuple[str, ...] = ()
    assistant: str | None = None


KNOWN_NAME = 80
"""How close (rapidfuzz ratio) a heard name must be to a remembered player to be them."""


class SetupDialogue:
    def __init__(
        self,
        lang: str,
        check: Check,
        last: Plan | None = None,
        known: Remembered | None = None,
        names: NameCheck | None = None,
    ) -> None:
        self.names = names
        self.plan = Plan(lang)
        self.history: list[Plan] = []
        self.check = check
        self.known = known or Remembered(last=last)
        self.last = last or self.known.last
        self.after = False  # a game has just ended: new round, another game or stop
        self._short: dict[tuple[str, ...], int] = {}  # a set-up's command line -> missing
        self.spelled: list[str] | None = None
        """While a new name is spelled: the letters heard, an answer's worth each."""

    def first(self) -> Reply:
        return Reply("ask_game")

    def game_ended(self, played: Plan) -> Reply:
        """After a game: "neue Runde" plays it again, "ein anderes Spiel" chooses anew."""
        self.last = played
        self.plan = played
        self.history = []
        self.after = True
        return Reply("after_game", self._summary())

    def changes_game(self, text: str) -> bool:
        """Would ``text`` put another game in place of the one already chosen?"""
        if self.plan.game is None or self.spelled is not None:
            return False
        game = understand(text, self.plan.lang).game
        return game is not None and game != self.plan.game

    @property
    def spelling(self) -> bool:
        """A new name is being spelled: the recogniser listens for letters."""
        return self.spelled is not None

    def hear(self, text: str) -> Reply:
        if self.spelled is not None:
            return self._spell(text)
        answer = understand(text, self.plan.lang, players_asked=self._step() == "ask_players")
        if self.after:
            return self._after_game(answer)
        if answer.word == "help":
            return Reply(self._step() + "_help", self._summary())
        if answer.word == "stop":
            return Reply("input_ended", done=True)
        if answer.word == "back":
            if self.history:
                self.plan = self.history.pop()
            return self._next("went_back") if self.history or self.plan.game else self._next()
        if answer.word in ("again", "new_round"):
            if self.last is None:
                return Reply("no_last_time")
            return self._apply(self.last)
        if answer.word == "other_game":
            return self._apply(replace(self.plan, game=None, options={}))
        if answer.word == "yes":
            if self._step() != "confirm":
                return self._next()
            return Reply("starting", self._summary(), start=self.plan.argv())
        if answer.word == "no":
            return Reply("what_else")
        if answer.word == "spell":
            self.spelled = []
            return Reply("spell_start")
        if answer.empty:
            return self.repeat()
        return self._apply(self._merge(answer))

    def _spell(self, text: str) -> Reply:
        """One answer while a name is spelled: letters, or "fertig", "zurück",
        "abbrechen", "Hilfe"."""
        assert self.spelled is not None
        g = setup_grammar(self.plan.lang)
        said = {normalize(text), _without_fillers(normalize(text), g.fillers)}
        if said & set(g.spelling.done):
            return self._spelled_name()
        if said & set(g.spelling.cancel):
            self.spelled = None
            return self._next("spell_cancelled")
        if said & set(g.spelling.back):
            if self.spelled:
                self.spelled.pop()
            return Reply("spell_taken_back" if self.spelled else "spell_none_yet", self._letters())
        if said & set(g.words["help"]):
            return Reply("spell_help")
        letters = letters_in(text, g)
        if letters is None or len("".join(self.spelled)) + len(letters) > MAX_LETTERS:
            return Reply("spell_again", self._letters())
        self.spelled.append(letters)
        return Reply("spelled", {"letters": _said_letters(letters)})

    def _spelled_name(self) -> Reply:
        """ "fertig": the letters heard are a player's name."""
        assert self.spelled is not None
        letters, self.spelled = "".join(self.spelled), None
        if not letters:
            return self._next("spell_cancelled")
        name = spelled_name(letters)
        reply = self._apply(replace(self.plan, players=(*self.plan.players, name)))
        if reply.key == "cannot":
            return reply
        return Reply(
            "name_spelled",
            {**reply.data, "name": name, "letters": _said_letters(letters), "next": reply.key},
        )

    def _letters(self) -> dict[str, object]:
        return {"letters": _said_letters("".join(self.spelled or ()))}

    def _after_game(self, answer: Answer) -> Reply:
        if answer.word in ("new_round", "again", "yes"):
            self.after = False
            return Reply("starting", self._summary(), start=self.plan.argv())
        if answer.word in ("no", "stop"):
            return Reply("goodbye", done=True)
        if answer.word == "help":
            return Reply("after_game_help")
        if answer.empty:
            return Reply("after_game_again", self._summary())
        self.after = False  # "ein anderes Spiel", or a new set-up said at once
        if answer.word == "other_game":
            return self._apply(replace(self.plan, game=None, options={}))
        return self._apply(self._merge(replace(answer, word=None)))

    def _merge(self, answer: Answer) -> Plan:
        plan = self.plan
        if answer.game is not None and answer.game != plan.game:
            preferred = dict(self.known.options.get(answer.game, {}))
            plan = replace(plan, game=answer.game, options=preferred)
        if answer.players:
            heard = answer.players
            if self._missing(plan) and not {p.lower() for p in heard} & {
                p.lower() for p in plan.players
            }:  # "Pantone, I am Sam" ... "and Jo": Jo plays too
                heard = (*plan.players, *heard)
            plan = self._players(plan, heard)
        if answer.lang is not None:
            plan = replace(plan, lang=answer.lang)
        options = dict(plan.options)
        for flag, (game, value) in answer.options.items():
            if plan.game is None:
                plan = replace(plan, game=game)
            if game == plan.game:
                options[flag] = value
        return replace(plan, options=options)

    def _players(self, plan: Plan, heard: tuple[str, ...]) -> Plan:
        """The players heard, each snapped to a remembered player it sounds like ("Ana"
        is the household's Anna); the household's assistant becomes the assistant."""
        names: list[str] = []
        options = {k: v for k, v in plan.options.items() if k != "--assistant"}
        for name in heard:
            found = process.extractOne(
                name, self.known.players, scorer=fuzz.ratio, processor=str.lower,
                score_cutoff=KNOWN_NAME,
            )  # fmt: skip
            name = found[0] if found else name
            assistant = self.known.assistant
            if assistant is not None and name.lower() == assistant.lower():
                options["--assistant"] = assistant
            else:
                names.append(name)
        return replace(plan, players=tuple(names), options=options)

    def _apply(self, plan: Plan) -> Reply:
        if plan == self.plan:
            return self.repeat()
        if plan.game is not None and plan.players:
            problem = self.check(plan.argv())
            if isinstance(problem, TooFew):  # kept: "Wer spielt noch mit?"
                self._short[tuple(plan.argv())] = problem.more
            elif problem is not None:  # said back; the set-up stays as it was
                return Reply("cannot", {"problem": problem})
        elif plan.players != self.plan.players and self.names is not None:
            problem = self.names(plan.lang, plan.players)
            if problem is not None:
                return Reply("cannot", {"problem": problem})
        self.history.append(self.plan)
        self.plan = plan
        return self._next()

    def repeat(self) -> Reply:
        """The short repeat after silence, noise or an answer that changed nothing."""
        if self.spelled is not None:
            return Reply("spell_again", self._letters())
        if self.after:
            return Reply("after_game_again", self._summary())
        return Reply(self._question() + "_again", self._summary())

    def _step(self) -> str:
        if self.plan.game is None:
            return "ask_game"
        if not self.plan.players or self._missing(self.plan):
            return "ask_players"
        return "confirm"

    def _missing(self, plan: Plan) -> int:
        """How many more players ``plan`` needs to start (0: none, or it is not known)."""
        if plan.game is None or not plan.players:
            return 0
        key = tuple(plan.argv())
        if key not in self._short:
            problem = self.check(plan.argv())
            self._short[key] = problem.more if isinstance(problem, TooFew) else 0
        return self._short[key]

    def _question(self) -> str:
        """The prompt of the step: asking for players while some are set asks who else
        ("Pantone mit Sam. Wer spielt noch mit?")."""
        step = self._step()
        return "more_players" if step == "ask_players" and self.plan.players else step

    def _next(self, key: str | None = None) -> Reply:
        """The next step's question; after ``key`` ("went_back"), if given."""
        step = self._question()
        data = self._summary()
        if key is not None:
            return Reply(key, {**data, "next": step})
        return Reply(step, data)

    def _summary(self) -> dict[str, object]:
        plan = self.plan
        return {
            "game": plan.game or "",
            "players": list(plan.players),
            "count": len(plan.players),
            "options": [f"{k[2:]}={v}" for k, v in plan.options.items() if v],
        }


def _said_letters(letters: str) -> str:
    """Letters as they are said back: "M, I, A" (empty: none yet)."""
    return ", ".join(letter.upper() for letter in letters)


def _without_fillers(text: str, fillers: frozenset[str]) -> str:
    """``text`` without filler words at its ends ("okay, fertig bitte": "fertig"), its
    last word kept: unlike the set-up answer's core, "fertig" and "done" are also frame
    words, and here they are the answer."""
    words = text.split()
    while len(words) > 1 and words[0] in fillers:
        words.pop(0)
    while len(words) > 1 and words[-1] in fillers:
        words.pop()
    return " ".join(words)
