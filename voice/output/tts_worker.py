"""One utterance of speech synthesis, in a child process: ``python -m voice.output.tts_worker``.

Reads one JSON request line ``{"text", "lang", "rate", "path"}`` from stdin, writes the
speech to ``path`` and answers one JSON line ``{"ok": true, "voice", "seconds"}`` or
``{"ok": false, "error"}``. Started ahead of time by :class:`voice.output.tts.Synthesiser`.

It speaks through pyttsx3's espeak-ng driver, but drives the driver's binding
(``pyttsx3.drivers._espeak``) itself, in espeak-ng's *synchronous* mode. Measured with
pyttsx3 2.99: its ``Engine`` starts espeak-ng asynchronously, and a rate or voice set just
before an utterance came out wrong in about one utterance of five, even in a fresh
process; ``save_to_file`` returned before the file existed; and in synchronous mode the
``Engine`` never writes the file at all. Driving the binding synchronously, every
setting applies, in order, every time, and the file is complete when this returns.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import wave
from typing import Any

VOICE_LANGUAGES = {"de": ("de",), "en": ("en-us", "en-gb", "en")}
"""espeak-ng language codes to look for, best first."""

SEAT_VARIANTS = ("f2", "f3", "m3")
"""espeak-ng voice variants for the assistant's seat (--assistant), best first: a voice
that sounds clearly unlike the game master's."""
SEAT_PITCH = 70
"""The seat's pitch (espeak-ng's default is 50), also where no variant is installed."""


def choose_voice(espeak: Any, lang: str) -> str | None:
    """The identifier of an espeak-ng voice for ``lang`` (e.g. ``gmw/de``)."""
    voices = espeak.ListVoices(None)
    for code in VOICE_LANGUAGES.get(lang, (lang,)):
        for voice in voices:
            # languages: a priority byte, then the language name, NUL-separated
            names = (voice.languages or b"")[1:].split(b"\0")
            if code.encode() in names:
                return str(voice.identifier.decode("utf-8"))
    return None


def synthesise(
    espeak: Any, text: str, lang: str, rate: int, path: str, seat: bool = False
) -> tuple[str, float]:
    """Speak ``text`` into the WAV file ``path``; returns (voice, seconds). ``seat``: in
    the assistant's own voice (another variant and a higher pitch)."""
    sample_rate = espeak.Initialize(espeak.AUDIO_OUTPUT_SYNCHRONOUS, 1000)
    if sample_rate <= 0:
        raise RuntimeError("espeak-ng does not start")
    voice = choose_voice(espeak, lang)
    if voice is None:
        raise ValueError(f"no espeak-ng voice for {lang!r}")
    if espeak.SetVoiceByName(voice.encode("utf-8")) != espeak.EE_OK:
        raise RuntimeError(f"espeak-ng cannot use the voice {voice}")
    if seat:
        for variant in SEAT_VARIANTS:
            if espeak.SetVoiceByName(f"{voice}+{variant}".encode()) == espeak.EE_OK:
                voice = f"{voice}+{variant}"
                break
        espeak.SetParameter(espeak.PITCH, SEAT_PITCH, 0)
    espeak.SetParameter(espeak.RATE, int(rate), 0)
    pieces: list[bytes] = []

    def collect(wav: Any, count: int, events: Any) -> int:
        if count > 0:
            pieces.append(ctypes.string_at(wav, count * 2))
        return 0

    espeak.SetSynthCallback(collect)
    if espeak.Synth(text, flags=espeak.ENDPAUSE | espeak.CHARS_UTF8) != espeak.EE_OK:
        raise RuntimeError("espeak-ng could not speak the text")
    audio = b"".join(pieces)
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        out.writeframes(audio)
    return voice, len(audio) / 2 / sample_rate


def _reply(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def main() -> int:
    try:
        from pyttsx3.drivers import _espeak  # the slow part, done before the request comes
    except Exception as exc:  # noqa: BLE001 - any start-up failure goes to the parent
        _reply(ok=False, error=f"pyttsx3's espeak-ng driver does not load: {exc}")
        return 1
    line = sys.stdin.readline()
    if not line:
        return 0  # the parent went away before it needed us
    try:
        request = json.loads(line)
        voice, seconds = synthesise(
            _espeak,
            str(request["text"]),
            str(request["lang"]),
            request["rate"],
            request["path"],
            bool(request.get("seat", False)),
        )
    except Exception as exc:  # noqa: BLE001
        _reply(ok=False, error=str(exc))
        return 1
    _reply(ok=True, voice=voice, seconds=seconds)
    os._exit(0)  # skip interpreter teardown: espeak-ng may assert during it


if __name__ == "__main__":
    raise SystemExit(main())
