"""What the templates miss: a guarded fallback, and the guard itself.

After the idea of hassil's fuzzy matching (its design doc), built small:

- **Templates are the training material.** Every template is expanded with each slot list
  standing in as one placeholder word (``{colour}``, ``{object}``), so the models stay
  small. Per intent we keep its carrier words, its word pairs (bigrams, with sentence
  start and end) and the slot combinations its sentences can carry.
- **Spans annotated with list values.** In an utterance, word sequences that are values
  of a list (colours, objects, players, word cards; slightly misspelt ones too) become
  that list's placeholder; "den hier", "ihn", "this one", "it" stand for the object now
  in play where the phase fixes one.
- **Skip and stop words.** Fillers and politeness ("ähm", "also", "bitte", "I think") are
  dropped; stop words (articles) may occur anywhere. Any other word an intent's templates
  never use makes that interpretation impossible: a sentence about a jacket is no move.
- **Ambiguous means unmatched.** When two intents score nearly the same, nothing is
  understood.

The fallback only answers while the game expects a value (a colour for the object in
play, a colour for a named player, a word card); what it understands is always confirmed
unless every word pair of the sentence was seen in the templates.

The guard (:func:`refused`) keeps the worst error away: a move the player did not make.
Negations, questions, wishes, advice, either-or and two values at once never become a
move, whichever layer understood them (exact templates included).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hassil.expression import ListReference
from hassil.intents import RangeSlotList, TextSlotList
from hassil.sample import sample_expression, sample_intents
from rapidfuzz import fuzz, process

from voice.understanding.grammar import Grammar, Phrases, holds_phrase
from words.text import normalize

SURE_SCORE = 0.9
"""Score of a fallback match whose every word pair occurs in the templates (acts typed)."""

UNSURE_SCORE = 0.75
"""Score of any other fallback match: below the session's confirmation line."""

MIN_COVERAGE = 0.34
"""Share of an utterance's word pairs that must be known to the intent at all."""

CLOSE_CALL = 0.12
"""Two intents whose coverage differs by less than this: not understood."""

VALUE_CUTOFF = 84.0
"""rapidfuzz ratio for a misspelt word to count as a list value ("gelp" → gelb)."""

MIN_FUZZY_VALUE = 4
"""Shorter words must be values exactly ("rot" and "tot" are too close)."""

_PLACEHOLDER = "zz{}zz"


def possessive_stem(word: str) -> str | None:
    """``word`` without its possessive s ("anna's", German "annas": "anna"), or ``None``
    when it has none."""
    stem = word.removesuffix("'s") if word.endswith("'s") else word.removesuffix("s")
    return None if stem == word else stem


def _placeholder(slot: str) -> str:
    return "{" + slot + "}"


def skeleton(tokens: Sequence[str], spans: Sequence[Span]) -> list[str]:
    """``tokens`` with each value found (``spans``) as its list's placeholder."""
    out: list[str] = []
    i = 0
    for span in spans:
        out.extend(tokens[i : span.start])
        out.append(_placeholder(span.slot))
        i = span.end
    out.extend(tokens[i:])
    return out


def word_pairs(tokens: Sequence[str]) -> list[tuple[str, str]]:
    """The word pairs of a sentence, with its start and end (what the models count)."""
    seq = ["<s>", *tokens, "</s>"]
    return list(zip(seq, seq[1:], strict=False))


@dataclass(frozen=True)
class Span:
    """A value found in an utterance."""

    start: int
    end: int
    slot: str
    value: Any


@dataclass
class _IntentModel:
    words: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    bare_pairs: set[tuple[str, str]] = field(default_factory=set)
    """The word pairs with the stop words left out."""
    combos: set[frozenset[str]] = field(default_factory=set)


class Fallback:
    """Templates as training material for what they do not list word for word."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.words = grammar.guard_words
        self.list_slot = _list_slots(grammar)
        self.models = self._train()
        self._values = self._value_index()
        self._single = {key[0]: hit for key, hit in self._values.items() if len(key) == 1}
        self._fuzzy_keys = [w for w in self._single if len(w) >= MIN_FUZZY_VALUE]
        self._skip = Phrases(
            sorted(
                (tuple(s.split()) for s in (*grammar.skip_words, *self.words.get("filler", ()))),
                key=len,
                reverse=True,
            )
        )

    # --- training ----------------------------------------------------------------------
    def _train(self) -> dict[str, _IntentModel]:
        grammar = self.grammar
        lists: dict[str, Any] = {}
        for name in grammar.slot_lists:
            lists[name] = TextSlotList.from_strings([_PLACEHOLDER.format(name)], name=name)
        models: dict[str, _IntentModel] = {}
        for intent, text in sample_intents(
            grammar.intents, slot_lists=lists, language=grammar.lang
        ):
            tokens = self._skeleton_tokens(normalize(text))
            model = models.setdefault(intent, _IntentModel())
            slots = frozenset(t[1:-1] for t in tokens if t.startswith("{"))
            model.combos.add(slots)
            model.words.update(t for t in tokens if not t.startswith("{"))
            model.pairs.update(word_pairs(tokens))
            model.bare_pairs.update(word_pairs(self._without_stop(tokens)))
        return models

    def _without_own(self, said: Sequence[str]) -> list[str]:
        """``said`` without a "my", "her" before a colour: the card in that hand ("Put my
        green card on the house", "Anna played her white card")."""
        own = self.words.get("own", frozenset())
        colour = _placeholder("colour")
        return [t for i, t in enumerate(said) if not (t in own and said[i + 1 : i + 2] == [colour])]

    def _without_stop(self, tokens: Sequence[str]) -> list[str]:
        """``tokens`` without the stop words (articles: "ein gelbes Haus", "a green
        apple" run like "yellow house", "green apple")."""
        stop = self.words.get("stop", frozenset())
        return [t for t in tokens if t not in stop]

    def _skeleton_tokens(self, norm: str) -> list[str]:
        out = []
        for token in norm.split():
            if token.startswith("zz") and token.endswith("zz"):
                list_name = token[2:-2]
                out.append(_placeholder(self.list_slot.get(list_name, list_name)))
            else:
                out.append(token)
        return out

    def _value_index(self) -> dict[tuple[str, ...], tuple[str, Any]]:
        index: dict[tuple[str, ...], tuple[str, Any]] = {}
        for name, slot_list in self.grammar.slot_lists.items():
            slot = self.list_slot.get(name)
            if slot is None:
                continue
            if isinstance(slot_list, TextSlotList):
                for value in slot_list.values:
                    for text in sample_expression(value.text_in, language=self.grammar.lang):
                        key = tuple(normalize(text).split())
                        if key:
                            index.setdefault(key, (slot, value.value_out))
            # Number lists are left out: "this one" is no object number; "Nummer zwölf"
            # is for the templates to say.
        return index

    # --- reading an utterance ----------------------------------------------------------
    def tokens(self, norm: str) -> list[str]:
        """The words of ``norm`` without fillers and politeness."""
        words = norm.split()
        out: list[str] = []
        i = 0
        while i < len(words):
            skipped = self._skip.at(words, i)
            if not skipped:
                out.append(words[i])
                skipped = 1
            i += skipped
        return out

    def spans(
        self, tokens: Sequence[str], fixed: Mapping[str, Sequence[Any]] | None = None
    ) -> list[Span]:
        """Values in ``tokens``, longest first; pronouns for the object fixed by the phase."""
        fixed = fixed or {}
        deictic = self._deictic
        spans: list[Span] = []
        longest = self._longest_value
        i = 0
        while i < len(tokens):
            found: Span | None = None
            for size in range(min(longest, len(tokens) - i), 0, -1):
                hit = self._values.get(tuple(tokens[i : i + size]))
                if hit is not None:
                    found = Span(i, i + size, hit[0], hit[1])
                    break
            if found is None and (owner := self._owner(tokens, i)) is not None:
                found = Span(i, i + 1, owner[0], owner[1])  # "anna's was brown", "Mias is lila"
            if found is None and "object" in fixed and len(fixed["object"]) == 1:
                for phrase in deictic:
                    if tuple(tokens[i : i + len(phrase)]) == phrase:
                        found = Span(i, i + len(phrase), "object", fixed["object"][0])
                        break
            if found is None and len(tokens[i]) >= MIN_FUZZY_VALUE and not self._known(tokens[i]):
                match = process.extractOne(
                    tokens[i], self._fuzzy_keys, scorer=fuzz.ratio, score_cutoff=VALUE_CUTOFF
                )
                if match is not None:
                    slot, value = self._single[match[0]]
                    found = Span(i, i + 1, slot, value)
            if found is not None and self._no_value_at(tokens, found):
                found = None  # "das weiß ich": know, not white
            if found is not None:
                spans.append(found)
                i = found.end
            else:
                i += 1
        return spans

    def _owner(self, tokens: Sequence[str], i: int) -> tuple[str, Any] | None:
        """The player a name with the possessive s names ("anna's", German "mias"): a
        player's colour or card is said by its owner's name ("Anna's was brown", "Mias
        is lila"). Not before a thing of theirs no template speaks of ("Mias Pullover ist
        gelb", "like Anna's trainers"): that is about the pullover."""
        stem = possessive_stem(tokens[i])
        if stem is None or len(stem) < 2:
            return None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if after is not None and not (self.is_value(after) or after in self._owned_by):
            return None
        hit = self._values.get((stem,))
        return hit if hit is not None and hit[0] == "player" else None

    def _no_value_at(self, tokens: Sequence[str], span: Span) -> bool:
        """Is the value word at ``span`` part of a phrase where it is no value (the
        grammar's ``not_a_value`` guard words: "ich weiß", "weiß ich nicht")?"""
        for phrase in self._not_a_value:
            for start in range(max(0, span.end - len(phrase)), span.start + 1):
                if tuple(tokens[start : start + len(phrase)]) == phrase:
                    return True
        return False

    @cached_property
    def _deictic(self) -> list[tuple[str, ...]]:
        """Pronouns for the object in play ("this one", "it"), the longest first."""
        return sorted(
            (tuple(p.split()) for p in self.words.get("deictic", ())), key=len, reverse=True
        )

    @cached_property
    def _longest_value(self) -> int:
        """How many words the longest value has (worked out once, not per utterance)."""
        return max((len(k) for k in self._values), default=1)

    @cached_property
    def _owned_by(self) -> frozenset[str]:
        """Words after which a name with the possessive s is the owner's move: a verb
        ("is", "war"), a word for the colour or card, a small word ("can she ...")."""
        kinds = ("owned_by", "filler", "subject", "question_start", "minor")
        said = frozenset().union(*(self.words.get(kind, frozenset()) for kind in kinds))
        return said - self.words.get("either_or", frozenset())  # "Cem's or mine?"

    @cached_property
    def _not_a_value(self) -> list[tuple[str, ...]]:
        return [tuple(p.split()) for p in self.words.get("not_a_value", ())]

    def names(self, words: Sequence[str], slot: str) -> bool:
        """Does one of ``words`` (spelt right) name a value of ``slot`` ("grün": colour)?"""
        single = self._single
        return any(word in single and single[word][0] == slot for word in words)

    def is_value(self, word: str) -> bool:
        """Is ``word`` on its own a value of a list (a player, a colour, a word card)?"""
        return (word,) in self._values

    def slot_of(self, word: str) -> str | None:
        """The slot ``word`` on its own is a value of ("mia": player), or ``None``."""
        hit = self._values.get((word,))
        return None if hit is None else hit[0]

    def _known(self, word: str) -> bool:
        return any(word in m.words for m in self.models.values())

    # --- matching ----------------------------------------------------------------------
    def match(
        self,
        norm: str,
        allowed: Iterable[str],
        fixed: Mapping[str, Sequence[Any]] | None = None,
    ) -> tuple[str, dict[str, Any], float] | None:
        """``(intent, slots, score)`` for an utterance the templates do not list, or
        ``None``: no value, two values of a kind, an unknown word, or a close call."""
        tokens = self.tokens(norm)
        spans = self.spans(tokens, fixed)
        if not spans:
            return None
        slots: dict[str, Any] = {}
        for span in spans:
            if span.slot in slots and slots[span.slot] != span.value:
                return None  # two colours at once, two players ...
            slots[span.slot] = span.value
        said = self._without_own(skeleton(tokens, spans))
        stop = self.words.get("stop", frozenset())
        pairs = word_pairs(said)
        bare = word_pairs(self._without_stop(said))
        # how much of the sentence each intent knows, as said and with its articles left
        # out: the one as said decides between intents, either makes it sure
        scored: list[tuple[float, float, str]] = []
        for name in allowed:
            model = self.models.get(name)
            if model is None or frozenset(slots) not in model.combos:
                continue
            words = [t for t in said if not t.startswith("{")]
            if any(w not in model.words and w not in stop for w in words):
                continue
            coverage = sum(p in model.pairs for p in pairs) / len(pairs)
            without = sum(p in model.bare_pairs for p in bare) / len(bare)
            if max(coverage, without) >= MIN_COVERAGE:
                scored.append((coverage, without, name))
        if not scored:
            return None
        scored.sort(reverse=True)
        best, best_bare, name = scored[0]
        if any(
            other != name and best - score < CLOSE_CALL and abs(best_bare - bare_score) < CLOSE_CALL
            for score, bare_score, other in scored[1:]
        ):
            return None
        if best_bare < max(b for _, b, _ in scored):
            return None  # the articles left out, another intent knows it better
        return name, slots, SURE_SCORE if max(best, best_bare) == 1.0 else UNSURE_SCORE


VALUE_SLOTS = frozenset({"colour", "object", "player", "word"})
"""Slots whose values, named in an utterance, must all be part of its meaning."""
CELL_SLOTS = frozenset({"row", "column"})
"""Slots of a square named by row and column (voice.understanding.intents: ``_cell``)."""


def refused(
    grammar: Grammar,
    fallback: Fallback,
    raw: str,
    norm: str,
    meaning: Mapping[str, Any] | None = None,
    values: str | None = None,
) -> bool:
    """True if ``raw`` must not be a move whatever it seems to say: a typed question, a
    refusal word, a hedge (question word, wish, advice, either-or), a question by word
    order ("Nehm ich blau", "did Cem play green"), two values of one kind, or a value the
    ``meaning`` (the slots understood) leaves out.

    ``values``: where values are looked for, if not in all of ``norm`` (a sentence inside
    conversational frames: its core and any vocative, so that "the first one, right"
    holds one side, not two)."""
    if "?" in raw:
        return True
    words = grammar.guard_words
    tokens = fallback.tokens(norm)
    if not tokens:
        return False
    spans = fallback.spans(tokens)
    inside = {i for span in spans for i in range(span.start, span.end)}  # "Hope", a word card
    refusal = words.get("refusal", frozenset())
    hedge = words.get("hedge", frozenset())
    lead = 0  # "but Cem had green": an opening word, no refusal
    while lead < len(tokens) - 1 and tokens[lead] in grammar.opening_words:
        lead += 1
    players = {i for span in spans if span.slot == "player" for i in range(span.start, span.end)}
    addressed = words.get("addressed", frozenset())
    for i, token in enumerate(tokens):
        if i < lead or i in inside:
            continue
        if token in addressed and i - 1 in players:
            continue  # the player just named, spoken to: "Lena, du hattest schwarz"
        if token in refusal or token in hedge or token.endswith("n't"):
            return True
    said = norm.split()
    if holds_phrase(norm, words.get("would_have", ())):
        return True  # only imagined: "I'd have said Anna had yellow"
    subject = words.get("subject", frozenset())
    if tokens[lead] in words.get("prompting", frozenset()) and not (
        lead + 1 < len(tokens) and tokens[lead + 1] in subject
    ):
        return True  # told what to say: "sag Mia gelb", "say green for Cem" (not "sag ich")
    first = said[0]
    named = tokens[0] == first and 0 in inside  # a player called Will or May
    if not named and _asks(words, first, tokens):
        return True
    # The same after words outside the sentence ("and did Cem …", "ja, hatte Mia …"; not
    # "also hatte Mia grün", where the verb follows the first part of the sentence).
    detached = words.get("detached", frozenset())
    start = 0
    while start < len(said) - 1 and said[start] in detached:
        start += 1
    if start and not fallback.is_value(said[start]):
        if _asks(words, said[start], fallback.tokens(" ".join(said[start:]))):
            return True
    if values is not None:
        spans = fallback.spans(fallback.tokens(values))
    seen: dict[str, Any] = {}
    for span in spans:
        # two colours, players, objects: either-or or advice ("row 1, column 3" is one square)
        if span.slot in VALUE_SLOTS and span.slot in seen and seen[span.slot] != span.value:
            return True
        seen[span.slot] = span.value
    # A value the meaning leaves out belongs to another sentence: "Ben, play purple" is
    # advice to Ben, not Anna's move.
    return meaning is not None and any(slot in VALUE_SLOTS and slot not in meaning for slot in seen)


def _asks(words: Mapping[str, frozenset[str]], first: str, tokens: Sequence[str]) -> bool:
    """Does a sentence that begins with ``first`` (then ``tokens``, fillers left out) ask
    by its word order ("did Cem …", "nehm ich blau")?"""
    if first in words.get("question_start", frozenset()):
        return True
    return (
        len(tokens) > 1
        and first in words.get("question_verb", frozenset())
        and tokens[1] in words.get("subject", frozenset())
    )


def _list_slots(grammar: Grammar) -> dict[str, str]:
    """Which slot each list fills (``{any_object:object}`` → any_object fills object);
    wildcard lists are left out, and the row and column of a square named by them (they
    are one value, the square: :attr:`Grammar.cell_columns`)."""
    out: dict[str, str] = {}
    for leaf in grammar.template_leaves():
        if isinstance(leaf, ListReference) and leaf.slot_name not in CELL_SLOTS:
            slot_list = grammar.slot_lists.get(leaf.list_name)
            if isinstance(slot_list, (TextSlotList, RangeSlotList)):
                out.setdefault(leaf.list_name, leaf.slot_name)
    return out
