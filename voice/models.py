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
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice.asr.base import RecogniserError
from voice.asr.vosk import model_problem, supports_grammar, verify_model
from voice.settings import data_dir

LANGUAGES = ("de", "en")

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
MODEL_BASE_URL = "https://alphacephei.com/vosk/models/"
VOSK_LANG = {"de": "de", "en": "en-us"}
"""Our language codes → vosk's."""

SMALL_MODEL = {"de": "vosk-model-small-de-0.15", "en": "vosk-model-small-en-us-0.15"}
"""The small model of each language as vosk names it today (used when its list is out of
reach, to tell people what to fetch by hand)."""

NETWORK_TIMEOUT = 20.0


class ModelError(RuntimeError):
    """A model cannot be found, fetched or used; the message gives the fix."""


@dataclass(frozen=True)
class ModelLocation:
    """A place a model was found (or looked for)."""

    lang: str
    source: str
    """"--model", "project", "user" or "vosk cache"."""
    path: Path
    problem: str | None = None
    """Why the model there cannot be used (``None``: it looks complete)."""

    @property
    def usable(self) -> bool:
        return self.problem is None


def project_models_dir() -> Path:
    """``models/`` beside ``voice/`` (a checkout, or an editable install)."""
    return Path(__file__).resolve().parents[1] / "models"


def user_models_dir() -> Path:
    return data_dir() / "models"


def vosk_cache_dirs() -> list[Path]:
    """The folders vosk itself looks in (its ``MODEL_DIRS``)."""
    dirs = [os.environ.get("VOSK_MODEL_PATH"), "/usr/share/vosk", Path.home() / ".cache" / "vosk"]
    return [Path(d) for d in dirs if d]


def _check_lang(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ModelError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")


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
            raise ModelError(f"--model: {found[0].problem}")
        return found[0]
    return next((loc for loc in found if loc.usable), None)


def missing_model_message(lang: str) -> str:
    return f"no vosk model for {lang!r} is installed (install it: farbspiel models download {lang})"


# --- download --------------------------------------------------------------------------------
def download_dir() -> Path:
    """Where downloads go: the project's ``models/`` if it can be written, else the user's."""
    project = project_models_dir()
    if project.is_dir() and os.access(project, os.W_OK):
        return project
    return user_models_dir()


def _no_network(what: str, exc: BaseException, lang: str, dest: Path) -> ModelError:
    name = SMALL_MODEL[lang]
    return ModelError(
        f"cannot download {what}: no connection ({getattr(exc, 'reason', exc)}).\n"
        f"Where there is internet, fetch {MODEL_BASE_URL}{name}.zip, then install it with\n"
        f"  farbspiel models download {lang} --from {name}.zip\n"
        f"(or unzip it into {dest / lang}/)"
    )


def _model_entry(lang: str, listing: Any) -> dict[str, Any]:
    """The small, current model of ``lang`` from vosk's model list."""
    code = VOSK_LANG[lang]
    if not isinstance(listing, list):
        raise ModelError("vosk's model list has an unexpected form; try again later")
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
        raise ModelError(f"vosk's model list has no small model for {lang!r}")
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
                raise ModelError(f"--from: no such file {local}")
            archive = local
        else:
            if source is None:
                try:
                    with urllib.request.urlopen(MODEL_LIST_URL, timeout=NETWORK_TIMEOUT) as r:  # noqa: S310
                        listing = json.loads(r.read().decode("utf-8"))
                except (urllib.error.URLError, OSError) as exc:
                    raise _no_network("vosk's model list", exc, lang, dest) from None
                except ValueError:
                    raise ModelError(
                        "vosk's model list could not be read; try again later"
                    ) from None
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
            raise ModelError("the downloaded model is damaged (checksum differs); try again")
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
                    raise ModelError(f"{archive.name} has an unsafe file name: {member!r}")
            zf.extractall(unpacked)
    except zipfile.BadZipFile:
        raise ModelError(f"{archive.name} is not a zip archive of a model") from None
    models = _model_dirs_in(unpacked)
    if not models:
        raise ModelError(f"{archive.name} contains no vosk model (no am/ and conf/ folders)")
    model = models[0]
    problem = model_problem(model)
    if problem is not None:
        raise ModelError(f"{archive.name} holds an incomplete model: {problem}")
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
        raise ModelError(f"the model from {archive.name} does not work: {exc}") from None
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


def check_games(
    lang: str, knows: Callable[[str], bool], players: Sequence[str], games: Sequence[str] = ()
) -> list[CheckReport]:
    """Which words of each game's grammar (all phrases, all phases) the model lacks."""
    from games.engine import Setup
    from voice.adapters import ADAPTERS
    from voice.grammar import Grammar

    reports = []
    for game_id, adapter in ADAPTERS.items():
        if games and game_id not in games:
            continue
        setup = Setup(tuple(players), options=adapter.default_options(lang))
        grammar = Grammar(lang, game_id, adapter.dynamic_lists(setup, lang))
        phrases = (p for p, _ in grammar.phrases())
        count, words, missing = missing_words(phrases, knows)
        reports.append(CheckReport(game_id, count, words, missing))
    return reports


def format_check(reports: Sequence[CheckReport], examples: int = 3) -> list[str]:
    lines = []
    for report in reports:
        if not report.missing:
            lines.append(
                f"{report.game}: all {report.words} words of its {report.phrases} sentences "
                "are known to the model"
            )
            continue
        lines.append(
            f"{report.game}: {len(report.missing)} of {report.words} words are unknown to the "
            f"model; they break {len({p for ps in report.missing.values() for p in ps})} of "
            f"{report.phrases} sentences:"
        )
        for word in sorted(report.missing, key=lambda w: (-len(report.missing[w]), w)):
            broken = report.missing[word]
            shown = ", ".join(f'"{p}"' for p in broken[:examples])
            more = f" and {len(broken) - examples} more" if len(broken) > examples else ""
            lines.append(f"  {word!r}: {len(broken)} sentence(s), e.g. {shown}{more}")
    return lines


# --- the `farbspiel models` command ------------------------------------------------------------
def add_models_parser(commands: Any, parser_class: Any) -> None:
    models = commands.add_parser("models", help="list, download or check speech models")
    actions = models.add_subparsers(
        dest="models_command", metavar="ACTION", parser_class=parser_class
    )
    actions.required = True
    listing = actions.add_parser("list", help="where the speech models are")
    listing.add_argument("--model", type=Path, metavar="DIR", help="also check this model folder")
    fetch = actions.add_parser("download", help="install the vosk model of a language")
    fetch.add_argument("lang", choices=LANGUAGES)
    fetch.add_argument(
        "--from",
        dest="source",
        metavar="ZIP",
        help="install from a model .zip file or URL instead of vosk's model list",
    )
    check = actions.add_parser("check", help="list grammar words the model does not know")
    check.add_argument("lang", choices=LANGUAGES)
    check.add_argument("--model", type=Path, metavar="DIR", help="the model folder to check")
    check.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    check.add_argument(
        "--players",
        default="Anna,Ben,Cem",
        help="player names to check as well (default: Anna,Ben,Cem)",
    )


def cmd_models(args: Any) -> int:
    if args.models_command == "list":
        return _cmd_list(args)
    if args.models_command == "download":
        return _cmd_download(args)
    return _cmd_check(args)


def _cmd_list(args: Any) -> int:
    for lang in LANGUAGES:
        found = locations(lang, args.model) if args.model else locations(lang)
        chosen = next((loc for loc in found if loc.usable), None)
        if chosen is None:
            print(f"{lang}: no vosk model — install one with: farbspiel models download {lang}")
        else:
            kind = "" if supports_grammar(chosen.path) else " (static graph: no per-phase grammars)"
            print(f"{lang}: {chosen.path} [{chosen.source}]{kind}")
        for loc in found:
            if loc is not chosen:
                state = "not usable: " + loc.problem if loc.problem else "also there"
                print(f"    {loc.path} [{loc.source}] {state}")
    print(
        "Looked in: --model DIR, "
        + ", ".join(
            str(p)
            for p in [project_models_dir() / "<lang>", user_models_dir() / "<lang>"]
            + vosk_cache_dirs()
        )
    )
    print("Without a vosk model, --asr auto uses pocketsphinx (English model built in).")
    return 0


def _progress(done: int, total: int) -> None:
    if total:
        print(
            f"\r  {done / total:6.1%} of {total / 1e6:.0f} MB", end="", file=sys.stderr, flush=True
        )


def _cmd_download(args: Any) -> int:
    print(f"farbspiel: installing the vosk model for {args.lang} ...", file=sys.stderr)
    path = download(args.lang, args.source, progress=_progress if sys.stderr.isatty() else None)
    print(f"\ninstalled: {path}" if sys.stderr.isatty() else f"installed: {path}")
    return 0


def _cmd_check(args: Any) -> int:
    from voice.asr.vosk import VoskRecogniser

    location = find_model(args.lang, args.model)
    if location is None:
        raise ModelError(missing_model_message(args.lang))
    try:
        recogniser = VoskRecogniser(location.path)
    except RecogniserError as exc:
        raise ModelError(
            f"{exc}; reinstall it with: farbspiel models download {args.lang}"
        ) from None
    from voice.adapters import ADAPTERS

    unknown_games = [g for g in args.game if g not in ADAPTERS]
    if unknown_games:
        raise ModelError(f"unknown game {unknown_games[0]!r}; choose from: {', '.join(ADAPTERS)}")
    players = [p.strip() for p in args.players.split(",") if p.strip()] or ["Anna"]
    print(f"model: {location.path} [{location.source}]")
    print(f"players checked: {', '.join(players)} (--players to check your names)")
    reports = check_games(args.lang, recogniser.knows, players, args.game)
    for line in format_check(reports):
        print(line)
    return 1 if any(r.missing for r in reports) else 0
