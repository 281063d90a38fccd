"""The intent parser: text (typed or recognised) → :class:`Intent`.

Exact template matches come from hassil. What does not match exactly is snapped to the
nearest sentence the templates allow (rapidfuzz), if it is close enough — this catches
typing slips and recogniser near-misses such as "Mühleimer" — and otherwise rejected, so
table talk never turns into a move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from functools import cached_property
from typing import Any

from hassil import Intents, recognize_all
from hassil.intents import WildcardSlotList
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from voice.understanding import framing
from voice.understanding.contradiction import contradicted
from voice.understanding.fallback import CELL_SLOTS, Fallback, refused
from voice.understanding.grammar import Grammar, holds_phrase
from voice.understanding.intent import Asked, Core
from voice.understanding.intent import Intent as Intent  # where it always was
from voice.understanding.learned import learned
from voice.understanding.questions import question
from voice.understanding.retraction import Settled, decided, retracted, settled
from voice.understanding.wrapped import wrapped
from words.text import normalize

MAX_CHARS = 300
"""Longer utterances are never commands; they are rejected before any matching."""

FUZZY_CUTOFF = 85.0
"""Minimum rapidfuzz ratio (0-100) for snapping a near-miss to a template sentence."""

WORD_CUTOFF = 82.0
"""Minimum ratio for replacing an unknown word with the nearest grammar word."""

MIN_SNAP_LENGTH = 4
"""Shorter unknown words are never snapped ("rot"/"tot" are too close to guess)."""

SENTENCE_INDEX_LIMIT = 20_000
"""Sentence-level snapping only runs where a phase allows at most this many sentences."""


_ECHOED = re.compile(r"^\s*([^,;:.!?…–—]+?)\s*\?+\s*(\S.*)$", re.DOTALL)
"""A short question first, then the answer: "Den Ball? Na gelb." """
_TAGGED = re.compile(r"^(.*\w.*?)\s*[,;:.!…–—-]+\s*([^,;:.!?…–—]+?)\s*\?+\s*$", re.DOTALL)
"""A sentence, a pause, then a short question at its end: the tag."""
CHOSEN_SNAP_SCORE = 0.75
"""Score of a sentence whose slip of one letter was between two known words and decided
by what the phase expects: below the confirmation line, so it is asked about first."""


FALLBACK_EXTRA = frozenset({"hint"})
"""Intents beyond the guarded moves that the fallback may give (asking for a hint)."""


class IntentParser:
    """Parses utterances against one :class:`Grammar`."""

    def __init__(self, grammar: Grammar, fuzzy_cutoff: float = FUZZY_CUTOFF) -> None:
        self.grammar = grammar
        self.fuzzy_cutoff = fuzzy_cutoff
        self._indexes: dict[Any, tuple[list[str], list[str]]] = {}
        self._subsets: dict[tuple[frozenset[str], bool], Intents] = {}
        self._phase_vocabulary: dict[Any, frozenset[str]] = {}
        self._last: tuple[Any, tuple[Intent | None, str | None]] | None = None
        """What :meth:`parse` understood last, before the guard (for :meth:`refuses`)."""
        self._memo: dict[tuple[str, frozenset[str] | None], Intent | None] | None = None
        """Exact matches found while one utterance is read (see :meth:`_utterance`)."""

    @contextmanager
    def _utterance(self) -> Iterator[None]:
        """Remember exact matches while one utterance is read: its readings (frames,
        pauses, a try taken back) try the same words against the same intents again and
        again, a quarter of all matching. Forgotten after it, so nothing said earlier
        decides anything later, and every utterance costs what it costs the first time."""
        if self._memo is not None:  # a reading inside one already open
            yield
            return
        self._memo = {}
        try:
            yield
        finally:
            self._memo = None

    def parse(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
        *,
        heard: bool = False,
        last: Mapping[str, Any] | None = None,
    ) -> Intent | None:
        """The intent of ``text``, preferring intents in ``allowed`` (``None``: any).

        An exact match of an intent outside ``allowed`` is still returned, so the caller
        can say "not now" instead of "not understood"; sentence-level snapping only
        considers ``allowed`` intents, with lists narrowed to ``slots``. ``heard``: the
        text is a recogniser's (its words may only sound like what was said), not typed.
        ``last``: the values of the move a correction would change (its object, colour),
        when there is one.
        """
        norm = self.grammar.frames.standard(normalize(text))
        if not norm or len(norm) > MAX_CHARS:
            return None
        allowed_set = frozenset(allowed) if allowed is not None else None
        with self._utterance():
            answer = self._echoed(text, slots)
            if answer is not None:  # "Das Telefon? Hm … gelb.": the answer is what was said
                found = self.parse(answer, allowed, slots, heard=heard, last=last)
                return None if found is None else Intent(found.name, found.slots, norm, found.score)
            found, values = self._understand(norm, allowed_set, slots, text, last)
            self._last = ((text, allowed_set, _freeze(slots)), (found, values))
            if found is not None and self._guarded(text, norm, found, values):
                return None  # never a move the player did not make
            if found is None and (once := _said_once(text)) is not None:
                # "Ready ready ready!", "bitte bitte nochmal": a word said over and over
                again = self.parse(once, allowed, slots, heard=heard, last=last)
                return None if again is None else Intent(again.name, again.slots, norm, again.score)
        return self._cell(found)

    def _echoed(self, text: str, slots: Mapping[str, Iterable[Any]] | None) -> str | None:
        """``text`` with a question first that only names what the answer is about, the
        one value the phase leaves open or a player, also oneself ("Den Ball? Na gelb, ganz
        klar.", "Mia? Braun!", "Und ich? Ich hatte bunt."), said as a pause; or ``None``.
        Any other question first still asks ("Blau? Geht das?", "Holiday? Nah, take
        School")."""
        match = _ECHOED.match(text)
        if match is None or "?" in match.group(2):
            return None
        fallback = self.fallback
        tokens = fallback.tokens(normalize(match.group(1)))
        spans = fallback.spans(tokens)
        open_values = {k: tuple(v) for k, v in (slots or {}).items()}
        if not spans or any(
            s.slot not in ("player", "self") and open_values.get(s.slot) != (s.value,)
            for s in spans
        ):
            return None
        inside = {i for span in spans for i in range(span.start, span.end)}
        guard = self.grammar.guard_words
        said = guard.get("stop", frozenset()) | guard.get("filler", frozenset())  # "den", "hm"
        said = said | frozenset(self.grammar.opening_words)  # "und ich?"
        if any(i not in inside and t not in said for i, t in enumerate(tokens)):
            return None
        return f"{match.group(1)}, {match.group(2)}"

    def _untagged(self, text: str, found: Intent) -> str | None:
        """``text`` without a tag question asked after a pause at its end ("Purple for
        the car, yeah?", "Ich nehm grün, ne?"), or ``None`` when it has none or ``found``
        is no move a tag may make (:attr:`Grammar.tag_moves`). Only such a tag may carry
        the "?": "Vogel grün oder blau?" still asks."""
        if found.name not in self.grammar.tag_moves:
            return None
        tags = self.grammar.guard_words.get("tag", frozenset())
        match = _TAGGED.match(text)
        if not tags or match is None or "?" in match.group(1):
            return None
        if normalize(match.group(2)) not in tags:
            return None
        if len(self.fallback.tokens(normalize(match.group(1)))) < 2:
            return None  # "ähm, rot, oder?" asks what to play: no move
        return match.group(1)

    def _cell(self, found: Intent | None) -> Intent | None:
        """A square named by row and column ("Reihe eins, Spalte drei") as the grammar's
        square slot (Alle meine Farben: the object there)."""
        columns = self.grammar.cell_columns
        if found is None or columns is None:
            return found
        row, column = found.slots.get("row"), found.slots.get("column")
        if not isinstance(row, int) or not isinstance(column, int) or not 1 <= column <= columns:
            return found
        slots = {k: v for k, v in found.slots.items() if k not in CELL_SLOTS}
        slots[self.grammar.cell_slot] = (row - 1) * columns + column
        return Intent(found.name, slots, found.text, found.score)

    def refuses(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
    ) -> bool:
        """Would ``text`` be a move if the guard let it ("I won't play purple", "did Cem
        play green", "Ben, take red")? Then it is table talk with a game word in it."""
        norm = normalize(text)
        if not norm or len(norm) > MAX_CHARS:
            return False
        allowed_set = frozenset(allowed) if allowed is not None else None
        key = (text, allowed_set, _freeze(slots))
        with self._utterance():
            if self._last is not None and self._last[0] == key:  # parsed just before
                found, values = self._last[1]
            else:
                found, values = self._understand(norm, allowed_set, slots, text)
            return found is not None and self._guarded(text, norm, found, values)

    def _guarded(self, text: str, norm: str, found: Intent, values: str | None) -> bool:
        """Does the guard refuse ``found`` as a move? It reads the whole utterance, or
        only the sentence left standing (:class:`Core`) beside a remark or a try taken
        back, or before a tag question ("Vogel grün, ne?": "Vogel grün"); any other
        typed "?" refuses all the same."""
        if found.name not in self.grammar.guarded_intents:
            return False
        said = self._untagged(text, found)
        if isinstance(values, Core):
            read, read_norm = str(values), str(values)
        elif said is not None:  # a tag was asked: the guard reads the sentence before it
            read, read_norm = said, normalize(said)
        else:
            read, read_norm = text, norm
        asks = "?" in text and not isinstance(values, (Settled, Asked)) and said is None
        if holds_phrase(read_norm, self.grammar.guard_words.get("sung", ())):
            return True  # the song, sung: "Rot, rot, rot sind alle meine Kleider"
        return asks or refused(self.grammar, self.fallback, read, read_norm, found.slots, values)

    def declined(self, text: str) -> None:
        """The player said no to what ``text`` was understood as (a parser that guessed
        at it may guess otherwise next time)."""

    def _understand(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
        raw: str | None = None,
        last: Mapping[str, Any] | None = None,
    ) -> tuple[Intent | None, str | None]:
        """The intent of ``norm``, and where the guard looks for its values (``None``:
        the whole utterance; a sentence inside frames: its core and any vocative)."""
        corrected = framing.corrected(self, norm, raw, allowed)
        if corrected is not None:
            return corrected, None
        said_again = contradicted(self, norm, raw, allowed, slots, last)  # "X war grün"
        if said_again is not None:
            return said_again, None
        found = self._as_said(norm, allowed, slots)
        outside = None  # a sentence of another phase, said as it is ("orange, orange")
        if (
            found is not None
            and allowed is not None
            and found.name not in allowed
            and not self._wild(found)
        ):
            outside, found = found, None
        if found is not None and not self._wild(found):
            return found, None
        if found is not None and self._asked_name(found):
            return None, None  # "wer hatte gelb?" asks who; nobody is called "wer"
        framed = self._framed(norm, raw, allowed) if outside is None else None
        if framed is not None and (found is None or not self._wild(framed[0])):
            return framed  # "game master, Anna played red": not a stranger "game master …"
        if found is not None:
            # a stranger's name that runs over a try taken back is no name: "Cem had blue,
            # no wait, Cem had purple"
            taken_back = retracted(self, norm, raw, allowed, slots)
            return taken_back if taken_back is not None else (found, None)
        made = settled(self, norm, raw, allowed, slots)  # "Gelb, nee, orange! Orange."
        if made is not None:
            return made
        if outside is not None:  # said as another phase's sentence, and no value settled
            return outside, None  # on: "not now" ("no wait, I meant yellow" is no pause)
        beside = framing.aside(self, norm, raw, allowed, slots)  # "braun, wegen dem Ranzen"
        if beside is not None:
            return beside
        taken_back = retracted(self, norm, raw, allowed, slots)  # "gelb, nein warte, orange"
        if taken_back is not None:
            return taken_back
        made = decided(self, norm, raw, allowed)  # "hmm, blau oder grün... Das Haus ist blau."
        if made is not None:
            return made
        guessed = self._guessed(norm, allowed, slots)
        if guessed is None:  # "I'll stick blue on the house", "house goes pink, why not"
            held = wrapped(self.grammar, self.fallback, raw, norm, allowed, slots)
            if held is not None:
                return held
            guessed = question(  # "wer gewinnt gerade?"
                self.grammar, self.fallback, norm, allowed, raw, lambda p: self._exact(p, allowed)
            )
        if (
            guessed is None
        ):  # "who flips first?", "Anna's was brown, I reckon, the sandcastle story"
            fixed = {k: list(v) for k, v in slots.items()} if slots is not None else None
            guessed = learned(self.grammar, self.fallback, norm, allowed, fixed)
        return guessed, None

    def _as_said(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """An exact template match of ``norm`` (after its opening words, or with its short
        forms said long, "where's": "where is")."""
        opened = self._without_opening(norm)
        if opened != norm:  # first without the opening words: "and I had purple" is not
            exact = self._exact(opened, allowed)  # a player called "and I"
            if exact is not None:
                exact = self._unwrapped(opened, exact, allowed) or exact
                whole = self._exact(norm, allowed) if self._skips_value(norm, opened) else None
                if whole is None or self._wild(whole):
                    return Intent(exact.name, exact.slots, norm, exact.score)
                return whole  # a value that is also such a word ("Jo green", Jo playing)
        exact = self.exact(norm, allowed)  # also without an article before a name
        if exact is not None:
            return self._unwrapped(norm, exact, allowed) or exact
        frames = self.grammar.frames
        for variant in dict.fromkeys((frames.expanded(norm), frames.without_inside(norm))):
            if variant != norm and (exact := self._exact(variant, allowed)) is not None:
                return Intent(exact.name, exact.slots, norm, exact.score)
        asked = frames.without_inside(frames.expanded(norm), asking=True)
        if asked != norm and (exact := self._exact(asked, allowed)) is not None:
            if exact.name not in self.grammar.guarded_intents and exact.name in (
                self.grammar.question_intents | self.grammar.request_intents
            ):  # "was liegt in der ersten Reihe schon?"; never a move
                return Intent(exact.name, exact.slots, norm, exact.score)
        return None

    def _guessed(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """What ``norm`` is near: a slip of a word, the guarded fallback, a sentence of
        the phase it is a near-miss of."""
        snapped, chosen = self._snap_words(norm, allowed, slots)
        if snapped != norm:
            found = self._exact(snapped, allowed)
            if found is not None:
                ratio = fuzz.ratio(norm, snapped) / 100.0
                if chosen:  # a slip between two words, decided by what fits now: ask
                    ratio = min(ratio, CHOSEN_SNAP_SCORE)
                return Intent(found.name, found.slots, norm, ratio)
        guessed = self._fall_back(norm, allowed, slots)
        if guessed is not None:
            return guessed
        return self._fuzzy(norm, allowed, slots)

    # --- frames around a sentence (voice/understanding/framing.py) ----------------------
    @property
    def frame_guarded(self) -> frozenset[str]:
        """Intents no question or negation frame may give (moves with a value)."""
        return self.grammar.guarded_intents

    def _unnamed(self, norm: str) -> str:
        """``norm`` without the articles said before a player's name ("die Lena": "Lena")."""
        articles = self.grammar.name_articles
        words = norm.split()
        kept = [
            w
            for i, w in enumerate(words)
            if not (
                w in articles
                and i + 1 < len(words)
                and self.fallback.slot_of(words[i + 1]) == "player"
            )
        ]
        return " ".join(kept)

    def exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """The best exact template match of ``norm`` (see :meth:`_exact`), said with an
        article before a name or not ("die Lena")."""
        found = self._exact(norm, allowed)
        if found is not None and self._wild(found):  # "die Lena hatte rot, das weiß ich"
            found = self._unwrapped(norm, found, allowed) or found  # read beside a remark
        if (found is None or self._wild(found)) and (unnamed := self._unnamed(norm)) != norm:
            again = self._exact(unnamed, allowed)
            if again is not None and (found is None or not self._wild(again)):
                found = again
        return found

    def spotted(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """``norm`` as the guarded fallback reads it (see :meth:`_fall_back`)."""
        return self._fall_back(norm, allowed, slots)

    def _framed(
        self, norm: str, raw: str | None, allowed: frozenset[str] | None
    ) -> tuple[Intent, str] | None:
        return framing.framed(self, norm, raw, allowed)

    def _without_opening(self, norm: str) -> str:
        """``norm`` without the words that open it ("yeah, …", "and …", "well, so …"; the
        grammar's ``opening_words`` and skip words, see :meth:`Grammar.opening`)."""
        words = norm.split()
        return " ".join(words[self.grammar.opening(words) :])

    def _skips_value(self, norm: str, opened: str) -> bool:
        """Did :meth:`_without_opening` leave out a word that is also a value (a player
        called Jo, the side "right")?"""
        skipped = norm.split()[: len(norm.split()) - len(opened.split())]
        return any(self.fallback.is_value(word) for word in skipped)

    def _wild(self, found: Intent) -> bool:
        """Does ``found`` hold a name nobody has (a wildcard slot such as ``stranger``)?"""
        return any(
            isinstance(self.grammar.slot_lists.get(slot), WildcardSlotList) for slot in found.slots
        )

    def _asked_name(self, found: Intent) -> bool:
        """Is a name nobody has in ``found`` only a question word ("wer", "who")?"""
        asking = self.grammar.guard_words.get("question_word", frozenset())
        return any(
            isinstance(self.grammar.slot_lists.get(slot), WildcardSlotList)
            and all(w in asking for w in normalize(str(value)).split())
            for slot, value in found.slots.items()
        )

    def _nameless(self, found: Intent) -> bool:
        """Is a name nobody has in ``found`` only words that open, fill or say "I"?"""
        loose = self._loose_words
        return any(
            isinstance(self.grammar.slot_lists.get(slot), WildcardSlotList)
            and all(
                w in loose or self.fallback.slot_of(w) == "self"
                for w in normalize(str(value)).split()
            )
            for slot, value in found.slots.items()
        )

    def _unwrapped(self, norm: str, found: Intent, allowed: frozenset[str] | None) -> Intent | None:
        """``found`` read again where a name nobody has (a wildcard slot such as Farben's
        ``stranger``) is a real value behind words that only open or fill ("ja Mia", "die
        Mia", "well yeah Cem"): the sentence without those words, if it is then
        understood without a wildcard; otherwise ``None``.

        A few other words may lead in too ("let's say Anna played white", "ah, jetzt weiß
        ich's: Lena hatte grün"), none a value. Negations, hedges and question words are no
        such words, so "not Cem" stays as it is (and every guarded move still passes the
        guard on the whole utterance)."""
        if not self._wild(found):
            return None
        wild = [
            str(value)
            for slot, value in found.slots.items()
            if isinstance(self.grammar.slot_lists.get(slot), WildcardSlotList)
        ]
        words = norm.split()
        loose = self._loose_words
        guard = self.grammar.guard_words
        forbidden = framing.remark_forbidden(self.grammar)
        prompting = guard.get("prompting", frozenset())  # "say Cem had green": advice
        for value in wild:
            said = normalize(value).split()
            start = _find(words, said)
            if start is None:
                continue
            lead = 0  # words that only lead in: "let's say Anna", "jetzt weiß ich's: Lena"
            named: set[tuple[str, Any]] = set()  # values said before: "uh Anna... Anna had"
            for cut in range(1, len(said)):
                word = said[cut - 1]
                slot = self.fallback.slot_of(word)
                if slot not in (None, "self"):
                    named.add((slot, self.fallback.spans([word])[0].value))
                elif word not in loose:
                    lead += 1
                    if (
                        lead > MAX_LEAD_IN
                        or word in forbidden
                        or (lead == 1 and word in prompting)
                        or word.endswith("n't")
                    ):
                        break
                text = " ".join(words[:start] + words[start + cut :])
                again = self._exact(text, allowed)
                if (
                    again is not None
                    and not self._wild(again)
                    and all(again.slots.get(k) == v for k, v in named)  # said again, no other
                ):
                    return Intent(again.name, again.slots, norm, again.score)
        return None

    @cached_property
    def _loose_words(self) -> frozenset[str]:
        """Words that may stand before a name without being part of it: opening words,
        skip words and fillers, articles ("die Mia hatte grün")."""
        guard = self.grammar.guard_words
        skip = {w for w in self.grammar.skip_words if " " not in w}  # not "say" of "i'd say"
        return frozenset(
            {*self.grammar.opening_words, *skip, *guard.get("filler", ()), *guard.get("stop", ())}
        )

    @cached_property
    def fallback(self) -> Fallback:
        return Fallback(self.grammar)

    def _fall_back(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """The guarded fallback, only while the phase expects a move with a value."""
        if allowed is None:
            return None
        expected = allowed & (self.grammar.guarded_intents | FALLBACK_EXTRA)
        if not expected:
            return None
        fixed = {k: tuple(v) for k, v in (slots or {}).items()}
        found = self.fallback.match(norm, expected, fixed)
        if found is None and (expanded := self.grammar.frames.expanded(norm)) != norm:
            # short and inflected forms said long: "ein gelbes Haus" names yellow
            found = self.fallback.match(expanded, expected, fixed)
        if found is None:
            return None
        name, values, score = found
        return Intent(name, values, norm, score)

    def _snap_words(
        self,
        norm: str,
        allowed: frozenset[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
    ) -> tuple[str, bool]:
        """Replace words the grammar does not know by their nearest known word; and
        whether a slip of one letter between two known words was decided by the words
        the phase can hear now ("Mia hatte gelp" while colours are named: gelb, not the
        word card Geld that is not on the table) or by the sentences it expects ("pass"
        in a guess window: "passe", not "passt", see :meth:`_tie`).

        The vocabulary is a set, so nothing here may depend on the order it is walked
        in (that changes with ``PYTHONHASHSEED``): equally near words are all looked at."""
        vocabulary = self.grammar.vocabulary
        chosen = False
        words = norm.split()
        ties: list[tuple[int, list[str]]] = []
        for i, word in enumerate(words):
            if word in vocabulary or len(word) < MIN_SNAP_LENGTH or word.isdigit():
                continue
            nearest = _nearest(word, vocabulary)
            if len(nearest) == 1:
                words[i] = nearest[0]
                continue
            if nearest:  # "pass": "passe" and "passt" are as near
                ties.append((i, nearest))
                continue
            # One slip of a finger ("gelp", "hnit"): snapped if exactly one word is that near.
            near = process.extract(
                word, vocabulary, scorer=OSA.distance, score_cutoff=1, limit=None
            )
            if len(near) == 1:
                words[i] = near[0][0]
            elif near and allowed is not None:
                phase_words = self._phase_words(allowed, slots)
                fitting = [w for w, _, _ in near if w in phase_words]
                if len(fitting) == 1:
                    words[i] = fitting[0]
                    chosen = True
        for i, nearest in ties:  # the other words snapped already
            words[i], decided = self._tie(words, i, nearest, allowed)
            chosen = chosen or decided
        return " ".join(words), chosen

    def _tie(
        self, words: list[str], i: int, nearest: list[str], allowed: frozenset[str] | None
    ) -> tuple[str, bool]:
        """Which of the equally near known words ``nearest`` (in alphabetical order)
        stands for ``words[i]``, and whether that was a choice between two meanings.

        The one with which the sentence is one the phase expects (an exact match of an
        intent it allows: "pass" in a guess window is "passe", the guesser passes, not
        "passt", a yes that nothing asked for); failing that, the one with which it is a
        sentence at all (the caller can say "not now"). A choice between two meanings is
        asked about first, as a slip between two known words decided by the phase is
        (:data:`CHOSEN_SNAP_SCORE`); where only one of the words makes a sentence ("ich
        pass": "ich passt" is none) nothing else was meant. Two meanings equally fitting:
        the word stays as it was said (ambiguous means not understood)."""
        fits: dict[tuple[bool, str], str] = {}  # (phase's, meaning) -> first word giving it
        for word in nearest:
            found = self._exact(" ".join([*words[:i], word, *words[i + 1 :]]), allowed)
            if found is None:
                continue
            meaning = repr((found.name, sorted(found.slots.items(), key=lambda kv: kv[0])))
            fits.setdefault((allowed is None or found.name in allowed, meaning), word)
        if not fits:
            return words[i], False
        best = max(key[0] for key in fits)
        wanted = [key for key in fits if key[0] == best]
        if len(wanted) > 1:
            return words[i], False
        return fits[wanted[0]], len(fits) > 1

    def _phase_words(
        self, allowed: frozenset[str], slots: Mapping[str, Iterable[Any]] | None
    ) -> frozenset[str]:
        """Every word of the sentences the phase's own intents allow, with its lists
        narrowed as the phase narrows them (empty where there are too many sentences)."""
        key = (allowed, _freeze(slots))
        found = self._phase_vocabulary.get(key)
        if found is None:
            if len(self._phase_vocabulary) > 64:
                self._phase_vocabulary.clear()
            phrases, _ = self._index(allowed, slots)
            found = frozenset(w for phrase in phrases for w in phrase.split())
            self._phase_vocabulary[key] = found
        return found

    def _exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """:meth:`_best_exact`, found once per utterance (see :meth:`_utterance`)."""
        memo = self._memo
        if memo is None:
            return self._named_exact(norm, allowed)
        key = (norm, allowed)
        if key not in memo:
            memo[key] = self._named_exact(norm, allowed)
        return memo[key]

    def _named_exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """:meth:`_best_exact`, unless it takes words that open, fill or say "I" for a
        name nobody has: "und ich ich hatte bunt" is no stranger "und ich"."""
        found = self._best_exact(norm, allowed)
        if found is not None and self._wild(found) and self._nameless(found):
            return None
        return found

    def _best_exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """The best exact match: an intent the phase allows first (tried on its own, which
        is faster), then any other, so the caller can say "not now"."""
        mask = self.grammar.templates.mask(norm)  # the sentences that may match, for both
        if allowed is None:
            return self._exact_in(norm, self.grammar.intents, allowed, mask)
        found = self._exact_in(norm, self._intents_of(allowed, True), allowed, mask)
        if found is not None:
            return found
        return self._exact_in(norm, self._intents_of(allowed, False), allowed, mask)

    def _exact_in(
        self, norm: str, intents: Intents, allowed: frozenset[str] | None, mask: int
    ) -> Intent | None:
        """The best match of ``norm`` among ``intents``, trying only the sentences in
        ``mask`` (:meth:`TemplateFilter.mask`)."""
        candidates = self.grammar.templates.narrowed(intents, mask)
        if not candidates.intents:
            return None  # no sentence can say these words: hassil need not read them
        best: tuple[tuple[bool, int], Intent] | None = None
        for result in recognize_all(
            norm,
            candidates,
            slot_lists=self.grammar.lists_for(norm),
            language=self.grammar.lang,
        ):
            name = result.intent.name
            slots = said_slots(result.entities)
            rank = (allowed is None or name in allowed, result.text_chunks_matched)
            if best is None or rank > best[0]:
                best = (rank, Intent(name, slots, norm, 1.0))
        return best[1] if best else None

    def _intents_of(self, allowed: frozenset[str], inside: bool) -> Intents:
        """The grammar's intents in ``allowed`` (``inside``) or the others."""
        key = (allowed, inside)
        found = self._subsets.get(key)
        if found is None:
            if len(self._subsets) > 64:
                self._subsets.clear()
            every = self.grammar.intents
            chosen = {k: v for k, v in every.intents.items() if (k in allowed) == inside}
            found = replace(every, intents=chosen)
            self._subsets[key] = found
        return found

    def _fuzzy(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        phrases, intents = self._index(allowed, slots)
        if not phrases:
            return None
        match = process.extractOne(norm, phrases, scorer=fuzz.ratio, score_cutoff=self.fuzzy_cutoff)
        if match is None:
            return None
        phrase, score, i = match
        if not _aligned(norm, phrase):
            return None  # not a slip of the keyboard or the ear: another sentence
        snapped = self._exact(phrase, frozenset({intents[i]}))
        if snapped is None:  # every sampled phrase parses; kept as a guard
            return None
        return Intent(snapped.name, snapped.slots, norm, score / 100.0)

    def _index(
        self,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> tuple[list[str], list[str]]:
        key = (allowed, _freeze(slots))
        if key not in self._indexes:
            if len(self._indexes) > 64:  # phases come and go; keep the cache bounded
                self._indexes.clear()
            pairs = self.grammar.phrases(allowed, slots, limit=SENTENCE_INDEX_LIMIT + 1)
            if len(pairs) > SENTENCE_INDEX_LIMIT:
                pairs = []  # too many sentences to compare with: words only
            self._indexes[key] = ([p for p, _ in pairs], [i for _, i in pairs])
        return self._indexes[key]


ALIGNED_WORD_CUTOFF = 81.0
"""A snapped sentence must match the utterance word for word at least this well."""


MAX_LEAD_IN = 4
"""At most this many words that are neither fillers nor values may lead in to a name."""


def _aligned(norm: str, phrase: str) -> bool:
    """Same number of words, each a near-miss of the other ("Mühleimer"/"mülleimer"):
    "das war schön" is not a slip of "das war es", "Ben play purple" not of "I play
    purple"."""
    said, meant = norm.split(), phrase.split()
    return len(said) == len(meant) and all(
        a == b or fuzz.ratio(a, b) >= ALIGNED_WORD_CUTOFF for a, b in zip(said, meant, strict=True)
    )


def _said_once(text: str) -> str | None:
    """``text`` with each word said several times in a row said once ("Ready ready
    ready!": "Ready!"), or ``None`` when no word is repeated so."""
    words = text.split()
    kept = [w for i, w in enumerate(words) if i == 0 or normalize(w) != normalize(words[i - 1])]
    return " ".join(kept) if len(kept) < len(words) else None


def _nearest(word: str, vocabulary: frozenset[str]) -> list[str]:
    """The known words nearest to ``word`` (rapidfuzz ratio, at least
    :data:`WORD_CUTOFF`), all of them if several are as near, in alphabetical order."""
    found = process.extract(
        word, vocabulary, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None
    )
    if not found:
        return []
    best = max(score for _, score, _ in found)
    return sorted(w for w, score, _ in found if score == best)


def _find(words: list[str], part: list[str]) -> int | None:
    """Where ``part`` starts inside ``words`` (the last place), or ``None``."""
    for start in range(len(words) - len(part), -1, -1):
        if words[start : start + len(part)] == part:
            return start
    return None


def said_slots(entities: Mapping[str, Any]) -> dict[str, Any]:
    """The slots of a template match; a value said only beside the question (a slot named
    with a leading underscore, "who's after {player:_beside}") is none of them."""
    return {k: _plain(e.value) for k, e in entities.items() if not k.startswith("_")}


def _freeze(slots: Mapping[str, Iterable[Any]] | None) -> Any:
    if not slots:
        return None
    return tuple(sorted((k, tuple(v)) for k, v in slots.items()))


def _plain(value: Any) -> Any:
    """hassil gives digits as floats ("2" → 2.0); slots want ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
