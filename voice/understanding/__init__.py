"""Stage 3: text to meaning. Sentence templates (grammar), the intent parser, the name
matcher for decks, and the play policy (act, confirm or ignore)."""
