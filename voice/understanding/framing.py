"""What a frame may do to the sentence inside it (the frames: :mod:`.frames`).

The parser reads an utterance that is not understood as it is as frames around a core
and matches the core with the templates; the frames then decide, the same for every
intent:

- a question frame ("can I", "kannst du", "darf ich") asks for what the core says when
  that is a request, a command or a question ("can I have a hint", "kannst du das
  wiederholen"), but never makes a move with a value: "can I play red" asks about it;
- a negation before the core ("no, …", "nö, passe") never makes such a move either;
  before a colour, right after a move with a colour, it corrects that move, if a pause
  (a typed comma) parts it from the colour: "no, green" corrects, "no green" stays a
  refusal; a word that corrects ("sorry", "oops", "quatsch", "nein warte") corrects
  without one, and is a preface where nothing can be corrected;
- a vocative that names a player fills the slot the game lets the person asked fill
  (``addressee_slots`` of a game's grammar: in Farben, whom a hint is asked from); in a
  move, a player named beside it is advice to that player (the guard refuses it);
- prefaces, exclamations, announcements, answer words, politeness and tails are let be.

The guard (:func:`voice.understanding.fallback.refused`) still looks at the whole
utterance: a tag question typed with "?" ("Cem had green, right?") is no move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from voice.understanding.fallback import Fallback, refused
from voice.understanding.frames import Reading
from voice.understanding.grammar import Grammar
from voice.understanding.intent import Intent

CORRECTION = "correction"
"""The grammar's intent of a correction right after a move ("nein, doch gelb")."""

_NOT_A_MOVE = frozenset({"question", "negation"})
"""Frames around a core that is then no move with a value."""


class Matcher(Protocol):
    """What the frames need of a parser (:class:`voice.understanding.intents.IntentParser`)."""

    @property
    def grammar(self) -> Grammar: ...

    @property
    def fallback(self) -> Fallback: ...

    @property
    def frame_guarded(self) -> frozenset[str]:
        """Intents no question or negation frame may give (moves with a value)."""
        ...

    def exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """The best exact template match of ``norm``."""
        ...


def readings(parser: Matcher, norm: str, raw: str | None) -> list[Reading]:
    """The frame readings of ``norm`` and of it with its short forms said long ("so
    where's the cup": "where is the cup")."""
    frames = parser.grammar.frames
    found = frames.readings(norm, raw)
    expanded = frames.expanded(norm)
    if expanded != norm:
        found += frames.readings(expanded)
    return found


def framed(
    parser: Matcher, norm: str, raw: str | None, allowed: frozenset[str] | None
) -> tuple[Intent, str] | None:
    """The sentence inside conversational frames ("Cem, can I have a hint", "okay I've
    got my word, it's the first one", "pass, sorry"), as the frames let it mean, and
    where the guard looks for its values."""
    grammar = parser.grammar
    for reading in readings(parser, norm, raw):
        found = _as_core(parser, reading.core, allowed)
        if found is None:
            continue
        meant = through(
            reading, found.name, found.slots, parser.frame_guarded, grammar.addressee_slots
        )
        if meant is not None:
            return Intent(meant[0], meant[1], norm, found.score), reading.values
    return None


def _as_core(parser: Matcher, core: str, allowed: frozenset[str] | None) -> Intent | None:
    if not _matchable(parser.grammar, core):
        return None
    found = parser.exact(core, allowed)
    if found is None:
        without = parser.grammar.frames.without_inside(core)  # "gib mir doch mal …"
        if without != core:
            found = parser.exact(without, allowed)
    return found


def corrected(
    parser: Matcher, norm: str, raw: str | None, allowed: frozenset[str] | None
) -> Intent | None:
    """A correction right after a move: "sorry, blue", "nein warte, lila", "no, green"
    (a typed pause after "no"; without one "no green" is a refusal)."""
    if allowed is None or CORRECTION not in allowed:
        return None
    grammar = parser.grammar
    for reading in grammar.frames.readings(norm, raw):
        core = reading.core.split()
        if not (corrects(reading) and parser.fallback.names(core, "colour")):
            continue  # only a colour corrects
        found = parser.exact(reading.core, allowed - {CORRECTION})
        if found is None or (
            found.name in grammar.guarded_intents
            and refused(grammar, parser.fallback, reading.core, reading.core, found.slots)
        ):
            continue
        slots = correction(reading, found.name, found.slots, parser.frame_guarded)
        if slots is not None:
            return Intent(CORRECTION, slots, norm, found.score)
    return None


def _matchable(grammar: Grammar, core: str) -> bool:
    """Can ``core`` match a template at all? Not with a word no template or list holds
    (digits aside): most readings of table talk end here, before any matching."""
    words = grammar.matchable
    return all(w in words or w.isdigit() or _owner(w, words) for w in core.split())


def _owner(word: str, words: frozenset[str] | set[str]) -> bool:
    """A name with the possessive s of a template such as "{player}'s phone" ("anna's",
    German "annas")."""
    stem = word.removesuffix("'s") if word.endswith("'s") else word.removesuffix("s")
    return stem != word and stem in words


def corrects(reading: Reading) -> bool:
    """Do the frames before the core correct the move just made ("oops, …", "no, …")?"""
    kinds = reading.kinds
    return "correction" in kinds or ("negation" in kinds and reading.pause)


def correction(
    reading: Reading, name: str, slots: Mapping[str, Any], guarded: frozenset[str]
) -> dict[str, Any] | None:
    """The correction's slots if the core (understood as ``name``, ``slots``) gives a
    colour that corrects the last move ("sorry, blue", "nein warte, lila"); else ``None``."""
    if not corrects(reading):
        return None
    if name == CORRECTION:
        return dict(slots)
    colour = slots.get("colour")
    if name in guarded and isinstance(colour, str):
        return {"colour": colour}
    return None


def through(
    reading: Reading,
    name: str,
    slots: Mapping[str, Any],
    guarded: frozenset[str],
    addressee_slots: Mapping[str, str],
) -> tuple[str, dict[str, Any]] | None:
    """What the core (understood as ``name``, ``slots``) means inside its frames, or
    ``None`` if the frames forbid it (a question or a negation around a move)."""
    if name in guarded and reading.kinds & _NOT_A_MOVE:
        return None
    out = dict(slots)
    slot = addressee_slots.get(name)
    if reading.addressee is not None and slot is not None and slot not in out:
        out[slot] = reading.addressee  # "Cem, can I have a hint": a hint from Cem
    return name, out
