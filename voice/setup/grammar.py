"""The set-up's words as data: ``grammars/<lang>/setup.yaml`` (games, options in plain
words, who plays, the dialogue's words), with the fillers of the conversational frames of
``grammars/<lang>/common.yaml`` (prefaces, politeness, tails: never a name, never a value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from voice.understanding.grammar import GrammarError
from words.text import normalize

FILLER_FRAMES = ("preface", "exclamation", "politeness", "tail", "request", "negation")


@dataclass(frozen=True)
class Option:
    game: str
    flag: str
    value: str
    says: tuple[str, ...]


@dataclass(frozen=True)
class Spelling:
    """How a name is spelled aloud, letter by letter (``spelling`` in setup.yaml)."""

    letters: dict[str, str]  # a word said for a letter ("em", "doubleyou") -> the letter
    heard: tuple[str, ...]  # what the recogniser listens for: the letters, and heard_too
    words: dict[str, str]  # the spelling alphabet: "dora" / "delta" -> d
    link: tuple[str, ...]  # "d wie dora", "d for delta"
    done: tuple[str, ...]
    cancel: tuple[str, ...]
    back: tuple[str, ...]


@dataclass(frozen=True)
class SetupGrammar:
    """One language's set-up words (see ``grammars/<lang>/setup.yaml``)."""

    lang: str
    names: dict[str, tuple[str, ...]]  # game -> what it is called
    cues: dict[str, tuple[str, ...]]  # game -> words that point to it
    options: tuple[Option, ...]
    teams: dict[str, Any]
    time_limit: dict[str, Any]
    players: dict[str, Any]
    words: dict[str, tuple[str, ...]]  # back, help, again, new_round, other_game
    yes: tuple[frozenset[str], frozenset[str]]
    no: tuple[frozenset[str], frozenset[str]]
    language: dict[str, tuple[str, ...]]
    fillers: frozenset[str]  # single words of the frames: never a name
    not_names: frozenset[str]
    typed_only: frozenset[str]  # understood when typed, never listened for
    spelling: Spelling


def _load(lang: str, name: str) -> Any:
    path = resources.files("grammars").joinpath(lang, f"{name}.yaml")
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise GrammarError(f"grammars/{lang}/{name}.yaml: {exc}") from exc


def _phrases(items: Any) -> tuple[str, ...]:
    return tuple(normalize(str(p)) for p in items or ())


def _frame_words(frames: dict[str, Any]) -> frozenset[str]:
    """The one-word alternatives of the filler frames ("(okay|also|na)" -> okay, also, na)."""
    words: set[str] = set()
    for kind in FILLER_FRAMES:
        for template in frames.get(kind, []):
            for group in re.findall(r"\(([^()]*)\)", str(template)):
                words |= {w for w in group.split("|") if w and " " not in w}
    return frozenset(normalize(w) for w in words)


@cache
def setup_grammar(lang: str) -> SetupGrammar:
    data = _load(lang, "setup")
    frames = (_load(lang, "common") or {}).get("frames", {})
    games = data["games"]
    options = tuple(
        Option(o["game"], o["flag"], str(o["value"]), _phrases(o["says"])) for o in data["options"]
    )
    vocabulary: set[str] = set()
    for phrases in [*(g.get("names", []) for g in games.values()), data["teams"]["says"]]:
        vocabulary |= {w for p in _phrases(phrases) for w in p.split()}
    for option in options:
        vocabulary |= {w for p in option.says for w in p.split()}
    for phrases in data["words"].values():
        vocabulary |= {w for p in _phrases(phrases) for w in p.split()}
    vocabulary |= {w for p in _phrases(data["time_limit"]["says"]) for w in p.split()}
    vocabulary |= set(data["time_limit"]["units"]) | set(data["time_limit"]["numbers"])
    for game in games.values():  # "das mit den Wortkarten": no player called Wortkarten
        vocabulary |= {w for p in _phrases(game.get("cues")) for w in p.split()}
    for phrases in data["language"].values():
        vocabulary |= {w for p in _phrases(phrases) for w in p.split()}
    fillers = _frame_words(frames)
    spelling = data["spelling"]
    said_as = {
        normalize(str(form)): letter
        for letter, forms in spelling["letters"].items()
        for form in forms or ()
    }
    return SetupGrammar(
        lang=lang,
        names={g: _phrases(v.get("names")) for g, v in games.items()},
        cues={g: _phrases(v.get("cues")) for g, v in games.items()},
        options=options,
        teams=data["teams"],
        time_limit=data["time_limit"],
        players=data["players"],
        words={k: _phrases(v) for k, v in data["words"].items()},
        yes=(
            frozenset(_phrases(data["affirm"]["core"])),
            frozenset(_phrases(data["affirm"]["extra"])),
        ),
        no=(frozenset(_phrases(data["deny"]["core"])), frozenset(_phrases(data["deny"]["extra"]))),
        language={k: _phrases(v) for k, v in data["language"].items()},
        fillers=fillers,
        not_names=frozenset(_phrases(data["not_names"])) | vocabulary | fillers,
        typed_only=frozenset(_phrases(data.get("typed_only"))),
        spelling=Spelling(
            letters={**{letter: letter for letter in spelling["letters"]}, **said_as},
            heard=(*spelling["letters"], *_phrases(spelling.get("heard_too"))),
            words={normalize(str(w)): letter for letter, w in spelling["words"].items()},
            link=_phrases(spelling["link"]),
            done=_phrases(spelling["done"]),
            cancel=_phrases(spelling["cancel"]),
            back=_phrases(spelling["back"]),
        ),
    )
