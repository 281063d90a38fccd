"""Localised messages: an engine event (type + data) → the sentence farbspiel says.

Templates are data, in ``voice/output/prompts/<lang>/common.yaml`` and
``voice/output/prompts/<lang>/<game>.yaml`` (the game's file wins). A template is either

* a string with ``{field}`` blanks, where ``{field:spec}`` asks a *term* for a form
  (``{object:acc}`` → "den Hut", ``{colour:noun}`` → "Lila"), and a list field is
  joined naturally (``{players}`` → "Anna, Ben und Cem"; ``{colours:or}`` uses "oder";
  ``{cells:@cell}`` renders each item with the template ``cell`` first), or
* a mapping of cases to strings, tried in order: ``"won=true"``, ``"#winners=1"``
  (list length), ``"pile~one"`` (the number's CLDR plural category in the game's
  language, from Babel), several conditions joined by ``,``, and ``default``.

Numbers take their noun's form from Babel's CLDR plural rules:
``{pile:plural:one=# Karte|other=# Karten}`` picks the form for the category of ``pile``
(``zero one two few many other``; a bare number such as ``0=`` matches exactly and wins)
and writes the number where ``#`` stands. Every prompt is checked with 0, 1, 2 and 5 by
``tests/test_prompts.py``.

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

from babel import Locale

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


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(lang: str, number: Any) -> str:
    """The CLDR plural category of ``number`` in ``lang`` ("one", "other", ...)."""
    try:
        value = float(number)
    except (TypeError, ValueError):
        return "other"
    if value.is_integer():
        value = int(value)
    return str(_locale(lang).plural_form(abs(value)))


def choose_plural(lang: str, number: Any, spec: str) -> str:
    """``one=# Karte|other=# Karten`` → the form for ``number`` (``#`` → the number)."""
    forms: dict[str, str] = {}
    for part in spec.split("|"):
        category, sep, form = part.partition("=")
        if not sep:
            raise MessageError(f"plural form {part!r} lacks '=' (write one=...|other=...)")
        forms[category.strip()] = form
    text = forms.get(str(number))
    if text is None:
        text = forms.get(plural_category(lang, number), forms.get("other"))
    if text is None:
        raise MessageError(f"plural forms {spec!r} have no 'other'")
    return text.replace("#", str(number))


def table_term(table: Mapping[str, Mapping[str, str]]) -> TermMaker:
    """Ids → their word forms from a ``_terms`` table of a prompt file."""

    def make(value: Any) -> Term:
        forms = table.get(str(value))
        if forms is None:
            return Term({"": str(value), "name": str(value)})
        return Term(dict(forms))

    return make


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
        for name, table in (self.templates.get("_terms") or {}).items():
            if isinstance(table, Mapping) and all(isinstance(v, Mapping) for v in table.values()):
                self.terms.setdefault(name, table_term(table))
        self.terms.setdefault("colour", colour_term(lang))
        self.terms.setdefault("colours", self.terms["colour"])
        self.words = self.templates.get("_words", {"and": "and", "or": "or"})
        self.typing = False
        """True when the players type (the keyboard): prompts say "type", not "say"."""
        self.private = True
        """False when there is no private channel: prompts select cases ``private=false``
        rather than promise to tell a secret privately."""

    def has(self, key: str) -> bool:
        return key in self.templates

    def render(self, key: str, data: Mapping[str, Any] | None = None) -> str | None:
        """The sentence for ``key`` filled with ``data``; ``None`` if ``key`` is silent."""
        template = self.templates.get(key)
        if template is None:
            return None
        data = {**self._context(), **(data or {})}
        if isinstance(template, Mapping):
            template = _choose_case(template, data, key, self.lang)
            if template is None:
                return None
        if not isinstance(template, str):
            raise MessageError(f"template {key!r} must be text or a mapping of cases")
        return _Formatter(self).format(template, **data).strip() or None

    def _context(self) -> dict[str, Any]:
        """Blanks every prompt may use: ``{say}`` ("sag"/"schreib", ``:cap``, ``:pl``,
        ``:Pl``) fits the input in use; ``typing`` and ``private`` select cases."""
        verbs = self.templates.get("_say") or {}
        forms = verbs.get("type" if self.typing else "speak") or {"": "say", "cap": "Say"}
        return {"say": Term(dict(forms)), "typing": self.typing, "private": self.private}

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
        if format_spec.startswith("plural:"):
            count = len(value) if isinstance(value, list | dict) else value
            return choose_plural(m.lang, count, format_spec.removeprefix("plural:"))
        if isinstance(value, list):
            if format_spec == "lines":  # one item a line, indented (a list of problems)
                return "".join(f"\n  {v}" for v in value)
            if format_spec.startswith("@"):
                # each item also knows its place in the list ("2: Pinocchio")
                parts = [
                    m.require(
                        format_spec[1:], {"place": i, **item} if isinstance(item, dict) else item
                    )
                    for i, item in enumerate(value, start=1)
                ]
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


def _choose_case(
    cases: Mapping[str, Any], data: Mapping[str, Any], key: str, lang: str = "en"
) -> Any:
    for condition, template in cases.items():
        if condition == "default" or all(
            _holds(c.strip(), data, lang) for c in str(condition).split(",")
        ):
            return template
    raise MessageError(f"no case of {key!r} fits {dict(data)}")


def _holds(condition: str, data: Mapping[str, Any], lang: str = "en") -> bool:
    if "~" in condition and "=" not in condition:  # pile~one: a CLDR plural category
        field_name, _, category = condition.partition("~")
        value = data.get(field_name)
        if isinstance(value, list | dict):
            value = len(value)
        return isinstance(value, int | float) and plural_category(lang, value) == category
    field_name, _, expected = condition.partition("=")
    if field_name.startswith("#"):
        value = data.get(field_name[1:])
        return isinstance(value, (list, dict)) and str(len(value)) == expected
    value = data.get(field_name)
    if isinstance(value, bool):
        return str(value).lower() == expected.lower()
    return str(value) == expected


# --- what the command line prints ---------------------------------------------------------
_console = {"lang": "en"}


def set_console_language(lang: str | None) -> None:
    """The language of console lines and errors from here on (the game's language)."""
    if lang in ("de", "en"):
        _console["lang"] = lang


def console_language() -> str:
    return _console["lang"]


@cache
def _console_messages(lang: str) -> Messages:
    return Messages(lang, "cli", {})


def console_text(key: str, /, lang: str | None = None, **params: Any) -> str:
    """A console line or error message from ``voice/output/prompts/<lang>/cli.yaml``; a
    blank holding an error or notice is said in the same language (:func:`explain`).
    ``key`` is positional-only, so a message may have a blank called ``{key}``."""
    values = {k: _blank(v, lang) for k, v in params.items()}
    return _console_messages(lang or _console["lang"]).require(key, values)


def has_console_text(key: str, lang: str | None = None) -> bool:
    """Whether ``cli.yaml`` of the console's language has the message ``key``."""
    return _console_messages(lang or _console["lang"]).has(key)


def console_words_table(key: str, lang: str | None = None) -> dict[str, str]:
    """A table of ``cli.yaml`` (e.g. argparse's messages and their translations)."""
    value = _console_messages(lang or _console["lang"]).templates.get(key)
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def console_words(key: str, lang: str | None = None) -> list[str]:
    """A word list of ``cli.yaml`` (e.g. the answers that mean yes)."""
    value = _console_messages(lang or _console["lang"]).templates.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


# errno → the key of its reason in cli.yaml (the reasons people meet; others keep the
# system's own words)
_OS_REASONS = {
    "ENOENT": "os_not_found",
    "EACCES": "os_no_permission",
    "EPERM": "os_no_permission",
    "EISDIR": "os_is_folder",
    "ENOTDIR": "os_not_folder",
    "ENOSPC": "os_disk_full",
    "EDQUOT": "os_disk_full",
    "EROFS": "os_read_only",
    "EEXIST": "os_exists",
    "EBUSY": "os_busy",
    "EIO": "os_io",
    "ENAMETOOLONG": "os_name_too_long",
    "EMFILE": "os_too_many_files",
    "ENFILE": "os_too_many_files",
    "EADDRINUSE": "os_address_in_use",
    "EADDRNOTAVAIL": "os_address_unknown",
    "ECONNREFUSED": "os_connection_refused",
    "ENODEV": "os_no_device",
    "ENXIO": "os_no_device",
}


def os_reason(exc: BaseException | None, lang: str | None = None) -> str:
    """Why a file or device operation failed, in the console's language: the common
    errno values have their own words; an unknown one keeps the system's reason."""
    import errno as _errno
    import socket

    if exc is None:
        return ""
    if isinstance(exc, socket.gaierror):  # a host name that cannot be looked up
        return console_text("os_no_host", lang)
    if isinstance(exc, TimeoutError | socket.timeout):
        return console_text("os_timeout", lang)
    number = getattr(exc, "errno", None)
    key = _OS_REASONS.get(_errno.errorcode.get(number, "")) if isinstance(number, int) else None
    if key is not None and has_console_text(key, lang):
        return console_text(key, lang)
    return str(getattr(exc, "strerror", None) or exc)


def explain(problem: Any, lang: str | None = None) -> str:
    """A problem in the console's language: an error, notice or reason with a message key
    in ``cli.yaml`` (its blanks explained too), an OS error by its errno, else its text."""
    if isinstance(problem, FarbspielError) and "text" in problem.params:
        return str(problem.params["text"])
    if _keyed(problem):
        text = _said(problem, lang)
        if text is not None:
            return text
        raw = getattr(problem, "raw", None)
        return raw() if callable(raw) else f"{problem.key} {dict(problem.params)}"
    if isinstance(problem, OSError):
        return os_reason(problem, lang)
    return str(problem)


def _keyed(value: Any) -> bool:
    """An error, notice or reason: something with a message key and its blanks."""
    return (
        not isinstance(value, str | dict)
        and isinstance(getattr(value, "key", None), str)
        and isinstance(getattr(value, "params", None), Mapping)
    )


def _blank(value: Any, lang: str | None) -> Any:
    if isinstance(value, BaseException) or _keyed(value):
        return explain(value, lang)
    if isinstance(value, list) and any(isinstance(v, BaseException) or _keyed(v) for v in value):
        return [explain(v, lang) for v in value]
    return value


def _said(problem: Any, lang: str | None = None) -> str | None:
    """An error's or notice's message in the console's language; ``None`` if its key has
    no message (or the message lacks a blank the error does not carry)."""
    messages = _console_messages(lang or _console["lang"])
    if not messages.has(problem.key):
        return None
    values = {k: _blank(v, lang) for k, v in problem.params.items()}
    try:
        return messages.require(problem.key, values)
    except MessageError:
        return None


FarbspielError.renderer = _said  # errors raised below this room say themselves here
