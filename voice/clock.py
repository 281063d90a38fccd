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
