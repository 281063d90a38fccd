"""Speech models: where vosk models are looked for, downloading them, checking them.

Search order for the vosk model of a language (SPEC section 8):

1. ``--model DIR`` (if given, it must work; nothing else is tried),
2. ``models/<lang>/`` in the project,
3. ``<user data dir>/models/<lang>/`` (``~/.local/share/farbspiel/models/de``),
4. vosk's own cache (``$VOSK_MODEL_PATH``, ``/usr/share/vosk``, ``~/.cache/vosk``), where
   vosk keeps models as ``vosk-model-small-de-0.15`` and ``vosk-model-small-en-us-0.15``.

A folder in 2 or 3 may be the model itself or hold one model folder (as unzipped).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.errors import FarbspielError
from voice.errors import Notice
from voice.paths import data_dir
from voice.recognition.base import RecogniserError
from voice.recognition.vosk import model_problem, verify_model

LANGUAGES = ("de", "en")

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
MODEL_BASE_URL = "https://alphacephei.com/vosk/models/"
VOSK_LANG = {"de": "de", "en": "en-us"}
"""Our language codes → vosk's."""

SMALL_MODEL = {"de": "vosk-model-small-de-0.15", "en": "vosk-model-small-en-us-0.15"}
"""The small model of each language as vosk names it today (used when its list is out of
reach, to tell people what to fetch by hand)."""

NETWORK_TIMEOUT = 20.0


class ModelError(FarbspielError, RuntimeError):
    """A model cannot be found, fetched or used; the message gives the fix."""

    default_key = "model"


@dataclass(frozen=True)
class ModelLocation:
    """A place a model was found (or looked for)."""

    lang: str
    source: str
    """"--model", "project", "user" or "vosk cache"."""
    path: Path
    problem: Notice | None = None
    """Why the model there cannot be used (a message key and blanks; ``None``: it looks
    complete)."""

    @property
    def usable(self) -> bool:
        return self.problem is None


def project_models_dir() -> Path:
    """``models/`` beside ``voice/`` (a checkout, or an editable install)."""
    return Path(__file__).resolve().parents[2] / "models"


def user_models_dir() -> Path:
    return data_dir() / "models"


def vosk_cache_dirs() -> list[Path]:
    """The folders vosk itself looks in (its ``MODEL_DIRS``)."""
    dirs = [os.environ.get("VOSK_MODEL_PATH"), "/usr/share/vosk", Path.home() / ".cache" / "vosk"]
    return [Path(d) for d in dirs if d]


def _check_lang(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ModelError(key="model_unknown_language", lang=lang, languages=list(LANGUAGES))


def _model_dirs_in(folder: Path) -> list[Path]:
    """The folder itself if it is a model, else the model folders directly inside it."""
    if not folder.is_dir():
        return []
    if _looks_like_model(folder):
        return [folder]
    inside = [p for p in sorted(folder.iterdir()) if p.is_dir() and _looks_like_model(p)]
    return sorted(inside, key=_preference)


def _looks_like_model(folder: Path) -> bool:
    return (folder / "am").is_dir() or (folder / "conf" / "model.conf").is_file()


def _preference(path: Path) -> tuple[int, str]:
    """Small (lookahead) models first, since only they take per-phase grammars."""
    return (0 if "small" in path.name else 1, path.name)


def _vosk_cache_models(lang: str) -> list[Path]:
    """Models in vosk's folders, named as vosk names them (any English for ``en``)."""
    found = []
    for folder in vosk_cache_dirs():
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            name = entry.name.replace("vosk-model-small-", "vosk-model-")
            if entry.is_dir() and name.startswith(f"vosk-model-{lang}-"):
                found.append(entry)
    usual = VOSK_LANG[lang]
    return sorted(found, key=lambda p: (_preference(p)[0], f"-{usual}-" not in p.name, p.name))


def locations(lang: str, model_dir: Path | None = None) -> list[ModelLocation]:
    """Every model for ``lang`` in search order, usable or not."""
    _check_lang(lang)
    if model_dir is not None:
        path = Path(model_dir).expanduser()
        inside = _model_dirs_in(path) if path.is_dir() else []
        target = inside[0] if inside else path
        problem = model_problem(target)
        return [ModelLocation(lang, "--model", target, problem)]
    found: list[ModelLocation] = []
    for source, folder in (
        ("project", project_models_dir() / lang),
        ("user", user_models_dir() / lang),
    ):
        for path in _model_dirs_in(folder):
            found.append(ModelLocation(lang, source, path, model_problem(path)))
    for path in _vosk_cache_models(lang):
        found.append(ModelLocation(lang, "vosk cache", path, model_problem(path)))
    return found


def find_model(lang: str, model_dir: Path | None = None) -> ModelLocation | None:
    """The first usable model for ``lang``; ``None`` if there is none.

    With ``model_dir`` that folder must hold a model: raises :class:`ModelError` if not.
    """
    found = locations(lang, model_dir)
    if model_dir is not None:
        if not found[0].usable:
            raise ModelError(key="model_option_bad", problem=found[0].problem)
        return found[0]
    return next((loc for loc in found if loc.usable), None)


def missing_model_message(lang: str) -> Notice:
    """The notice that no vosk model of ``lang`` is installed (and how to install one)."""
    return Notice("model_missing", {"lang": lang})


# --- download --------------------------------------------------------------------------------
def download_dir() -> Path:
    """Where downloads go: the project's ``models/`` if it can be written, else the user's."""
    project = project_models_dir()
    if project.is_dir() and os.access(project, os.W_OK):
        return project
    return user_models_dir()


def _no_network(what: str | None, exc: BaseException, lang: str, dest: Path) -> ModelError:
    """``what``: the URL that failed (``None``: vosk's model list)."""
    name = SMALL_MODEL[lang]
    return ModelError(
        key="model_no_network",
        what=what or Notice("model_list"),
        reason=getattr(exc, "reason", exc),
        url=f"{MODEL_BASE_URL}{name}.zip",
        lang=lang,
        zip=f"{name}.zip",
        folder=f"{dest / lang}/",
    )


def _model_entry(lang: str, listing: Any) -> dict[str, Any]:
    """The small, current model of ``lang`` from vosk's model list."""
    code = VOSK_LANG[lang]
    if not isinstance(listing, list):
        raise ModelError(key="model_list_odd")
    candidates = [
        m
        for m in listing
        if isinstance(m, dict)
        and m.get("lang") == code
        and m.get("type") == "small"
        and str(m.get("obsolete", "false")).lower() != "true"
        and isinstance(m.get("name"), str)
    ]
    if not candidates:
        raise ModelError(key="model_list_lacks", lang=lang)
    return max(candidates, key=lambda m: str(m.get("version", "")))


def _fetch(url: str, dest: Path, progress: Callable[[int, int], None] | None) -> None:
    with urllib.request.urlopen(url, timeout=NETWORK_TIMEOUT) as response:  # noqa: S310
        total = int(response.headers.get("Content-Length") or 0)
        done = 0
        with open(dest, "wb") as out:
            while block := response.read(1 << 16):
                out.write(block)
                done += len(block)
                if progress is not None:
                    progress(done, total)


def download(
    lang: str,
    source: str | None = None,
    dest: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Install the vosk model for ``lang``; returns its folder.

    ``source``: ``None`` (vosk's own model list, over the network), a ``.zip`` URL, or a
    local ``.zip`` file (for machines without internet).
    """
    _check_lang(lang)
    dest = dest or download_dir()
    dest.mkdir(parents=True, exist_ok=True)
    md5: str | None = None
    with tempfile.TemporaryDirectory(dir=dest, prefix=".download-") as tmp:
        archive = Path(tmp) / "model.zip"
        if source is not None and not source.startswith(("http://", "https://")):
            local = Path(source).expanduser()
            if not local.is_file():
                raise ModelError(key="model_zip_missing", path=local)
            archive = local
        else:
            if source is None:
                try:
                    with urllib.request.urlopen(MODEL_LIST_URL, timeout=NETWORK_TIMEOUT) as r:  # noqa: S310
                        listing = json.loads(r.read().decode("utf-8"))
                except (urllib.error.URLError, OSError) as exc:
                    raise _no_network(None, exc, lang, dest) from None
                except ValueError:
                    raise ModelError(key="model_list_odd") from None
                entry = _model_entry(lang, listing)
                url = str(entry.get("url") or f"{MODEL_BASE_URL}{entry['name']}.zip")
                md5 = entry.get("md5") if isinstance(entry.get("md5"), str) else None
            else:
                url = source
            try:
                _fetch(url, archive, progress)
            except (urllib.error.URLError, OSError) as exc:
                raise _no_network(url, exc, lang, dest) from None
        if md5 and _md5(archive) != md5.lower():
            raise ModelError(key="model_checksum")
        return _install(archive, lang, dest, Path(tmp))


def _md5(path: Path) -> str:
    digest = hashlib.md5()  # noqa: S324 - vosk publishes md5 sums
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _install(archive: Path, lang: str, dest: Path, tmp: Path) -> Path:
    unpacked = tmp / "unpacked"
    try:
        with zipfile.ZipFile(archive) as zf:
            for member in zf.namelist():
                target = (unpacked / member).resolve()
                if not target.is_relative_to(unpacked.resolve()):
                    raise ModelError(key="model_zip_unsafe", zip=archive.name, name=member)
            zf.extractall(unpacked)
    except zipfile.BadZipFile:
        raise ModelError(key="model_zip_not_zip", zip=archive.name) from None
    models = _model_dirs_in(unpacked)
    if not models:
        raise ModelError(key="model_zip_no_model", zip=archive.name)
    model = models[0]
    problem = model_problem(model)
    if problem is not None:
        raise ModelError(key="model_zip_incomplete", zip=archive.name, problem=problem)
    name = model.name if model != unpacked else archive.stem
    final = dest / lang / name
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists():
        shutil.rmtree(final)
    shutil.move(str(model), final)
    try:
        verify_model(final)
    except RecogniserError as exc:
        shutil.rmtree(final, ignore_errors=True)
        raise ModelError(key="model_zip_broken", zip=archive.name, problem=exc) from None
    return final


# --- check ------------------------------------------------------------------------------------
@dataclass
class CheckReport:
    """Grammar words of one game that a model does not know."""

    game: str
    phrases: int
    words: int
    missing: dict[str, list[str]] = field(default_factory=dict)
    """Unknown word → the phrases it breaks."""


def missing_words(
    phrases: Iterable[str], knows: Callable[[str], bool]
) -> tuple[int, int, dict[str, list[str]]]:
    """(phrase count, word count, unknown word → phrases containing it)."""
    known: dict[str, bool] = {}
    missing: dict[str, list[str]] = {}
    count = 0
    for phrase in phrases:
        count += 1
        for word in dict.fromkeys(phrase.split()):
            if word.isdigit():  # typed form of a number; its spoken form is checked too
                continue
            if word not in known:
                known[word] = bool(knows(word))
            if not known[word]:
                missing.setdefault(word, []).append(phrase)
    return count, len(known), missing
