"""Where the session's words and events go: text, JSON lines, speech, or nowhere.

Every output gets each spoken line (``say``) and each event record (``record``); each
kind of output keeps what concerns it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, Protocol, TextIO


class Output(Protocol):
    def say(self, text: str) -> None:
        """Speak (or print) one line; returns when it has been delivered."""
        ...

    def record(self, record: dict[str, Any]) -> None:
        """One machine-readable event."""
        ...

    def set_rate(self, wpm: int) -> None:
        """Speech rate in words per minute (outputs that do not speak ignore it)."""
        ...

    def close(self) -> None: ...


class TextOutput:
    """Spoken lines as plain text, one per line (``prefix`` before each)."""

    def __init__(self, stream: TextIO | None = None, prefix: str = "", owned: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.prefix = prefix
        self.owned = owned
        """True if this output opened the stream and closes it."""

    def say(self, text: str) -> None:
        print(self.prefix + text, file=self.stream, flush=True)

    def record(self, record: dict[str, Any]) -> None:
        pass

    def set_rate(self, wpm: int) -> None:
        pass

    def close(self) -> None:
        if self.owned:
            self.stream.close()


class JsonOutput:
    """Every event as one JSON object per line; spoken lines as ``say`` events."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def say(self, text: str) -> None:
        self.record({"type": "say", "text": text})

    def say_as(self, text: str, speaker: str) -> None:
        """A line of the assistant's seat: the speaker is part of the event."""
        self.record({"type": "say", "text": text, "speaker": speaker})

    def record(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
        print(line, file=self.stream, flush=True)

    def set_rate(self, wpm: int) -> None:
        pass

    def close(self) -> None:
        pass


class NullOutput:
    """Says nothing (``--voice none`` without ``--json``)."""

    def say(self, text: str) -> None:
        pass

    def record(self, record: dict[str, Any]) -> None:
        pass

    def set_rate(self, wpm: int) -> None:
        pass

    def close(self) -> None:
        pass


class RecordingOutput:
    """Keeps what is said and recorded in lists (the benchmark's players read it back)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.records: list[dict[str, Any]] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def record(self, record: dict[str, Any]) -> None:
        self.records.append(record)

    def set_rate(self, wpm: int) -> None:
        pass

    def close(self) -> None:
        pass


class MultiOutput:
    """Sends everything to several outputs, in order."""

    def __init__(self, outputs: Sequence[Output]) -> None:
        self.outputs = list(outputs)

    def say(self, text: str) -> None:
        for out in self.outputs:
            out.say(text)

    def say_as(self, text: str, speaker: str) -> None:
        """A line of the assistant's seat, in its own voice where an output has one."""
        for out in self.outputs:
            say_as = getattr(out, "say_as", None)
            if say_as is not None:
                say_as(text, speaker)
            else:
                out.say(text)

    def record(self, record: dict[str, Any]) -> None:
        for out in self.outputs:
            out.record(record)

    def set_rate(self, wpm: int) -> None:
        for out in self.outputs:
            out.set_rate(wpm)

    def close(self) -> None:
        for out in self.outputs:
            out.close()
