"""Stage 2: speech to text. The recognisers (vosk, pocketsphinx) behind one interface,
their endpointing, phrase graphs and pronunciations, and where their models live."""
