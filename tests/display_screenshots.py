"""Write screenshots of each game's table view (light and dark, desktop and phone) for a
person to look at; not committed, not part of the tests.

    .venv/bin/python tests/display_screenshots.py [OUTDIR]     # default: screenshots/
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from display_games import GAMES, chromium  # noqa: E402

from voice.display.server import TableServer  # noqa: E402


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    driver = chromium()
    try:
        for name, play in GAMES.items():
            with tempfile.TemporaryDirectory() as tmp:
                save = Path(tmp) / "game.jsonl"
                steps = list(_run(play(save), STOP.get(name)))
                server = TableServer(save, "127.0.0.1", 0)
                server.serve_in_thread()
                port = server.server_address[1]
                for theme, size in (("light", (1280, 1000)), ("dark", (400, 850))):
                    driver.set_window_size(*size)
                    driver.get(f"http://127.0.0.1:{port}/?theme={theme}")
                    time.sleep(0.5)
                    path = out / f"{name}-{theme}-{size[0]}.png"
                    driver.save_screenshot(str(path))
                    print(path)
                server.stop()
                del steps
    finally:
        driver.quit()


STOP = {"pantone": 4}
"""Stop a game at this step (the Pantone view while guessing, with hints and board)."""


def _run(steps, stop):
    for number, _ in enumerate(steps):  # play the scripted game up to its step ``stop``
        yield None
        if number == stop:
            return


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("screenshots"))
