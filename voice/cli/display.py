"""Command-line side of the table view: ``farbspiel display`` and ``play --display``."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from voice.display.server import DEFAULT_PORT, TableServer, _own_address, address, serve
from voice.display.views import word
from voice.output.messages import console_text


def add_display_options(p: argparse.ArgumentParser, with_flag: bool) -> None:
    if with_flag:
        p.add_argument("--display", action="store_true")  # help texts: cli.yaml
    if not with_flag:  # beside a game: stop once that game's process is gone (see _done)
        p.add_argument("--watch-pid", type=int, help=argparse.SUPPRESS)
        p.add_argument("--keep-phones", action="store_true")
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--host", default=None)


def _phones(args: argparse.Namespace) -> bool:
    return getattr(args, "private", None) == "page"


def resolve_host(args: argparse.Namespace) -> tuple[str, str]:
    """(the address to listen on, the address to show). With private pages it is one the
    household's phones can reach, or a refusal that says why (never an address that
    cannot work from a phone)."""
    from voice.display.lan import phone_host
    from voice.errors import CliError

    if not _phones(args):
        host = args.host or "127.0.0.1"
        return host, host
    try:
        return phone_host(args.host)
    except ValueError as exc:
        raise CliError(console_text(str(exc), host=args.host)) from None


def _check_port(port: int) -> None:
    from voice.errors import UsageError

    if not 0 <= port <= 65535:
        raise UsageError(console_text("port_range"))


def _start(save: Path, host: str, port: int, lang: str) -> TableServer:
    from voice.errors import CliError

    try:
        return serve(save, host, port)
    except OSError as exc:
        if exc.errno in (98, 48):  # address in use (Linux, macOS)
            raise CliError(word(lang, "console_port_busy", port=port)) from None
        text = console_text("display_cannot_serve", host=host, port=port, reason=exc)
        raise CliError(text) from None


def _announce(
    server: TableServer, host: str, lang: str, key: str = "console_display", **params: Any
) -> str:
    url = address(server, host)
    print(f"farbspiel: {word(lang, key, url=url, **params)}", file=sys.stderr, flush=True)
    if server.loopback:
        print(f"farbspiel: {word(lang, 'console_display_local')}", file=sys.stderr, flush=True)
    return url


class TableView:
    """A ``farbspiel display`` process serving the game beside it.

    It is a process of its own, so it goes on serving (the view and the private pages)
    if the game's process crashes; resuming the game finds it and uses it again. It is
    stopped when the game ends in order; left alone, it ends by itself once the game's
    process is gone and the save file has not changed for :data:`LINGER_SECONDS`.
    """

    def __init__(self, process: subprocess.Popen[bytes] | None, url: str) -> None:
        self.process = process
        self.url = url

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


LINGER_SECONDS = 20 * 60
START_SECONDS = 15.0


def check_table_view(args: argparse.Namespace, lang: str) -> None:
    """Before a new game writes its save file: the table view that ``--display`` or
    ``--private page`` asks for can listen where it is told to (a port in use by another
    program, an address this computer does not have), so that a refusal leaves nothing
    behind."""
    from voice.errors import CliError

    wanted = getattr(args, "display", False) or _phones(args)
    if not wanted:
        return
    _check_port(args.port)
    bind, _shown = resolve_host(args)
    if not args.port:
        return  # any free port
    host = bind.strip("[]")
    try:
        family = socket.getaddrinfo(host or None, args.port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind((host, args.port))
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, 48):  # (48: macOS)
            raise CliError(word(lang, "console_port_busy", port=args.port)) from None
        text = console_text("display_cannot_serve", host=bind, port=args.port, reason=exc)
        raise CliError(text) from None


def start_table_view(session: Any, args: argparse.Namespace) -> TableView | None:
    """Start the table view beside a game when ``--display`` or ``--private page`` asks,
    and show its address. With private pages: the phones' claims start afresh (unless
    ``--keep-phones``), and the table's public address is shown (with a QR code of it)
    for every phone to open and pick its name on; no private link exists to show."""
    if not _phones(args) and session.journal is not None:
        from voice.session.phones import phones_file

        with contextlib.suppress(OSError):  # no private pages now: no phone keeps one
            phones_file(Path(session.journal.path)).unlink()
    wanted = getattr(args, "display", False) or _phones(args)
    if not wanted:
        return None
    from voice.errors import UsageError

    _check_port(args.port)
    if session.journal is None:
        raise UsageError(console_text("display_needs_save"))
    save, lang = Path(session.journal.path), session.lang
    bind, shown = resolve_host(args)
    with contextlib.suppress(OSError):  # the secret links of earlier versions: gone
        save.with_name(save.name + ".links.json").unlink()
    if _phones(args):
        from voice.display.private import start_phones

        start_phones(save, keep=getattr(args, "keep_phones", False))
    port = args.port or _free_port(bind)
    view = _spawn(save, bind, port, lang, shown)
    url = view.url
    if _phones(args):
        say(f"farbspiel: {word(lang, 'console_phones', url=url)}")
        if getattr(args, "keep_phones", False):
            say(f"farbspiel: {word(lang, 'console_phones_kept')}")
        _qr(url)
        from games.engine import Event

        spoken = url.removeprefix("http://").rstrip("/")
        session.say_only([Event("phones_open", {"address": spoken})])
    else:
        say(f"farbspiel: {word(lang, 'console_display', url=url)}")
    if bind in ("127.0.0.1", "localhost", "::1"):
        say(f"farbspiel: {word(lang, 'console_display_local')}")
    return view


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _spawn(save: Path, host: str, port: int, lang: str, shown: str) -> TableView:
    """Start ``farbspiel display`` for ``save`` (or find the one already serving it)."""
    from voice.errors import CliError

    url = _url(shown, port)
    if _serves(host, port, save):
        return TableView(None, url)  # still running from before a crash: use it again
    command = [sys.executable, "-m", "voice", "display", str(save), "--port", str(port),
               "--host", host, "--watch-pid", str(os.getpid())]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C at the table stops the game, which stops it
    )
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if _serves(host, port, save):
            return TableView(process, url)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    TableView(process, url).stop()
    raise CliError(word(lang, "console_port_busy", port=port))


def _url(host: str, port: int) -> str:
    shown = _own_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _serves(host: str, port: int, save: Path) -> bool:
    """Whether a table view of ``save`` answers on ``port``."""
    import http.client

    from voice.display.server import save_id

    target = "127.0.0.1" if host in ("0.0.0.0", "", "localhost") else host.strip("[]")
    if host == "::":
        target = "::1"
    try:
        conn = http.client.HTTPConnection(target, port, timeout=1)
        name = f"[{target}]" if ":" in target else target
        conn.request("HEAD", "/", headers={"Host": f"{name}:{port}"})
        answer = conn.getresponse()
        conn.close()
    except OSError:
        return False
    return answer.getheader("X-Farbspiel-Save") == save_id(save)


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host.strip("[]") if host not in ("0.0.0.0", "::") else host, 0))
        return int(s.getsockname()[1])


def _qr(link: str) -> None:
    """The table's public address as a QR code on the terminal (a phone's camera opens
    it; there the player picks their name)."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is a dependency
        return
    segno.make(link, error="m").terminal(out=sys.stderr, compact=True)


def cmd_display(args: argparse.Namespace) -> int:
    from voice.cli.options import EXIT_INTERRUPTED, EXIT_OK
    from voice.session.journal import read
    from voice.session.settings import last_save

    _check_port(args.port)
    save = args.file or last_save()
    _check_save(Path(save))
    lang = "en"
    with contextlib.suppress(Exception):  # a damaged file is still shown (as far as it is good)
        lang = read(save).header.lang
    host = args.host or "127.0.0.1"
    server = _start(Path(save), host, args.port, lang)
    _announce(server, host, lang, "console_serving", save=save)
    try:
        while not _done(args.watch_pid, Path(save)):
            server.stopping.wait(5)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        server.stop()
    return EXIT_OK


def _check_save(save: Path) -> None:
    """Refuse a save path that is not a regular file before anything reads it: a named pipe
    or a device would keep the reading waiting for ever, a link loop leads to no file."""
    from voice.errors import CliError

    try:
        mode = os.stat(save).st_mode
    except FileNotFoundError:
        raise CliError(console_text("save_not_found", path=save)) from None
    except OSError as exc:
        key = "save_link_loop" if exc.errno == errno.ELOOP else "save_unreadable"
        raise CliError(console_text(key, path=save, reason=exc)) from None
    if stat.S_ISDIR(mode):
        raise CliError(console_text("save_is_folder", path=save))
    if not stat.S_ISREG(mode):
        raise CliError(console_text("save_not_a_file", path=save))


def _done(pid: int | None, save: Path) -> bool:
    """Beside a game (``--watch-pid``): done once that game's process is gone and the
    save file has rested for :data:`LINGER_SECONDS` (a crash: the table may resume)."""
    if pid is None or _alive(pid):
        return False
    try:
        rested = time.time() - save.stat().st_mtime
    except OSError:
        return True
    return rested > LINGER_SECONDS


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
