"""The speech benchmark (``farbspiel bench``): synthetic speech, noise, the real recogniser,
parser and play policy, and a report of what they made of it. See README.md here."""
