"""Stage 4: the session joins the stages — one game's adapter, the journal (save file),
confirmations, timers, settings, and the loops that feed it (script, keyboard,
microphone)."""
