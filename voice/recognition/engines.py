"""Offline speech recognisers behind one interface (see :mod:`voice.recognition.base`).

:func:`open_recogniser` chooses the engine: ``vosk`` (needs a model per language, see
:mod:`voice.recognition.models`), ``sphinx`` (pocketsphinx; works without any download), or ``auto``
(vosk when its model for the language is installed, else pocketsphinx), and says once
which engine runs and how to get the better one.
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


def _stderr(message: str) -> None:
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
    notify: Callable[[str], None] | None,
    vad: str,
) -> Recogniser:
    say = notify or _stderr
    if asr not in ENGINES:
        raise RecogniserError(f"unknown speech engine {asr!r}; choose one of: {', '.join(ENGINES)}")
    if asr == "sphinx" and model_dir is not None:
        raise RecogniserError("--model is a vosk model folder; it does not go with --asr sphinx")
    vosk_problem = None
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
                raise RecogniserError(f"{exc}. {_model_option_fix(lang)}") from None
        else:
            chosen = [loc for loc in locations(lang) if loc.usable]
        if not chosen:
            vosk_problem = missing_model_message(lang)
        from voice.recognition.vosk import VoskRecogniser

        damaged: list[str] = []
        for location in chosen:
            assert location is not None
            try:
                recogniser = VoskRecogniser(location.path, notify=say)
            except RecogniserError as exc:
                damaged.append(str(exc))
                continue
            for problem in damaged:  # an earlier model in the search order did not work
                say(f"{problem}; reinstall it with: farbspiel models download {lang}")
            say(f"speech recognition: vosk, model {location.path}")
            return recogniser
        if damaged:
            if model_dir is not None:
                raise RecogniserError(f"{damaged[0]}. {_model_option_fix(lang)}")
            vosk_problem = (
                f"{'; '.join(damaged)}; reinstall it with: farbspiel models download {lang}"
            )
        if asr == "vosk":
            raise RecogniserError(vosk_problem)
    return _open_sphinx(lang, say, vosk_problem, vad)


def _model_option_fix(lang: str) -> str:
    return (
        "Give --model the folder of a complete vosk model, or leave --model out to use the "
        f"installed one (install it with: farbspiel models download {lang})"
    )


def _open_sphinx(
    lang: str, say: Callable[[str], None], vosk_problem: str | None, vad: str = "webrtc"
) -> Recogniser:
    from voice.recognition.sphinx import SphinxRecogniser

    recogniser = SphinxRecogniser(lang, vad=vad)
    if vosk_problem is not None:
        say(f"speech recognition: pocketsphinx, since {vosk_problem} (vosk recognises better)")
    else:
        say("speech recognition: pocketsphinx")
    return recogniser


__all__ = [
    "ENGINES",
    "SAMPLE_RATE",
    "Recogniser",
    "RecogniserError",
    "Transcript",
    "Word",
    "open_recogniser",
    "transcribe",
]
