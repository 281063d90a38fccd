"""Per-user settings kept between games (speech rate), and where files live."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

DEFAULT_RATE = 170
MIN_RATE = 90
MAX_RATE = 300
RATE_STEP = 25


def data_dir() -> Path:
    """Where saves and downloaded models go (``$XDG_DATA_HOME/farbspiel``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "farbspiel"


def config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "farbspiel" / "settings.json"


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


def clamp_rate(value: Any) -> int:
    """A usable speech rate from any stored or typed value."""
    if isinstance(value, bool):
        return DEFAULT_RATE
    try:
        rate = int(value)
    except (TypeError, ValueError, OverflowError):  # also None, "fast", inf
        return DEFAULT_RATE
    return max(MIN_RATE, min(MAX_RATE, rate))
