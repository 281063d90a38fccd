# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view of Alle meine Farben: the grid of numbered objects, each free, face down
(profi, before the reveal) or showing its colour, whose turn it is and the penalties."""

from __future__ import annotations

from typing import Any

from games.alle_meine_farben import COLUMNS, ROWS
from games.data import load as load_data
from voice.display.state import TableState
from voice.display.views import esc, game_over, score_table, swatch, word


def render(state: TableState, lang: str) -> tuple[str, str, str]:
    """The title, the main content and the live region's summary (see ``GameView``)."""
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
        parts.append(game_over(lang, game.result()))
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
                content = swatch(lang, card.colour)
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
        parts.append(score_table(lang, game.penalties, "penalties"))
    return word(lang, "amf"), "".join(parts), news
