"""Running the benchmark: recognition as heard at the table, and the play policy as played.

Each *table* is one engine, language, voice and noise condition: a continuous audio stream
that the real recogniser listens to, chunk by chunk, with the grammar of the moment of play
(``session.phrases()``), exactly as in a game. Two passes per table:

- **recognition**: every corpus utterance once (commands, yes/no answers, table talk);
  what the recogniser understood, what the play policy would do with it, and how long
  after the end of speech it decided.
- **play**: the reference game played by voice through a real :class:`Session` with the
  play policy: the simulated player repeats a move when asked, answers confirmations
  truthfully (by voice), says "nein" / "no" right after a wrong move said back (implicit
  confirmation), and takes back what is still wrong (by keyboard, not counted as speech:
  a *wrong move left standing*).

Latency is measured as a real-time system would see it: audio chunks arrive at the pace
of the stream, and a chunk is processed when it has arrived and the recogniser is done
with the previous ones. The latency of a decision is the time it is available minus the
time the speech ended, plus parsing and deciding. Compute is measured as CPU time of this
process, so a machine shared with other work does not inflate it (on one free core the
wall time is the same).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from games.engine import Action
from voice.bench import audio
from voice.bench.audio import SAMPLE_RATE, SPEECH_LEVEL, Voice
from voice.bench.corpus import Item, Moment, ReferenceGame, corpus_data, move_text
from voice.output.sinks import RecordingOutput
from voice.recognition.base import Recogniser, Transcript
from voice.session.choice import ChoiceQuestion
from voice.understanding.policy import Decision, PlayPolicy, meaning_of

CHUNK_SECONDS = 0.05
"""Audio is fed in chunks of this length (a typical microphone block)."""
LEAD = 0.6
"""Seconds of (noisy) quiet before each utterance."""
TAIL = 1.0
"""Seconds of quiet after each utterance."""
WAIT_MAX = 12.0
"""How long to keep listening to noise for a decision that has not come yet."""
REMOTE_WAIT = 60.0
"""Longest wait for a Wyoming service's transcript of one utterance (wall-clock seconds)."""
MAX_ATTEMPTS = 4
"""The simulated player gives up on a move after this many tries (and types it)."""


@dataclass(frozen=True)
class Condition:
    """Noise at the table."""

    noise: str
    """``pink``, ``white`` or ``babble``."""
    snr: float
    """Speech level over noise level, in dB."""
    label: str

    @staticmethod
    def parse(spec: str) -> Condition:
        """``clean`` (pink noise 35 dB below speech) or ``KIND:SNR`` (``babble:10``)."""
        spec = spec.strip().lower()
        if spec == "clean":
            return Condition("pink", 35.0, "clean")
        kind, _, snr = spec.partition(":")
        if kind not in ("pink", "white", "babble"):
            raise ValueError(f"unknown noise {kind!r} (pink, white or babble)")
        try:
            value = float(snr)
        except ValueError:
            raise ValueError(f"{spec!r}: give the SNR in dB, e.g. {kind}:10") from None
        if not -10 <= value <= 60:
            raise ValueError(f"{spec!r}: SNR must be between -10 and 60 dB")
        return Condition(kind, value, f"{kind} {value:g} dB")


@dataclass
class Heard:
    """One utterance of the recognition pass."""

    engine: str
    lang: str
    voice: str
    condition: str
    kind: str
    text: str
    expected: Any
    heard: str
    meaning: Any
    confidence: float
    decision: str
    latency: float | None
    correct: bool
    details: dict[str, Any] = field(default_factory=dict)
    game: str = "alle-meine-farben"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["expected"] = repr(self.expected)
        data["meaning"] = repr(self.meaning)
        return data


@dataclass
class Played:
    """One move of the play pass."""

    engine: str
    lang: str
    voice: str
    condition: str
    move: str
    utterances: int = 0
    confirmations: int = 0
    wrong_applied: int = 0
    wrong_standing: int = 0
    """Wrong moves still standing after the player's own "nein" to a move said back."""
    held_wrong: int = 0
    """Wrong moves said back and held (:meth:`Dialogue.hold`), that the player said "nein"
    to before they counted."""
    done: bool = False
    latencies: list[float] = field(default_factory=list)
    game: str = "alle-meine-farben"
    wrong: list[dict[str, Any]] = field(default_factory=list)
    """Each wrong move applied: what was said, what the recogniser heard (with its
    confidence, and whether it answered a question), and the move applied."""
    heard: list[dict[str, Any]] = field(default_factory=list)
    """What the last utterance was heard as (one entry per decision)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["heard"]  # the working note of the last utterance; wrong keeps what matters
        return data


@dataclass
class TableStats:
    audio_seconds: float = 0.0
    compute_seconds: float = 0.0
    noise_utterances: int = 0
    noise_accepted: int = 0


@dataclass
class Decided:
    """A transcript and when it came."""

    transcript: Transcript
    at: float
    """Stream seconds at which the recogniser returned it."""
    latency: float
    """Seconds from the end of the speech it answers (so far: ``at`` − end + compute)."""
    details: dict[str, Any]


class Table:
    """One noisy stream that a recogniser listens to, utterance after utterance."""

    def __init__(
        self,
        recogniser: Recogniser,
        condition: Condition,
        seed: int,
        babble: Callable[[int, int], np.ndarray],
        keyword: str = "",
        remote: bool = False,
    ) -> None:
        self.recogniser = recogniser
        self.remote = remote
        self.timer = time.perf_counter if remote else time.process_time
        """How a recogniser's time is counted: this process's CPU time, or for one on
        another process (a Wyoming service) the time waited, network hop included."""
        self.keyword = keyword
        """Push-to-talk: what the players say before every sentence meant for the game."""
        self.condition = condition
        self.seed = seed
        self._babble = babble
        self.clock = 0.0  # stream seconds fed so far
        self.busy_until = 0.0  # stream time at which the recogniser is done computing
        self.stats = TableStats()
        self._count = 0

    def addressed(self, text: str) -> str:
        """``text`` as a player says it to the game (after the keyword, if there is one)."""
        return f"{self.keyword}, {text}" if self.keyword else text

    def _noise(self, length: int) -> np.ndarray:
        self._count += 1
        seed = audio.seed_of(self.seed, self._count)
        kind = self.condition.noise
        if kind == "white":
            noise = audio.white_noise(length, seed)
        elif kind == "babble":
            noise = self._babble(length, seed)
        else:
            noise = audio.pink_noise(length, seed)
        return noise * (SPEECH_LEVEL / 10 ** (self.condition.snr / 20))

    def say(self, clip: np.ndarray) -> tuple[list[Decided], float, float]:
        """Play ``clip`` into the stream. Returns the transcripts decided meanwhile, and
        the speech start and end in stream time. Transcripts decided before the speech
        began are noise (or the end of an earlier utterance)."""
        lead, tail = int(LEAD * SAMPLE_RATE), int(TAIL * SAMPLE_RATE)
        signal = np.concatenate([np.zeros(lead, np.float32), clip, np.zeros(tail, np.float32)])
        signal = signal + self._noise(len(signal))
        speech_start = self.clock + LEAD
        speech_end = speech_start + len(clip) / SAMPLE_RATE
        results = list(self._feed(signal, speech_end))
        if not any(self._after(d, speech_start) for d in results):
            # still listening (noise kept the utterance open): wait for the decision
            waited = 0.0
            while waited < WAIT_MAX:
                block = self._noise(int(SAMPLE_RATE))
                found = list(self._feed(block, speech_end))
                results += found
                waited += 1.0
                if any(self._after(d, speech_start) for d in found):
                    break
        return results, speech_start, speech_end

    @staticmethod
    def _after(decided: Decided, speech_start: float) -> bool:
        return decided.at > speech_start + 0.1

    def _feed(self, signal: np.ndarray, speech_end: float) -> Iterator[Decided]:
        pcm = audio.to_pcm(signal)
        step = int(CHUNK_SECONDS * SAMPLE_RATE) * 2
        for offset in range(0, len(pcm), step):
            chunk = pcm[offset : offset + step]
            started = self.timer()
            transcript = self.recogniser.accept(chunk)
            if self.remote:  # its answer comes when it comes: that is its latency
                getattr(self.recogniser, "wait_for_answers")(REMOTE_WAIT)  # noqa: B009
            spent = self.timer() - started
            self.stats.compute_seconds += spent
            self.clock += len(chunk) / 2 / SAMPLE_RATE
            if self.remote:
                # a service's time per utterance (no queue behind it: in a game the
                # players wait for it before they speak again)
                wait = self.clock + spent
                self.busy_until = wait if spent > 0.01 else max(self.clock, self.busy_until)
            else:
                self.busy_until = max(self.clock, self.busy_until) + spent
            if transcript is not None:
                details = dict(getattr(self.recogniser, "details", {}) or {})
                latency = self.busy_until - speech_end
                yield Decided(transcript, self.clock, latency, details)
        self.stats.audio_seconds += len(signal) / SAMPLE_RATE


# --- the recognition pass ---------------------------------------------------------------
def recognition_pass(
    table: Table,
    items: Sequence[Item],
    moments: dict[str, Moment],
    policy: PlayPolicy,
    is_move: Callable[..., bool],
    voice: Voice,
    labels: dict[str, str],
    cache_dir: Any,
    canonical: Callable[[Any, Moment], Any] = lambda meaning, moment: meaning,
) -> list[Heard]:
    """``canonical``: a meaning as the game takes it at a moment (two names of one card
    are one meaning); the meanings of the parser as they are by default."""
    out: list[Heard] = []
    for item in items:
        moment = moments[item.moment]
        table.recogniser.set_phrases(moment.phrases, moment.names)
        said = item.text if item.kind == "table_talk" else table.addressed(item.text)
        clip = audio.synthesise(said, voice, cache_dir)
        results, speech_start, _ = table.say(clip)
        answer = _answer(table, results, speech_start, policy, moment, is_move)
        heard, meaning, confidence, decision, latency = "", None, 0.0, "none", None
        intent_name = None
        details: dict[str, Any] = {}
        if answer is not None:
            started = time.process_time()
            verdict = _decide(policy, answer.transcript, moment, is_move)
            latency = answer.latency + time.process_time() - started
            heard, confidence = answer.transcript.text, verdict.confidence
            decision = verdict.decision.value
            details = _plain_details(answer.details)
            if verdict.intent is not None:
                meaning = meaning_of(verdict.intent, moment.phase.slots)
                intent_name = verdict.intent.name
        if item.expected is not None:
            correct = canonical(meaning, moment) == canonical(item.expected, moment)
        else:  # a wrong guess the grammar cannot say: right if no guess is taken from it
            correct = item.kind == "wrong_guess" and not (
                intent_name == "guess" and decision in ("act", "confirm")
            )
        out.append(
            Heard(
                labels["engine"],
                labels["lang"],
                voice.label,
                table.condition.label,
                item.kind,
                item.text,
                item.expected,
                heard,
                meaning,
                round(confidence, 4),
                decision,
                round(latency, 4) if latency is not None else None,
                correct,
                details,
                labels.get("game", "alle-meine-farben"),
            )
        )
    return out


def _answer(
    table: Table,
    results: Sequence[Decided],
    speech_start: float,
    policy: PlayPolicy,
    moment: Moment,
    is_move: Callable[..., bool],
) -> Decided | None:
    """The first utterance after the speech began is the answer; the others are
    utterances of their own (noise, or a sentence cut in two), counted as noise."""
    answer: Decided | None = None
    for decided in results:
        if answer is None and Table._after(decided, speech_start):
            answer = decided
            continue
        if decided.transcript.text:
            table.stats.noise_utterances += 1
            verdict = _decide(policy, decided.transcript, moment, is_move)
            if verdict.decision in (Decision.ACT, Decision.CONFIRM):
                table.stats.noise_accepted += 1
    return answer


def _plain_details(details: dict[str, Any]) -> dict[str, Any]:
    """Recogniser diagnostics, rounded, for results.json."""
    out: dict[str, Any] = {}
    for key, value in details.items():
        if isinstance(value, float):
            out[key] = round(value, 3)
        elif isinstance(value, dict):
            out[key] = {k: round(v, 5) for k, v in list(value.items())[:8]}
        else:
            out[key] = value
    return out


def _listens_with(session: Any, recogniser: Recogniser) -> Any:
    """``session`` with the play policy of ``recogniser``'s confidence scale, as at a real
    table (voice/session/microphone.py does the same)."""
    session.policy = session.policy.for_recogniser(recogniser)
    return session


def _decide(policy: PlayPolicy, transcript: Transcript, moment: Moment, is_move: Any) -> Any:
    """The policy's verdict as the session carries it out: table talk heard as table talk
    (the grammar's quiet intents, "das hut soll nicht rot werden") is let be, whatever
    its confidence, so it is ignored, not "acted on"."""
    answering = moment.key.startswith("confirm")
    phase = moment.phase
    verdict = policy.decide(transcript, phase.intents, phase.slots, is_move, answering=answering)
    if verdict.intent is not None and verdict.intent.name in policy.parser.grammar.quiet_intents:
        return replace(verdict, decision=Decision.IGNORE)
    return verdict


# --- the play pass --------------------------------------------------------------------------
def play_pass(
    table: Table,
    game: ReferenceGame,
    voice: Voice,
    labels: dict[str, str],
    cache_dir: Any,
    moves_limit: int | None = None,
) -> list[Played]:
    data = corpus_data(game.lang)
    recorder = RecordingOutput()
    session = _session(game, recorder, table, [])
    planned = _planned_moves(game, data)[:moves_limit]
    out: list[Played] = []
    answers = {"yes": list(data["yes"]), "no": list(data["no"])}
    spoken = 0
    for key, intended, texts in planned:
        result = Played(labels["engine"], labels["lang"], voice.label, table.condition.label, key)
        result.game = labels.get("game", result.game)
        shown = session.game.snapshot().get("number")
        while not result.done and result.utterances < MAX_ATTEMPTS * 2:
            if session.paused:  # a misheard "pause": the table types "continue"
                session.hear({"de": "weiter", "en": "continue"}[game.lang])
            awaiting = session.awaiting
            if awaiting is None and result.utterances >= MAX_ATTEMPTS:
                break
            if awaiting is not None:  # answer the question truthfully, by voice
                asked = _asked(session)
                right = any(_same_move(a.to_json(), intended, shown) for a in asked)
                text = _true_answer(session, right, texts[0], answers, spoken)
            else:
                text = texts[result.utterances % len(texts)]
            spoken += 1
            before = len(session.actions)
            _say_once(session, table, text, voice, cache_dir, recorder, result)
            held = _held(session)
            if held is not None:
                right = _same_move(held.to_json(), intended, shown)
                spoken += _wait_or_deny(session, table, right, answers, spoken, voice,
                                        cache_dir, recorder, result)  # fmt: skip
            if len(session.actions) > before:
                applied = session.actions[-1]
                if _same_move(applied.to_json(), intended, shown):
                    result.done = True
                else:
                    result.wrong_applied += 1
                    _note_wrong(result, text, awaiting, applied)
                    deny = answers["no"][spoken % len(answers["no"])]
                    spoken += 1
                    if _denied(session, table, deny, voice, cache_dir, recorder, result, before):
                        continue
                    result.wrong_standing += 1
                    # the table notices and takes it back (typed, not counted as speech)
                    session = _session(game, recorder, table, session.actions[:-1])
        if not result.done:  # the player gives up on speech and types the move
            _type_move(session, game.lang, texts[0], intended, shown, key)
        out.append(result)
        if session.finished:
            break
    return out


def _session(game: ReferenceGame, recorder: RecordingOutput, table: Table,
             actions: list[Action]) -> Any:  # fmt: skip
    """A session of the reference game after ``actions`` (resumed if there are any),
    listening with the table's recogniser."""
    from voice.bench.corpus import GAME
    from voice.session.adapters import adapter_for
    from voice.session.session import Session

    session = Session(adapter_for(GAME), game.lang, game.setup(), recorder, actions=actions)
    session.start(resumed=bool(actions))
    return _listens_with(session, table.recogniser)


def _planned_moves(game: ReferenceGame, data: Mapping[str, Any]) -> list[Planned]:
    """The reference game's moves and the ways the player says each, in turn."""
    planned: list[Planned] = [
        (
            "first",
            Action("first", {"player": game.youngest}),
            [t.format(name=game.youngest) for t in data["first"]],
        )
    ]
    moves = data["move"]
    for number, colour in enumerate(game.colours, start=1):
        texts = [
            move_text(moves[(number + k) % len(moves)], number, colour, game.lang)
            for k in range(len(moves))
        ]
        planned.append((f"turn{number}", Action("place", {"colour": colour}), texts))
    return planned


def _type_move(session: Any, lang: str, text: str, intended: Action, shown: Any,
               key: str) -> None:  # fmt: skip
    """The player gives up on speech and types the move (saying no to a question first)."""
    if session.awaiting is not None:
        session.hear({"de": "nein", "en": "no"}[lang])
    session.hear(text)
    if not session.actions or not _same_move(
        session.actions[-1].to_json(), intended, shown
    ):  # pragma: no cover - typed moves of the reference game always fit
        raise RuntimeError(f"the reference game went off course at {key}")


Planned = tuple[str, Action, list[str]]


def _same_move(action: dict[str, Any] | None, intended: Action, number: int | None) -> bool:
    if not action or action.get("name") != intended.name:
        return False
    args = dict(action.get("args", {}))
    if args.get("object") == number:
        args.pop("object")
    return args == intended.args


def play_reference(
    table: Table,
    ref: Any,
    voice: Voice,
    labels: dict[str, str],
    cache_dir: Any,
    moves_limit: int | None = None,
) -> list[Played]:
    """The play pass of a Farben or Pantone reference game (:mod:`voice.bench.reference`):
    the planned moves, played by voice from where the reference game stands."""
    lang = ref.lang
    data = corpus_data(lang)
    answers = {"yes": list(data["yes"]), "no": list(data["no"])}
    recorder = RecordingOutput()
    planned = ref.plan()
    if moves_limit is not None:
        planned = planned[:moves_limit]
    out: list[Played] = []
    session = None
    spoken = 0
    for step in planned:
        if session is None or len(session.actions) != step.before:
            session = _listens_with(ref.session_at(step.before, recorder), table.recogniser)
        result = Played(labels["engine"], lang, voice.label, table.condition.label, step.key)
        result.game = ref.game
        # the same move however it is said: a card by any of its names, a side by its word
        intended = ref.move_key(step.intended.to_json(), step.before)
        while not result.done and result.utterances < MAX_ATTEMPTS * 2:
            if session.paused:
                session.hear({"de": "weiter", "en": "continue"}[lang])
            awaiting = session.awaiting
            if awaiting is None and result.utterances >= MAX_ATTEMPTS:
                break
            if awaiting is not None:
                asked = _asked(session)
                right = any(ref.move_key(a.to_json(), step.before) == intended for a in asked)
                text = _true_answer(session, right, step.texts[0], answers, spoken)
            else:
                text = step.texts[result.utterances % len(step.texts)]
            spoken += 1
            before = len(session.actions)
            _say_once(session, table, text, voice, cache_dir, recorder, result)
            held = _held(session)
            if held is not None:
                right = ref.move_key(held.to_json(), step.before) == intended
                spoken += _wait_or_deny(session, table, right, answers, spoken, voice,
                                        cache_dir, recorder, result)  # fmt: skip
            if len(session.actions) > before:
                if ref.move_key(session.actions[-1].to_json(), step.before) == intended:
                    result.done = True
                else:
                    result.wrong_applied += 1
                    _note_wrong(result, text, awaiting, session.actions[-1])
                    deny = answers["no"][spoken % len(answers["no"])]
                    spoken += 1
                    if _denied(session, table, deny, voice, cache_dir, recorder, result, before):
                        continue
                    result.wrong_standing += 1  # taken back by the table (typed)
                    session = _listens_with(ref.session_at(before, recorder), table.recogniser)
        if not result.done:
            # the player gives up on speech; the move is made by hand (typed)
            session = None
        out.append(result)
    return out


def _denied(session: Any, table: Table, deny: str, voice: Voice, cache_dir: Any,
            recorder: RecordingOutput, result: Played, before: int) -> bool:  # fmt: skip
    """A wrong move was just made: if it was said back (implicit confirmation), the player
    says "nein" by voice; True if that took it back (the game is as ``before`` again)."""
    last_said_back = next(
        (r for r in reversed(recorder.records) if r.get("type") in ("said_back", "heard")), None
    )
    if last_said_back is None or last_said_back.get("type") != "said_back":
        return False
    _say_once(session, table, deny, voice, cache_dir, recorder, result)
    return len(session.actions) == before


def _held(session: Any) -> Action | None:
    """The move said back and held a moment before it counts, if any."""
    held = session.dialogue.held
    return None if held is None else held.action


def _wait_or_deny(session: Any, table: Table, right: bool, answers: Mapping[str, list[str]],
                  spoken: int, voice: Voice, cache_dir: Any, recorder: RecordingOutput,
                  result: Played) -> int:  # fmt: skip
    """A move was said back and held: the player lets the moment pass if it is the move
    meant, else says "nein" in it. Returns the utterances said (0 or 1)."""
    if right:
        _let_pass(session)
        return 0
    result.held_wrong += 1
    deny = answers["no"][spoken % len(answers["no"])]
    _say_once(session, table, deny, voice, cache_dir, recorder, result)
    _let_pass(session)  # if the "nein" was not heard, the moment passes
    return 1


def _let_pass(session: Any) -> None:
    """Silence until the held move, if any, counts."""
    held = session.dialogue.held
    if held is not None:
        session.tick(held.due + 0.05)


CONFIRMS = ("move", "choice")
"""The questions about a move that count as a confirmation ("… richtig?", "lila oder rosa?")."""


def _asked(session: Any) -> tuple[Action, ...]:
    """The moves the question waiting asks about: one ("… richtig?"), two ("lila oder
    rosa?"), or none (undo, quit)."""
    question = session.question
    if isinstance(question, ChoiceQuestion):
        return question.action, question.other
    if question is not None and question.kind == "move" and question.action is not None:
        return (question.action,)
    return ()


def _true_answer(
    session: Any, right: bool, again: str, answers: Mapping[str, list[str]], spoken: int
) -> str:
    """The player's true answer: yes or no to "… richtig?"; to "lila oder rosa?" the move
    ``again`` if it is one of the two (``right``), else no."""
    if right and isinstance(session.question, ChoiceQuestion):
        return again
    pool = answers["yes" if right else "no"]
    return pool[spoken % len(pool)]


def _note_wrong(result: Played, said: str, awaiting: Any, applied: Action) -> None:
    result.wrong.append(
        {
            "said": said,
            "answering": awaiting[0] if awaiting is not None else None,
            "asked": awaiting[1].to_json() if awaiting and awaiting[1] is not None else None,
            "heard": list(result.heard),
            "applied": applied.to_json(),
        }
    )


def _say_once(
    session: Any,
    table: Table,
    text: str,
    voice: Voice,
    cache_dir: Any,
    recorder: RecordingOutput,
    result: Played,
) -> None:
    """One utterance at the table: synthesised, heard through the recogniser with the
    phrases of the moment, handed to the session; its latency and any confirmation are
    counted into ``result``."""
    table.recogniser.set_phrases(session.phrases(), session.phrase_names())
    clip = audio.synthesise(table.addressed(text), voice, cache_dir)
    results, speech_start, _ = table.say(clip)
    result.utterances += 1
    answered = False
    result.heard = []
    for decided in results:
        result.heard.append(
            {
                "text": decided.transcript.text,
                "confidence": round(decided.transcript.confidence, 3),
                "at": round(decided.at, 2),
            }
        )
        mark = len(recorder.records)
        started = time.process_time()
        session.hear_speech(decided.transcript)  # noise utterances too: they count
        latency = decided.latency + time.process_time() - started
        # the latency is the player's utterance's (as in the recognition pass);
        # utterances the noise makes after it are not answers to anything
        if not answered and Table._after(decided, speech_start):
            result.latencies.append(round(latency, 4))
            answered = True
        new = recorder.records[mark:]
        if any(r.get("type") == "confirm" and r.get("what") in CONFIRMS for r in new):
            result.confirmations += 1
        table.recogniser.set_phrases(session.phrases(), session.phrase_names())
