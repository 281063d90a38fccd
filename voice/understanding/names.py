"""An intent parser for games whose players say names from a deck (Pantone's guesses).

The general parser snaps near-misses to the closest template sentence. For names that
is too loose: "spider woman" is one letter group away from "spider man", and a wrong
guess must never turn into a right one. So for the name intent this parser

1. takes exact template matches as they are (the recogniser's per-phase phrase list
   is built from the same templates, so real recogniser output usually lands here);
2. otherwise cuts the carrier words off ("is it ...", "ich glaube, das ist ...") with
   the same templates, the name slot read as free text, and decides with
   :mod:`games.name_match` which deck name (if any) was meant;
3. never lets the general fuzzy snapping produce the name intent.

Everything else is parsed as usual.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hassil import Intents, recognize_all
from hassil.intents import WildcardSlotList

from games.name_match import best_match
from voice.understanding.grammar import Grammar, normalize
from voice.understanding.intents import MAX_CHARS, Intent, IntentParser


class NameParser(IntentParser):
    """:class:`IntentParser` with strict name matching for one intent's name slot."""

    def __init__(
        self, grammar: Grammar, intent: str, slot: str, cards: Sequence[Sequence[str]]
    ) -> None:
        super().__init__(grammar)
        self.intent = intent
        self.slot = slot
        self.cards = [tuple(forms) for forms in cards]
        source = grammar.intents
        self._carriers = Intents(
            language=source.language,
            intents={intent: source.intents[intent]},
            slot_lists={**grammar.slot_lists, slot: WildcardSlotList(name=slot)},
            expansion_rules=source.expansion_rules,
            skip_words=source.skip_words,
            settings=source.settings,
        )

    def parse(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
    ) -> Intent | None:
        norm = normalize(text)
        if not norm or len(norm) > MAX_CHARS:
            return None
        allowed_set = frozenset(allowed) if allowed is not None else None
        exact = self._exact(norm, allowed_set)
        if exact is not None and (allowed_set is None or exact.name in allowed_set):
            return exact
        if allowed_set is None or self.intent in allowed_set:
            named = self._name(norm)
            if named is not None:
                return named
        if exact is not None:  # understood, but not now: the engine says why
            return exact
        others = (allowed_set or self.grammar.intent_names) - {self.intent}
        result = super().parse(text, others, slots)
        if result is not None and result.name == self.intent:
            return None  # a name reached only by snapping is not trusted
        return result

    def _name(self, norm: str) -> Intent | None:
        """The deck name ``norm`` means, with or without carrier words."""
        best = None
        for result in recognize_all(norm, self._carriers, language=self.grammar.lang):
            entity = result.entities.get(self.slot)
            if entity is None:
                continue
            said = normalize(str(entity.value))
            match = best_match(said, self.cards) if said else None
            if match is not None and (best is None or match.score > best.score):
                best = match
        if best is None:
            return None
        return Intent(self.intent, {self.slot: best.form}, norm, best.score / 100.0)
