"""farbspiel's voice layer: input, recognisers, intent parser, messages, output, session."""
