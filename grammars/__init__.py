"""Sentence templates (hassil format), per language and game. Data only."""
