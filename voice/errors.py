"""Errors of the command line, on the common root (:class:`games.errors.FarbspielError`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.errors import FarbspielError, said


@dataclass(frozen=True)
class Notice:
    """A one-line notice for the players from an early stage (a recogniser that lacks
    words, ...): a message key of the console prompts and its blanks. The command line
    says it in the game's language; early stages cannot (the prompts are a later room)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:  # said in the console's language once the prompts are loaded
        return said(self, self.raw())

    def raw(self) -> str:
        return f"{self.key} {dict(self.params)}" if self.params else self.key


class UsageError(FarbspielError, ValueError):
    """A command-line value that cannot work; the message says what to do instead (exit 2)."""

    default_key = "usage"


class CliError(FarbspielError):
    """A failure outside the command line (files, devices); exit code 1."""

    default_key = "cli"
