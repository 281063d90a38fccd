"""The vosk recogniser: a Kaldi model loaded once, listening for the current phase's phrases.

Three things about vosk 0.3.45 shape this module (each was seen to kill the process):

- a grammar string that is not a JSON list of strings (``"[]"`` in the constructor, bad
  JSON, numbers) segfaults or aborts, so grammars are only ever ``json.dumps`` of a list
  that :func:`build_grammar` has checked (non-empty, normalised words the model knows);
- ``SetGrammar`` while an utterance is being decoded aborts, so the recogniser is always
  reset first;
- a model directory with a damaged graph loads "fine" and crashes at the first
  recogniser, so a model is first tried in a child process (:func:`verify_model`), once
  per set of files.

vosk turns the phrase list into a bigram language model, so it can still output word
sequences that are no phrase of the list (two phrases run together, a phrase cut short).
Such transcripts keep a lower confidence (the session then asks before acting), and
transcripts with out-of-grammar speech (``[unk]``) are dropped: table talk is never a move.

A grammar also forces *any* sound into its phrases: pure noise (a fan, rain, a hiss) comes
out as a listed phrase, measured with confidence up to 1.0. So a transcript is kept only
if the audio of its words sounds like a voice (:class:`VoicingMeter`: periodic, as voiced
speech is, in a fair share of its frames; noise is not); words that are noise are left
out (a hiss just before a player speaks is decoded as one utterance with them).

A transcript sure enough to be acted on has its melody measured
(:mod:`voice.recognition.intonation`): a move said as a question ("Cem played green?")
is asked about, never applied at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from voice.errors import Notice
from voice.input.audio import SAMPLE_RATE
from voice.recognition import intonation
from voice.recognition.base import (
    PhraseError,
    Recogniser,
    RecogniserError,
    Thresholds,
    Transcript,
    Word,
)

UNKNOWN_WORD = "[unk]"
"""vosk's word for out-of-grammar speech (in the models that have it)."""

MAX_PHRASES = 500_000
MAX_PHRASE_WORDS = 40

OUT_OF_LIST_CONFIDENCE = 0.5
"""The highest confidence of a transcript that is not one of the listed phrases."""

ENDPOINT_SILENCE = 0.5
"""Seconds of silence after a complete phrase of the list that end the utterance."""

ENDPOINT_SILENCE_UNFINISHED = 1.0
"""Seconds of silence after words that are no phrase of the list (yet): a player who
pauses in the middle of a sentence is given more time."""

PARTIAL_EVERY = 0.05
"""Seconds of audio between two looks at vosk's partial result."""

STABLE_PARTIAL = 0.1
"""Seconds the partial result must stay the same before it counts as the last word."""

QUIET_ABOVE_FLOOR = 4.0
"""10 ms frames louder than the noise floor times this are speech (12 dB)."""

MIN_LOUD_RMS = 60.0
"""Frames quieter than this (about -55 dBFS) are never speech, even in digital silence."""

NOISE_VOICED_BELOW = 0.15
"""Words whose audio has fewer voiced frames than this share are noise.
Measured (40 ms frames): espeak-ng speech in de/en/ko, clean to 5 dB SNR, white or pink
noise, clipped: 0.4-1.0; white, pink, brown and clipped noise: 0.0-0.06."""

PROBE_TIMEOUT = 300.0
"""Seconds a model may take to load in the checking child process."""

# What normalised text (voice.understanding.grammar.normalize) looks like: lower-case NFC words of
# letters, digits and apostrophes, single spaces. Words reach vosk inside a JSON string and
# its word table, so this also keeps out quotes, backslashes, brackets and control codes.
_NORMALISED_PHRASE = re.compile(r"[\w']+(?: [\w']+)*")


def _vosk() -> Any:
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise RecogniserError(key="vosk_missing", detail=str(exc)) from None
    vosk.SetLogLevel(-1)  # Kaldi's log lines are not for players; we report problems
    return vosk


# --- grammars ------------------------------------------------------------------------------
@dataclass(frozen=True)
class VoskGrammar:
    """A checked phrase list and the exact string handed to vosk."""

    text: str
    """``json.dumps`` of the phrases (plus ``[unk]`` where the model has it)."""

    phrases: frozenset[str]
    """The phrases the model can recognise (those with unknown words are left out)."""

    unknown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words the model does not know → the phrases they were in (left out)."""


def validate_phrases(phrases: Any) -> list[str]:
    """The phrases as a clean list, or ValueError saying what is wrong with them."""
    if isinstance(phrases, str | bytes) or not isinstance(phrases, Sequence):
        raise ValueError("phrases must be a list of sentences")
    if not phrases:
        raise ValueError("the phrase list is empty")
    if len(phrases) > MAX_PHRASES:
        raise ValueError(f"{len(phrases)} phrases are too many (at most {MAX_PHRASES})")
    clean: dict[str, None] = {}
    for phrase in phrases:
        if not isinstance(phrase, str):
            raise ValueError(f"phrase {phrase!r} is not text")
        if (
            not _NORMALISED_PHRASE.fullmatch(phrase)
            or phrase != phrase.lower()
            or not unicodedata.is_normalized("NFC", phrase)
        ):
            raise ValueError(f"phrase {phrase!r} is not normalised text")
        if phrase.count(" ") >= MAX_PHRASE_WORDS:
            raise ValueError(f"phrase {phrase[:40]!r}... has too many words")
        clean.setdefault(phrase, None)
    return list(clean)


def build_grammar(phrases: Any, knows: Callable[[str], bool]) -> VoskGrammar:
    """A grammar vosk can take, from phrases; ValueError if none of them is usable."""
    checked = validate_phrases(phrases)
    known: dict[str, bool] = {}
    unknown: dict[str, list[str]] = {}
    usable: list[str] = []
    for phrase in checked:
        missing = []
        typed = False
        for word in phrase.split(" "):
            if word not in known:
                known[word] = bool(knows(word))
            if known[word]:
                continue
            if word.isdigit():  # "reihe 2" is how one types it; the model hears "reihe zwei"
                typed = True
            else:
                missing.append(word)
        for word in missing:
            unknown.setdefault(word, []).append(phrase)
        if not missing and not typed:
            usable.append(phrase)
    if not usable:
        words = ", ".join(sorted(unknown)[:8])
        raise PhraseError(key="model_knows_no_phrase", count=len(checked), words=words)
    listed = usable + ([UNKNOWN_WORD] if knows(UNKNOWN_WORD) else [])
    text = json.dumps(listed, ensure_ascii=False)
    if json.loads(text) != listed:  # cannot happen for checked words; vosk must never see it
        raise ValueError("the grammar does not survive JSON encoding")
    return VoskGrammar(text, frozenset(usable), {w: tuple(p) for w, p in unknown.items()})


# --- models --------------------------------------------------------------------------------
def model_problem(path: Path) -> Notice | None:
    """What is missing in a vosk model directory (a message key and its blanks), or
    ``None`` if it looks complete."""
    if not path.is_dir():
        return Notice("model_not_folder", {"path": path})
    needed = ["am/final.mdl", "conf/model.conf"]
    graph = path / "graph"
    lookahead = (graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file()
    if not lookahead and not (graph / "HCLG.fst").is_file():
        return Notice("model_no_graph", {"path": path})
    for name in needed:
        file = path / name
        if not file.is_file() or file.stat().st_size == 0:
            return Notice("model_incomplete", {"path": path, "file": name})
    return None


def supports_grammar(path: Path) -> bool:
    """Lookahead models (the small ones) take per-phase grammars; static graphs do not."""
    return (path / "graph" / "HCLr.fst").is_file() and (path / "graph" / "Gr.fst").is_file()


def _fingerprint(path: Path) -> str:
    digest = hashlib.sha1()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        if file.name.startswith(".farbspiel"):
            continue
        stat = file.stat()
        digest.update(f"{file.relative_to(path)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _verified_file() -> Path:
    from voice.paths import data_dir

    return data_dir() / "verified-models.json"


def _read_verified() -> dict[str, str]:
    try:
        data = json.loads(_verified_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def verify_model(path: Path, timeout: float = PROBE_TIMEOUT) -> None:
    """Load the model and decode a little audio in a child process, once per set of files.

    A damaged model crashes the process that uses it, so it is tried where a crash costs
    nothing. Raises :class:`RecogniserError` with the fix if the model does not work.
    """
    path = path.resolve()
    fingerprint = _fingerprint(path)
    verified = _read_verified()
    if verified.get(str(path)) == fingerprint:
        return
    project_root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(project_root), *sys.path])}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "voice.recognition.vosk", "--probe", str(path)],
            capture_output=True,
            text=True,
            errors="replace",  # Kaldi echoes bytes of a damaged file into its messages
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise RecogniserError(key="model_too_slow", path=path, seconds=round(timeout)) from None
    if proc.returncode != 0 or "probe ok" not in proc.stdout:
        detail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [
            f"exit {proc.returncode}"
        ]
        raise RecogniserError(key="model_damaged", path=path, detail=detail[0][:200])
    verified[str(path)] = fingerprint
    try:
        file = _verified_file()
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(verified, indent=1), encoding="utf-8")
    except OSError:
        pass  # it is only a cache: the model is checked again next time


_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def load_model(path: Path, verify: bool = True) -> Any:
    """The loaded ``vosk.Model`` of a directory; loaded once per process and shared."""
    path = Path(path).resolve()
    key = str(path)
    with _MODELS_LOCK:
        if key in _MODELS:
            return _MODELS[key]
        problem = model_problem(path)
        if problem is not None:
            raise RecogniserError(key=problem.key, **problem.params)
        vosk = _vosk()
        if verify:
            verify_model(path)
        try:
            model = vosk.Model(key)  # vosk wants a str, never a Path (and never lang=...)
        except Exception as exc:  # noqa: BLE001 - vosk raises a bare Exception
            raise RecogniserError(key="model_does_not_load", path=path, detail=str(exc)) from None
        _MODELS[key] = model
        return model


# --- the recogniser -------------------------------------------------------------------------
class QuietTracker:
    """How long the audio has been near its noise floor (for the endpoint)."""

    FRAME = 160  # 10 ms at 16 kHz
    HISTORY = 512  # frames (5 s) for the noise floor

    def __init__(self) -> None:
        self.levels = np.full(self.HISTORY, np.nan, dtype=np.float32)
        self.count = 0
        self.loud_until = 0.0
        self._rest = np.zeros(0, dtype=np.float32)

    def add(self, data: bytes, end: float) -> None:
        """Audio up to stream time ``end``."""
        samples = np.concatenate([self._rest, np.frombuffer(data, "<i2").astype(np.float32)])
        count = len(samples) // self.FRAME
        self._rest = samples[count * self.FRAME :]
        if count == 0:
            return
        frames = samples[: count * self.FRAME].reshape(count, self.FRAME)
        levels = np.sqrt(np.einsum("ij,ij->i", frames, frames) / self.FRAME)
        slots = (self.count + np.arange(count)) % self.HISTORY
        self.levels[slots] = levels
        self.count += count
        known = self.levels[: min(self.count, self.HISTORY)]
        k = len(known) // 10
        floor = float(np.partition(known, k)[k])  # the quietest tenth of the last 5 s
        loud = np.nonzero(levels > max(floor * QUIET_ABOVE_FLOOR, MIN_LOUD_RMS))[0]
        if len(loud):
            frame_end = end - (len(self._rest) + (count - 1 - loud[-1]) * self.FRAME) / 16000
            self.loud_until = max(self.loud_until, frame_end)

    def quiet_for(self, now: float) -> float:
        return now - self.loud_until


class VoicingMeter:
    """The last seconds of audio, and how much of a stretch of it sounds like a voice.

    A frame is voiced when its normalised autocorrelation peaks above
    :data:`VOICED_PEAK` at a pitch period between 2.5 and 20 ms (50-400 Hz): vocal folds
    make sound periodic, noise is not. Frames below :data:`MIN_LOUD_RMS` are not judged.
    """

    FRAME = 640  # 40 ms at 16 kHz: two periods of a low voice
    HOP = 320
    LAGS = (40, 320)  # 2.5-20 ms
    VOICED_PEAK = 0.6
    KEEP = 30 * SAMPLE_RATE

    def __init__(self) -> None:
        self.buffer = np.zeros(self.KEEP, dtype=np.float32)
        self.count = 0  # samples added so far

    def add(self, samples: np.ndarray) -> None:
        samples = samples[-self.KEEP :]
        at = self.count % self.KEEP
        first = min(len(samples), self.KEEP - at)
        self.buffer[at : at + first] = samples[:first]
        self.buffer[: len(samples) - first] = samples[first:]
        self.count += len(samples)

    def _audio(self, start: int, end: int) -> np.ndarray:
        index = np.arange(start, end) % self.KEEP
        return self.buffer[index].astype(np.float64)

    def samples(self, start: float, end: float) -> np.ndarray:
        """The audio kept between two stream times (seconds)."""
        first = max(int(start * SAMPLE_RATE), self.count - self.KEEP, 0)
        last = min(int(end * SAMPLE_RATE), self.count)
        return self._audio(first, last) if last > first else np.zeros(0)

    def voiced_share(self, start: float, end: float) -> tuple[float, int]:
        """(share of voiced frames, frames judged) between two stream times (seconds)."""
        first = max(int(start * SAMPLE_RATE), self.count - self.KEEP, 0)
        last = min(int(end * SAMPLE_RATE), self.count)
        count = (last - first - self.FRAME) // self.HOP + 1
        if count <= 0:
            return 0.0, 0
        audio = self._audio(first, last)
        index = np.arange(self.FRAME)[None, :] + self.HOP * np.arange(count)[:, None]
        frames = audio[index]
        frames -= frames.mean(axis=1, keepdims=True)
        loud = np.sqrt(np.mean(frames**2, axis=1)) > MIN_LOUD_RMS
        if not loud.any():
            return 0.0, 0
        spectrum = np.fft.rfft(frames[loud], 2 * self.FRAME)
        correlation = np.fft.irfft(np.abs(spectrum) ** 2)[:, : self.FRAME]
        overlap = self.FRAME / (self.FRAME - np.arange(self.FRAME))  # unbiased estimate
        correlation = correlation / np.maximum(correlation[:, :1], 1e-9) * overlap
        peaks = correlation[:, self.LAGS[0] : self.LAGS[1]].max(axis=1)
        return float(np.mean(peaks > self.VOICED_PEAK)), int(loud.sum())


class VoskRecogniser(Recogniser):
    """vosk with one model; the phrase list is switched with ``SetGrammar`` per phase."""

    engine = "vosk"

    # vosk's word confidences are posteriors; with a phrase list a clear command scores
    # near 1 and anything not in the list is capped at OUT_OF_LIST_CONFIDENCE, so such
    # moves are confirmed, never applied at once.
    thresholds = Thresholds(act=0.8, confirm=0.3, answer=0.3, affirm=0.5, ignore=0.3)

    def __init__(
        self,
        model_dir: Path,
        *,
        sample_rate: int = SAMPLE_RATE,
        notify: Callable[[str | Notice], None] | None = None,
        verify: bool = True,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.model = load_model(self.model_dir, verify=verify)
        self.sample_rate = sample_rate
        self.grammar_capable = supports_grammar(self.model_dir.resolve())
        self.notify = notify
        self.grammar: VoskGrammar | None = None
        self._grammars: dict[tuple[Any, ...], VoskGrammar] = {}
        self._recogniser: Any = None
        self._known: dict[str, bool] = {}
        self._reported_unknown: set[str] = set()
        self._odd_byte = b""
        self._samples = 0
        self._partial_at = 0
        self._partial_text = ""
        self._partial_since = 0.0
        self._decided_at = 0.0
        self._quiet = QuietTracker()
        self._voicing = VoicingMeter()
        self.noise_dropped = 0
        """Transcripts dropped because their audio was noise, not a voice."""
        self.endpoint = ""
        """Which rule ended the last utterance: "vosk", "phrase" or "unfinished"."""

    def knows(self, word: str) -> bool:
        """Whether the model's vocabulary has ``word``."""
        if word not in self._known:
            self._known[word] = self.model.vosk_model_find_word(word) >= 0
        return self._known[word]

    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        # names: vosk's grammar is a list of the model's own words; it has no way to
        # hear several as one
        grammar = self._grammar_for(phrases)  # ValueError before vosk sees anything
        if self.grammar is not None and grammar.text == self.grammar.text:
            return
        self._report_unknown(grammar)
        vosk = _vosk()
        if self._recogniser is None:
            if self.grammar_capable:
                self._recogniser = vosk.KaldiRecognizer(self.model, self.sample_rate, grammar.text)
            else:
                self._recogniser = vosk.KaldiRecognizer(self.model, self.sample_rate)
            self._recogniser.SetWords(True)
        elif self.grammar_capable:
            self._recogniser.Reset()  # SetGrammar during an utterance aborts the process
            self._odd_byte = b""
            self._partial_text = ""
            self._recogniser.SetGrammar(grammar.text)
        self.grammar = grammar

    def _grammar_for(self, phrases: Sequence[str]) -> VoskGrammar:
        """The checked grammar of a phrase list; phases come back, so it is kept."""
        key: tuple[Any, ...] | None = None
        if not isinstance(phrases, str | bytes) and isinstance(phrases, Sequence):
            try:
                key = tuple(phrases)
                hash(key)
            except TypeError:  # unhashable items: the check below says what is wrong
                key = None
        if key is not None and key in self._grammars:
            return self._grammars[key]
        grammar = build_grammar(phrases, self.knows)
        if key is not None:
            if len(self._grammars) >= 8:
                self._grammars.pop(next(iter(self._grammars)))
            self._grammars[key] = grammar
        return grammar

    def _report_unknown(self, grammar: VoskGrammar) -> None:
        new = sorted(set(grammar.unknown) - self._reported_unknown)
        if not new or self.notify is None:
            return
        self._reported_unknown.update(new)
        broken = len({phrase for word in new for phrase in grammar.unknown[word]})
        shown = ", ".join(repr(w) for w in new[:10]) + (" ..." if len(new) > 10 else "")
        self.notify(Notice("model_lacks_words", {"words": shown, "count": broken}))

    def accept(self, chunk: bytes) -> Transcript | None:
        if self._recogniser is None:
            raise RuntimeError("set_phrases() must come before audio")
        data = self._odd_byte + bytes(chunk)
        if len(data) % 2:  # vosk wants whole 16-bit samples
            data, self._odd_byte = data[:-1], data[-1:]
        else:
            self._odd_byte = b""
        if not data:
            return None
        self._samples += len(data) // 2
        self._quiet.add(data, self.stream_seconds)
        self._voicing.add(np.frombuffer(data, "<i2").astype(np.float32))
        if self._recogniser.AcceptWaveform(data):
            self.endpoint = "vosk"
        elif self._phrase_complete():
            self.endpoint = "phrase" if self._partial_text in self._listed() else "unfinished"
        else:
            return None
        self._partial_text = ""
        self._decided_at = self.stream_seconds
        return self._transcript(self._recogniser.Result())

    def _listed(self) -> frozenset[str]:
        return self.grammar.phrases if self.grammar is not None else frozenset()

    def _phrase_complete(self) -> bool:
        """Our own, faster endpoint: a listed phrase, then half a second of quiet.

        vosk's endpoint rules weigh by its language model how likely the utterance is
        over; with a grammar of thousands of phrases that often waits for its longest
        rule (two seconds of silence). Here: vosk's partial result is a complete phrase
        of the list and has not changed for a moment, and the audio has been quiet (near
        the noise floor) for :data:`ENDPOINT_SILENCE` seconds — or, for words that are
        no phrase (yet), :data:`ENDPOINT_SILENCE_UNFINISHED`.
        """
        now = self.stream_seconds
        if self._quiet.loud_until <= self._decided_at:
            return False  # nothing was said since the last utterance
        if self._quiet.quiet_for(now) < ENDPOINT_SILENCE - STABLE_PARTIAL:
            self._partial_text = ""  # still speaking: vosk's partial result costs time
            return False
        if self._samples - self._partial_at < PARTIAL_EVERY * self.sample_rate:
            return False
        self._partial_at = self._samples
        try:
            text = str(json.loads(self._recogniser.PartialResult()).get("partial", ""))
        except ValueError:
            return False
        if text != self._partial_text:
            self._partial_text, self._partial_since = text, now
        words = text.split()
        if not words or UNKNOWN_WORD in words or now - self._partial_since < STABLE_PARTIAL:
            return False
        needed = ENDPOINT_SILENCE if text in self._listed() else ENDPOINT_SILENCE_UNFINISHED
        return self._quiet.quiet_for(now) >= needed

    def finish(self) -> Transcript | None:
        if self._recogniser is None:
            return None
        self._odd_byte = b""
        return self._transcript(self._recogniser.FinalResult())

    def reset(self) -> None:
        if self._recogniser is not None:
            self._recogniser.Reset()
        self._odd_byte = b""
        self._partial_text = ""
        self._decided_at = self.stream_seconds

    def close(self) -> None:
        self._recogniser = None

    @property
    def stream_seconds(self) -> float:
        """Audio fed so far, in seconds."""
        return self._samples / self.sample_rate

    def _sounds_like_voice(self, word: Word) -> bool:
        share, judged = self._voicing.voiced_share(word.start, word.end)
        return judged < 3 or share >= NOISE_VOICED_BELOW

    def _transcript(self, result: str) -> Transcript | None:
        """vosk's JSON result → a Transcript (``None`` when nothing at all was heard)."""
        try:
            data = json.loads(result)
        except ValueError:
            return None
        items = data.get("result") or []
        words = tuple(
            Word(str(w["word"]), float(w["start"]), float(w["end"]), float(w.get("conf", 1.0)))
            for w in items
            if isinstance(w, dict) and "word" in w
        )
        if not words and not str(data.get("text", "")).strip():
            return None
        end = self.stream_seconds
        heard = [w for w in words if w.word != UNKNOWN_WORD]
        if len(heard) < len(words) or not heard:  # out-of-grammar speech: never a move
            return Transcript("", 0.0, words, end)
        voiced = [w for w in heard if self._sounds_like_voice(w)]
        if len(voiced) < len(heard):  # noise forced into words of the grammar
            self.noise_dropped += 1
            if not voiced:
                return Transcript("", 0.0, words, end)
            heard = voiced
        text = " ".join(w.word for w in heard)
        confidence = min(w.confidence for w in heard)
        assert self.grammar is not None
        if text not in self.grammar.phrases:
            confidence = min(confidence, OUT_OF_LIST_CONFIDENCE)
        return Transcript(text, confidence, words, end, question=self._asked(heard, confidence))

    def _asked(self, heard: Sequence[Word], confidence: float) -> bool:
        """Whether the words were said as a question (the pitch rising at their end);
        measured only where it matters, for a transcript sure enough to be acted on."""
        if confidence < self.thresholds.act:
            return False
        after = intonation.AFTER_VOICE  # up to the end of the voice: then the room
        audio = self._voicing.samples(heard[0].start - after, heard[-1].end + after)
        melody = intonation.intonation(audio)
        return melody is not None and melody.question


def _probe(path: str) -> int:
    """Child-process check of a model (see :func:`verify_model`)."""
    vosk = _vosk()
    model = vosk.Model(path)
    recogniser = vosk.KaldiRecognizer(model, SAMPLE_RATE)  # composes the whole graph
    recogniser.AcceptWaveform(b"\x01\x00\xff\xff" * 4000)
    json.loads(recogniser.FinalResult())
    print("probe ok")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        raise SystemExit(_probe(sys.argv[2]))
    print("usage: python -m voice.recognition.vosk --probe MODEL_DIR", file=sys.stderr)
    raise SystemExit(2)
