"""Talk between people or words meant for the game: what to do with an utterance that is
understood as nothing (issue 24, item 3).

Answering table talk with "I didn't catch that" interrupts the table at every turn;
staying silent to a player who spoke to the game leaves them waiting. The rule, the same
in every game and language (:func:`meant_for_game`):

1. addressed to the game by name ("Spielleiter, …", "…, game master") → meant for it;
   addressed to a player ("Ben, nimm doch lila", "your turn, Ben") → talk: silence;
2. only conversational frames that say nothing yet ("hmm", "oh come on", "okay so",
   "ooh I know this") → thinking aloud: silence;
3. a word that makes a sentence no move - a refusal or a hedge of the guard ("nicht",
   "never", "maybe", "oder", "wish", "du"), or a verb that opens a question ("did Cem
   play green", "soll ich blau nehmen") - is talk about the game, not to it: silence
   (the same words the guard of :mod:`voice.understanding.fallback` refuses moves for;
   question words such as "what", "wo", "welche" are no such word: "what colour does
   the hat have" may well be asked of the game); so are two values of one kind ("rot
   und grün", "Schule oder Urlaub");
4. every other word one the game itself uses (its templates, its lists: colours,
   objects, players, word cards, characters) → meant for it, only not in a way it
   understands ("lila grün Hut") → "not understood";
5. otherwise it holds words the game never uses: two or more of them, or one in a
   sentence of four words or more, is plainly talk ("pass me the juice", "Mein Hund hat
   gestern den Ball gefressen": a game word in a sentence that is no move) → silence;
   a short utterance with one unknown word ("Zed fängt an", "hlep me") may be a slip or
   a name the game does not know → "not understood".

Anything that is no words at all (an empty line, symbols) was typed at the game: it gets
the answer too.
"""

from __future__ import annotations

from voice.understanding.fallback import Fallback
from voice.understanding.grammar import Grammar
from words.text import normalize

TALK_UNKNOWN = 2
"""This many words the game never uses make an utterance talk, however short."""

TALK_LENGTH = 4
"""From this many words (frames left out), one word the game never uses makes it talk."""


def meant_for_game(grammar: Grammar, text: str) -> bool:
    """Is ``text`` (understood as nothing) meant for the game (answer "not understood")
    rather than talk between people or thinking aloud (stay silent)? See the module."""
    norm = normalize(text)
    if not norm:
        return True
    frames = grammar.frames
    content, called = frames.content(norm)
    if called is not None:
        return called == "game"
    if not content:
        return not frames.silent(norm)
    markers = _talk_markers(grammar)
    starts = grammar.guard_words.get("question_start", frozenset())
    if content[0] in starts or any(w in markers or w.endswith("n't") for w in content):
        return False
    if _two_of_a_kind(grammar, " ".join(content)):
        return False
    known = _known_words(grammar)
    unknown = [w for w in content if w not in known and not any(c.isdigit() for c in w)]
    if not unknown:
        return True
    return len(unknown) < TALK_UNKNOWN and len(content) < TALK_LENGTH


def _known_words(grammar: Grammar) -> frozenset[str]:
    """The words the game uses: its templates and lists, its frames, skip and guard
    words (worked out once per grammar)."""
    return grammar.derived("talk_known_words", _words_of)


def _words_of(grammar: Grammar) -> frozenset[str]:
    words = set(grammar.vocabulary)
    for phrase in grammar.skip_words:
        words.update(phrase.split())
    for kind in ("question_word", "filler", "stop", "subject", "deictic"):
        for phrase in grammar.guard_words.get(kind, ()):
            words.update(phrase.split())
    return frozenset(words)


def _two_of_a_kind(grammar: Grammar, norm: str) -> bool:
    """Are two different values of one kind named (two colours, two word cards)?"""
    fallback = grammar.derived("talk_fallback", Fallback)
    seen: dict[str, object] = {}
    for span in fallback.spans(fallback.tokens(norm)):
        if seen.setdefault(span.slot, span.value) != span.value:
            return True
    return False


def _talk_markers(grammar: Grammar) -> frozenset[str]:
    """The guard's refusal and hedge words, question words left out."""
    guard = grammar.guard_words
    marks = guard.get("refusal", frozenset()) | guard.get("hedge", frozenset())
    return marks - guard.get("question_word", frozenset())
