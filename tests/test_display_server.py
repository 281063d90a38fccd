# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view's server against hostile requests, and a journal being written."""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path

import pytest
from display_games import start

from voice.display.private import start_phones
from voice.display.server import TableServer


@pytest.fixture()
def served(tmp_path: Path):
    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    session.hear("card 1")
    start_phones(save, keep=False)
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    phones = {player: claim_phone(server, player) for player in ("Anna", "Ben", "Cem")}
    yield server, save, phones
    server.stop()


def claim_phone(server: TableServer, player: str, cookie: str = "") -> dict[str, str]:
    """A phone that picks "I am <player>" on the table page: the cookie it is given."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    conn.request("POST", "/claim", body=f"player={player}", headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 303 and response.getheader("Location") == "/me", response.status
    return {"Cookie": response.getheader("Set-Cookie", "").split(";")[0]}


def _get(server: TableServer, path: str, method: str = "GET", headers=None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    conn.request(method, path, headers=headers or {})
    response = conn.getresponse()
    body = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, body


def _raw(server: TableServer, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=5) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_only_the_view_and_its_pages_are_served(served) -> None:
    server, save, _phones = served
    status, body = _get(server, "/")
    assert status == 200 and "Artist: <strong>Anna</strong>" in body and "Potato" not in body
    for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/view.css/../../x", "//etc/passwd",
                 "/game.jsonl", "/" + save.name, "/p/", "/p/guessed-token", "/p/" + "A" * 22,
                 "/static/view.js", "/events/x", "/favicon.ico", "/me/x", "/p/x"):  # fmt: skip
        status, body = _get(server, path)
        assert status == 404, path
        assert "Potato" not in body and "farbspiel" not in body[:0] + ""
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
        status, _ = _get(server, "/", method)
        assert status == 405, method
    assert _raw(server, b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").split(b" ")[1] == b"501"


def test_huge_and_broken_requests_get_clean_refusals(served) -> None:
    server, _, _ = served
    assert _raw(server, b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n").split(b" ")[1] == b"414"
    huge = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"b" * 70000 + b"\r\n\r\n"
    assert _raw(server, huge).split(b" ")[1] == b"431"
    many = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(
        b"X%d: y\r\n" % i for i in range(150)
    )
    assert _raw(server, many + b"\r\n").split(b" ")[1] == b"431"
    assert b"400" in _raw(server, b"\x16\x03\x01garbage\r\n\r\n")  # (no version: HTTP/0.9 form)
    status, _ = _get(server, "/", headers={"Host": "evil.example:8765"})
    assert status == 421  # a loopback view refuses other host names (DNS rebinding)
    status, body = _get(server, "/")  # and still serves after all that
    assert status == 200


def test_private_pages_show_only_their_owner_what_is_theirs(served) -> None:
    server, _, phones = served
    status, body = _get(server, "/me", headers=phones["Anna"])
    assert status == 200 and "Anna, your character is Mr. Potato Head, card 1." in body
    status, body = _get(server, "/me", headers=phones["Ben"])
    assert status == 200 and "Potato" not in body and "Nothing for you right now" in body
    status, _ = _get(server, "/")
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    conn.request("GET", "/")
    headers = dict(conn.getresponse().getheaders())
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"


def test_a_half_written_or_corrupt_line_shows_the_last_good_state_and_waits(served) -> None:
    server, save, _ = served
    good = save.read_bytes()
    with save.open("ab") as f:
        f.write(b'{"action": {"name": "do')  # a line being written
    status, body = _get(server, "/")
    assert (
        status == 200 and "The Artist is painting" in body and "Waiting for the next move" in body
    )
    save.write_bytes(good + b"\x00\xff not json\n" + b'{"action": {"name": "done", "args": {}}}\n')
    status, body = _get(server, "/")
    assert status == 200 and "The Artist is painting" in body and "Waiting" in body
    save.write_bytes(good + json.dumps({"action": {"name": "done", "args": {}}}).encode() + b"\n")
    status, body = _get(server, "/")
    assert "Guessing now: <strong>Ben</strong>" in body and "Waiting" not in body
    save.write_bytes(b"this is not a save file\n")
    status, body = _get(server, "/")
    assert status == 200 and "cannot be read yet" in body


def _events(
    server: TableServer, path: str = "/events", headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPResponse, list[bytes]]:
    """Open a live-update stream and read it up to its first event: (the answer, its lines)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    lines = []
    while response.status == 200 and not (lines and lines[-1].startswith(b"data: ")):
        lines.append(response.readline().rstrip(b"\n"))
    return response, lines


def test_server_sent_events_stream_the_view(served) -> None:
    server, save, _ = served
    response, lines = _events(server)
    assert response.getheader("Content-Type").startswith("text/event-stream")
    assert lines[0] == b"retry: 1000"
    event = json.loads(lines[-1].removeprefix(b"data: "))
    assert "The Artist is painting" in event["main"] and "Potato" not in event["main"]
    response.close()


def test_the_view_beside_a_game_survives_the_games_crash(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from voice.cli.display import _free_port, _serves

    save, port = tmp_path / "crash.jsonl", _free_port("127.0.0.1")
    game = subprocess.Popen(
        [sys.executable, "-m", "voice", "play", "pantone", "--players", "Anna,Ben,Cem",
         "--first", "Anna", "--input", "keyboard", "--voice", "text", "--save", str(save),
         "--display", "--port", str(port)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert b"Table view: http://127.0.0.1:%d/" % port in game.stderr.readline()
        game.stdin.write(b"card 1\n")
        game.stdin.flush()
        deadline = time.monotonic() + 20
        while b"paint!" not in game.stdout.readline() and time.monotonic() < deadline:
            pass
        game.send_signal(signal.SIGKILL)  # a crash: nothing of the game runs any more
        game.wait(10)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        body = conn.getresponse().read().decode()
        assert "The Artist is painting" in body and "Potato" not in body, body
        assert _serves("127.0.0.1", port, save)
        # resuming finds the view still running and uses it
        script = tmp_path / "r.script"
        script.write_text("done\n", encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "voice", "resume", str(save), "--script", str(script),
             "--display", "--port", str(port), "--voice", "none"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert f"Table view: http://127.0.0.1:{port}/" in run.stderr
    finally:
        if game.poll() is None:
            game.kill()
        # the lingering view: find it by its port and end it (only the one we started)
        out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True)
        for pid in {int(p) for p in __import__("re").findall(r"pid=(\d+)", out.stdout)}:
            os.kill(pid, signal.SIGTERM)


def test_a_pause_stops_the_views_clocks_and_continue_starts_them_where_they_stood(
    tmp_path: Path, monkeypatch
) -> None:
    """ "Pause" is journaled, so the view (which only reads the save file) freezes its
    countdown and says so; after "weiter" the clock goes on from what was left."""
    import os

    import voice.display.views as views
    from voice.display.state import Watcher

    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "de", ("Anna", "Ben", "Cem"), "Anna")
    session.hear("Karte 1")
    watcher = Watcher(save)
    began = os.stat(save).st_mtime

    def shown(at: float) -> str:
        monkeypatch.setattr(views.time, "time", lambda: at)
        return views.render(watcher.state()).main

    assert 'data-left="60"' in shown(began)
    session.hear("Pause")
    os.utime(save, (began + 20, began + 20))  # the pause began 20 s into the painting
    assert 'data-left="40"' in shown(began + 20)
    assert "Pause: Die Uhren stehen still." in shown(began + 25)
    assert 'data-left="40"' in shown(began + 300)  # minutes of pause: the clock stands
    session.hear("weiter")
    os.utime(save, (began + 300, began + 300))
    assert 'data-left="40"' in shown(began + 300)
    assert 'data-left="30"' in shown(began + 310) and "Pause" not in shown(began + 310)
    settings = [json.loads(line).get("setting") for line in save.read_text().splitlines()]
    paused, continued = (s for s in settings if s)
    assert paused["paused"] is True and continued == {"paused": False}
    # the painting clock was running (the session's own clock did not move here)
    assert list(paused["timers_ran"].values()) == [0.0]


def _replace(save: Path, kind: str) -> None:
    """Put something that is not a save file where the save file was."""
    import os

    save.unlink()
    if kind == "fifo":
        os.mkfifo(save)
    elif kind == "folder":
        save.mkdir()
    else:  # a symbolic link that leads to itself
        save.symlink_to(save.name)


@pytest.mark.parametrize("kind", ["fifo", "folder", "loop"])
def test_a_save_path_that_is_no_file_makes_the_view_wait_and_it_recovers(served, kind: str) -> None:
    server, save, phones = served
    good = save.read_bytes()
    _replace(save, kind)
    status, body = _get(server, "/")  # (a FIFO is never opened for reading: no hang)
    assert status == 200 and "cannot be read yet" in body
    assert _get(server, "/me", headers=phones["Anna"])[0] == 200  # the private pages answer too
    save.rmdir() if kind == "folder" else save.unlink()
    save.write_bytes(good)
    status, body = _get(server, "/")
    assert status == 200 and "The Artist is painting" in body and "Waiting" not in body


def test_a_huge_line_or_file_shows_the_last_good_state_and_waits(served) -> None:
    server, save, _ = served
    good = save.read_bytes()
    save.write_bytes(good + b'{"action": "' + b"x" * 3_000_000 + b'"}\n')
    status, body = _get(server, "/")
    assert status == 200 and "The Artist is painting" in body and "Waiting" in body
    with save.open("ab") as f:
        f.write(b"y" * 20_000_000)  # (more than the view reads)
    status, body = _get(server, "/")
    assert status == 200 and "The Artist is painting" in body and "Waiting" in body
    save.write_bytes(good)
    assert "Waiting" not in _get(server, "/")[1]


def test_a_reading_that_hangs_holds_up_no_request(served) -> None:
    """A stalled network share: the journal's reading never returns. Every request is still
    answered (from the last reading, saying it waits), and a fresh one once it answers."""
    import threading
    import time

    server, save, phones = served
    assert "The Artist is painting" in _get(server, "/")[1]
    watcher, released = server.journal.watcher, threading.Event()
    reading = watcher.state
    watcher.state = lambda: (released.wait(30), reading())[1]  # type: ignore[method-assign]
    try:
        began = time.monotonic()
        for path in ("/", "/", "/me", "/view.css"):
            status, body = _get(server, path, headers=phones["Anna"])
            assert status == 200, path
        assert time.monotonic() - began < 4
        assert "The Artist is painting" in body or path == "/view.css"
        assert "Waiting" in _get(server, "/")[1]
    finally:
        released.set()
    time.sleep(0.1)
    watcher.state = reading  # type: ignore[method-assign]
    assert "Waiting" not in _get(server, "/")[1]


def test_closed_streams_give_back_their_places_at_once(served) -> None:
    from voice.display.server import MAX_STREAMS

    server, _, phones = served
    for _ in range(2 * MAX_STREAMS):  # opened and closed, one after another
        response, _lines = _events(server)
        assert response.status == 200
        response.close()
    held = [_events(server)[0] for _ in range(MAX_STREAMS)]  # every place of the table taken
    assert all(r.status == 200 for r in held)
    assert _events(server)[0].status == 503  # "too many viewers"
    private, _lines = _events(server, "/me/events", phones["Anna"])
    assert private.status == 200  # the private pages keep places of their own
    private.close()
    held.pop().close()
    import time

    deadline = time.monotonic() + 2
    while (response := _events(server)[0]).status != 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert response.status == 200  # the closed one's place is free
    for r in held + [response]:
        r.close()


def test_a_client_dropping_its_connection_puts_nothing_on_the_terminal(served, capfd) -> None:
    import struct

    server, _, phones = served
    port = server.server_address[1]
    requests = [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                b"GET /me/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + phones["Anna"]["Cookie"].encode() + b"\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"\x16\x03\x01garbage"]  # fmt: skip
    for _ in range(5):
        for data in requests:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(data)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # a reset, the way a phone that loses its network drops it
    assert _get(server, "/")[0] == 200
    out, err = capfd.readouterr()
    assert err == "" and out == ""


def test_display_refuses_a_save_path_that_is_no_file(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    fifo, loop = tmp_path / "game.jsonl", tmp_path / "loop.jsonl"
    os.mkfifo(fifo)
    loop.symlink_to(loop.name)
    for path, says in ((fifo, "is not an ordinary file"), (loop, "leads round in a circle"),
                       (tmp_path, "is a folder")):  # fmt: skip
        run = subprocess.run([sys.executable, "-m", "voice", "display", str(path), "--port", "0"],
                             capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
        assert run.returncode == 1 and says in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_colour_has_its_own_swatch_letter_in_each_language(lang: str) -> None:
    import re

    from games.data import load as load_data
    from voice.display.views import swatch

    colours = list(load_data("colours"))
    letters = {}
    for colour in colours:
        found = re.search(r'class="letter">([^<]+)<', swatch(lang, colour))
        assert found, colour
        letters[colour] = found.group(1)
    same = [(a, b) for a in colours for b in colours if a < b and letters[a] == letters[b]]
    assert not same, (lang, same, letters)


def test_the_view_shows_the_last_thing_that_happened(tmp_path: Path) -> None:
    """Who guessed what and the points stay on the screen after the voice said them; a
    guess only the guesser heard about is never there."""
    from voice.display.state import read_table
    from voice.display.views import render

    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    for line in ("card 1", "done", "is it pinocchio"):
        session.hear(line)
    main = render(read_table(save)).main
    assert "Just now" in main and "Not Pinocchio" in main
    session.hear("mister potato head")
    main = render(read_table(save)).main
    assert "Cem got it: Mr. Potato Head. 5 points each for Cem and Anna" in main
    assert "Pinocchio" not in main  # (only the last move's news)
