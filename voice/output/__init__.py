"""Stage 5: what farbspiel says — messages in the game's language from the prompt files,
the output sinks (text, JSON, recordings) and text to speech."""
