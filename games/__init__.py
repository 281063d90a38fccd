"""Pure rules engines for farbspiel's games (no audio, no printing, no clock)."""
