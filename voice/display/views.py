# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view as HTML: what the table sees, in large print.

Each game's own part of the page is drawn, with the helpers here, by the module its
adapter names (``GameAdapter.table_view``, e.g. :mod:`voice.display.views_pantone`).
Rendering only reads public state: the Pantone Artist's character, face-down colour
cards (Alle meine Farben profi before the reveal, Farben stacks before they are turned
over) and private messages never reach its output. Every colour is written as a word
and carries a pattern and a letter besides its colour.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from typing import Any

import yaml

from voice.display.state import TableState
from voice.output.messages import Messages, colour_term
from voice.session.adapters import ADAPTERS

SWATCHES: dict[str, tuple[str, str]] = {
    # colour id → (CSS colour, pattern class); the pattern tells colours apart without hue
    "red": ("#d0021b", "p-stripes"),
    "yellow": ("#ffd500", "p-dots"),
    "green": ("#1f8f3a", "p-grid"),
    "blue": ("#1a56db", "p-waves"),
    "orange": ("#f27d0c", "p-diag"),
    "pink": ("#f48fb1", "p-checks"),
    "purple": ("#7b2cbf", "p-cross"),
    "white": ("#ffffff", "p-plain"),
    "black": ("#000000", "p-plain"),
    "grey": ("#8a8a8a", "p-hatch"),
    "brown": ("#7a4a1e", "p-vertical"),
    "multicoloured": (
        "conic-gradient(#d0021b, #ffd500, #1f8f3a, #1a56db, #7b2cbf, #d0021b)",
        "p-plain",
    ),
}


@cache
def page_words(lang: str) -> Mapping[str, Any]:
    path = resources.files("voice.output").joinpath("prompts", lang, "display.yaml")
    words: Mapping[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))["_page"]
    return words


def word(lang: str, key: str, **params: Any) -> str:
    value: Any = page_words(lang)
    for part in key.split("."):
        value = value[part]
    return str(value).format(**params)


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


GameView = Callable[[TableState, str], tuple[str, str, str]]
"""A game's table view: from the state and the page's language, the page's title, its
main content (HTML) and a one-line summary for the live region."""


@dataclass
class View:
    """One rendering: the main content, a one-line summary for the live region."""

    title: str
    main: str
    news: str
    lang: str


def render(state: TableState) -> View:
    """The table view of ``state`` (any game, or the waiting page)."""
    if state.header is None or state.game is None:
        lang = "en"
        text = word(lang, "unreadable")
        return View(word(lang, "title"), f'<p class="waiting">{esc(text)}</p>', text, lang)
    lang = state.header.lang
    title, main, news = game_view(state.header.game)(state, lang)
    main = main.replace("</h1>", "</h1>" + last_told(state, lang), 1)
    if state.paused and not state.game.is_over():
        text = word(lang, "paused")
        main = f'<p class="huge paused" role="status">{esc(text)}</p>' + main
        news = f"{text} {news}"
    if state.waiting:
        main = f'<p class="waiting">{esc(word(lang, "waiting"))}</p>' + main
    return View(title, main, news, lang)


def last_told(state: TableState, lang: str) -> str:
    """What the table heard after the last move (who guessed what, points), as said."""
    if state.header is None or not state.last:
        return ""
    game_id = state.header.game
    messages = Messages(lang, game_id, ADAPTERS[game_id].terms(lang))
    texts = [t for e in state.last if (t := messages.render(e.type, e.data))]
    if not texts:
        return ""
    return (
        f'<section class="last" aria-labelledby="h-last"><h2 id="h-last">'
        f'{esc(word(lang, "last"))}</h2><p class="big">{esc(" ".join(texts))}</p></section>'
    )


def game_view(game_id: str) -> GameView:
    """The table view of a game: the ``render`` function of the module its adapter names
    (``GameAdapter.table_view``)."""
    view: GameView = import_module(ADAPTERS[game_id].table_view).render
    return view


def swatch(lang: str, colour_id: str) -> str:
    """A colour as swatch (colour + pattern + letter) and as a written word."""
    name = str(colour_term(lang)(colour_id))
    css, pattern = SWATCHES.get(colour_id, ("#777777", "p-plain"))
    letter = swatch_letter(lang, colour_id)
    return (
        f'<span class="colour"><span class="swatch {pattern}" style="background:{css}"'
        f' aria-hidden="true"><span class="letter">{esc(letter)}</span></span>'
        f' <span class="cname">{esc(name)}</span></span>'
    )


def swatch_letter(lang: str, colour_id: str) -> str:
    """The letter(s) on a colour's swatch: each colour has its own in each language (the
    page's ``letters``); an unknown colour gets its name's first letter."""
    letters: Mapping[str, str] = page_words(lang).get("letters", {})
    return str(letters.get(colour_id) or str(colour_term(lang)(colour_id))[:1].upper())


def score_table(lang: str, scores: Mapping[str, int], label: str = "points") -> str:
    rows = "".join(
        f"<tr><th scope=row>{esc(p)}</th><td class=num>{esc(s)}</td></tr>"
        for p, s in scores.items()
    )
    return (
        f'<section aria-labelledby="h-score"><h2 id="h-score">{esc(word(lang, "score"))}</h2>'
        f'<table class="scores"><thead><tr><th scope=col>{esc(word(lang, "players"))}</th>'
        f"<th scope=col>{esc(word(lang, label))}</th></tr></thead><tbody>{rows}</tbody></table>"
        "</section>"
    )


def game_over(lang: str, result: Mapping[str, Any]) -> str:
    winners = result.get("winners")
    text = esc(word(lang, "over"))
    if winners:
        text += f" {esc(word(lang, 'winners'))}: {esc(', '.join(winners))}."
    return f'<p class="banner over" role="alert">{text}</p>'


def countdown(label: str, seconds: float, unit: str, running: bool = True) -> str:
    """A clock the page counts down by itself, unless it stands still (``running`` False:
    the table paused the game), marked ``data-paused`` for the page's script."""
    left = max(0, round(seconds))
    still = "" if running else ' data-paused="true"'
    return (
        f'<div class="countdown"><span class="clabel">{esc(label)}</span> '
        f'<span class="count" role="timer" aria-live="off" data-left="{left}"{still}>{left}</span> '
        f'<span class="unit">{esc(unit)}</span></div>'
    )


def timer_left(state: TableState, timer_id: str) -> float | None:
    armed = state.timers.get(timer_id)
    if armed is None:
        return None
    seconds, since = armed
    now = state.paused_at if state.paused_at is not None else time.time()
    return max(0.0, seconds - (now - since))
