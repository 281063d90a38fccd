"""Shared test set-up: every test gets its own data and config folders."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory, monkeypatch):
    """Keep saves and settings of tests out of the real home folder."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    return home


@pytest.fixture(autouse=True)
def console_language_kept():
    """A test that runs farbspiel's main() in this process may switch the console's
    language (a German game speaks German on the console); the next test in the same
    worker starts from the language it found."""
    from voice.output import messages

    before = dict(messages._console)
    yield
    messages._console.clear()
    messages._console.update(before)
