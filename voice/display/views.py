# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view of each game as HTML: what the table sees, in large print.

Rendering only reads public state: the Pantone Artist's character, face-down colour cards
(Alle meine Farben profi before the reveal, Farben stacks before they are turned over)
and private messages never reach these functions' output. Every colour is written as a
word and carries a pattern and a letter besides its colour.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from games.data import load as load_data
from voice.display.state import TableState
from voice.output.messages import Messages, colour_term

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
    renderer = {"alle-meine-farben": _amf, "farben": _farben, "pantone": _pantone}[
        state.header.game
    ]
    title, main, news = renderer(state, lang)
    if state.paused and not state.game.is_over():
        text = word(lang, "paused")
        main = f'<p class="huge paused" role="status">{esc(text)}</p>' + main
        news = f"{text} {news}"
    if state.waiting:
        main = f'<p class="waiting">{esc(word(lang, "waiting"))}</p>' + main
    return View(title, main, news, lang)


def _colour(lang: str, colour_id: str) -> str:
    """A colour as swatch (colour + pattern + letter) and as a written word."""
    name = str(colour_term(lang)(colour_id))
    css, pattern = SWATCHES.get(colour_id, ("#777777", "p-plain"))
    letter = name[:2].upper() if colour_id in ("blue", "brown", "black") else name[:1].upper()
    return (
        f'<span class="colour"><span class="swatch {pattern}" style="background:{css}"'
        f' aria-hidden="true"><span class="letter">{esc(letter)}</span></span>'
        f' <span class="cname">{esc(name)}</span></span>'
    )


def _scores(lang: str, scores: Mapping[str, int], label: str = "points") -> str:
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


def _over(lang: str, result: Mapping[str, Any]) -> str:
    winners = result.get("winners")
    text = esc(word(lang, "over"))
    if winners:
        text += f" {esc(word(lang, 'winners'))}: {esc(', '.join(winners))}."
    return f'<p class="big over">{text}</p>'


def _countdown(label: str, seconds: float, unit: str) -> str:
    left = max(0, round(seconds))
    return (
        f'<div class="countdown"><span class="clabel">{esc(label)}</span> '
        f'<span class="count" role="timer" aria-live="off" data-left="{left}">{left}</span> '
        f'<span class="unit">{esc(unit)}</span></div>'
    )


def _timer_left(state: TableState, timer_id: str) -> float | None:
    armed = state.timers.get(timer_id)
    if armed is None:
        return None
    seconds, since = armed
    now = state.paused_at if state.paused_at is not None else time.time()
    return max(0.0, seconds - (now - since))


# --- Alle meine Farben ------------------------------------------------------------------
def _amf(state: TableState, lang: str) -> tuple[str, str, str]:
    from games.alle_meine_farben import COLUMNS, ROWS

    game: Any = state.game
    objects = load_data("alle_meine_farben")["objects"]
    names = [o[lang] for o in objects]
    over = game.stage == "over"
    parts = [f"<h1>{esc(word(lang, 'amf'))}</h1>"]
    variant = word(lang, "profi" if game.profi else "basic")
    coloured = len(game.board)
    parts.append(
        f'<p class="sub">{esc(variant)} · {esc(word(lang, "coloured", count=coloured))} · '
        f"{esc(word(lang, 'pile', count=game.pile))}</p>"
    )
    news = ""
    if game.stage == "play":
        current = word(lang, "current", number=game.number, object=names[game.number - 1])
        news = f"{current}. {word(lang, 'turn')}: {game.turn}"
        parts.append(
            f'<p class="big now">{esc(current)}</p>'
            f'<p class="big turn">{esc(word(lang, "turn"))}: <strong>{esc(game.turn)}</strong></p>'
        )
    elif over:
        parts.append(_over(lang, game.result()))
        news = word(lang, "over")
    cells = []
    for row in range(1, ROWS + 1):
        row_cells = []
        for column in range(1, COLUMNS + 1):
            number = (row - 1) * COLUMNS + column
            card = game.board.get(number)
            classes = ["cell"]
            if game.stage == "play" and number == game.number:
                classes.append("current")
            if card is None:
                content = f'<span class="state">{esc(word(lang, "free"))}</span>'
            elif not card.revealed:
                classes.append("down")
                content = f'<span class="state facedown">{esc(word(lang, "face_down"))}</span>'
            else:
                content = _colour(lang, card.colour)
            where = f"{word(lang, 'row', row=row)}, {word(lang, 'column', column=column)}"
            current = ' aria-current="true"' if "current" in classes else ""
            row_cells.append(
                f'<li class="{" ".join(classes)}"{current}><span class="no">{number}</span> '
                f'<span class="obj">{esc(names[number - 1])}</span> {content}'
                f'<span class="where">{esc(where)}</span></li>'
            )
        label = esc(word(lang, "row", row=row))
        cells.append(
            f'<li class="row"><h3 class="rowname">{label}</h3>'
            f'<ol class="cells" aria-label="{label}">{"".join(row_cells)}</ol></li>'
        )
    parts.append(
        f'<section aria-labelledby="h-grid"><h2 id="h-grid">{esc(word(lang, "grid"))}</h2>'
        f'<ol class="grid">{"".join(cells)}</ol></section>'
    )
    if game.profi:
        parts.append(_scores(lang, game.penalties, "penalties"))
    return word(lang, "amf"), "".join(parts), news


# --- Farben -----------------------------------------------------------------------------
def _farben(state: TableState, lang: str) -> tuple[str, str, str]:
    from games.farben import ROUNDS

    game: Any = state.game
    parts = [f"<h1>{esc(word(lang, 'farben'))}</h1>"]
    phase = game.stage
    news = ""
    if phase in ("side", "choosing", "reveal", "story"):
        round_text = word(lang, "round", round=game.round + 1, rounds=ROUNDS)
        card = game.cards[game.round]
        parts.append(f'<p class="sub">{esc(round_text)}</p>')
        parts.append(
            f'<p class="big">{esc(word(lang, "word_card"))}: '
            f"<strong>{esc(card[0])}</strong> / <strong>{esc(card[1])}</strong></p>"
        )
        news = round_text
        if game.word is not None:
            parts.append(
                f'<p class="huge">{esc(word(lang, "chosen_word"))}: '
                f"<strong>{esc(game.word)}</strong></p>"
            )
            news += f". {word(lang, 'chosen_word')}: {game.word}"
        else:
            parts.append(
                f'<p class="big turn">{esc(word(lang, "turn"))}: '
                f"<strong>{esc(game.starter)}</strong></p>"
            )
        if phase in ("reveal", "story"):
            teller = game.teller
            parts.append(
                f'<p class="big turn">{esc(word(lang, "teller"))}: <strong>{esc(teller)}</strong></p>'
            )
            news += f". {word(lang, 'teller')}: {teller}"
            if phase == "story":  # the teller holds the card up now: the table sees it
                colour = game.stacks[-1].colours.get(teller)
                if colour:
                    shown = word(lang, "shows", player=teller, colour="§")
                    before, _, after = esc(shown).partition("§")
                    parts.append(f'<p class="big">{before}{_colour(lang, colour)}{after}</p>')
        done = game.stacks[:-1] if game.word is not None else game.stacks
        if done:
            items = "".join(
                f"<li>{esc(s.word)} · {esc(word(lang, 'cards_on_stack', count=len(s.colours)))}</li>"
                for s in done
            )
            parts.append(
                f'<section aria-labelledby="h-done"><h2 id="h-done">{esc(word(lang, "stacks_done"))}'
                f'</h2><ul class="stacks">{items}</ul></section>'
            )
    elif phase in ("choose_stack", "naming"):
        parts.append(f'<p class="sub">{esc(word(lang, "scoring"))}</p>')
        namer = game.namer
        parts.append(f'<p class="big turn">{esc(word(lang, "namer", player=namer))}</p>')
        news = word(lang, "namer", player=namer)
        if game.stack is not None:
            parts.append(
                f'<p class="huge">{esc(word(lang, "scoring_stack", word=game.stack.word))}</p>'
            )
            news += ". " + word(lang, "scoring_stack", word=game.stack.word)
            parts.append(_stack_cards(lang, game.stack))
        else:
            parts.append(f'<p class="big">{esc(word(lang, "no_stack_yet"))}</p>')
        done = [s for s in game.stacks if s.scored_by is not None and s is not game.stack]
        waiting = [s for s in game.stacks if s.scored_by is None and s is not game.stack]
        for key, stacks in (("stacks_done", done), ("stacks_waiting", waiting)):
            if stacks:
                items = "".join(f"<li>{esc(s.word)}{_revealed_list(lang, s)}</li>" for s in stacks)
                parts.append(
                    f'<section aria-labelledby="h-{key}"><h2 id="h-{key}">{esc(word(lang, key))}'
                    f'</h2><ul class="stacks">{items}</ul></section>'
                )
    elif phase == "over":
        parts.append(_over(lang, game.result()))
        news = word(lang, "over")
    parts.append(_scores(lang, game.scores))
    return word(lang, "farben"), "".join(parts), news


def _stack_cards(lang: str, stack: Any) -> str:
    items = []
    for player in stack.colours:
        if player in stack.revealed:
            items.append(f"<li>{esc(player)}: {_colour(lang, stack.colours[player])}</li>")
        else:
            items.append(
                f'<li>{esc(player)}: <span class="facedown">{esc(word(lang, "face_down"))}</span></li>'
            )
    return f'<ul class="stackcards">{"".join(items)}</ul>'


def _revealed_list(lang: str, stack: Any) -> str:
    shown = [p for p in stack.colours if p in stack.revealed]
    if not shown:
        return ""
    return ": " + ", ".join(f"{esc(p)} {_colour(lang, stack.colours[p])}" for p in shown)


# --- Pantone ------------------------------------------------------------------------------
def _pantone(state: TableState, lang: str) -> tuple[str, str, str]:
    from games.pantone import HINTS

    game: Any = state.game
    terms = Messages(lang, "pantone", _pantone_terms(lang))
    parts = [f"<h1>{esc(word(lang, 'pantone'))}</h1>"]
    stage = game.stage
    stage_text = word(lang, f"stage.{stage}")
    news = stage_text
    if stage == "over":
        parts.append(_over(lang, game.result()))
    elif stage != "choose_first":
        rule = format(terms.term("rule", game.rule()), "short")
        phase = word(lang, "phase", phase=game.phase)
        parts.append(f'<p class="sub">{esc(phase)}: {esc(rule)}</p>')
        parts.append(
            f'<p class="big">{esc(word(lang, "artist"))}: <strong>{esc(game.artist)}</strong></p>'
        )
        parts.append(f'<p class="big stage">{esc(stage_text)}</p>')
        news = f"{phase}. {word(lang, 'artist')}: {game.artist}. {stage_text}"
        unit = word(lang, "seconds")
        for clock in game.timers():
            left = _timer_left(state, clock.id)
            if left is not None:
                if stage == "create":
                    parts.append(_countdown(word(lang, "creating"), left + clock.then, unit))
                elif stage == "guess":
                    parts.append(_countdown(word(lang, "guess_window"), left, unit))
        if stage in ("guess", "verdict", "hint") and game.queue:
            order = game.queue
            guesser = order[0] if stage in ("guess", "verdict") else None
            if guesser:
                parts.append(
                    f'<p class="huge turn">{esc(word(lang, "guesser"))}: '
                    f"<strong>{esc(guesser)}</strong></p>"
                )
                news += f". {word(lang, 'guesser')}: {guesser}"
            items = "".join(
                f"<li{' aria-current=true class=current' if p == guesser else ''}>{esc(p)}</li>"
                for p in order
            )
            parts.append(
                f'<section aria-labelledby="h-order"><h2 id="h-order">{esc(word(lang, "guess_order"))}'
                f'</h2><ol class="order">{items}</ol></section>'
            )
        if stage in ("create", "guess", "hint", "verdict"):
            hints = []
            if game.card is not None and stage != "create":
                hints = game.deck[game.card - 1].hints[: min(game.round, HINTS)]
            listed = (
                "".join(f"<li>{esc(h)}</li>" for h in hints)
                if hints
                else f"<li>{esc(word(lang, 'no_hints'))}</li>"
            )
            parts.append(
                f'<section aria-labelledby="h-hints"><h2 id="h-hints">{esc(word(lang, "hints_read"))}'
                f'</h2><ol class="hints">{listed}</ol></section>'
            )
            board = game.board
            if board:
                items = "".join(f"<li>{_board_item(terms, lang, i)}</li>" for i in board)
            else:
                items = f"<li>{esc(word(lang, 'board_unknown'))}</li>"
            parts.append(
                f'<section aria-labelledby="h-board"><h2 id="h-board">{esc(word(lang, "board"))}'
                f'</h2><ul class="board">{items}</ul></section>'
            )
    if game.teams:
        teams = "".join(
            f"<li><strong>{esc(t)}</strong>: {esc(', '.join(m))}</li>"
            for t, m in game.teams.items()
        )
        parts.append(
            f'<section aria-labelledby="h-teams"><h2 id="h-teams">{esc(word(lang, "teams"))}</h2>'
            f"<ul>{teams}</ul></section>"
        )
    parts.append(_scores(lang, game.scores))
    return word(lang, "pantone"), "".join(parts), news


def _pantone_terms(lang: str) -> Mapping[str, Any]:
    from voice.session.adapters import ADAPTERS

    return ADAPTERS["pantone"].terms(lang)


def _board_item(terms: Messages, lang: str, item: Mapping[str, Any]) -> str:
    place = str(terms.term("place", item.get("place", "none")))
    count = int(item.get("count", 1))
    how_many = f"{count} × " if count > 1 else ""
    return f"{esc(how_many)}{_colour(lang, str(item.get('colour')))} {esc(place)}"
