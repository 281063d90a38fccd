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
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from voice.understanding.fallback import Fallback, Span, skeleton, word_pairs
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
    exact: Callable[[str], Intent | None] | None = None,
) -> Intent | None:
    """The question or request intent ``norm`` asks for, or ``None``. Typed sentences
    (``raw``, parted by full stops, commas ...) are tried one by one when the whole is not
    understood: "Langsamer bitte, ich komm nicht mit." asks for one thing beside a remark;
    ``exact`` (a template match) reads each piece first."""
    if allowed is not None and WHOSE_TURN in allowed and _me_or_them(grammar, fallback, norm, raw):
        return Intent(WHOSE_TURN, {}, norm, SCORE)
    found = _asked(grammar, fallback, norm, allowed)
    expanded = grammar.frames.expanded(norm)  # "you're talking way too fast"
    if found is None and expanded != norm:
        found = _asked(grammar, fallback, expanded, allowed)
    if found is not None or raw is None:
        return found if found is None else Intent(found.name, found.slots, norm, SCORE)
    pieces = [normalize(p) for p in PIECES.split(raw)]
    pieces = [p for p in pieces if p]
    if len(pieces) < 2:
        return None
    refusal = grammar.guard_words.get("refusal", frozenset())
    if any(p.split()[0] in refusal for p in pieces):
        return None  # "Pause. Nein, doch nicht."
    said: dict[tuple[str, str], Intent] = {}
    asking = grammar.question_intents | grammar.request_intents
    valued = False  # a piece that names a value of the game and asks nothing
    named_only = True  # ... and the values named are only players
    for piece in pieces:
        if all(w in grammar.frames.words for w in piece.split()):
            continue  # "wait, undo, I didn't mean that": a frame's words, not a pause
        one = exact(piece) if exact is not None else None
        if one is not None and one.name not in asking:
            return None  # a piece that is something else: not a request beside a remark
        one = one or _asked(grammar, fallback, piece, allowed)
        if one is not None:
            said[(one.name, repr(sorted(one.slots.items())))] = one
        elif named := {s.slot for s in fallback.spans(fallback.tokens(piece))} - PRONOUN_SLOTS:
            valued = True  # "Blau. Wo ist der Hut?" is a move and a question
            named_only = named_only and named == {"player"}
        elif grammar.opens_with(piece.split(), "order"):
            return None  # "Jonas, leg mal das Handy weg, wir spielen jetzt": said to Jonas
    if len(said) != 1:
        return None
    (one,) = said.values()
    # a request asked back anyway may say why, naming the move it takes back ("Mach
    # rückgängig bitte, das Haus war falsch"); a request that moves nothing may have a
    # player in the remark beside it ("Nochmal bitte, die Mia hat grad dazwischengequatscht")
    explained = one.name in ASKED_BACK and "?" not in raw
    about_a_player = named_only and one.name in grammar.request_intents
    if valued and (one.slots or not (explained or about_a_player)):
        return None
    return Intent(one.name, one.slots, norm, SCORE)


WHOSE_TURN = "whose_turn"

MAX_THEM = 4
"""At most this many words after the "or" of "do I pick, or does Anna?"."""


def _me_or_them(grammar: Grammar, fallback: Fallback, norm: str, raw: str | None) -> bool:
    """Does ``norm`` ask whether it is the speaker or another player who does what comes
    next: "Muss ich jetzt aussuchen oder die Lena?", "Wait, do I pick, or does Anna?",
    "am I choosing or is Cem?" It asks (a question mark, or a verb first), says who
    ("ich", "I", "we") before the "or" and one player after it, and names nothing else
    of the game."""
    tokens = fallback.tokens(norm)
    joins = grammar.frames.joins & grammar.guard_words.get("either_or", frozenset())
    ors = [i for i, t in enumerate(tokens) if t in joins]
    if len(ors) != 1 or not 1 <= len(tokens) - ors[0] - 1 <= MAX_THEM:
        return False
    spans = fallback.spans(tokens)
    theirs = [s for s in spans if s.slot == "player" and s.start > ors[0]]
    others = [s for s in spans if s.slot not in PRONOUN_SLOTS]
    subject = grammar.guard_words.get("subject", frozenset())
    if len(theirs) != 1 or len(others) != 1 or not subject & set(tokens[: ors[0]]):
        return False
    opened = grammar.opening(tokens)
    return (raw is not None and "?" in raw) or (
        opened < len(tokens) and tokens[opened] in grammar.guard_words.get("question_start", ())
    )


ASKED_BACK = frozenset({"undo"})
"""Requests always asked back before they count ("Shall I take this back: …?")."""


PRONOUN_SLOTS = frozenset({"self"})
"""Slots a pronoun fills ("ich"): a remark beside a request may say "I" ("Pause, ich hol
was zu trinken") without naming anything of the game."""

PIECES = re.compile(r"[.!?;,:…]+|\s[-–—]+\s")


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
    if not tokens or grammar.frames.silent(norm):
        return None  # "oh come on" is no "come again"
    if fallback.spans(tokens):
        tokens = fallback.tokens(grammar.frames.expanded(norm))  # "where's": "where is"
        return _asked_about(grammar, fallback, tokens, fallback.spans(tokens), pool, norm)
    guard = grammar.guard_words
    generic = generic_words(grammar)
    content = [t for t in tokens if t not in generic and not _only_framing(grammar, t)]
    known = grammar.derived("question_known", lambda g: _known(fallback))
    unknown = [t for t in content if t not in known and not t.isdigit()]
    asks = _asks(guard, tokens)
    # a request may be said as one ("langsamer bitte"); a question must ask. Only an
    # intent one of whose templates has no value ("what's in the last column?" is no row),
    # and no request asked with a question word its templates never use ("what's in the
    # last column?" is not "undo the last"; "what did you say" repeats)
    asked_with = guard.get("question_word", frozenset()) & set(tokens)
    candidates = frozenset(
        name
        for name in (pool if asks else pool & grammar.request_intents)
        if ((model := fallback.models.get(name)) is None or frozenset() in model.combos)
        and (name in grammar.question_intents or asked_with <= _vocabulary(fallback, name))
    )
    if not candidates or len(unknown) > MAX_UNKNOWN:
        return None
    keys = key_words(grammar, fallback)
    stop = guard.get("stop", frozenset()) | guard.get("filler", frozenset())
    said = [t for t in tokens if t not in stop]
    # key words first; among as many, the one more of whose template words were said
    ranked = sorted(
        (
            (
                sum(t in keys.get(name, ()) for t in content),
                sum(t in _vocabulary(fallback, name) for t in said),
            ),
            name,
        )
        for name in candidates
    )[::-1]
    (count, overlap), best = ranked[0]
    if count == 0:
        return None
    tied = [name for score, name in ranked if score == (count, overlap)]
    if len(tied) > 1:
        # as near to two by their words: the one whose sentences run like this one
        # ("what are the two words" runs like "what are the words")
        runs_like = _runs_like(fallback, tokens, [], tied)
        if runs_like is None:
            return None  # as near to two: not understood
        best = runs_like
    if len(unknown) > count + 1:
        return None
    refusal = guard.get("refusal", frozenset())
    own = set(_words(fallback, best))
    if best not in grammar.question_intents and any(
        (t in refusal or t.endswith("n't")) and t not in own for t in tokens
    ):
        return None  # "ich brauche keine Hilfe" (but "nicht so schnell" is a template's)
    return Intent(best, {}, norm, SCORE)


def _asked_about(
    grammar: Grammar,
    fallback: Fallback,
    tokens: list[str],
    spans: list[Span],
    pool: frozenset[str],
    norm: str,
) -> Intent | None:
    """A question about values ("Wo ist denn die Tasse auf dem Spielfeld?", "What colour
    did the cup get?", "Wie viele Punkte hat der Ben?"): the values found are exactly the
    slots of one of the intent's templates, one value each; its key words decide, here
    with the question words its templates use ("wo", "where")."""
    guard = grammar.guard_words
    asks = _asks(guard, tokens)
    values: dict[str, Any] = {}
    for span in spans:
        if values.setdefault(span.slot, span.value) != span.value:
            return None  # "rot oder blau?": two of a kind
    kinds = frozenset(values)
    if kinds == {"player"} and guard.get("who", frozenset()) & set(tokens):
        # "who guesses after Ben?": who is asked, Ben is beside the question
        kinds, values = frozenset(), {}
    candidates = [
        name
        for name in pool & grammar.question_intents
        if (model := fallback.models.get(name)) is not None and kinds in model.combos
    ]
    if not asks or not candidates or tokens[0] in guard.get("advice_start", frozenset()):
        return None  # "soll ich blau nehmen": asking the others for advice
    inside = {i for span in spans for i in range(span.start, span.end)}
    rest = [t for i, t in enumerate(tokens) if i not in inside]
    generic = generic_words(grammar) - guard.get("question_word", frozenset())
    content = [t for t in rest if t not in generic and not _only_framing(grammar, t)]
    known = grammar.derived("question_known", lambda g: _known(fallback))
    unknown = [t for t in content if t not in known and not t.isdigit()]
    if len(unknown) > MAX_UNKNOWN:
        return None
    stop = guard.get("stop", frozenset()) | guard.get("filler", frozenset())
    said = [t for t in rest if t not in stop]  # "hat" says object_colour, not allowed_colours
    keys = grammar.derived("question_value_keys", lambda g: _keys(g, fallback, asking=True))
    hits = Counter(
        {
            # a key word counts twice more than any other word of the intent's templates
            name: 2 * sum(t in keys.get(name, ()) for t in content)
            + sum(t in _vocabulary(fallback, name) for t in said)
            for name in candidates
        }
    )
    asked_with = guard.get("question_word", frozenset()) & set(tokens)
    # as near to two: the one whose templates ask with the same question word ("wo kommt
    # das Auto hin?" asks where, not which colours go there)
    ranked = sorted(
        ((count, asked_with <= _vocabulary(fallback, name)), name) for name, count in hits.items()
    )[::-1][:2]
    (count, _), best = ranked[0]
    if len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        runs_like = _runs_like(fallback, tokens, spans, [name for _, name in ranked])
        if runs_like is None:
            return None  # as near to two: not understood
        best = runs_like
    if count < 2 or len(unknown) > count:
        return None
    addressed = spans[0].start == 0 and spans[0].slot == "player"
    if (addressed or kinds <= PRONOUN_SLOTS) and not any(t in keys.get(best, ()) for t in content):
        # in common words only, said to a player or about oneself: "Cem, was meinst du,
        # was das ist?", "I've forgotten what I even said" (not what I have left)
        return None
    kept = {slot: value for slot, value in values.items() if not slot.startswith("_")}
    return Intent(best, kept, norm, SCORE)  # "_" slots were said, not kept ("or grey")


def _runs_like(
    fallback: Fallback, tokens: list[str], spans: list[Span], names: list[str]
) -> str | None:
    """Of intents as near by their words, the one most of whose templates' word pairs the
    utterance has (its values as their lists' placeholders), or ``None`` on a tie."""
    pairs = word_pairs(skeleton(tokens, spans))
    runs = sorted(
        (
            (sum(p in fallback.models[n].pairs for p in pairs), n)
            for n in names
            if n in fallback.models
        ),
        reverse=True,
    )
    if len(runs) < 2 or runs[0][0] == runs[1][0]:
        return None
    return runs[0][1]


def _only_framing(grammar: Grammar, token: str) -> bool:
    """Is ``token`` a word of the conversational frames ("so", "bitte", "schon")? A piece
    of a longer frame only is not ("Zeit" of "ach du liebe Zeit" asks for the time left)."""
    frames = grammar.frames
    if token not in frames.words:
        return False
    return (
        token in frames.alone
        or token in frames.inside
        or token in frames.inside_asking
        or token not in grammar.vocabulary
    )


def _asks(guard: Mapping[str, frozenset[str]], tokens: list[str]) -> bool:
    """Does the utterance ask: a question word in it, or a verb first?"""
    return bool(guard.get("question_word", frozenset()) & set(tokens)) or (
        tokens[0] in guard.get("question_start", frozenset())
    )


def _vocabulary(fallback: Fallback, name: str) -> AbstractSet[str]:
    """The words of ``name``'s templates (the fallback's own set, not a copy)."""
    model = fallback.models.get(name)
    return model.words if model is not None else frozenset()


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


def key_words(grammar: Grammar, fallback: Fallback) -> Mapping[str, frozenset[str]]:
    """Each question and request intent's key words (worked out once per grammar)."""
    return grammar.derived("question_keys", lambda g: _keys(g, fallback))


def _keys(grammar: Grammar, fallback: Fallback, asking: bool = False) -> dict[str, frozenset[str]]:
    """Each question intent's key words: its template words few intents share (``asking``:
    question words among them, "wo" for where something is)."""
    spread: Counter[str] = Counter()
    for model in fallback.models.values():
        spread.update(model.words)
    generic = generic_words(grammar) | grammar.guard_words.get("minor", frozenset())
    if asking:
        generic = generic - grammar.guard_words.get("question_word", frozenset())
    return {
        name: frozenset(
            w for w in _words(fallback, name) if spread[w] < COMMON and w not in generic
        )
        for name in grammar.question_intents | grammar.request_intents
    }


def _words(fallback: Fallback, name: str) -> Iterable[str]:
    model = fallback.models.get(name)
    return () if model is None else (w for w in model.words if not w.startswith("{"))
