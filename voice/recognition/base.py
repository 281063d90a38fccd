"""The recogniser interface: a stream of 16 kHz mono int16 audio in, transcripts out.

Both engines (vosk, pocketsphinx) implement :class:`Recogniser`; the microphone loop,
``farbspiel recognize`` and the benchmark use only this interface, so the same code takes
microphone chunks in play and WAV chunks in tests (after speech-to-phrase's
``transcribe(..., audio_stream)``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import FarbspielError

"""Every recogniser takes 16 kHz, mono, signed 16-bit little-endian audio."""


class RecogniserError(FarbspielError, RuntimeError):
    """The engine or its model cannot be used; the message says how to fix it."""

    default_key = "recogniser"


class PhraseError(FarbspielError, ValueError):
    """A list of phrases the recogniser cannot listen for (a message key + blanks)."""

    default_key = "phrases"


@dataclass(frozen=True)
class Word:
    """One recognised word with its timing in the stream."""

    word: str
    start: float
    """Seconds from the start of the stream."""
    end: float
    confidence: float
    """0..1 as the engine reports it (1.0 where the engine gives none)."""


@dataclass(frozen=True)
class Alternative:
    """Another sentence of the grammar the engine found nearly as likely."""

    text: str
    confidence: float
    """0..1 on the same scale as :attr:`Transcript.confidence`."""


@dataclass(frozen=True)
class Transcript:
    """What the recogniser heard in one utterance."""

    text: str
    """Normalised text (lower case, no punctuation); "" when nothing usable was heard."""

    confidence: float
    """0..1; how sure the engine is that ``text`` was said (and is in the grammar)."""

    words: tuple[Word, ...] = ()
    """Word timings where the engine gives them."""

    end: float = 0.0
    """Seconds from the start of the stream at which the utterance was decided."""

    alternatives: tuple[Alternative, ...] = ()
    """Sentences that nearly won, most likely first (empty where the engine gives none).
    The play policy adds up the ones that mean the same as ``text``."""

    noisy: bool = False
    """Heard in a noisy room (the speech less than 30 dB above the room's noise floor,
    where the engine measures it): confident mistakes are likelier there, so the play
    policy applies a move at once only from :attr:`Thresholds.act_noisy`."""

    question: bool = False
    """Said as a question: the pitch rose at the end (:mod:`voice.recognition.intonation`),
    as in "Cem played green?" where the words alone are a move. The play policy never
    applies such a move at once, it asks first. Measured where it matters (a transcript
    sure enough to be acted on); ``False`` where it was not, or could not be, measured."""


@dataclass(frozen=True)
class Thresholds:
    """Meaning confidences (0..1) at which the play policy
    (:mod:`voice.understanding.policy`) changes its mind. They belong to an engine: each
    measures confidence on a scale of its own. The defaults are pocketsphinx's, fitted on
    the benchmark (voice/bench/RESULTS-LOG.md)."""

    act: float = 0.97
    """Moves at least this sure are applied at once."""

    act_noisy: float | None = None
    """Moves heard in a noisy room (``Transcript.noisy``) are applied at once only from
    this (None: from ``act``)."""

    confirm: float = 0.5
    """Moves at least this sure (and below ``act``) are confirmed first."""

    answer: float = 0.5
    """Everything else (questions, commands, "no") at least this sure is done."""

    affirm: float = 0.75
    """A "yes" to a confirmation question must be at least this sure: a wrong yes applies
    a wrong move, a wrong no only costs a repetition."""

    ignore: float = 0.3
    """Anything less sure is table talk and ignored; in between, the player is asked again."""


class Recogniser(ABC):
    """One engine with its model loaded, listening for a phrase list."""

    thresholds: Thresholds = Thresholds()
    """How sure this engine's transcripts must be to act on them, confirm them, or ignore
    them (see :class:`Thresholds`)."""

    @abstractmethod
    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        """Listen for exactly these normalised sentences from now on (the current phase).

        ``names``: the names of more than one word the sentences hold (a character, a
        player); an engine may hear each as one word (pocketsphinx does).

        Implementations validate the list and build their grammar from it; a bad list
        raises ValueError and never reaches the engine.
        """

    @abstractmethod
    def accept(self, chunk: bytes) -> Transcript | None:
        """Feed audio; returns a transcript when an utterance has just ended."""

    @abstractmethod
    def finish(self) -> Transcript | None:
        """End of the stream: the transcript of any utterance still open."""

    @abstractmethod
    def reset(self) -> None:
        """Forget audio heard so far (e.g. what was captured while farbspiel spoke)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the engine."""


class WrappedRecogniser(Recogniser):
    """A recogniser in front of another (``inner``): it listens and decides on the inner
    one's scale and passes everything on; wrappers change only what they are for (the
    audio front end, the push-to-talk keyword)."""

    def __init__(self, inner: Recogniser) -> None:
        self.inner = inner

    @property
    def thresholds(self) -> Thresholds:  # type: ignore[override]  # read-only: the inner one's
        return self.inner.thresholds

    @property
    def details(self) -> dict[str, Any]:
        return dict(getattr(self.inner, "details", {}) or {})

    def __getattr__(self, name: str) -> Any:  # front_seconds, knows(), stream_seconds() ...
        return getattr(self.inner, name)

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        self.inner.set_phrases(phrases, names)

    def accept(self, chunk: bytes) -> Transcript | None:
        return self.inner.accept(chunk)

    def finish(self) -> Transcript | None:
        return self.inner.finish()

    def reset(self) -> None:
        self.inner.reset()

    def close(self) -> None:
        self.inner.close()


def transcribe(recogniser: Recogniser, chunks: Iterable[bytes]) -> Iterator[Transcript]:
    """All transcripts of an audio stream (microphone chunks or WAV chunks alike)."""
    for chunk in chunks:
        transcript = recogniser.accept(chunk)
        if transcript is not None:
            yield transcript
    transcript = recogniser.finish()
    if transcript is not None:
        yield transcript
