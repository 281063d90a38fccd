"""An intent parser for games whose players say names from a deck (Pantone's guesses).

The general parser snaps near-misses to the closest template sentence. For names that
is too loose: "spider woman" is one letter group away from "spider man", and a wrong
guess must never turn into a right one. So for the name intent this parser

1. takes exact template matches as they are (the recogniser's per-phase phrase list
   is built from the same templates, so real recogniser output usually lands here);
   the name list holds the deck's names and, beyond them, well-known characters that
   are no card (a guess of one of those is simply wrong);
2. otherwise cuts the carrier words off ("is it ...", "ich glaube, das ist ...") with
   the same templates, the name slot read as free text, and decides with
   :mod:`games.name_match` which name (if any) was meant; failing that, looks for a
   name inside the utterance ("I'd say it's probably Mickey");
3. never lets the general fuzzy snapping produce the name intent;
4. in a guess window, before taking a recogniser's words that name nobody as a wrong
   guess (typed words mean what they spell), compares how they sound with every name
   (:mod:`voice.understanding.sounds`: "check your cat" from an open-vocabulary
   recogniser is Cheshire Cat): a name clearly meant is found, and then confirmed, never
   applied at once (:data:`BY_SOUND`); a name the player said no to is not found again
   for the same words (they are then the player's own words).

While a guess is expected (the name intent is among the allowed ones, i.e. a guess
window), every utterance is the guess: what names nobody we know is a wrong guess in the
guesser's own words ("a rabbit"). Two things are not guesses: a negation ("it's not
Mickey", "das ist bestimmt nicht der Grinch") and pure thinking aloud ("hmm", "lass mich
überlegen"); both are the ``thinking`` intent, which changes nothing.

Everything else is parsed as usual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from hassil import Intents, recognize_all
from hassil.intents import TextSlotList, WildcardSlotList
from rapidfuzz import fuzz, process

from games.name_match import Match, canonical, score
from voice.understanding.grammar import Grammar, holds_phrase
from voice.understanding.intents import MAX_CHARS, Intent, IntentParser, said_slots
from voice.understanding.learned import ANSWERS
from voice.understanding.questions import generic_words, key_words
from voice.understanding.retraction import name_taken_back
from voice.understanding.sounds import SoundIndex
from voice.understanding.verdict import verdict
from words.text import normalize

THINKING = "thinking"
"""The intent of what a guesser says that is not a guess."""

NEGATION_LIST = "negation"
"""Grammar list of words that negate a name ("not", "nicht", "kein", ...)."""

NOT_NEGATION_LIST = "not_negation"
"""Grammar list of phrases with such a word that negate nothing ("not sure")."""

FILLER_LIST = "guess_filler"
"""Grammar list of words that carry nothing in a guess ("well", "so", "oh")."""

EMBEDDED_FACTOR = 0.7
"""A name found inside other words that are no carrier words is this sure (confirmed)."""

ALTERNATIVES = frozenset({"or", "and", "oder", "und"})
"""Words that join two names said as one guess ("Mickey or Minnie")."""

_PIECES = re.compile(r"[.!?;:,…]+")
"""Typed pauses that part sentences; a "?" parts them too, and only a name said after the
last one may make a guess sure ("Is that Elsa? Elsa.", :meth:`NameParser._said_alone`)."""

MAX_SPAN = 6
"""Longest run of words tried as an embedded name."""

CANDIDATES = 24
"""Names compared exactly per reading, after a quick similarity pre-selection."""

MIN_SENTENCE = 3
"""A free guess of this many words with a word no name holds (``not_in_names``) is a
sentence said aloud, not a name."""

BY_SOUND = 0.6
"""How sure a name found by sound is: enough to ask the player, never to act on."""

PRESELECT_CUTOFF = 40.0
"""Names less similar than this (rapidfuzz ratio of the spellings) are never candidates;
every name :func:`games.name_match.score` accepts is far more similar."""


class NameParser(IntentParser):
    """:class:`IntentParser` with strict name matching for one intent's name slot."""

    def __init__(
        self,
        grammar: Grammar,
        intent: str,
        slot: str,
        cards: Sequence[Sequence[str]],
        others: Sequence[Sequence[str]] = (),
        *,
        by_sound: bool = True,
    ) -> None:
        super().__init__(grammar)
        self.intent = intent
        self.slot = slot
        self.cards = [tuple(forms) for forms in cards]
        self.others = [tuple(forms) for forms in others]
        """Names that are no card: heard as themselves, always a wrong guess."""
        self._all = self.cards + self.others
        self.sounds = SoundIndex(grammar.lang, self._all) if by_sound else None
        """Every name by sound (None: names are matched by their letters alone)."""
        self._by_sound_found: dict[str, int] = {}  # words → the character found by sound
        self._names_said: frozenset[str] | None = None  # the words of every name
        self._said_no: dict[str, set[int]] = {}  # words → characters the player denied
        self._flat = [(i, form) for i, forms in enumerate(self._all) for form in forms]
        self._spellings = [" ".join(canonical(form)) for _, form in self._flat]
        self._readings: dict[str, list[str]] = {}
        self._by_canonical: dict[str, str] = {}
        # the deck wins over others of the same spelling, a card's name over its aliases
        for forms in reversed(self._all):
            for form in reversed(forms):
                self._by_canonical["".join(canonical(form))] = form
        source = grammar.intents
        self._carriers = Intents(
            language=source.language,
            intents={intent: source.intents[intent]},
            slot_lists={**grammar.slot_lists, slot: WildcardSlotList(name=slot)},
            expansion_rules=source.expansion_rules,
            skip_words=source.skip_words,
            settings=source.settings,
        )
        self._negations = _words_of(grammar, NEGATION_LIST)
        self._question_words = grammar.guard_words.get("question_word", frozenset())
        self._not_negations = sorted(_words_of(grammar, NOT_NEGATION_LIST), key=len, reverse=True)
        self._fillers = _words_of(grammar, FILLER_LIST) | {
            w for skip in source.skip_words for w in normalize(skip).split()
        }

    def parse(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
        *,
        heard: bool = False,
        last: Mapping[str, Any] | None = None,
    ) -> Intent | None:
        norm = normalize(text)
        if not norm or len(norm) > MAX_CHARS:
            return None
        allowed_set = frozenset(allowed) if allowed is not None else None
        with self._utterance():
            result = self._understood(norm, text, allowed_set, slots, heard)
            if allowed_set is not None and (
                result is None or result.name not in allowed_set | ANSWERS
            ):  # (a yes or no is the verdict already: the session makes it one)
                # "Got it in one!", "Nah, not even close", "Yep, it's Pinocchio" (no guess)
                return verdict(self.grammar, text, allowed_set, self._name_words()) or result
            return result

    def _name_words(self) -> frozenset[str]:
        """The words of every character's and player's name, and the words a guess is
        said with."""
        if self._names_said is None:
            players = self.grammar.slot_lists.get("player")
            said = [form for forms in self._all for form in forms]
            said += [v.text_in.text for v in getattr(players, "values", ())]
            words = {w for form in said for w in normalize(form).split()}
            self._names_said = frozenset(words | self._fillers)  # and "it's", "des is"
        return self._names_said

    def _understood(
        self,
        norm: str,
        text: str,
        allowed_set: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
        heard: bool,
    ) -> Intent | None:
        """What :meth:`parse` says ``norm`` means (the whole utterance, or it without its
        opening words)."""
        result = self._parse(norm, text, allowed_set, slots, heard)
        if result is not None and result.score >= 1.0:
            return result  # the whole sentence ("Hey Duggee" is a name)
        words = norm.split()
        opened = " ".join(words[self.grammar.opening(words) :])
        if opened != norm:  # "hey, Mickey Mouse", "genau, Bambi": a guess as sure as without
            found = self._parse(opened, opened, allowed_set, slots, heard)
            if found is not None and (result is None or found.score > result.score):
                result = Intent(found.name, found.slots, norm, found.score)
                if result.score >= 1.0 or result.name != self.intent:
                    return result
        if result is not None and result.name == self.intent and result.score < 1.0:
            if self._said_alone(norm, text, result, allowed_set, slots):
                return Intent(result.name, result.slots, norm, 1.0)
        return result

    def _said_alone(
        self,
        norm: str,
        text: str,
        guess: Intent,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> bool:
        """Was the name guessed also said as a sentence of its own, and no other name
        beside it ("Grobi! Das ist Grobi.", "SpongeBob! SpongeBob SquarePants.")? Then
        the guess is as sure as the name said alone. Nothing may hedge, and a question
        only before the name said last, which answers it ("Is that Elsa? Elsa.", "Wait, is
        it Mario? Yeah, Mario."): "Cinderella, maybe? Blue dress and all." and "Elsa.
        Elsa?" are still asked about."""
        hedges = self.grammar.guard_words.get("hedge", frozenset())
        asked = "?" in text
        if (asked and text.rstrip().endswith("?")) or hedges & set(norm.split()):
            return False
        name = guess.slots.get(self.slot)
        card = self._card_of(name)
        pieces = [normalize(p) for p in _PIECES.split(text)]
        pieces = [p for p in pieces if p]
        if len(pieces) < 2 or card is None:
            return False
        alone = False
        for i, piece in enumerate(pieces):
            named = {self._card_of(form) for _, _, form in self._name_spans(piece.split())}
            if named - {card}:
                return False  # "Meister Eder, der hat doch so einen Bart": Bart too
            found = self._parse(piece, piece, allowed, slots)
            alone = alone or (
                found is not None
                and found.name == self.intent
                and found.score >= 1.0
                and self._card_of(found.slots.get(self.slot)) == card
                and (not asked or i == len(pieces) - 1)
            )
        return alone

    def _accused(
        self,
        norm: str,
        text: str,
        allowed_set: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """A move answering the accusation said beside it (the grammar's
        ``accused_moves``), which may name characters: never a guess of those."""
        moves = self.grammar.accused_moves
        if not moves or (allowed_set is not None and not moves & allowed_set):
            return None
        from voice.understanding.framing import aside

        beside = aside(self, norm, text, allowed_set, slots)
        return beside[0] if beside is not None and beside[0].name in moves else None

    def _card_of(self, form: Any) -> int | None:
        """Which card (or other character) a name's form belongs to (the first that has
        it, as the deck wins over other characters)."""
        return self._cards_by_form.get(form)

    @cached_property
    def _cards_by_form(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for i, form in self._flat:
            found.setdefault(form, i)
        return found

    def _parse(
        self,
        norm: str,
        text: str,
        allowed_set: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
        heard: bool = False,
    ) -> Intent | None:
        exact = self._exact(norm, allowed_set)
        if exact is not None and (allowed_set is None or exact.name in allowed_set):
            return exact
        accused = self._accused(norm, text, allowed_set, slots)
        if accused is not None:
            return accused  # "Cem blurted out Maleficent! Penalty, Cem.": no guess
        framed = self._framed(norm, text, allowed_set)  # "pass, sorry", "nö, passe"
        if framed is not None and (allowed_set is None or framed[0].name in allowed_set):
            found = framed[0]
            if found.name == self.intent and self.grammar.frames.content(norm)[1] == "person":
                # "Anna, is it Elsa?": most likely the guess, asked of the Artist; confirmed
                return Intent(found.name, found.slots, norm, min(found.score, EMBEDDED_FACTOR))
            return found
        may_guess = allowed_set is None or self.intent in allowed_set
        guessing = allowed_set is not None and self.intent in allowed_set
        if guessing:  # "Tigger. Nee, Garfield!"
            again = name_taken_back(self.grammar, norm, text, self._name, self._name_spans)
            if again is not None:
                return again
        if may_guess and (
            self._negated(norm)
            or self._would_have(norm)
            or self._past(norm)
            or (self._supposed_or_ordered(norm) and self._names_in(norm))
        ):
            return self._said_beside(norm, text, allowed_set, slots) or Intent(
                THINKING, {}, norm, 1.0
            )
        names = self._names_in(norm) if may_guess else []
        if len(names) > 1:  # "Mickey or Minnie?": one try each, so no guess yet
            return Intent(THINKING, {"names": names}, norm, 1.0)
        if may_guess:
            named = self._name(norm) or self._embedded(norm)
            if named is not None and named.score < 1.0 and self._about_the_name(norm):
                # "Hat Rumpelstilzchen einen Bart?", "Is Rapunzel the one with the
                # tower?": a question about the character, no try at it
                return Intent(THINKING, {}, norm, 1.0)
            if named is not None and named.score < 1.0 and self._to_a_player(norm):
                # a name inside words said to another player is advice or a memory
                # ("if I were you I'd say Rapunzel, Ben"), not the guesser's try
                return Intent(THINKING, {}, norm, 1.0)
            if named is not None:
                return named
        if exact is not None:  # understood, but not now: the engine says why
            return exact
        if may_guess and all(w in self._fillers for w in norm.split()):
            return Intent(THINKING, {}, norm, 1.0)  # "ähm", "well, um": nothing said yet
        # Snapping near-misses to the other commands ("paas", "how mcuh time is left");
        # thinking aloud is left out: its sentences are names, and negations are found above.
        others = (allowed_set or self.grammar.intent_names) - {self.intent, THINKING}
        result = super().parse(text, others, slots)
        if result is not None and result.name == self.intent:
            result = None  # a name reached only by snapping is not trusted
        if (
            result is not None
            and guessing
            and result.name in self.grammar.global_intents
            and not self._keyed(norm, result.name)
        ):
            # "wait, wait" in one's own guess window asks for a moment, as "wait" does
            aloud = super().parse(text, others | {THINKING}, slots)
            if aloud is not None and aloud.name == THINKING and aloud.score >= 1.0:
                return aloud
        if result is None and guessing and self._no_guess(norm):
            return Intent(THINKING, {}, norm, 1.0)
        if result is None and guessing and not self._asks(norm):
            if self._like_a_command(norm, allowed_set):
                return None  # "penalty for man": a command with a word misheard, no guess
            return (heard and self._by_sound(norm)) or self._free_guess(norm, text)
        return result

    def _keyed(self, norm: str, name: str) -> bool:
        """Does ``norm`` say a key word of intent ``name`` that no conversational frame
        holds ("Pause" asks for one; "warte" may be thinking aloud)?"""
        keys = key_words(self.grammar, self.fallback).get(name, frozenset())
        frames = self.grammar.frames.words
        return any(w in keys and w not in frames for w in norm.split())

    def _said_beside(
        self,
        norm: str,
        text: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """A command said beside a denying remark, parted from it by a pause, in the guess
        window: "Ich hab keine Idee, passe", "Sag das bitte nochmal, ich hab's nicht
        verstanden." No character may be named (that is thinking aloud about names), and
        the command must be understood for sure."""
        if not any(mark in text for mark in ",.;:!?") or self._names_in(norm):
            return None
        others = (allowed or self.grammar.intent_names) - {self.intent, THINKING}
        found = super().parse(text, others, slots)
        asking = self.grammar.question_intents | self.grammar.request_intents
        if found is not None and found.name in asking:
            # "welche Hinweise hatten wir bisher?": answered, nothing changes; "Stopp, das
            # war nicht meine Antwort! Rückgängig machen!" is cheap to take back
            return found
        return found if found is not None and found.score >= 1.0 else None

    def _players_named(self, words: Sequence[str]) -> bool:
        """Do ``words`` speak about a player at this table ("Anna still painting"): a
        player's name, not joined to another name ("Ben and Holly" is a character), beside
        words of the game's own sentences ("painting", "malt")?"""
        names = self._player_names
        if self.grammar.frames.joins & set(words):
            return False
        vocabulary = self.grammar.vocabulary
        return any(w in names for w in words) and any(
            w not in names and w in vocabulary for w in words
        )

    @cached_property
    def _player_names(self) -> frozenset[str]:
        """The names of the players at this table, as said."""
        players = self.grammar.slot_lists.get("player")
        if not isinstance(players, TextSlotList):
            return frozenset()
        return frozenset(normalize(str(v.value_out)) for v in players.values)

    def _to_a_player(self, norm: str) -> bool:
        """Is ``norm`` said to a player by name ("…, Ben", "Remember, Cem, …")?"""
        if self.grammar.frames.content(norm)[1] == "person":
            return True
        names = self._player_names
        words = norm.split()
        return any(w in names for w in words[1:3])  # "remember cem when …"

    def _no_guess(self, norm: str) -> bool:
        """Frames that say nothing yet ("ooh I know this", "oh come on", "uhhh"), or words
        to another player ("Cem, stop helping"): no guess."""
        frames = self.grammar.frames
        return frames.silent(norm) or frames.content(norm)[1] == "person"

    @property
    def frame_guarded(self) -> frozenset[str]:
        """A name is no more said inside a question or after a negation than a move is
        ("no, Mickey" is thinking aloud, "can I say Elsa" asks)."""
        return super().frame_guarded | {self.intent}

    def _best_exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """Exact template match; among equally good ones a game intent beats a global
        command ("weiter" in a guess window is a pass, not "continue")."""
        candidates = self.grammar.candidates(self.grammar.intents, norm)
        if not candidates.intents:
            return None  # no sentence can say these words
        best: tuple[tuple[bool, int, bool], Intent] | None = None
        for result in recognize_all(
            norm, candidates, slot_lists=self.grammar.lists_for(norm), language=self.grammar.lang
        ):
            name = result.intent.name
            slots = said_slots(result.entities)
            rank = (
                allowed is None or name in allowed,
                result.text_chunks_matched,
                name not in self.grammar.global_intents,
            )
            if best is None or rank > best[0]:
                best = (rank, Intent(name, slots, norm, 1.0))
        return best[1] if best else None

    # --- names --------------------------------------------------------------------------
    def _best(self, said: str) -> Match | None:
        """The deck name or other character ``said`` names best (the deck wins ties,
        then the earlier name: as :func:`games.name_match.best_match` decides)."""
        spelled = " ".join(canonical(said)) if said else ""
        if not spelled:
            return None
        close = process.extract(
            spelled, self._spellings, scorer=fuzz.ratio, limit=CANDIDATES,
            score_cutoff=PRESELECT_CUTOFF,
        )  # fmt: skip
        best: tuple[float, int] | None = None
        for _, _, k in close:
            found = score(said, self._flat[k][1])
            if found is not None and (best is None or (found, -k) > (best[0], -best[1])):
                best = (found, k)
        if best is None:
            return None
        index, form = self._flat[best[1]]
        return Match(index, form, best[0])

    def _name(self, norm: str) -> Intent | None:
        """The name ``norm`` means, with or without carrier words."""
        best: Match | None = None
        for said in self._slot_readings(norm):
            match = self._best(said)
            if match is not None and (best is None or match.score > best.score):
                best = match
        if best is None:
            return None
        return Intent(self.intent, {self.slot: best.form}, norm, best.score / 100.0)

    def _slot_readings(self, norm: str) -> list[str]:
        """What the name slot holds in each reading of the guess templates, shortest
        first (the most carrier words cut off)."""
        cached = self._readings.get(norm)
        if cached is not None:
            return cached
        found: set[str] = set()
        lists = {**self.grammar.lists_for(norm), self.slot: self._carriers.slot_lists[self.slot]}
        for result in recognize_all(
            norm, self._carriers, slot_lists=lists, language=self.grammar.lang
        ):
            entity = result.entities.get(self.slot)
            if entity is not None and (said := normalize(str(entity.value))):
                found.add(said)
        if len(self._readings) > 256:
            self._readings.clear()
        readings = self._readings[norm] = sorted(found, key=lambda s: (len(s.split()), s))
        return readings

    def _embedded(self, norm: str) -> Intent | None:
        """A name said inside a longer sentence ("I'd say it's probably Mickey").

        Only whole names (spelled as the deck writes them, spaces aside) count here; the
        longest such name wins. If the other words are more than carrier words and
        fillers, the guess is less sure, so it is confirmed before it counts.
        """
        words = norm.split()
        for start, size, form in self._name_spans(words):
            rest = words[:start] + words[start + size :]
            carried = all(w in self._carrier_words or w in self._fillers for w in rest)
            score = 1.0 if carried else EMBEDDED_FACTOR
            return Intent(self.intent, {self.slot: form}, norm, score)
        return None

    def _name_spans(self, words: Sequence[str]) -> list[tuple[int, int, str]]:
        """``(start, size, form)`` of the whole names in ``words`` (spelled as the deck
        writes them, spaces aside): the longest first, then from the left, none
        overlapping one found before it."""
        taken = [False] * len(words)
        found: list[tuple[int, int, str]] = []
        for size in range(min(MAX_SPAN, len(words)), 0, -1):
            for start in range(len(words) - size + 1):
                if any(taken[start : start + size]):
                    continue
                span = " ".join(words[start : start + size])
                form = self._by_canonical.get("".join(canonical(span)))
                if form is not None:
                    taken[start : start + size] = [True] * size
                    found.append((start, size, form))
        return found

    def _names_in(self, norm: str) -> list[str]:
        """The different characters named whole in ``norm`` if they are joined like
        alternatives: "or" or "and" between each two and nothing else but fillers
        ("Mickey or Minnie", "Mickey Mouse und Minnie Maus"); otherwise none ("Anna, is
        it Elsa?" asks Anna)."""
        words = norm.split()
        found = sorted(self._name_spans(words))
        for (start, size, _), (after, _, _) in zip(found, found[1:], strict=False):
            between = words[start + size : after]
            if not any(w in ALTERNATIVES for w in between) or not all(
                w in ALTERNATIVES or w in self._fillers for w in between
            ):
                return []
        forms: dict[int, str] = {}
        for _, _, form in found:
            forms.setdefault(self._cards_by_form[form], form)
        return list(forms.values())

    @cached_property
    def _longest_name(self) -> int:
        """The most words of any name we know (a free guess longer than that is no name)."""
        return max((len(form.split()) for forms in self._all for form in forms), default=1)

    @cached_property
    def _command_words(self) -> frozenset[str]:
        """Words of the other intents' sentences that no name and no question holds
        ("penalty", "minus", "turn")."""
        others = self.grammar.intent_names - {self.intent, THINKING, "pass"}
        names = {w for forms in self._all for form in forms for w in form.split()}
        generic = generic_words(self.grammar) | self._fillers
        return _template_words(self.grammar, sorted(others)) - names - generic

    def _like_a_command(self, norm: str, allowed: frozenset[str] | None) -> bool:
        """Is this another command with a player's name misheard ("penalty for man"), or
        are more than half of its words, two at least, those of other commands' sentences
        ("then get out of turn")? Not a guess then: asked again, no try spent."""
        words = [w for w in norm.split() if w not in self._fillers]
        hits = sum(w in self._command_words for w in words)
        if hits >= 2 and 2 * hits > len(words):
            return True
        players = self.grammar.slot_lists.get("player")
        if not isinstance(players, TextSlotList) or not players.values:
            return False
        someone = normalize(str(players.values[0].value_out))
        others = (allowed or self.grammar.intent_names) - {self.intent, THINKING}
        said = norm.split()
        if len(said) < 2 or not hits:
            return False  # "Rubble" alone: a name, whatever else a name would be
        return any(
            self._exact(" ".join([*said[:i], someone, *said[i + 1 :]]), frozenset(others))
            is not None
            for i in range(len(said))
            if said[i] != someone
        )

    @property
    def _carrier_words(self) -> frozenset[str]:
        cached = getattr(self, "_carrier_cache", None)
        if cached is None:
            cached = _template_words(self.grammar, (self.intent, THINKING, "pass"))
            self._carrier_cache = cached
        return cached

    def _asks(self, norm: str) -> bool:
        """Is this a question that names nobody ("who's guessing now", "wie viele Punkte
        hat Anna") and is no guess's carrier ("what about a rabbit")? Then it is passed
        over like thinking aloud rather than taken as a wrong guess that costs the guesser
        their try. A name said in it was found before this."""
        words = norm.split()
        start = self.grammar.opening(words)
        if start >= len(words) or words[start] not in self._question_words:
            return False
        # a reading without the question word: it was a guess's carrier ("what about …")
        return all(said.split()[0] == words[start] for said in self._slot_readings(norm))

    def _about_the_name(self, norm: str) -> bool:
        """Does a question by word order have the character as its subject and ask more
        about it ("Hat Rumpelstilzchen einen Bart?"): a verb first, the name right after
        it, then two words or more that are no guess's carrier words ("Is Elsa right?"
        and "Is it Elsa?" still guess)?"""
        words = norm.split()
        start = self.grammar.opening(words)
        starts = self.grammar.guard_words.get("question_start", frozenset())
        if start >= len(words) or words[start] not in starts:
            return False
        stop = self.grammar.guard_words.get("stop", frozenset())
        for begin, size, _ in self._name_spans(words):
            if begin == start + 1:
                rest = words[begin + size :]
                told = [
                    w
                    for w in rest
                    if w not in self._carrier_words and w not in self._fillers and w not in stop
                ]
                return len(told) >= 2
        return False

    def _would_have(self, norm: str) -> bool:
        """A guess only imagined ("I would have said Cinderella", "ich hätte ja Gargamel
        gesagt"): a past conditional and a word of saying or guessing after it."""
        guard = self.grammar.guard_words
        words = norm.split()
        text = f" {norm} "
        starts = [
            text.index(f" {phrase} ")
            for phrase in guard.get("would_have", frozenset())
            if f" {phrase} " in text
        ]
        if not starts:
            return False
        said = guard.get("would_have_said", frozenset())
        after = text[min(starts) :].split()
        return any(w in said for w in after) and len(words) > 1

    def _supposed_or_ordered(self, norm: str) -> bool:
        """Does ``norm`` open with a supposition or an order ("if he says Batman one more
        time I'm leaving", "wenn des jetzt Gargamel is, ärger ich mich", "stop humming the
        Spider-Man song")? A name in it is no try at the card."""
        words = norm.split()
        opened = self.grammar.opening(words)
        if opened >= len(words):
            return False
        guard = self.grammar.guard_words
        first = words[opened]
        return first in guard.get("supposing", frozenset()) or (
            first in guard.get("order", frozenset()) and opened + 1 < len(words)
        )

    def _past(self, norm: str) -> bool:
        """A remark about an earlier round ("Robin Hood hatten wir doch schon in der ersten
        Runde", "remember when Cem took forever on Elmo last time?"): no guess."""
        return holds_phrase(norm, self.grammar.guard_words.get("past", ()))

    def _negated(self, norm: str) -> bool:
        """Does the utterance say that it is *not* someone ("it's not Mickey")?"""
        text = f" {norm} "
        for phrase in self._not_negations:
            text = text.replace(f" {phrase} ", " ")
        return any(w in self._negations or w.endswith("n't") for w in text.split())

    def _by_sound(self, norm: str) -> Intent | None:
        """The name the guess clearly sounds like, if any (see the module text)."""
        if self.sounds is None:
            return None
        leave_out = self._said_no.get(norm, set())
        match = self.sounds.best_of(self._slot_readings(norm) or [norm], leave_out)
        if match is None or not match.found:
            return None
        if len(self._by_sound_found) > 64:
            self._by_sound_found.clear()
        self._by_sound_found[norm] = match.group
        return Intent(self.intent, {self.slot: match.form}, norm, BY_SOUND)

    def declined(self, text: str) -> None:
        """The player said no to the name these words were taken for: if it was found by
        sound, the same words never find it again (the player's own words count then)."""
        norm = normalize(text)
        group = self._by_sound_found.get(norm)
        if group is not None:
            self._said_no.setdefault(norm, set()).add(group)

    def _free_guess(self, norm: str, text: str) -> Intent:
        """A guess that names nobody we know: wrong, in the guesser's own words (carrier
        words and fillers around it cut off, written as they were typed)."""
        readings = self._slot_readings(norm)
        words = norm.split()
        said = (readings[0] if readings else norm).split()
        start = _find(words, said)
        if start is None:
            start, said = 0, words
        end = start + len(said)
        while start < end and words[start] in self._fillers:
            start += 1
        while end > start and words[end - 1] in self._fillers:
            end -= 1
        if start == end or end - start > self._longest_name:
            # nothing said, or longer than any name: "hurry up, the time is running out"
            return Intent(THINKING, {}, norm, 1.0)
        if end - start > 1 and self._players_named(words[start:end]):
            return Intent(THINKING, {}, norm, 1.0)  # "is Anna still painting?": about a player
        guard = self.grammar.guard_words
        sentence = guard.get("not_in_names", frozenset())
        if end - start >= MIN_SENTENCE and sentence & set(words[start:end]):
            return Intent(THINKING, {}, norm, 1.0)  # "man, that was so close earlier"
        degree = guard.get("degree", frozenset())
        if (start > 0 and words[start - 1] in degree) or (
            end - start > 1 and words[start] in degree
        ):
            return Intent(THINKING, {}, norm, 1.0)  # "it's so obvious", "total eindeutig"
        if set(words[start + 1 : end - 1]) & guard.get("either_or", frozenset()):
            return Intent(THINKING, {}, norm, 1.0)  # "grey or white?": weighing, no try yet
        puzzled = guard.get("puzzled", frozenset())
        if set(words[start:end]) <= puzzled:
            return Intent(THINKING, {}, norm, 1.0)  # "Hä?", "Huh?": no name tried
        if end - start > 1 and words[end - 1] in puzzled:
            return Intent(THINKING, {}, norm, 1.0)  # "Spinning wheel? What?": a clue echoed
        subject, filler = guard.get("subject", frozenset()), guard.get("filler", frozenset())
        opening = self.grammar.opening_words
        opened = next((i for i, w in enumerate(words) if w not in filler and w not in opening), 0)
        if start == opened + 1 and words[opened] in subject:
            # what follows a bare "ich", "I" said first is what they did, not a name:
            # "Ich hätt's sofort gewusst", "I totally knew that" ("is it Ratatouille?" asks)
            return Intent(THINKING, {}, norm, 1.0)
        typed = normalize(text, keep_case=True).split()
        shown = typed if len(typed) == len(words) else words
        return Intent(self.intent, {self.slot: " ".join(shown[start:end])}, norm, 1.0)


def _find(words: Sequence[str], part: Sequence[str]) -> int | None:
    """Where ``part`` starts inside ``words`` (the last place), or ``None``."""
    for start in range(len(words) - len(part), -1, -1):
        if list(words[start : start + len(part)]) == list(part):
            return start
    return None


def _words_of(grammar: Grammar, list_name: str) -> frozenset[str]:
    slot_list = grammar.slot_lists.get(list_name)
    if not isinstance(slot_list, TextSlotList):
        return frozenset()
    return frozenset(normalize(str(v.value_out)) for v in slot_list.values)


def _template_words(grammar: Grammar, intents: Sequence[str]) -> frozenset[str]:
    """The words of the given intents' templates, lists left out."""
    from hassil.expression import Group, TextChunk

    words: set[str] = set()
    pending = [
        s.expression
        for name in intents
        if name in grammar.intents.intents
        for data in grammar.intents.intents[name].data
        for s in data.sentences
    ]
    while pending:
        expr = pending.pop()
        if isinstance(expr, TextChunk):
            words.update(normalize(expr.original_text or expr.text).split())
        elif isinstance(expr, Group):
            pending.extend(expr.items)
    return frozenset(words)


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
