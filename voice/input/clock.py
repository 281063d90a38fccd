"""Clocks the session reads: real time for play, virtual time for scripts and tests."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """Time that only moves when told to (``@+N`` lines in a script)."""

    def __init__(self) -> None:
        self._now = 0.0

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time cannot go backwards")
        self._now += seconds


class StoppableClock:
    """Another clock's time, which can be stopped: while stopped, time stands still, and
    afterwards it goes on from where it stood (a lost microphone must not let a guess
    window run out while nobody can answer)."""

    def __init__(self, base: Clock) -> None:
        self.base = base
        self._stopped_at: float | None = None
        self._stopped_total = 0.0

    def now(self) -> float:
        if self._stopped_at is not None:
            return self._stopped_at - self._stopped_total
        return self.base.now() - self._stopped_total

    def stop(self) -> None:
        if self._stopped_at is None:
            self._stopped_at = self.base.now()

    def go(self) -> None:
        if self._stopped_at is not None:
            self._stopped_total += self.base.now() - self._stopped_at
            self._stopped_at = None
