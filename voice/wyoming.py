"""The Wyoming protocol's client side, shared by recognition (``--asr tcp://…``), speech
(``--tts tcp://…``) and the satellite at the table (``--satellite tcp://…``).

Wyoming (the ``wyoming`` package; Home Assistant's voice services, wyoming-satellite,
wyoming-faster-whisper, wyoming-piper) sends events: a JSON header line, optional data
and a binary payload. Every wait here is bounded, and whatever goes wrong on the network
becomes a :class:`ServiceFault` whose key names the notice that tells the players how:
not reachable, slow, closed in the middle, not Wyoming at all, or an error it reported.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlparse

from voice.errors import Notice

CONNECT_SECONDS = 3.0
"""Longest wait for a connection to a service."""

DESCRIBE_SECONDS = 5.0
"""Longest wait for a service's ``info``."""

SCHEMES = ("tcp", "unix")


def is_wyoming_uri(text: str) -> bool:
    """Whether ``text`` names a Wyoming service (tcp://… or unix://…)."""
    return urlparse(text).scheme in SCHEMES


def uri_is_usable(uri: str) -> bool:
    """A tcp:// address with host and port, or a unix:// one with a path."""
    parsed = urlparse(uri)
    try:
        port = parsed.port
    except ValueError:
        port = None
    if parsed.scheme == "tcp":
        return bool(parsed.hostname) and port is not None
    return parsed.scheme == "unix" and bool(parsed.path)


class ServiceFault(Exception):
    """One network wait went wrong; ``key`` is the notice that says how."""

    def __init__(self, key: str, detail: str | Notice = "") -> None:
        super().__init__(key)
        self.key = key
        self.detail = detail


class Connection:
    """One conversation with a service; every fault is a :class:`ServiceFault`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def write_event(self, event: Any) -> None:
        from wyoming.event import async_write_event

        try:
            await async_write_event(event, self.writer)
        except (ConnectionError, OSError):
            raise ServiceFault("wyoming_closed") from None

    async def read_event(self) -> Any:
        """The next event; None when the service hung up. Unlike wyoming's own reader,
        something that is not an event is told apart from a hang-up."""
        from wyoming.event import Event

        try:
            line = await self.reader.readline()
            if not line:
                return None
            header = json.loads(line)
            if not isinstance(header, dict) or not isinstance(header.get("type"), str):
                raise ValueError("no event")
            data = header.get("data") or {}
            length = header.get("data_length") or 0
            if length:
                data = {**data, **json.loads(await self.reader.readexactly(int(length)))}
            size = header.get("payload_length") or 0
            payload = await self.reader.readexactly(int(size)) if size else None
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            raise ServiceFault("wyoming_closed") from None
        except (ValueError, TypeError, AttributeError) as exc:
            raise ServiceFault("wyoming_garbage", type(exc).__name__) from None
        return Event(type=header["type"], data=data, payload=payload)

    async def disconnect(self) -> None:
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)
        except (TimeoutError, OSError):
            pass


async def connect(uri: str, seconds: float = CONNECT_SECONDS) -> Connection:
    """A connection to ``uri``, within ``seconds``; ServiceFault("wyoming_unreachable")."""
    parsed = urlparse(uri)
    try:
        if parsed.scheme == "unix":
            opening = asyncio.open_unix_connection(path=parsed.path)
        else:
            opening = asyncio.open_connection(host=parsed.hostname, port=parsed.port)
        reader, writer = await asyncio.wait_for(opening, seconds)
    except TimeoutError:
        raise ServiceFault("wyoming_unreachable", why("timeout", seconds)) from None
    except ConnectionError:  # refused, or reset while a stopped service's port closes
        raise ServiceFault("wyoming_unreachable", why("refused", seconds)) from None
    except FileNotFoundError:
        raise ServiceFault("wyoming_unreachable", why("no_socket", seconds)) from None
    except OSError as exc:
        raise ServiceFault("wyoming_unreachable", exc.strerror or type(exc).__name__) from None
    return Connection(reader, writer)


def why(reason: str, seconds: float = CONNECT_SECONDS) -> Notice:
    """Why a connection failed, said in the game's language."""
    return Notice("wyoming_why", {"reason": reason, "seconds": round(seconds)})


async def bounded(work: Any, seconds: float) -> Any:
    """``work`` within ``seconds``; ServiceFault("wyoming_slow") after that."""
    try:
        return await asyncio.wait_for(work, max(0.0, seconds))
    except TimeoutError:
        raise ServiceFault("wyoming_slow") from None


async def describe(uri: str) -> Any:
    """The service's ``info`` (wyoming.info.Info), asked on a connection of its own."""
    from wyoming.info import Describe, Info

    client = await connect(uri)
    try:
        await client.write_event(Describe().event())
        while True:
            event = await client.read_event()
            if event is None:
                raise ServiceFault("wyoming_closed")
            if Info.is_type(event.type):
                return Info.from_event(event)
    finally:
        await client.disconnect()


def run_bounded(loop: asyncio.AbstractEventLoop, work: Any, timeout: float | None) -> Any:
    """Runs one network conversation on ``loop``, bounded; every fault a ServiceFault."""
    try:
        if timeout is None:
            return loop.run_until_complete(work)
        return loop.run_until_complete(asyncio.wait_for(work, timeout))
    except ServiceFault:
        raise
    except TimeoutError:
        raise ServiceFault("wyoming_slow") from None
    except (ConnectionError, OSError) as exc:
        raise ServiceFault("wyoming_unreachable", str(exc)) from None
    except asyncio.IncompleteReadError:
        raise ServiceFault("wyoming_closed") from None
    except Exception as exc:  # noqa: BLE001 - whatever a stranger's bytes make of the parser
        raise ServiceFault("wyoming_garbage", type(exc).__name__) from None


def shown(items: list[str] | tuple[str, ...], most: int = 8) -> str:
    """A list to say: all of a short one, the first few and the count of a long one."""
    if len(items) <= most:
        return ", ".join(items)
    return f"{', '.join(items[:most])} … ({len(items)})"
