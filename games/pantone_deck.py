"""Pantone character decks: our own numbered cards, or a deck of the players' own.

A deck is a list of cards; card N is the N-th entry. Each card has a ``name``, optional
``aliases`` (other names a guess may use) and exactly four ``hints``, from vague to
specific. The same check runs on our built-in decks, on a player's ``--deck`` file and
on the deck stored in a saved game, and names every problem by entry and field before
a game starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.data import DataError, load
from games.deck_files import MAX_CARDS, DeckError, Problem, check_text
from games.name_match import canonical

HINTS = 4
MAX_NAME = 80
MAX_HINT = 200
FIELDS = ("name", "aliases", "hints")


@dataclass(frozen=True)
class Character:
    """One character card."""

    name: str
    aliases: tuple[str, ...]
    hints: tuple[str, ...]

    @property
    def forms(self) -> tuple[str, ...]:
        """Every name a correct guess may use: the name first, then the aliases."""
        return (self.name, *self.aliases)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "aliases": list(self.aliases), "hints": list(self.hints)}


def parse_deck(data: Any, source: str = "") -> tuple[Character, ...]:
    """Check plain data (from YAML or a save file) and turn it into cards.

    Raises :class:`DeckError` listing every problem found.
    """
    if isinstance(data, dict) and "cards" in data:
        data = data["cards"]
    if not isinstance(data, list):
        raise DeckError([Problem(None, None, "deck_not_a_list")], source)
    if not data:
        raise DeckError([Problem(None, None, "deck_no_cards")], source)
    if len(data) > MAX_CARDS:
        too_many = {"cards": len(data), "limit": MAX_CARDS}
        raise DeckError([Problem(None, None, "deck_too_many", too_many)], source)
    problems: list[Problem] = []
    cards: list[Character] = []
    owners: dict[tuple[str, ...], tuple[int, str]] = {}
    for number, entry in enumerate(data, start=1):
        card = _check_entry(number, entry, problems)
        if card is None:
            continue
        cards.append(card)
        for index, form in enumerate(card.forms):
            key = canonical(form)
            where = "name" if index == 0 else f"aliases[{index}]"
            if key in owners and owners[key][0] != number:
                other, other_name = owners[key]
                values = {"form": form, "other": other, "other_name": other_name}
                problems.append(Problem(number, where, "deck_name_taken", values, card.name))
            owners.setdefault(key, (number, card.name))
    if problems:
        raise DeckError(problems, source)
    return tuple(cards)


def _check_entry(number: int, entry: Any, problems: list[Problem]) -> Character | None:
    if not isinstance(entry, dict):
        problems.append(Problem(number, None, "deck_not_a_card"))
        return None
    found = len(problems)
    raw_name = entry.get("name")
    label = raw_name.strip() if isinstance(raw_name, str) else ""

    def problem(where: str | None, reason: str, **values: Any) -> None:
        problems.append(Problem(number, where, reason, values, label))

    for key in entry:
        if key not in FIELDS:
            problem(str(key), "deck_unknown_field", fields=", ".join(FIELDS))
    name = check_text(raw_name, "name", MAX_NAME, problem, required=True)
    aliases: list[str] = []
    raw_aliases = entry.get("aliases", [])
    if raw_aliases is None:
        raw_aliases = []
    if not isinstance(raw_aliases, list):
        problem("aliases", "deck_aliases_not_list")
    else:
        for index, alias in enumerate(raw_aliases, start=1):
            text = check_text(alias, f"aliases[{index}]", MAX_NAME, problem, required=True)
            if text is not None:
                aliases.append(text)
    hints: list[str] = []
    raw_hints = entry.get("hints")
    if raw_hints is None:
        problem("hints", "deck_hints_missing", needed=HINTS)
    elif not isinstance(raw_hints, list):
        problem("hints", "deck_hints_not_list", needed=HINTS)
    elif len(raw_hints) != HINTS:
        problem("hints", "deck_hints_count", needed=HINTS, found=len(raw_hints))
    else:
        for index, hint in enumerate(raw_hints, start=1):
            text = check_text(hint, f"hints[{index}]", MAX_HINT, problem, required=True)
            if text is not None:
                hints.append(text)
    if name is not None and not any(_sayable(f) for f in [name, *aliases]):
        problem("name", "deck_name_digits", name=name)
    if len(problems) > found or name is None:
        return None
    return Character(name, tuple(aliases), tuple(hints))


def _sayable(text: str) -> bool:
    return not any(c.isdigit() for c in text) and bool(canonical(text))


def builtin_deck(lang: str) -> tuple[Character, ...]:
    """Our own deck in ``lang`` (``games/data/pantone_<lang>.yaml``); a deck edited into
    something unplayable is a :class:`DataError` listing the problems."""
    try:
        return parse_deck(load(f"pantone_{lang}"), f"games/data/pantone_{lang}.yaml")
    except DeckError as exc:  # our own data, edited: for whoever edited it
        raise DataError(key="data_deck", problems=exc) from None


def deck_to_json(deck: Sequence[Character]) -> list[dict[str, Any]]:
    return [card.to_json() for card in deck]


def printable(deck: Sequence[Character], title: str, labels: dict[str, str]) -> str:
    """The deck as numbered text, to print and cut out (or to read on a second screen).

    ``labels`` gives the words ``also`` and ``hints`` in the deck's language.
    """
    width = len(str(len(deck)))
    lines = [title, "=" * len(title), ""]
    for number, card in enumerate(deck, start=1):
        lines.append(f"{number:>{width}}  {card.name}")
        pad = " " * (width + 2)
        if card.aliases:
            lines.append(f"{pad}{labels['also']}: {', '.join(card.aliases)}")
        hints = "  ".join(f"{i}. {h}" for i, h in enumerate(card.hints, start=1))
        lines.append(f"{pad}{labels['hints']}: {hints}")
        lines.append("")
    return "\n".join(lines)


# --- characters beyond the deck -------------------------------------------------------------
@dataclass(frozen=True)
class OtherCharacter:
    """A well-known character that is no card of the deck: a guess of it is wrong, and
    the recogniser listens for it so that it is heard as itself, not as a deck name."""

    name: str
    aliases: tuple[str, ...] = ()

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def famous_characters(lang: str) -> tuple[OtherCharacter, ...]:
    """``games/data/famous_characters_<lang>.yaml``: a YAML list of
    ``{name, aliases: [...]}``. A damaged file is a :class:`DataError` naming the entry."""
    where = f"games/data/famous_characters_{lang}.yaml"
    data = load(f"famous_characters_{lang}")
    if not isinstance(data, list):
        raise DataError(key="data_characters", where=where)
    found: list[OtherCharacter] = []
    for number, entry in enumerate(data, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        aliases = entry.get("aliases", []) if isinstance(entry, dict) else None
        if (
            not isinstance(name, str)
            or not isinstance(aliases, list)
            or not all(isinstance(a, str) for a in aliases)
            or not all(_usable_name(f) for f in (name, *aliases))
        ):
            raise DataError(key="data_character", where=where, entry=number)
        found.append(OtherCharacter(name.strip(), tuple(a.strip() for a in aliases)))
    return tuple(found)


def beyond_deck(
    others: Sequence[OtherCharacter], deck: Sequence[Character]
) -> tuple[OtherCharacter, ...]:
    """``others`` without any name or alias that is also one of ``deck`` (a deck of the
    players' own may hold any of them: then it is a card, not a wrong guess)."""
    taken = {canonical(form) for card in deck for form in card.forms}
    kept = []
    for other in others:
        forms = tuple(f for f in other.forms if canonical(f) not in taken)
        if forms and forms[0] == other.name:
            kept.append(OtherCharacter(other.name, forms[1:]))
        elif forms:
            kept.append(OtherCharacter(forms[0], forms[1:]))
    return tuple(kept)


def _usable_name(text: str) -> bool:
    """A name to match guesses against. One with digits ("C-3PO") is matched when typed;
    recognisers hear its aliases ("See Threepio") instead."""
    return bool(text.strip()) and len(text) <= MAX_NAME and bool(canonical(text))
