"""The bottom of the house: how words are compared (:mod:`words.text`) and how numbers are
said (:mod:`words.numbers`). Imports nothing of ``games`` or ``voice``; every layer may use it."""
