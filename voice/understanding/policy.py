"""The play policy: what to do with one recognised utterance.

A recogniser gives its best sentence with a confidence, and the sentences that nearly won.
What the table cares about is not the sentence but what it *means*: "den Hut lila", "die
Hut lila" and "lila" are the same move, so their confidences add up. With that meaning
confidence the policy decides, per utterance:

- **act** at once (sure enough, and not said as a question: a move whose pitch rose at
  the end, "Cem played green?", is at most confirmed; ``Transcript.question``),
- **confirm** a move first ("Lila für den Hut – richtig?"; the yes/no answer is recognised
  with a grammar of yes, no and the always-available commands),
  - or, where the n-best holds the same move with another colour nearly as likely
  (:data:`RIVAL_SHARE`), a choice: "Meinst du lila oder rosa?" (``Verdict.rival``),
- **ask again** ("Wie bitte?") when something was said but nobody can tell what,
- **ignore** table talk: chatter that fits no command of the phase well enough.

Only moves are confirmed; a wrong answer to a question or a misheard "help" costs a
sentence, a wrong move costs the game. Undo and quit are confirmed by the session anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from voice.recognition.base import Thresholds, Transcript
from voice.understanding.intents import Intent, IntentParser


class Decision(Enum):
    ACT = "act"
    CONFIRM = "confirm"
    ASK_AGAIN = "ask_again"
    IGNORE = "ignore"


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    intent: Intent | None
    confidence: float
    """The meaning confidence the decision was taken on."""
    rival: Intent | None = None
    """A move to confirm: the same move with another colour, nearly as likely (from the
    n-best); the session then asks "Meinst du lila oder rosa?" instead of yes or no."""


__all__ = ["Decision", "PlayPolicy", "Thresholds", "Verdict", "meaning_of"]

RIVAL_SHARE = 0.6
"""A reading with another colour competes with the best when its meaning confidence is at
least this share of the best's."""


class PlayPolicy:
    """Decides per utterance from transcript confidence and parse."""

    def __init__(self, parser: IntentParser, thresholds: Thresholds | None = None) -> None:
        self.parser = parser
        self.thresholds = thresholds or Thresholds()

    def for_recogniser(self, recogniser: object) -> PlayPolicy:
        """The same policy with the thresholds of ``recogniser``'s confidence scale
        (engines measure confidence differently; see ``Recogniser.thresholds``)."""
        return PlayPolicy(self.parser, getattr(recogniser, "thresholds", self.thresholds))

    def decide(
        self,
        transcript: Transcript,
        intents: frozenset[str],
        slots: Mapping[str, tuple[Any, ...]],
        is_move: Callable[[Intent], bool],
        answering: bool = False,
    ) -> Verdict:
        """``intents``/``slots``: the phase; ``answering``: a yes/no answer is awaited."""
        if not transcript.text:
            return Verdict(Decision.IGNORE, None, 0.0)
        intent = self.parser.parse(transcript.text, intents, slots, heard=True)
        if intent is None:
            return Verdict(Decision.IGNORE, None, 0.0)
        confidence = self.meaning_confidence(transcript, intent, intents, slots)
        t = self.thresholds
        if confidence < t.ignore:
            return Verdict(Decision.IGNORE, intent, confidence)
        if is_move(intent) and not answering:
            # a move said as a question ("Cem played green?") is at most asked about
            act = t.act_noisy if transcript.noisy and t.act_noisy is not None else t.act
            if confidence >= act and not transcript.question:
                return Verdict(Decision.ACT, intent, confidence)
            if confidence >= t.confirm:
                rival = self.rival(transcript, intent, confidence, intents, slots)
                return Verdict(Decision.CONFIRM, intent, confidence, rival)
            return Verdict(Decision.ASK_AGAIN, intent, confidence)
        needed = t.affirm if answering and intent.name == "affirm" else t.answer
        if confidence >= needed:
            return Verdict(Decision.ACT, intent, confidence)
        return Verdict(Decision.ASK_AGAIN, intent, confidence)

    def meaning_confidence(
        self,
        transcript: Transcript,
        intent: Intent,
        intents: frozenset[str],
        slots: Mapping[str, tuple[Any, ...]],
    ) -> float:
        """The transcript's confidence plus that of every alternative meaning the same."""
        meaning = meaning_of(intent, slots)
        total = min(transcript.confidence, intent.score)
        for alternative in transcript.alternatives:
            other = self.parser.parse(alternative.text, intents, slots, heard=True)
            if other is not None and meaning_of(other, slots) == meaning:
                total += min(alternative.confidence, other.score)
        return min(1.0, total)

    def rival(
        self,
        transcript: Transcript,
        intent: Intent,
        confidence: float,
        intents: frozenset[str],
        slots: Mapping[str, tuple[Any, ...]],
    ) -> Intent | None:
        """The same move with another colour, if the n-best makes it nearly as likely."""
        colour = intent.slots.get("colour")
        if not isinstance(colour, str):
            return None

        def rest(reading: Intent) -> list[tuple[str, Any]]:
            return [kv for kv in meaning_of(reading, slots)[1] if kv[0] != "colour"]

        found: dict[str, float] = {}
        for alternative in transcript.alternatives:
            other = self.parser.parse(alternative.text, intents, slots, heard=True)
            if other is None or other.name != intent.name:
                continue
            value = other.slots.get("colour")
            if not isinstance(value, str) or value == colour:
                continue
            if rest(other) == rest(intent):
                score = min(alternative.confidence, other.score)
                found[value] = found.get(value, 0.0) + score
        if not found:
            return None
        value = max(found, key=lambda v: found[v])
        if found[value] < RIVAL_SHARE * confidence:
            return None
        return Intent(intent.name, {**intent.slots, "colour": value}, intent.text, intent.score)


def meaning_of(intent: Intent, slots: Mapping[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    """What an intent means in a phase: its name and slot values, leaving out slots the
    phase fixes to a single value ("den Hut lila" = "lila" while the hat is asked for)."""
    informative = {
        name: value
        for name, value in intent.slots.items()
        if not (name in slots and tuple(slots[name]) == (value,))
    }
    return (intent.name, tuple(sorted(informative.items(), key=lambda kv: kv[0])))
