"""Understanding what players say lies on the Pantone board.

farbspiel cannot see the board; a player tells it ("on the board: two yellow at the top,
black in the middle", "oben zweimal gelb, in der Mitte schwarz") so that a blind guesser
can ask for it. Colours, counts and places come in any order; parts are separated by
commas, "and"/"und", "then"/"dann". The result is a list of items
``{"colour": id, "count": n, "place": id}`` (place ``"none"`` when not said).

Colour words come from the grammar's ``{colour}`` list (with its synonyms), so the board
knows the same colours as everything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hassil.expression import Sentence
from hassil.sample import sample_expression

from voice.understanding.grammar import Grammar, holds_phrase
from voice.understanding.intent import BOARD
from voice.understanding.intents import MAX_CHARS, Intent
from voice.understanding.names import NameParser
from words.text import normalize

MAX_ITEMS = 20

_COUNTED = {
    "en": frozenset(
        "of them those these ones x times at the in on to down up right there side".split()
    ),
    "de": frozenset(
        "stück davon mal x an der die das da dort ganz in im auf hin nach seite".split()
    ),
}
"""Words beside a count or a place in a part without a colour ("two of them", "drei
Stück davon", "down at the bottom"): such a part tells the colour before it."""

_PREFIXES = {
    "en": (
        "on the board there is", "on the board there are", "on the board we have",
        "on the board", "on the picture", "in the picture", "the board has", "the board shows",
        "the picture has", "board",
    ),
    "de": (
        "auf dem bild liegt", "auf dem bild liegen", "auf dem bild ist", "auf dem bild sind",
        "auf dem bild", "auf dem brett", "auf der tafel", "das bild hat", "das bild zeigt",
        "im bild", "bild",
    ),
}  # fmt: skip
_SEPARATORS = {
    "en": r"\band then\b|\bthen\b|\band\b|\bplus\b",
    "de": r"\bund dann\b|\bdann\b|\bund\b|\bsowie\b",
}
_VERTICAL: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "top": ("at the top", "on top", "up top", "top", "above", "upper", "up"),
        "bottom": ("at the bottom", "bottom", "below", "underneath", "lower", "down"),
        "middle": ("in the middle", "in the centre", "in the center", "middle", "centre",
                   "center"),
    },
    "de": {
        "top": ("ganz oben", "oben", "obere", "oberen", "oberer"),
        "bottom": ("ganz unten", "unten", "untere", "unteren", "unterer"),
        "middle": ("in der mitte", "mittig", "mitte", "mittlere", "mittleren"),
    },
}  # fmt: skip
_HORIZONTAL: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"left": ("on the left", "to the left", "left"),
           "right": ("on the right", "to the right", "right")},
    "de": {"left": ("links", "linke", "linken"), "right": ("rechts", "rechte", "rechten")},
}  # fmt: skip
_COUNTS = {
    "en": {"a": 1, "an": 1, "one": 1, "once": 1, "single": 1, "two": 2, "twice": 2,
           "pair": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10},
    "de": {"ein": 1, "eine": 1, "einen": 1, "einmal": 1, "zwei": 2, "zweimal": 2,
           "drei": 3, "dreimal": 3, "vier": 4, "viermal": 4, "fünf": 5, "fünfmal": 5,
           "sechs": 6, "sechsmal": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10},
}  # fmt: skip
_ENDINGS = {"en": ("s",), "de": ("e", "er", "en", "es", "em")}
"""Endings a colour word takes on the board: a plural ("two yellows"), an adjective's
("ein roter", "zwei schwarze"). A form the grammar has already keeps its own colour."""
_PURPOSE = {
    "en": frozenset("for like as because cause cos since kinda sorta".split()),
    "de": frozenset("für als wie weil denn sozusagen quasi".split()),
}
"""Words that open what a swatch stands for ("two yellow at the top, for the hair", "vier
grüne unten, als Wiese"): the Artist's reason, said after the board, never a part of it."""


BOARD_QUERY = "board_query"

ASKED_SCORE = 0.9
"""How sure a question about the board is when no template said it (it moves nothing)."""

_QUESTION_WORDS = {"en": ("what", "which", "is there"), "de": ("was", "welche", "wo ", "liegt da")}


class BoardReader:
    """Reads board descriptions in one language."""

    def __init__(self, grammar: Grammar) -> None:
        self.lang = grammar.lang
        self.colours = _colour_forms(grammar)
        self._would_have = grammar.guard_words.get("would_have", frozenset())
        self._fillers = grammar.guard_words.get("filler", frozenset())
        self._either_or = grammar.guard_words.get("either_or", frozenset())
        remark = grammar.guard_words.get("board_remark", frozenset()) | (
            grammar.guard_words.get("question_word", frozenset())
        )
        self._remark_words = frozenset(w for w in remark if " " not in w)
        self._remark_phrases = tuple(p for p in remark if " " in p)
        self._frames = grammar.frames
        self._frames_opening = grammar.opening
        self._question_start = grammar.guard_words.get("question_start", frozenset())
        # place phrases, longest first, and the words that may stand beside a count
        self._places = sorted(
            (
                p
                for table in (_VERTICAL, _HORIZONTAL)
                for ps in table[self.lang].values()
                for p in ps
            ),
            key=len,
            reverse=True,
        )
        self._place_words = frozenset(p for p in self._places if " " not in p)
        """Places said in one word ("top", "links"): where a part told place first ends."""
        self._counted = _COUNTED[self.lang] | frozenset(_COUNTS[self.lang])
        words = sorted(self.colours, key=len, reverse=True)
        self._colour_re = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")

    def read(self, text: str, reasons: bool = False) -> list[dict[str, Any]] | None:
        """The items ``text`` describes, or ``None`` if it is not a board description.
        With ``reasons`` (the Artist lays, nobody guesses yet) what a swatch stands for may
        follow the board ("… for the hair")."""
        return None if self.remarks(text) else self.told(text, reasons)

    def told(self, text: str, reasons: bool = False) -> list[dict[str, Any]] | None:
        """:meth:`read` for a ``text`` already known to be no remark about the board."""
        norm = normalize(text)
        if not norm or any(norm.startswith(q) for q in _QUESTION_WORDS.get(self.lang, ())):
            return None
        spoken = set(norm.split())
        if self._would_have & spoken:
            return None  # "ich hätte oben schwarz genommen"
        if self._either_or & spoken:
            return None  # still weighing: "die weiße nach unten oder... nee, warte"
        # commas and colons separate parts; normalising would remove them, so split first
        pieces = [normalize(p) for p in re.split(r"[,;:.!]", text)]
        pieces = [p for p in pieces if p]
        if not pieces:
            return None
        pieces[0], prefixed = self._strip_prefix(pieces[0])
        parts = [
            u
            for p in pieces
            for w in re.split(_SEPARATORS[self.lang], p)
            for u in self._unjoined(w)
        ]
        items: list[dict[str, Any]] = []
        last_part = 0  # where the items of the last part with a colour start
        heading = "none"  # a place said before its colours: "Top: two yellows"
        taking_back = False  # "one black at the bottom... no, make that two black"
        pending = False  # a part that ends taking itself back: "blau nach oben – nee, …"
        for part in parts:
            part, took_back = self._without_taking_back(part.strip())
            if took_back or pending:
                taking_back = bool(items) or took_back
            part, pending = self._taking_back_after(part)
            if not part:
                continue
            if reasons and items and part.split()[0] in _PURPOSE[self.lang]:
                break  # what it stands for: "…, for the hair", "…, als Wiese sozusagen"
            # once each ("rainbow multicoloured" is one colour)
            colours = list(
                dict.fromkeys(self.colours[m.group(1)] for m in self._colour_re.finditer(part))
            )
            if not colours:
                # about the colour before it: "braun, zwei Stück, ganz unten"
                count, place = self._count_of(part), self._place_of(part)
                if taking_back and (count is not None or place != "none"):
                    if not self._only_count_and_place(part):
                        return None
                    for item in items[last_part:]:  # "a brown one up top... no, at the bottom"
                        item["count"] = count if count is not None else item["count"]
                        item["place"] = place if place != "none" else item["place"]
                    taking_back = False
                    continue
                placed = all(item["place"] != "none" for item in items[last_part:])
                if count is None and place != "none" and heading == "none" and placed:
                    if not self._only_count_and_place(part):
                        return None
                    heading = place  # "Mitte: ein roter"
                    continue
                if not items or (count is None and place == "none"):
                    return None  # words that are neither colours nor places
                if not self._only_count_and_place(part):
                    return None  # a remark: "three blue at the bottom, that's a dress"
                said = items[last_part:]
                for item in said:
                    item["count"] = count if count is not None and len(said) == 1 else item["count"]
                    item["place"] = place if item["place"] == "none" else item["place"]
                continue
            place = self._place_of(part)
            if place == "none":
                place, heading = heading, "none"
            said_count = self._count_of(part)
            count = said_count or 1
            last = items[last_part:]
            if taking_back and place == "none" and len(colours) == 1 and len(last) == 1:
                # "one pink on the left, no, make that purple": the same place
                last[0].update(colour=colours[0], count=said_count or last[0]["count"])
                taking_back = False
                continue
            if (
                last
                and [i["colour"] for i in last] == colours
                and place in ("none", last[0]["place"])
            ):
                if said_count is None or said_count == last[0]["count"]:
                    continue  # said again: "Eine bunte in die Mitte. Die bunte, ja."
            if taking_back:  # said again instead of the part before
                del items[last_part:]
                taking_back = False
            last_part = len(items)
            for colour in colours:
                items.append({"colour": colour, "count": count if len(colours) == 1 else 1,
                              "place": place})  # fmt: skip
        if not items or len(items) > MAX_ITEMS:
            return None
        if not prefixed and any(item["place"] == "none" for item in items):
            return None  # "yellow" alone is no board description
        return items

    def remarks(self, text: str) -> bool:
        """Is ``text`` a remark about the board rather than the Artist telling it: a part
        of it naming a colour looks, likens, knows or asks ("that red at the top looks like
        ketchup", "look at the browns at the bottom", "two yellows on top I know what this
        is")? A word of those first only opens it ("look, two reds up top"); in a part of
        its own it says what the swatches stand for ("one yellow left and right, like
        ears")."""
        if holds_phrase(normalize(text), self._remark_phrases):
            return True
        opened = False
        for piece in re.split(r"[,;:.!?]", text):
            words = normalize(piece).split()
            said = set(words[0 if opened else 1 :])
            opened = opened or bool(words)
            if self._remark_words & said and self._colour_re.search(" ".join(words)):
                return True
        return False

    def _unjoined(self, part: str) -> list[str]:
        """``part`` cut where a new colour, count or taking back starts after a colour and
        its place, as speech runs them together without a pause ("black left black
        right", "zwei gelbe oben drei rosa unten", "one black at the bottom no make that
        two"); told place first, also where the next place starts ("oben zweimal gelb in
        der Mitte schwarz")."""
        words = part.split()
        place_words = self._place_words
        counts = _COUNTS[self.lang]
        out: list[list[str]] = [[]]
        coloured = placed = heading = False
        for i, word in enumerate(words):
            colour = bool(self._colour_re.fullmatch(word))
            if coloured and placed:
                back = [  # a taking back with what it says instead after it
                    f for f in self._frames.at(words, i, ("correction", "negation"))
                    if i + len(f.words) < len(words)
                ]  # fmt: skip
                if word in counts or colour or back or (heading and word in place_words):
                    out.append([])
                    coloured = placed = heading = False
            out[-1].append(word)
            heading = heading or (not coloured and word in place_words)
            coloured = coloured or colour
            placed = placed or heading or (coloured and word in place_words)
        return [" ".join(chunk) for chunk in out if chunk]

    def _taking_back_after(self, part: str) -> tuple[str, bool]:
        """``part`` without the taking back it ends in ("ein blaues nach oben nee"), and
        whether it had one: what follows it says the place or count instead."""
        words = part.split()
        for i in range(1, len(words)):
            for frame in self._frames.at(words, i, ("correction", "negation")):
                if i + len(frame.words) == len(words):
                    return " ".join(words[:i]), True
        return part, False

    def _without_taking_back(self, part: str) -> tuple[str, bool]:
        """``part`` without the words that take back what was said before it ("no",
        "make that", "nee"), and whether it had any."""
        words = part.split()
        start, took_back = 0, False
        while True:
            if start < len(words) and words[start] in self._fillers:
                start += 1  # "äh nee", "ugh, no"
            elif frames := self._frames.at(words, start, ("correction", "negation")):
                start += max(len(frame.words) for frame in frames)
                took_back = True
            else:
                break
        return " ".join(words[start:]), took_back

    def asks_about(self, text: str) -> bool:
        """Does ``text`` ask what lies somewhere on the board: a question naming a colour
        and a place or a count ("Anything brown in the middle?", "Is that two or three
        black ones at the bottom?", "Sind das zwei oder drei schwarze unten?")? Nobody
        is guessed by it; the answer is the board as told."""
        norm = normalize(text)
        words = norm.split()
        if not words or len(text) > MAX_CHARS:
            return False
        opened = self._frames_opening(words)
        asks = "?" in text or (opened < len(words) and words[opened] in self._question_start)
        if not asks or self._colour_re.search(norm) is None:
            return False
        counts = [_COUNTS[self.lang].get(w, int(w) if w.isdigit() else 0) for w in words]
        placed = _find(norm, _VERTICAL[self.lang]) or _find(norm, _HORIZONTAL[self.lang])
        return placed is not None or max(counts, default=0) >= 2

    def _strip_prefix(self, norm: str) -> tuple[str, bool]:
        for prefix in _PREFIXES[self.lang]:
            if norm == prefix:
                return "", True
            if norm.startswith(prefix + " "):
                return norm[len(prefix) + 1 :], True
        return norm, False

    def _only_count_and_place(self, part: str) -> bool:
        """Does ``part`` say only a count and a place (no remark beside the board)?"""
        text = f" {part} "
        for phrase in self._places:
            text = text.replace(f" {phrase} ", " ")
        return all(w.isdigit() for w in set(text.split()) - self._counted)

    def _place_of(self, part: str) -> str:
        vertical = _find(part, _VERTICAL[self.lang])
        horizontal = _find(part, _HORIZONTAL[self.lang])
        if vertical in ("top", "bottom") and horizontal:
            return f"{vertical}_{horizontal}"
        return horizontal or vertical or "none"

    def _count_of(self, part: str) -> int | None:
        for word in part.split():
            if word.isdigit() and 0 < int(word) <= 60:
                return int(word)
            if word in _COUNTS[self.lang]:
                return _COUNTS[self.lang][word]
        return None


def _find(part: str, table: Mapping[str, Sequence[str]]) -> str | None:
    best: tuple[int, str] | None = None
    for place, forms in table.items():
        for form in forms:
            m = re.search(r"\b" + re.escape(form) + r"\b", part)
            if m and (best is None or len(form) > best[0]):
                best = (len(form), place)
    return best[1] if best else None


def _colour_forms(grammar: Grammar) -> dict[str, str]:
    """Every way the grammar's ``{colour}`` list lets a colour be said → its id."""
    forms: dict[str, str] = {}
    slot_list = grammar.slot_lists.get("colour")
    for value in getattr(slot_list, "values", ()):
        expression = value.text_in
        if isinstance(expression, Sentence):
            expression = expression.expression
        for said in sample_expression(expression, {}, language=grammar.lang):
            spoken = normalize(said)
            if spoken:
                forms.setdefault(spoken, str(value.value_out))
    for short, long in grammar.frames.contractions.items():  # "blaue", "gelbe": the colour
        if long in forms:
            forms.setdefault(short, forms[long])
    endings = _ENDINGS.get(grammar.lang, ())
    inflected = {
        form + ending: colour
        for form, colour in forms.items()
        if " " not in form
        and not (grammar.lang == "de" and form[-1] in "aeiou")  # "lila", "orange": as said
        and not any(form.endswith(e) and form[: -len(e)] in forms for e in endings)
        for ending in endings
    }  # "two yellows", "ein roter", "zwei schwarze"; from the plain forms only
    for form, colour in inflected.items():
        forms.setdefault(form, colour)
    return forms


class BoardNameParser(NameParser):
    """Pantone's parser: deck names for guesses, and board descriptions."""

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
        super().__init__(grammar, intent, slot, cards, others, by_sound=by_sound)
        self.board = BoardReader(grammar)
        self._names = frozenset(form for _, form in self._flat)  # every name it knows

    def parse(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        slots: Mapping[str, Iterable[Any]] | None = None,
        *,
        heard: bool = False,
        last: Mapping[str, Any] | None = None,
    ) -> Intent | None:
        result = super().parse(text, allowed, slots, heard=heard, last=last)
        if result is not None and result.name == BOARD:
            items = self._read(text)  # a template sentence: read it the same way
            return Intent(BOARD, {"items": items}, result.text, result.score) if items else None
        unknown_name = (
            result is not None
            and result.name == self.intent
            and result.slots.get(self.slot) not in self._names
        )  # in a guess window anything is a guess; a board description still is one
        aloud = result is not None and result.name == "thinking"  # or words longer than names
        elsewhere = result is not None and allowed is not None and result.name not in allowed
        if result is not None and result.score >= 1.0 and not (unknown_name or aloud or elsewhere):
            return result  # an exact sentence of the templates wins
        if (
            allowed is not None
            and BOARD_QUERY in allowed
            and (result is None or unknown_name or aloud)
            and self.board.asks_about(text)
        ):
            return Intent(BOARD_QUERY, {}, normalize(text), ASKED_SCORE)
        if len(text) <= MAX_CHARS and (allowed is None or BOARD in allowed):
            reasons = allowed is not None and self.intent not in allowed  # nobody guesses yet
            items = self._read(text, reasons)
            if items is not None:
                return Intent(BOARD, {"items": items}, normalize(text), 1.0)
        return result

    def _read(self, text: str, reasons: bool = False) -> list[dict[str, Any]] | None:
        """The board ``text`` describes, also inside conversational frames ("okay, on the
        board two yellow at the top, please")."""
        if "?" in text or self.board.remarks(text):
            return None  # asked: "die zwei weißen unten sind ein Bart, oder?"
        items = self.board.told(text, reasons)
        if items is None:
            for reading in self.grammar.frames.readings(normalize(text), text):
                if reading.addressee is not None:
                    continue  # "Ben, yellow at the top, think about hair!": a tip to a player
                items = self.board.read(reading.core, reasons)
                if items is not None:
                    break
        return items
