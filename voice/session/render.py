"""What the session says: events rendered in the game's language, to the table, to one
player privately, or in the assistant seat's own voice; and what "repeat" says again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.engine import Action, Event, Game
from games.seat import Seat
from voice.output.messages import Messages
from voice.output.sinks import Output

SEAT_EVENTS = "assistant_"
"""Events whose type begins with this are the assistant's own words: said in its voice,
with its name before them."""

SEAT_OVERRIDE = "seat_"
"""A game-master message ``seat_<event>`` replaces ``<event>`` when the event concerns the
assistant's seat (nobody asks the assistant "your colour?" and waits)."""


class Spoken(str):
    """A line said by the assistant seat (kept so that "repeat" says it in its voice)."""

    speaker: str | None = None


class Speaker:
    """Says events: the table's output, the private channel and what "repeat" repeats."""

    ANSWER_KEYS: frozenset[str] = frozenset()
    """Message keys of the session's own answers: said, but not recorded as events (the
    session records what it did where it does it)."""

    def __init__(
        self,
        out: Output,
        private: Output | None,
        messages: Messages,
        seat: Seat | None,
        must_tell: Callable[[Event], bool],
    ) -> None:
        self.out = out
        self.private = private
        """Where events meant for one player only go (their secret card); never ``out``."""
        self.messages = messages
        messages.private = private is not None  # no promise of a secret told privately
        self.seat = seat
        """The seat farbspiel plays itself (``--assistant``), if any."""
        self._must_tell = must_tell
        self.response: list[str] = []
        """The lines of the response being said now."""
        self.last_response: list[str] = []
        """What "repeat" says again."""
        self.seat_acting = False
        """The assistant is taking its turn: all it says is one response."""
        self._missing_told: set[str | None] = set()
        self._missing_ever: set[str | None] = set()

    def render(self, event: Event) -> str | None:
        """The line ``event`` says (in the assistant's voice where it is its own words)."""
        key = event.type
        seat = self.seat
        if seat is not None and event.data.get("player") == seat.name:
            if key.startswith(SEAT_EVENTS):
                text = self.messages.render(key, event.data)
                if text is None:
                    return None
                data = {"player": seat.name, "text": text}
                line = Spoken(self.messages.render("assistant_voice", data) or text)
                line.speaker = seat.name
                return line
            if self.messages.has(SEAT_OVERRIDE + key):
                key = SEAT_OVERRIDE + key
        return self.messages.render(key, event.data)

    def describe(self, game: Game, action: Action) -> str:
        """``action`` in words, as ``game`` (the state before it) describes it."""
        event = game.describe(action)
        return self.render(event) or action.name

    def emit(self, events: Iterable[Event]) -> None:
        """Say and record ``events`` (secrets go to their player only)."""
        for event in events:
            if event.to is not None:
                self._tell_privately(event)
                continue
            text = self.render(event)
            if text:
                self.say_line(text)
                self.response.append(text)
            if event.type not in self.ANSWER_KEYS:  # session answers are recorded where made
                self.out.record(event.to_json())

    def _tell_privately(self, event: Event) -> None:
        """A secret for one player: only to the private output (a second screen, a file,
        later headphones), never to the table, never into what "repeat" repeats. The
        public record only notes that something was told, not what."""
        self.out.record({"type": "private", "to": event.to, "about": event.type})
        if self.private is None:
            # No private channel: never the secret itself, only how to get a channel -
            # and nothing at all when the player knows it already (a printed card).
            if event.to not in self._missing_told and self._must_tell(event):
                self._missing_told.add(event.to)  # once per answer, not once per card
                again = event.to in self._missing_ever
                key = "private_missing_again" if again else "private_missing"
                self._missing_ever.add(event.to)  # the long explanation once per player
                self.say_only([Event(key, {"player": event.to})])
            return
        text = self.render(event)
        if text:
            self.private.say(text)
        self.private.record(event.to_json())

    def respond(self, events: Iterable[Event]) -> None:
        """Say ``events``; they become what "repeat" says again (with all the assistant
        says and does in one go, while it takes its turn)."""
        if not self.seat_acting:
            self.response = []
        self._missing_told = set()
        self.emit(events)
        if self.response:
            self.last_response = self.response

    def say_only(self, events: Iterable[Event]) -> None:
        """Say ``events`` without replacing what "repeat" repeats."""
        for event in events:
            text = self.render(event)
            if text:
                self.say_line(text)

    def say_line(self, text: str) -> None:
        """Say one line; the assistant's lines in its own voice where the output has one."""
        speaker = getattr(text, "speaker", None)
        say_as = getattr(self.out, "say_as", None)
        if speaker is not None and say_as is not None:
            say_as(str(text), speaker)
        else:
            self.out.say(str(text))

    def refuse(self, key: str, params: dict[str, Any]) -> None:
        """Say why not (the game's error ``key``); "repeat" is unchanged."""
        self.out.record({"type": "refused", "reason": key, **params})
        self.say_only([Event(key, params)])
