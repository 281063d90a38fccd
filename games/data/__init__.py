"""Card and colour data (YAML), shared by the engines and the voice layer."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def load(name: str) -> Any:
    """Load ``games/data/<name>.yaml`` (cached; callers must not mutate it)."""
    text = resources.files(__name__).joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)
