"""Questions and requests the templates do not list word for word: "wer gewinnt gerade?",
"what were all the words again?", "Könnten Sie bitte etwas langsamer sprechen? Ich komme
da nicht ganz mit." (issue 24).

A question only tells something (whose turn, the score, the words, what is left); a request
(``request_intents``: slower, a pause, the rules, undo) is cheap to take back or asked first.
Getting one wrong costs a sentence, never a move. So where nothing else understood an
utterance, its words may choose among the phase's question and request intents: each
intent's *key words* are the words of its templates that few other intents use and no
conversational frame holds ("words", "score", "Stapel", "langsamer"); the utterance must
hold at most three words the game does not know and no value of a list (those are for the
guarded fallback), and point to one intent more than to any other ("oh come on" is no
"come again"). A question must ask (a question word, or a verb first); a request may be
said plainly, but not denied ("ich brauche keine Hilfe"). Typed sentences are also tried
one by one, so a remark beside the request ("ich komm nicht mit") does not hide it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from voice.understanding.fallback import Fallback
from voice.understanding.grammar import Grammar
from voice.understanding.intent import Intent
from words.text import normalize

SCORE = 0.9
"""How sure such an answer is: acted on (a question changes nothing)."""

COMMON = 3
"""A word in the templates of this many intents or more is no key word."""

MAX_UNKNOWN = 3
"""At most this many words of a question the game does not know ("eigentlich" may be one),
and never more than one beyond its key words."""


def question(
    grammar: Grammar,
    fallback: Fallback,
    norm: str,
    allowed: frozenset[str] | None,
    raw: str | None = None,
) -> Intent | None:
    """The question or request intent ``norm`` asks for, or ``None``. Typed sentences
    (``raw``, parted by full stops, commas ...) are tried one by one when the whole is not
    understood: "Langsamer bitte, ich komm nicht mit." asks for one thing beside a remark."""
    found = _asked(grammar, fallback, norm, allowed)
    if found is not None or raw is None:
        return found
    pieces = [normalize(p) for p in _PIECES.split(raw)]
    pieces = [p for p in pieces if p]
    if len(pieces) < 2 or fallback.spans(fallback.tokens(norm)):
        return None
    refusal = grammar.guard_words.get("refusal", frozenset())
    if any(p.split()[0] in refusal for p in pieces):
        return None  # "Pause. Nein, doch nicht."
    said = {r.name for p in pieces if (r := _asked(grammar, fallback, p, allowed)) is not None}
    return Intent(said.pop(), {}, norm, SCORE) if len(said) == 1 else None


_PIECES = re.compile(r"[.!?;,:…]+|\s[-–—]+\s")


def _asked(
    grammar: Grammar,
    fallback: Fallback,
    norm: str,
    allowed: frozenset[str] | None,
) -> Intent | None:
    """``norm`` as one question or request; a request is never denied ("keine Hilfe")."""
    pool = (grammar.question_intents | grammar.request_intents) & (
        allowed if allowed is not None else grammar.intent_names
    )
    if not pool:
        return None
    tokens = fallback.tokens(norm)
    if not tokens or fallback.spans(tokens):
        return None
    guard = grammar.guard_words
    generic = generic_words(grammar)
    content = [t for t in tokens if t not in generic and t not in grammar.frames.words]
    known = grammar.derived("question_known", lambda g: _known(fallback))
    unknown = [t for t in content if t not in known and not t.isdigit()]
    asks = bool(guard.get("question_word", frozenset()) & set(tokens)) or (
        tokens[0] in guard.get("question_start", frozenset())
    )
    # a request may be said as one ("langsamer bitte"); a question must ask
    candidates = pool if asks else pool & grammar.request_intents
    if not candidates or len(unknown) > MAX_UNKNOWN:
        return None
    keys = grammar.derived("question_keys", lambda g: _keys(g, fallback))
    hits = Counter({name: sum(t in keys.get(name, ()) for t in content) for name in candidates})
    ranked = hits.most_common(2)
    best, count = ranked[0]
    if count == 0 or (len(ranked) > 1 and ranked[1][1] == count):
        return None  # as near to two: not understood
    if len(unknown) > count + 1:
        return None
    refusal = guard.get("refusal", frozenset())
    own = set(_words(fallback, best))
    if best not in grammar.question_intents and any(
        (t in refusal or t.endswith("n't")) and t not in own for t in tokens
    ):
        return None  # "ich brauche keine Hilfe" (but "nicht so schnell" is a template's)
    return Intent(best, {}, norm, SCORE)


def generic_words(grammar: Grammar) -> frozenset[str]:
    """Words any sentence may hold without saying what it is about: question words,
    fillers, articles, subjects (worked out once per grammar)."""
    return grammar.derived("generic_words", _generic)


def _generic(grammar: Grammar) -> frozenset[str]:
    guard = grammar.guard_words
    kinds = ("question_word", "question_start", "stop", "filler", "subject", "detached")
    words: set[str] = set()
    for kind in kinds:
        for phrase in guard.get(kind, ()):
            words.update(phrase.split())
    return frozenset(words)


def _known(fallback: Fallback) -> frozenset[str]:
    return frozenset(w for model in fallback.models.values() for w in model.words)


def _keys(grammar: Grammar, fallback: Fallback) -> dict[str, frozenset[str]]:
    """Each question intent's key words: its template words few intents share."""
    spread: Counter[str] = Counter()
    for model in fallback.models.values():
        spread.update(model.words)
    generic = generic_words(grammar)
    return {
        name: frozenset(
            w for w in _words(fallback, name) if spread[w] < COMMON and w not in generic
        )
        for name in grammar.question_intents | grammar.request_intents
    }


def _words(fallback: Fallback, name: str) -> Iterable[str]:
    model = fallback.models.get(name)
    return () if model is None else (w for w in model.words if not w.startswith("{"))
