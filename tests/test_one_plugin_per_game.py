"""One plug-in per game: outside a game's own files, product code never names a game.

A game is named where its id appears as a string (``"pantone"``, not in a docstring) or
its own modules are imported (``games.pantone``, ``voice.session.adapters.pantone``, ...).
That may happen only in the game's own modules (its engine in ``games/``, its adapter,
and its table view ``voice/display/views_<game>.py``, which the adapter names) and in
the registries that list every game (the adapters' ``ADAPTERS``, the assistant's
``STRATEGIES``). So a fourth game is its engine, its adapter, its table view, its
grammars, prompts and data files, its golden games and one row in each registry.
``voice/bench`` is left out: a measurement chooses the games it measures.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from games.engine import Setup
from voice.display.state import read_table
from voice.display.views import render
from voice.session.adapters import ADAPTERS
from voice.session.adapters.base import GameAdapter
from voice.session.journal import Header

ROOT = Path(__file__).resolve().parent.parent

GAMES = {
    "farben": ("farben", "farben_assistant", "views_farben"),
    "alle-meine-farben": (
        "alle_meine_farben",
        "alle_meine_farben_assistant",
        "views_alle_meine_farben",
    ),  # fmt: skip
    "pantone": ("pantone", "pantone_deck", "pantone_saves", "views_pantone"),
}
"""Each game's id and the names of its own modules (in games/, the adapters and the
table view)."""
FOLDERS = {"games": "games", "voice.session.adapters": "voice/session/adapters",
           "voice.display": "voice/display"}  # fmt: skip
"""The packages that hold a game's own modules, and their folders."""
REGISTRIES = {"voice/session/adapters/__init__.py", "games/assistant.py"}

# Places that still name a game, owned by work under way: a file, or (file, game). This
# test fails when one of them no longer does, so it is struck off here then.
NOT_YET: set[str | tuple[str, str]] = set()


def own_files(game: str) -> set[str]:
    return {f"{folder}/{module}.py" for module in GAMES[game] for folder in FOLDERS.values()}


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            found.add(id(body[0].value))
    return found


def games_named(tree: ast.AST) -> set[str]:
    """The games a module names (see the module's docstring)."""
    skip = docstrings(tree)
    module_game = {m: g for g, modules in GAMES.items() for m in modules}
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in skip:
            named.add(str(node.value))
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            package, _, last = node.module.rpartition(".")
            if package in FOLDERS and last in module_game:
                named.add(module_game[last])
            if node.module in FOLDERS:
                named |= {module_game[a.name] for a in node.names if a.name in module_game}
        if isinstance(node, ast.Import):
            for alias in node.names:
                package, _, last = alias.name.rpartition(".")
                if package in FOLDERS and last in module_game:
                    named.add(module_game[last])
    return named


def places_naming_games() -> set[tuple[str, str]]:
    places = set()
    for top in ("words", "games", "voice"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith("voice/bench/"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            places |= {(name, game) for game in games_named(tree)}
    return places


def allowed(place: tuple[str, str]) -> bool:
    name, game = place
    return name in own_files(game) or name in REGISTRIES


def test_only_a_games_own_files_and_the_registries_name_it() -> None:
    places = {p for p in places_naming_games() if not allowed(p)}
    known = {p for p in places if p[0] in NOT_YET or p in NOT_YET}
    assert places == known, f"a game named outside its plug-in: {sorted(places - known)}"
    still = {p for p in places if p in NOT_YET} | {name for name, _ in places if name in NOT_YET}
    assert still == NOT_YET, f"no longer names a game, strike off NOT_YET: {NOT_YET - still}"


def test_every_registry_names_every_game() -> None:
    """The registries are the one row a new game adds: each lists all of them (the
    assistant's only those it can play)."""
    named = {
        name: games_named(ast.parse((ROOT / name).read_text(encoding="utf-8")))
        for name in REGISTRIES
    }
    assert named["voice/session/adapters/__init__.py"] == set(GAMES)
    assert named["games/assistant.py"] == {"farben", "alle-meine-farben"}


def test_the_finder_sees_a_game_named_by_string_and_by_import() -> None:
    tree = ast.parse(
        '"""About pantone."""\n'
        "from games.farben import key\n"
        "import voice.session.adapters.pantone_deck\n"
        "def f(game):\n"
        "    '''pantone in a docstring does not count'''\n"
        "    return game.game_id == 'alle-meine-farben'\n"
    )
    assert games_named(tree) == {"farben", "pantone", "alle-meine-farben"}
    assert games_named(ast.parse('"""pantone"""\nx = "pantone2"\n')) == set()


def test_every_adapter_names_its_own_table_view() -> None:
    for game, adapter in ADAPTERS.items():
        path = adapter.table_view.replace(".", "/") + ".py"
        assert path in own_files(game), (game, adapter.table_view)
        assert (ROOT / path).is_file(), path


def test_a_fourth_game_is_shown_through_its_adapter_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game the table view has never heard of (here: another game on Alle meine
    Farben's engine) gets its own page from the module its adapter names."""
    (tmp_path / "fourth_view.py").write_text(
        "def render(state, lang):\n"
        "    return 'Vier', f'<p>{len(state.header.setup.players)} am Tisch</p>', 'neu'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {"game_id": "vierte", "table_view": "fourth_view"}
    adapter: GameAdapter = type("Fourth", (type(ADAPTERS["alle-meine-farben"]),), names)()
    monkeypatch.setitem(ADAPTERS, "vierte", adapter)
    setup = Setup(["Ana", "Ben", "Cem"], options=adapter.default_options("de"))
    journal = tmp_path / "vierte.jsonl"
    journal.write_text(json.dumps(Header("vierte", "de", setup).to_json()) + "\n", "utf-8")
    view = render(read_table(journal))
    assert (view.title, view.news) == ("Vier", "neu")
    assert view.main == "<p>3 am Tisch</p>"
