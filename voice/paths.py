"""Where farbspiel keeps its files on this machine (the bottom of the house: every
stage may ask). The folders are the platform's own (platformdirs: XDG on Linux, the
Application Support folder on macOS, AppData on Windows); ``XDG_DATA_HOME`` and
``XDG_CONFIG_HOME`` are honoured on every platform, as they always were here."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "farbspiel"


def data_dir() -> Path:
    """Where saves, downloaded models and the household go (``$XDG_DATA_HOME/farbspiel``)."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / APP
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def config_dir() -> Path:
    """The per-user settings folder (``$XDG_CONFIG_HOME/farbspiel``)."""
    base = os.environ.get("XDG_CONFIG_HOME")
    if base:
        return Path(base) / APP
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def config_file() -> Path:
    """The per-user settings file (``$XDG_CONFIG_HOME/farbspiel/settings.json``)."""
    return config_dir() / "settings.json"
