"""Measure how soon the table view shows a move: journal written → text changed in a real
browser (headless chromium, server-sent events). Writes bench-results/display-latency.txt.

    .venv/bin/python tests/display_latency.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from display_games import chromium, start  # noqa: E402

from voice.display.server import POLL_SECONDS, TableServer  # noqa: E402

MOVES = ["red", "yellow", "green", "blue", "orange", "pink", "purple", "yellow", "green", "blue"]


def main() -> None:
    driver = chromium()
    latencies = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            save = Path(tmp) / "game.jsonl"
            session = start(save, "alle-meine-farben", "en", ("Anna", "Ben"), "Anna")
            server = TableServer(save, "127.0.0.1", 0)
            server.serve_in_thread()
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
            time.sleep(1)
            for number, colour in enumerate(MOVES, start=2):
                began = time.monotonic()
                session.hear(colour)  # journalled before this returns
                while f"number {number}," not in driver.find_element("id", "view").text:
                    time.sleep(0.01)
                latencies.append(time.monotonic() - began)
                time.sleep(0.3)
            server.stop()
    finally:
        driver.quit()
    line = (
        f"journal write -> page text changed (server-sent events, poll {POLL_SECONDS}s): "
        f"median {statistics.median(latencies):.3f}s, max {max(latencies):.3f}s, "
        f"n={len(latencies)}"
    )
    out = ROOT / "bench-results" / "display-latency.txt"
    out.parent.mkdir(exist_ok=True)
    out.write_text(line + "\n", encoding="utf-8")
    print(line)


if __name__ == "__main__":
    main()
