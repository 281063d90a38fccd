"""What a set-up answer says: the game, the players, options, or a dialogue word.

The words are data (``grammars/<lang>/setup.yaml``); phrases are found as whole words, and
with rapidfuzz also when misspelt ("pantoen", "profivariannte"). Nothing here starts a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from voice.setup.grammar import SetupGrammar, setup_grammar
from voice.setup.names import find_players, find_teams
from words.text import normalize

FUZZY = 85
"""How close (rapidfuzz ratio, 0-100) a misspelt phrase must be to count."""
FUZZY_MIN = 5
MAX_WORDS = 80
MAX_DIGITS = 6
MIN_LIMIT_SECONDS = 10
"""A shorter "time limit" is a figure of speech ("hang on a sec"), not a game's option."""
"""Longer numbers are no time limit anyone said (the command line then names the range)."""
"""Shorter phrases count only when said exactly ("pro" is not "per")."""


def yes_or_no(raw: str, lang: str) -> str | None:
    """ "yes", "no" or None: every ordinary yes and no of ``lang`` ("jo", "ja, das stimmt",
    "nö", "yep", "that's not right"), nothing else ("ja, Pantone" is not a plain yes)."""
    g = setup_grammar(lang)
    words = set(normalize(raw).split())
    for verdict, (core, extra) in (("no", g.no), ("yes", g.yes)):  # "stimmt nicht": a no
        if words and words <= core | extra and core & words:
            return verdict
    return None


@dataclass
class Answer:
    """What one set-up answer said; empty if it said nothing we understood."""

    word: str | None = None  # yes, no, back, help, stop, again, new_round, other_game, spell
    game: str | None = None
    players: tuple[str, ...] = ()
    options: dict[str, tuple[str, str]] = field(default_factory=dict)  # flag -> (game, value)
    lang: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.word or self.game or self.players or self.options or self.lang)


def _has(text: str, phrase: str) -> bool:
    """``phrase`` stands as whole words in ``text``."""
    return re.search(rf"(?:^| ){re.escape(phrase)}(?: |$)", text) is not None


def _near(text: str, phrase: str) -> bool:
    """``phrase`` in ``text``, exactly or misspelt: word by word, each long word close
    enough (rapidfuzz), each short one exact ("pantoen", but "pro" is never "per")."""
    if _has(text, phrase):
        return True
    words, wanted = text.split(), phrase.split()
    if not any(len(w) >= FUZZY_MIN for w in wanted):
        return False

    def close(said: str, want: str) -> bool:
        return said == want or (len(want) >= FUZZY_MIN and fuzz.ratio(said, want) >= FUZZY)

    for i in range(len(words) - len(wanted) + 1):
        if all(close(s, w) for s, w in zip(words[i : i + len(wanted)], wanted, strict=True)):
            return True
    return False


def _core(text: str, g: SetupGrammar) -> str:
    """The answer without fillers at its ends ("okay, zurück bitte" -> "zurück")."""
    words = text.split()
    while words and words[0] in g.fillers:
        words.pop(0)
    while words and words[-1] in g.fillers:
        words.pop()
    return " ".join(words)


def understand(raw: str, lang: str, players_asked: bool = False) -> Answer:
    """The set-up answer in ``raw`` (typed or recognised), in ``lang``; ``players_asked``:
    the question was who plays, so bare names ("Anna und Ben") are the players."""
    g = setup_grammar(lang)
    raw = " ".join(raw.split()[:MAX_WORDS])  # nobody answers in a page (and it stays quick)
    text = normalize(raw)
    answer = Answer()
    answer.word = yes_or_no(raw, lang)
    if answer.word is not None:
        return answer
    core = _core(text, g)
    for word in ("back", "help", "stop"):
        if any(
            p in (core, text) or (len(p) >= 6 and fuzz.ratio(core, p) >= 90) for p in g.words[word]
        ):
            answer.word = word
            return answer
    if any(_has(core, p) for p in g.words["spell"]):  # "ich buchstabiere", "new name"
        answer.word = "spell"
        return answer
    answer.game = _find_game(text, g)
    if answer.game is None:
        for word in ("again", "other_game", "new_round"):
            if any(_has(text, p) for p in g.words[word]):
                answer.word = word
                return answer
    answer.options = _find_options(text, g, answer.game)
    teams = find_teams(raw, g)
    if teams is not None:
        answer.options["--teams"] = (g.teams["game"], ",".join(teams[0]) + "/" + ",".join(teams[1]))
        answer.players = teams[0] + teams[1]
    elif any(_has(text, p) for p in g.teams["says"]):
        answer.options["--teams"] = (g.teams["game"], "true")
    if not answer.players:
        answer.players = find_players(raw, g, players_asked)
    answer.lang = next(
        (code for code, phrases in g.language.items() if any(_has(text, p) for p in phrases)), None
    )
    if answer.empty:  # "Hilfe, was soll ich sagen?", "geh bitte zurück"
        for word in ("help", "back"):
            if any(len(p) >= 4 and _has(text, p) for p in g.words[word]):
                answer.word = word
                return answer
    if answer.game is None and answer.options:  # "die Profivariante": its game
        games = {game for game, _ in answer.options.values()}
        answer.game = games.pop() if len(games) == 1 else None
    if answer.game is not None:  # an option of another game is a word misheard
        answer.options = {k: v for k, v in answer.options.items() if v[0] == answer.game}
    return answer


def _find_game(text: str, g: SetupGrammar) -> str | None:
    pairs = sorted(
        ((p, game) for game, phrases in g.names.items() for p in phrases),
        key=lambda pg: -len(pg[0]),
    )
    for phrase, game in pairs:
        if _has(text, phrase):
            return game
    for phrase, game in pairs:
        if _near(text, phrase):
            return game
    words = text.split()
    scores = {
        game: sum(
            1
            for c in cues
            if _has(text, c) or (len(c) >= 5 and any(w.startswith(c) for w in words))
        )
        for game, cues in g.cues.items()
    }
    best = max(scores.values(), default=0)
    winners = [game for game, score in scores.items() if score == best]
    return winners[0] if best and len(winners) == 1 else None


def _find_options(text: str, g: SetupGrammar, game: str | None) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    options = sorted(g.options, key=lambda o: -max(len(p) for p in o.says))
    for option in options:  # of the game said first, then any ("Profi" alone: its game)
        if option.flag in found or (game is not None and option.game != game):
            continue
        if any(_near(text, p) for p in option.says):
            found[option.flag] = (option.game, option.value)
    seconds = _time_limit(text, g)
    limit_game = str(g.time_limit["game"])
    if seconds is not None and "--time-limit" not in found and game in (None, limit_game):
        found["--time-limit"] = (limit_game, str(seconds))
    return found


def _number(word: str, numbers: dict[str, float]) -> float | None:
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return float(word)
    return numbers.get(word)


def _time_limit(text: str, g: SetupGrammar) -> int | None:
    """Seconds of a time limit said ("mit Zeitlimit, eine Minute", "90 seconds each")."""
    data = g.time_limit
    units: dict[str, float] = data["units"]
    numbers: dict[str, float] = data["numbers"]
    words = text.split()
    for i, word in enumerate(words):
        unit = units.get(word)
        if unit is None:
            continue
        count = _number(words[i - 1], numbers) if i else None
        part = _number(words[i - 2], numbers) if i >= 2 else None
        if count is not None and part is not None and part < 1:  # "half a minute"
            count *= part
        if count and count * unit >= MIN_LIMIT_SECONDS:
            return int(count * unit)
    strong = [p for p in data["says"] if p not in units]
    if any(_has(text, normalize(str(p))) for p in strong):
        for word in words:
            if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
                return int(word)
        return int(data["default"])
    return None
