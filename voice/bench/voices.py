"""The benchmark's voices: the ones its figures were fitted on and the held-out ones."""

from __future__ import annotations

DEFAULT_SPEED = 160
"""Words per minute of a voice given without ``@WPM``."""
FITTED_VOICES = {
    "de": ("de", "de@200", "de+f3", "mb-de6"),
    "en": ("en-us", "en-us@200", "en-us+f3", "mb-us2"),
}
"""The voices the recogniser's thresholds and pronunciations were fitted on: espeak-ng
voices (``NAME@WPM``; 160 words per minute if not given), then mbrola voices (used where
installed, see install-mbrola.sh)."""
HELD_OUT_VOICES = {
    "de": ("de+m3", "de+m1@140", "mb-de5"),
    "en": ("en-gb", "en-us+m1@140", "mb-us3"),
}
"""Voices never used for fitting (other espeak-ng variants, another speed, other mbrola
voices): every table of the report shows them beside the fitted ones, and a change that
helps the fitted voices and hurts these is not kept (issue 25, item 5)."""
DEFAULT_VOICES = {lang: FITTED_VOICES[lang] + HELD_OUT_VOICES[lang] for lang in FITTED_VOICES}
