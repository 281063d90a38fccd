"""Offline speech recognisers behind one interface (see :mod:`voice.recognition.base`).

:func:`open_recogniser` chooses the engine: ``vosk`` (needs a model per language, see
:mod:`voice.recognition.models`), ``sphinx`` (pocketsphinx; works without any download), or ``auto``
(vosk when its model for the language is installed, else pocketsphinx), and says once
which engine runs and how to get the better one. ``tcp://HOST:PORT`` or ``unix://PATH``
is a Wyoming speech-to-text service (:mod:`voice.recognition.wyoming`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from voice.errors import Notice
from voice.input.audio import SAMPLE_RATE
from voice.recognition.base import (
    Recogniser,
    RecogniserError,
    Transcript,
    Word,
    transcribe,
)

if TYPE_CHECKING:
    from voice.recognition.frontend import FrontEndSettings

ENGINES = ("auto", "vosk", "sphinx")
ASR_METAVAR = "{auto,vosk,sphinx,tcp://HOST:PORT,unix://PATH}"


def asr_option(value: str) -> str:
    """``--asr``: an engine of :data:`ENGINES` or a Wyoming address (argparse type)."""
    import argparse

    from voice.recognition.wyoming import check_uri, is_wyoming_uri

    if is_wyoming_uri(value):
        try:
            return check_uri(value)
        except RecogniserError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if value not in ENGINES:
        raise argparse.ArgumentTypeError(
            str(RecogniserError(key="engine_unknown", engine=value, engines=[*ENGINES, "tcp://…"]))
        )
    return value


def _stderr(message: str | Notice) -> None:
    print(f"farbspiel: {message}", file=sys.stderr)


def open_recogniser(
    asr: str,
    lang: str,
    model_dir: Path | None = None,
    notify: Callable[[str | Notice], None] | None = None,
    front_end: FrontEndSettings | None = None,
) -> Recogniser:
    """A ready recogniser for ``lang``; :class:`RecogniserError` (with the fix) if none works.

    ``notify`` receives the one-line notices for the players (default: stderr).
    ``front_end``: how the audio is cleaned before the recogniser (voice/recognition/frontend.py;
    default: the measured defaults).
    """
    from voice.recognition.frontend import DEFAULT, with_front_end

    settings = front_end or DEFAULT
    return with_front_end(_open(asr, lang, model_dir, notify, settings.vad), settings, lang)


def _open(
    asr: str,
    lang: str,
    model_dir: Path | None,
    notify: Callable[[str | Notice], None] | None,
    vad: str,
) -> Recogniser:
    say = notify or _stderr
    from voice.recognition.wyoming import WyomingRecogniser, is_wyoming_uri

    if is_wyoming_uri(asr):
        if model_dir is not None:
            raise RecogniserError(key="engine_model_with_wyoming")
        return WyomingRecogniser(asr, lang, say, vad=vad)
    if asr not in ENGINES:
        raise RecogniserError(key="engine_unknown", engine=asr, engines=[*ENGINES, "tcp://…"])
    if asr == "sphinx" and model_dir is not None:
        raise RecogniserError(key="engine_model_with_sphinx")
    vosk_problem: Notice | None = None
    if asr in ("auto", "vosk"):
        from voice.recognition.models import (
            ModelError,
            find_model,
            locations,
            missing_model_message,
        )

        if model_dir is not None:
            try:
                chosen = [find_model(lang, model_dir)]
            except ModelError as exc:
                raise RecogniserError(key="model_option_fix", problem=exc, lang=lang) from None
        else:
            chosen = [loc for loc in locations(lang) if loc.usable]
        if not chosen:
            vosk_problem = missing_model_message(lang)  # a Notice
        from voice.recognition.vosk import VoskRecogniser

        damaged: list[RecogniserError] = []
        for location in chosen:
            assert location is not None
            try:
                recogniser = VoskRecogniser(location.path, notify=say)
            except RecogniserError as exc:
                damaged.append(exc)
                continue
            for problem in damaged:  # an earlier model in the search order did not work
                say(Notice("model_reinstall", {"problems": [problem], "lang": lang}))
            say(Notice("asr_vosk", {"path": location.path}))
            return recogniser
        if damaged:
            if model_dir is not None:
                raise RecogniserError(key="model_option_fix", problem=damaged[0], lang=lang)
            vosk_problem = Notice("model_reinstall", {"problems": damaged, "lang": lang})
        if asr == "vosk":
            assert vosk_problem is not None
            raise RecogniserError(key=vosk_problem.key, **vosk_problem.params)
    return _open_sphinx(lang, say, vosk_problem, vad)


def _open_sphinx(
    lang: str,
    say: Callable[[str | Notice], None],
    vosk_problem: Notice | None,
    vad: str = "webrtc",
) -> Recogniser:
    from voice.recognition.sphinx import SphinxRecogniser

    recogniser = SphinxRecogniser(lang, vad=vad)
    if vosk_problem is not None:
        say(Notice("asr_sphinx_instead", {"problem": vosk_problem}))
    else:
        say(Notice("asr_sphinx"))
    return recogniser


__all__ = [
    "ASR_METAVAR",
    "ENGINES",
    "asr_option",
    "SAMPLE_RATE",
    "Recogniser",
    "RecogniserError",
    "Transcript",
    "Word",
    "open_recogniser",
    "transcribe",
]
