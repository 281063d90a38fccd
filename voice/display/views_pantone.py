# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view of Pantone: the phase and its rule, the Artist, the clocks, who guesses
in which order, the hints read and the board (never the Artist's character)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.pantone import HINTS
from voice.display.state import TableState
from voice.display.views import countdown, esc, game_over, score_table, swatch, timer_left, word
from voice.output.messages import Messages
from voice.session.adapters import ADAPTERS


def render(state: TableState, lang: str) -> tuple[str, str, str]:
    """The title, the main content and the live region's summary (see ``GameView``)."""
    game: Any = state.game
    terms = Messages(lang, "pantone", _pantone_terms(lang))
    parts = [f"<h1>{esc(word(lang, 'pantone'))}</h1>"]
    stage = game.stage
    stage_text = word(lang, f"stage.{stage}")
    news = stage_text
    if stage == "over":
        parts.append(game_over(lang, game.result()))
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
        running = not state.paused
        for clock in game.timers():
            left = timer_left(state, clock.id)
            if left is not None:
                if stage == "create":
                    parts.append(
                        countdown(word(lang, "creating"), left + clock.then, unit, running)
                    )
                elif stage == "guess":
                    parts.append(countdown(word(lang, "guess_window"), left, unit, running))
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
    parts.append(score_table(lang, game.scores))
    return word(lang, "pantone"), "".join(parts), news


def _pantone_terms(lang: str) -> Mapping[str, Any]:
    return ADAPTERS["pantone"].terms(lang)


def _board_item(terms: Messages, lang: str, item: Mapping[str, Any]) -> str:
    place = str(terms.term("place", item.get("place", "none")))
    count = int(item.get("count", 1))
    how_many = f"{count} × " if count > 1 else ""
    return f"{esc(how_many)}{swatch(lang, str(item.get('colour')))} {esc(place)}"
