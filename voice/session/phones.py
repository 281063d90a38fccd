"""The phones' claims of their players, in the phones file beside the save file
(``<save>.phones.json``, readable only by its owner): player → the SHA-256 of the device
token the claiming phone holds as a cookie (the token itself is never stored). The table
view's server takes claims; the game announces them ("Anna's phone is connected"), undoes
one by voice and starts them afresh (or keeps them) when it is resumed. See
:mod:`voice.display.private`."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from games.engine import Event


def phones_file(save: Path) -> Path:
    return Path(save).with_name(Path(save).name + ".phones.json")


def device_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def load_claims(save: Path) -> dict[str, str] | None:
    """player → hash of the claiming device's token; None when no private pages are on
    (there is no phones file, or it is no regular file)."""
    path = phones_file(save)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # (a FIFO would block the reading)
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    claims = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(claims, dict):
        return {}
    return {str(k): v for k, v in claims.items() if isinstance(v, str) and len(v) == 64}


@contextlib.contextmanager
def _locked(save: Path) -> Iterator[None]:
    lock = phones_file(save).with_name(phones_file(save).name + ".lock")
    fd = os.open(lock, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write(save: Path, claims: dict[str, str]) -> None:
    path = phones_file(save)
    tmp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(OSError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"claims": claims}, out, ensure_ascii=False)
    tmp.replace(path)


def _change(save: Path, change: Callable[[dict[str, str]], bool]) -> bool:
    with _locked(save):
        claims = load_claims(save)
        if claims is None:
            return False  # no private pages: nothing to claim or undo
        done = change(claims)
        if done:
            _write(save, claims)
        return done


def start_phones(save: Path, keep: bool) -> dict[str, str]:
    """Private pages on for ``save``: with ``keep`` the claims of before (the same phones
    go on), else none (every earlier device is shut out). The claims kept."""
    with _locked(save):
        claims = (load_claims(save) or {}) if keep else {}
        _write(save, claims)
        return claims


def claim(save: Path, player: str) -> str | None:
    """``player`` claimed by a new device: its token, or None if another device has it."""
    token = secrets.token_urlsafe(16)

    def take(claims: dict[str, str]) -> bool:
        if player in claims:
            return False
        claims[player] = device_hash(token)
        return True

    return token if _change(save, take) else None


def release(save: Path, player: str) -> bool:
    """``player``'s claim undone (whether there was one)."""
    return _change(save, lambda claims: claims.pop(player, None) is not None)


def player_of(claims: dict[str, str], token: str | None) -> str | None:
    """The player a device's token has claimed (compared in constant time)."""
    if not token:
        return None
    mine, found = device_hash(token), None
    for player, known in claims.items():
        if secrets.compare_digest(known, mine):
            found = player
    return found


class PhoneWatch:
    """What the game tells the table about the phones: each new claim once."""

    def __init__(self, save: Path) -> None:
        self.save = Path(save)
        self.known: set[str] = set()
        self._stamp: tuple[int, int, int] | None = None
        self._pending: list[Event] = []

    def on(self) -> bool:
        """Whether private pages are asked for (the phones file is there)."""
        return phones_file(self.save).exists()

    def forget(self, player: str) -> None:
        """``player``'s claim was undone here: a new claim is news again."""
        self.known.discard(player)

    def pending(self) -> bool:
        """Whether :meth:`news` has something to tell (it is kept for it)."""
        self._pending += self._look()
        return bool(self._pending)

    def news(self) -> list[Event]:
        found, self._pending = self._pending + self._look(), []
        return found

    def _look(self) -> list[Event]:
        try:
            st = os.stat(phones_file(self.save))
        except OSError:
            return []
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if stamp == self._stamp:
            return []
        self._stamp = stamp
        claims = load_claims(self.save) or {}
        new = [p for p in claims if p not in self.known]
        self.known = set(claims)
        return [Event("phone_connected", {"player": p}) for p in new]
