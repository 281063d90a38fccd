"""Sentence templates of one game in one language: the single source for the parser and
for the recognisers' phrase lists.

Templates live in ``grammars/<lang>/common.yaml`` (global commands, colour lists, skip
words) and ``grammars/<lang>/<game>.yaml`` in hassil's format. Lists that depend on the
table (player names, a custom deck) are added at run time as ``dynamic_lists``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any, TypeVar

import yaml
from hassil import Intents
from hassil.expression import (
    Alternative,
    Expression,
    Group,
    ListReference,
    RuleReference,
    Sentence,
    TextChunk,
)
from hassil.intents import RangeSlotList, SlotList, TextSlotList, TextSlotValue
from hassil.sample import sample_expression, sample_intents
from hassil.util import merge_dict

from games.data import parse_yaml
from games.errors import FarbspielError
from voice.understanding.frames import Frames
from voice.understanding.prefilter import TemplateFilter
from words.numbers import ordinal_forms
from words.text import normalize

_T = TypeVar("_T")

LANGUAGES = ("de", "en")


class GrammarError(FarbspielError, ValueError):
    """A grammar file is missing or malformed."""

    default_key = "grammar_file"


@dataclass(frozen=True)
class SlotValue:
    """One value of a run-time slot list: what can be said, and what it means."""

    spoken: str
    """Template text that may be said (hassil syntax allowed, e.g. ``"(Ann|Anna)"``)."""

    value: Any
    """The slot value the parser returns."""


def _grammar_file(lang: str, name: str) -> Any:
    path = resources.files("grammars").joinpath(lang, f"{name}.yaml")
    if not path.is_file():
        raise GrammarError(f"no grammar file grammars/{lang}/{name}.yaml")
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise GrammarError(f"grammars/{lang}/{name}.yaml is not valid YAML: {exc}") from exc


def _extra_grammar_files(lang: str, game_id: str) -> list[str]:
    """Further template files of a game: ``grammars/<lang>/<game>-<topic>.yaml``."""
    folder = resources.files("grammars").joinpath(lang)
    prefix = f"{game_id}-"
    names = [p.name for p in folder.iterdir() if p.name.startswith(prefix)]
    return sorted(n.removesuffix(".yaml") for n in names if n.endswith(".yaml"))


@dataclass(frozen=True)
class WrappedMove:
    """How one move is read when said in words of the family's own (``wrapped_moves`` of a
    game file; :mod:`voice.understanding.wrapped`)."""

    value: str
    """The slot the move names one value of (a colour, a card, a word card, a player)."""
    verbs: frozenset[str]
    """Words that make or give: one must be said where the value is."""
    apart: frozenset[str] = frozenset()
    """Words that make the sentence about something else ("too", "hab", "would")."""
    idioms: frozenset[str] = frozenset()
    """Phrases said around a move that say nothing of it ("why not", "warum nicht")."""
    owners: frozenset[str] = frozenset()
    """Words that say whose thing follows ("our", "Papas"): not the square on the board."""
    who: frozenset[str] = frozenset()
    """Slots that say whose the value is (Farben: a player, oneself); one must be named."""
    who_optional: bool = False
    """Whose it is may go unsaid (the stack chosen for the player whose turn it is)."""
    said_alone: bool = False
    """The value alone in a clause of its own is the move ("The saw... purple, why not")."""
    attributive_is_talk: bool = False
    """The value before a word of something else describes a thing ("a green bucket")."""

    @classmethod
    def of(cls, spec: Mapping[str, Any]) -> WrappedMove:
        """The move as a game file writes it."""

        def words(key: str) -> frozenset[str]:
            return frozenset(normalize(w) for w in spec.get(key) or ())

        return cls(
            value=str(spec["value"]),
            verbs=words("verbs"),
            apart=words("apart"),
            idioms=words("idioms"),
            owners=words("owners"),
            who=frozenset(spec.get("who") or ()),
            who_optional=bool(spec.get("who_optional", False)),
            said_alone=bool(spec.get("said_alone", False)),
            attributive_is_talk=bool(spec.get("attributive_is_talk", False)),
        )


class Grammar:
    """The hassil intents of one game and language, with run-time lists merged in.

    Some values exist only so that typed replies can be answered ("gold is not a colour of
    this game"). A recogniser that listens for them pulls real words onto them ("braun" is
    heard as "golden"), so the grammar data marks them, a whole list with
    ``typed_only: true`` or one value with ``metadata: {typed_only: true}``: the parser
    understands them, but :meth:`phrases` (what recognisers listen for) leaves them out.
    """

    def __init__(
        self,
        lang: str,
        game_id: str,
        dynamic_lists: Mapping[str, Sequence[SlotValue]] | None = None,
    ) -> None:
        if lang not in LANGUAGES:
            raise GrammarError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.game_id = game_id
        common = _grammar_file(lang, "common")
        game = _grammar_file(lang, game_id)
        self.global_intents: frozenset[str] = frozenset(common.get("global_intents", []))
        self.quiet_intents: frozenset[str] = frozenset(common.get("quiet_intents", []))
        """Table talk the templates list so that recognisers hear it as what it is ("nicht
        gelb", "blue or green") instead of as the nearest move; understood, it is let be."""
        self.question_intents: frozenset[str] = frozenset(
            [*common.get("question_intents", []), *game.get("question_intents", [])]
        )
        """Intents that only tell something (the score, the words): a question the
        templates do not list may still find them (:mod:`voice.understanding.questions`)."""
        self.request_intents: frozenset[str] = frozenset(common.get("request_intents", []))
        """Requests to the game master that are cheap to undo or asked first (slower, a
        pause, the rules): found by their key words too, asked or not."""
        self.guarded_intents: frozenset[str] = frozenset(game.get("guarded_intents", []))
        """Moves whose values must never come from a negation, question, wish or advice."""
        self.tag_moves: frozenset[str] = frozenset(game.get("tag_moves", []))
        """Moves a tag question after them still makes ("Vogel grün, ne?"): those cheap to
        take back. Any other move asked so stays a question ("Mia hatte weiß, oder?")."""
        self.accused_moves: frozenset[str] = frozenset(game.get("accused_moves", []))
        """Moves said after or before the accusation that is their reason, which names
        players and what they did ("Cem blurted out Maleficent while it's Ben's turn!
        Penalty, Cem."): the accusation may name anything, so long as it neither asks nor
        denies."""
        self.leave_moves: frozenset[str] = frozenset(game.get("leave_moves", []))
        """Moves a question asking leave makes ("kann ich Urlaub nehmen?"): those cheap to
        take back, where people ask so to make them. Elsewhere it asks whether the move is
        allowed ("darf ich rot?": which colours go)."""
        self.wrapped_moves: dict[str, WrappedMove] = {
            intent: WrappedMove.of(spec)
            for intent, spec in (game.get("wrapped_moves") or {}).items()
        }
        """Per move, how it is read when said in words of the family's own
        (:mod:`voice.understanding.wrapped`)."""
        cells = game.get("cells") or {}
        self.cell_columns: int | None = int(cells["columns"]) if "columns" in cells else None
        """A board of this many columns whose squares may be named by row and column
        (``cells`` of a game file): a ``row`` and a ``column`` slot are then its ``slot``."""
        self.cell_slot: str = str(cells.get("slot", "object"))
        self.guard_words: dict[str, frozenset[str]] = {
            kind: frozenset(normalize(w) for w in words)
            for kind, words in (common.get("guard_words") or {}).items()
        }
        """Word classes of :mod:`voice.understanding.fallback`'s guard (refusal, hedge, ...)."""
        self.opening_words: tuple[str, ...] = tuple(
            normalize(w) for w in common.get("opening_words") or ()
        )
        """Words that open a sentence without meaning anything there ("so, ich bin fertig")
        but mean something inside one ("ich bin so weit"): skipped only at the start."""
        self.name_articles: frozenset[str] = frozenset(
            normalize(w) for w in common.get("name_articles") or ()
        )
        """Articles said before a person's name that mean nothing there ("der Jonas", "die
        Lena")."""
        self._frame_spec: dict[str, Any] = {}
        """The conversational frames (``frames`` of common.yaml, and of a game file)."""
        for source in (common, game):
            for kind, templates in (source.get("frames") or {}).items():
                if isinstance(templates, bool):  # a setting ("verb_last")
                    self._frame_spec[kind] = templates
                elif isinstance(templates, dict):  # contractions: short form -> long form
                    self._frame_spec[kind] = {**self._frame_spec.get(kind, {}), **templates}
                else:
                    self._frame_spec[kind] = [*self._frame_spec.get(kind, []), *(templates or [])]
        self.addressee_slots: dict[str, str] = dict(game.get("addressee_slots") or {})
        """Per intent, the slot that a vocative naming someone fills ("Cem, can I have a
        hint": a hint from Cem), see :mod:`voice.understanding.framing`."""
        merged: dict[str, Any] = {}
        merge_dict(merged, {k: v for k, v in common.items() if k not in _OWN_KEYS})
        merge_dict(merged, {k: v for k, v in game.items() if k not in _OWN_KEYS})
        for extra in _extra_grammar_files(lang, game_id):  # e.g. pantone-board.yaml
            extra_data = _grammar_file(lang, extra)
            merge_dict(merged, {k: v for k, v in extra_data.items() if k not in _OWN_KEYS})
        self.skip_words: tuple[str, ...] = tuple(normalize(w) for w in merged.get("skip_words", []))
        self._skip_phrases = Phrases(
            sorted({tuple(w.split()) for w in self.skip_words if w}, key=len, reverse=True)
        )
        merged["lists"] = _with_ordinals(merged.get("lists") or {}, lang)
        try:
            self.intents = Intents.from_dict(_without_typed_only(merged, keep=True))
            self._spoken = Intents.from_dict(_without_typed_only(merged, keep=False))
        except Exception as exc:  # hassil raises many kinds on bad templates
            raise GrammarError(f"grammars/{lang}: cannot parse templates: {exc}") from exc
        self.slot_lists: dict[str, SlotList] = dict(self.intents.slot_lists)
        for name, values in (dynamic_lists or {}).items():
            self.slot_lists[name] = _text_list(name, values)
        self.game_intents: frozenset[str] = (
            frozenset(self.intents.intents) - self.global_intents - self.quiet_intents
        )
        self.typed_only_lists: frozenset[str] = frozenset(
            name
            for name, spec in (merged.get("lists") or {}).items()
            if isinstance(spec, dict) and spec.get("typed_only") is True
        )
        """Slot lists recognisers never listen for (see the class documentation)."""
        _QUIET_LISTS.update(self.typed_only_lists)
        self._phrase_cache: dict[Any, list[tuple[str, str]]] = {}
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._list_indexes: dict[str, _ValueIndex] | None = None
        self._lists_for: dict[str, dict[str, SlotList]] = {}

    def opening(self, words: Sequence[str]) -> int:
        """How many of ``words`` (a normalised utterance, split) only open it: the run of
        opening words at its start, with the skip words before and between them ("well,
        yeah, Cem had green": two). Skip words after the last opening word stay: hassil
        skips them where they are only filler, and in German they may be the first part
        of the sentence ("dann nehme ich rot" is no question).

        Never all of them, and never a run after which only skip words are left ("yes
        please", "oh well" are what they say)."""
        i = end = 0
        while i < len(words):
            if words[i] in self.opening_words:
                i = end = i + 1
                continue
            skipped = self._skip_phrases.at(words, i)
            if not skipped:
                break
            i += skipped
        i = end
        if i == 0:
            return 0
        rest = list(words[i:])
        j = 0
        while j < len(rest):  # anything beyond skip words left?
            skipped = self._skip_phrases.at(rest, j)
            if not skipped:
                return i
            j += skipped
        return 0

    def opens_with(self, words: Sequence[str], *kinds: str) -> bool:
        """Is the first word after the opening words (:meth:`opening`) a guard word of one
        of ``kinds`` ("ach, leg mal das Handy weg": an ``order``)?"""
        start = self.opening(words)
        return start < len(words) and any(
            words[start] in self.guard_words.get(kind, ()) for kind in kinds
        )

    @cached_property
    def matchable(self) -> frozenset[str]:
        """Words a sentence may hold and still match a template exactly (a name nobody
        has aside): the :attr:`vocabulary` and the skip words."""
        return self.vocabulary | {w for phrase in self.skip_words for w in phrase.split()}

    @cached_property
    def frames(self) -> Frames:
        """The conversational frames around any sentence (:mod:`voice.understanding.frames`),
        with the run-time lists (players) in them."""
        try:
            return Frames(self._frame_spec, self.slot_lists, self.lang)
        except Exception as exc:  # hassil raises many kinds on bad templates
            raise GrammarError(f"grammars/{self.lang}: cannot parse frames: {exc}") from exc

    def derived(self, key: str, make: Callable[[Grammar], _T]) -> _T:
        """What ``make`` works out from this grammar, made once and kept as long as the
        grammar lives (a cache elsewhere that held the grammar would keep every game's
        grammar alive)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_derived", {})
        if key not in cache:
            cache[key] = make(self)
        found: _T = cache[key]
        return found

    @property
    def intent_names(self) -> frozenset[str]:
        return frozenset(self.intents.intents)

    def phrases(
        self,
        intents: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, str]]:
        """Every sentence the templates allow, as ``(normalised phrase, intent)``: what a
        recogniser listens for, so typed-only lists and values are left out.

        ``intents`` limits the intents; ``slots`` narrows lists to the given values;
        ``limit`` stops the expansion after that many phrases.
        """
        names = frozenset(intents) if intents is not None else None
        if names is not None and not names:
            return []
        frozen = tuple(sorted((k, tuple(v)) for k, v in slots.items())) if slots else ()
        key = (names, frozen, limit)
        if key not in self._phrase_cache:
            if len(self._phrase_cache) >= 32:  # phases repeat; keep memory bounded
                self._phrase_cache.pop(next(iter(self._phrase_cache)))
            self._phrase_cache[key] = self._expand(names, slots, limit)
        return list(self._phrase_cache[key])

    def lists_for(self, text: str) -> dict[str, SlotList]:
        """The slot lists to match ``text`` (normalised) against: the long lists (a
        deck's names, hundreds of well-known characters, card numbers) cut down to the
        values that can occur in it at all.

        Only values are left out whose words are provably missing from the text (see
        :class:`_ValueIndex`), and the rest keep their order, so hassil finds exactly
        what it finds with the whole lists, in the same order, only faster.
        """
        found = self._lists_for.get(text)
        if found is not None:
            return found
        if self._list_indexes is None:
            self._list_indexes = {
                name: _ValueIndex(slot_list)
                for name, slot_list in self.slot_lists.items()
                if isinstance(slot_list, TextSlotList) and len(slot_list.values) > _INDEX_FROM
            }
        haystack = _haystack(text)
        lists = dict(self.slot_lists)
        if haystack is not None and not self.intents.settings.ignore_whitespace:
            for name, index in self._list_indexes.items():
                lists[name] = index.narrowed(haystack)
        if len(self._lists_for) >= 64:
            self._lists_for.pop(next(iter(self._lists_for)))
        self._lists_for[text] = lists
        return lists

    @cached_property
    def templates(self) -> TemplateFilter:
        """The templates indexed by the words they can say (:mod:`.prefilter`)."""
        return TemplateFilter(self.intents, self.slot_lists)

    def candidates(self, intents: Intents, text: str) -> Intents:
        """``intents`` (:attr:`intents` or a part of them) with only the sentences that
        may match ``text`` (normalised, matched with the lists of :meth:`lists_for`):
        hassil finds exactly what it finds with all of them, in the same order, only
        faster."""
        return self.templates.narrowed(intents, self.templates.mask(text))

    def spoken_lists(self) -> dict[str, SlotList]:
        """The slot lists as recognisers hear them: typed-only lists empty, typed-only
        values left out."""
        lists = dict(self.slot_lists)
        for name, slot_list in lists.items():
            if not isinstance(slot_list, TextSlotList):
                continue
            if name in self.typed_only_lists:
                lists[name] = TextSlotList(name=name, values=[])
            elif any(_typed_only(v) for v in slot_list.values):
                values = [v for v in slot_list.values if not _typed_only(v)]
                lists[name] = TextSlotList(name=name, values=values)
        return lists

    def spoken_names(self, lists: Iterable[str]) -> tuple[str, ...]:
        """Every way a value of the slot ``lists`` (names: players, characters) is said
        with more than one word, normalised ("mister potato head", "the grinch"): what a
        recogniser may hear as one word. Lists the grammar lacks are skipped."""
        key = tuple(lists)
        found = self._names.get(key)
        if found is None:
            spoken = self.spoken_lists()
            names: dict[str, None] = {}
            for name in key:
                slot_list = spoken.get(name)
                if not isinstance(slot_list, TextSlotList) or not slot_list.values:
                    continue
                ref = ListReference(name)
                for text in sample_expression(ref, {name: slot_list}, language=self.lang):
                    said = normalize(text)
                    if len(said.split()) > 1:
                        names.setdefault(said, None)
            found = self._names[key] = tuple(names)
        return found

    def _expand(
        self,
        names: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
        limit: int | None,
    ) -> list[tuple[str, str]]:
        lists = self.spoken_lists()
        if slots:
            lists = dict(lists)
            for name, allowed in slots.items():
                lists[name] = _narrowed(lists[name], set(allowed))
        seen: set[tuple[str, str]] = set()
        out: list[tuple[str, str]] = []
        for intent, text in sample_intents(
            self._spoken,
            slot_lists=lists,
            intent_names=set(names) if names is not None else None,
            language=self.lang,
        ):
            item = (normalize(text), intent)
            if item[0] and item not in seen:
                seen.add(item)
                out.append(item)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def template_leaves(
        self, roots: Iterable[Expression] | None = None
    ) -> Iterator[TextChunk | ListReference]:
        """Every text chunk and list reference of the templates (or of ``roots``), in a
        fixed order: groups are opened and rule references followed, each rule once.

        Walks the templates instead of expanding them, so it stays cheap however many
        sentences the templates allow.
        """
        rules = dict(self.intents.expansion_rules)
        pending: list[Expression] = []
        for intent in self.intents.intents.values():
            for data in intent.data:
                rules.update(data.expansion_rules)
                if roots is None:
                    pending.extend(sentence.expression for sentence in data.sentences)
        if roots is not None:
            pending = list(roots)
        seen_rules: set[str] = set()
        while pending:
            expr = pending.pop()
            if isinstance(expr, (TextChunk, ListReference)):
                yield expr
            elif isinstance(expr, Group):
                pending.extend(expr.items)
            elif isinstance(expr, RuleReference) and expr.rule_name not in seen_rules:
                seen_rules.add(expr.rule_name)
                if expr.rule_name in rules:
                    pending.append(rules[expr.rule_name].expression)

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every word any phrase of this grammar may contain (digits excluded): the
        templates' words and those of every list they use."""
        words: set[str] = set()
        seen_lists: set[str] = set()
        leaves = list(self.template_leaves())
        while leaves:
            leaf = leaves.pop()
            if isinstance(leaf, TextChunk):
                words.update(normalize(leaf.original_text or leaf.text).split())
            elif leaf.list_name not in seen_lists:
                seen_lists.add(leaf.list_name)
                slot_list = self.slot_lists.get(leaf.list_name)
                if isinstance(slot_list, TextSlotList):
                    leaves.extend(self.template_leaves(v.text_in for v in slot_list.values))
                elif isinstance(slot_list, RangeSlotList):
                    words.update(_number_words(slot_list, self.lang))
        return frozenset(w for w in words if not any(c.isdigit() for c in w))


_OWN_KEYS = frozenset(
    {
        "global_intents",
        "guarded_intents",
        "tag_moves",
        "leave_moves",
        "accused_moves",
        "question_intents",
        "request_intents",
        "guard_words",
        "quiet_intents",
        "opening_words",
        "frames",
        "addressee_slots",
        "cells",
        "wrapped_moves",
    }
)
"""Keys of our grammar files that are ours, not hassil's."""


def _without_typed_only(merged: Mapping[str, Any], keep: bool) -> dict[str, Any]:
    """The templates for parsing (``keep``: all of them) or for the recognisers' phrase
    lists (without the blocks marked ``typed_only: true``). Free word order and rare
    phrasings are understood when typed or snapped, but would multiply the sentences a
    recogniser has to choose between."""
    out = dict(merged)
    intents: dict[str, Any] = {}
    for name, intent in (merged.get("intents") or {}).items():
        blocks = []
        for block in intent.get("data", []):
            if block.get("typed_only") and not keep:
                continue
            blocks.append({k: v for k, v in block.items() if k != "typed_only"})
        if blocks:
            intents[name] = {**intent, "data": blocks}
    out["intents"] = intents
    return out


def _with_ordinals(lists: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Lists written ``{ordinal: {from: 1, to: 9}}`` in a grammar file (our own kind):
    the ordinal numbers, as :func:`ordinal_forms` says them, each meaning its number."""
    out = dict(lists)
    for name, spec in lists.items():
        if not (isinstance(spec, dict) and isinstance(spec.get("ordinal"), dict)):
            continue
        bounds = spec["ordinal"]
        values: list[dict[str, Any]] = []
        for number in range(int(bounds.get("from", 1)), int(bounds["to"]) + 1):
            said, typed = ordinal_forms(number, lang)
            values.append({"in": "(" + "|".join(said) + ")", "out": number})
            values.append(
                {"in": "(" + "|".join(typed) + ")", "out": number, "metadata": {"typed_only": True}}
            )
        out[name] = {"values": values}
    return out


def phrase_at(words: Sequence[str], i: int, phrases: Iterable[tuple[str, ...]]) -> int:
    """How many words the first of ``phrases`` (each a tuple of words, longest first)
    that starts at ``words[i]`` takes up; 0 if none does."""
    for phrase in phrases:
        if phrase and tuple(words[i : i + len(phrase)]) == phrase:
            return len(phrase)
    return 0


class Phrases:
    """Phrases (each a tuple of words, longest first) looked for at every word of an
    utterance, as :func:`phrase_at` finds them: filed by their first word, so only those
    that can start at a word are compared (dozens of skip words and fillers, at every
    word of every reading)."""

    def __init__(self, phrases: Iterable[tuple[str, ...]]) -> None:
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        for phrase in phrases:
            if phrase:
                self._by_first.setdefault(phrase[0], []).append(phrase)

    def at(self, words: Sequence[str], i: int) -> int:
        """How many words the first phrase that starts at ``words[i]`` takes up; 0 if
        none does."""
        return phrase_at(words, i, self._by_first.get(words[i], ()))


def holds_phrase(norm: str, phrases: Iterable[str]) -> bool:
    """Does the normalised ``norm`` hold one of ``phrases`` as whole words ("das war"
    in "ups das war rosa", not in "das warme")?"""
    padded = f" {norm} "
    return any(f" {phrase} " in padded for phrase in phrases)


def _text_list(name: str, values: Sequence[SlotValue]) -> TextSlotList:
    if not values:
        raise GrammarError(f"run-time list {{{name}}} is empty")
    return TextSlotList(
        name=name,
        values=[TextSlotValue.from_tuple((v.spoken, v.value)) for v in values],
    )


def _typed_only(value: TextSlotValue) -> bool:
    return bool((value.metadata or {}).get("typed_only"))


_QUIET_LISTS: set[str] = set()
"""Typed-only lists: empty on purpose where recognisers' phrases are expanded."""


class _QuietTypedOnly(logging.Filter):
    """hassil warns about every empty list it samples; typed-only lists are meant so."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.msg == "No values for list: %s"
            and isinstance(record.args, tuple)
            and bool(record.args)
            and record.args[0] in _QUIET_LISTS
        )


logging.getLogger("hassil.sample").addFilter(_QuietTypedOnly())


def _narrowed(slot_list: SlotList, allowed: set[Any]) -> SlotList:
    if not isinstance(slot_list, TextSlotList):
        return slot_list
    values = [v for v in slot_list.values if v.value_out in allowed]
    return TextSlotList(name=slot_list.name, values=values) if values else slot_list


_INDEX_FROM = 24
"""Text lists longer than this are cut down per utterance (:meth:`Grammar.lists_for`)."""


def _fold_case(text: str) -> str:
    """Case folding at least as loose as hassil's ``re.IGNORECASE`` matching (the Turkish
    dotted and dotless i both fold to i): hassil's own where it has one."""
    try:
        from hassil.util import fold_case
    except ImportError:
        return text.replace("İ", "i").replace("ı", "i").casefold()
    return str(fold_case(text))


def _haystack(text: str) -> str | None:
    """``text`` as hassil matches it, case folded (its whitespace-free pieces are what a
    value's words are looked for in); ``None`` if it cannot be told safely."""
    try:
        from hassil.util import normalize_for_matching
    except ImportError:  # an older hassil: no narrowing, the whole lists
        return None
    matched = normalize_for_matching(text).text
    return f"{_fold_case(text)}\n{_fold_case(matched)}"


def _clause_order(clause: frozenset[str]) -> tuple[int, list[str]]:
    """Smallest clause first, ties by its pieces (the same choice on every run)."""
    return len(clause), sorted(clause)


def _value_clauses(expr: Expression, depth: int = 0) -> set[frozenset[str]]:
    """What every match of a list value must contain, as clauses: each clause a set of
    word pieces of which at least one occurs in the matched text (empty: nothing known).

    A text chunk matches the utterance's text literally (ignoring case), so each of its
    whitespace-separated pieces occurs in it; of an alternative one branch matches, so
    one piece of each branch's smallest clause occurs; an optional part or a list inside
    constrains nothing. Pieces with punctuation are left out (hassil may strip that from
    the text), which can only keep more values, never lose one.
    """
    if isinstance(expr, Sentence):
        expr = expr.expression
    if depth > 32:
        return set()
    if isinstance(expr, TextChunk):
        return {frozenset({_fold_case(piece)}) for piece in expr.text.split() if piece.isalnum()}
    if isinstance(expr, Alternative):
        if expr.is_optional or not expr.items:
            return set()
        merged: set[str] = set()
        for item in expr.items:
            clauses = _value_clauses(item, depth + 1)
            if not clauses:
                return set()
            smallest: frozenset[str] = min(clauses, key=_clause_order)
            merged.update(smallest)
        return {frozenset(merged)}
    if isinstance(expr, Group):  # a sequence or a permutation: every item matches
        out: set[frozenset[str]] = set()
        for item in expr.items:
            out |= _value_clauses(item, depth + 1)
        return out
    return set()  # a list or rule reference: its contents are not looked at


class _ValueIndex:
    """The values of one long text list, indexed by the word pieces they must contain.

    Per utterance, :meth:`narrowed` keeps the values all of whose clauses (see
    :func:`_value_clauses`) are met by the text, and every value nothing is known of, in
    the list's own order. A piece must lie inside one word of the text, so the lookup
    walks the substrings of the text's words instead of testing every piece.
    """

    def __init__(self, slot_list: TextSlotList) -> None:
        self.slot_list = slot_list
        self._always: list[int] = []
        self._clauses: list[tuple[frozenset[str], ...]] = []
        self._by_piece: dict[str, list[int]] = {}
        for i, value in enumerate(slot_list.values):
            clauses = tuple(
                sorted(_value_clauses(value.text_in), key=lambda c: (len(c), sorted(c)))
            )
            self._clauses.append(clauses)
            if not clauses:
                self._always.append(i)
                continue
            # the most telling clause (fewest pieces, longest piece) files the value
            key = min(clauses, key=lambda c: (len(c), -max(map(len, c)), sorted(c)))
            for piece in key:
                self._by_piece.setdefault(piece, []).append(i)
        self._longest = max((len(p) for p in self._by_piece), default=0)
        self._cache: dict[tuple[int, ...], TextSlotList] = {}
        self._word_hits: dict[str, frozenset[str]] = {}

    def _pieces_in(self, word: str) -> frozenset[str]:
        hits = self._word_hits.get(word)
        if hits is None:
            by_piece = self._by_piece
            found = set()
            for start in range(len(word)):
                for end in range(start + 1, min(len(word), start + self._longest) + 1):
                    if word[start:end] in by_piece:
                        found.add(word[start:end])
            hits = frozenset(found)
            if len(self._word_hits) > 4096:
                self._word_hits.clear()
            self._word_hits[word] = hits
        return hits

    def narrowed(self, haystack: str) -> TextSlotList:
        pieces: set[str] = set()
        for word in set(haystack.split()):
            pieces |= self._pieces_in(word)
        chosen = set(self._always)
        for piece in pieces:
            for i in self._by_piece[piece]:
                if i not in chosen and all(
                    any(p in haystack for p in clause) for clause in self._clauses[i]
                ):
                    chosen.add(i)
        key = tuple(sorted(chosen))
        found = self._cache.get(key)
        if found is None:
            values = self.slot_list.values
            found = TextSlotList(name=self.slot_list.name, values=[values[i] for i in key])
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = found
        return found


def _number_words(slot_list: RangeSlotList, lang: str) -> set[str]:
    name = slot_list.name or "range"  # hassil types a list's name as optional
    ref = ListReference(name)
    return {
        w
        for text in sample_expression(ref, {name: slot_list}, language=lang)
        for w in normalize(text).split()
    }
