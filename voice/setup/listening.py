"""The set-up dialogue heard through the microphone (issue 29): the same recogniser and
microphone as the game's, restricted to the set-up's sentences, with typed answers still
taken at the same time.

What the recogniser is not sure of is never taken as an answer (and where it heard no
words at all, nothing is said: the silence goes on): below two thirds of the
engine's ``ignore`` confidence (its own scale, :class:`voice.recognition.base.Thresholds`:
what the games take for table talk) the table gets the short repeat of the question, as
after silence; a "ja" / "yes" that would start the game needs the ``confirm`` confidence.
Every part is said back before anything starts. Measured with
``python -m voice.bench.setup_speech`` (voice/bench/RESULTS-LOG.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from voice.input.lines import LineReader
from voice.recognition.base import Recogniser, Transcript
from voice.session.microphone import POLL_SECONDS, AudioSource, SpeakingGate
from voice.setup.grammar import setup_grammar
from voice.setup.phrases import setup_phrases
from voice.setup.spelling import listened_for

Wanted = tuple[str, tuple[str, ...], bool]
"""What to listen for: the language, the players' names, and whether a name is spelled."""
Answer = tuple[str | None, list[str] | None]
"""An answer (``None``: silence or not heard well enough) and the script lines after it
(always ``None`` here: nothing is scripted)."""


def accepted(
    transcript: Transcript,
    recogniser: Recogniser,
    lang: str,
    weighty: Callable[[str], bool] | None = None,
) -> str | None:
    """The words of ``transcript`` if they are sure enough to be a set-up answer.
    ``weighty``: answers that undo what was already set (another game than the one
    chosen) need the ``confirm`` confidence, as the "ja" that starts does."""
    text = transcript.text.strip()
    if not text:
        return None
    thresholds = recogniser.thresholds
    if text in _yes_words(lang) or (weighty is not None and weighty(text)):
        needed = thresholds.confirm
    else:
        needed = thresholds.ignore * ANSWER_SHARE
    return text if transcript.confidence >= needed else None


def nothing_said(transcript: Transcript) -> bool:
    """Whether the recogniser heard no words at all (no text, or confidence 0: its
    phone loop heard no phone). Such a blip is not answered: a repeat said at once
    would talk over the player who starts to speak just after it, and swallow their
    first words as farbspiel's own voice (measured through the microphone: a click of
    room noise as the stream opened made "Alle meine Farben" heard as "Farben")."""
    return not transcript.text.strip() or transcript.confidence <= 0.0


ANSWER_SHARE = 2 / 3
"""A set-up answer counts from this share of the engine's ``ignore`` confidence on: each
part is said back before anything starts, so a lower bar than a move's serves (measured
with ``python -m voice.bench.setup_speech``, see voice/bench/RESULTS-LOG.md)."""


def _yes_words(lang: str) -> frozenset[str]:
    return frozenset(setup_grammar(lang).yes[0])


class SetupListener:
    """Answers heard (or typed) while the set-up dialogue runs."""

    def __init__(
        self,
        recogniser: Recogniser,
        source: AudioSource,
        gate: SpeakingGate,
        wanted: Callable[[], Wanted],
        keyboard: LineReader | None = None,
        silence: float = 20.0,
        now: Callable[[], float] = time.monotonic,
        weighty: Callable[[str], bool] | None = None,
    ) -> None:
        self.recogniser = recogniser
        self.source = source
        self.gate = gate
        self.wanted = wanted
        """The language, the names to listen for now and whether a name is being
        spelled (they change as players are named and the language is chosen); the
        set-up's sentences are built from them only when they change, not at every look
        at the microphone."""
        self.keyboard = keyboard
        self.silence = silence
        self.now = now
        self.weighty = weighty
        self._listening: Wanted | None = None

    def answers(self) -> Iterator[Answer]:
        """Each answer as it comes; ``None`` after :attr:`silence` seconds of nothing and
        for what was heard too unsure to count (the dialogue then repeats its question)."""
        quiet_since = self.now()
        discarding = False
        while True:
            lang = self._listen()
            if self.keyboard is not None:
                line = self.keyboard.readline(0)
                if line == "":
                    self.keyboard = None  # typing ended; the microphone goes on
                elif line is not None and line.strip():
                    yield line.strip(), None
                    quiet_since = self.now()
                    continue
            chunk = self.source.read(POLL_SECONDS)
            if chunk is not None and self.gate.own_voice(chunk):
                if not discarding:
                    self.recogniser.reset()  # our own question must not start an answer
                    discarding = True
            elif chunk is not None:
                discarding = False
                transcript = self.recogniser.accept(chunk.data)
                if transcript is not None and not nothing_said(transcript):
                    quiet_since = self.now()
                    yield accepted(transcript, self.recogniser, lang, self.weighty), None
                    continue
            # nothing came, our own voice, or the room's sound without words
            if self.now() - quiet_since >= self.silence:
                quiet_since = self.now()
                yield None, None

    def _listen(self) -> str:
        wanted = self.wanted()
        if wanted != self._listening:
            lang, names, spelling = wanted
            if spelling:  # a letter at a time
                self.recogniser.set_phrases(listened_for(lang))
            else:
                self.recogniser.set_phrases(setup_phrases(lang, names))
            self._listening = wanted
        return wanted[0]
