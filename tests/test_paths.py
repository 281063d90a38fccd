"""The user's folders: the platform's own (platformdirs), XDG overrides still honoured."""

from __future__ import annotations

import platformdirs

from voice.paths import config_file, data_dir


def test_the_xdg_folders_a_user_set_are_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert data_dir() == tmp_path / "data" / "farbspiel"
    assert config_file() == tmp_path / "config" / "farbspiel" / "settings.json"


def test_without_overrides_the_platforms_folders(monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert str(data_dir()) == platformdirs.user_data_dir("farbspiel", appauthor=False)
    assert str(config_file().parent) == platformdirs.user_config_dir("farbspiel", appauthor=False)
