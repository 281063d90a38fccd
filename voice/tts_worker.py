"""One utterance of speech synthesis, in a child process: ``python -m voice.tts_worker``.

Reads one JSON request line ``{"text", "lang", "rate", "path"}`` from stdin, writes the
speech to ``path`` with a fresh pyttsx3 engine and answers one JSON line
``{"ok": true, "voice", "seconds"}`` or ``{"ok": false, "error"}``. Started ahead of time
by :class:`voice.tts.Synthesiser`; kept free of heavy imports so it is ready quickly.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import threading
import wave
from typing import Any

VOICE_LANGUAGES = {"de": ("de",), "en": ("en-us", "en-gb", "en")}
"""espeak-ng language codes to look for, best first."""

FINISH_TIMEOUT = 15.0


def choose_voice(engine: Any, lang: str) -> str | None:
    """The id of an espeak-ng voice for ``lang`` (e.g. ``gmw/de``)."""
    voices = engine.getProperty("voices")
    for code in VOICE_LANGUAGES.get(lang, (lang,)):
        for voice in voices:
            if code in [str(x).lower() for x in (voice.languages or [])]:
                return str(voice.id)
    return None


def _reply(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def main() -> int:
    try:
        import pyttsx3  # the slow part of starting, done before the request comes
    except Exception as exc:  # noqa: BLE001 - any start-up failure goes to the parent
        _reply(ok=False, error=f"pyttsx3 does not start: {exc}")
        return 1
    line = sys.stdin.readline()
    if not line:
        return 0  # the parent went away before it needed us
    try:
        # espeak-ng is started only now: settings made on an engine that sat idle were
        # seen to be lost (the utterance came out at the default rate and voice).
        engine = pyttsx3.init("espeak")
        done = threading.Event()
        engine.connect("finished-utterance", lambda name, completed: done.set())
        request = json.loads(line)
        voice = choose_voice(engine, request["lang"])
        if voice is None:
            raise ValueError(f"no espeak-ng voice for {request['lang']!r}")
        # A fresh engine: voice and rate set before the first utterance do apply.
        engine.setProperty("voice", voice)
        engine.setProperty("rate", int(request["rate"]))
        path = str(request["path"])
        with contextlib.redirect_stdout(io.StringIO()):  # the driver prints "Audio saved"
            engine.save_to_file(str(request["text"]), path)
            engine.runAndWait()
            # runAndWait returns before the espeak thread has written the file
            if not done.wait(FINISH_TIMEOUT):
                raise TimeoutError("espeak-ng did not finish")
        with wave.open(path, "rb") as wav:
            seconds = wav.getnframes() / wav.getframerate()
    except Exception as exc:  # noqa: BLE001
        _reply(ok=False, error=str(exc))
        return 1
    _reply(ok=True, voice=voice, seconds=seconds)
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: espeak's library may assert during it


if __name__ == "__main__":
    raise SystemExit(main())
