"""The household, remembered between games set up by talking: who plays, the language,
the speech rate, the options each game was played with, the assistant's name and the
last set-up ("wie letztes Mal"). One JSON file in the user's data folder
(``household.json``); nothing of it is needed to play from the command line.

A file that cannot be read as a household is never overwritten: it is kept beside as
``household.json.damaged`` and the problem is said once (:class:`HouseholdDamaged`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice.paths import data_dir
from voice.setup.dialogue import Plan

MAX_REMEMBERED = 12
"""Players remembered at most (the most recent first)."""


def household_file() -> Path:
    return data_dir() / "household.json"


@dataclass
class Household:
    players: list[str] = field(default_factory=list)
    lang: str | None = None
    rate: int | None = None
    assistant: str | None = None
    options: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> flag -> value
    last: Plan | None = None

    def remember(self, plan: Plan, rate: int | None) -> None:
        """After a game was set up and started: keep what it was."""
        known = [p for p in self.players if p.lower() not in {q.lower() for q in plan.players}]
        self.players = [*plan.players, *known][:MAX_REMEMBERED]
        self.lang = plan.lang
        self.rate = rate if rate is not None else self.rate
        if plan.game is not None:
            self.options[plan.game] = {k: v for k, v in plan.options.items() if k != "--teams"}
        self.assistant = plan.options.get("--assistant", self.assistant)
        self.last = plan

    def to_json(self) -> dict[str, Any]:
        last = self.last
        return {
            "format": 1,
            "players": self.players,
            "lang": self.lang,
            "rate": self.rate,
            "assistant": self.assistant,
            "options": self.options,
            "last": None
            if last is None
            else {
                "game": last.game,
                "lang": last.lang,
                "players": list(last.players),
                "options": last.options,
            },
        }


class HouseholdDamaged(Exception):
    """The household file could not be read; ``kept``: where it was put aside."""

    def __init__(self, path: Path, kept: Path | None, reason: str) -> None:
        super().__init__(reason)
        self.path, self.kept, self.reason = path, kept, reason


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("a list of names was expected")
    return value


def _parse(data: Any) -> Household:
    if not isinstance(data, dict) or data.get("format") != 1:
        raise ValueError("not a farbspiel household (format 1)")
    options = data.get("options") or {}
    if not isinstance(options, dict) or not all(
        isinstance(o, dict) and all(isinstance(v, str) for v in o.values())
        for o in options.values()
    ):
        raise ValueError("options must map each game to its settings")
    last = data.get("last")
    plan = None
    if last is not None:
        if not isinstance(last, dict) or last.get("lang") not in ("de", "en"):
            raise ValueError("the last game is not readable")
        plan = Plan(
            str(last["lang"]),
            str(last["game"]),
            tuple(_strings(last.get("players"))),
            {str(k): str(v) for k, v in (last.get("options") or {}).items()},
        )
    rate = data.get("rate")
    if rate is not None and not isinstance(rate, int):
        raise ValueError("the speech rate must be a whole number")
    lang = data.get("lang")
    assistant = data.get("assistant")
    return Household(
        players=_strings(data.get("players") or []),
        lang=lang if lang in ("de", "en") else None,
        rate=rate,
        assistant=assistant if isinstance(assistant, str) else None,
        options=options,
        last=plan,
    )


def load_household(path: Path | None = None) -> Household:
    """The household; a new one if there is none yet. A damaged file is put aside
    (``.damaged``, never overwritten) and :class:`HouseholdDamaged` says so."""
    path = path or household_file()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Household()
    except (OSError, UnicodeDecodeError) as exc:
        raise HouseholdDamaged(path, None, str(exc)) from None
    try:
        return _parse(json.loads(text))
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        kept: Path | None = path.with_name(path.name + ".damaged")
        try:
            if kept is not None and not kept.exists():
                os.replace(path, kept)
            else:  # an older damaged copy is kept too: this one gets a number
                kept = next(
                    p
                    for n in range(2, 1000)
                    if not (p := path.with_name(f"{path.name}.damaged{n}")).exists()
                )
                os.replace(path, kept)
        except (OSError, StopIteration):
            kept = None
        raise HouseholdDamaged(path, kept, str(exc)) from None


def save_household(household: Household, path: Path | None = None) -> bool:
    """Store the household (atomically); False if that is not possible now."""
    path = path or household_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(household.to_json(), ensure_ascii=False, indent=1), "utf-8")
        os.replace(tmp, path)
    except OSError:
        return False
    return True
