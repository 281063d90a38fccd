"""The table view's server under load and misuse, on loopback (issue 27.3).

    python -m voice.bench.display_load [--viewers 200] [--requests 5000] [--pace 1.0]
                                       [--out bench-results]

A Pantone game is written to a save file, and ``farbspiel display`` serves it from a
process of its own, as at the table. Then, one after another:

* **viewers**: ``--viewers`` clients at once fetch the page, a new connection each, until
  ``--requests`` are done; the time of each (connect to last byte), timeouts at 10 s.
  First each viewer reloads once every ``--pace`` seconds (started at random moments),
  then the same as a flood (each asks again as soon as it has its answer: a throughput
  test, where each answer waits for those of all the others);
* **keep-alive**: one connection, ``--keepalive`` requests one after another;
* **streams**: ``--streams`` live-update streams opened (each to its first event) and
  closed, then a new viewer's stream: the time to its first event;
* **slow clients**: ``--slow`` connections that send their request a byte a second for
  ``--slow-seconds``, while a normal request is timed every 0.2 s (against the same before);
* **bad saves**: the save file replaced by a FIFO, a folder, a symbolic link loop, a
  half-written line, a 3 MB line, 20 MB without a newline: the view must answer, say it
  is waiting, and show the game again once the good file is back.

Writes ``display-load.json`` and ``display-load.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from games.engine import Setup
from voice.display.views import word
from voice.output.sinks import JsonOutput, RecordingOutput
from voice.session.adapters import ADAPTERS
from voice.session.journal import Header, Journal
from voice.session.session import Session

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0
HOST = "127.0.0.1"
TARGETS = {"viewers_p95_ms": 50.0, "keepalive_p50_ms": 5.0}


def write_game(save: Path) -> None:
    """A Pantone game in English, the Artist painting (what the view shows most)."""
    adapter = ADAPTERS["pantone"]
    setup = Setup(("Anna", "Ben", "Cem"), 5, "Anna", adapter.default_options("en"))
    journal = Journal.create(save, Header("pantone", "en", setup))
    session = Session(adapter, "en", setup, JsonOutput(io.StringIO()), journal=journal,
                      private=RecordingOutput())  # fmt: skip
    session.start()
    session.hear("card 1")
    session.hear("on the board: two yellow at the top, black in the middle")


def start_display(save: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``farbspiel display`` on a free port, in a process of its own; (process, port)."""
    from voice.cli.display import _free_port, _serves

    port = _free_port(HOST)
    command = [sys.executable, "-m", "voice", "display", str(save), "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not _serves(HOST, port, save):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("farbspiel display did not start")
        time.sleep(0.05)
    return process, port


def _request(path: str, close: bool = True) -> bytes:
    connection = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n{connection}\r\n".encode()


async def fetch(port: int, path: str = "/") -> tuple[int, bytes, float]:
    """One request on a new connection: (status, body, seconds); status 0 on a timeout."""
    began = time.perf_counter()

    async def go() -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(_request(path))
        data = await reader.read()
        writer.close()
        head, _, body = data.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]) if head else 0, body

    try:
        status, body = await asyncio.wait_for(go(), TIMEOUT)
    except (TimeoutError, OSError, ValueError, IndexError):
        status, body = 0, b""
    return status, body, time.perf_counter() - began


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return {"p50_ms": round(statistics.median(values) * 1000, 2), "p95_ms": round(p95 * 1000, 2),
            "max_ms": round(values[-1] * 1000, 2)}  # fmt: skip


async def viewers(port: int, count: int, total: int, pace: float) -> dict[str, Any]:
    """``count`` clients at once, ``total`` requests in all, a connection each. With
    ``pace``, each viewer asks once every ``pace`` seconds (a viewer reloading its page,
    started at random moments); without, as fast as answers come (a flood)."""
    left, times, bad, timeouts = [total], [], [0], [0]
    rng = random.Random(1)

    async def viewer() -> None:
        await asyncio.sleep(rng.uniform(0, pace))
        while left[0] > 0:
            left[0] -= 1
            began = time.perf_counter()
            status, _, seconds = await fetch(port)
            times.append(seconds)
            timeouts[0] += status == 0
            bad[0] += status not in (0, 200)
            await asyncio.sleep(max(0.0, pace - (time.perf_counter() - began)))

    began = time.perf_counter()
    await asyncio.gather(*(viewer() for _ in range(count)))
    wall = time.perf_counter() - began
    return {"viewers": count, "requests": len(times), "pace_s": pace, "timeouts": timeouts[0],
            "not_ok": bad[0], "per_second": round(len(times) / wall), **_ms(times)}  # fmt: skip


async def keepalive(port: int, count: int) -> dict[str, Any]:
    """``count`` requests one after another on one kept-alive connection."""
    reader, writer = await asyncio.open_connection(HOST, port)
    times = []
    try:
        for _ in range(count):
            began = time.perf_counter()
            writer.write(_request("/", close=False))
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))  # fmt: skip
            await reader.readexactly(length)
            times.append(time.perf_counter() - began)
    finally:
        writer.close()
    return {"requests": len(times), **_ms(times)}


async def first_event(port: int, path: str = "/events") -> tuple[int, float]:
    """Open a stream, read it to its first event, and drop it: (status, seconds)."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(_request(path, close=False))
        data = b""
        async with asyncio.timeout(TIMEOUT):
            while b"\ndata: " not in data and b" 503 " not in data[:20]:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                data += chunk
        return int(data.split(b" ", 2)[1]), time.perf_counter() - began
    except (TimeoutError, OSError, ValueError, IndexError):
        return 0, time.perf_counter() - began
    finally:
        writer.close()


async def streams(port: int, count: int) -> dict[str, Any]:
    """``count`` streams opened and closed one after another, then a new viewer's."""
    statuses = [(await first_event(port))[0] for _ in range(count)]
    status, seconds = await first_event(port)
    page, _, page_seconds = await fetch(port)
    return {"opened_and_closed": count, "all_served": all(s == 200 for s in statuses),
            "new_stream_status": status, "new_stream_first_event_ms": round(seconds * 1000, 2),
            "new_page_status": page, "new_page_ms": round(page_seconds * 1000, 2)}  # fmt: skip


async def slow_clients(port: int, count: int, seconds: float) -> dict[str, Any]:
    """``count`` clients dribbling their requests for ``seconds``, a normal one timed meanwhile."""

    async def normal_requests(until: float) -> list[float]:
        times = []
        while time.monotonic() < until:
            status, _, took = await fetch(port)
            times.append(took if status == 200 else TIMEOUT)
            await asyncio.sleep(0.2)
        return times

    before = await normal_requests(time.monotonic() + min(seconds, 3.0))

    async def dribble(until: float) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        text = _request("/")
        with_pause = 0
        while time.monotonic() < until and with_pause < len(text) - 1:
            writer.write(text[with_pause : with_pause + 1])
            with_pause += 1
            await asyncio.sleep(1.0)
        writer.close()

    until = time.monotonic() + seconds
    slow = [asyncio.ensure_future(dribble(until)) for _ in range(count)]
    await asyncio.sleep(0.5)  # (all of them connected)
    during = await normal_requests(until)
    await asyncio.gather(*slow, return_exceptions=True)
    return {"slow_clients": count, "seconds": seconds,
            "before": _ms(before), "during": _ms(during)}  # fmt: skip


BAD_SAVES = ("fifo", "folder", "link loop", "half-written line", "3 MB line", "20 MB, no newline")


def spoil(save: Path, kind: str, good: bytes) -> None:
    """Put ``kind`` where the save file is (``good``: its contents)."""
    restore(save, None)
    if kind == "fifo":
        os.mkfifo(save)
    elif kind == "folder":
        save.mkdir()
    elif kind == "link loop":
        save.symlink_to(save.name)
    elif kind == "half-written line":
        save.write_bytes(good + b'{"action": {"name": "do')
    elif kind == "3 MB line":
        save.write_bytes(good + b'{"action": "' + b"x" * 3_000_000 + b'"}\n')
    else:
        save.write_bytes(good + b"y" * 20_000_000)


def restore(save: Path, good: bytes | None) -> None:
    if save.is_dir() and not save.is_symlink():
        save.rmdir()
    elif save.is_symlink() or save.exists():
        save.unlink()
    if good is not None:
        save.write_bytes(good)


async def bad_saves(port: int, save: Path) -> dict[str, Any]:
    """Each bad save: does the view answer and say it waits, and come back after?"""
    from voice.display.views import esc

    good = save.read_bytes()
    waits = (esc(word("en", "waiting")), esc(word("en", "unreadable")))
    shown = "The Artist is painting"
    found: dict[str, Any] = {}
    for kind in BAD_SAVES:
        spoil(save, kind, good)
        status, body, seconds = await fetch(port)
        text = body.decode("utf-8", "replace")
        restore(save, good)
        began, back = time.perf_counter(), False
        while not back and time.perf_counter() - began < TIMEOUT:
            _, again, _ = await fetch(port)
            page = again.decode("utf-8", "replace")
            back = shown in page and not any(w in page for w in waits)
        found[kind] = {"status": status, "answer_ms": round(seconds * 1000, 2),
                       "says_waiting": any(w in text for w in waits), "recovered": back,
                       "recovered_ms": round((time.perf_counter() - began) * 1000, 2)}  # fmt: skip
    return found


async def resets(port: int, count: int) -> int:
    """``count`` connections reset in the middle of a request or a stream."""
    import socket
    import struct

    for number in range(count):
        with socket.create_connection((HOST, port), timeout=5) as s:
            s.sendall(_request("/events" if number % 2 else "/", close=False))
            await asyncio.sleep(0.02)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    return count


async def measure(port: int, save: Path, args: argparse.Namespace) -> dict[str, Any]:
    await fetch(port)  # (warm)
    return {
        "viewers": await viewers(port, args.viewers, args.requests, args.pace),
        "flood": await viewers(port, args.viewers, args.requests, 0.0),
        "keepalive": await keepalive(port, args.keepalive),
        "streams": await streams(port, args.streams),
        "slow_clients": await slow_clients(port, args.slow, args.slow_seconds),
        "bad_saves": await bad_saves(port, save),
        "resets": await resets(port, 20),
    }


def verdicts(result: dict[str, Any]) -> dict[str, bool]:
    """The issue's targets, met or not."""
    view, slow, stream = result["viewers"], result["slow_clients"], result["streams"]
    slowed = slow["during"].get("p95_ms", 0) > max(3 * slow["before"].get("p95_ms", 0), 50)
    return {
        "200 viewers: p95 <= 50 ms, no timeout": view["p95_ms"] <= 50 and not view["timeouts"],
        "flood: no timeout, every answer 200": not result["flood"]["timeouts"]
        and not result["flood"]["not_ok"],
        "keep-alive p50 <= 5 ms": result["keepalive"]["p50_ms"] <= 5,
        "streams closed: a new viewer served at once": stream["new_stream_status"] == 200
        and stream["new_stream_first_event_ms"] < 1000
        and stream["new_page_status"] == 200,
        "slow clients slow no normal request": not slowed,
        "bad saves: waiting, then recovered": all(
            b["status"] == 200 and b["says_waiting"] and b["recovered"]
            for b in result["bad_saves"].values()
        ),
        "nothing on the terminal": result["terminal_output"] == "",
    }


def report(result: dict[str, Any]) -> str:
    view, keep, stream, slow = (
        result[k] for k in ("viewers", "keepalive", "streams", "slow_clients")
    )
    flood = result["flood"]
    lines = [
        "# The table view under load (loopback)", "", f"`{result['command']}`", "",
        f"- {view['viewers']} viewers, a request every {view['pace_s']} s each, {view['requests']} "
        f"requests: p50 {view['p50_ms']} ms, p95 {view['p95_ms']} ms, max {view['max_ms']} ms, "
        f"{view['timeouts']} timeouts, {view['not_ok']} not 200, {view['per_second']} requests/s",
        f"- the same as a flood (each viewer asks again at once), {flood['requests']} requests: "
        f"p50 {flood['p50_ms']} ms, p95 {flood['p95_ms']} ms, max {flood['max_ms']} ms, "
        f"{flood['timeouts']} timeouts, {flood['not_ok']} not 200, "
        f"{flood['per_second']} requests/s",
        f"- keep-alive, {keep['requests']} requests: p50 {keep['p50_ms']} ms, "
        f"p95 {keep['p95_ms']} ms",
        f"- {stream['opened_and_closed']} streams opened and closed, then a new one: "
        f"{stream['new_stream_status']}, "
        f"first event after {stream['new_stream_first_event_ms']} ms; "
        f"the page {stream['new_page_status']} in {stream['new_page_ms']} ms",
        f"- {slow['slow_clients']} slow clients for {slow['seconds']} s: a normal request p50/p95 "
        f"{slow['before'].get('p50_ms')}/{slow['before'].get('p95_ms')} ms before, "
        f"{slow['during'].get('p50_ms')}/{slow['during'].get('p95_ms')} ms during",
        f"- {result['resets']} connections reset; lines on the terminal caused by clients: "
        f"{len(result['terminal_output'].splitlines())}",
        "", "| bad save | status | answer ms | says waiting | recovered | recovered after ms |",
        "|---|---|---|---|---|---|",
    ]  # fmt: skip
    for kind, b in result["bad_saves"].items():
        lines.append(f"| {kind} | {b['status']} | {b['answer_ms']} | {b['says_waiting']} | "
                     f"{b['recovered']} | {b['recovered_ms']} |")  # fmt: skip
    lines += ["", "| target | met |", "|---|---|"]
    lines += [f"| {name} | {'yes' if met else 'NO'} |" for name, met in result["targets"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds between a viewer's requests"
    )
    parser.add_argument("--keepalive", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=64)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--slow-seconds", type=float, default=20.0)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "game.jsonl"
        write_game(save)
        process, port = start_display(save)
        try:
            result = asyncio.run(measure(port, save, args))
        finally:
            process.terminate()
            _, err = process.communicate(timeout=10)
    said = err.decode("utf-8", "replace").splitlines()
    # what the clients caused: anything but the server's own "farbspiel: serving at ..." lines
    result["terminal_output"] = "\n".join(x for x in said if not x.startswith("farbspiel: "))
    result["command"] = "python -m voice.bench.display_load " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    result["targets"] = verdicts(result)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "display-load.json").write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    text = report(result)
    (args.out / "display-load.md").write_text(text, "utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
