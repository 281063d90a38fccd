"""Localised messages: an engine event (type + data) → the sentence farbspiel says.

Templates are data, in ``voice/output/prompts/<lang>/common.yaml`` and
``voice/output/prompts/<lang>/<game>.yaml`` (the game's file wins). A template is either

* a string with ``{field}`` blanks, where ``{field:spec}`` asks a *term* for a form
  (``{object:acc}`` → "den Hut", ``{colour:noun}`` → "Lila"), and a list field is
  joined naturally (``{players}`` → "Anna, Ben und Cem"; ``{colours:or}`` uses "oder";
  ``{cells:@cell}`` renders each item with the template ``cell`` first), or
* a mapping of cases to strings, tried in order: ``"won=true"``, ``"#winners=1"``
  (list length), several conditions joined by ``,``, and ``default``.

Terms turn raw values (colour ids, object numbers) into words; each game's voice adapter
supplies them per language.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from games.data import load as load_data
from games.data import parse_yaml
from games.errors import FarbspielError


class MessageError(FarbspielError, LookupError):
    """A template is missing or cannot be filled."""

    default_key = "prompt_file"


@dataclass(frozen=True)
class Term:
    """A value that knows its word forms; ``format(term, "acc")`` picks one."""

    forms: Mapping[str, str]
    """Named forms; ``""`` is the default form."""

    def __format__(self, spec: str) -> str:
        if spec in self.forms:
            return self.forms[spec]
        raise MessageError(f"no form {spec!r} in {dict(self.forms)}")

    def __str__(self) -> str:
        return self.forms[""]


TermMaker = Callable[[Any], Term]


@cache
def _prompt_file(lang: str, name: str) -> Mapping[str, Any]:
    path = resources.files("voice.output").joinpath("prompts", lang, f"{name}.yaml")
    if not path.is_file():
        return {}
    data = parse_yaml(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise MessageError(f"voice/output/prompts/{lang}/{name}.yaml must be a mapping")
    return data


def colour_term(lang: str) -> TermMaker:
    """Colour ids → their names (``""``: as adjective, ``noun``: starting a sentence)."""
    colours = load_data("colours")

    def make(colour_id: Any) -> Term:
        entry = colours.get(colour_id)
        if entry is None:
            return Term({"": str(colour_id), "noun": str(colour_id).capitalize()})
        name = entry[lang]
        noun = entry.get(f"{lang}_noun", name.capitalize())
        return Term({"": name, "noun": noun, "cap": name[:1].upper() + name[1:]})

    return make


class Messages:
    """Renders events of one game in one language."""

    def __init__(self, lang: str, game_id: str, terms: Mapping[str, TermMaker]) -> None:
        self.lang = lang
        self.templates: dict[str, Any] = {
            **_prompt_file(lang, "common"),
            **_prompt_file(lang, "display"),  # private channel, table view, Pantone board
            **_prompt_file(lang, game_id),
        }
        self.terms = dict(terms)
        self.terms.setdefault("colour", colour_term(lang))
        self.terms.setdefault("colours", self.terms["colour"])
        self.words = self.templates.get("_words", {"and": "and", "or": "or"})

    def has(self, key: str) -> bool:
        return key in self.templates

    def render(self, key: str, data: Mapping[str, Any] | None = None) -> str | None:
        """The sentence for ``key`` filled with ``data``; ``None`` if ``key`` is silent."""
        template = self.templates.get(key)
        if template is None:
            return None
        data = dict(data or {})
        if isinstance(template, Mapping):
            template = _choose_case(template, data, key)
            if template is None:
                return None
        if not isinstance(template, str):
            raise MessageError(f"template {key!r} must be text or a mapping of cases")
        return _Formatter(self).format(template, **data).strip() or None

    def require(self, key: str, data: Mapping[str, Any] | None = None) -> str:
        text = self.render(key, data)
        if text is None:
            raise MessageError(f"no message for {key!r} in language {self.lang!r}")
        return text

    def join(self, items: Sequence[str], word: str = "and") -> str:
        items = [i for i in items if i]
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {self.words.get(word, word)} {items[-1]}"

    def term(self, name: str, value: Any) -> Any:
        maker = self.terms.get(name)
        if maker is None or value is None or isinstance(value, dict | bool):
            return value
        if isinstance(value, list):
            return [maker(v) if not isinstance(v, dict) else v for v in value]
        return maker(value)


class _Formatter(string.Formatter):
    def __init__(self, messages: Messages) -> None:
        self.messages = messages

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, int) or key not in kwargs:
            raise MessageError(f"message needs {key!r}, the event has {sorted(kwargs)}")
        return self.messages.term(key, kwargs[key])

    def format_field(self, value: Any, format_spec: str) -> str:
        m = self.messages
        if isinstance(value, list):
            if format_spec.startswith("@"):
                parts = [m.require(format_spec[1:], item) for item in value]
                return m.join(parts)
            word = format_spec if format_spec in ("and", "or") else "and"
            inner = "" if format_spec in ("and", "or") else format_spec
            return m.join(
                [format(v, inner) if isinstance(v, Term) else str(v) for v in value], word
            )
        if isinstance(value, dict):  # {"Anna": 3, ...} scores and the like
            template = format_spec[1:] if format_spec.startswith("@") else "score_item"
            return m.join(
                [m.require(template, {"player": k, "points": v}) for k, v in value.items()]
            )
        return format(value, format_spec)


def _choose_case(cases: Mapping[str, Any], data: Mapping[str, Any], key: str) -> Any:
    for condition, template in cases.items():
        if condition == "default" or all(
            _holds(c.strip(), data) for c in str(condition).split(",")
        ):
            return template
    raise MessageError(f"no case of {key!r} fits {dict(data)}")


def _holds(condition: str, data: Mapping[str, Any]) -> bool:
    field_name, _, expected = condition.partition("=")
    if field_name.startswith("#"):
        value = data.get(field_name[1:])
        return isinstance(value, (list, dict)) and str(len(value)) == expected
    value = data.get(field_name)
    if isinstance(value, bool):
        return str(value).lower() == expected.lower()
    return str(value) == expected
