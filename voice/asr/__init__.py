"""Offline speech recognisers behind one interface (see :mod:`voice.asr.base`)."""

from voice.asr.base import SAMPLE_RATE, Recogniser, RecogniserError, Transcript, Word, transcribe

__all__ = ["SAMPLE_RATE", "Recogniser", "RecogniserError", "Transcript", "Word", "transcribe"]
