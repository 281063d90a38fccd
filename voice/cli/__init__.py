"""The command line: ``farbspiel play | resume | parse | recognize | models | cards |
bench``; opens devices and wires the stages together."""
