"""The pocketsphinx recogniser: speech that works with no download.

pocketsphinx's wheel ships an American English acoustic model; farbspiel decodes with it
against the finite-state grammar of the current game phase (:mod:`voice.recognition.phrase_graph`),
so German works too, with words said the way espeak-ng's German voice says them
(:mod:`voice.recognition.pronounce`).

Audio is cut into utterances by a VAD (:mod:`voice.recognition.endpoint`). Each utterance is
decoded as a whole, normalised by its own cepstral mean: pocketsphinx's streaming
normalisation starts from a generic mean and takes many utterances to settle, and until
then it mishears short commands badly (measured: German colours 88% → 95% right). To stay
quick, the utterance is decoded as soon as the speaker pauses; if that is a sentence of
the grammar, a short pause ends it, otherwise a longer one.

A grammar decoder forces every sound into some sentence of the grammar, so it cannot tell
by itself whether a sentence was said at all. The confidence therefore has two parts:

- **In grammar?** A second decoder listens to the same audio as it comes, with a free
  phone loop (any sequence of English phones). Table talk fits the free loop much better
  than any sentence of the grammar, commands fit both about equally. A logistic model of the
  acoustic score difference, the phone distance and the phone count ratio gives the
  probability that the sentence was said.
- **Which sentence?** The n-best list of the grammar decoder gives the sentences that
  nearly won; their score gaps become probabilities. They are returned as
  ``Transcript.alternatives`` so that the play policy, which knows what sentences mean,
  can add up sentences that mean the same ("den Hut lila" = "die Hut lila"). A grammar
  with a slot of hundreds of values (Pantone's guess: every character's name) gets its
  list from a second decode with the slot cut down to the likely values (``WIDE_STATE``):
  pocketsphinx's lattice over all of them took most of a second.

``Transcript.confidence`` is the product: in grammar × this very sentence.
"""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from voice.input.audio import SAMPLE_RATE
from voice.recognition.base import (
    Alternative,
    Recogniser,
    RecogniserError,
    Thresholds,
    Transcript,
    Word,
)
from voice.recognition.endpoint import Endpointer, Step
from voice.recognition.intonation import AFTER_VOICE, Intonation, intonation
from voice.recognition.phrase_graph import NAME_JOINER, Automaton, joined_names, spoken_words
from voice.recognition.pronounce import Pronouncer, PronunciationError, cache_dir

LANGUAGES = ("de", "en")

# Confidence model: a logistic regression on three measures of how well the grammar's best
# sentence fits the sounds compared with free phones, fitted on the benchmark's synthetic
# speech (espeak-ng voices de and en-us, mbrola de6 and us2, at 160 words per minute, in a
# quiet room and in pink noise at 10 dB; see voice/bench/RESULTS-LOG.md), with "the meaning was
# recognised" as the label.
IN_GRAMMAR_RATIO = 0.107
"""Weight of the acoustic log-likelihood ratio per speech frame (grammar − phone loop)."""
IN_GRAMMAR_DISTANCE = -6.368
"""Weight of the phone distance between the sentence's pronunciation and the free phone
loop's phones (0: same phones, 1: nothing in common)."""
IN_GRAMMAR_LENGTH = -1.172
"""Weight of log((phones of the sentence + 1) / (phones the loop heard + 1)): a sentence
much longer than what was said is made up."""
IN_GRAMMAR_BIAS = 9.931
SPEECH_FRAMES_MIN = 30
"""The ratio is averaged over at least this many frames (very short sounds are noisy)."""
NBEST_SCALE = 0.03
"""Score units → log-probability for the n-best sentences (pocketsphinx scores are scaled
log-likelihoods; a gap of 100 units makes the loser e⁻³ as likely). Fitted with the
confidence model; flatter scales spread probability over sentences the acoustics tell
apart."""
NBEST_SIZE = 60
"""How many n-best entries to read (many are the same sentence, aligned differently)."""
MIN_ALTERNATIVE = 0.01
"""Alternatives less likely than this are left out of the transcript."""
UNEXPLAINED_MAX = 0.3
"""Seconds. In a quiet room, an utterance whose speech the grammar's best path leaves
this long to silence was something else: a sentence of the grammar explains the
player's speech with words (measured in voice/bench/RESULTS-LOG.md)."""
QUIET_ROOM_DB = 30.0
"""Speech this far above the noise floor: a quiet room, where the endpointer's pauses
are real pauses (in noise, noise after the speech counts as speech)."""
UNEXPLAINED_CONFIDENCE = 0.29
"""The most such an utterance may be trusted: below the play policy's ``ignore``."""
LONG_UTTERANCE = 4.0
"""Seconds. Commands take at most about 3 s (measured: the longest German command at 160
words per minute, pauses included, 2.9 s); an utterance longer than this had other
voices in it that kept the endpointer from closing it (babble at the table)."""
LONG_UTTERANCE_CONFIDENCE = 0.7
"""The most such a mixed utterance may be trusted: a move is then confirmed first, never
applied at once, and a "yes" in it is not taken (measured in babble at 10 dB: wrong
moves applied at confidences up to 1.0 from utterances of 5-10 s)."""
NEAR_TALKER_DB = 7.0
"""An utterance whose speech stands less than this many dB above the room's noise floor
is not the player at the microphone but the room: other people talking further away
(measured at babble 10 dB: the player's utterances 9.8-15 dB above the floor, at pink
10 dB 17-25 dB; utterances the babble made alone 4.3-5.6 dB)."""
FAR_TALKER_CONFIDENCE = 0.29
"""The most such an utterance may be trusted: below the play policy's ``ignore``."""
THRESHOLDS = {
    "de": Thresholds(act=0.995),
    "en": Thresholds(act=0.95, act_noisy=0.985),
}
"""The play policy's thresholds per language, measured on the benchmark's recognition
pass (quiet room and pink 10 dB; voice/bench/RESULTS-LOG.md, "Thresholds"). English moves
heard at 0.95 or more are applied at once: 40% of them instead of 26% at 0.97 with the
voices en-us and mb-us2, 27% instead of 18% with en-us+f3 and en-us at 200 words per
minute (not used to choose it), and of 724 moves one more was wrong (purple heard as
blue). At 0.9 the voices left out had 9 wrong moves in 724, so 0.95 it is. German goes
through the English acoustic model and its confident mistakes reach 0.98 (Farben's "Kino"
heard as "die obere", Pantone's 145 as 155 at 0.983, more of them below 0.95) and, in the
play pass of the full benchmark, Farben's "Julia hat braun gespielt" heard as "… rot …"
at 0.990 and applied: a German move is applied at once only from 0.995 (of 555 German
moves in that run's recognition pass, 40 were heard at 0.97 or more, 4 at 0.995).

In a noisy room (``Transcript.noisy``: the speech less than ``QUIET_ROOM_DB`` over the
floor) English moves are applied at once only from 0.985: at pink 10 dB the confident
mistakes reach 0.98 ("My guess is Gandalf" heard as "… Mando" at 0.981, "orange" as "ball
orange" at 0.956, and in a play pass "I take pink" as "… green" at 0.968, applied), none
of 181 moves of two runs at 0.985 or more (voice/bench/RESULTS-LOG.md)."""
TAKING_BACK = {
    "de": frozenset({"nee", "nein", "nicht", "lieber", "doch", "besser", "und", "oder"}),
    "en": frozenset({"no", "nope", "nah", "not", "rather", "better", "maybe", "and", "or"}),
}
"""Words that, after a pause, turn a lone value into table talk ("lila? nee", "Urlaub …
oder Schule"). A one-word sentence waits ``lone_silence`` only if the grammar goes on
with one of them: "ja" ("ja genau") and Pantone's names ("Garfield ist es nicht") end
after the usual short pause (waiting after every lone word cost 0.25 s of p95 latency
on every yes, no and name, measured); and only if it was said as a question, its pitch
rising ("lila?"): a colour said as a statement is not being asked about."""
MAX_GUESSES = 3
"""At most this many short pauses per utterance are decoded early; after that only pauses
as long as ``end_silence`` are (noise makes many short "pauses" inside words)."""
MAX_GRAMMARS = 16
WIDE_STATE = 64
"""A grammar state with at least this many words going out of it is a slot of many values
(Pantone's guess: a character's name out of hundreds). pocketsphinx builds an FSG
lattice by searching, for every word exit and every arc out of its state, a linked list
of all lattice nodes; at such a state that took 0.1-1.0 s per guess in a quiet room
(measured: 98-99.9% of the n-best time), so the n-best list of a grammar with wide states
comes from a second decode with the grammar narrowed to the likely values."""
SLOT_VALUES = 16
"""Out of a wide state, the words that lead to the same state (in the minimal automaton:
words with the same future) are the values of its slot when there are at least this
many; the other words out of it ("my" of "my guess is", "ist" of "ist es") are kept."""
NARROW_VALUES = 40
"""How many values of a wide state the narrowed grammar keeps: the Viterbi winner's and
those whose pronunciations are nearest to the phones the free phone loop heard where the
winner's value was said."""
NARROW_MARGIN = 15
"""Frames (10 ms) around the winner's value in which the phone loop's phones are compared
with the values' pronunciations."""
"""Compiled phase grammars kept for reuse (phases come back again and again)."""
DECODER_OPTIONS: dict[str, Any] = {"silprob": 1.0, "bestpath": False, "beam": 1e-54}
"""pocketsphinx settings that differ from its defaults. ``silprob`` 1: pauses cost
nothing (by default every pause is penalised, which makes a short command look worse
than the free phone loop and so like table talk); ``bestpath`` off: the best path is the
Viterbi path, scored like the phone loop's (the n-best list still comes from the lattice);
``beam`` 1e-54 instead of 1e-48: a name decoded as one long word ("mister potato head")
was pruned inside the word in favour of a shorter name and silence ("my guess is easter
bunny"; Pantone en quiet 93.3% → 96.0%, 8% more compute, measured in voice/bench/RESULTS-LOG.md).
The phone loop keeps pocketsphinx's beam (the same confidences, measured, for less)."""


@dataclass
class _Grammar:
    search: str
    phrase_of: dict[str, str]
    """Spoken token string (as the decoder outputs it) → the phrase as given."""
    lone: frozenset[str] = frozenset()
    """Tokens that are a whole sentence alone and that the grammar goes on from with a
    word taking them back (``TAKING_BACK``: "lila" and "lila nee"): said alone, they may
    be the first half of table talk."""
    narrow: _Narrowing | None = None
    """For a grammar with wide states: how to narrow it for the n-best list."""
    arcs: int = 0
    """How big it is: the arcs of its automaton (the more, the more senones pocketsphinx
    computes, and the worse the same audio's path scores against the phone loop)."""


@dataclass
class _Narrowing:
    """A grammar with slots of many values (``WIDE_STATE``), and how to cut it down to a
    few values for the n-best list's second decode."""

    start: int
    final: int
    arcs: list[tuple[int, int, float, str]]
    wide: frozenset[int]
    """States with ``WIDE_STATE`` or more words going out."""
    values: dict[str, list[str]]
    """Every token on an arc out of a wide state → its pronunciations, a character per
    phone (``SphinxRecogniser._phone_char``)."""

    def __post_init__(self) -> None:
        self._next: dict[tuple[int, str], list[int]] = {}
        for source, dest, _, token in self.arcs:
            self._next.setdefault((source, token), []).append(dest)

    def next_states(self, states: set[int], token: str) -> set[int]:
        return {dest for state in states for dest in self._next.get((state, token), ())}


@dataclass(frozen=True)
class _PhraseGraph:
    automaton: Automaton
    phrase_of: dict[str, str]
    """Spoken words (space-separated) → the phrase as given."""
    words: frozenset[str]


@lru_cache(maxsize=32)
def _phrase_graph(
    lang: str, phrases: tuple[str, ...], names: frozenset[tuple[str, ...]] = frozenset()
) -> _PhraseGraph:
    """The automaton of a phrase list (shared by all recognisers of the process), the
    words of each of ``names`` joined into one word (see :meth:`SphinxRecogniser.set_phrases`)."""
    spoken = [joined_names(spoken_words(p, lang), names) for p in phrases]
    phrase_of: dict[str, str] = {}
    for phrase, words in zip(phrases, spoken, strict=True):
        phrase_of.setdefault(" ".join(words), phrase)
    vocabulary = frozenset(w for said in spoken for w in said)
    return _PhraseGraph(Automaton(spoken), phrase_of, vocabulary)


@lru_cache(maxsize=32)
def _name_runs(lang: str, names: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The spoken words of each name of more than one word."""
    spoken = (tuple(spoken_words(name, lang)) for name in names)
    return frozenset(words for words in spoken if len(words) > 1)


JOINED_VARIANTS = 6
"""At most this many pronunciations of a name decoded as one word: the combinations of
its words' pronunciations, the likeliest first (every word's first, then one word's
second, ...)."""


def _joined_pronunciations(parts: Sequence[Sequence[str]]) -> list[str]:
    """The pronunciations of words said as one (each part's list best first)."""
    combos = sorted(itertools.product(*(range(len(p)) for p in parts)), key=lambda c: (sum(c), c))
    return [
        " ".join(part[i] for part, i in zip(parts, combo, strict=True))
        for combo in combos[:JOINED_VARIANTS]
    ]


def _tokens(hypstr: str) -> list[str]:
    """The grammar tokens of a decoder output ("lila(2)": the second pronunciation of "lila")."""
    return [t.split("(", 1)[0] for t in hypstr.split()]


def _sigmoid(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _posteriors(sentences: Mapping[str, float]) -> dict[str, float]:
    """Scores → probabilities, most likely first."""
    top = max(sentences.values())
    weights = {p: math.exp(NBEST_SCALE * (s - top)) for p, s in sentences.items()}
    total = sum(weights.values())
    ranked = sorted(weights.items(), key=lambda item: -item[1])
    return {p: w / total for p, w in ranked}


_NOT_PHONES = frozenset({"SIL", "+NSN+", "+SPN+", "<s>", "</s>", "<sil>"})


def _load_pocketsphinx() -> Any:
    try:
        import pocketsphinx
    except ImportError as exc:  # pragma: no cover - pocketsphinx is a dependency
        raise RecogniserError(key="sphinx_missing") from exc
    return pocketsphinx


def default_model_dir() -> Path:
    """The en-us model inside the pocketsphinx wheel."""
    return Path(_load_pocketsphinx().get_model_path()) / "en-us"


class SphinxRecogniser(Recogniser):
    """pocketsphinx with the phase grammar, a phone loop for rejection, and a VAD."""

    engine = "sphinx"

    def __init__(
        self,
        lang: str,
        *,
        model_dir: str | Path | None = None,
        pronunciation_cache: Path | None = None,
        phone_loop: bool = True,
        vad_mode: int = 2,
        vad: str = "webrtc",
        guess_silence: float = 0.08,
        end_silence: float = 0.2,
        max_silence: float = 0.6,
        lone_silence: float = 0.45,
        max_utterance: float = 10.0,
        decoder_options: Mapping[str, Any] | None = None,
    ) -> None:
        """``model_dir`` holds ``en-us/`` (acoustic model), ``cmudict-en-us.dict`` and
        ``en-us-phone.lm.bin``, as in the pocketsphinx wheel (the default).

        After ``guess_silence`` seconds of quiet the utterance so far is decoded; if that
        is a sentence of the grammar, ``end_silence`` seconds of quiet end it, otherwise
        (the player may be pausing mid-sentence) ``max_silence`` seconds do. A sentence
        of one word that could be taken back ("lila", and "lila? nee" is table talk; see
        ``TAKING_BACK``), that is sure enough to be acted on at once and that was said as
        a question (its pitch rising, :mod:`voice.recognition.intonation`) ends after
        ``lone_silence`` seconds: a question's pause is longer than ``end_silence``, and
        a lone value acted on at once is the move the player was just taking back. Said as
        a statement (falling), it ends after ``end_silence`` like any sentence.
        """
        if lang not in LANGUAGES:
            raise RecogniserError(key="sphinx_language", lang=lang, languages=list(LANGUAGES))
        ps = _load_pocketsphinx()
        self.lang = lang
        self.thresholds = THRESHOLDS[lang]
        model = Path(model_dir) if model_dir is not None else default_model_dir()
        hmm, dictionary, phone_lm = model / "en-us", model / "cmudict-en-us.dict", None
        if (model / "en-us-phone.lm.bin").is_file():
            phone_lm = model / "en-us-phone.lm.bin"
        if not (hmm / "mdef").is_file() or not dictionary.is_file():
            raise RecogniserError(key="sphinx_no_model", path=model)
        if pronunciation_cache is None:
            pronunciation_cache = cache_dir() / f"sphinx-pronunciations-{lang}.json"
        self._pronouncer = Pronouncer(lang, str(dictionary), pronunciation_cache)
        options: dict[str, Any] = {"loglevel": "FATAL", "logfn": os.devnull}
        options.update(DECODER_OPTIONS)
        options.update(decoder_options or {})
        try:
            self._decoder = ps.Decoder(hmm=str(hmm), dict=None, lm=None, **options)
            self._ps = ps
            self._options = {"hmm": str(hmm), "dict": None, "lm": None, **options}
            self._second: Any = None  # decodes the narrowed grammars (see WIDE_STATE)
            self._entries: list[tuple[str, str]] = []  # every word given to the decoder
            self._phones = None
            if phone_loop:
                loop_options = {
                    k: v for k, v in options.items() if k not in ("bestpath", "silprob", "beam")
                }
                self._phones = ps.Decoder(
                    hmm=str(hmm),
                    dict=None,
                    allphone=str(phone_lm) if phone_lm else None,
                    **loop_options,
                )
        except (RuntimeError, ValueError) as exc:
            raise RecogniserError(key="sphinx_cannot_load", path=model, detail=str(exc)) from exc
        self._logmath = self._decoder.get_logmath()
        webrtc_vad = ps.Vad(vad_mode, SAMPLE_RATE)
        self._frame_bytes: int = webrtc_vad.frame_bytes
        is_speech = webrtc_vad.is_speech
        if vad == "silero":  # the neural detector (voice/recognition/frontend.py)
            from voice.recognition.frontend import SileroSpeech

            is_speech = SileroSpeech()
        elif vad != "webrtc":
            raise RecogniserError(key="sphinx_unknown_vad", vad=vad)
        self._endpointer = Endpointer(is_speech, webrtc_vad.frame_length)
        self.guess_silence = guess_silence
        self.end_silence = end_silence
        self.max_silence = max_silence
        self.lone_silence = max(lone_silence, end_silence)
        self.max_utterance = max_utterance
        self._tokens: dict[str, str] = {}
        self._words_of: dict[str, str] = {}
        self._said_as: dict[tuple[str, ...], str] = {}  # a joined name's pronunciations → token
        self._grammars: OrderedDict[
            tuple[tuple[str, ...], frozenset[tuple[str, ...]]], _Grammar
        ] = OrderedDict()
        self._grammar: _Grammar | None = None
        self._searches = 0
        self._buffer = b""
        self._samples = 0  # samples consumed since the stream began
        self._utt_start = 0.0
        self._utt_audio: list[bytes] = []
        self._guess: bool | None = None  # decoded so far: a whole sentence? None: not decoded
        self._guesses = 0
        self._lone = False  # the guess is a lone value that may still be taken back
        # the pitch at the end of the last decode's audio: question or statement?
        self._melody: Intonation | None = None
        self._measured = False
        self._mean: str | None = None  # cepstral mean of the last utterance
        self._loop: tuple[float, list[str]] | None = None  # phone loop at the last decode
        self._loop_phones: list[tuple[str, int, int]] = []  # its phones and their frames
        self._decoded = b""  # the audio of the last decode
        self._decoded_mean = ""  # the cepstral mean its normalisation started from
        self._narrow_search: str | None = None
        self._phone_chars: dict[str, str] = {}
        # the n-best list of the last decode, built at the guess (see _prepare_nbest)
        self._nbest: tuple[dict[str, float], float | None] | None = None
        self.details: dict[str, Any] = {}
        """Diagnostics of the last utterance (decoder output, scores) for the benchmark."""

    # --- grammar ---------------------------------------------------------------------
    def set_phrases(self, phrases: Sequence[str], names: Sequence[str] = ()) -> None:
        """``names``: names of more than one word that the phrases hold ("mister potato
        head"). Each is decoded as one word: inside a word only the decoder's wide beam
        prunes, between words its narrow word beam does, and there the end of "mister"
        was dropped for names that begin with a shorter word ("Mr. Potato Head" heard as
        "Easter Bunny", "E.T." as "Kiki"; measured in voice/bench/RESULTS-LOG.md)."""
        key = tuple(phrases)
        if not key or any(not isinstance(p, str) or not p.strip() for p in key):
            raise ValueError("the phrase list is empty or has an empty phrase")
        joined = _name_runs(self.lang, tuple(names))
        self._guess = None  # an utterance under way is decoded with the new grammar
        grammar = self._grammars.get((key, joined))
        if grammar is None:
            grammar = self._compile(key, joined)
            self._grammars[(key, joined)] = grammar
            if len(self._grammars) > MAX_GRAMMARS:
                _, old = self._grammars.popitem(last=False)
                self._decoder.remove_search(old.search)
        self._grammars.move_to_end((key, joined))
        self._decoder.activate_search(grammar.search)
        self._grammar = grammar

    def _compile(self, phrases: tuple[str, ...], names: frozenset[tuple[str, ...]]) -> _Grammar:
        graph = _phrase_graph(self.lang, phrases, names)
        self._add_words(graph.words)
        phrase_of = {
            " ".join(self._tokens[w] for w in spoken.split()): phrase
            for spoken, phrase in graph.phrase_of.items()
        }
        automaton = graph.automaton
        taking_back = TAKING_BACK[self.lang]
        lone = frozenset(
            self._tokens[word]
            for word, state in automaton.edges[automaton.start].items()
            if automaton.final[state] and taking_back & automaton.edges[state].keys()
        )
        start, final, arcs = automaton.transitions(self._tokens)
        self._searches += 1
        search = f"phase{self._searches}"
        try:
            fsg = self._decoder.create_fsg(search, start, final, arcs)
            self._decoder.add_fsg(search, fsg)
        except (RuntimeError, ValueError) as exc:
            raise ValueError(f"pocketsphinx refused the grammar: {exc}") from exc
        wide = frozenset(
            state for state, edges in enumerate(automaton.edges) if len(edges) >= WIDE_STATE
        )
        narrow = None
        if wide:
            group = Counter((a[0], a[1]) for a in arcs if a[0] in wide)
            values = {a[3] for a in arcs if group[a[0], a[1]] >= SLOT_VALUES}
            said = {
                t: ["".join(map(self._phone_char, p.split())) for p in self._pronunciations(t)]
                for t in values
            }
            narrow = _Narrowing(start, final, arcs, wide, said)
        return _Grammar(search, phrase_of, lone, narrow, len(arcs))

    def _pronunciations(self, token: str) -> list[str]:
        """The phones of each pronunciation of a dictionary word."""
        said = []
        for i in range(1, 1 + JOINED_VARIANTS + 4):
            phones = self._decoder.lookup_word(token if i == 1 else f"{token}({i})")
            if not phones:
                break
            said.append(phones)
        return said

    def _add_words(self, words: Iterable[str]) -> None:
        new = sorted(w for w in words if w not in self._tokens)
        if not new:
            return
        parts = {p for w in new if NAME_JOINER in w for p in w.split(NAME_JOINER)}
        try:
            pronunciations = self._pronouncer.pronunciations(
                [w for w in new if NAME_JOINER not in w] + sorted(parts)
            )
        except PronunciationError as exc:
            raise RecogniserError(key=exc.key, **exc.params) from exc
        for word in new:
            if NAME_JOINER in word:
                pronunciations[word] = _joined_pronunciations(
                    [pronunciations[p] for p in word.split(NAME_JOINER)]
                )
        entries: list[tuple[str, str]] = []
        for word in new:
            token = word if word.isascii() and word.isalpha() else f"w{len(self._tokens)}x"
            if NAME_JOINER in word:  # "mr potato head" and "mister potato head": one word
                shared = self._said_as.setdefault(tuple(pronunciations[word]), token)
                if shared != token:
                    self._tokens[word] = shared
                    continue
            self._tokens[word] = token
            self._words_of[token] = word.replace(NAME_JOINER, " ")
            for i, phones in enumerate(pronunciations[word]):
                entries.append((token if i == 0 else f"{token}({i + 1})", phones))
        for i, (name, phones) in enumerate(entries):
            try:
                self._decoder.add_word(name, phones, i == len(entries) - 1)
                if self._second is not None:
                    self._second.add_word(name, phones, i == len(entries) - 1)
            except RuntimeError as exc:
                raise ValueError(f"pocketsphinx refused the word {name!r} ({phones})") from exc
        self._entries += entries

    def _second_decoder(self) -> Any:
        """The decoder of the narrowed grammars (made when the first wide grammar comes),
        with every word the first one knows."""
        if self._second is None:
            try:
                self._second = self._ps.Decoder(**self._options)
                for i, (name, phones) in enumerate(self._entries):
                    self._second.add_word(name, phones, i == len(self._entries) - 1)
            except (RuntimeError, ValueError) as exc:
                self._second = None
                raise RecogniserError(
                    key="sphinx_cannot_load", path=self._options["hmm"], detail=str(exc)
                ) from exc
        return self._second

    # --- audio -----------------------------------------------------------------------
    def accept(self, chunk: bytes) -> Transcript | None:
        if self._grammar is None:
            raise RecogniserError("set_phrases() must come before audio")
        self._buffer += chunk
        size = self._frame_bytes
        offset = 0
        result: Transcript | None = None
        while len(self._buffer) - offset >= size and result is None:
            frame = self._buffer[offset : offset + size]
            offset += size
            self._samples += size // 2
            result = self._frame(frame)
        self._buffer = self._buffer[offset:]
        return result

    def finish(self) -> Transcript | None:
        result = None
        if self._buffer:
            result = self.accept(b"")
        if result is None and self._endpointer.in_utterance:
            result = self._end_utterance()
        self._buffer = b""
        return result

    def reset(self) -> None:
        if self._endpointer.in_utterance and self._phones is not None:
            self._phones.end_utt()
        self._endpointer.reset()
        self._utt_audio = []
        self._guess = None
        self._nbest = None
        self._melody, self._measured = None, False
        self._buffer = b""

    def close(self) -> None:
        self.reset()

    def _frame(self, frame: bytes) -> Transcript | None:
        step = self._endpointer.process(frame)
        if step.step is Step.SILENCE:
            return None
        if step.step is Step.START:
            self._utt_start = self._now() - step.length
            self._utt_audio = []
            self._guess = None
            self._guesses = 0
            self._loop = None
            if self._phones is not None:
                if self._mean is not None:  # the last utterance's, not a generic one
                    self._phones.set_cmn(self._mean)
                self._phones.start_utt()
        self._utt_audio.append(step.audio)
        if self._phones is not None:  # the phone loop listens as the audio comes
            self._phones.process_raw(step.audio)
        if step.trailing == 0:  # speech goes on: an earlier guess is out of date
            self._guess = None
        if step.length >= self.max_utterance or step.trailing >= self.max_silence:
            return self._end_utterance()
        if (
            step.trailing >= self.guess_silence
            and self._guess is None
            # past the cap, only pauses as long as a sentence's end are decoded
            and (self._guesses < MAX_GUESSES or step.trailing >= self.end_silence)
        ):
            self._guesses += 1
            self._guess = self._decode()
            if self._guess:
                self._prepare_nbest(step.length)
        end = self.lone_silence if self._lone else self.end_silence
        if step.trailing >= end and self._guess:
            return self._end_utterance()
        return None

    def _prepare_nbest(self, seconds: float) -> None:
        """The guess is a whole sentence: build its n-best list now, while the
        endpointer still waits for the end of the pause, so that the decision at the end
        does not wait for pocketsphinx's lattice (for Pantone's guess grammar 0.1-1.7 s,
        measured). Skipped, as at the end, for an utterance that will be ignored anyway;
        the end decides with its own confidence and builds the list only if it is missing,
        so the decisions are the same as without it.

        A sentence sure enough to be acted on gets its melody measured here too (is it a
        question?), while the pause goes on. A lone value waits for a question's pause
        (``lone_silence``) only if it could be acted on at once and was said as a
        question ("lila?", pitch rising; also when there was too little voice to tell):
        one that will be confirmed anyway needs no wait, the "nee" that may follow
        answers the question (the wait cost 0.23 s of p95 latency on the moves of Alle
        meine Farben and Farben in a quiet room, measured), and one said as a statement
        ("lila.", pitch falling) is not being asked about."""
        hyp = self._decoder.hyp()
        if hyp is None:
            return
        details, self.details = self.details, {}  # the last utterance's stay as they were
        over_floor = self._endpointer.speech_over_floor()
        in_grammar = self._in_grammar(hyp, seconds, over_floor)
        if in_grammar >= self.thresholds.ignore:
            self._nbest = self._nbest_scores()
        # the meaning confidence is at most in_grammar (its sentences share that bound);
        # from the confirming threshold on, a move cheap to take back is made at once and
        # said back (implicit confirmation), so it waits for a question's pause as well
        sure = in_grammar >= self.thresholds.confirm
        melody = self._measure(self._utt_audio) if sure else None
        self._lone = self._lone and sure and (melody is None or melody.question)
        self.details = details

    def _measure(self, audio: list[bytes]) -> Intonation | None:
        """The melody of the end of the utterance decoded last (measured once), up to
        its last word: the pause after it is the room's."""
        if not self._measured:
            voice = b"".join(audio)
            words = [
                s for s in self._decoder.seg() or () if s.word.split("(", 1)[0] in self._words_of
            ]
            if words:  # frames of 10 ms from the start of the utterance's audio
                end = (words[-1].end_frame + 1) / 100.0 + AFTER_VOICE
                voice = voice[: int(end * SAMPLE_RATE) * 2]
            self._melody = intonation(voice)
            self._measured = True
        return self._melody

    def _decode(self) -> bool:
        """Decode the utterance so far with the grammar, normalised by the utterance's
        own cepstral mean (streaming normalisation starts from a generic mean and
        misleads the decoder badly on short commands), and note where the phone loop
        stands. True if the utterance is a sentence of the grammar."""
        audio = self._decoded = b"".join(self._utt_audio)
        self._nbest = None  # the lattice of the last decode is out of date
        self._decoded_mean = self._decoder.get_cmn(False)  # where its normalisation began
        self._decoder.start_utt()
        self._decoder.process_raw(audio, full_utt=True)
        self._decoder.end_utt()
        self._mean = self._decoder.get_cmn(False)
        self._melody, self._measured = None, False  # of other audio
        if self._phones is not None:
            self._loop = self._loop_state()
        hyp = self._decoder.hyp()
        tokens = _tokens(hyp.hypstr) if hyp is not None else []
        assert self._grammar is not None
        whole = " ".join(tokens) in self._grammar.phrase_of
        self._lone = whole and len(tokens) == 1 and tokens[0] in self._grammar.lone
        return whole

    def _loop_state(self) -> tuple[float, list[str]] | None:
        """The phone loop's acoustic score and phones of the audio so far."""
        assert self._phones is not None
        self._loop_phones = []
        hyp = self._phones.hyp()
        if hyp is None:
            return None
        score = self._log(hyp.best_score) - self._lm_part(self._phones)
        self._loop_phones = [
            (seg.word, seg.start_frame, seg.end_frame)
            for seg in self._phones.seg() or ()
            if seg.word not in _NOT_PHONES
        ]
        return score, [phone for phone, _, _ in self._loop_phones]

    def _now(self) -> float:
        return self._samples / SAMPLE_RATE

    def _end_utterance(self) -> Transcript:
        over_floor = self._endpointer.speech_over_floor()
        self._endpointer.end()
        if self._guess is None:
            self._decode()
        if self._phones is not None:
            self._phones.end_utt()
        utt_audio, self._utt_audio = self._utt_audio, []
        self._guess = None
        prepared, self._nbest = self._nbest, None
        end = self._now()
        frames = max(1, self._decoder.n_frames())
        hyp = self._decoder.hyp()
        self.details = {
            "start": self._utt_start,
            "frames": frames,
            "hyp": self._spell(hyp.hypstr) if hyp is not None else "",
            "over_floor": over_floor,
        }
        if hyp is None:
            return Transcript("", 0.0, end=end)
        in_grammar = self._in_grammar(hyp, end - self._utt_start, over_floor)
        phrase = self._phrase(hyp.hypstr)
        if in_grammar >= self.thresholds.confirm:  # could be made: a question, or not?
            self._measure(utt_audio)
        melody = self._melody if self._measured else None
        if melody is not None:
            self.details.update(rise=melody.rise, level=melody.level, question=melody.question)
        if in_grammar < self.thresholds.ignore:
            # ignored whatever the n-best list says (its sentences share this bound), so
            # its lattice is not built: for a large grammar in noise or babble that costs
            # seconds (measured: Pantone's guesses at babble 10 dB fell 12-18 s behind)
            sentences: dict[str, float] = {phrase: 0.0} if phrase is not None else {}
            partial = None
        else:
            nbest = prepared if prepared is not None else self._nbest_scores()
            sentences, partial = dict(nbest[0]), nbest[1]
        self.details["partial"] = partial
        if phrase is not None:  # the Viterbi winner heads the list, however the lattice scored it
            sentences[phrase] = max(sentences.values(), default=0.0)
        elif sentences:  # the best path stopped half-way through a sentence: next best
            phrase = max(sentences, key=lambda p: sentences[p])
        else:  # nothing, or stuck half-way through every sentence
            return Transcript("", 0.0, end=end)
        posteriors = _posteriors(sentences)
        self.details["best"] = sentences[phrase]
        self.details["posteriors"] = posteriors
        alternatives = tuple(
            Alternative(text, in_grammar * p)
            for text, p in posteriors.items()
            if text != phrase and in_grammar * p >= MIN_ALTERNATIVE
        )
        return Transcript(
            phrase,
            in_grammar * posteriors[phrase],
            words=self._words() if self._phrase(hyp.hypstr) == phrase else (),
            end=end,
            alternatives=alternatives,
            noisy=over_floor is not None and over_floor < QUIET_ROOM_DB,
            question=melody is not None and melody.question,
        )

    def _in_grammar(self, hyp: Any, seconds: float, over_floor: float | None) -> float:
        """The probability that a sentence of the grammar was said at all (see the
        module's docstring), capped for mixed-up long utterances and far talkers."""
        in_grammar = 1.0
        if self._phones is not None:
            ratio, distance, length = self._fit_to_phones(hyp)
            in_grammar = _sigmoid(
                IN_GRAMMAR_RATIO * ratio
                + IN_GRAMMAR_DISTANCE * distance
                + IN_GRAMMAR_LENGTH * length
                + IN_GRAMMAR_BIAS
            )
            self.details.update(ratio=ratio, phone_distance=distance)
            if self._grammar is not None:
                self.details["grammar_arcs"] = self._grammar.arcs
            if self._loop is not None and not self._loop[1]:
                in_grammar = 0.0  # the phone loop heard no phone at all: nothing was said
        unexplained = self._unexplained()
        self.details["unexplained"] = round(unexplained, 3)
        if unexplained > UNEXPLAINED_MAX and over_floor is not None and over_floor >= QUIET_ROOM_DB:
            in_grammar = min(in_grammar, UNEXPLAINED_CONFIDENCE)
        if seconds > LONG_UTTERANCE:
            in_grammar = min(in_grammar, LONG_UTTERANCE_CONFIDENCE)
        if over_floor is not None and over_floor < NEAR_TALKER_DB:
            in_grammar = min(in_grammar, FAR_TALKER_CONFIDENCE)
        return in_grammar

    def _unexplained(self) -> float:
        """Seconds of speech (as the endpointer heard it) that the grammar's best path
        spends in silence or filler: what it could not explain as words."""
        spans = [
            (seg.start_frame / 100.0, (seg.end_frame + 1) / 100.0)
            for seg in self._decoder.seg() or ()
            if seg.word.split("(", 1)[0] not in self._words_of
        ]
        return self._endpointer.speech_within(spans)

    def _fit_to_phones(self, hyp: Any) -> tuple[float, float, float]:
        """How well the grammar's best path explains the sounds, compared with free
        phones (the phone loop), in three numbers:

        - the acoustic log-likelihood difference per frame of speech (0: as well as free
          phones; table talk forced into a command: far below). Language-model parts are
          taken out of both path scores: the phone loop pays its phone bigram on every
          phone, which would otherwise make any long utterance look like grammar;
        - the edit distance between the phones of the path's words and the phones the
          loop heard, per phone (0: the same; near 1: unrelated);
        - the log ratio of the two phone counts.
        """
        if self._loop is None:
            return 0.0, 0.0, 0.0
        loop, heard = self._loop
        grammar = self._log(hyp.best_score) - self._lm_part(self._decoder)
        silent = 0
        path: list[str] = []
        for seg in self._decoder.seg() or ():
            if seg.word.split("(", 1)[0] not in self._words_of:
                silent += seg.end_frame - seg.start_frame + 1
            else:
                path += (self._decoder.lookup_word(seg.word) or "").split()
        speech = max(SPEECH_FRAMES_MIN, self._decoder.n_frames() - silent)
        distance = Levenshtein.distance(path, heard) / max(1, len(path), len(heard))
        self.details.update(speech_frames=speech, path_phones=len(path), loop_phones=len(heard))
        length = math.log((len(path) + 1) / (len(heard) + 1))
        return (grammar - loop) / speech, distance, length

    def _lm_part(self, decoder: Any) -> float:
        return sum(self._log(seg.lscore) for seg in decoder.seg() or () if seg.lscore > 0)

    def _nbest_scores(self) -> tuple[dict[str, float], float | None]:
        """Best score of each whole sentence in the n-best list, and the best score of
        a path stuck half-way through a sentence (``None`` if there is none). For a
        grammar with wide states, the list of a second decode with the grammar narrowed
        to the likely values (``WIDE_STATE``)."""
        assert self._grammar is not None
        sentences: dict[str, float] = {}
        partial: float | None = None
        narrow = self._grammar.narrow
        decoder = self._decoder if narrow is None else self._narrowed(narrow)
        entries: list[tuple[str, float]] = []
        try:
            for i, entry in enumerate(decoder.nbest() or ()):
                if i >= NBEST_SIZE or entry is None:
                    break
                entries.append((entry.hypstr, self._log(entry.score)))
        except RuntimeError:  # no lattice (e.g. nothing but silence)
            pass
        for hypstr, score in entries:
            phrase = self._phrase(hypstr)
            if phrase is None:
                if hypstr.strip() and (partial is None or score > partial):
                    partial = score
            elif score > sentences.get(phrase, -math.inf):
                sentences[phrase] = score
        return sentences, partial

    def _narrowed(self, narrow: _Narrowing) -> Any:
        """The second decoder, having decoded the last decode's audio with the grammar
        narrowed to the values out of wide states that the sounds make likely."""
        keep = self._likely_values(narrow)
        decoder = self._second_decoder()
        arcs = [
            a
            for a in narrow.arcs
            if a[0] not in narrow.wide or a[3] in keep or a[3] not in narrow.values
        ]
        self._searches += 1
        search, old = f"narrow{self._searches}", self._narrow_search
        try:
            decoder.add_fsg(search, decoder.create_fsg(search, narrow.start, narrow.final, arcs))
            decoder.activate_search(search)
            if old is not None:
                decoder.remove_search(old)
        except (RuntimeError, ValueError) as exc:  # pragma: no cover - the same words and arcs
            raise RecogniserError(
                key="sphinx_cannot_load", path=self._options["hmm"], detail=str(exc)
            ) from exc
        self._narrow_search = search
        decoder.set_cmn(self._decoded_mean)  # the same features as the first decode's
        decoder.start_utt()
        decoder.process_raw(self._decoded, full_utt=True)
        decoder.end_utt()
        return decoder

    def _likely_values(self, narrow: _Narrowing) -> set[str]:
        """The winner's values out of wide states, and the ``NARROW_VALUES`` values whose
        pronunciations are nearest to the phones the phone loop heard where the
        winner's values were said (all of its phones if the winner has none)."""
        keep: set[str] = set()
        spans: list[tuple[int, int]] = []
        states = {narrow.start}
        for seg in self._decoder.seg() or ():
            token = seg.word.split("(", 1)[0]
            if token not in self._words_of:
                continue
            if states & narrow.wide and token in narrow.values:
                keep.add(token)
                spans.append((seg.start_frame, seg.end_frame))
            states = narrow.next_states(states, token)
        phones = self._loop_phones
        if spans:
            low, high = min(a for a, _ in spans), max(b for _, b in spans)
            phones = [
                (p, start, end)
                for p, start, end in self._loop_phones
                if end >= low - NARROW_MARGIN and start <= high + NARROW_MARGIN
            ]
        query = "".join(self._phone_char(p) for p, _, _ in phones)
        if not query:
            return keep
        # where the winner said no value, a value may be any part of what was heard
        score = fuzz.ratio if spans else fuzz.partial_ratio
        scored: list[tuple[float, str]] = []
        for token, said in narrow.values.items():
            best = max((score(query, phones) for phones in said), default=0.0)
            scored.append((best, token))
        scored.sort(key=lambda item: -item[0])
        keep.update(token for _, token in scored[:NARROW_VALUES])
        return keep

    def _phone_char(self, phone: str) -> str:
        """One character per phone, for comparing phone strings."""
        char = self._phone_chars.get(phone)
        if char is None:
            char = self._phone_chars[phone] = chr(0x100 + len(self._phone_chars))
        return char

    def _spell(self, hypstr: str) -> str:
        """Decoder output in words (for diagnostics)."""
        return " ".join(self._words_of.get(t.split("(", 1)[0], t) for t in hypstr.split())

    def _words(self) -> tuple[Word, ...]:
        words = []
        for seg in self._decoder.seg() or ():
            token = seg.word.split("(", 1)[0]
            word = self._words_of.get(token)
            if word is None:  # silence, noise and sentence markers
                continue
            words.append(
                Word(
                    word,
                    self._utt_start + seg.start_frame / 100.0,
                    self._utt_start + (seg.end_frame + 1) / 100.0,
                    seg.prob,
                )
            )
        return tuple(words)

    def _phrase(self, hypstr: str) -> str | None:
        """The grammar phrase a decoder output spells, if it is a whole sentence."""
        assert self._grammar is not None
        return self._grammar.phrase_of.get(" ".join(_tokens(hypstr)))

    def _log(self, value: float) -> float:
        """pocketsphinx's Python scores are exp()ed; back to its log scale."""
        if value <= 0.0:
            return -1e9
        return float(self._logmath.log(value))
