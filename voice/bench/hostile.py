"""Hostile input at scale: the property tests of ``tests/test_hostile_input.py`` with the
``report`` hypothesis profile (40 times the CI examples), counting the generated cases.

    python -m voice.bench.hostile [--profile report] [--out bench-results] [-- PYTEST ARGS]

Writes ``hostile.json`` and ``hostile.md``: generated cases run per test, and whether
every property held.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = "tests/test_hostile_input.py"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="report", choices=("ci", "report"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    with tempfile.TemporaryDirectory() as tmp:
        cases_file = Path(tmp) / "cases.json"
        env = {
            **os.environ,
            "FARBSPIEL_HYPOTHESIS_PROFILE": args.profile,
            "FARBSPIEL_CASES_FILE": str(cases_file),
        }
        start = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TESTS]
            + args.pytest_args,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        cases = json.loads(cases_file.read_text()) if cases_file.exists() else {}
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    results = {
        "profile": args.profile,
        "command": "python -m voice.bench.hostile " + " ".join(given),
        "passed": run.returncode == 0,
        "pytest_summary": summary,
        "cases_total": sum(cases.values()),
        "cases": cases,
        "seconds": round(seconds, 1),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
    }
    lines = [
        "# Hostile input (hypothesis)",
        "",
        f"Command: `{results['command']}` (profile `{args.profile}`)",
        "",
        f"- generated cases run: **{results['cases_total']}**, "
        f"all properties held: **{'yes' if results['passed'] else 'NO'}** ({summary})",
        f"- wall time: {results['seconds']} s",
        "",
        "| property test | cases |",
        "|---|---|",
    ]
    lines += [f"| {name} | {n} |" for name, n in sorted(cases.items())]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "hostile.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "hostile.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    if not results["passed"]:
        print(run.stdout[-5000:], file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
