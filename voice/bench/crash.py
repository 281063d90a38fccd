"""Crash safety: SIGKILL a real ``farbspiel`` process at random moments of scripted games
of every game, resume it each time, and check the game ends exactly as without the kills.

    python -m voice.bench.crash [--chains 8] [--kills 3] [--seed 1] [--out bench-results]

Writes ``crash.json`` and ``crash.md``: kills delivered and survived, per scenario and
mode, and where in the games they landed.

What "ends exactly as without the kills" means, and why it is well defined
--------------------------------------------------------------------------
The journal is the truth: after a kill, the save file holds some number ``c`` of complete
records. An uninterrupted run of the same script (in process, line by line) tells after
which script line the journal held ``c`` records; the table would go on from the first
line after that point, so the resumed process is given exactly those lines. Things that
were never journalled (a pending yes/no question, a pause, time passing) are simply said
again. A kill chain ends when a process finishes its lines; it passes when

* the final save file is byte for byte the uninterrupted run's save file, so the engine
  snapshot after replaying it is the same, and
* the last ``game_over`` event printed equals the uninterrupted run's.

Timers: after a resume the session starts the timers of the current state afresh (the
journal does not store how long a timer had run, except in a pause: a game saved in a
pause resumes in it, its timers where they stood). A script's ``@+N`` lines are therefore
cut at timer boundaries (``@+60`` that fires three timers becomes ``@+30 @+20 @+10``), so
that every clock line fires at most one timer, exactly at its end; then a timer always
starts at the moment of the last journalled change in both runs, and the outcome does not
depend on where the kill fell. :func:`check_resume_points` verifies this for every
journal position in process, before any process is killed.

Two modes of feeding the real process:

``script``  ``--script FILE``: virtual time, timers fire (all golden playthroughs of all
            three games, with their timers).
``keyboard`` ``--input keyboard``, lines written to stdin in real time (the real clock and
            the keyboard loop). The scripts used here contain no clock lines and every
            timer is ended early by a move ("done", "pass"), so no timer can decide
            anything unless the machine stalls for 5 seconds (such a run is reported as
            disturbed, not as a loss).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import voice.cli.main as cli
from games.engine import replay
from voice.input.lines import read_script
from voice.session.adapters import adapter_for
from voice.session.journal import JournalError, read
from voice.session.loops import run_script

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
HEADER = "# farbspiel:"
KEYBOARD_SCRIPTS = (
    GOLDEN / "alle-meine-farben" / "basic-de-won.script",
    GOLDEN / "farben" / "three-players-en.script",
    Path(__file__).parent / "scripts" / "pantone-no-timers-en.script",
)


@dataclass(frozen=True)
class Scenario:
    """A scripted game to kill: ``play`` arguments and the lines the table says."""

    name: str
    argv: tuple[str, ...]
    """``play GAME options`` (without --script, --save, --json)."""

    lines: tuple[str, ...]
    """Utterances and ``@+N`` clock lines, comments and blank lines removed."""

    mode: str = "script"
    """``script`` (virtual time) or ``keyboard`` (stdin, real clock)."""


@dataclass
class Trace:
    """An uninterrupted run, line by line."""

    counts: list[int]
    """``counts[i]``: journal records after the first ``i`` lines."""

    journal: bytes
    snapshot: Any
    game_over: dict[str, Any] | None

    def start_for(self, records: int) -> int | None:
        """The first line to say again when the journal holds ``records`` records."""
        try:
            return self.counts.index(records)
        except ValueError:
            return None


# --- scenarios ---------------------------------------------------------------------------
def read_scenario(path: Path, mode: str = "script") -> Scenario:
    text = path.read_text(encoding="utf-8").splitlines()
    if not text or not text[0].startswith(HEADER):
        raise ValueError(f"{path} must start with '{HEADER} play GAME ...'")
    argv = tuple(shlex.split(text[0][len(HEADER) :]))
    lines = tuple(line.split("#", 1)[0].strip() for line in text[1:])
    lines = tuple(line for line in lines if line)
    name = f"{path.parent.name}/{path.stem}" if path.parent.parent == GOLDEN else path.stem
    scenario = Scenario(name, argv, lines, mode)
    if mode == "script" and any(line.startswith("@+") for line in lines):
        scenario = split_clock_lines(scenario)
    elif any(line.startswith("@+") for line in lines):
        raise ValueError(f"{path}: keyboard scenarios cannot contain clock lines")
    return scenario


def golden_scenarios() -> list[Scenario]:
    return [read_scenario(p) for p in sorted(GOLDEN.glob("*/*.script"))]


def keyboard_scenarios() -> list[Scenario]:
    return [read_scenario(p, "keyboard") for p in KEYBOARD_SCRIPTS]


def _is_clock(line: str) -> float | None:
    items = list(read_script([line]))
    return items[0].seconds if items else None


def _seconds(value: float) -> str:
    """Seconds as a clock line writes them, exactly (no rounding)."""
    return str(int(value)) if value == int(value) else repr(value)


def split_clock_lines(scenario: Scenario) -> Scenario:
    """Cut every ``@+N`` at the moments timers fire, so each clock line fires at most one
    timer, at its end (see the module docstring)."""
    out: list[str] = []

    def drive(session: Any, clock: Any, line: str) -> None:
        seconds = _is_clock(line)
        if seconds is None:
            out.append(line)
            run_script(session, [line], clock)
            return
        left = seconds
        while True:
            due = session.seconds_to_next_timer()
            step = left if due is None or due <= 0 or due >= left else due
            out.append(f"@+{_seconds(step)}")
            run_script(session, [out[-1]], clock)
            if step == left:
                return
            left -= step

    with tempfile.TemporaryDirectory() as tmp:
        _drive_in_process(scenario, Path(tmp), drive)
    return Scenario(scenario.name, scenario.argv, tuple(out), scenario.mode)


# --- in process ----------------------------------------------------------------------------
def records(path: Path) -> int:
    """Complete journal records after the header (as :func:`voice.session.journal.read` counts)."""
    data = path.read_bytes()
    return max(0, data.count(b"\n") - 1)


def _drive_in_process(
    scenario: Scenario, tmp: Path, drive: Callable[[Any, Any, str], None]
) -> tuple[Path, str]:
    """Run ``play`` in this process with the real session, feeding lines through
    ``drive(session, clock, line)``; returns the save file and the JSON output."""
    save = tmp / "uninterrupted.jsonl"
    save.unlink(missing_ok=True)
    script = tmp / "uninterrupted.script"
    script.write_text("\n".join(scenario.lines) + "\n", encoding="utf-8")

    def driver(session: Any, _lines: Sequence[str], clock: Any) -> None:
        for line in scenario.lines:
            if session.finished:
                break
            drive(session, clock, line)

    out, err = io.StringIO(), io.StringIO()
    argv = [*scenario.argv, "--save", str(save), "--script", str(script), "--json"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv, run_lines=driver)
    if code != 0:
        raise RuntimeError(f"{scenario.name}: the uninterrupted run failed: {err.getvalue()}")
    return save, out.getvalue()


def trace(scenario: Scenario, tmp: Path) -> Trace:
    """Run the scenario uninterrupted, noting the journal's length after every line."""
    counts: list[int] = []
    save_box: list[Path] = []

    def drive(session: Any, clock: Any, line: str) -> None:
        if not counts:
            save_box.append(session.journal.path)
            counts.append(records(session.journal.path))
        run_script(session, [line], clock)
        counts.append(records(session.journal.path))

    save, out = _drive_in_process(scenario, tmp, drive)
    if not counts:
        counts.append(records(save))
    counts += [counts[-1]] * (len(scenario.lines) + 1 - len(counts))  # the game ended early
    return Trace(counts, save.read_bytes(), snapshot_of(save), last_game_over(out))


def snapshot_of(save: Path) -> Any:
    contents = read(save)
    adapter = adapter_for(contents.header.game)
    return replay(adapter.create(contents.header.setup), contents.actions).snapshot()


def last_game_over(out: str) -> dict[str, Any] | None:
    found = None
    for line in out.splitlines():
        if '"game_over"' in line:
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if event.get("type") == "game_over":
                    found = event
    return found


def check_resume_points(
    scenario: Scenario, tmp: Path, points: Sequence[int] | None = None, whole: Trace | None = None
) -> list[str]:
    """Resume in process from the journal cut after each record count in ``points``
    (default: all) and compare with the uninterrupted run; returns the problems."""
    whole = whole or trace(scenario, tmp)
    journal = whole.journal.splitlines(keepends=True)
    total = len(journal) - 1
    problems = []
    for c in points if points is not None else range(total + 1):
        start = whole.start_for(c)
        if start is None:
            problems.append(f"{c} records: no script line ends there (one line wrote several)")
            continue
        save = tmp / f"cut-{c}.jsonl"
        save.write_bytes(b"".join(journal[: c + 1]))
        rest = tmp / f"rest-{c}.script"
        rest.write_text("\n".join(scenario.lines[start:]) + "\n", encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            resume = ["resume", str(save), *_private_of(scenario.argv)]
            code = cli.main([*resume, "--script", str(rest), "--json"])
        if code != 0:
            problems.append(f"{c} records: resume failed: {err.getvalue().strip()}")
        elif save.read_bytes() != whole.journal:
            problems.append(f"{c} records (line {start}): the save file differs at the end")
        elif last_game_over(out.getvalue()) != whole.game_over:
            problems.append(f"{c} records (line {start}): another game_over")
    return problems


# --- real processes -------------------------------------------------------------------------
@dataclass
class Chain:
    """One game, killed again and again until a process finishes it."""

    scenario: str
    mode: str
    kills: list[int] = field(default_factory=list)
    """Journal records found after each delivered kill (-1: no save file yet)."""

    survived: bool = False
    disturbed: bool = False
    """Keyboard mode only: a timer fired (the machine stalled), so the run proves nothing."""

    problem: str = ""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _private_of(argv: tuple[str, ...]) -> list[str]:
    """The game's private channel (``--private X``): a resumed game has it again."""
    if "--private" in argv and argv.index("--private") + 1 < len(argv):
        return ["--private", argv[argv.index("--private") + 1]]
    return []


def _command(scenario: Scenario, save: Path, rest: Path | None, resume: bool) -> list[str]:
    start = (
        ["resume", str(save), *_private_of(scenario.argv)]
        if resume
        else [*scenario.argv, "--save", str(save)]
    )
    if scenario.mode == "script":
        assert rest is not None
        feed = ["--script", str(rest)]
    else:
        feed = ["--input", "keyboard", "--voice", "none"]
    return [sys.executable, "-m", "voice", *start, *feed, "--json"]


def _feed(proc: subprocess.Popen[bytes], lines: Sequence[str], rng: random.Random) -> None:
    """Type lines into a keyboard-mode process at a brisk, uneven pace."""
    assert proc.stdin is not None
    try:
        for line in lines:
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
            time.sleep(rng.uniform(0.002, 0.03))
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass  # killed while typing


@dataclass(frozen=True)
class KillPoint:
    """When to kill: ``seconds`` after the start, or ``extra`` seconds after the save file
    first holds ``records`` records (this spreads kills evenly over a game, whose lines
    take milliseconds after a start-up of most of a second)."""

    seconds: float | None = None
    records: int | None = None
    extra: float = 0.0


def run_segment(
    scenario: Scenario,
    lines: Sequence[str],
    save: Path,
    work: Path,
    resume: bool,
    kill: KillPoint | None,
    rng: random.Random,
) -> tuple[int, str]:
    """One process over ``lines``, killed with SIGKILL at ``kill`` if still running.

    Returns (exit code, stdout). Exit code ``-SIGKILL`` means the kill was delivered.
    """
    rest = work / "rest.script"
    rest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out_path = work / "out.jsonl"
    with open(out_path, "wb") as out, open(work / "err.txt", "wb") as err:
        proc = subprocess.Popen(
            _command(scenario, save, rest, resume),
            stdin=subprocess.PIPE if scenario.mode == "keyboard" else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd=ROOT,
            env=_env(),
        )
        feeder = None
        if scenario.mode == "keyboard":
            feeder = threading.Thread(target=_feed, args=(proc, lines, rng), daemon=True)
            feeder.start()
        _wait_and_kill(proc, save, kill)
        if feeder is not None:
            feeder.join(timeout=30)
    return proc.returncode, out_path.read_text(encoding="utf-8", errors="replace")


def _wait_and_kill(proc: subprocess.Popen[bytes], save: Path, kill: KillPoint | None) -> None:
    timeout: float | None = 300.0 if kill is None else kill.seconds
    if kill is not None and kill.records is not None:
        deadline = time.monotonic() + 300
        while not (save.exists() and records(save) >= kill.records):
            if proc.poll() is not None or time.monotonic() > deadline:
                return
            time.sleep(0.0005)
        time.sleep(kill.extra)
        timeout = 0
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)


def estimate(scenario: Scenario, work: Path) -> tuple[float, float]:
    """(start-up seconds, seconds per line) of a real process for this scenario."""
    save = work / "estimate.jsonl"
    timings = []
    for lines in ((), scenario.lines):
        save.unlink(missing_ok=True)
        start = time.perf_counter()
        code, _ = run_segment(scenario, lines, save, work, False, None, random.Random(0))
        timings.append(time.perf_counter() - start)
        if code != 0:
            raise RuntimeError(f"{scenario.name}: the process failed ({code})")
    save.unlink(missing_ok=True)
    startup, whole = timings
    return startup, max(0.0, whole - startup) / max(1, len(scenario.lines))


def kill_chain(
    scenario: Scenario,
    whole: Trace,
    work: Path,
    rng: random.Random,
    kills: int,
    timing: tuple[float, float],
) -> Chain:
    """Play ``scenario`` in real processes, killing up to ``kills`` of them at random
    moments and resuming each time; compare the end with ``whole``."""
    chain = Chain(scenario.name, scenario.mode)
    startup, per_line = timing
    save = work / "game.jsonl"
    save.unlink(missing_ok=True)
    lines: Sequence[str] = scenario.lines
    resume = False
    for _ in range(kills + 50):  # kills that land after the end do not count
        kill = None
        if len(chain.kills) < kills:
            kill = _kill_point(rng, whole, save, resume, startup, per_line, len(lines))
        code, out = run_segment(scenario, lines, save, work, resume, kill, rng)
        if code != -signal.SIGKILL:
            if code != 0:
                chain.problem = f"exit code {code}: {(work / 'err.txt').read_text()[-500:]}"
                return chain
            if not chain.kills:  # the game ended before the kill: start it again
                save.unlink()
                lines, resume = scenario.lines, False
                continue
            break
        found = _records_after_kill(save)
        if isinstance(found, str):
            chain.problem = found
            return chain
        chain.kills.append(found)
        if found < 0:  # killed before the game was saved at all: start again
            lines, resume = scenario.lines, False
            continue
        if whole.journal.splitlines(keepends=True)[: found + 1] != _complete_lines(save):
            chain.problem = f"after a kill at {found} records the save file differs"
            return chain
        start = whole.start_for(found)
        if start is None:
            chain.problem = f"{found} records match no script line"
            return chain
        lines, resume = scenario.lines[start:], True
    else:
        chain.problem = "the game never finished"
        return chain
    final = save.read_bytes()
    if scenario.mode == "keyboard" and b'"name":"timer"' in final:
        chain.disturbed = True
        return chain
    if final != whole.journal:
        chain.problem = "the final save file differs from the uninterrupted run's: "
        chain.problem += _first_difference(whole.journal, final)
    elif snapshot_of(save) != whole.snapshot:
        chain.problem = "the replayed state differs"
    elif last_game_over(out) != whole.game_over:
        chain.problem = f"game_over {last_game_over(out)} != {whole.game_over}"
    else:
        chain.survived = True
    return chain


def _kill_point(
    rng: random.Random,
    whole: Trace,
    save: Path,
    resume: bool,
    startup: float,
    per_line: float,
    lines: int,
) -> KillPoint:
    """A quarter of the kills at a random moment of the whole run (start-up, shutdown),
    the rest at a random journal position still ahead, a random fraction of a line later
    (so also between handling a line and writing it down, or while writing)."""
    if rng.random() < 0.25:
        return KillPoint(seconds=rng.uniform(0, startup + per_line * lines * 1.2))
    total = len(whole.journal.splitlines()) - 1
    done = records(save) if resume and save.exists() else 0
    return KillPoint(records=rng.randint(done, total), extra=rng.uniform(0, 2 * per_line))


def _first_difference(expected: bytes, got: bytes) -> str:
    """Where two journals part: the record number and both records (for the report)."""
    want, have = expected.splitlines(), got.splitlines()
    for i, (a, b) in enumerate(zip(want, have, strict=False)):
        if a != b:
            return f"record {i}: expected {a.decode()!r}, got {b.decode(errors='replace')!r}"
    return f"{len(want) - 1} records expected, {len(have) - 1} written"


def _complete_lines(save: Path) -> list[bytes]:
    contents = read(save)
    return save.read_bytes()[: contents.valid_length].splitlines(keepends=True)


def _records_after_kill(save: Path) -> int | str:
    """Complete records in the save file after a kill (-1: none), or what is wrong."""
    if not save.exists():
        return -1
    try:
        contents = read(save)
    except JournalError as exc:
        if save.stat().st_size == 0:
            return -1  # killed between creating the file and writing its first line
        return f"unreadable after a kill: {exc}"
    return save.read_bytes()[: contents.valid_length].count(b"\n") - 1


# --- the report ------------------------------------------------------------------------------
def run(
    scenarios: Sequence[Scenario], chains: int, kills: int, seed: int, work: Path
) -> dict[str, Any]:
    rng = random.Random(seed)
    results: dict[str, Any] = {"scenarios": {}, "chains": []}
    for scenario in scenarios:
        tmp = work / scenario.name.replace("/", "-") / scenario.mode
        tmp.mkdir(parents=True, exist_ok=True)
        whole = trace(scenario, tmp)
        problems = check_resume_points(scenario, tmp, whole=whole)
        timing = estimate(scenario, tmp)
        entry: dict[str, Any] = {
            "mode": scenario.mode,
            "lines": len(scenario.lines),
            "records": len(whole.journal.splitlines()) - 1,
            "resume_points_checked": len(whole.journal.splitlines()),
            "resume_point_problems": problems,
            "startup_s": round(timing[0], 3),
            "per_line_ms": round(timing[1] * 1000, 3),
            "chains": [],
        }
        results["scenarios"][f"{scenario.mode}:{scenario.name}"] = entry
        for _ in range(chains):
            chain = kill_chain(scenario, whole, tmp, rng, kills, timing)
            entry["chains"].append(chain.__dict__)
            print(
                f"{scenario.mode:8} {scenario.name:45} kills at {chain.kills} "
                + ("ok" if chain.survived else "DISTURBED" if chain.disturbed else chain.problem),
                flush=True,
            )
    all_chains = [c for s in results["scenarios"].values() for c in s["chains"]]
    delivered = sum(len(c["kills"]) for c in all_chains)
    survived = sum(len(c["kills"]) for c in all_chains if c["survived"])
    disturbed = sum(len(c["kills"]) for c in all_chains if c["disturbed"])
    results["summary"] = {
        "kills_delivered": delivered,
        "kills_survived": survived,
        "kills_in_disturbed_runs": disturbed,
        "kills_before_first_save": sum(c["kills"].count(-1) for c in all_chains),
        "chains": len(all_chains),
        "chains_survived": sum(c["survived"] for c in all_chains),
        "resume_points_checked_in_process": sum(
            s["resume_points_checked"] for s in results["scenarios"].values()
        ),
        "resume_point_problems": sum(
            len(s["resume_point_problems"]) for s in results["scenarios"].values()
        ),
    }
    return results


def write_report(results: dict[str, Any], out: Path, argv: Sequence[str]) -> str:
    s = results["summary"]
    lines = [
        "# Crash safety (SIGKILL at random moments, resume, compare)",
        "",
        f"Command: `python -m voice.bench.crash {' '.join(argv)}`",
        "",
        f"- kills survived / delivered: **{s['kills_survived']} / {s['kills_delivered']}** "
        f"({s['kills_before_first_save']} landed before the save file existed; "
        f"{s['kills_in_disturbed_runs']} in runs a stalled machine disturbed)",
        f"- kill chains ending exactly like the uninterrupted game: "
        f"{s['chains_survived']} / {s['chains']}",
        f"- resume points checked in process (every journal position of every scenario): "
        f"{s['resume_points_checked_in_process']}, problems: {s['resume_point_problems']}",
        "",
        "| mode | scenario | lines | records | kills (survived/delivered) | kill positions |",
        "|---|---|---|---|---|---|",
    ]
    for name, entry in results["scenarios"].items():
        chains = entry["chains"]
        kills = [k for c in chains for k in c["kills"]]
        ok = sum(len(c["kills"]) for c in chains if c["survived"])
        positions = sorted(set(kills))
        lines.append(
            f"| {entry['mode']} | {name.split(':', 1)[1]} | {entry['lines']} | "
            f"{entry['records']} | {ok}/{len(kills)} | {len(positions)} distinct |"
        )
    text = "\n".join(lines) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    (out / "crash.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (out / "crash.md").write_text(text, encoding="utf-8")
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chains", type=int, default=8, help="kill chains per scenario")
    parser.add_argument("--kills", type=int, default=3, help="kills per chain")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="run scenarios whose name contains this")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    args = parser.parse_args(argv)
    scenarios = [
        s for s in golden_scenarios() + keyboard_scenarios() if args.only in f"{s.mode}:{s.name}"
    ]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        os.environ["XDG_DATA_HOME"] = str(home / "data")
        os.environ["XDG_CONFIG_HOME"] = str(home / "config")
        start = time.perf_counter()
        results = run(scenarios, args.chains, args.kills, args.seed, Path(tmp))
    results["seconds"] = round(time.perf_counter() - start, 1)
    results["machine"] = {"platform": platform.platform(), "cpus": os.cpu_count()}
    print(write_report(results, args.out, sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
