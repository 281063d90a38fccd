"""Who plays, from a set-up answer: names after "wir sind" / "we are" and the like, or a
list of names joined by "und" / "and" / commas, or (when the question was who plays) names
said alone; teams ("Anna and Cem against Ben and Dana"). The words are data
(``grammars/<lang>/setup.yaml``, :mod:`voice.setup.grammar`)."""

from __future__ import annotations

import re
from functools import cache

from rapidfuzz import fuzz, process

from voice.setup.grammar import SetupGrammar, setup_grammar

MAX_NAMES = 8
FUZZY, FUZZY_MIN = 85, 5  # as voice.setup.understanding
LANGUAGES = ("de", "en")
TOKEN = re.compile(r"[^\W\d_][\w'’-]*|,")


SPELLED = re.compile(r"(?<![\w'])(?:[^\W\d_][ .-]+){2,}[^\W\d_](?![\w'])")
"""A name spelled letter by letter ("A N N A", "b-e-n")."""
DOUBLED = re.compile(
    r"([^\W\d_]+) (?:mit|with) (?:zwei|two|double|doppel|doppeltem?) ([^\W\d_])\b", re.I
)
"""A spelling note after a name ("Anna mit zwei N", "Ana with two n's": Anna)."""


def _spelled(raw: str) -> str:
    """Spelled names and spelling notes made into the names they spell."""

    def letters(match: re.Match[str]) -> str:
        word = re.sub(r"[ .-]", "", match.group(0))
        return word[:1].upper() + word[1:].lower()

    def doubled(match: re.Match[str]) -> str:
        name, letter = match.group(1), match.group(2).lower()
        if name.lower().count(letter) == 1:
            at = name.lower().index(letter)
            name = name[: at + 1] + letter + name[at + 1 :]
        return name

    raw = re.sub(r"\b(\w)'s\b", r"\1", raw)  # "two n's"
    return DOUBLED.sub(doubled, SPELLED.sub(letters, raw))


def _tokens(raw: str) -> list[str]:
    return [t.replace("’", "'") for t in TOKEN.findall(_spelled(raw))]


def everyone(g: SetupGrammar, kind: str) -> set[str]:
    """One kind of player word (join, skip, self) of this and every other language."""
    words = {str(w) for w in g.players[kind]}
    for lang in LANGUAGES:
        words |= {str(w) for w in setup_grammar(lang).players[kind]}
    return words


@cache
def _vocabulary(lang: str) -> tuple[str, ...]:
    g = setup_grammar(lang)
    return tuple(w for w in g.not_names - g.fillers if len(w) >= FUZZY_MIN)


def vocabulary(g: SetupGrammar) -> tuple[str, ...]:
    """The set-up's own longer words: a word close to one of them is no name."""
    return _vocabulary(g.lang)


class _Reader:
    def __init__(self, tokens: list[str], g: SetupGrammar) -> None:
        self.tokens = tokens
        self.low = [t.lower() for t in tokens]
        self.g = g
        words = [t for t in tokens[1:] if t != ","]
        # typed with capitals ("wir sind Anna und Ben"): names are the capitalised words
        # or in sentence case ("Leon, setz dich hin!"): only the first word may be a name
        # without a capital
        self.typed_case = (
            any(t[:1].isupper() for t in words) or tokens[:1] != [] and tokens[0][:1].isupper()
        ) and any(t[:1].islower() for t in words)
        # the joining words of every language: a family that chose another language for
        # the game may still say "Anna, Ben und Cem" in its own
        self.join = {","} | everyone(g, "join")
        self.skip = everyone(g, "skip")
        self.titles = everyone(g, "titles")
        self.self_words = everyone(g, "self")
        self.vocabulary = vocabulary(g)

    def is_name(self, i: int) -> bool:
        token, low = self.tokens[i], self.low[i]
        if low in self.g.not_names or low in self.self_words or low in self.skip or len(low) < 2:
            return False
        if low in self.titles:  # "Oma, Lisa und Paul": a name; "Oma Ruth": Ruth's title
            return i + 1 >= len(self.tokens) or not self.is_name(i + 1)
        if not token.replace("-", "").replace("'", "").isalpha():
            return False
        if len(low) >= FUZZY_MIN and process.extractOne(
            low, self.vocabulary, scorer=fuzz.ratio, score_cutoff=FUZZY
        ):
            return False  # a set-up word misspelt ("colurs"), not a name
        return not self.typed_case or token[:1].isupper() or i == 0

    def run(self, start: int, self_ok: bool) -> tuple[list[str], int, bool]:
        """Names from ``start`` on, with joining words: (names, end, joined)."""
        names: list[str] = []
        joined = linked = False
        i = start
        while i < len(self.tokens):
            low = self.low[i]
            if self.is_name(i):
                joined = joined or (bool(names) and linked)
                names.append(self.tokens[i][:1].upper() + self.tokens[i][1:])
                linked = False
            elif low in self.join:
                linked = bool(names)
            elif low in self.skip or low in self.titles:
                pass
            elif low in self.self_words:
                if not self_ok:
                    return [], i, False
            else:
                break
            i += 1
        return names, i, joined

    def intro(self) -> tuple[int, bool]:
        """Where the names begin after an introducing phrase ("wir sind"), or -1; and
        whether the phrase is a weak one ("it's", "es sind": often not about players)."""
        best: tuple[int, int] | None = None
        weak = {str(p) for p in self.g.players.get("weak_intro") or ()}
        chosen = ""
        for phrase in [*self.g.players["intro"], *sorted(weak)]:
            words = str(phrase).split()
            for i in range(len(self.low) - len(words) + 1):
                if self.low[i : i + len(words)] == words:
                    key = (i, -len(words))
                    if best is None or key < best:
                        best, chosen = key, str(phrase)
                    break
        return (-1, False) if best is None else (best[0] - best[1], chosen in weak)


def find_players(raw: str, g: SetupGrammar, asked: bool = False) -> tuple[str, ...]:
    """The players named in ``raw``; ``asked``: the question was who plays, so a name said
    alone counts. Nothing when someone is not named ("Anna und ich", "me, Sam and Jo")."""
    reader = _Reader(_tokens(raw), g)
    start, weak = reader.intro()
    if start >= 0:
        names, _, _ = reader.run(start, self_ok=True)
        # "it's loud in here": a weak introduction needs two names ("it's Anna and Ben")
        if names and not (weak and len(names) < 2 and not asked):
            return tuple(names) if len(names) <= MAX_NAMES else ()
    if any(w in reader.self_words for w in reader.low):
        return ()  # someone without a name ("Anna und ich", "me, Sam and Jo"): asked again
    best: list[str] = []
    i = 0
    while i < len(reader.tokens):
        if not reader.is_name(i):
            i += 1
            continue
        names, end, joined = reader.run(i, self_ok=False)
        if (joined or asked) and len(names) > len(best):
            best = names
        i = max(end, i + 1)
    if asked and not best:
        return ()
    return tuple(best) if len(best) <= MAX_NAMES else ()


def find_teams(raw: str, g: SetupGrammar) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Two teams said as "Anna and Cem against Ben and Dana": (first, second), else None."""
    low = [t.lower() for t in _tokens(raw)]
    against = {str(w) for w in g.teams["against"]}
    cut = next((i for i, w in enumerate(low) if w in against), -1)
    if cut < 0:
        return None
    words = _tokens(raw)
    left = find_players(" ".join(words[:cut]), g)
    right = find_players(" ".join(words[cut + 1 :]), g, asked=True)
    if not left:  # "Anna gegen Ben": one on each side
        left = find_players(" ".join(words[:cut]).split()[-1] if cut else "", g, asked=True)
    if left and right:
        return left, right
    return None
