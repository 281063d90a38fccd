# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""Private pages: what only one player may see (the Pantone Artist's cards), on their own
phone.

No private link exists. Each phone opens the table's public address and claims its
player once ("I am Anna"); the claim sets a random device token (a cookie, 128 bits) in
that browser and keeps only the token's hash in the phones file beside the save file
(``<save>.phones.json``, readable only by its owner). From then on ``/me`` shows that
player's private page to that device alone; a second device claiming the same player is
refused until the claim is undone (by voice: "disconnect Anna's phone"). A new game and a
``resume`` start with no claims, unless the table keeps its phones (``--keep-phones``).
"""

from __future__ import annotations

from voice.display.state import TableState
from voice.display.views import View, esc, word
from voice.output.messages import Messages
from voice.session.adapters import ADAPTERS
from voice.session.phones import (
    load_claims,
    phones_file,
    player_of,
    release,
    start_phones,
)

__all__ = [
    "load_claims",
    "phones_file",
    "player_of",
    "release",
    "render_phones",
    "render_private",
    "start_phones",
]

SHOWN = 6
"""How many private messages a page shows (newest first)."""


def render_private(state: TableState, player: str) -> View:
    """The private page of ``player``."""
    if state.header is None:
        text = word("en", "unreadable")
        return View(word("en", "title"), f'<p class="waiting">{esc(text)}</p>', text, "en")
    lang, game_id = state.header.lang, state.header.game
    adapter = ADAPTERS[game_id]
    messages = Messages(lang, game_id, adapter.terms(lang))
    title = word(lang, "private_title", player=player)
    events = state.private.get(player, [])[-SHOWN:][::-1]
    texts = [t for e in events if (t := messages.render(e.type, e.data))]
    parts = [f"<h1>{esc(title)}</h1>", f'<p class="sub">{esc(word(lang, "private_intro"))}</p>']
    if texts:
        first, rest = texts[0], texts[1:]
        parts.append(f'<p class="huge secret">{esc(first)}</p>')
        if rest:
            items = "".join(f"<li>{esc(t)}</li>" for t in rest)
            parts.append(
                f'<section aria-labelledby="h-old"><h2 id="h-old">{esc(word(lang, "private_newest"))}'
                f"</h2><ul>{items}</ul></section>"
            )
        news = first
    else:
        news = word(lang, "private_nothing")
        parts.append(f'<p class="big">{esc(news)}</p>')
    return View(title, "".join(parts), news, lang)


def render_phones(state: TableState, claims: dict[str, str], mine: str | None) -> str:
    """The table page's part for the phones: "I am Anna" for each unclaimed player (a
    form: it takes the claim), "connected" for the others, and for a device that has
    claimed, the way to its own page. Nothing secret: it is the same on every screen but
    for the device's own line."""
    if state.header is None:
        return ""
    lang = state.header.lang
    rows = []
    for player in state.header.setup.players:
        if player == mine:
            rows.append(
                f'<li><a class="button" href="/me">{esc(word(lang, "phones_mine", player=player))}</a></li>'
            )
        elif player in claims or mine is not None:
            if player not in claims:  # (this phone is someone else's: nothing to pick)
                rows.append(f"<li>{esc(player)}</li>")
                continue
            rows.append(f"<li>{esc(word(lang, 'phones_taken', player=player))}</li>")
        else:
            rows.append(
                f'<li><form method="post" action="/claim"><button name="player" value="{esc(player)}">'
                f"{esc(word(lang, 'phones_claim', player=player))}</button></form></li>"
            )
    return (
        f'<section id="phones" class="phones" aria-labelledby="h-phones"><h2 id="h-phones">'
        f"{esc(word(lang, 'phones_title'))}</h2><p>{esc(word(lang, 'phones_intro'))}</p>"
        f"<ul>{''.join(rows)}</ul></section>"
    )
