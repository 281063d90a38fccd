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
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice.asr.base import SAMPLE_RATE, Recogniser, RecogniserError, Transcript, Word
from voice.grammar import normalize

UNKNOWN_WORD = "[unk]"
"""vosk's word for out-of-grammar speech (in the models that have it)."""

MAX_PHRASES = 500_000
MAX_PHRASE_WORDS = 40

OUT_OF_LIST_CONFIDENCE = 0.5
"""The highest confidence of a transcript that is not one of the listed phrases."""

PROBE_TIMEOUT = 300.0
"""Seconds a model may take to load in the checking child process."""

# Words reach vosk inside a JSON string and its word table: no quotes, backslashes,
# brackets or control characters (normalised text has none; this is the last guard).
_SAFE_WORD = re.compile(r"^[^\s\"\\\[\]{}\x00-\x1f\x7f]+$")


def _vosk() -> Any:
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise RecogniserError(
            f"the vosk engine is not installed or does not load ({exc}); "
            "install it with: pip install vosk"
        ) from None
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
        if not phrase or normalize(phrase) != phrase:
            raise ValueError(f"phrase {phrase!r} is not normalised text")
        words = phrase.split(" ")
        if len(words) > MAX_PHRASE_WORDS:
            raise ValueError(f"phrase {phrase[:40]!r}... has too many words")
        for word in words:
            if not _SAFE_WORD.match(word):
                raise ValueError(f"phrase {phrase!r} contains the unusable word {word!r}")
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
        raise ValueError(
            f"the speech model knows none of the {len(checked)} phrases "
            f"(unknown words: {words}); is it a model for this language?"
        )
    listed = usable + ([UNKNOWN_WORD] if knows(UNKNOWN_WORD) else [])
    text = json.dumps(listed, ensure_ascii=False)
    if json.loads(text) != listed:  # cannot happen for checked words; vosk must never see it
        raise ValueError("the grammar does not survive JSON encoding")
    return VoskGrammar(text, frozenset(usable), {w: tuple(p) for w, p in unknown.items()})


# --- models --------------------------------------------------------------------------------
def model_problem(path: Path) -> str | None:
    """What is missing in a vosk model directory, or ``None`` if it looks complete."""
    if not path.is_dir():
        return f"{path} is not a folder"
    needed = ["am/final.mdl", "conf/model.conf"]
    graph = path / "graph"
    lookahead = (graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file()
    if not lookahead and not (graph / "HCLG.fst").is_file():
        return f"{path} has no decoding graph (graph/HCLr.fst + graph/Gr.fst or graph/HCLG.fst)"
    for name in needed:
        file = path / name
        if not file.is_file() or file.stat().st_size == 0:
            return f"{path} is incomplete: {name} is missing or empty"
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
    from voice.settings import data_dir

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
            [sys.executable, "-m", "voice.asr.vosk", "--probe", str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise RecogniserError(
            f"the speech model in {path} did not load within {timeout:.0f} s"
        ) from None
    if proc.returncode != 0 or "probe ok" not in proc.stdout:
        detail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [
            f"exit {proc.returncode}"
        ]
        raise RecogniserError(f"the speech model in {path} is damaged ({detail[0][:200]})")
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
            raise RecogniserError(problem)
        vosk = _vosk()
        if verify:
            verify_model(path)
        try:
            model = vosk.Model(key)  # vosk wants a str, never a Path (and never lang=...)
        except Exception as exc:  # noqa: BLE001 - vosk raises a bare Exception
            raise RecogniserError(f"the speech model in {path} does not load ({exc})") from None
        _MODELS[key] = model
        return model


# --- the recogniser -------------------------------------------------------------------------
class VoskRecogniser(Recogniser):
    """vosk with one model; the phrase list is switched with ``SetGrammar`` per phase."""

    engine = "vosk"

    def __init__(
        self,
        model_dir: Path,
        *,
        sample_rate: int = SAMPLE_RATE,
        notify: Callable[[str], None] | None = None,
        verify: bool = True,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.model = load_model(self.model_dir, verify=verify)
        self.sample_rate = sample_rate
        self.grammar_capable = supports_grammar(self.model_dir.resolve())
        self.notify = notify
        self.grammar: VoskGrammar | None = None
        self._recogniser: Any = None
        self._known: dict[str, bool] = {}
        self._reported_unknown: set[str] = set()
        self._odd_byte = b""
        self._samples = 0

    def knows(self, word: str) -> bool:
        """Whether the model's vocabulary has ``word``."""
        if word not in self._known:
            self._known[word] = self.model.vosk_model_find_word(word) >= 0
        return self._known[word]

    def set_phrases(self, phrases: Sequence[str]) -> None:
        grammar = build_grammar(phrases, self.knows)  # ValueError before vosk sees anything
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
            self._recogniser.SetGrammar(grammar.text)
        self.grammar = grammar

    def _report_unknown(self, grammar: VoskGrammar) -> None:
        new = sorted(set(grammar.unknown) - self._reported_unknown)
        if not new or self.notify is None:
            return
        self._reported_unknown.update(new)
        broken = len({phrase for word in new for phrase in grammar.unknown[word]})
        self.notify(
            f"the speech model does not know {', '.join(repr(w) for w in new[:10])}"
            f"{' ...' if len(new) > 10 else ''}; {broken} sentence(s) with them cannot be "
            "heard (type them instead; `farbspiel models check` lists all)"
        )

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
        if self._recogniser.AcceptWaveform(data):
            return self._transcript(self._recogniser.Result())
        return None

    def finish(self) -> Transcript | None:
        if self._recogniser is None:
            return None
        self._odd_byte = b""
        return self._transcript(self._recogniser.FinalResult())

    def reset(self) -> None:
        if self._recogniser is not None:
            self._recogniser.Reset()
        self._odd_byte = b""

    def close(self) -> None:
        self._recogniser = None

    @property
    def stream_seconds(self) -> float:
        """Audio fed so far, in seconds."""
        return self._samples / self.sample_rate

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
        text = " ".join(w.word for w in heard)
        confidence = min(w.confidence for w in heard)
        assert self.grammar is not None
        if text not in self.grammar.phrases:
            confidence = min(confidence, OUT_OF_LIST_CONFIDENCE)
        return Transcript(text, confidence, words, end)


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
    print("usage: python -m voice.asr.vosk --probe MODEL_DIR", file=sys.stderr)
    raise SystemExit(2)
