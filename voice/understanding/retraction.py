"""A move said again after a try taken back in the same breath: "Gelb, nein, warte,
orange!", "rot, äh nee, lila für den Schirm", "yellow, no wait, orange" (issue 24).

People correct themselves before the game master has answered. The sentence after the last
correction or negation frame ("nein", "warte", "quatsch", "no wait", "I mean"), or after a
pause behind it ("Grün. Äh, nee, rosa. Rosa fürs Haus."), is the move, as if said
alone, when it is a move with a colour and what stands before it is only a try at the
same kind of value (a colour, the object in play): nobody named ("Ben, nicht rot, gelb"
is advice, unless the move names the same player: "Cem had blue, no wait, Cem had
purple"), no question or either-or. A word card is said again the same way ("School, no
wait, Holiday"). A "no" takes back only before a pause ("no red,
no green" refuses both); "warte", "quatsch", "I mean" always do. The guard then reads the
sentence after it alone: its "nein" took back the try, not the move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from voice.understanding.contradiction import is_denied
from voice.understanding.framing import Matcher, framed
from voice.understanding.grammar import Grammar
from voice.understanding.intent import Core, Intent

TAKE_BACK = ("correction", "negation")
"""Frames that take back what was said before them."""

TRIED = frozenset({"colour", "object"})
"""Values a try that is taken back may hold."""


SAID_AGAIN = ("colour", "word")
"""A move said again after a try carries one of these values: a colour, a word card
("School, no wait, Holiday")."""


def _tried(slot: str, value: Any, move: Intent) -> bool:
    """May a try taken back hold this value? One of the kind tried (a colour, the object,
    the move's own kind of value), or the player the move names too ("Cem had blue, no
    wait, Cem had purple"); another player named makes it advice ("Ben, nicht rot, gelb")."""
    if slot == "player":
        return bool(move.slots.get("player") == value)
    return slot in TRIED or (slot in SAID_AGAIN and slot in move.slots)


NAME_SURE = 0.85
"""A name said after a taking back counts as the guess when it is heard at least this well."""


def _cuts(grammar: Grammar, words: Sequence[str], raw: str | None) -> list[int]:
    """Where the sentence after a taking back starts, last first: after a correction frame
    ("warte", "ich meine", "no wait"), or after a negation before a pause ("nee, …")."""
    frames = grammar.frames
    pauses = frames.pauses(raw, len(words)) if raw is not None else frozenset()
    return sorted(
        {
            i + len(f.words)
            for i in range(1, len(words))
            for f in frames.at(words, i, TAKE_BACK)
            # a negation takes back only before a pause: "no red, no green" refuses both
            if f.kind == "correction" or i + len(f.words) in pauses
        },
        reverse=True,
    )


def name_taken_back(
    grammar: Grammar,
    norm: str,
    raw: str | None,
    name_of: Callable[[str], Intent | None],
    names_at: Callable[[Sequence[str]], list[tuple[int, int, str]]],
) -> Intent | None:
    """A guess said again after a name taken back in the same breath: "Tigger. Nee,
    Garfield!", "Tigger, äh, ich meine Garfield", "Elsa, no wait, Anna". Before the taking
    back there is a name and nothing that asks; after it, only the name said."""
    if raw is not None and "?" in raw:
        return None  # "Tigger? Nee, Garfield?" is still thinking aloud
    words = norm.split()
    guard = grammar.guard_words
    asking = guard.get("question_word", frozenset()) | guard.get("hedge", frozenset())
    for cut in _cuts(grammar, words, raw):
        found = name_of(" ".join(words[cut:]))
        if found is None or found.score < NAME_SURE:
            continue
        tried = words[:cut]
        if not names_at(tried) or asking & set(tried):
            return None
        return Intent(found.name, found.slots, norm, found.score)
    return None


def _move(parser: Matcher, text: str, allowed: frozenset[str] | None) -> Intent | None:
    """The move ``text`` makes as it stands, matched exactly or inside frames (``None``:
    none, or something that is no move)."""
    found = parser.exact(text, allowed)
    if found is None:
        inner = framed(parser, text, None, allowed)
        found = inner[0] if inner is not None else None
    return found if found is not None and found.name in parser.frame_guarded else None


def retracted(
    parser: Matcher,
    norm: str,
    raw: str | None,
    allowed: frozenset[str] | None,
    slots: Mapping[str, Iterable[Any]] | None = None,
) -> tuple[Intent, Core] | None:
    """The move after a try taken back in the same utterance, or ``None``."""
    grammar = parser.grammar
    words = norm.split()
    if raw is not None and "?" in raw:
        return None  # "blau oder lieber grün?"
    cuts = _cuts(grammar, words, raw)
    fallback = parser.fallback
    guard = grammar.guard_words
    asking = guard.get("question_word", frozenset()) | guard.get("hedge", frozenset())
    pauses = grammar.frames.pauses(raw, len(words)) if raw is not None else frozenset()
    # the last taking back counts; after it, the move may be said again after a pause
    # ("gelb. nee, warte, doch lieber rosa. rosa auf den hut")
    starts = [s for cut in cuts for s in (cut, *sorted(p for p in pauses if p > cut))]
    for cut in dict.fromkeys(starts):
        core = words[cut:]
        if not core:
            continue
        text = " ".join(core)
        found = _move(parser, text, allowed)
        if found is None or not any(isinstance(found.slots.get(s), str) for s in SAID_AGAIN):
            continue
        before = fallback.tokens(" ".join(words[:cut]))
        spans = fallback.spans(before)
        if (
            not spans
            or not all(_tried(s.slot, s.value, found) for s in spans)
            or asking & set(before)
        ):
            return None
        return Intent(found.name, found.slots, norm, found.score), Core(text)
    return None


def decided(
    parser: Matcher,
    norm: str,
    raw: str | None,
    allowed: frozenset[str] | None,
) -> tuple[Intent, Core] | None:
    """A move said in full after thinking aloud, behind a pause: "Hmm, blau oder grün ...
    blau. Das Haus ist blau.", "Uhh ... pink? Yeah, pink hat." The last sentence names the
    move's object (or player) and its colour; what stands before it only weighs colours:
    it names no other object or player and says no "not" to the colour chosen."""
    if raw is None:
        return None
    words = norm.split()
    pauses = sorted(parser.grammar.frames.pauses(raw, len(words)), reverse=True)
    fallback = parser.fallback
    refusal = parser.grammar.guard_words.get("refusal", frozenset())
    for cut in pauses:
        if not 0 < cut < len(words):
            continue
        text = " ".join(words[cut:])
        found = _move(parser, text, allowed)
        if found is None or not isinstance(found.slots.get("colour"), str) or len(found.slots) < 2:
            continue
        before = fallback.tokens(" ".join(words[:cut]))
        for span in fallback.spans(before):
            if span.slot == "colour":
                if span.value == found.slots["colour"] and is_denied(before, span, refusal):
                    return None  # "nicht lila ... der Hut wird lila" says two things
            elif span.slot not in found.slots or found.slots[span.slot] != span.value:
                return None  # another object or player: two moves, or advice
        return Intent(found.name, found.slots, norm, found.score), Core(text)
    return None
