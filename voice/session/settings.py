"""Per-user settings kept between games (speech rate, the game saved last)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from voice.errors import CliError
from voice.output.messages import console_text
from voice.paths import config_file, data_dir


def load_settings() -> dict[str, Any]:
    """The saved settings; a missing or unreadable file gives the defaults."""
    try:
        data = json.loads(config_file().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> bool:
    """Store settings; returns False (and changes nothing) if that is not possible."""
    path = config_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings, indent=2), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return False
    return True


def remember_save(path: Path) -> None:
    """Note ``path`` as the game to resume when ``resume`` names none."""
    settings = load_settings()
    settings["last_save"] = str(Path(path).resolve())
    save_settings(settings)


def last_save() -> Path:
    """The game saved last (the noted one, else the newest save file)."""
    last = load_settings().get("last_save")
    with contextlib.suppress(ValueError):  # a NUL in a hand-edited settings file
        if isinstance(last, str) and Path(last).is_file():
            return Path(last)
    saves = sorted((data_dir() / "saves").glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    if not saves:
        raise CliError(console_text("no_saved_game"))
    return saves[-1]
