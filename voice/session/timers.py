"""The session's clock: seconds of active (unpaused) play, and the engine's timers armed
on it. Engines read no clock; the session keeps time here and applies a timer's action
when it is due (:meth:`voice.session.core.Table.run_timers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.engine import Timer


@dataclass
class ArmedTimer:
    """A timer the game wants running, and when it started."""

    timer: Timer
    armed_at: float
    """Active (unpaused) seconds when it first appeared."""

    @property
    def fires_at(self) -> float:
        """Active seconds at which it is due."""
        return self.armed_at + self.timer.seconds


class Clock:
    """Active play time (the clock stops in a pause) and the timers armed on it."""

    def __init__(self, now: float) -> None:
        self.armed: dict[str, ArmedTimer] = {}
        self.start = now
        self.now = now
        """The latest time the session was told of (:meth:`Session.tick`)."""
        self.paused_at: float | None = None
        self.paused_total = 0.0
        self.saved_ran: dict[str, float] = {}
        """Seconds each timer had run when the saved game was paused (until it starts)."""

    def reset(self, now: float) -> None:
        """Start counting time from ``now`` (the real clock's reading)."""
        self.start = self.now = now

    def active(self) -> float:
        """Seconds of unpaused play from the start until :attr:`now`."""
        now = self.now
        paused = self.paused_total + (now - self.paused_at if self.paused_at is not None else 0)
        return now - self.start - paused

    def pause(self) -> None:
        """The clock stops now."""
        self.paused_at = self.now

    def go_on(self) -> None:
        """The clock runs again from now."""
        assert self.paused_at is not None
        self.paused_total += self.now - self.paused_at
        self.paused_at = None

    def sync(self, wanted_timers: Iterable[Timer], active: float) -> None:
        """Arm the timers the game wants now (new ones at ``active``), drop the others."""
        wanted = {t.id: t for t in wanted_timers}
        for timer_id in list(self.armed):
            if timer_id not in wanted:
                del self.armed[timer_id]
        for timer_id, timer in wanted.items():
            if timer_id not in self.armed:
                self.armed[timer_id] = ArmedTimer(timer, active)

    def pop_due(self, active: float) -> ArmedTimer | None:
        """The first timer due by ``active`` seconds, disarmed; ``None`` if none is due."""
        due = min(self.armed.values(), key=lambda t: t.fires_at, default=None)
        if due is None or due.fires_at > active:
            return None
        del self.armed[due.timer.id]
        return due

    def next_in(self) -> float | None:
        """Seconds until the next armed timer fires (``None``: none is armed)."""
        if not self.armed:
            return None
        active = self.active()
        return max(0.0, min(t.fires_at for t in self.armed.values()) - active)

    def left(self) -> dict[str, float]:
        """Seconds left on every armed timer."""
        active = self.active()
        return {
            timer_id: max(0.0, armed.fires_at - active) for timer_id, armed in self.armed.items()
        }

    def ran(self, active: float) -> dict[str, float]:
        """Seconds every armed timer has run by ``active``."""
        return {k: round(active - t.armed_at, 3) for k, t in self.armed.items()}

    def keep_ran(self, timers_ran: Mapping[str, object]) -> None:
        """Remember how long each timer had run in the saved pause (bad values are left)."""
        self.saved_ran = {
            str(k): float(v)
            for k, v in timers_ran.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v
        }

    def restore_ran(self, active: float) -> None:
        """Timers that had run before the saved pause go on from where they stood."""
        for timer_id, ran in self.saved_ran.items():
            if timer_id in self.armed:
                self.armed[timer_id].armed_at = active - ran
        self.saved_ran = {}
