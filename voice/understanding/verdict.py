"""The Artist's verdict in the family's own words (Pantone): "Got it in one!", "Nah, not
even close", "Yep, it's Pinocchio", "Quatsch, wie kommst du auf Pumuckl? Falsch."

While the Artist judges a guess, the only moves are right, wrong and a penalty. A verdict
said in words no template holds is read by its cues (``verdict_yes`` and ``verdict_no`` of
common.yaml's guard words, negations among the no's; ``verdict_apart`` phrases say
neither: "no idea", "keine Ahnung"): the cues of one side only,
none of the other, and no clause that asks ("did I get it?", "ist es richtig?") — what
is left is said back and held before it counts, as every verdict heard.
"""

from __future__ import annotations

from voice.understanding.grammar import Grammar, holds_phrase
from voice.understanding.intent import Intent
from voice.understanding.questions import PIECES, generic_words
from words.text import normalize

CORRECT, WRONG = "correct", "wrong"

SCORE = 0.9
"""How sure a verdict read from its cues is: made at once when typed, never at once by
voice (below every engine's ``act``)."""


def verdict(
    grammar: Grammar, raw: str, allowed: frozenset[str] | None, names: frozenset[str]
) -> Intent | None:
    """``correct`` or ``wrong`` if ``raw`` judges the guess with the cues of one side only,
    while the phase takes both verdicts; else None. Every word of it must be a cue, a
    word said around anything (a filler, an article, "it's") or a word of ``names`` (the
    characters and players): "no way, that's so hard" is no verdict. A clause opened by
    a question word is the Artist's wonder ("wie kommst du auf Pumuckl?") and weighs
    nothing; one opened by a verb asks ("did I get it?"): no verdict at all."""
    if allowed is None or CORRECT not in allowed or WRONG not in allowed:
        return None
    guard = grammar.guard_words
    yes_cues, no_cues = guard.get("verdict_yes", frozenset()), guard.get("verdict_no", frozenset())
    if not yes_cues or not no_cues:
        return None
    if set(normalize(raw).split()) & guard.get("verdict_not", frozenset()):
        return None  # "say yes, say yes!", "hoffentlich stimmt's"
    said_yes = said_no = False
    for part in PIECES.split(raw):
        clause = normalize(part)
        if not clause:
            continue
        words = clause.split()
        if words[0] in guard.get("question_start", frozenset()) and len(words) > 1:
            return None  # "did I get it?", "ist es richtig?": a question, no verdict
        if words[0] in guard.get("question_word", frozenset()):
            continue  # "what?", "wie kommst du denn auf Pumuckl?"
        for phrase in guard.get("verdict_apart", frozenset()):
            clause = f" {clause} ".replace(f" {phrase} ", " ").strip()  # "no idea", "weiß nicht"
        if not clause:
            continue
        if set(clause.split()) - _neutral(grammar) - names:
            return None  # more said than a verdict: "no way, that's so hard"
        if holds_phrase(clause, no_cues) or any(w.endswith("n't") for w in clause.split()):
            said_no = True
        elif holds_phrase(clause, yes_cues):
            said_yes = True
    if said_yes == said_no:
        return None  # neither, or both ("no way, he got it!")
    return Intent(CORRECT if said_yes else WRONG, {}, normalize(raw), SCORE)


def _neutral(grammar: Grammar) -> frozenset[str]:
    """The words a verdict may be said with: its cues, and words said around anything."""
    return grammar.derived("verdict_words", _verdict_words)


def _verdict_words(grammar: Grammar) -> frozenset[str]:
    guard = grammar.guard_words
    words = set(generic_words(grammar)) | set(grammar.opening_words)
    for kind in ("verdict_yes", "verdict_no", "verdict_apart", "refusal", "owned_by"):
        for phrase in guard.get(kind, ()):
            words.update(phrase.split())
    for skip in grammar.skip_words:
        words.update(normalize(skip).split())
    return frozenset(words)
