"""Stage 1 of the pipeline: what comes in — microphone and WAV audio, typed and scripted
lines, and the clock (real or virtual)."""
