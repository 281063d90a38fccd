"""Push-to-talk by a spoken keyword: only what starts with "Spielleiter, …" / "game master,
…" is meant for the game.

At a table where others talk (babble), a grammar recogniser forces chatter into some
sentence of the grammar; with a keyword in front of every sentence, chatter must also
sound like the keyword to be taken. :class:`KeywordRecogniser` wraps any recogniser: every
phrase of the phase is listened for with the keyword before it, and the keyword is taken
off what was heard, so the rest of farbspiel sees the sentences it asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from voice.recognition.base import Alternative, Recogniser, Transcript, WrappedRecogniser

KEYWORDS = {"de": "Spielleiter", "en": "game master"}
"""The keyword per language (several words are fine; it is said before every sentence)."""


class KeywordRecogniser(WrappedRecogniser):
    """``inner`` listening only for sentences that begin with ``keyword``."""

    def __init__(self, inner: Recogniser, keyword: str) -> None:
        words = keyword.lower().replace(",", " ").split()
        if not words:
            raise ValueError("the keyword is empty")
        super().__init__(inner)
        self.keyword = " ".join(words)

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        self.inner.set_phrases([f"{self.keyword} {p}" for p in phrases], names)

    def _strip(self, text: str) -> str:
        """The sentence after the keyword ("" when it was not said first)."""
        if text.startswith(self.keyword + " "):
            return text[len(self.keyword) + 1 :]
        return ""

    def _unwrapped(self, transcript: Transcript | None) -> Transcript | None:
        if transcript is None:
            return None
        size = len(self.keyword.split())
        words = transcript.words[size:] if len(transcript.words) >= size else ()
        return replace(
            transcript,
            text=self._strip(transcript.text),
            words=words,
            alternatives=tuple(
                Alternative(self._strip(a.text), a.confidence)
                for a in transcript.alternatives
                if self._strip(a.text)
            ),
        )

    def accept(self, chunk: bytes) -> Transcript | None:
        return self._unwrapped(self.inner.accept(chunk))

    def finish(self) -> Transcript | None:
        return self._unwrapped(self.inner.finish())


def with_keyword(recogniser: Recogniser, lang: str, keyword: str | None) -> Recogniser:
    """``recogniser`` behind the keyword: ``keyword`` itself, ``"default"`` for the
    language's (:data:`KEYWORDS`), or ``None``/``""`` for no keyword."""
    if not keyword:
        return recogniser
    word = KEYWORDS[lang] if keyword == "default" else keyword
    return KeywordRecogniser(recogniser, word)
