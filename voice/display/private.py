# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""Private pages: what only one player may see (the Pantone Artist's cards), on their own
phone.

Each player gets an unguessable link (``/p/<token>``, 128 random bits) kept in a file
beside the save file (``<save>.links.json``, readable only by its owner), so the links
stay the same after a crash, a resume or a restart of ``farbspiel display``. The page
shows the private messages the game has for that player, newest first, in the game's
language; the table view never shows them.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from voice.display.state import TableState
from voice.display.views import View, esc, word
from voice.output.messages import Messages
from voice.session.adapters import ADAPTERS

SHOWN = 6
"""How many private messages a page shows (newest first)."""


def links_file(save: Path) -> Path:
    return Path(save).with_name(Path(save).name + ".links.json")


def load_tokens(save: Path) -> dict[str, str]:
    """player → token, from the links file beside ``save`` (empty if there is none)."""
    try:
        data = json.loads(links_file(save).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, str) and len(v) >= 16}


def ensure_tokens(save: Path, players: Iterable[str]) -> dict[str, str]:
    """The players' tokens, making (and saving) those that are missing."""
    tokens = load_tokens(save)
    missing = [p for p in players if p not in tokens]
    if not missing:
        return tokens
    for player in missing:
        tokens[player] = secrets.token_urlsafe(16)
    path = links_file(save)
    tmp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(OSError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(tokens, out, ensure_ascii=False)
    tmp.replace(path)
    return tokens


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
