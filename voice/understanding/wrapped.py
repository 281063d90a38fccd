"""A move wrapped in words of the family's own, that no template and no frame holds.

"I'll stick blue on the house", "Gimme yellow for the car. Like a taxi.", "Dä Mülleimer
kritt Orange, dat is jetz entschieden": children and parents say the move of the phase
with verbs, asides and dialect nobody wrote down. When nothing else has understood a
sentence, it is read here by what it names and does, never by its word order:

- it names exactly one value of the move's slot (a colour; said again, "Yellow! A yellow
  fish", it is still one), and of the slot the phase fixes (the object in play) nothing
  but that value, and no value of any other list (no player, no word card);
- it holds one of the move's words, a verb that makes or gives ("stick", "kritt", "mach",
  "gonna be"): a colour only named ("Our house is white", "Ich hab zwei lila") tells
  something, it moves nothing;
- none of the words that make it about something else: an owner before the object ("our
  house", "Papas Auto", "my hat at home"), a comparison with the world ("too", "auch"), a
  wish or a would ("ich würd ja blau nehmen"), a hand of cards ("I've got two blues");
- the guard lets it through (no question, negation, hedge, advice; the song not sung).

The words are the grammar's (``wrapped_moves`` of a game file), per move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from voice.understanding.fallback import SURE_SCORE, Fallback, Span, refused
from voice.understanding.grammar import Grammar, WrappedMove, holds_phrase
from voice.understanding.intent import Core, Intent
from words.text import normalize

REACH = 3
"""An owner this many words before the object or nearer makes it someone's thing ("our
real house", "Dad's red car")."""


def wrapped(
    grammar: Grammar,
    fallback: Fallback,
    raw: str | None,
    norm: str,
    allowed: frozenset[str] | None,
    phase_slots: Mapping[str, Iterable[Any]] | None,
) -> tuple[Intent, Core] | None:
    """The move of the phase ``norm`` says in words of its own, and the clauses that say
    it (where the guard reads it: a reason beside it may weigh), or ``None``."""
    if raw is None or allowed is None or not phase_slots:
        return None
    for name, spec in grammar.wrapped_moves.items():
        if name not in allowed:
            continue
        found = _read(grammar, fallback, raw, norm, name, spec, phase_slots)
        if found is not None:
            return found
    return None


_CLAUSE = re.compile(r"[^,;.!?…]+[,;.!?…]*")


def _read(
    grammar: Grammar,
    fallback: Fallback,
    raw: str,
    norm: str,
    name: str,
    spec: WrappedMove,
    phase_slots: Mapping[str, Iterable[Any]],
) -> tuple[Intent, Core] | None:
    guard = grammar.guard_words
    value_slot = spec.value
    fixed = {k: frozenset(v) for k, v in phase_slots.items()}
    said: set[Any] = set()
    who_slots = spec.who
    whom: set[tuple[str, Any]] = set()  # who the value is of (Farben: a player, oneself)
    slots: dict[str, Any] = {}
    held: list[str] = []  # the clauses that name a value: the move is said there
    beside: list[list[str]] = []  # the words of the others
    verb = False
    every: list[str] = []
    openers: list[str] = []  # the first word of each clause (after "and", "so", "oh")
    for piece in _CLAUSE.findall(raw):
        if "?" in piece and normalize(piece) not in guard.get("tag", frozenset()):
            return None  # "Blue? Yeah, blue fish": still asked; "…, okay?" only tags it
        clause = grammar.frames.standard(normalize(piece))
        for idiom in spec.idioms:
            clause = f" {clause} ".replace(f" {idiom} ", " ").strip()
        tokens = fallback.tokens(clause)
        spans = fallback.spans(tokens)
        inside: set[int] = set()
        for span in spans:
            inside.update(range(span.start, span.end))
            if span.slot == value_slot:
                said.add(span.value)
            elif span.slot in who_slots:
                if span.slot != "self" or any(other.slot == value_slot for other in spans):
                    whom.add((span.slot, span.value))  # (not "…, da wett ich drauf")
            elif span.slot == "self":
                continue
            elif fixed.get(span.slot) != frozenset({span.value}):
                return None  # another object, a player, a word card: about something else
            elif any(_owner(spec, w) for w in tokens[max(0, span.start - REACH) : span.start]):
                return None  # "our real house", "Papas Auto": not the square on the board
        words = [t for i, t in enumerate(tokens) if i not in inside]
        if _describes(grammar, spec, tokens, spans, inside):
            return None  # "I had a green bucket as a kid": a colour of a thing
        every.extend(words)
        lead = 0
        while lead < len(tokens) - 1 and tokens[lead] in guard.get("detached", ()):
            lead += 1
        if tokens:
            openers.append(tokens[lead])
        named = [span for span in spans if span.slot != "self"]
        if named:
            held.append(clause)
            bare = all(w in guard.get("stop", ()) or w in grammar.opening_words for w in words)
            # the verb in the clause as said: "mal" is a filler to the fallback ("guck mal")
            verb = verb or holds_phrase(clause, spec.verbs) or (bare and _together(named))
            # the value said alone in a clause of its own: "The saw... purple, why not"
            alone = bare and all(span.slot == value_slot for span in named)
            verb = verb or (alone and spec.said_alone)
        else:
            beside.append(words)
    if len(said) != 1 or not verb or holds_phrase(" ".join(every), spec.apart):
        return None
    if len(whom) > 1 or (who_slots and not whom and not spec.who_optional):
        return None  # "Cem had blue and Anna brown": two moves, no one reading
    slots.update(whom)
    # a clause opened by a question word asks ("where did the red card go"); inside one
    # it tells ("da hab ich was Gutes"), and a likeness word after the first clause
    # compares ("Orange, wie 'n Kürbis")
    asking = guard.get("question_word", frozenset())
    likeness = grammar.frames.likeness
    if any(w in asking and (i == 0 or w not in likeness) for i, w in enumerate(openers)):
        return None
    # beside the move a reason may weigh ("it's my favourite", "I reckon"), never deny,
    # ask or leave open ("green, or not", "green, maybe")
    doubt = guard.get("refusal", frozenset()) | guard.get("either_or", frozenset())
    if any(w in doubt or w.endswith("n't") for words in beside for w in words):
        return None
    slots[value_slot] = next(iter(said))
    if value_slot in fixed and slots[value_slot] not in fixed[value_slot]:
        return None  # a word card that is not on the table now: about something else
    for slot, values in fixed.items():
        if len(values) == 1 and slot not in slots:
            slots[slot] = next(iter(values))
    if holds_phrase(norm, guard.get("sung", frozenset())):
        return None
    sentence = " ".join(held)
    if refused(grammar, fallback, sentence, sentence, slots, None):
        return None
    return Intent(name, slots, norm, SURE_SCORE), Core(sentence)


def _describes(
    grammar: Grammar,
    spec: WrappedMove,
    tokens: Sequence[str],
    spans: Sequence[Span],
    inside: set[int],
) -> bool:
    """Does the value, where it must not describe (``attributive_is_talk``: a colour
    named for a player), stand before a word of something else ("a green bucket", "eine
    grüne Tafel")?"""
    if not spec.attributive_is_talk:
        return False
    stop = grammar.guard_words.get("stop", frozenset())
    for span in spans:
        if span.slot == spec.value and span.end < len(tokens) and span.end not in inside:
            after = tokens[span.end]
            if after not in stop and not holds_phrase(after, spec.verbs):
                return True
    return False


def _together(spans: Sequence[Span]) -> bool:
    """Are the value and the object named side by side ("pink phone", "Roter Apfel"): in a
    clause of nothing else, the move said as what the square becomes?"""
    pairs = zip(spans, spans[1:], strict=False)
    return any(a.end == b.start and a.slot != b.slot for a, b in pairs)


def _owner(spec: WrappedMove, word: str) -> bool:
    """Does ``word`` say whose thing follows ("our", "Omas", "Dad's")?"""
    return word in spec.owners or (word.endswith("'s") and word[:-2] in spec.owners)
