"""Conversational frames: what people say around any sentence of the game (issue 24).

A name before or after it ("Cem, can I have a hint", "a hint please, Cem"), politeness
("please", "bitte", "mal"), a question around a request ("can I have …", "kannst du …
haben"), a preface ("okay so", "na gut", "uhhh"), a clause that announces the answer
("okay I've got my word, it's the first one"), a self-correction ("oops, red", "nein
warte, lila"), a tail (", okay?", ", oder?", ", sorry"). They are data: ``frames`` in
``grammars/<lang>/common.yaml``, one list of templates in hassil's syntax per kind,
expanded once when the grammar loads. They hold for every intent of every game and of the
session, so a new intent has them for free; recognisers never listen for them (typed and
recognised text only goes through them after the sentence itself was not understood).

This module only reads an utterance as frames around a core (:meth:`Frames.readings`);
what each kind may do with the core is decided where it is parsed
(:mod:`voice.understanding.framing`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hassil.expression import ListReference, Sentence
from hassil.intents import SlotList, TextSlotList
from hassil.parse_expression import parse_sentence
from hassil.sample import sample_expression

from words.text import normalize

LEFT = (
    "preface", "exclamation", "lead", "answer", "correction", "negation", "vocative", "speaker",
)  # fmt: skip
"""Kinds that stand before the core, in any number and order."""
NEXT_TO_CORE = ("question", "permission", "request")
"""Kinds that stand right before the core, at most one ("can you tell me", "can I have",
"ich hätte gern")."""
ASKING = frozenset({"question", "permission"})
"""Kinds that ask: a verb may close the sentence after them ("kann ich einen Tipp haben")."""
RIGHT = ("politeness", "tail", "vocative", "question_end", "speaker")
"""Kinds that stand after the core, in any number ("…, please, Cem, okay?")."""
EVERYWHERE = ("politeness",)
"""Kinds that may also stand before the core ("bitte einen Tipp")."""
STRETCHED = frozenset({"preface", "exclamation", "tail", "negation", "correction"})
"""Kinds whose one-word frames are also heard drawn out ("uhhh", "ähhh", "ooh", "nooo")."""
SILENT = frozenset(
    {"preface", "exclamation", "lead", "politeness", "tail", "correction", "speaker"}
)
"""Kinds that alone say nothing yet ("hmm", "oh come on", "ooh I know this", "sorry",
"Ben here"). A ``speaker`` frame says who speaks ("Ben here: yellow", "…, says Ben"): it
names no one the sentence is for, so it fills no slot and is no vocative."""

MAX_READINGS = 8
"""At most this many readings are tried per utterance (each is a template match)."""

_PAUSE = re.compile(r"([,;:.!?…–—]+|\s-\s)")
"""Typed punctuation that marks a pause between a frame and the core ("no, green")."""
_RUN = re.compile(r"(.)\1+")


@dataclass(frozen=True)
class Reading:
    """An utterance read as frames around a core."""

    start: int
    end: int
    """The core is ``words[start:end]``."""
    core: str
    kinds: frozenset[str]
    """The kinds of the frames around it."""
    addressee: Any = None
    """The value of a vocative that names someone of a list ("Cem, …": the player Cem)."""
    pause: bool = False
    """A pause (typed comma, full stop …) right before the core."""
    values: str = ""
    """The core with any vocative: where the guard looks for values (a value inside
    another frame, "…, right", is none of the sentence's)."""


@dataclass(frozen=True)
class _Frame:
    words: tuple[str, ...]
    kind: str
    value: Any = None


class Frames:
    """The frames of one grammar (its ``frames`` data and its slot lists)."""

    def __init__(
        self, spec: Mapping[str, Any], slot_lists: Mapping[str, SlotList], lang: str
    ) -> None:
        self.lang = lang
        frames: list[_Frame] = []
        for kind in dict.fromkeys((*LEFT, *NEXT_TO_CORE, *RIGHT)):
            for template in spec.get(kind) or ():
                frames.extend(_expand(kind, str(template), slot_lists, lang))
        self._starting: dict[str, list[_Frame]] = {}
        self._ending: dict[str, list[_Frame]] = {}
        # the longest first, then in the order of the data (never that of a set, which
        # changes with PYTHONHASHSEED)
        for frame in sorted(dict.fromkeys(frames), key=lambda f: -len(f.words)):
            self._starting.setdefault(frame.words[0], []).append(frame)
            self._ending.setdefault(frame.words[-1], []).append(frame)
        self._stretched = {
            _squeeze(f.words[0]): f.words[0]
            for f in sorted(frames, key=lambda f: f.words)
            if len(f.words) == 1 and f.kind in STRETCHED
        }
        self.contractions: dict[str, str] = {
            normalize(k): normalize(v) for k, v in (spec.get("contractions") or {}).items()
        }
        """Short forms said for longer ones the templates may use ("where's": "where is")."""
        self.dialect: dict[str, str] = {
            normalize(k): normalize(v) for k, v in (spec.get("dialect") or {}).items()
        }
        """Words of a dialect or of quick speech for one standard word each ("des Auto",
        "mach i", "isch"): every utterance is read in the standard words."""
        self.inside: frozenset[str] = frozenset(normalize(w) for w in spec.get("inside") or ())
        """Words that may be dropped anywhere as a last try ("gib mir doch mal …")."""
        self.inside_asking: frozenset[str] = frozenset(
            normalize(w) for w in spec.get("inside_asking") or ()
        )
        """Words dropped only where what is left asks something, never from a move ("was
        liegt in der ersten Reihe schon?"; "der Ball ist schon rot" stays a remark)."""
        self.asides: frozenset[str] = frozenset(
            normalize(w) for key in ("aside", "likeness", "describing") for w in spec.get(key) or ()
        )
        """Words that open a remark beside the sentence ("wegen", "because", "like"),
        see :func:`voice.understanding.framing.aside`."""
        self.likeness: frozenset[str] = frozenset(normalize(w) for w in spec.get("likeness") or ())
        """Words that open a comparison ("wie Nemo", "like a blueberry"): a remark beside a
        move that names what it is about and its value, never beside a value alone ("red
        like a lobster" is a story's words)."""
        self.describing: frozenset[str] = frozenset(
            normalize(w) for w in spec.get("describing") or ()
        )
        """Words that open what a person named has or wears ("Cem with his rainbow
        socks", "die Mia mit ihren Regenbogensocken"): a remark only beside a sentence that
        names a player and nothing else."""
        self.verb_last: bool = bool(spec.get("verb_last"))
        """Does an indirect question put its verb last ("was in Spalte zwei liegt")?"""
        self.joins: frozenset[str] = frozenset(normalize(w) for w in spec.get("joins") or ())
        """Words that join names ("and", "oder"): a player's name next to one is part of
        a longer name ("Ben and Holly"), not a vocative."""
        self.words: frozenset[str] = frozenset(w for f in frames for w in f.words)
        """Every word of any frame."""
        self.alone: frozenset[str] = frozenset(f.words[0] for f in frames if len(f.words) == 1)
        """Words that are a frame by themselves ("so", "bitte"), not only a piece of a
        longer one ("Zeit" of "ach du liebe Zeit")."""

    # --- reading -----------------------------------------------------------------------
    def readings(self, norm: str, raw: str | None = None) -> list[Reading]:
        """The ways ``norm`` (a normalised utterance; ``raw`` as typed, for its pauses)
        is a core inside frames, fewest frame words first; never the whole utterance, at
        most :data:`MAX_READINGS`."""
        words = self._unstretched(norm.split())
        pauses = _pauses(raw, len(words)) if raw is not None else frozenset()
        lefts = self._lefts(words)
        rights = self._rights(words)
        found: list[tuple[int, Reading]] = []
        for start, left_kinds, addressee in lefts:
            for end, right_kinds, called in rights:
                if end <= start or (start == 0 and end == len(words)):
                    continue
                if "question_end" in right_kinds and not left_kinds & ASKING:
                    continue
                core = words[start:end]
                if len(core) > 2 and self._only_silent(core):
                    continue  # "okay so, yeah, alright, well": no sentence inside
                vocative = (
                    self._vocative_words(words, start, end)
                    if "vocative" in left_kinds | right_kinds
                    else []  # "Ben here: yellow": Ben speaks, no one is called
                )
                reading = Reading(
                    start,
                    end,
                    " ".join(core),
                    left_kinds | right_kinds,
                    addressee if addressee is not None else called,
                    start in pauses,
                    " ".join([*vocative, *core]),
                )
                found.append((start + len(words) - end, reading))
        found.sort(key=lambda item: (item[0], item[1].start))
        return [reading for _, reading in found[:MAX_READINGS]]

    def silent(self, norm: str) -> bool:
        """Is ``norm`` only frames that say nothing yet ("hmm", "oh come on", "ooh I know
        this", "uhhh", "okay so, sorry")?"""
        return self._only_silent(self._unstretched(norm.split()))

    def _only_silent(self, words: Sequence[str]) -> bool:
        if not words:
            return False
        return any(
            start == len(words) and kinds <= SILENT
            for start, kinds, _ in self._lefts(words, next_to_core=False)
        )

    def content(self, norm: str) -> tuple[list[str], str | None]:
        """The words of ``norm`` inside its frames (the longest frames cut off), and whom
        a vocative calls: ``"game"`` (one that names no one of a list: "Spielleiter",
        "game master"), ``"person"`` (a player: "Ben, …") or ``None``."""
        words = self._unstretched(norm.split())
        lefts = self._lefts(words, next_to_core=False)  # "give me the juice" asks for juice
        start, kinds, addressee = max(lefts, key=lambda item: item[0])
        end, end_kinds, called = min(self._rights(words), key=lambda item: item[0])
        calls: str | None = None
        if "vocative" in kinds or "vocative" in end_kinds:
            calls = "person" if (addressee if addressee is not None else called) else "game"
        return (words[start:end] if start < end else []), calls

    def standard(self, norm: str) -> str:
        """``norm`` in standard words, word for word (see ``dialect``)."""
        if not self.dialect:
            return norm
        return " ".join(self.dialect.get(w, w) for w in norm.split())

    def expanded(self, norm: str) -> str:
        """``norm`` with its short forms said long ("where's the cup": "where is the cup")."""
        return " ".join(self.contractions.get(w, w) for w in norm.split())

    def without_inside(self, norm: str, asking: bool = False) -> str:
        """``norm`` without the words that may be dropped anywhere ("mal", "doch"); with
        ``asking`` also those dropped from questions only (:attr:`inside_asking`)."""
        dropped = self.inside | self.inside_asking if asking else self.inside
        kept = [w for w in norm.split() if w not in dropped]
        return " ".join(kept) if kept else norm

    def at(self, words: Sequence[str], i: int, kinds: Iterable[str]) -> list[Any]:
        """The frames of ``kinds`` that start at ``words[i]``."""
        return list(self._at(words, i, kinds))

    def pauses(self, raw: str, count: int) -> frozenset[int]:
        """Word positions of ``raw`` that follow a typed pause (comma, full stop …)."""
        return _pauses(raw, count)

    def sentence_ends(self, raw: str, count: int) -> frozenset[int]:
        """Word positions of ``raw`` that follow the end of a typed sentence (".", "!",
        "…"), not a comma or a question mark."""
        return frozenset(
            position
            for position, mark in _marks(raw)
            if 0 < position < count and any(c in mark for c in ".!…") and "?" not in mark
        )

    def asked(self, raw: str) -> frozenset[int]:
        """Word positions of ``raw`` that a typed "?" follows (how many words stand
        before it): "Tinker Bell? No wait, Peppa Pig!" asks at 2 only."""
        return frozenset(position for position, mark in _marks(raw) if "?" in mark)

    # --- frames at either end ----------------------------------------------------------
    def _lefts(
        self, words: Sequence[str], next_to_core: bool = True
    ) -> list[tuple[int, frozenset[str], Any]]:
        """Where a core may start: every position frames before it reach, with their
        kinds and a vocative's value; one frame of :data:`NEXT_TO_CORE` last (if
        ``next_to_core``)."""
        reached: dict[int, tuple[frozenset[str], Any]] = {0: (frozenset(), None)}
        order = [0]
        for position in order:
            kinds, value = reached[position]
            here: set[int] = set()
            for frame in _speaker_first(self._at(words, position, (*LEFT, *EVERYWHERE))):
                end = position + len(frame.words)
                if frame.value is not None and end < len(words) and words[end] in self.joins:
                    continue  # "Ben and Holly": one name, said by anyone
                _reach(reached, here, order, end, kinds, value, frame)
        out = [(p, kinds, value) for p, (kinds, value) in reached.items()]
        for position, kinds, value in list(out) if next_to_core else ():
            for frame in self._at(words, position, NEXT_TO_CORE):
                out.append((position + len(frame.words), kinds | {frame.kind}, value))
        return out

    def _rights(self, words: Sequence[str]) -> list[tuple[int, frozenset[str], Any]]:
        """Where a core may end: every position frames after it reach from the end."""
        reached: dict[int, tuple[frozenset[str], Any]] = {len(words): (frozenset(), None)}
        order = [len(words)]
        for position in order:
            kinds, value = reached[position]
            here: set[int] = set()
            for frame in _speaker_first(self._before(words, position, RIGHT)):
                start = position - len(frame.words)
                if frame.value is not None and start > 0 and words[start - 1] in self.joins:
                    continue  # "Holly and Ben"
                _reach(reached, here, order, start, kinds, value, frame)
        return [(p, kinds, value) for p, (kinds, value) in reached.items()]

    def _at(self, words: Sequence[str], i: int, kinds: Iterable[str]) -> Iterator[_Frame]:
        if i >= len(words):
            return
        wanted = set(kinds)
        for frame in self._starting.get(words[i], ()):
            if frame.kind in wanted and tuple(words[i : i + len(frame.words)]) == frame.words:
                yield frame

    def _before(self, words: Sequence[str], end: int, kinds: Iterable[str]) -> Iterator[_Frame]:
        if end <= 0:
            return
        wanted = set(kinds)
        for frame in self._ending.get(words[end - 1], ()):
            start = end - len(frame.words)
            if frame.kind in wanted and start >= 0 and tuple(words[start:end]) == frame.words:
                yield frame

    def _vocative_words(self, words: Sequence[str], start: int, end: int) -> list[str]:
        """The words of vocatives before or after ``words[start:end]``."""
        out: list[str] = []
        for i in range(start):
            for frame in self._at(words, i, ("vocative",)):
                if i + len(frame.words) <= start:
                    out.extend(frame.words)
        for i in range(end, len(words)):
            for frame in self._at(words, i, ("vocative",)):
                out.extend(frame.words)
        return out

    def _unstretched(self, words: Sequence[str]) -> list[str]:
        """``words`` with drawn-out frame words said plainly ("uhhh" is "uh")."""
        out = []
        for word in words:
            if word not in self._starting and word not in self._ending:
                word = self._stretched.get(_squeeze(word), word)
            out.append(word)
        return out


def _speaker_first(frames: Iterable[_Frame]) -> list[_Frame]:
    """``frames`` at one place, without a vocative where a speaker frame holds its name
    ("Ben here": Ben speaks, no one calls him)."""
    found = list(frames)
    if any(f.kind == "speaker" for f in found):
        return [f for f in found if f.kind != "vocative"]
    return found


def _reach(
    reached: dict[int, tuple[frozenset[str], Any]],
    here: set[int],
    order: list[int],
    to: int,
    kinds: frozenset[str],
    value: Any,
    frame: _Frame,
) -> None:
    """``frame`` reaches position ``to`` from a position reached with ``kinds`` and
    ``value``; ``here``: the positions reached from that same position so far.

    The first way to a position counts (the longest frame first, then the nearest
    position); but the same words are often frames of two kinds ("ach nein": an
    exclamation and a correction, "nee nee": a negation and a correction), and then they
    are both: the position gets every kind its words are a frame of, whichever kind came
    first."""
    if to not in reached:
        reached[to] = (kinds | {frame.kind}, value if frame.value is None else frame.value)
        here.add(to)
        order.append(to)
    elif to in here:  # the same words as the frame that reached it from here
        had, called = reached[to]
        reached[to] = (had | {frame.kind}, frame.value if called is None else called)


def _expand(
    kind: str, template: str, slot_lists: Mapping[str, SlotList], lang: str
) -> Iterator[_Frame]:
    """The frames one template allows. A template that is one list reference
    ("{player}") keeps each value: the frame then names it."""
    sentence: Sentence = parse_sentence(template)
    expression = sentence.expression
    if isinstance(expression, Sentence):
        expression = expression.expression
    items = getattr(expression, "items", None)
    ref = items[0] if isinstance(items, list) and len(items) == 1 else expression
    if isinstance(ref, ListReference):
        slot_list = slot_lists.get(ref.list_name)
        if not isinstance(slot_list, TextSlotList):
            return
        for value in slot_list.values:
            for text in sample_expression(value.text_in, language=lang):
                said = tuple(normalize(text).split())
                if said:
                    yield _Frame(said, kind, value.value_out)
        return
    for text in sample_expression(expression, slot_lists=dict(slot_lists), language=lang):
        said = tuple(normalize(text).split())
        if said:
            yield _Frame(said, kind)


def _squeeze(word: str) -> str:
    """A word with every run of one letter said once ("ähhh": "äh", "ooh": "oh")."""
    return _RUN.sub(r"\1", word)


def _pauses(raw: str, count: int) -> frozenset[int]:
    """Word positions of ``raw`` (as :func:`normalize` splits it) that follow a pause."""
    return frozenset(position for position, _ in _marks(raw) if 0 < position < count)


def _marks(raw: str) -> list[tuple[int, str]]:
    """The typed pauses of ``raw`` ("," "?" "…"), each with how many words (as
    :func:`normalize` splits them) stand before it."""
    out: list[tuple[int, str]] = []
    position = 0
    for part in _PAUSE.split(raw):
        if _PAUSE.fullmatch(part):
            out.append((position, part))
        else:
            position += len(normalize(part).split())
    return out
