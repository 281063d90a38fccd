"""Errors of the command line, on the common root (:class:`games.errors.FarbspielError`)."""

from __future__ import annotations

from games.errors import FarbspielError


class UsageError(FarbspielError, ValueError):
    """A command-line value that cannot work; the message says what to do instead (exit 2)."""

    default_key = "usage"


class CliError(FarbspielError):
    """A failure outside the command line (files, devices); exit code 1."""

    default_key = "cli"
