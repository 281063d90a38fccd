"""What a set-up answer says: the game, the players, options, or a dialogue word.

The words are data (per language) matched on normalised text; nothing here starts a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from voice.output.messages import Messages
from words.text import normalize


def _words(lang: str) -> Mapping[str, Any]:
    """The games' names and the options in plain words (prompts/<lang>/setup.yaml)."""
    words: Mapping[str, Any] = Messages(lang, "setup", {}).templates.get("_understand", {})
    return words


def _games(lang: str) -> dict[str, tuple[str, ...]]:
    return {game: tuple(says) for game, says in _words(lang).get("games", {}).items()}


def _options(lang: str) -> dict[tuple[str, ...], tuple[str, str, str]]:
    return {
        tuple(o["says"]): (o["game"], o["flag"], str(o["value"]))
        for o in _words(lang).get("options", [])
    }


TIME_LIMIT = {"de": ("zeitlimit", "zeit limit"), "en": ("time limit",)}
UNITS = {
    "de": {"minute": 60, "minuten": 60, "sekunden": 1, "sekunde": 1},
    "en": {"minute": 60, "minutes": 60, "seconds": 1, "second": 1},
}
NUMBERS: dict[str, dict[str, float]] = {
    "de": {
        "eine": 1,
        "ein": 1,
        "einer": 1,
        "zwei": 2,
        "drei": 3,
        "vier": 4,
        "fünf": 5,
        "anderthalb": 1.5,
        "dreißig": 30,
        "sechzig": 60,
        "neunzig": 90,
    },
    "en": {
        "one": 1,
        "a": 1,
        "two": 2,
        "three": 3,
        "four": 4,
        "five": 5,
        "thirty": 30,
        "sixty": 60,
        "ninety": 90,
    },
}
PLAYERS = {
    "de": ("wir sind", "ich bin", "es spielen", "die spieler sind", "spieler"),
    "en": ("we are", "we're", "i am", "i'm", "the players are", "players"),
}
FILLER = {
    "de": {"und", "mit", "ich", "auch", "alle", "spielen", "spiele", "wir"},
    "en": {"and", "with", "i", "also", "all", "play", "playing", "we", "me"},
}
JOINING = frozenset().union(*FILLER.values())
"""The joining words of every language: a family that chose another language for the game
may still say "Anna, Ben und Cem" in its own."""

WORDS = {  # the dialogue's other words (a plain yes or no: :func:`yes_or_no`)
    "de": {
        "back": ("zurück", "rückgängig", "geh zurück"),
        "help": ("hilfe", "was kann ich sagen"),
        "again": ("wie letztes mal", "wie beim letzten mal", "das gleiche wie letztes mal"),
    },
    "en": {
        "back": ("go back", "back", "undo"),
        "help": ("help", "what can i say"),
        "again": ("the same as last time", "same as last time", "like last time"),
    },
}
YES_NO = {
    "de": {
        "yes": ({"ja", "jawohl", "genau", "jo", "jap", "jep", "jup", "passt", "klar", "stimmt",
                 "richtig", "okay", "ok", "sicher", "los", "starten", "anfangen"},
                {"das", "na", "bitte", "gehts", "geht", "es"}),
        "no": ({"nein", "nee", "nö", "ne", "nä", "falsch", "nicht"},
               {"das", "ist", "danke", "stimmt", "so"}),
    },
    "en": {
        "yes": ({"yes", "yep", "yeah", "yup", "sure", "right", "correct", "okay", "ok",
                 "course", "exactly", "absolutely", "go", "start"},
                {"that's", "thats", "of", "please", "let's", "lets", "is"}),
        "no": ({"no", "nope", "nah", "wrong", "not"},
               {"that's", "thats", "thanks", "is", "right", "it's", "its"}),
    },
}  # fmt: skip
"""An ordinary yes or no: its words all come from these, one of them from the first set."""


def yes_or_no(raw: str, lang: str) -> str | None:
    """ "yes", "no" or None: every ordinary yes and no of ``lang`` ("jo", "ja, das stimmt",
    "nö", "yep", "that's not right"), nothing else ("ja, Pantone" is not a plain yes)."""
    words = normalize(raw).split()
    for verdict in ("no", "yes"):  # "stimmt nicht": a no, though "stimmt" is a yes word
        core, extra = YES_NO[lang][verdict]
        if words and set(words) <= core | extra and core & set(words):
            return verdict
    return None


LANGUAGE = {
    "de": {"englisch": "en", "auf englisch": "en", "deutsch": "de"},
    "en": {"german": "de", "in german": "de", "english": "en"},
}


@dataclass
class Answer:
    """What one set-up answer said; empty if it said nothing we understood."""

    word: str | None = None  # yes, no, back, help, again
    game: str | None = None
    players: tuple[str, ...] = ()
    options: dict[str, tuple[str, str]] = field(default_factory=dict)  # flag -> (game, value)
    lang: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.word or self.game or self.players or self.options or self.lang)


def _has(text: str, phrase: str) -> int:
    """Where ``phrase`` stands as whole words in ``text`` (-1 if not)."""
    found = re.search(rf"(?:^| ){re.escape(phrase)}(?: |$)", text)
    return found.start() if found else -1


NOISE = {
    "äh", "ähm", "äm", "öh", "hm", "hmm", "mhm", "uh", "uhm", "um", "er", "erm", "ah", "oh",
    "also", "so", "okay", "ok", "na", "well", "ja", "yes", "nein", "no",
}  # fmt: skip
SELF = {"de": {"ich", "mich", "mir"}, "en": {"me", "myself", "i"}}
MAX_NAMES = 8


def understand(raw: str, lang: str, players_asked: bool = False) -> Answer:
    """The set-up answer in ``raw`` (typed or recognised), in ``lang``; ``players_asked``:
    the question was who plays, so bare names ("Anna und Ben") are the players."""
    text = normalize(raw)
    answer = Answer()
    plain = yes_or_no(raw, lang)
    if plain is not None:
        answer.word = plain
        return answer
    for word, phrases in WORDS[lang].items():
        if text in phrases or (word == "again" and any(_has(text, p) >= 0 for p in phrases)):
            answer.word = word
            return answer
    answer.game = _find_game(text, lang)
    answer.options = _find_options(text, lang)
    answer.players = _find_players(raw, lang)
    if players_asked and not (answer.players or answer.game or answer.options):
        answer.players = _bare_names(raw, lang)
    answer.lang = next((v for k, v in LANGUAGE[lang].items() if _says_language(text, k)), None)
    return answer


def _says_language(text: str, word: str) -> bool:
    return text == word or _has(text, "auf " + word) >= 0 or _has(text, "in " + word) >= 0


def _find_game(text: str, lang: str) -> str | None:
    pairs = [(p, g) for g, phrases in _games(lang).items() for p in phrases]
    for phrase, game in sorted(pairs, key=lambda pg: -len(pg[0])):
        if _has(text, phrase) >= 0:
            return game
    return None


def _find_options(text: str, lang: str) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for phrases, (game, flag, value) in _options(lang).items():
        if flag not in found and any(_has(text, p) >= 0 for p in phrases):
            found[flag] = (game, value)
    seconds = _time_limit(text, lang)
    games = [game for _, (game, flag, _) in _options(lang).items() if flag == "--time-limit"]
    if seconds is not None and "--time-limit" not in found and games:
        found["--time-limit"] = (games[0], str(seconds))  # the game with a time limit
    return found


def _time_limit(text: str, lang: str) -> int | None:
    if not any(_has(text, p) >= 0 for p in TIME_LIMIT[lang]):
        return None
    words = text.split()
    for i, word in enumerate(words[1:], 1):
        unit = UNITS[lang].get(word)
        if unit is None:
            continue
        before = words[i - 1]
        number = float(before) if before.isdigit() else NUMBERS[lang].get(before)
        if number is not None:
            return int(number * unit)
    return None


def _find_players(raw: str, lang: str) -> tuple[str, ...]:
    text = normalize(raw, keep_case=True)
    low = text.lower()
    starts = [(i, p) for p in PLAYERS[lang] if (i := _has(low, p)) >= 0]
    if not starts:
        return ()
    start, phrase = min(starts, key=lambda ip: (ip[0], -len(ip[1])))
    rest = text[start:].split()[len(phrase.split()) :]
    stops = {w for phrases in _games(lang).values() for p in phrases for w in p.split()}
    stops |= {w for phrases in _options(lang) for p in phrases for w in p.split()}
    stops |= {"auf", "in", "englisch", "deutsch", "english", "german"}
    stops |= {"zeitlimit", "time", "limit", "version", "variante", "spielen", "spiel", "game"}
    names: list[str] = []
    for word in rest:
        if word.lower() in stops and word.lower() not in JOINING:
            break
        if word.lower() not in JOINING:
            names.append(word[:1].upper() + word[1:])
    return tuple(names)


def _bare_names(raw: str, lang: str) -> tuple[str, ...]:
    """Names said alone ("Anna, Ben und Cem") when the question was who plays. Nothing if
    the answer holds other words (noise, a game, "me" without a name: asked again)."""
    words = normalize(raw, keep_case=True).replace(",", " ").split()
    names: list[str] = []
    for word in words:
        low = word.lower()
        unnamed = low in NOISE or any(low in own for own in SELF.values())
        if unnamed or not word.isalpha() or len(word) < 2:
            return ()
        if low not in JOINING:
            names.append(word[:1].upper() + word[1:])
    return tuple(names) if len(names) <= MAX_NAMES else ()
