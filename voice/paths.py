"""Where farbspiel keeps its files on this machine (the bottom of the house: every
stage may ask)."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """Where saves and downloaded models go (``$XDG_DATA_HOME/farbspiel``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "farbspiel"


def config_file() -> Path:
    """The per-user settings file (``$XDG_CONFIG_HOME/farbspiel/settings.json``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "farbspiel" / "settings.json"
