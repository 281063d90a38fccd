"""The benchmark cannot rot: every module of voice/bench imports, and every measurement
with a command line runs its smallest case here (tiny parameters, real components), so a
renamed module or a changed interface fails the tests instead of the next bench run.

The modules without a command line of their own (the speech benchmark's parts) run in
``farbspiel bench --quick`` (tests/test_bench.py, test_a_quick_run_writes_a_report_a_chart_...);
here they must at least be reached from its command, ``voice.bench.cli``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
from speech import needs_tts

import voice.bench

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "voice" / "bench"
MODULES = sorted(m.name for m in pkgutil.iter_modules([str(BENCH)]))

# module → the smallest run of its command line (``--out`` is added: a folder, or a file)
SMALLEST: dict[str, list[str]] = {
    "assistant": ["--games", "1"],
    "crash": ["--chains", "1", "--kills", "1", "--only", "teams-renaissance-en"],
    "display_load": ["--viewers", "4", "--requests", "20", "--pace", "0.1", "--keepalive", "20",
                     "--streams", "4", "--slow", "2", "--slow-seconds", "1"],
    "farben_naming_speech": ["--limit", "2"],
    "fit_confidence": ["tests/data/bench/recognition-sample.json"],
    "foundation": ["--runs", "1"],
    "hostile": ["--profile", "ci", "--", "-n", "0", "-k", "cards_with_any_arguments"],
    "intonation": ["--lang", "en", "--voices-en", "en-us", "--noise", "clean", "--limit", "2"],
    "long_audio": ["--hours", "0.003", "--source", "generator"],
    "names_by_sound": ["--transcripts", "tests/data/wyoming/names-by-sound-en.json"],
    "pantone_guesses": ["--repeats", "1"],
    "pantone_wrong_guesses_speech": ["--count", "1"],
    "prompt_words": ["--script", "tests/golden/pantone/teams-renaissance-en.script"],
    "recogniser": ["--lang", "en", "--repeats", "1", "--load-runs", "1", "--sentences", "1",
                   "--speeds", "1"],
    "soak": ["--utterances", "40", "--game", "pantone/teams-renaissance-en"],
    "setup_speech": ["--lang", "en", "--limit", "1"],
    "setup_understanding": [],
    "spelling_speech": ["--lang", "en", "--letters", "a"],
    "understanding": ["--game", "farben", "--lang", "en"],
    "writer_sheet": [],
}  # fmt: skip
OUT_IS_A_FILE = {"farben_naming_speech", "pantone_guesses", "pantone_wrong_guesses_speech"}
# the parts of `farbspiel bench` (voice.bench.cli → voice.bench.speech → ...)
PARTS = {"audio", "cli", "corpus", "reference", "report", "run", "speech", "voices"}
# tools that write into the repository's corpora (no measurement, no --out); each has its
# own tests that run it on a copy
TOOLS = {"fold_held_out": "tests/test_fold_held_out.py", "examples": "tests/test_learned.py"}


def bench_imports(module: str) -> set[str]:
    tree = ast.parse((BENCH / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "voice.bench":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("voice.bench."):
                found.add(node.module.removeprefix("voice.bench.").split(".")[0])
    return found & set(MODULES)


def test_every_module_has_its_smallest_run_or_is_part_of_the_speech_bench() -> None:
    assert set(SMALLEST) | PARTS | set(TOOLS) == set(MODULES)
    assert not set(SMALLEST) & PARTS
    for tool, tests in TOOLS.items():
        assert f"voice.bench.{tool}" in (ROOT / tests).read_text(encoding="utf-8"), tool


def test_the_speech_bench_reaches_all_its_parts() -> None:
    reached, todo = set(), ["cli"]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(bench_imports(module))
    assert PARTS <= reached


@pytest.mark.parametrize("module", MODULES)
def test_the_module_imports(module: str) -> None:
    importlib.import_module(f"voice.bench.{module}")
    assert voice.bench  # the package itself too


@needs_tts
@pytest.mark.slow
@pytest.mark.parametrize("module", sorted(SMALLEST))
def test_the_smallest_run_works_and_writes_its_numbers(
    module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name))  # (soak sets the last two itself)
    monkeypatch.chdir(ROOT)
    out = tmp_path / ("out.json" if module in OUT_IS_A_FILE else "out")
    argv = list(SMALLEST[module])
    extra = argv.index("--") if "--" in argv else len(argv)
    argv[extra:extra] = ["--out", str(out)]
    main = importlib.import_module(f"voice.bench.{module}").main
    assert main(argv) in (0, None)
    written = [out] if out.is_file() else sorted(p for p in out.rglob("*") if p.is_file())
    assert written and all(p.stat().st_size > 0 for p in written), module


def test_no_function_of_the_bench_is_much_over_60_lines() -> None:
    """STYLE.md: small functions; a bench step that grows is split into named steps."""
    long = []
    for path in sorted(BENCH.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 65:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({size} lines)")
    assert not long, long


def test_the_bench_leaves_sys_path_and_mock_to_the_tests() -> None:
    for path in sorted(BENCH.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "sys.path.insert" not in text and "sys.path.append" not in text, path.name
        assert "unittest" not in text and "mock." not in text, path.name
