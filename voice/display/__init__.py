"""The large-print table view in a browser, and the players' private pages.

``farbspiel display SAVE`` (or ``farbspiel play ... --display``) serves, from the save
file alone, a read-only live view of the game (:mod:`voice.display.views`), and a
private page per player (:mod:`voice.display.private`) from the same small server
(:mod:`voice.display.server`).
"""
