"""The one root of every error farbspiel reports to people.

Every error class of the project derives from :class:`FarbspielError`. Its ``key`` names
the message in the game's prompt files (``voice/output/prompts/<lang>/``) and ``params``
fill in the message's blanks, so the voice layer can say any error in the game's
language (after python-chess's typed errors and Home Assistant's response keys). It lives
in ``games/`` because the engines, the bottom of the house, raise errors too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Reason:
    """A message key of the prompts and its blanks, for a part of a message (what is wrong
    with one entry of a deck, ...); said in the players' language like an error."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return said(self, f"{self.key} {self.params}")


def said(problem: Any, raw: str) -> str:
    """``problem`` (an error, notice or reason: a key and its blanks) in the players'
    language, by :attr:`FarbspielError.renderer`; ``raw`` while no message is known."""
    renderer = FarbspielError.renderer
    text = renderer(problem) if renderer is not None else None
    return text if text is not None else raw


class FarbspielError(Exception):
    """Root of farbspiel's errors: ``key`` (the message key) and ``params`` (its blanks).

    Subclasses set ``default_key``. An error raised with a finished sentence
    (``UsageError("--rate must be ...")``) carries it as ``params["text"]``.
    """

    default_key: ClassVar[str] = "error"

    def __init__(self, text: str = "", /, *, key: str | None = None, **params: Any) -> None:
        self.key = key or self.default_key
        self.params: dict[str, Any] = {"text": text, **params} if text else params
        if text:
            super().__init__(text)
        else:
            super().__init__(self.key, params)

    renderer: ClassVar[Callable[[FarbspielError], str | None] | None] = None
    """Says an error by its key in the players' language; the voice layer's messages set
    it (``voice/output/messages.py``), since the texts live up there. ``None`` back:
    no message for this key, :meth:`raw` is shown."""

    def __str__(self) -> str:
        if "text" in self.params:
            return str(self.params["text"])
        return said(self, self.raw())

    def raw(self) -> str:
        """The key and its blanks (for developers; no message text)."""
        return f"{self.key} {self.params}" if self.params else self.key
