"""Per-user settings kept between games (speech rate)."""

from __future__ import annotations

import json
from typing import Any

from voice.paths import config_file


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
