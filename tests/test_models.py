"""Model management: the search order of SPEC section 8, list, download and its failures."""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
import zipfile
from pathlib import Path

import pytest
from helpers import run_cli

import voice.recognition.models as models
from voice.recognition.models import ModelError, download, find_model, locations


def fake_model(folder: Path) -> Path:
    """A folder with the files a vosk model has (enough for the search, not for vosk)."""
    for name, text in {
        "am/final.mdl": "acoustic model",
        "conf/model.conf": "--min-active=200",
        "graph/HCLr.fst": "lexicon",
        "graph/Gr.fst": "grammar",
        "ivector/final.ie": "ivector",
    }.items():
        file = folder / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text)
    return folder


@pytest.fixture
def places(tmp_path, monkeypatch, private_home):
    """Private project, user and vosk-cache folders."""
    project = tmp_path / "project-models"
    project.mkdir()
    monkeypatch.setattr(models, "project_models_dir", lambda: project)
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    user = private_home / "data" / "farbspiel" / "models"
    return {"project": project, "user": user, "vosk": home / ".cache" / "vosk"}


def test_search_order_is_model_option_project_user_vosk_cache(places, tmp_path):
    assert find_model("de") is None
    vosk = fake_model(places["vosk"] / "vosk-model-small-de-0.15")
    fake_model(places["vosk"] / "vosk-model-small-en-us-0.15")
    assert find_model("de").path == vosk and find_model("de").source == "vosk cache"
    assert find_model("en").path.name == "vosk-model-small-en-us-0.15"
    user = fake_model(places["user"] / "de" / "vosk-model-small-de-0.15")
    assert find_model("de").path == user and find_model("de").source == "user"
    project = fake_model(places["project"] / "de")  # the folder may be the model itself
    assert find_model("de").path == project and find_model("de").source == "project"
    mine = fake_model(tmp_path / "my-model")
    assert find_model("de", mine).source == "--model"
    assert [loc.source for loc in locations("de")] == ["project", "user", "vosk cache"]


def test_a_broken_model_is_skipped_and_shown(places):
    broken = places["project"] / "de" / "vosk-model-small-de-0.15"
    fake_model(broken)
    (broken / "am" / "final.mdl").write_text("")  # an interrupted copy
    good = fake_model(places["user"] / "de" / "m")
    assert find_model("de").path == good
    run = run_cli("models", "list")
    assert run.code == 0
    assert f"de: {good} [user]" in run.out
    assert f"{broken} [project] not usable:" in run.out and "am/final.mdl" in run.out
    assert "en: no vosk model — install one with: farbspiel models download en" in run.out


def test_a_bad_model_option_is_an_error_not_a_fallback(places, tmp_path):
    fake_model(places["user"] / "de")
    with pytest.raises(ModelError, match="--model: .* is not a folder"):
        find_model("de", tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="no decoding graph"):
        find_model("de", tmp_path / "empty")


def test_vosk_cache_names_follow_vosk(places):
    fake_model(places["vosk"] / "vosk-model-de-0.21")  # a big model
    small = fake_model(places["vosk"] / "vosk-model-small-de-0.15")
    fake_model(places["vosk"] / "vosk-model-small-en-in-0.4")  # Indian English: still en
    assert find_model("de").path == small  # small (lookahead) ones first: grammars work
    assert find_model("en").path.name == "vosk-model-small-en-in-0.4"


def test_download_without_network_says_how_to_install_by_hand(places, monkeypatch):
    monkeypatch.setattr(models, "MODEL_LIST_URL", "http://127.0.0.1:9/model-list.json")
    run = run_cli("models", "download", "de")
    assert run.code == 1
    # `models download de`: said in German, the language of the model
    assert "die Modellliste von vosk lässt sich nicht herunterladen: keine Verbindung" in run.err
    assert "https://alphacephei.com/vosk/models/vosk-model-small-de-0.15.zip" in run.err
    assert "farbspiel models download de --from vosk-model-small-de-0.15.zip" in run.err
    assert "Traceback" not in run.err
    assert not any(places["project"].iterdir())  # nothing half-installed


def test_the_model_list_is_vosks_own():
    import vosk

    assert models.MODEL_LIST_URL == vosk.MODEL_LIST_URL


def zip_model(path: Path, name: str = "vosk-model-small-de-0.15") -> Path:
    source = fake_model(path.parent / "src" / name)
    with zipfile.ZipFile(path, "w") as zf:
        for file in source.rglob("*"):
            zf.write(file, file.relative_to(source.parent))
    return path


def test_install_from_a_zip_checks_the_model_and_keeps_nothing_broken(places, tmp_path):
    archive = zip_model(tmp_path / "model.zip")
    run = run_cli("models", "download", "de", "--from", str(archive))
    assert run.code == 1
    assert "funktioniert nicht" in run.err and "beschädigt" in run.err  # vosk could not load it
    assert not (places["project"] / "de" / "vosk-model-small-de-0.15").exists()


def test_install_from_a_zip_puts_the_model_where_it_is_found(places, tmp_path, monkeypatch):
    monkeypatch.setattr(models, "verify_model", lambda path: None)  # fake files, not vosk's
    archive = zip_model(tmp_path / "model.zip")
    path = download("de", str(archive))
    assert path == places["project"] / "de" / "vosk-model-small-de-0.15"
    assert find_model("de").path == path


def test_unsafe_or_foreign_archives_are_refused(places, tmp_path):
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../../outside.txt", "gotcha")
    with pytest.raises(ModelError, match="unsafe file name"):
        download("de", str(evil))
    text = tmp_path / "notes.zip"
    text.write_text("not a zip")
    with pytest.raises(ModelError, match="not a zip archive"):
        download("de", str(text))
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(ModelError, match="contains no vosk model"):
        download("de", str(empty))
    with pytest.raises(ModelError, match="there is no file"):
        download("de", str(tmp_path / "missing.zip"))


@pytest.fixture
def model_server(tmp_path):
    """A local web server standing in for alphacephei.com."""
    root = tmp_path / "site"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_download_uses_the_model_list_and_its_checksum(places, tmp_path, model_server, monkeypatch):
    root, url = model_server
    archive = zip_model(root / "vosk-model-small-de-0.15.zip")
    md5 = hashlib.md5(archive.read_bytes()).hexdigest()
    listing = [
        {"lang": "de", "type": "big", "name": "vosk-model-de-0.21", "obsolete": "false"},
        {
            "lang": "de",
            "type": "small",
            "name": "vosk-model-small-de-zamia-0.3",
            "obsolete": "true",
        },
        {
            "lang": "de",
            "type": "small",
            "name": "vosk-model-small-de-0.15",
            "obsolete": "false",
            "version": "0.15",
            "md5": "0" * 32,
            "url": url + "vosk-model-small-de-0.15.zip",
        },
    ]
    (root / "model-list.json").write_text(json.dumps(listing))
    monkeypatch.setattr(models, "MODEL_LIST_URL", url + "model-list.json")
    with pytest.raises(ModelError, match="checksum differs"):
        download("de")
    listing[2]["md5"] = md5
    (root / "model-list.json").write_text(json.dumps(listing))
    monkeypatch.setattr(models, "verify_model", lambda path: None)
    path = download("de")
    assert path == places["project"] / "de" / "vosk-model-small-de-0.15"
    assert (path / "am" / "final.mdl").read_text() == "acoustic model"
