"""Names matched by how they sound: what an open-vocabulary recogniser writes for a name it
does not know is often other words that sound alike ("big lit" for Piglet, "check your cat"
for Cheshire Cat, "wrap unzled" for Rapunzel), which no comparison of letters finds.

Both sides are said by espeak-ng (:class:`voice.recognition.pronounce.Pronouncer`: its
pronunciation of every word in the game's language, mapped onto one set of 39 phones for
German and English alike, cached on disk) and compared as phone strings, word breaks
ignored. Two phones that differ cost 1 when they belong to different sound classes and
1/2 when they share one (the vowels; p b f v; t d th dh; s z sh zh ch jh; k g h; n ng;
r l er: the consonant classes of Dolgopolsky's sound-class model, which groups sounds
that turn into each other): the mean of the Levenshtein distances of the phones and of
their classes (rapidfuzz). The similarity is 1 minus that distance per phone of the
longer string.

A name is found only where it is clearly the one meant: its similarity is at least
:data:`FIND` and the next other character is at least :data:`MARGIN` behind; otherwise
none is. The thresholds were fitted on the transcripts of a real Wyoming speech-to-text
server of Pantone's names said by the benchmark's fitted voices, and checked on held-out
voices and on wrong guesses (``python -m voice.bench.names_by_sound``,
voice/bench/RESULTS-LOG.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

from rapidfuzz.distance import Levenshtein

from games.name_match import spoken_words
from voice.recognition.pronounce import Pronouncer, PronunciationError, cache_dir

FIND = 0.6
"""Similarity from which the best name is found (it is then confirmed, never applied)."""

MARGIN = 0.1
"""How far the next other character must stay behind the best for it to be found."""

MIN_PHONES = 3
"""Shorter sayings (one syllable) sound like too many names to decide anything."""

SOUND_CLASSES = {
    "V": "AA AE AH AO AW AY EH EY IH IY OW OY UH UW",
    "P": "P B F V",
    "T": "T D TH DH",
    "S": "S Z SH ZH CH JH",
    "K": "K G HH",
    "M": "M",
    "N": "N NG",
    "R": "R L ER",
    "W": "W",
    "J": "Y",
}
"""Sound class → its phones (ARPAbet, as :mod:`voice.recognition.pronounce` writes them)."""

_CLASS = {phone: cls for cls, phones in SOUND_CLASSES.items() for phone in phones.split()}
_LETTER = {phone: chr(0x41 + i) for i, phone in enumerate(sorted(_CLASS))}


@dataclass(frozen=True)
class Sound:
    """A saying as phones and as their sound classes (one character each)."""

    phones: str
    classes: str


@dataclass(frozen=True)
class SoundMatch:
    """The name a saying sounds like most."""

    group: int
    """Index of the character (the group of forms) in the index."""
    form: str
    """The name or alias it sounds like, as written."""
    similarity: float
    """0..1: 1 minus the distance per phone."""
    margin: float
    """How far ahead of the next other character."""

    @property
    def found(self) -> bool:
        """Clearly this name."""
        return self.similarity >= FIND and self.margin >= MARGIN


PHONE_WEIGHT = 0.5
"""What two different phones of one sound class cost (different classes cost 1)."""


def similarity(a: Sound, b: Sound) -> float:
    """1 minus the distance per phone of the longer (see the module text)."""
    longest = max(len(a.phones), len(b.phones))
    if not longest:
        return 0.0
    phones = Levenshtein.distance(a.phones, b.phones)
    classes = Levenshtein.distance(a.classes, b.classes)
    return 1.0 - (PHONE_WEIGHT * phones + (1 - PHONE_WEIGHT) * classes) / longest


class SoundIndex:
    """The names of one game (groups of forms: a character's name and aliases) by sound.

    The names are said by espeak-ng the first time a saying is matched (one process for
    all of them; later games read the cache)."""

    def __init__(self, lang: str, groups: Sequence[Sequence[str]]) -> None:
        self.lang = lang
        self.groups = [tuple(forms) for forms in groups]
        self._sounds: list[tuple[int, str, Sound]] | None = None

    def best(self, said: str, leave_out: Collection[int] = ()) -> SoundMatch | None:
        """The name ``said`` sounds like most, or None (nothing to compare: too short,
        or espeak-ng could not say it). ``leave_out``: characters (groups) not meant."""
        return self.best_of([said], leave_out)

    def best_of(
        self, readings: Sequence[str], leave_out: Collection[int] = ()
    ) -> SoundMatch | None:
        """The best match of any reading of a saying (with or without carrier words):
        one found first, then the most similar."""
        heard = sounds_of(readings, self.lang, small=True)
        matches = [self._match(h, leave_out) for h in heard.values() if h is not None]
        found = [m for m in matches if m is not None]
        if not found:
            return None
        return max(found, key=lambda m: (m.found, m.similarity, m.margin))

    def _match(self, heard: Sound, leave_out: Collection[int]) -> SoundMatch | None:
        if len(heard.phones) < MIN_PHONES:
            return None
        best: dict[int, tuple[float, str]] = {}
        for group, form, sound in self._names():
            if group in leave_out:
                continue
            value = similarity(heard, sound)
            if group not in best or value > best[group][0]:
                best[group] = (value, form)
        if not best:
            return None
        ranked = sorted(best.items(), key=lambda item: (-item[1][0], item[0]))
        group, (value, form) = ranked[0]
        runner_up = ranked[1][1][0] if len(ranked) > 1 else 0.0
        return SoundMatch(group, form, value, value - runner_up)

    def _names(self) -> list[tuple[int, str, Sound]]:
        if self._sounds is None:
            forms = [form for forms in self.groups for form in forms]
            short, full = sounds_of(forms, self.lang), sounds_of(forms, self.lang, small=True)
            self._sounds = [
                (group, form, sound)
                for group, forms in enumerate(self.groups)
                for form in forms
                for sound in dict.fromkeys((short[form], full[form]))
                if sound is not None and len(sound.phones) >= MIN_PHONES
            ]
        return self._sounds


@cache
def _pronouncer(lang: str) -> Pronouncer:
    return Pronouncer(lang, None, cache_dir() / f"sounds-{lang}.json")


def sounds_of(texts: Sequence[str], lang: str, small: bool = False) -> dict[str, Sound | None]:
    """Each text as said by espeak-ng (None where it cannot be said); the words of all of
    them in one process where possible. ``small``: with its small words ("the", "of")."""
    words = {text: spoken_words(text, small) for text in texts}
    said = _pronounce([w for ws in words.values() for w in ws], lang)
    out: dict[str, Sound | None] = {}
    for text, ws in words.items():
        if not ws or any(w not in said for w in ws):
            out[text] = None
            continue
        phones = [p for w in ws for p in said[w].split() if p in _LETTER]
        out[text] = Sound("".join(_LETTER[p] for p in phones), "".join(_CLASS[p] for p in phones))
    return out


def sound_of(text: str, lang: str, small: bool = False) -> Sound | None:
    """``text`` as said by espeak-ng, or None."""
    return sounds_of([text], lang, small)[text]


def _pronounce(words: Sequence[str], lang: str) -> dict[str, str]:
    """Word → its first pronunciation; a word espeak-ng cannot say is left out (the rest
    of a batch is tried in halves)."""
    wanted = list(dict.fromkeys(words))
    if not wanted:
        return {}
    try:
        found = _pronouncer(lang).pronunciations(wanted)
    except PronunciationError as exc:
        if len(wanted) == 1 or exc.key == "espeak_missing":
            return {}
        half = len(wanted) // 2
        return {**_pronounce(wanted[:half], lang), **_pronounce(wanted[half:], lang)}
    return {word: variants[0] for word, variants in found.items() if variants}
