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

from voice.understanding.contradiction import NEGATION_REACH, is_denied
from voice.understanding.fallback import Span
from voice.understanding.framing import Matcher, aside, framed
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
    words = norm.split()
    asked = grammar.frames.asked(raw) if raw is not None else frozenset()
    pauses = grammar.frames.pauses(raw, len(words)) if raw is not None else frozenset()
    guard = grammar.guard_words
    asking = guard.get("question_word", frozenset()) | guard.get("hedge", frozenset())
    cuts = _cuts(grammar, words, raw)
    # the name may be said again after a pause: "Kasperl! Oder, nee, Gandalf. Gandalf."
    for cut in _again_after(cuts, pauses):
        if any(q > cut for q in asked):
            return None  # "Tigger? Nee, Garfield?" is still thinking aloud
        found = name_of(" ".join(words[cut:]))
        if found is None or found.score < NAME_SURE:
            continue
        tried = words[:cut]
        if not names_at(tried) or asking & set(tried):
            return None
        return Intent(found.name, found.slots, norm, found.score)
    return None


def _again_after(cuts: Iterable[int], pauses: Iterable[int]) -> list[int]:
    """Where the sentence after a taking back may start: right after it, or after a pause
    behind it, where it is said again ("gelb. nee, doch rosa. rosa auf den hut"); the
    last taking back first."""
    pauses = sorted(pauses)
    return list(dict.fromkeys(s for cut in cuts for s in (cut, *(p for p in pauses if p > cut))))


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
    for cut in _again_after(cuts, pauses):
        core = words[cut:]
        if not core:
            continue
        text = " ".join(core)
        found = _move(parser, text, allowed)
        if found is None:  # "Sommer. Nee, warte, Winter, der ist schwerer."
            beside = aside(parser, text, _said(words, pauses, cut), allowed, slots)
            if beside is not None and beside[0].name in parser.frame_guarded:
                found, text = beside[0], str(beside[1])
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


def _said(words: Sequence[str], pauses: Iterable[int], start: int) -> str:
    """``words[start:]`` with their typed pauses (a comma where one was)."""
    marks = set(pauses)
    return " ".join(
        ("," if i in marks and i > start else "") + w for i, w in enumerate(words) if i >= start
    ).replace(" ,", ", ")


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


class Settled(Core):
    """The sentence a player settled on after thinking aloud: a "?" before it belonged to
    a try weighed ("grün? ja, grün"), not to this sentence."""


SETTLING = frozenset({"colour", "word", "player", "card", "character", "side", "place"})
"""Values a player weighs aloud before settling on one."""


def settled(
    parser: Matcher,
    norm: str,
    raw: str | None,
    allowed: frozenset[str] | None,
    slots: Mapping[str, Iterable[Any]] | None = None,
) -> tuple[Intent, Core] | None:
    """The move a player settles on at the end of an utterance after weighing values
    aloud, asking themselves or taking a try back: "Gelb, nee, orange! Orange.",
    "Ähm... grün? Ja, grün.", "Cem had orange, no hang on, green. Green.", "Blau geht
    nicht, der Ball ist ja schon blau... dann nehm ich rosa".

    The last sentence (behind a typed pause) is the move, or only its value, which then
    replaces the same kind of value in the move said before it ("Cem had orange …
    green": Cem had green). What stands before it names values of the same kinds only
    (no other player or object: that is advice or another move) and at least one of them,
    and the last sentence itself asks nothing."""
    if raw is None:
        return None
    words = norm.split()
    frames = parser.grammar.frames
    pauses = sorted(frames.pauses(raw, len(words)))
    if not pauses:
        return None
    asked = frames.asked(raw)
    fallback = parser.fallback
    refusal = parser.grammar.guard_words.get("refusal", frozenset())
    hedge = parser.grammar.guard_words.get("hedge", frozenset())
    for cut in reversed(pauses):
        if any(q > cut for q in asked):
            return None  # the last sentence asks: "blau oder grün?"
        core = words[cut:]
        text = " ".join(core)
        before = words[:cut]
        tried = fallback.spans(before)
        if not tried:
            continue  # nothing weighed before it (checked first: parsing costs more)
        tokens = fallback.tokens(text)
        spans = fallback.spans(tokens)
        said = {(s.slot, s.value) for s in spans}
        again = any((span.slot, span.value) in said for span in tried)  # "grün? ja, grün"
        weighed = any(q <= cut for q in asked) or any(
            t in refusal or t.endswith("n't") or frames.at(before, i, TAKE_BACK)
            for i, t in enumerate(before)
        )
        if not (again or weighed):
            continue  # "Grandmother for Ben, good luck": a wish, not a value taken back
        found = _move(parser, text, allowed)
        fuller = _into_earlier(parser, before, tokens, spans, pauses, allowed, slots)
        if fuller is not None and (found is None or set(fuller.slots) > set(found.slots)):
            found = fuller  # "Cem had orange … green": Cem had green
        if found is None or (allowed is not None and found.name not in allowed):
            continue  # nothing, or a move of another phase: "… that's a penalty, Anna"
        kinds = {s for s, v in found.slots.items() if s in SETTLING and isinstance(v, str | int)}
        if not kinds or not any(span.slot in kinds for span in tried):
            continue
        if not again and hedge & set(before):
            return None  # "red or maybe, no, orange": still weighing
        for span in tried:
            if span.slot in kinds:
                if span.value == found.slots[span.slot] and _denied(before, span, refusal, pauses):
                    return None  # "nicht lila ... lila": says two things
            elif span.slot not in TRIED and found.slots.get(span.slot) != span.value:
                return None  # another player or object: advice, or a second move
        return Intent(found.name, found.slots, norm, found.score), Settled(text)
    return None


def _into_earlier(
    parser: Matcher,
    before: Sequence[str],
    tokens: Sequence[str],
    spans: Sequence[Span],
    pauses: Sequence[int],
    allowed: frozenset[str] | None,
    phase_slots: Mapping[str, Iterable[Any]] | None = None,
) -> Intent | None:
    """A value said alone (``tokens`` of the last sentence, with the values ``spans`` in
    them: "green", "on the left", "ich sag Gandalf") put into the last move said before it
    in place of the value of its kind."""
    values = {(s.slot, s.value) for s in spans}
    if len(values) != 1:
        return None
    slot, value = values.pop()
    covered = {i for s in spans for i in range(s.start, s.end)}
    frame_words = parser.grammar.frames.words
    if any(t not in frame_words for i, t in enumerate(tokens) if i not in covered):
        return None  # more than the value: another sentence
    ends = [len(before), *sorted((p for p in pauses if p < len(before)), reverse=True)]
    for end in ends:
        for start in [0, *(p for p in pauses if p < end)]:
            earlier = _move(parser, " ".join(before[start:end]), allowed)
            if (
                earlier is not None
                and isinstance(earlier.slots.get(slot), str | int)
                and len(earlier.slots) > 1  # a move that holds more than the value
                and _possible(earlier, phase_slots)  # not "the house is yellow" (the kite's turn)
            ):
                return Intent(earlier.name, {**earlier.slots, slot: value}, "", earlier.score)
    return None


def _possible(move: Intent, phase_slots: Mapping[str, Iterable[Any]] | None) -> bool:
    """Could ``move`` be made now, as far as the phase narrows its values (the object in
    play)? A sentence about another object is a remark about the board."""
    for slot, values in (phase_slots or {}).items():
        if slot in move.slots and move.slots[slot] not in set(values):
            return False
    return True


def _denied(
    words: Sequence[str], span: Span, refusal: frozenset[str], pauses: Iterable[int]
) -> bool:
    """Is the value at ``span`` denied by a refusal right before it, with no pause
    between ("nicht lila")? "nee, orange" takes a try back and says orange."""
    start = max(0, span.start - NEGATION_REACH)
    return any(
        (t in refusal or t.endswith("n't")) and not any(j < p <= span.start for p in pauses)
        for j, t in enumerate(words[start : span.start], start)
    )
