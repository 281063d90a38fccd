"""Pronunciations for pocketsphinx's en-us acoustic model.

English words come from the CMU dictionary that ships with pocketsphinx. Everything else
(German words, player names, character names) is phonemised by espeak-ng, and its IPA is
mapped onto the 39 ARPAbet phones of the en-us model with the tables below. German words
are always taken from espeak-ng's German voice, even when the CMU dictionary happens to
list the same spelling ("die", "rot", "boot" are English words there, said the English way).

Pronunciations are cached on disk per language, keyed by the espeak-ng version and a
digest of the tables, so changing a table invalidates the cache by itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

from games.errors import FarbspielError

ARPABET = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH "
    "UH UW V W Y Z ZH".split()
)
"""The phones of pocketsphinx's en-us model (silence and noise phones aside)."""

# IPA (as espeak-ng writes it) → en-us phones. A value is one pronunciation of the
# symbol ("" drops it); several values separated by "|" are alternatives where no
# English phone is clearly closest (German ü between UW and IY).
_CONSONANTS: dict[str, str] = {
    "b": "B",
    "d": "D",
    "f": "F",
    "ɡ": "G",
    "g": "G",
    "h": "HH",
    "j": "Y",
    "k": "K",
    "l": "L",
    "m": "M",
    "n": "N",
    "ŋ": "NG",
    "p": "P",
    "s": "S",
    "ʃ": "SH",
    "t": "T",
    "v": "V",
    "w": "W",
    "z": "Z",
    "ʒ": "ZH",
    "θ": "TH",
    "ð": "DH",
    "tʃ": "CH",
    "dʒ": "JH",
    "ʔ": "",
}

IPA_TO_ARPABET: Mapping[str, Mapping[str, str]] = {
    "de": {
        **_CONSONANTS,
        # German r (trilled, tapped or uvular) is no English R: a second pronunciation
        # without it (measured: "rot", "rosa", "orange" were heard as other colours),
        # though not after a consonant ("grün" without r took "gelb"): there it is a short
        # vowel to the en-us model (CLUSTER_R; see ipa_to_arpabet)
        "r": "R|",
        "ɾ": "R|",
        "ʁ": "R|",
        "ç": "SH|HH",  # "ich": no palatal fricative in English; SH sounds closest
        "x": "HH|K",  # "Buch", "acht"
        "a": "AA",
        "aː": "AA",
        "ɑ": "AA",
        "ɑː": "AA",
        "ɐ": "AH",
        "ɜ": "AH|ER",  # espeak's symbol for the vocalised -er ending ("Eimer")
        "ə": "AH",
        "e": "EY",
        # German long e ("geht", "Kaffee", "Tee") is a pure vowel, nearer the en-us IY than
        # its EY glide: measured like au below (16 words, 4 voices), IY fitted best 38
        # times of 64 (de 14, de+f3 12, mb-de5 12 of 16 each; mb-de6 IH 10, EY 5), EY 8,
        # IH 14; in the recognition pass of Alle meine Farben and Farben (the four voices,
        # quiet room) 11 more of 576 commands right ("Kaffee" was heard as "party")
        "eː": "IY|EY",
        # German short e ("gelb", "fehlt", "Welle") as the en-us model hears it: EH or IH
        # (measured like au: IH fitted best 34 times of 64, EY 15, EH 11; with IH second,
        # "gelb" in the Farben colour grammar was heard right 13 times of 16, not 8; in
        # the recognition pass of AMF and Farben, four voices, quiet room, 10 more of 576
        # commands right, none fewer with any voice)
        "ɛ": "EH|IH",
        "ɛː": "EH|IH",
        "ɛɪ": "EY",
        "i": "IY",
        "iː": "IY",
        "ɪ": "IH",
        "o": "OW",
        "oː": "OW",
        "ɔ": "AO",
        "u": "UW",
        "uː": "UW",
        "ʊ": "UH",
        "y": "UW|IY",  # German ü: rounded like UW, tongue like IY
        "yː": "UW|IY",
        "ʏ": "UH|IH",
        "ø": "ER|EH",  # German ö
        "øː": "ER|EH",
        "œ": "ER|EH",
        "aɪ": "AY",
        # German au ("braun", "grau", "blau", "auf") is no English AW to the en-us model:
        # measured by decoding 16 words with au, said by espeak-ng's de and de+f3 and the
        # mbrola voices de5 and de6, against the word with au as AW, AA OW, OW, AO, AA UH,
        # AH OW or AA W: AA OW fitted best 27 times of 64, OW 15, AH OW 11, AA UH 7, AW 4
        # (with AW, "braun" and "grau" were heard as "rot"). OW alone as a second
        # pronunciation made "grau" (G AH OW) and "Pause" take "gelb" and "rosa": in the
        # Farben commands with colours, 58 of 76 right with AA OW alone, 53 with OW too
        "aʊ": "AA OW",
        "ɔʏ": "OY",
        "ɔø": "OY",
        # espeak-ng 1.51 writes "??" for its German "ur" before a consonant ("Burg",
        # "Maulwurf"): a phoneme it has no IPA for
        "??": "UH R|ER",
        # English words inside German sentences ("sorry", "Humpty Dumpty") come as
        # (en)…(de) in English IPA
        "ɹ": "R",
        "ɒ": "AA",
        "æ": "AE",
        "ʌ": "AH",
        "ᵻ": "IH",
        "ɚ": "ER",
        "ɚɹ": "ER",
        "ɜː": "ER",
        "ɔː": "AO",
        "oʊ": "OW",
        "eɪ": "EY",
        "ɔɪ": "OY",
    },
    "en": {
        **_CONSONANTS,
        "ɹ": "R",
        "r": "R",
        "ɾ": "T",  # the American flap ("status")
        "ʔ": "T",
        "x": "K",
        "æ": "AE",
        "a": "AA",
        "aː": "AA",
        "ɑ": "AA",
        "ɑː": "AA",
        "ɒ": "AA",
        "ɔ": "AO",
        "ɔː": "AO",
        "o": "OW",
        "oː": "AO",  # espeak's "four fˈoːɹ" is F AO R
        "oʊ": "OW",
        "ʌ": "AH",
        "ə": "AH",
        "ɐ": "AH",
        "ᵻ": "IH",
        "ɚ": "ER",
        "ɚɹ": "ER",  # "correct" kɚɹˈɛkt: the r is in the vowel already
        "ɜ": "ER",
        "ɜː": "ER",
        "e": "EH",
        "ɛ": "EH",
        "eɪ": "EY",
        "ɪ": "IH",
        "i": "IY",
        "iː": "IY",
        "ʊ": "UH",
        "u": "UW",
        "uː": "UW",
        "aɪ": "AY",
        "aʊ": "AW",
        "ɔɪ": "OY",
        "y": "UW",
        "yː": "UW",
        "ø": "ER",
        "øː": "ER",
    },
}
"""IPA symbol → en-us phone(s), per espeak-ng voice language (the tested mapping table)."""

ESPEAK_VOICES = {"de": "de", "en": "en-us"}
"""The espeak-ng voice that phonemises words of each language."""

MAX_VARIANTS = 3
"""At most this many pronunciations per word (alternatives multiply)."""

_IGNORED = "ˈˌ\u200d\u0361\u0329.‿ '"  # stress, ties, syllabic marks, syllable/word breaks
_LANG_SWITCH = re.compile(r"\([a-z\-]+\)")


class PronunciationError(FarbspielError, RuntimeError):
    """A word cannot be given a pronunciation (espeak-ng missing or an unknown symbol)."""

    default_key = "pronunciation"


def ipa_phonemes(ipa: str, table: Mapping[str, str]) -> list[str]:
    """Split espeak-ng IPA into the symbols of ``table`` (longest match first)."""
    text = _LANG_SWITCH.sub("", ipa)
    text = "".join(c for c in text if c not in _IGNORED)
    longest = max(len(k) for k in table)
    out: list[str] = []
    i = 0
    while i < len(text):
        for size in range(min(longest, len(text) - i), 0, -1):
            piece = text[i : i + size]
            if piece in table:
                out.append(piece)
                i += size
                break
        else:
            raise PronunciationError(f"no en-us phone for the IPA symbol {text[i]!r} in {ipa!r}")
    return out


STRESSED_VOWELS: Mapping[str, Mapping[str, str]] = {
    "en": {"ˈʌ": "AH|AA", "ˈeɪ$": "EY|EH IY"},
}
"""Stressed vowels of espeak-ng's English that the en-us model hears as other phones too:
an alternative pronunciation for each, also for words of the CMU dictionary (espeak-ng's
reading of the word, besides the dictionary's; a placeholder symbol stands for the vowel
until it is looked up; "$": only at the end of a word). Measured with the benchmark's voice
en-us: "done" (dˈʌn) was heard as "go on" against D AH N and right against D AA N; "grey"
(ɡɹˈeɪ) as "green" against G R EY and right against G R EH IY. The eɪ inside a word too
("game", "again") let table talk in ("stop pushing me" heard as "stop the game"), so only
a word's last vowel has it. The held-out voice mb-us2 heard as many commands or more
(voice/bench/RESULTS-LOG.md, "English in a quiet room")."""


def _mark_stressed(ipa: str, lang: str) -> tuple[str, dict[str, str]]:
    """``ipa`` with the vowels of ``STRESSED_VOWELS`` as placeholders, and the phones of
    the placeholders found."""
    found: dict[str, str] = {}
    for i, (vowel, phones) in enumerate(STRESSED_VOWELS.get(lang, {}).items()):
        placeholder = chr(0xE000 + i)
        pattern = re.escape(vowel.removesuffix("$")) + ("$" if vowel.endswith("$") else "")
        ipa, count = re.subn(pattern, placeholder, ipa)
        if count:
            found[placeholder] = phones
    return ipa, found


def ipa_to_arpabet(ipa: str, lang: str) -> list[str]:
    """All pronunciations (space-separated ARPAbet, best first) of one word's IPA."""
    ipa, stressed = _mark_stressed(ipa, lang)
    table = {**IPA_TO_ARPABET[lang], **stressed}
    symbols = ipa_phonemes(ipa, table)
    options = [table[symbol].split("|") for symbol in symbols]
    for i, symbol in enumerate(symbols):
        if symbol in _DROPPABLE_R and i > 0 and _ends_in_consonant(options[i - 1][0]):
            options[i] = CLUSTER_R.get(lang, options[i])  # "gr", "br", "dr"
    primary = [opts[0] for opts in options]
    # the best guess, then one alternative symbol at a time (the count stays small)
    variants = [primary] + [
        primary[:i] + [alt] + primary[i + 1 :] for i, opts in enumerate(options) for alt in opts[1:]
    ]
    out: list[str] = []
    for phones in variants:
        flat = [p for p in " ".join(phones).split() if p]
        collapsed = [p for i, p in enumerate(flat) if i == 0 or p != flat[i - 1]]
        text = " ".join(collapsed)
        if text and text not in out:
            out.append(text)
    return out[:MAX_VARIANTS]


_DROPPABLE_R = frozenset({"r", "ɾ", "ʁ"})
CLUSTER_R = {"de": ["AH", "R"]}
"""A German r after a consonant ("braun", "grau", "Graf", "Drache"), as the en-us model
hears it: a short vowel first, an English R second. Measured by decoding 14 such words,
said by espeak-ng's de and de+f3 and the mbrola voices de5 and de6, against the word with
the r as R, D, L, W, AH, ER or left out: AH fitted best 27 times of 56, L 10, W 6, left out
5, R 4. In the benchmark (voices de and mb-de6, quiet room) "grau", "Graf Zahl" and "Graf
Dracula" were then heard right, nothing was lost with the voice de (3 more of 438 right in
all)."""
_VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


def _ends_in_consonant(phones: str) -> bool:
    last = phones.split()[-1:] if phones else []
    return bool(last) and last[0] not in _VOWELS


def espeak_ipa(words: Sequence[str], lang: str) -> list[str]:
    """espeak-ng's IPA for each word (one process for the whole list)."""
    if not words:
        return []
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise PronunciationError(key="espeak_missing")
    # one word per line: espeak-ng answers with one line per input line
    proc = subprocess.run(
        [exe, "-q", "--ipa", "-v", ESPEAK_VOICES[lang]],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [line.strip() for line in proc.stdout.splitlines()]
    if proc.returncode != 0 or len(lines) != len(words):
        detail = proc.stderr.strip()[:200]
        raise PronunciationError(key="espeak_failed", count=len(words), detail=detail)
    return lines


@cache
def espeak_version() -> str:
    exe = shutil.which("espeak-ng")
    if exe is None:
        return "none"
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return proc.stdout.strip()


@cache
def cmudict(path: str) -> dict[str, tuple[str, ...]]:
    """The CMU dictionary: word → pronunciations (alternatives ``word(2)`` folded in)."""
    entries: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            word, _, phones = line.strip().partition(" ")
            if not phones:
                continue
            base = word.split("(", 1)[0]
            entries.setdefault(base, []).append(phones.split("#", 1)[0].strip())
    return {w: tuple(p) for w, p in entries.items()}


SAID_WITHOUT = {"de": ("ein", ("einhundert", "eintausend"))}
"""Words commonly said without their first syllable: German 145 is written (and listened
for) as "einhundertfünfundvierzig" but mostly said "hundertfünfundvierzig" (so does
espeak-ng; measured: "Karte 145" heard as 155 or 175)."""


NUMBERS_READ_AS_DIGITS = {"de": 999}
"""German number words are phonemised from their digits: espeak-ng reads a written-out
compound like "sechsundvierzig" with a long vowel and a v ("vˈiːɾtsɪç"), but the number
46 the way people say it ("fˈɪɾtsɪç"). Measured with Pantone's card numbers through the
en-us model: 15 of 16 "…undvierzig" heard as "…undfünfzig" with the word's reading."""


@cache
def _number_digits(lang: str) -> dict[str, str]:
    """Number words of ``lang`` that are one word ("sechsundvierzig", "einhundert") → digits."""
    from words.numbers import number_words

    top = NUMBERS_READ_AS_DIGITS.get(lang, 0)
    out: dict[str, str] = {}
    for number in range(1, top + 1):
        words = number_words(number, lang)
        if len(words) == 1:
            out.setdefault(words[0], str(number))
    return out


def _table_digest() -> str:
    text = json.dumps(
        [IPA_TO_ARPABET, SAID_WITHOUT, NUMBERS_READ_AS_DIGITS, CLUSTER_R, STRESSED_VOWELS],
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha1(f"{text}|{MAX_VARIANTS}".encode()).hexdigest()[:12]


def cache_dir() -> Path:
    """Where pronunciations are cached (``$XDG_CACHE_HOME/farbspiel``)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "farbspiel"


class Pronouncer:
    """Pronunciations of words of one language for the en-us model, cached on disk."""

    def __init__(self, lang: str, dictionary: str | None, cache_file: Path | None = None) -> None:
        if lang not in IPA_TO_ARPABET:
            raise ValueError(f"no pronunciation table for language {lang!r}")
        self.lang = lang
        self.dictionary = dictionary
        self.cache_file = cache_file
        self._key = f"{espeak_version()}|{_table_digest()}"
        self._known: dict[str, list[str]] = self._load()

    def pronunciations(self, words: Iterable[str]) -> dict[str, list[str]]:
        """Every word → its pronunciations (best first). Raises PronunciationError."""
        wanted = list(dict.fromkeys(words))
        result: dict[str, list[str]] = {}
        missing: list[str] = []
        english = cmudict(self.dictionary) if self.dictionary and self.lang == "en" else {}
        if self.lang in STRESSED_VOWELS:
            self._stressed_variants([w for w in wanted if w in english])
        for word in wanted:
            if word in english:
                known = list(english[word][:MAX_VARIANTS])
                extra = [v for v in self._known.get(f"{word} +", []) if v not in known]
                result[word] = known + extra[: MAX_VARIANTS - 1]
            elif word in self._known:
                result[word] = self._known[word]
            else:
                missing.append(word)
        if missing:
            prefix, starts = SAID_WITHOUT.get(self.lang, ("", ()))
            shorter = {
                w: w[len(prefix) :]
                for w in missing
                if starts and w.startswith(starts) and len(w) > len(prefix) + 3
            }
            digits = _number_digits(self.lang)
            said = missing + list(shorter.values())
            read = [digits.get(w, w) for w in said]
            ipas = dict(zip(said, espeak_ipa(read, self.lang), strict=True))
            for word in missing:
                variants = ipa_to_arpabet(ipas[word], self.lang)
                if not variants:
                    raise PronunciationError(key="espeak_no_phonemes", word=word)
                if word in shorter:  # the short form first: it is what people say
                    short = ipa_to_arpabet(ipas[shorter[word]], self.lang)[:2]
                    variants = list(dict.fromkeys(short + variants))[:MAX_VARIANTS]
                self._known[word] = result[word] = variants
            self._save()
        return result

    def _stressed_variants(self, words: Sequence[str]) -> None:
        """Dictionary words' alternatives for the stressed vowels of ``STRESSED_VOWELS``:
        espeak-ng's reading of each word with the alternative phones, where it has such a
        vowel (cached like espeak-ng's words, under the word and a "+")."""
        missing = [w for w in words if f"{w} +" not in self._known]
        if not missing or shutil.which("espeak-ng") is None:
            return  # without espeak-ng the dictionary's pronunciations alone
        for word, ipa in zip(missing, espeak_ipa(missing, self.lang), strict=True):
            has = bool(_mark_stressed(ipa, self.lang)[1])
            self._known[f"{word} +"] = ipa_to_arpabet(ipa, self.lang)[1:] if has else []
        self._save()

    def _load(self) -> dict[str, list[str]]:
        if self.cache_file is None:
            return {}
        try:
            data = json.loads(self.cache_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("key") != self._key:
            return {}
        words = data.get("words")
        if not isinstance(words, dict):
            return {}
        return {
            w: p
            for w, p in words.items()
            if isinstance(p, list)
            and (p or w.endswith(" +"))  # a dictionary word without alternatives
            and all(isinstance(x, str) for x in p)
        }

    def _save(self) -> None:
        if self.cache_file is None:
            return
        try:
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_file.with_name(f"{self.cache_file.name}.{os.getpid()}.tmp")
            data = {"key": self._key, "words": self._known}
            tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            tmp.replace(self.cache_file)
        except OSError:
            pass  # a cache that cannot be written only costs time
