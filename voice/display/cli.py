"""Command-line side of the table view: ``farbspiel display`` and ``play --display``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from voice.display.server import DEFAULT_PORT, TableServer, address, serve
from voice.display.views import word


def add_display_options(p: argparse.ArgumentParser, with_flag: bool) -> None:
    if with_flag:
        p.add_argument(
            "--display",
            action="store_true",
            help="also serve the large-print table view in a browser (see farbspiel display)",
        )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port of the table view (default {DEFAULT_PORT})",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address the table view listens on (default 127.0.0.1, this computer only; "
        "0.0.0.0 lets the household's phones and tablets open it)",
    )


def _check_port(port: int) -> None:
    from voice.adapters import UsageError

    if not 0 <= port <= 65535:
        raise UsageError("--port must be between 1 and 65535 (0: any free port)")


def _start(save: Path, host: str, port: int, lang: str) -> TableServer:
    from voice.cli import CliError

    try:
        return serve(save, host, port)
    except OSError as exc:
        if exc.errno in (98, 48):  # address in use (Linux, macOS)
            raise CliError(word(lang, "console_port_busy", port=port)) from None
        raise CliError(f"--host {host} --port {port}: {exc.strerror}") from None


def _announce(
    server: TableServer, host: str, lang: str, key: str = "console_display", **params: Any
) -> str:
    url = address(server, host)
    print(f"farbspiel: {word(lang, key, url=url, **params)}", file=sys.stderr, flush=True)
    if server.loopback:
        print(f"farbspiel: {word(lang, 'console_display_local')}", file=sys.stderr, flush=True)
    return url


def start_table_view(session: Any, args: argparse.Namespace) -> TableServer | None:
    """Start the table view beside a game when ``--display`` or ``--private page`` asks;
    say its address, and each player's private link and QR code once."""
    wanted = getattr(args, "display", False) or getattr(args, "private", None) == "page"
    if not wanted:
        return None
    from voice.adapters import UsageError

    _check_port(args.port)
    if session.journal is None:
        raise UsageError("--display and --private page show the save file; add --save FILE")
    save, lang = session.journal.path, session.lang
    server = _start(save, args.host, args.port, lang)
    url = _announce(server, args.host, lang)
    if args.private == "page":
        from voice.display.private import ensure_tokens

        tokens = ensure_tokens(save, session.setup.players)
        for player in session.setup.players:
            link = f"{url}p/{tokens[player]}"
            print(
                f"farbspiel: {word(lang, 'console_private', player=player, url=link)}",
                file=sys.stderr,
                flush=True,
            )
            _qr(link)
    return server


def _qr(link: str) -> None:
    """The link as a QR code on the terminal (a phone's camera opens it; its screen
    reader then reads the private page to that player alone)."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is a dependency
        return
    segno.make(link, error="m").terminal(out=sys.stderr, compact=True)


def cmd_display(args: argparse.Namespace) -> int:
    from voice.cli import EXIT_INTERRUPTED, EXIT_OK, _last_save
    from voice.journal import read

    _check_port(args.port)
    save = args.file or _last_save()
    lang = "en"
    try:
        lang = read(save).header.lang
    except Exception:  # noqa: BLE001 - a damaged file is still shown (as far as it is good)
        if not Path(save).is_file():
            from voice.cli import CliError

            raise CliError(f"no saved game at {save}") from None
    server = _start(Path(save), args.host, args.port, lang)
    _announce(server, args.host, lang, "console_serving", save=save)
    try:
        while True:
            server.stopping.wait(3600)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        server.stop()
    return EXIT_OK
