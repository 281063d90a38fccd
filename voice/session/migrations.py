"""Upgrades of older save formats, one version step at a time (see
:mod:`voice.session.journal` for the format itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.engine import Action, Game, GameError, SaveUpgrade, Setup, replay
from games.errors import FarbspielError
from voice.output.messages import console_text
from voice.session.adapters import ADAPTERS

VERSION = 3
"""The save format this farbspiel writes.

Format 2 journals decisions, not what they were decided from: a Pantone guess carries the
card it was judged to name (``{"text": "mickey", "card": 2}``, ``"card": null`` for a name
that is no card of the deck), so a better name matcher never changes a saved game.

Format 3 keeps timers one way in every game: a timer action names the clock it ends by
the game's state (Pantone: ``{"clock": "guess", "turn": "1.0", "round": 0, "side":
"Ben"}``) instead of a running number (``{"id": "guess-5"}``)."""

Record = dict[str, Any]


class MigrationError(FarbspielError):
    """An old save that no upgrade reaches, or one that cannot be upgraded (the message
    says which, in the save's language where it is known)."""


Migration = Callable[[Record, list[Record]], tuple[Record, list[Record]]]


def _replay(
    engine: type[Game], header: Record, records: list[Record], change: SaveUpgrade
) -> list[Record]:
    """Walk a journal through its game: ``change(game, action)`` gives the action to write
    and the one to apply now (they differ where an old form is kept on disk but the
    engine of today needs the new one)."""
    setup = Setup.from_json(header.get("setup", {}))
    actions: list[Action] = []
    game = replay(engine(setup), [])
    upgraded: list[Record] = []
    try:
        for record in records:
            if isinstance(record.get("action"), dict):
                written, applied = change(game, Action.from_json(record["action"]))
                if written.to_json() != record["action"]:
                    record = {**record, "action": written.to_json()}
                game.apply(applied)
                actions.append(applied)
            elif type(record.get("undo")) is int and 1 <= record["undo"] <= len(actions):
                del actions[-record["undo"] :]
                game = replay(engine(setup), actions)
            upgraded.append(record)
    except GameError as exc:
        raise ValueError(f"a move cannot be replayed ({exc})") from None
    return upgraded


def _moves_upgrade(version: int) -> Migration:
    """Format ``version`` → ``version + 1``: each game's moves as its engine says
    (:attr:`games.engine.Game.save_upgrades`); a game without an upgrade keeps them."""

    def upgrade(header: Record, records: list[Record]) -> tuple[Record, list[Record]]:
        adapter = ADAPTERS.get(str(header.get("game")))
        change = adapter.engine.save_upgrades.get(version) if adapter is not None else None
        if adapter is None or change is None:
            return header, records
        return header, _replay(adapter.engine, header, records, change)

    return upgrade


MIGRATIONS: dict[int, Migration] = {v: _moves_upgrade(v) for v in range(1, VERSION)}
"""Upgrades of older save formats: ``MIGRATIONS[v](header, records)`` turns a version-``v``
journal (header line and the other lines, as plain JSON data) into version ``v + 1``.

When the format changes: raise :data:`VERSION`, add the step from the previous version
here, and test it with a real file of the old format (``tests/data/saves/format-N-*.jsonl``).
"""


def upgrade(
    version: int, header: Record, records: list[Record], path: Path
) -> tuple[Record, list[Record]]:
    """Bring a journal of an older format up to :data:`VERSION`, step by step."""
    oldest = VERSION
    while oldest - 1 in MIGRATIONS:
        oldest -= 1
    if version < oldest:
        raise MigrationError(
            console_text("save_too_old", path=path, version=version, oldest=oldest, ours=VERSION)
        )
    for step in range(version, VERSION):
        try:
            header, records = MIGRATIONS[step](dict(header), [dict(r) for r in records])
        except (KeyError, TypeError, ValueError):
            lang = header.get("lang") if header.get("lang") in ("de", "en") else None
            raise MigrationError(
                console_text("save_cannot_upgrade", lang, path=path, version=version)
            ) from None
        header = {**header, "version": step + 1}
    return header, records
