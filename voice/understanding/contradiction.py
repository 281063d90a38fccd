"""The last move said again with another colour, right after it: "Telefon war grün. Nicht
gelb.", "the saw should have been pink, not purple", "nein nein der Fisch ist grün nicht
orange", "cup is purple!" (issue 24).

People contradict the game master's last move in their own words, naming what that move
was about (its object, its player) or denying its colour, and saying the right colour.
Such a sentence is a correction of that move when right after it (the session gives the
move's values as ``last``) it holds exactly one colour said, other than the move's, and

- names a value of the last move that the move now expected does not have (the object just
  coloured, not the one in play), or
- denies the last move's colour before saying another ("nein, nicht gelb: grün", "no, not
  blue, I said red"; "rot, nicht blau" stays the next move, said with a contrast), or after
  it when the sentence opens with a no or refers to what was said ("nee, lila, nicht
  orange", "I said green, not yellow"), or
- refers to what was said or meant, denying nothing ("nein, rosa hab ich gesagt", "you
  misheard me, I meant pink": ``meant`` of the guard words),

and the part that holds these values asks nothing (no "?", question word or either-or) and
names nobody else (advice to another player stays advice). Sentences around it that hold
no value are remarks ("Hörst du schlecht?", "My mistake."). Right after the move it is
made at once and said back ("nein" then takes it back); later it is asked first, so a
wrong reading costs a word or a question, never a move left standing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from voice.understanding.fallback import Span
from voice.understanding.framing import CORRECTION, Matcher, corrects
from voice.understanding.grammar import holds_phrase
from voice.understanding.intent import Intent
from words.text import normalize

SCORE = 0.9
"""How sure such a reading is (below an exact template's 1.0; said back or asked, see above)."""

_SENTENCE = re.compile(r"[^.!?]+[.!?]*")

NEGATION_REACH = 2
"""A refusal word this many words before a colour (or fewer) denies it ("nicht das Gelb"
is as far as it goes)."""


def contradicted(
    parser: Matcher,
    norm: str,
    raw: str | None,
    allowed: frozenset[str] | None,
    slots: Mapping[str, Iterable[Any]] | None,
    last: Mapping[str, Any] | None,
) -> Intent | None:
    """A correction of the ``last`` move said in other words, or ``None``."""
    if not last or allowed is None or CORRECTION not in allowed:
        return None
    was = last.get("colour")
    if not isinstance(was, str):
        return None
    grammar = parser.grammar
    fallback = parser.fallback
    guard = grammar.guard_words
    refusal = guard.get("refusal", frozenset())
    asking = (
        guard.get("question_word", frozenset())
        | guard.get("either_or", frozenset())
        | guard.get("already", frozenset())  # "der Ball ist schon rot": a remark
    )
    meant = guard.get("meant", frozenset())
    now = {k: tuple(v) for k, v in (slots or {}).items()}
    opening = norm.split()[:1]
    # "ich hab grün gesagt", "I meant pink", "das war rosa", "that was pink"
    refers = bool(meant & set(norm.split())) or holds_phrase(norm, guard.get("that_was", ()))
    # frames that open the utterance correcting ("ach nee, …", "oops, …"): their words
    # deny nothing after them
    framed = [r.start for r in grammar.frames.readings(norm, raw) if r.start and corrects(r)]
    framing_words = len(fallback.tokens(" ".join(norm.split()[: max(framed)]))) if framed else 0
    # "nee, lila, nicht orange", "ach quatsch, rosa, nicht lila"
    opens_with_no = (bool(opening) and opening[0] in refusal) or bool(framed)
    # a no that answers, not one that denies the colour after it ("nicht gelb, grün")
    answers_no = bool(opening) and opening[0] in guard.get("answer_no", frozenset())
    said: list[str] = []
    denied: list[str] = []
    names_last = False
    denied_first = False  # "nein, nicht blau, rot"; "rot, nicht blau" is a move said again
    for n, (sentence, asked) in enumerate(_sentences(raw if raw is not None else norm)):
        tokens = fallback.tokens(normalize(sentence))
        spans = fallback.spans(tokens)
        if not spans:
            continue  # a remark: "Hörst du schlecht?", "My mistake."
        if asked or asking & set(tokens):
            return None  # "Telefon grün oder gelb?", "der Ball ist schon rot"
        for i, span in enumerate(spans):
            if span.slot == "colour":
                # "nicht lila, orange": orange is said; "nope, orange": the no answers
                after = spans[i - 1].end if i else (max(framing_words, answers_no) if n == 0 else 0)
                (denied if is_denied(tokens, span, refusal, after) else said).append(
                    str(span.value)
                )
                denied_first = denied_first or (denied == [was] and not said)
            elif last.get(span.slot) == span.value and span.value not in now.get(span.slot, ()):
                names_last = True
            else:
                return None  # the object in play, another player: not about the last move
    colours = set(said)
    if len(colours) != 1 or was in colours:
        return None
    # one colour denied, the last move's ("no red, no blue, no green" refuses them all)
    denies_last = denied == [was] and (opens_with_no or refers)
    if not (names_last or denied_first or denies_last or (refers and not denied)):
        return None
    return Intent(CORRECTION, {"colour": colours.pop()}, norm, SCORE)


def _sentences(text: str) -> list[tuple[str, bool]]:
    """The sentences of ``text`` (split at typed full stops, "!" and "?"), each with
    whether it is asked."""
    return [(m.group(0), m.group(0).rstrip().endswith("?")) for m in _SENTENCE.finditer(text)]


def is_denied(tokens: list[str], span: Span, refusal: frozenset[str], after: int = 0) -> bool:
    """Is the colour at ``span`` denied ("nicht gelb", "wasn't green", "not the blue")?
    A refusal before another value (ending at ``after``) denies that one, not this."""
    before = tokens[max(after, span.start - NEGATION_REACH) : span.start]
    return any(t in refusal or t.endswith("n't") for t in before)
