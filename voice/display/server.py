"""The table view's web server: one game's view, its private pages, nothing else.

Built on aiohttp (asyncio) running in a background thread with its own event loop. The
standard library's threaded server was measured first (issue 27): a listen backlog of 5,
a traceback for every dropped connection, a closed live-update stream noticed only at the
second heartbeat, one lock around the journal so that a save path that blocks froze every
request, and 44 ms per keep-alive request. Here

* answers only ``GET``/``HEAD`` (405 for the other methods of HTTP, 501 for unknown ones)
  on exactly these paths: ``/``, ``/events``, ``/view.css``, ``/view.js``, ``/me`` and
  ``/me/events`` (a player's private page, for the device that claimed them), and ``POST``
  on ``/claim`` alone ("I am Anna", see :mod:`voice.display.private`); 404 for everything
  else, so no path can reach a file;
* when bound to one address (loopback, or the household network's), refuses requests whose
  ``Host`` is not that address (a web page elsewhere cannot read the view through DNS
  rebinding), and a claim whose ``Origin`` is another site;
* sends no-store, no-referrer (a private link never leaks through the Referer header),
  nosniff, frame-deny and a same-origin content security policy;
* reads the journal in a thread of its own (:class:`Journal`): a request waits for a fresh
  reading a fraction of a second at most, then is answered from the last one, so a save
  path that blocks (a stalled share) cannot hold anything up; a path that is not a regular
  file is never opened for reading (:func:`voice.display.state.read_table`);
* streams updates as server-sent events: a changed journal reaches the page within a
  quarter of a second; the browser reconnects by itself after one second. A stream whose
  viewer went away gives back its place at once (the connection's end cancels it); the
  private pages have places of their own, so the table's viewers cannot lock them out;
* keeps a client's behaviour (resets, garbage, slow clients) off the terminal.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import json
import logging
import os
import queue
import socket
import stat
import threading
import time
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from aiohttp import http_exceptions, web
from aiohttp.web_protocol import RequestHandler

from voice.display.private import render_phones, render_private
from voice.display.state import TableState, Watcher
from voice.display.views import View, esc, render, word
from voice.session import phones

DEFAULT_PORT = 8765
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
"""A sign of life on a quiet stream (an ``event: beat`` the page's script listens for)."""
STALL_SECONDS = 20
"""The page says it may be out of date when no sign of life came for this long."""
MAX_STREAMS = 32
"""Live-update streams of the table view (the shared page, on any number of screens)."""
PRIVATE_STREAMS = 4
"""Live-update streams of each player's private page (their own places)."""
FRESH_WAIT = 0.5
"""How long a request waits for the journal to be read before the last reading is used."""
BACKLOG = 1024
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})
METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"}
)
_STATIC = {"/view.css": "text/css; charset=utf-8", "/view.js": "text/javascript; charset=utf-8"}
_CSP = "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"  # noqa: E501


def save_id(save: Path) -> str:
    """A short fingerprint of the save file's path: tells whether a table view already
    running on a port shows this game (its path itself is not given away)."""
    import hashlib

    return hashlib.sha256(str(Path(save).resolve()).encode()).hexdigest()[:16]


def static_file(name: str) -> bytes:
    return resources.files("voice.display").joinpath("static", name).read_bytes()


@dataclasses.dataclass(frozen=True)
class Reading:
    """One reading of the save file and of the phones' claims (None: no private pages)."""

    state: TableState
    claims: dict[str, str] | None


class Journal:
    """The save file, read in a thread of its own.

    At most one reading is under way; every request that wants a fresh one shares it. A
    reading that does not finish (a path that blocks) leaves the requests with the last
    good one, marked as waiting."""

    def __init__(self, save: Path) -> None:
        self.save = Path(save)
        self.watcher = Watcher(self.save)
        self._last = Reading(TableState(waiting=True), None)
        self._running: concurrent.futures.Future[Reading] | None = None
        self._began = 0.0
        self._phones: tuple[tuple[int, int, int] | None, dict[str, str] | None] = (None, None)
        # a daemon thread: one stuck in a reading (a stalled share) never holds up the exit
        self._asked: queue.SimpleQueue[concurrent.futures.Future[Reading] | None]
        self._asked = queue.SimpleQueue()
        self._closed = False
        threading.Thread(target=self._reader, name="table-journal", daemon=True).start()

    def _reader(self) -> None:
        while (future := self._asked.get()) is not None:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(self._read())
                except Exception as exc:  # noqa: BLE001 - the request says so, not the terminal
                    future.set_exception(exc)

    def _read(self) -> Reading:
        self._last = Reading(self.watcher.state(), self._claims())
        return self._last

    def _claims(self) -> dict[str, str] | None:
        try:
            st = os.stat(phones.phones_file(self.save))
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None  # (a FIFO would block the reading)
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if stamp != self._phones[0]:
            self._phones = (stamp, phones.load_claims(self.save))
        return self._phones[1]

    async def reading(self) -> Reading:
        """A fresh reading, or the last one (marked as waiting) if the file does not answer."""
        running = self._running
        if (running is None or running.done()) and not self._closed:
            running = self._running = concurrent.futures.Future()
            self._began = time.monotonic()
            self._asked.put(running)
        if running is not None:
            left = FRESH_WAIT - (time.monotonic() - self._began)
            with contextlib.suppress(Exception):  # not read in time, or failed: the last one
                return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(running)), left)
        last = self._last
        stalled = dataclasses.replace(last.state, waiting=True, version=last.state.version + "…")
        return Reading(stalled, last.claims)

    def close(self) -> None:
        self._closed = True
        self._asked.put(None)


class Places:
    """The live-update streams being served: the table's, and each player's own."""

    def __init__(self) -> None:
        self.public = 0
        self.private: dict[str, int] = {}

    def take(self, player: str | None) -> bool:
        if player is None:
            if self.public >= MAX_STREAMS:
                return False
            self.public += 1
            return True
        if self.private.get(player, 0) >= PRIVATE_STREAMS:
            return False
        self.private[player] = self.private.get(player, 0) + 1
        return True

    def give(self, player: str | None) -> None:
        if player is None:
            self.public -= 1
        else:
            self.private[player] -= 1


class TableServer:
    """Serves the view of one save file; bound (and listening) once made."""

    def __init__(self, save: Path, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        self.save = Path(save)
        self.journal = Journal(self.save)
        self.places = Places()
        self.stopping = threading.Event()
        self.loopback = host in ("127.0.0.1", "localhost", "::1")
        bare = host.strip("[]")
        self.names: frozenset[str] | None = None  # (every interface: any name)
        if self.loopback:
            self.names = LOOPBACK_NAMES
        elif bare not in ("0.0.0.0", "::", ""):
            self.names = LOOPBACK_NAMES | {f"[{bare}]" if ":" in bare else bare}
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=BACKLOG)
        self.server_address: tuple[str, int] = tuple(self.socket.getsockname()[:2])
        self._loop: asyncio.AbstractEventLoop | None = None
        self._done: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def state(self) -> TableState:
        """The last reading of the save file (for callers outside the server's thread)."""
        return self.journal._last.state

    def serve_in_thread(self) -> threading.Thread:
        """Serve from a background thread with its own event loop; returns once serving."""
        quiet_logs()
        self._thread = threading.Thread(target=self._run, name="table-view", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        return self._thread

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(lambda _loop, _context: None)  # (a client's doing)
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        self._done = asyncio.Event()
        low = _Server(_Handler(self).handle, handler_cancellation=True, access_log=None)
        runner = web.ServerRunner(low, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.SockSite(runner, self.socket, backlog=BACKLOG)
        await site.start()
        self._ready.set()
        try:
            await self._done.wait()
        finally:
            self.stopping.set()
            with contextlib.suppress(Exception):
                await runner.cleanup()

    def stop(self) -> None:
        self.stopping.set()
        loop, done = self._loop, self._done
        if loop is not None and done is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(done.set)
        if self._thread is not None:
            self._thread.join(10)
        self.journal.close()
        with contextlib.suppress(OSError):
            self.socket.close()


def quiet_logs() -> None:
    """A client's behaviour (a reset, garbage, a timeout) is nothing for the shared terminal:
    aiohttp's log messages go nowhere (not even to logging's last-resort handler)."""
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        logger.propagate = False
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())


class _Server(web.Server):
    """aiohttp's low-level server, answering broken requests the way :class:`_Refusals` does."""

    def __call__(self) -> RequestHandler:
        return _Refusals(self, loop=self._loop, **self._kwargs)


class _Refusals(RequestHandler):
    """A request that cannot be parsed gets a short plain refusal with the status that says
    why (414 a too long address, 431 too long or too many headers, 501 an unknown method,
    400 the rest), never aiohttp's text or a logged traceback."""

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun")  # (aiohttp closes the connection)
        status, text = _refusal(status, exc)
        answer = web.Response(status=status, text=text + "\n", headers={"Server": "farbspiel"})
        answer.force_close()
        return answer


def _refusal(status: int, exc: BaseException | None) -> tuple[int, str]:
    if isinstance(exc, http_exceptions.LineTooLong):
        line = bytes(exc.args[0]) if isinstance(exc.args[0], bytes | bytearray) else b""
        if line.startswith((b"/", b"http:", b"https:")):
            return 414, "address too long"
        return 431, "header too long"
    if isinstance(exc, http_exceptions.BadHttpMessage):
        if "Too many headers" in str(exc):
            return 431, "too many headers"
        if isinstance(exc, http_exceptions.BadHttpMethod) and "Invalid method" in str(exc):
            return 501, "not implemented"
        return 400, "bad request"
    return (status, "bad request") if 400 <= status < 500 else (500, "internal error")


class _Handler:
    """Answers the requests of one :class:`TableServer` (on its event loop)."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.save_id = save_id(server.save)
        self._pages: dict[tuple[str, str | None, str, str, int, str], bytes] = {}
        self.cookie = f"farbspiel_{self.save_id}"  # (cookies are not kept apart by port)

    async def handle(self, request: web.BaseRequest) -> web.StreamResponse:
        try:
            return await self._route(request)
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception:  # noqa: BLE001 - never a traceback for the table: a plain 500
            return self._plain(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error")

    # --- routing ---------------------------------------------------------------------
    async def _route(self, request: web.BaseRequest) -> web.StreamResponse:
        method = request.method
        if method not in METHODS:
            return self._plain(HTTPStatus.NOT_IMPLEMENTED, "not implemented")
        if method == "POST" and request.path == "/claim" and self._host_ok(request):
            return await self._claim(request)
        if method not in ("GET", "HEAD"):
            return self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed",
                               {"Allow": "GET, HEAD"})  # fmt: skip
        if not self._host_ok(request):
            return self._plain(HTTPStatus.MISDIRECTED_REQUEST, "wrong host")
        target = request.raw_path
        parts = urlsplit(target)
        path = parts.path
        if (
            not target.startswith("/")
            or target.startswith("//")
            or "\\" in target
            or ".." in target
        ):
            return self._plain(HTTPStatus.NOT_FOUND, "not found")
        head = method == "HEAD"
        if path in _STATIC:
            return self._send(HTTPStatus.OK, _STATIC[path], static_file(path[1:]), cache=True)
        if path == "/":
            reading = await self.server.journal.reading()
            extra = ""
            if reading.claims is not None:
                mine = phones.player_of(reading.claims, request.cookies.get(self.cookie))
                extra = render_phones(reading.state, reading.claims, mine)
            return self._page(reading.state, None, _theme(parts.query), "/events", extra)
        if path == "/events":
            return await self._stream(request, None, head)
        if path in ("/me", "/me/events"):
            reading = await self.server.journal.reading()
            claims = reading.claims or {}
            player = phones.player_of(claims, request.cookies.get(self.cookie))
            if player is None:  # not (or no longer) claimed from this device
                if path == "/me/events":
                    return self._plain(HTTPStatus.FORBIDDEN, "not claimed")
                return self._send(HTTPStatus.SEE_OTHER, "text/plain; charset=utf-8",
                                  b"", extra={"Location": "/#phones"})  # fmt: skip
            if path == "/me/events":
                return await self._stream(request, player, head)
            return self._page(reading.state, player, _theme(parts.query), "/me/events")
        return self._plain(HTTPStatus.NOT_FOUND, "not found")

    async def _claim(self, request: web.BaseRequest) -> web.StreamResponse:
        """ "I am Anna" from a phone: the claim is taken (a device token in a cookie, then on
        to ``/me``) or refused (another device has it; no private pages; another site)."""
        # another site's page may not claim a player for this browser (its Origin is
        # "null" here: the pages send no referrer; browsers say where a request came from)
        site = request.headers.get("Sec-Fetch-Site", "same-origin")
        origin = request.headers.get("Origin", "null")
        if site not in ("same-origin", "none") or (
            origin != "null" and urlsplit(origin).netloc.lower() != request.host.lower()
        ):
            return self._plain(HTTPStatus.FORBIDDEN, "another site")
        if (request.content_length or 0) > 1024:
            return self._plain(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too large")
        body = await asyncio.wait_for(request.content.read(1024), 5)
        player = parse_qs(body.decode("utf-8", "replace")).get("player", [""])[0]
        reading = await self.server.journal.reading()
        header = reading.state.header
        if reading.claims is None or header is None or player not in header.setup.players:
            return self._plain(HTTPStatus.NOT_FOUND, "not found")
        save, mine = (
            self.server.save,
            phones.player_of(reading.claims, request.cookies.get(self.cookie)),
        )
        token = None
        if mine is None:  # (one phone, one player)
            token = await asyncio.wait_for(asyncio.to_thread(phones.claim, save, player), 5)
        if token is None:
            key, who = ("phones_refused", player) if mine is None else ("phones_already", mine)
            text = word(header.lang, key, player=who)
            view = View(text, f'<p class="big">{esc(text)}</p>', text, header.lang)
            body = page_html(view, "auto", "/events").encode("utf-8")
            return self._send(HTTPStatus.CONFLICT, "text/html; charset=utf-8", body)
        answer = self._send(HTTPStatus.SEE_OTHER, "text/plain; charset=utf-8", b"",
                            extra={"Location": "/me"})  # fmt: skip
        answer.set_cookie(self.cookie, token, max_age=7 * 24 * 3600, path="/",
                          httponly=True, samesite="Strict")  # fmt: skip
        return answer

    def _host_ok(self, request: web.BaseRequest) -> bool:
        if self.server.names is None:
            return True
        host = (request.headers.get("Host") or "").strip().lower()
        if host.startswith("["):
            name = host[: host.find("]") + 1] if "]" in host else host
        else:
            name = host.rsplit(":", 1)[0] if ":" in host else host
        return name in self.server.names

    # --- answers ---------------------------------------------------------------------
    def _page(
        self, state: TableState, player: str | None, theme: str, events: str, extra: str = ""
    ) -> web.Response:
        """The page of the table (``player`` None) or of one player's private page; made
        once per reading, theme and second (its clocks count whole seconds)."""
        key = (state.version, player, theme, events, int(time.time()), extra)
        body = self._pages.get(key)
        if body is None:
            if len(self._pages) > 64:
                self._pages.clear()
            view = render_private(state, player) if player else render(state)
            body = page_html(view, theme, events, player is not None, extra).encode("utf-8")
            self._pages[key] = body
        return self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _plain(
        self, status: HTTPStatus, text: str, extra: dict[str, str] | None = None
    ) -> web.Response:
        answer = self._send(
            status, "text/plain; charset=utf-8", (text + "\n").encode(), extra=extra
        )
        answer.force_close()
        return answer

    def _send(
        self,
        status: HTTPStatus,
        kind: str,
        body: bytes,
        cache: bool = False,
        extra: dict[str, str] | None = None,
    ) -> web.Response:
        headers = {"Content-Type": kind, **self._safety_headers(cache), **(extra or {})}
        return web.Response(status=int(status), body=body, headers=headers)

    def _safety_headers(self, cache: bool = False) -> dict[str, str]:
        return {
            "Cache-Control": "max-age=60" if cache else "no-store",
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Content-Security-Policy": _CSP,
            "X-Farbspiel-Save": self.save_id,
            "Server": "farbspiel",
        }

    async def _stream(
        self, request: web.BaseRequest, player: str | None, head: bool
    ) -> web.StreamResponse:
        places = self.server.places
        if not places.take(player):
            return self._plain(HTTPStatus.SERVICE_UNAVAILABLE, "too many viewers")
        try:
            headers = {"Content-Type": "text/event-stream; charset=utf-8", **self._safety_headers()}
            answer = web.StreamResponse(status=200, headers=headers)
            answer.force_close()
            await answer.prepare(request)
            if not head:
                await answer.write(b"retry: 1000\n\n")
                await self._updates(answer, player)
            return answer
        finally:
            places.give(player)  # (also when the viewer went away: the task is cancelled)

    async def _updates(self, answer: web.StreamResponse, player: str | None) -> None:
        last, beat = None, time.monotonic()
        while not self.server.stopping.is_set():
            state = (await self.server.journal.reading()).state
            if state.version != last:
                last = state.version
                view = render_private(state, player) if player else render(state)
                data = json.dumps(
                    {"main": view.main, "news": view.news, "title": view.title},
                    ensure_ascii=False,
                )
                await answer.write(f"data: {data}\n\n".encode())
                beat = time.monotonic()
            elif time.monotonic() - beat > HEARTBEAT_SECONDS:
                await answer.write(b"event: beat\ndata: {}\n\n")
                beat = time.monotonic()
            await asyncio.sleep(POLL_SECONDS)


def _theme(query: str) -> str:
    values = parse_qs(query).get("theme", [""])
    return values[0] if values[0] in ("light", "dark") else "auto"


def page_html(
    view: View, theme: str = "auto", events: str = "/events", private: bool = False, extra: str = ""
) -> str:
    """The whole page: it carries the current state (no script needed to read it)."""
    lang = view.lang
    live, offline = word(lang, "live"), word(lang, "offline")
    lost, stalled = word(lang, "lost"), word(lang, "stalled", seconds=STALL_SECONDS)
    robots = '<meta name="robots" content="noindex,nofollow">'
    return (
        f'<!doctype html><html lang="{esc(lang)}" data-theme="{esc(theme)}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f'{robots}<meta name="referrer" content="no-referrer"><title>{esc(view.title)}</title>'
        '<link rel="stylesheet" href="/view.css"></head>'
        f'<body class="{"private" if private else "table"}">'
        # empty and hidden while the page is live; the script fills it (and so it is
        # announced) when the stream is lost or no sign of life came for a while
        f'<div id="banner" class="banner" role="alert" aria-live="assertive" hidden '
        f'data-lost="{esc(lost)}" data-stalled="{esc(stalled)}" data-stall="{STALL_SECONDS}">'
        "</div>"
        f'<main id="view">{view.main}</main>{extra}'
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
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))  # no packet is sent; this picks the LAN interface
        return str(s.getsockname()[0])
    return "127.0.0.1"
