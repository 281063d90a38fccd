"""Which sentence templates could match a text at all, by its words: the parser hands
hassil only those (:meth:`voice.understanding.grammar.Grammar.candidates`).

hassil's own pre-filter skips a template whose required words are missing from the text
("ich nehme {colour}" for "rot"). Most templates that pass it require little or nothing
("{colour}", "<any_colour>", "[the] {card}") and still cost a full match attempt for every
utterance, and hassil builds its match settings for every block of sentences on every
call, whether any sentence of it can match or not. This filter looks the other way: every
word of the text must be one the template can say. "<any_colour>" says colours only, so it
is never tried on "Anna hatte rot".

It is sound, never a guess: a template is left out only when it provably cannot match.
A match consumes the whole text (what is left may only be spaces and punctuation), each
character by a literal text chunk of the template (its own, a list value's, an expansion
rule's), a number of a range list or a wildcard. hassil compares chunks with the text
letter for letter (ignoring case), so each run of letters and digits of the text is a run
of some chunk, or several runs of chunks said without a space between them ("rot(e|en)":
"rot" and "e"). Templates with a wildcard or a range list can say anything and are always
tried. Words hassil may drop as skip words are never held against a template, and runs
end at "_" as at "-" (hassil breaks words apart at both).

The sentences kept, in their order, are still hassil's to match, with its own pre-filter:
the answers are exactly those without this filter.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from hassil import Intents
from hassil.expression import Expression, Group, ListReference, RuleReference, Sentence, TextChunk
from hassil.intents import IntentData, SlotList, TextSlotList
from hassil.util import fold_case, normalize_for_matching

_RUN = re.compile(r"[^\W_]+")
"""A run of letters and digits: what hassil's chunks must spell out letter for letter."""

_MAX_DEPTH = 64
"""Deeper nesting than this (rules in lists in rules …) is taken as saying anything."""

_CACHE_LIMIT = 512
"""Remembered words and narrowed sets of intents (the grammar's, not utterances)."""


class _Anything(Exception):
    """A template reaches a wildcard, a range list or something unknown: it may say
    any word."""


def runs(text: str) -> list[str]:
    """The runs of letters and digits of ``text``, case folded as hassil folds them for
    its own pre-filters (at least as loosely as its matching ignores case)."""
    return [fold_case(run) for run in _RUN.findall(text)]


@dataclass(frozen=True)
class _Template:
    """One sentence of one block of an intent: its bit and what it can say."""

    bit: int
    sentence: Sentence
    words: frozenset[str] | None
    """The runs of its chunks (``None``: anything)."""


class TemplateFilter:
    """The sentences of ``intents`` indexed by the runs of letters they can say, with
    the slot lists they are matched with (a list narrowed per utterance, as
    :meth:`Grammar.lists_for` narrows it, says no more than the whole list)."""

    def __init__(self, intents: Intents, slot_lists: Mapping[str, SlotList]) -> None:
        self.intents = intents
        self._templates: dict[int, list[_Template]] = {}  # id of an IntentData → its own
        self._data: list[IntentData] = []  # kept alive, so their ids stay theirs
        self._by_run: dict[str, int] = {}
        self._anything = 0
        bit = 1
        for intent in intents.intents.values():
            for data in intent.data:
                lists = {**slot_lists, **data.slot_lists}
                rules = {**intents.expansion_rules, **data.expansion_rules}
                own = []
                for sentence in data.sentences:
                    words = _words(sentence, lists, rules)
                    own.append(_Template(bit, sentence, words))
                    if words is None:
                        self._anything |= bit
                    for word in words or ():
                        self._by_run[word] = self._by_run.get(word, 0) | bit
                    bit <<= 1
                self._templates[id(data)] = own
                self._data.append(data)
        self._every = bit - 1
        self._longest = max((len(w) for w in self._by_run), default=0)
        self._skipped = frozenset(w for skip in intents.skip_words for w in runs(skip))
        self._said: dict[str, int] = {}
        self._narrowed: dict[tuple[int, int], tuple[Intents, Intents]] = {}

    def mask(self, text: str) -> int:
        """The bits of the sentences that may match ``text``: those that can say every
        run of it (skip words aside)."""
        found = self._every
        for run in set(runs(normalize_for_matching(text).text)):
            if run in self._skipped:
                continue
            found &= self._saying(run)
            if not found:
                break
        return found

    def _saying(self, run: str) -> int:
        """The sentences that can say ``run``: as one run of theirs, or as several said
        without a space between them (the bits of every way to cut it, or-ed)."""
        found = self._said.get(run)
        if found is None:
            by_run, longest = self._by_run, self._longest
            upto = [0] * (len(run) + 1)  # sentences that can say run[:i]
            upto[0] = self._every
            for end in range(1, len(run) + 1):
                for start in range(max(0, end - longest), end):
                    if upto[start] and (bits := by_run.get(run[start:end])):
                        upto[end] |= upto[start] & bits
            found = upto[-1] | self._anything
            if len(self._said) >= _CACHE_LIMIT:
                self._said.clear()
            self._said[run] = found
        return found

    def narrowed(self, intents: Intents, mask: int) -> Intents:
        """``intents`` (this filter's, or a part of them made with
        :func:`dataclasses.replace`) with only the sentences in ``mask`` (see
        :meth:`mask`), in their order. Any other collection of intents is given back as
        it is."""
        if (
            intents.slot_lists is not self.intents.slot_lists
            or intents.expansion_rules is not self.intents.expansion_rules
            or intents.skip_words is not self.intents.skip_words
            or intents.settings.ignore_whitespace
        ):
            return intents
        key = (id(intents), mask)
        cached = self._narrowed.get(key)
        if cached is not None and cached[0] is intents:
            return cached[1]
        chosen = {}
        for name, intent in intents.intents.items():
            blocks = list(self._blocks(intent.data, mask))
            if blocks:
                chosen[name] = replace(intent, data=blocks)
        found = replace(intents, intents=chosen)
        if len(self._narrowed) >= _CACHE_LIMIT:
            self._narrowed.clear()
        self._narrowed[key] = (intents, found)
        return found

    def _blocks(self, blocks: Iterable[IntentData], mask: int) -> Iterator[IntentData]:
        """The blocks with a sentence in ``mask``, each with only those sentences."""
        for data in blocks:
            own = self._templates.get(id(data))
            if own is None:
                yield data  # not indexed: tried as it is
                continue
            kept = [t.sentence for t in own if t.bit & mask]
            if len(kept) == len(own):
                yield data
            elif kept:
                yield _with_sentences(data, kept)


def _with_sentences(data: IntentData, sentences: list[Sentence]) -> IntentData:
    """A copy of ``data`` holding only ``sentences`` (already parsed, in its order).

    ``IntentData.sentences`` is a cached property parsed from ``sentence_texts``; the
    copy is given the parsed sentences themselves, so nothing is parsed again and hassil's
    required clauses, cached on each sentence, are kept."""
    block = copy.copy(data)
    block.__dict__["sentences"] = sentences
    return block


def _words(
    sentence: Sentence, lists: Mapping[str, SlotList], rules: Mapping[str, Sentence]
) -> frozenset[str] | None:
    """The runs of every chunk ``sentence`` can reach, or ``None`` if it can say
    anything."""
    found: set[str] = set()
    try:
        _collect(sentence.expression, lists, rules, found, set(), 0)
    except _Anything:
        return None
    return frozenset(found)


def _collect(
    expr: Expression,
    lists: Mapping[str, SlotList],
    rules: Mapping[str, Sentence],
    found: set[str],
    seen: set[str],
    depth: int,
) -> None:
    """Add the runs ``expr`` can say to ``found`` (lists and rules once each, by name)."""
    if depth > _MAX_DEPTH:
        raise _Anything
    if isinstance(expr, Sentence):
        _collect(expr.expression, lists, rules, found, seen, depth + 1)
    elif isinstance(expr, TextChunk):
        found.update(runs(expr.text))
    elif isinstance(expr, Group):  # a sequence, an alternative, a permutation
        for item in expr.items:
            _collect(item, lists, rules, found, seen, depth + 1)
    elif isinstance(expr, ListReference):
        slot_list = lists.get(expr.list_name)
        if not isinstance(slot_list, TextSlotList):
            raise _Anything  # a wildcard, a range of numbers, a list made up on the fly
        if f"{{{expr.list_name}}}" in seen:
            return
        seen.add(f"{{{expr.list_name}}}")
        for value in slot_list.values:
            _collect(value.text_in, lists, rules, found, seen, depth + 1)
    elif isinstance(expr, RuleReference):
        rule = rules.get(expr.rule_name)
        if rule is None:
            raise _Anything
        if f"<{expr.rule_name}>" in seen:
            return
        seen.add(f"<{expr.rule_name}>")
        _collect(rule.expression, lists, rules, found, seen, depth + 1)
    else:
        raise _Anything
