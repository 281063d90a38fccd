"""Which input and output a game at the table uses: microphone or keyboard, speech or text.

``--input auto`` takes the microphone when one works and a recogniser can be opened (and
typed lines are not being piped in), otherwise the keyboard, and says which. ``--voice
auto`` speaks when sound can be played, otherwise answers in text only, and says why.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys

from voice.errors import Notice
from voice.input.audio import (
    AudioError,
    Microphone,
    microphone_problem,
    reopen_microphone,
)
from voice.input.clock import RealClock
from voice.input.lines import LineReader
from voice.input.satellite import ECHO_TAIL as SATELLITE_ECHO_TAIL
from voice.input.satellite import OPEN_SECONDS, SatelliteLink, SatelliteMicrophone
from voice.output.messages import console_text
from voice.output.playback import output_problem, play_wav
from voice.output.sinks import MultiOutput, Output
from voice.output.tts import SpeechOutput, tts_problem
from voice.recognition.engines import Recogniser, RecogniserError, open_recogniser
from voice.session.microphone import ECHO_TAIL, SpeakingGate, run_microphone
from voice.session.session import Session


def note(message: str | Notice) -> None:
    """A notice for the players on the console, in the game's language."""
    if isinstance(message, Notice):
        message = console_text(message.key, **message.params)
    print(f"farbspiel: {message}", file=sys.stderr, flush=True)


def open_speech(
    lang: str,
    mode: str,
    quiet: bool = False,
    tts: str | None = None,
    tts_voice: str | None = None,
    satellite: SatelliteLink | None = None,
) -> SpeechOutput | None:
    """Speech output for ``--voice auto|tts``; ``None`` (with a message) if it cannot work.
    ``tts``: a Wyoming text-to-speech service says the lines (``--tts tcp://…``); one
    without a voice for the game's language is refused (TtsError). ``satellite``: they
    are played on the satellite's speaker, not here."""
    here = output_problem() if satellite is None else None
    problem = here or (None if tts else tts_problem())
    if problem is not None:
        # Asked for speech, or someone at a terminal who may expect it: say why not.
        if mode == "tts" or tts or (not quiet and sys.stderr.isatty()):
            note(console_text("no_speech_output", problem=problem))
        return None
    play = satellite.play_wav if satellite is not None else play_wav
    if tts:
        from voice.output.wyoming_tts import WyomingSynthesiser

        synthesiser = WyomingSynthesiser(tts, lang, note, voice=tts_voice)
        return SpeechOutput(lang, synthesiser=synthesiser, play=play, notify=note)
    return SpeechOutput(lang, play=play, notify=note)


def _stdin_is_piped() -> bool:
    """Typed lines come from a pipe or a file (not a terminal, not /dev/null)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


class MicrophoneInput:
    """The microphone (or a satellite's), a recogniser and (at a terminal) the keyboard,
    feeding a session."""

    def __init__(
        self,
        recogniser: Recogniser,
        keyboard: LineReader | None,
        satellite: SatelliteLink | None = None,
    ) -> None:
        self.recogniser = recogniser
        self.keyboard = keyboard
        self.satellite = satellite

    def run(self, session: Session, clock: RealClock, resumed: bool, dropped_tail: bool) -> None:
        speaks = _speaks(session.out)
        tail = SATELLITE_ECHO_TAIL if self.satellite is not None else ECHO_TAIL
        gate = SpeakingGate(session.out, tail=tail if speaks else 0.0)
        session.out = gate
        link = self.satellite
        microphones = _Microphones() if link is None else _Satellite(link)
        try:
            microphone = microphones.open(Microphone() if link is None else None)
            session.reset_clock(clock.now())
            session.start(resumed, dropped_tail)
            run_microphone(
                session,
                self.recogniser,
                microphone,
                gate,
                clock,
                keyboard=self.keyboard,
                notify=note,
                heard=(lambda t: link.heard(t.text)) if link is not None else None,
                reopen=lambda: microphones.open(None),
            )
        except AudioError as exc:
            saved = session.journal.path if session.journal is not None else None
            text = console_text("audio_failed", problem=exc, saved=bool(saved), path=saved)
            raise AudioError(text) from None
        finally:
            microphones.close()
            self.recogniser.close()


class _Microphones:
    """The game's microphone; when it went away, the next one opened in its place."""

    def __init__(self) -> None:
        self.current: Microphone | None = None

    def open(self, first: Microphone | None) -> Microphone:
        """Start ``first``, or (``None``) look for the device again; AudioError if none."""
        self.close()
        if first is not None:
            first.start()
            self.current = first
        else:
            self.current = reopen_microphone()
        return self.current

    def close(self) -> None:
        current, self.current = self.current, None
        if current is not None:
            current.close()


class _Satellite:
    """The satellite's microphone; when it went away, connected again in its place. Not
    there at the start: the game starts all the same (typing), and it is tried again."""

    def __init__(self, link: SatelliteLink) -> None:
        self.link = link
        self.started = False

    def open(self, first: object) -> SatelliteMicrophone | _Gone:
        starting, self.started = not self.started, True
        try:  # (trying again mid-game never waits: the attempt runs in the background)
            return SatelliteMicrophone(self.link).start(OPEN_SECONDS if starting else 0.0)
        except AudioError as exc:
            if not starting:
                raise  # the microphone loop tries again in a second
            return _Gone(exc)

    def close(self) -> None:
        self.link.close()


class _Gone:
    """A satellite not there at the start: its first read tells why."""

    def __init__(self, problem: AudioError) -> None:
        self.problem = problem

    def read(self, timeout: float | None = None) -> None:
        raise self.problem


def _speaks(out: Output) -> bool:
    outputs = out.outputs if isinstance(out, MultiOutput) else [out]
    return any(isinstance(o, SpeechOutput) for o in outputs)


def open_microphone_input(args: argparse.Namespace, lang: str) -> MicrophoneInput | None:
    """The microphone input for ``play``/``resume``, or ``None`` for the keyboard.

    ``--input mic`` that cannot work raises :class:`AudioError` / :class:`RecogniserError`
    with the advice to use the keyboard; ``--input auto`` says why and returns ``None``.
    """
    if args.input == "keyboard" or (args.input == "auto" and _stdin_is_piped()):
        return None
    link: SatelliteLink | None = getattr(args, "satellite_link", None)
    problem = microphone_problem() if link is None else None
    if problem is not None:
        if args.input == "mic":
            raise AudioError(console_text("mic_needs_keyboard", problem=problem))
        if not args.json:
            note(console_text("no_microphone", problem=problem))
        return None
    if not args.json:
        note(console_text("loading_recogniser"))
    try:
        from voice.recognition.frontend import settings_from

        recogniser = open_recogniser(
            args.asr, lang, args.model, notify=note, front_end=settings_from(args)
        )
    except RecogniserError as exc:
        if args.input == "mic":
            raise RecogniserError(console_text("mic_needs_keyboard", problem=exc)) from None
        note(console_text("no_recognition", problem=exc))
        return None
    keyboard = LineReader(sys.stdin.fileno()) if sys.stdin.isatty() else None
    if not args.json and link is not None:
        note(console_text("listening_satellite", uri=link.uri, typing=keyboard is not None))
    elif not args.json:
        note(console_text("listening_mic", typing=keyboard is not None))
    return MicrophoneInput(recogniser, keyboard, link)
