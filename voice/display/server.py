"""The table view's web server: one game's view, its private pages, nothing else.

Built on the standard library's :class:`http.server.ThreadingHTTPServer`: the view has
five routes, a handful of viewers and no forms, so a framework would add dependencies
without adding safety; the standard server already refuses oversized request lines and
headers (414/431) and malformed requests (400). On top of it this module

* answers only ``GET``/``HEAD`` (405 otherwise) on exactly these paths: ``/``,
  ``/events``, ``/view.css``, ``/view.js``, ``/p/<token>`` and ``/p/<token>/events``
  (404 for everything else, so no path can reach a file);
* when bound to loopback, refuses requests whose ``Host`` is not a loopback name (a web
  page elsewhere cannot read the view through DNS rebinding);
* sends no-store, no-referrer (a private link never leaks through the Referer header),
  nosniff, frame-deny and a same-origin content security policy;
* streams updates as server-sent events: a changed journal reaches the page within a
  quarter of a second; the browser reconnects by itself after one second.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from voice.display.private import load_tokens, render_private
from voice.display.state import TableState, Watcher
from voice.display.views import View, esc, render, word

DEFAULT_PORT = 8765
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
MAX_STREAMS = 32
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})
_STATIC = {"/view.css": "text/css; charset=utf-8", "/view.js": "text/javascript; charset=utf-8"}
_CSP = "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"  # noqa: E501


def save_id(save: Path) -> str:
    """A short fingerprint of the save file's path: tells whether a table view already
    running on a port shows this game (its path itself is not given away)."""
    import hashlib

    return hashlib.sha256(str(Path(save).resolve()).encode()).hexdigest()[:16]


def static_file(name: str) -> bytes:
    return resources.files("voice.display").joinpath("static", name).read_bytes()


class TableServer(ThreadingHTTPServer):
    """Serves the view of one save file."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, save: Path, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        self.save = Path(save)
        self.watcher = Watcher(self.save)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self.loopback = host in ("127.0.0.1", "localhost", "::1")
        super().__init__((host, port), _Handler)

    def state(self) -> TableState:
        with self.lock:
            return self.watcher.state()

    def player_of(self, token: str) -> str | None:
        """The player whose private link ``token`` is (constant-time comparison)."""
        found = None
        for player, known in load_tokens(self.save).items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = player
        return found

    def serve_in_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, name="table-view", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: TableServer
    server_version = "farbspiel"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # the shared terminal is for the game (and a private path must not be logged)

    # --- methods ---------------------------------------------------------------------
    def do_GET(self) -> None:
        self._route(head=False)

    def do_HEAD(self) -> None:
        self._route(head=True)

    def _refuse_method(self) -> None:
        self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", {"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method

    # --- routing ---------------------------------------------------------------------
    def _route(self, head: bool) -> None:
        if not self._host_ok():
            self._plain(HTTPStatus.MISDIRECTED_REQUEST, "wrong host")
            return
        parts = urlsplit(self.path)
        path = parts.path
        if self.path.startswith("//") or "\\" in self.path or ".." in self.path:
            self._plain(HTTPStatus.NOT_FOUND, "not found")
            return
        if path == "/":
            self._page(render(self.server.state()), _theme(parts.query), "/events", head)
        elif path == "/events":
            self._stream(None, head)
        elif path in _STATIC:
            self._send(HTTPStatus.OK, _STATIC[path], static_file(path[1:]), head, cache=True)
        elif path.startswith("/p/"):
            token, _, rest = path[3:].partition("/")
            player = self.server.player_of(token) if token else None
            if player is None or rest not in ("", "events"):
                self._plain(HTTPStatus.NOT_FOUND, "not found")
            elif rest == "events":
                self._stream(player, head)
            else:
                view = render_private(self.server.state(), player)
                self._page(view, _theme(parts.query), f"/p/{token}/events", head, private=True)
        else:
            self._plain(HTTPStatus.NOT_FOUND, "not found")

    def _host_ok(self) -> bool:
        if not self.server.loopback:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        if host.startswith("["):
            name = host[: host.find("]") + 1] if "]" in host else host
        else:
            name = host.rsplit(":", 1)[0] if ":" in host else host
        return name in LOOPBACK_NAMES

    # --- answers ---------------------------------------------------------------------
    def _page(self, view: View, theme: str, events: str, head: bool, private: bool = False) -> None:
        body = page_html(view, theme, events, private).encode("utf-8")
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body, head)

    def _plain(self, status: HTTPStatus, text: str, extra: dict[str, str] | None = None) -> None:
        self.close_connection = True
        self._send(status, "text/plain; charset=utf-8", (text + "\n").encode(), False, extra=extra)

    def _send(
        self,
        status: HTTPStatus,
        kind: str,
        body: bytes,
        head: bool,
        cache: bool = False,
        extra: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self._safety_headers(cache)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _safety_headers(self, cache: bool = False) -> None:
        self.send_header("Cache-Control", "max-age=60" if cache else "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", _CSP)
        self.send_header("X-Farbspiel-Save", save_id(self.server.save))

    def _stream(self, player: str | None, head: bool) -> None:
        if not self.server.streams.acquire(blocking=False):
            self._plain(HTTPStatus.SERVICE_UNAVAILABLE, "too many viewers")
            return
        try:
            self.close_connection = True
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self._safety_headers()
            self.send_header("Connection", "close")
            self.end_headers()
            if head:
                return
            self.wfile.write(b"retry: 1000\n\n")
            last, beat = None, time.monotonic()
            while not self.server.stopping.is_set():
                state = self.server.state()
                if state.version != last:
                    last = state.version
                    view = render_private(state, player) if player else render(state)
                    data = json.dumps(
                        {"main": view.main, "news": view.news, "title": view.title},
                        ensure_ascii=False,
                    )
                    self.wfile.write(f"data: {data}\n\n".encode())
                    self.wfile.flush()
                    beat = time.monotonic()
                elif time.monotonic() - beat > HEARTBEAT_SECONDS:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    beat = time.monotonic()
                self.server.stopping.wait(POLL_SECONDS)
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            pass  # the viewer went away; its browser reconnects if it wants more
        finally:
            self.server.streams.release()


def _theme(query: str) -> str:
    values = parse_qs(query).get("theme", [""])
    return values[0] if values[0] in ("light", "dark") else "auto"


def page_html(
    view: View, theme: str = "auto", events: str = "/events", private: bool = False
) -> str:
    """The whole page: it carries the current state (no script needed to read it)."""
    lang = view.lang
    live, offline = word(lang, "live"), word(lang, "offline")
    robots = '<meta name="robots" content="noindex,nofollow">'
    return (
        f'<!doctype html><html lang="{esc(lang)}" data-theme="{esc(theme)}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f'{robots}<meta name="referrer" content="no-referrer"><title>{esc(view.title)}</title>'
        '<link rel="stylesheet" href="/view.css"></head>'
        f'<body class="{"private" if private else "table"}">'
        f'<main id="view">{view.main}</main>'
        f'<p id="news" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">'
        f"{esc(view.news)}</p>"
        f'<p id="conn" class="conn" data-live="{esc(live)}" data-offline="{esc(offline)}" '
        f'data-events="{esc(events)}"></p>'
        '<script src="/view.js" defer></script></body></html>'
    )


def serve(save: Path, host: str, port: int) -> TableServer:
    """A started server (in a background thread) for ``save``; OSError if the port is taken."""
    server = TableServer(save, host, port)
    server.serve_in_thread()
    return server


def address(server: TableServer, host: str) -> str:
    """The address to open: the machine's own address when serving every interface."""
    port = server.server_address[1]
    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = _own_address()
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _own_address() -> str:
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))  # no packet is sent; this picks the LAN interface
        return str(s.getsockname()[0])
    return "127.0.0.1"
