"""Card and colour data (YAML), shared by the engines and the voice layer."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

from games.errors import FarbspielError


class DataError(FarbspielError, ValueError):
    """One of our own data files is missing or damaged (e.g. a word list edited by hand);
    the message names the file and what is wrong."""

    default_key = "data_file"


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    """YAML of our own files, parsed safely (libyaml's parser when installed: ten times
    faster than the pure-Python one, which matters for start-up)."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader


@cache
def load(name: str) -> Any:
    """Load ``games/data/<name>.yaml`` (cached; callers must not mutate it).

    Raises :class:`DataError` if the file cannot be read or is not valid YAML.
    """
    where = f"games/data/{name}.yaml"
    try:
        text = resources.files(__name__).joinpath(f"{name}.yaml").read_text(encoding="utf-8")
        return parse_yaml(text)
    except OSError as exc:
        raise DataError(key="data_unreadable", where=where, reason=exc) from None
    except (UnicodeDecodeError, yaml.YAMLError, RecursionError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise DataError(key="data_damaged", where=where, line=line) from None
