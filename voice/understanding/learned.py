"""Questions and requests in words nobody here wrote, learnt from what families said
(issue 24).

The templates and the key-word reading (:mod:`voice.understanding.questions`) know the
words the grammar lists. Families ask in their own: "Who flips first?", "Where do things
stand?", "Hold up, I take that back." What they said to us is kept: every utterance of
the corpora (``tests/understanding``: sentences written by people who never saw the
grammars, table talk among them) with what it meant, exported as
``grammars/<lang>/<game>.examples.txt`` (``python -m voice.bench.examples``). A linear
classifier over character n-grams (scikit-learn's ``TfidfVectorizer`` and ``LinearSVC``:
the field's well-kept tools for short noisy texts; n-grams carry "colour-wise" to
"colours", "Stapel" to "Stapeln") learns them all: moves, table talk and the questions.

It is asked last, only when nothing else understood an utterance, and may only answer a
question or a request the phase takes (getting one wrong costs a sentence, never a move):

- the best class must be one of them, clearly ahead of the next class (``MARGIN``); table
  talk and moves are classes too, so "Ben, what have you got left for dinner?" stays talk;
- the values named (a player, a word card) must be exactly the slots one of the intent's
  templates carries ("What's Anna got left colour-wise?": colours left, for Anna); two of
  a kind, or a value the intent never takes, is not understood;
- one word of the utterance beyond question words and articles must be one the
  intent's examples use ("Easter money" only sounds like "faster");
- a question must ask (a question word, a verb first) or tell to say ("tell me the
  score"); "all those words" is none. A sound ("Hä?") or one word is for the templates;
- a request that does something (undo, a pause, slower) is never read from a sentence
  with a refusal in it ("don't take that back", "Pause. Nein, doch nicht.").

Learning takes a fraction of a second per game and language, once per process (the
first utterance that needs it, or :func:`warm` at the start of a game).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from voice.understanding.fallback import Fallback, skeleton
from voice.understanding.grammar import Grammar, holds_phrase
from voice.understanding.intent import BOARD, Intent
from voice.understanding.questions import _asks as asks

SCORE = 0.9
"""How sure such an answer is: acted on (a question changes nothing)."""

MARGIN = 0.35
"""How far the best class must be ahead of the next (LinearSVC decision values)."""

MOVE_MARGIN = 0.3
"""How far a move must be ahead of every other class to be read at all."""

SURE_MARGIN = 0.6
"""From this margin a move read by the model is made at once; below, asked back first."""

UNSURE = 0.7
"""How sure a move read with a margin below ``SURE_MARGIN`` is: confirmed first."""

ANSWERS = frozenset({"affirm", "deny"})
"""Answers to the game master's question: never read by the model."""

TALK = "talk"
"""The class of table talk in the examples (moves are classes by their intents)."""

MIN_WORDS = 2
"""Fewer words (fillers left out) are for the templates: one word is no way of asking."""

_lock = threading.Lock()
log = logging.getLogger(__name__)


class ExamplesError(Exception):
    """An examples file does not follow the format (``label<TAB>text`` lines)."""


def examples_path(lang: str, game_id: str) -> Any:
    return resources.files("grammars").joinpath(lang, f"{game_id}.examples.txt")


def read_examples(text: str) -> list[tuple[str, str]]:
    """``(label, text)`` pairs of an examples file; ``#`` lines are comments."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        label, sep, said = line.partition("\t")
        if not sep or not label or not said.strip():
            raise ExamplesError(f"line {number}: want 'label<TAB>text', got {line!r}")
        out.append((label, said))
    return out


class Model:
    """The classifier of one game and language."""

    def __init__(self, examples: Sequence[tuple[str, str]]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.svm import LinearSVC

        labels = [label for label, _ in examples]
        texts = [said for _, said in examples]
        self.vectorizer = TfidfVectorizer(
            analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2
        )
        matrix = self.vectorizer.fit_transform(texts)
        classifier = LinearSVC(C=1.0).fit(matrix, labels)
        self.classes: list[str] = [str(c) for c in classifier.classes_]
        words: dict[str, set[str]] = {}
        for label, said in examples:
            words.setdefault(label, set()).update(said.split())
        self.words = {label: frozenset(seen) for label, seen in words.items()}
        # what ``vectorizer.transform`` and the product with the weights compute, done
        # directly on the few n-grams of one utterance (a fifth of the time; the same
        # values): sublinear counts, times the idf, scaled to length one
        self.analyzer = self.vectorizer.build_analyzer()
        self.vocabulary: dict[str, int] = dict(self.vectorizer.vocabulary_)
        self.idf = self.vectorizer.idf_
        self.weights = np.asarray(classifier.coef_).T
        self.bias = classifier.intercept_

    def values(self, norm: str) -> Any:
        """The decision value of every class for ``norm`` (as LinearSVC gives them)."""
        counts: dict[int, int] = {}
        for gram in self.analyzer(norm):
            column = self.vocabulary.get(gram)
            if column is not None:
                counts[column] = counts.get(column, 0) + 1
        if not counts:
            return self.bias
        columns = np.fromiter(counts, dtype=np.int64, count=len(counts))
        weight = 1.0 + np.log(np.fromiter(counts.values(), dtype=float, count=len(counts)))
        weight *= self.idf[columns]
        weight /= np.linalg.norm(weight)
        return weight @ self.weights[columns] + self.bias

    def ranked(
        self, norm: str, allowed: frozenset[str] | None, asking: frozenset[str]
    ) -> list[tuple[float, str]]:
        """The classes by their decision values, best first; of the questions and
        requests (``asking``) only those ``allowed``. Moves and talk always stay in: a
        move said oddly is not taken for a question."""
        values = self.values(norm)
        return sorted(
            (
                (float(v), name)
                for v, name in zip(values, self.classes, strict=True)
                if allowed is None or name in allowed or name not in asking
            ),
            reverse=True,
        )


@lru_cache(maxsize=16)
def model(lang: str, game_id: str) -> Model | None:
    """The learnt model of a game and language, or ``None`` without examples."""
    path = examples_path(lang, game_id)
    if not path.is_file():
        return None
    examples = read_examples(path.read_text(encoding="utf-8"))
    return Model(examples) if examples else None


def warm(grammar: Grammar) -> threading.Thread:
    """Learn the game's model in the background (the first odd question then costs no
    wait)."""
    thread = threading.Thread(
        target=_model_of, args=(grammar,), name="farbspiel-learn", daemon=True
    )
    thread.start()
    return thread


def _model_of(grammar: Grammar) -> Model | None:
    """The model, or ``None`` when it cannot be learnt (a broken examples file, no
    scikit-learn): the templates and key words still understand, and it is said once."""
    with _lock:
        try:
            return model(grammar.lang, grammar.game_id)
        except (ExamplesError, ImportError, OSError, UnicodeDecodeError, ValueError) as exc:
            key = (grammar.lang, grammar.game_id)
            if key not in _failed:
                _failed.add(key)
                log.warning("questions in other words are not learnt (%s): %s", key, exc)
            return None


_failed: set[tuple[str, str]] = set()


def masked(fallback: Fallback, norm: str, fixed: Mapping[str, Sequence[Any]] | None) -> str:
    """``norm`` with each value named as its list's placeholder ("what has {player} got
    left"): what is learnt is how families ask, whoever sits at the table."""
    words = norm.split()
    return " ".join(skeleton(words, fallback.spans(words, fixed)))


def learned(
    grammar: Grammar,
    fallback: Fallback,
    norm: str,
    allowed: frozenset[str] | None,
    fixed: Mapping[str, Sequence[Any]] | None = None,
) -> Intent | None:
    """The question, request or move ``norm`` says as the examples teach it, or
    ``None``: the class the model ranks first decides which rules it must then pass."""
    if not norm.strip():
        return None
    tokens = fallback.tokens(norm)
    if len(tokens) < MIN_WORDS or grammar.frames.silent(norm):
        return None  # "Hä?", "oh come on": a sound, for the templates to know or not
    found = _model_of(grammar)
    if found is None:
        return None
    asking = grammar.question_intents | grammar.request_intents
    ranked = found.ranked(masked(fallback, norm, fixed), allowed, asking)
    if len(ranked) < 2:
        return None
    (best, name), (second, _) = ranked[0], ranked[1]
    margin = best - second
    if name in asking:
        pool = allowed if allowed is not None else grammar.intent_names
        if name not in pool or not _asked(grammar, found, tokens, name, margin):
            return None
        score = SCORE
    else:
        if allowed is None or not _moved(grammar, fallback, norm, tokens, name, margin, allowed):
            return None
        score = SCORE if margin >= SURE_MARGIN else UNSURE
    slots = _slots(fallback, tokens, name, fixed)
    return None if slots is None else Intent(name, slots, norm, score)


def _asked(grammar: Grammar, found: Model, tokens: list[str], name: str, margin: float) -> bool:
    """May ``name``, a question or request ranked first, be answered?"""
    if margin < MARGIN:
        return False
    guard = grammar.guard_words
    common = grammar.derived("learned_common", _common)
    if not (set(tokens) - common) & found.words.get(name, frozenset()):
        return False  # "Easter money" sounds like "faster" but says none of its words
    acts = name in grammar.request_intents and name not in grammar.question_intents
    if acts and set(tokens) & guard.get("refusal", frozenset()):
        return False  # "Pause. Nein, doch nicht.", "don't take that back"
    # "all those words": a question must ask, or tell to ("sag mal ...")
    return name in grammar.request_intents or _asks(guard, tokens)


def _moved(
    grammar: Grammar,
    fallback: Fallback,
    norm: str,
    tokens: list[str],
    name: str,
    margin: float,
    allowed: frozenset[str],
) -> bool:
    """May ``name``, a move ranked first, be made (or asked back)? Stricter than a
    question, since a wrong move costs the game: a move said with more around it than any
    template holds ("Anna's was brown, I reckon, the sandcastle story", "Let's have Cem
    kick us off, he's dressed like a packet of highlighters") must be one the phase
    takes, far ahead of every other class, table talk among them (``MOVE_MARGIN``); the
    utterance must not ask, refuse, weigh or deny; a colour move must not be about
    someone's own thing. It is made at once only from ``SURE_MARGIN``, else asked back."""
    if name not in allowed or name in ANSWERS or name in (BOARD, TALK) or margin < MOVE_MARGIN:
        return False  # a board is read by board.py
    if name in grammar.derived("learned_denying", lambda g: _denying(g, fallback)):
        return False
    guard = grammar.guard_words
    doubt = guard.get("refusal", frozenset()) | guard.get("either_or", frozenset())
    if asks(guard, tokens) or any(w in doubt or w.endswith("n't") for w in tokens):
        return False  # "Is it yellow?", "don't pick Ben", "green or blue": no move
    spec = grammar.wrapped_moves.get(name)
    # "Our neighbours are painting their house blue", "the house is going blue too"
    return spec is None or not (holds_phrase(norm, spec.apart) or set(tokens) & spec.owners)


def _denying(grammar: Grammar, fallback: Fallback) -> frozenset[str]:
    """Moves whose own sentences deny ("I don't remember", "weiß ich nicht"): what tells
    them from their opposite ("now I remember") is one word the n-grams hardly weigh, so
    the model never reads them."""
    refusal = grammar.guard_words.get("refusal", frozenset())
    return frozenset(
        name
        for name, model_ in fallback.models.items()
        if any(w in refusal or w.endswith("n't") for w in model_.words)
    )


def _common(grammar: Grammar) -> frozenset[str]:
    """Words that say nothing of what is asked: question words, articles, fillers,
    subjects (worked out once per grammar)."""
    guard = grammar.guard_words
    kinds = ("question_word", "stop", "filler", "subject")
    return frozenset().union(*(guard.get(kind, frozenset()) for kind in kinds))


def _asks(guard: Mapping[str, frozenset[str]], tokens: list[str]) -> bool:
    """Does the utterance ask (a question word in it, a verb first: questions.py's rule)
    or tell the game master to say something ("tell me the score", "sag mal ... an")?"""
    return asks(guard, tokens) or tokens[0] in guard.get("prompting", frozenset())


def _slots(
    fallback: Fallback,
    tokens: list[str],
    name: str,
    fixed: Mapping[str, Sequence[Any]] | None,
) -> dict[str, Any] | None:
    """The values named, when they are exactly the slots of one of ``name``'s templates."""
    model_ = fallback.models.get(name)
    combos = model_.combos if model_ is not None else {frozenset()}
    takes = frozenset().union(*combos)
    values: dict[str, Any] = {}
    for span in fallback.spans(tokens, fixed):
        if span.slot not in takes:
            if span.slot == "self":
                continue  # "can I ...": the one asking, no value of the question
            return None  # a colour in a question about turns: about something else
        if values.setdefault(span.slot, span.value) != span.value:
            return None  # two players at once
    if frozenset(values) not in combos:
        return None
    return {k: v for k, v in values.items() if not k.startswith("_")}  # "_" slots: said, not kept
