"""Command-line values shared by several commands."""

from __future__ import annotations

from voice.errors import UsageError
from voice.output.messages import console_text
from words.text import normalize

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
"""Exit codes: done, a file/device/model problem, a command line that cannot work, Ctrl-C."""

MAX_NAME = 40
"""The longest player name (characters)."""


def players_option(text: str) -> tuple[str, ...]:
    names = tuple(" ".join(n.split()) for n in text.split(","))
    for name in names:
        if not name:
            raise UsageError(console_text("players_empty"))
        if len(name) > MAX_NAME:
            raise UsageError(console_text("player_too_long", name=name[:20], limit=MAX_NAME))
        if not any(c.isalpha() for c in name) or not normalize(name):
            raise UsageError(console_text("player_unsayable", name=name))
    spoken = [normalize(n) for n in names]
    for name, said in zip(names, spoken, strict=True):
        if spoken.count(said) > 1:
            raise UsageError(console_text("players_twice", name=name))
    return names


TTS_METAVAR = "{tcp://HOST:PORT,unix://PATH}"


def tts_option(value: str) -> str:
    """``--tts``: the address of a Wyoming text-to-speech service (argparse type)."""
    import argparse

    from voice.wyoming import is_wyoming_uri, uri_is_usable

    if not is_wyoming_uri(value) or not uri_is_usable(value):
        raise argparse.ArgumentTypeError(console_text("wyoming_bad_uri", uri=value))
    return value
