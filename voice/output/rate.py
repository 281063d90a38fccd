"""Speech rate: its limits, its step for "slower"/"faster", and the cleaning of any
stored or typed value."""

from __future__ import annotations

from typing import Any

DEFAULT_RATE = 170
MIN_RATE = 90
MAX_RATE = 300
RATE_STEP = 25


def clamp_rate(value: Any) -> int:
    """A usable speech rate from any stored or typed value."""
    if isinstance(value, bool):
        return DEFAULT_RATE
    try:
        rate = int(value)
    except (TypeError, ValueError, OverflowError):  # also None, "fast", inf
        return DEFAULT_RATE
    return max(MIN_RATE, min(MAX_RATE, rate))
