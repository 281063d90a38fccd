"""What a frame may do to the sentence inside it (the frames: :mod:`.frames`).

The parser reads an utterance that is not understood as it is as frames around a core
and matches the core with the templates; the frames then decide, the same for every
intent:

- a question frame ("can I", "kannst du", "darf ich") asks for what the core says when
  that is a request, a command or a question ("can I have a hint", "kannst du das
  wiederholen"), but never makes a move with a value: "can I play red" asks about it;
- a negation before the core ("no, …", "nö, passe") never makes such a move either;
  before a colour, right after a move with a colour, it corrects that move, if a pause
  (a typed comma) parts it from the colour: "no, green" corrects, "no green" stays a
  refusal; a word that corrects ("sorry", "oops", "quatsch", "nein warte") corrects
  without one, and is a preface where nothing can be corrected;
- a vocative that names a player fills the slot the game lets the person asked fill
  (``addressee_slots`` of a game's grammar: in Farben, whom a hint is asked from); in a
  move, a player named beside it is advice to that player (the guard refuses it);
- prefaces, exclamations, announcements, answer words, politeness and tails are let be.

The guard (:func:`voice.understanding.fallback.refused`) still looks at the whole
utterance: a tag question typed with "?" ("Cem had green, right?") is no move, except
after a move cheap to take back (a grammar's ``tag_moves``: "Vogel grün, ne?" colours the
bird and says so; a colour said alone with one, "rot, oder?", still asks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from voice.understanding.fallback import (
    SURE_SCORE,
    VALUE_SLOTS,
    Fallback,
    possessive_stem,
    refused,
)
from voice.understanding.frames import Reading
from voice.understanding.grammar import Grammar, holds_phrase, phrase_at
from voice.understanding.intent import Asked, Core, Intent

CORRECTION = "correction"
"""The grammar's intent of a correction right after a move ("nein, doch gelb")."""

_NOT_A_MOVE = frozenset({"question", "negation"})
"""Frames around a core that is then no move with a value."""


class Matcher(Protocol):
    """What the frames need of a parser (:class:`voice.understanding.intents.IntentParser`)."""

    @property
    def grammar(self) -> Grammar: ...

    @property
    def fallback(self) -> Fallback: ...

    @property
    def frame_guarded(self) -> frozenset[str]:
        """Intents no question or negation frame may give (moves with a value)."""
        ...

    def exact(self, norm: str, allowed: frozenset[str] | None) -> Intent | None:
        """The best exact template match of ``norm``."""
        ...

    def spotted(
        self,
        norm: str,
        allowed: frozenset[str] | None,
        slots: Mapping[str, Iterable[Any]] | None,
    ) -> Intent | None:
        """``norm`` as the guarded fallback reads a move of the phase (its words), or
        ``None``."""
        ...


def readings(parser: Matcher, norm: str, raw: str | None) -> list[Reading]:
    """The frame readings of ``norm`` and of it with its short forms said long ("so
    where's the cup": "where is the cup")."""
    frames = parser.grammar.frames
    found = frames.readings(norm, raw)
    expanded = frames.expanded(norm)
    if expanded != norm:
        found += frames.readings(expanded)
    return found


def framed(
    parser: Matcher, norm: str, raw: str | None, allowed: frozenset[str] | None
) -> tuple[Intent, str] | None:
    """The sentence inside conversational frames ("Cem, can I have a hint", "okay I've
    got my word, it's the first one", "pass, sorry"), as the frames let it mean, and
    where the guard looks for its values."""
    grammar = parser.grammar
    if grammar.frames.silent(norm):
        return None  # "I know this one": only frames, the core a piece of one of them
    found_readings = [r for r in readings(parser, norm, raw) if not _split_one(grammar, norm, r)]
    for reading in found_readings:
        found = _as_core(
            parser, reading.core, allowed, reading.kinds, _subject(grammar, norm, reading)
        )
        if found is None:
            continue
        meant = through(
            reading,
            found.name,
            found.slots,
            parser.frame_guarded,
            grammar.addressee_slots,
            grammar.leave_moves,
        )
        if meant is not None:
            values = reading.values
            if "permission" in reading.kinds and meant[0] in parser.frame_guarded:
                values = Asked(values)  # "darf ich …?": the "?" asks leave
            return Intent(meant[0], meant[1], norm, found.score), values
    if allowed is None:
        return None
    # a move in the game's own words inside plain frames: "Buch in grün, bitte schön."
    for reading in found_readings:
        if not reading.kinds or not reading.kinds <= PLAIN_FRAMES:
            continue
        spotted = parser.spotted(reading.core, allowed, None)
        if spotted is not None and spotted.score >= SURE_SCORE:
            return Intent(spotted.name, spotted.slots, norm, spotted.score), reading.values
    return None


def _split_one(grammar: Grammar, norm: str, reading: Reading) -> bool:
    """Does ``reading`` cut "this one" in two, its core a number from the pronoun ("I know
    this one, forty-three": not card 143)?"""
    guard = grammar.guard_words
    words = norm.split()
    return (
        0 < reading.start < len(words)
        and words[reading.start] in guard.get("pronoun_one", frozenset())
        and words[reading.start - 1] in guard.get("one_of", frozenset())
    )


PLAIN_FRAMES = frozenset({"preface", "politeness", "tail", "lead", "answer", "speaker"})
"""Frames that neither ask, deny, take back nor name someone: around them a move said in
the game's words (the guarded fallback) is still the move."""


def _as_core(
    parser: Matcher,
    core: str,
    allowed: frozenset[str] | None,
    kinds: frozenset[str] = frozenset(),
    subject: str | None = None,
) -> Intent | None:
    """``core`` as a sentence of the templates, said inside frames of ``kinds``: after a
    question frame also with its verb second ("sag mal, was in Spalte zwei liegt": "was
    liegt in Spalte zwei"); after asking leave also without the verb that closes it
    ("darf ich den Ball rot machen": "den Ball rot") and said by its ``subject`` ("can I
    put green on the ball": "I put green on the ball")."""
    frames = parser.grammar.frames
    said_as = [core, frames.expanded(core)]
    if "question" in kinds:
        said_as.append(_verb_second(parser, core))
    if "permission" in kinds:
        said_as.append(_without_closing_verb(parser.grammar, core))
        if subject is not None:
            said_as.append(f"{subject} {core}")
    for said in dict.fromkeys(said_as):  # "blauer": "blau"
        without = frames.without_inside(said)  # "gib mir doch mal …"
        if not _matchable(parser.grammar, without):
            continue
        found = parser.exact(said, allowed) if _matchable(parser.grammar, said) else None
        if found is None and without != said:
            found = parser.exact(without, allowed)
        if found is not None:
            return found
    grammar = parser.grammar
    plain = frames.without_inside(frames.expanded(core), asking=True)  # "sag nochmal …"
    if plain != core and _matchable(grammar, plain):
        found = parser.exact(plain, allowed)
        if found is not None and found.name in grammar.question_intents | grammar.request_intents:
            return found  # a question or request only, never a move
    return None


def _subject(grammar: Grammar, norm: str, reading: Reading) -> str | None:
    """The subject of the frame that asks leave before the core ("can I": "I"), if any."""
    if "permission" not in reading.kinds:
        return None
    subjects = grammar.guard_words.get("subject", frozenset())
    before = [w for w in norm.split()[: reading.start] if w in subjects]
    return before[-1] if before else None


def _without_closing_verb(grammar: Grammar, core: str) -> str:
    """``core`` without the verb of the move said last, as after "darf ich" ("den Ball
    rot machen": "den Ball rot"); else ``core``."""
    words = core.split()
    if len(words) > 1 and words[-1] in grammar.guard_words.get("question_verb", frozenset()):
        return " ".join(words[:-1])
    return core


def _verb_second(parser: Matcher, core: str) -> str:
    """An indirect question with its verb last said as a question ("wo die Tasse ist":
    "wo ist die Tasse"), where the language does so (:attr:`Frames.verb_last`); else
    ``core``."""
    grammar = parser.grammar
    words = core.split()
    if not grammar.frames.verb_last or len(words) < 3:
        return core
    if words[0] not in grammar.guard_words.get("question_word", frozenset()):
        return core
    return " ".join((words[0], words[-1], *words[1:-1]))


def corrected(
    parser: Matcher, norm: str, raw: str | None, allowed: frozenset[str] | None
) -> Intent | None:
    """A correction right after a move: "sorry, blue", "nein warte, lila", "no, green"
    (a typed pause after "no"; without one "no green" is a refusal)."""
    if allowed is None or CORRECTION not in allowed:
        return None
    grammar = parser.grammar
    for reading in grammar.frames.readings(norm, raw):
        core = reading.core.split()
        if not (corrects(reading) and parser.fallback.names(core, "colour")):
            continue  # only a colour corrects
        found = parser.exact(reading.core, allowed - {CORRECTION})
        if found is None or (
            found.name in grammar.guarded_intents
            and refused(grammar, parser.fallback, reading.core, reading.core, found.slots)
        ):
            continue
        slots = correction(reading, found.name, found.slots, parser.frame_guarded)
        if slots is not None:
            return Intent(CORRECTION, slots, norm, found.score)
    return None


def _matchable(grammar: Grammar, core: str) -> bool:
    """Can ``core`` match a template at all? Not with a word no template or list holds
    (digits aside): most readings of table talk end here, before any matching."""
    words = grammar.matchable
    return all(w in words or w.isdigit() or _owner(w, words) for w in core.split())


def _owner(word: str, words: frozenset[str] | set[str]) -> bool:
    """A name with the possessive s of a template such as "{player}'s phone" ("anna's",
    German "annas")."""
    stem = possessive_stem(word)
    return stem is not None and stem in words


def corrects(reading: Reading) -> bool:
    """Do the frames before the core correct the move just made ("oops, …", "no, …")?"""
    kinds = reading.kinds
    return "correction" in kinds or ("negation" in kinds and reading.pause)


def correction(
    reading: Reading, name: str, slots: Mapping[str, Any], guarded: frozenset[str]
) -> dict[str, Any] | None:
    """The correction's slots if the core (understood as ``name``, ``slots``) gives a
    colour that corrects the last move ("sorry, blue", "nein warte, lila"); else ``None``."""
    if not corrects(reading):
        return None
    if name == CORRECTION:
        return dict(slots)
    colour = slots.get("colour")
    if name in guarded and isinstance(colour, str):
        return {"colour": colour}
    return None


def through(
    reading: Reading,
    name: str,
    slots: Mapping[str, Any],
    guarded: frozenset[str],
    addressee_slots: Mapping[str, str],
    cheap: frozenset[str] = frozenset(),
) -> tuple[str, dict[str, Any]] | None:
    """What the core (understood as ``name``, ``slots``) means inside its frames, or
    ``None`` if the frames forbid it (a question or a negation around a move). Asking
    leave for one's own move ("darf ich den Ball rot machen?") makes it where it is
    ``cheap`` to take back (said back, "nein" undoes it; the rules refuse what is not
    allowed, which answers the question), and asks nothing more; elsewhere ("can I say
    Elsa?") it stays a question."""
    kinds = reading.kinds
    if name in guarded and (kinds & _NOT_A_MOVE or ("permission" in kinds and name not in cheap)):
        return None
    out = dict(slots)
    slot = addressee_slots.get(name)
    if reading.addressee is not None and slot is not None and slot not in out:
        out[slot] = reading.addressee  # "Cem, can I have a hint": a hint from Cem
    return name, out


ASIDE_FORBIDDEN = ("refusal", "hedge", "question_word")
"""Guard words that make a remark more than a remark ("red, or not?", "weiß, oder?");
and a remark may not start like a question ("red, is that okay")."""


def remark_forbidden(grammar: Grammar) -> frozenset[str]:
    """Words no remark beside a sentence may hold (:data:`ASIDE_FORBIDDEN`), once per
    grammar."""
    return grammar.derived(
        "remark_forbidden",
        lambda g: frozenset().union(*(g.guard_words.get(k, frozenset()) for k in ASIDE_FORBIDDEN)),
    )


MAX_ASIDE = 8
"""At most this many words of a remark beside a sentence that names no value (a name, a
request): longer, the name calls someone the remark is for ("Ben, take the rubbish out
after this, the bin's full")."""
LONG_REASON_SLOTS = VALUE_SLOTS - {"player"}
"""A move naming one of these may have a long remark beside it (:data:`MAX_VALUE_ASIDE`)."""
MAX_VALUE_ASIDE = 16
"""At most this many words of a remark beside a move that names its value: reasons after a
colour run long ("Green, because we always go camping and it's all trees and tents")."""
MAX_REASON = 14
"""At most this many words of a reason said before a sentence, after a pause: reasons run
longer ("I can't go, I've only got red and blue. Pass.")."""


def aside(
    parser: Matcher,
    norm: str,
    raw: str | None,
    allowed: frozenset[str] | None,
    phase_slots: Mapping[str, Iterable[Any]] | None = None,
) -> tuple[Intent, str] | None:
    """A sentence with a remark beside it that names nothing of the game: "braun, wegen
    dem Ranzen", "white, like chalk", "und das ist meine Geschichte. fertig". The remark
    starts after a pause (a typed comma or full stop) or with a word that opens one
    (``aside`` of the frames: "wegen", "because", "like"); before the sentence only after a
    pause. It may hold no value of any list (no colour, player, word card), no negation,
    hedge or question: "rot, oder nicht?" and "braun, wie Lenas" stay what they were. Of a
    list the phase narrows (``phase_slots``: the two words on the card) only its values
    count: "holiday, because of the beach" names no word card on the table."""
    possible = {k: frozenset(v) for k, v in (phase_slots or {}).items()}
    grammar = parser.grammar
    frames = grammar.frames
    words = norm.split()
    if len(words) < 2:
        return None
    pauses = frames.pauses(raw, len(words)) if raw is not None else frozenset()
    opens = {i for i in range(1, len(words)) if words[i] in frames.asides}
    tries: list[tuple[list[str], list[str], bool, bool, int]] = []
    for cut in pauses | opens:
        after = not any(cut < p < len(words) for p in pauses)  # no pause inside the remark
        tries.append((words[:cut], words[cut:], after, False, cut))
        if cut in pauses:
            tries.append((words[cut:], words[:cut], False, True, cut))
    taken = _taken(parser, allowed)
    sung = grammar.guard_words.get("sung", frozenset())
    outside: tuple[Intent, str] | None = None
    # the longest sentence first: "can we stop for a sec, someone's at the door" pauses,
    # it does not stop "for a sec …"
    for core, remark, joined, first, cut in sorted(tries, key=lambda t: (-len(t[0]), t[4])):
        if len(remark) > MAX_VALUE_ASIDE or holds_phrase(" ".join(remark), sung):
            continue  # too long, or the song sung beside it ("… sind alle meine Kleider")
        text = " ".join(core)
        found = _as_core(parser, text, allowed)
        values = text
        if found is None:
            inner = framed(parser, text, None, allowed)
            # beside a reason or a concession ("Die Säge in Gelb, obwohl …"), not beside an
            # exclamation ("Rosa Schuhe, wie peinlich!")
            if inner is None and (first or grammar.opens_with(remark, "concession", "reason")):
                # a move in the words of the game beside it: "Ich fang an: Ball in Blau."
                spotted = parser.spotted(text, allowed, phase_slots)
                if spotted is not None and spotted.score >= SURE_SCORE:
                    inner = spotted, text  # (not "Siehste, gelb, hab ich doch gesagt")
            if inner is None:
                continue
            found, values = inner
        if set(found.slots) <= {"player"} and grammar.opens_with(remark, "order"):
            continue  # "Ben, put your phone down": said to Ben, no move
        limit = MAX_REASON if first else MAX_ASIDE
        if len(remark) > limit and not LONG_REASON_SLOTS & set(found.slots):
            continue  # only a move naming its value may have a remark up to MAX_VALUE_ASIDE
        if first and _names_oneself(parser, remark, found):
            # "Mine? White.", "Ich selbst: rot.": whose it is, said before the value
            found = Intent(found.name, {**found.slots, "self": True}, found.text, found.score)
        if remark[0] in frames.describing and cut not in pauses and set(found.slots) != {"player"}:
            continue  # "I'm done with these crisps": only a person is described so
        if found.name in ANSWER_INTENTS and _says_more(parser, remark, allowed):
            continue  # "So yeah, that's it. Done.": the yes only opens the sentence
        if (
            remark[0] in frames.likeness
            and cut not in pauses
            and not _whole(parser, found, possible)
        ):
            continue  # "rot wie die Liebe" is a story's words; "weiß, wie Kreide" a move
        if not first and "player" not in found.slots:
            remark = _uncalled(parser, remark, pauses, cut)  # "Ready! Finally, Cem."
        if not first and any(
            _another(parser.exact(" ".join(words[p:]), allowed), found)
            for p in pauses
            if cut < p < cut + len(remark)
        ):
            continue  # "ja, ich hab meine auch, bereit!": the remark ends in another sentence
        # a remark after a request that moves nothing may deny and name things: "nochmal
        # bitte, ich hab's nicht verstanden", "pause please, the phone's ringing" (but it
        # says nothing for the game itself: "okay, keinen Bock mehr. beenden")
        plain = (
            cut in pauses
            and not first
            and found.name not in parser.frame_guarded
            and not any(slot in VALUE_SLOTS for slot in found.slots)
            and not any(
                parser.exact(" ".join(words[p:]), allowed) for p in pauses if cut <= p < len(words)
            )
        )
        if (
            (joined and _contrast(parser, remark, found.slots))
            or (first and _reason_before(parser, remark, found, allowed))
            or _only_remark(parser, remark, found.slots, possible, plain, taken)
            or (cut in pauses and _asks_beside(parser, remark, found, allowed))
            or (cut in pauses and _accusation(parser, remark, found, raw))
            or (not first and _apart(parser, remark, raw, cut))
        ):
            # the guard reads the sentence alone: the remark was read here
            reading = Intent(found.name, found.slots, norm, found.score), Core(values)
            if allowed is None or found.name in allowed:
                return reading
            # a sentence of another phase only when no sentence of this one stands beside
            # a remark: "Ready! Finally, Cem." is ready, not Cem to begin
            outside = outside or reading
    return outside


def _names_oneself(parser: Matcher, remark: list[str], found: Intent) -> bool:
    """Is ``remark``, said before a move that names nobody, only the speaker ("mine",
    "myself", "my own", "ich selber", "meine eigene"), and may the move be one's own (its
    wrapped reading takes ``self``)?"""
    if "player" in found.slots or "self" in found.slots:
        return False
    spec = parser.grammar.wrapped_moves.get(found.name)
    if spec is None or "self" not in spec.who:
        return False
    guard = parser.grammar.guard_words
    stress = guard.get("own", frozenset()) | guard.get("self_stress", frozenset())
    loose = guard.get("filler", frozenset()) | guard.get("detached", frozenset())
    said = [w for w in remark if w not in loose]
    oneself = [w for w in said if parser.fallback.slot_of(w) == "self"]
    return bool(oneself) and all(w in stress or w in oneself for w in said)


def _uncalled(parser: Matcher, remark: list[str], pauses: frozenset[int], cut: int) -> list[str]:
    """``remark`` without the player it ends by calling, after a pause ("finally, Cem"):
    the name says whom the words are for, nothing of the game."""
    fallback = parser.fallback
    tokens = fallback.tokens(" ".join(remark))
    spans = fallback.spans(tokens)
    if not spans or len(tokens) != len(remark):
        return remark
    last = spans[-1]
    if last.slot == "player" and last.end == len(remark) and cut + last.start in pauses:
        return remark[: last.start]
    return remark


def _apart(parser: Matcher, remark: list[str], raw: str | None, cut: int) -> bool:
    """Is ``remark`` a sentence of its own after the move, about something the game never
    speaks of, even when it denies ("Lila. Nicht lachen.", "Cinderella. Final answer,
    don't laugh.", "Pass. I've got nothing that fits.")? It follows a full stop or an
    exclamation mark, holds no value of any list, asks nothing, takes nothing back ("nee",
    "wait", "I mean") and has a word no sentence of the game uses."""
    grammar = parser.grammar
    if raw is None or "?" in raw or cut not in grammar.frames.sentence_ends(raw, cut + 1):
        return False
    fallback = parser.fallback
    if fallback.spans(fallback.tokens(" ".join(remark))):
        return False
    guard = grammar.guard_words
    asking = guard.get("question_word", frozenset()) | guard.get("hedge", frozenset())
    no = guard.get("answer_no", frozenset())
    if any(
        w in asking or (w in no and not _forbids(grammar, remark, i)) for i, w in enumerate(remark)
    ):
        return False
    if any(grammar.frames.at(remark, i, ("correction",)) for i in range(len(remark))):
        return False
    if grammar.opens_with(remark, "question_start"):
        return False
    return any(w not in grammar.vocabulary for w in remark)


def _forbids(grammar: Grammar, remark: list[str], i: int) -> bool:
    """Is the "no" at ``remark[i]`` one that forbids a doing ("no peeking", "no cheating"),
    no answer taking the move back?"""
    after = remark[i + 1] if i + 1 < len(remark) else ""
    return len(after) > 4 and after.endswith("ing") and after not in grammar.vocabulary


def _whole(parser: Matcher, found: Intent, possible: Mapping[str, frozenset[Any]]) -> bool:
    """Does ``found`` say a whole move, two values or more, one of them the value the phase
    has already fixed ("Red like a fire engine!" for the car in play)?"""
    said = set(found.slots)
    if len(said) >= 2:
        return True
    model = parser.fallback.models.get(found.name)
    fixed = {slot for slot, values in possible.items() if len(values) == 1} - said
    return model is not None and any(
        said | {slot} <= combo for combo in model.combos for slot in fixed
    )


def _accusation(parser: Matcher, remark: list[str], found: Intent, raw: str | None) -> bool:
    """Is ``remark`` the accusation beside a move that answers it (a grammar's
    ``accused_moves``: "Cem hat Gargamel reingerufen! Minuspunkt für Cem.")? It may name
    players and what they said; it may not ask, hedge or deny ("penalty for Cem? no, he
    didn't")."""
    grammar = parser.grammar
    if found.name not in grammar.accused_moves or (raw is not None and "?" in raw):
        return False
    guard = grammar.guard_words
    forbidden = remark_forbidden(grammar)
    said = _without_telling(grammar, remark)
    return not (forbidden & set(said)) and remark[0] not in guard.get("question_start", ())


def _reason_before(
    parser: Matcher, remark: list[str], found: Intent, allowed: frozenset[str] | None
) -> bool:
    """A reason said before a sentence that carries no value ("ich hab kein Lila, ich
    muss passen", "I can't do anything, I pass"): it may deny and name colours, it cannot
    change a pass or a "done"; it may not ask, nor be a move itself ("gelb. das passt")."""
    if any(slot in VALUE_SLOTS for slot in found.slots) or found.name in parser.frame_guarded:
        return False
    itself = parser.exact(" ".join(remark), allowed)
    if itself is not None and itself.name in parser.frame_guarded:
        return False
    guard = parser.grammar.guard_words
    asking = guard.get("question_word", frozenset()) | guard.get("hedge", frozenset())
    said = _without_telling(parser.grammar, remark)  # "and that's why red": says why
    return not (asking & set(said)) and remark[0] not in guard.get("question_start", ())


def _without_telling(grammar: Grammar, words: list[str]) -> list[str]:
    """``words`` without the phrases whose question word tells rather than asks (the
    grammar's ``telling_phrase``: "that's why", "that's how")."""
    phrases = grammar.derived(
        "telling_phrases",
        lambda g: sorted(
            (tuple(p.split()) for p in g.guard_words.get("telling_phrase", ())),
            key=len,
            reverse=True,
        ),
    )
    out: list[str] = []
    i = 0
    while i < len(words):
        told = phrase_at(words, i, phrases)
        if not told:
            out.append(words[i])
        i += told or 1
    return out


ANSWER_INTENTS = frozenset({"affirm", "deny"})
"""A yes or a no: beside a sentence of its own, it only opens or closes it."""


def _says_more(parser: Matcher, remark: list[str], allowed: frozenset[str] | None) -> bool:
    """Is ``remark`` a sentence of the templates that is no yes or no ("So yeah, that's
    it. Done.")?"""
    said = parser.exact(" ".join(remark), allowed)
    return said is not None and said.name not in ANSWER_INTENTS


def _another(said: Intent | None, found: Intent) -> bool:
    """Is ``said`` a sentence that says something else than ``found`` ("Yellow phone.
    Yep, yellow." says it again)?"""
    return said is not None and (
        said.name != found.name or any(found.slots.get(k, v) != v for k, v in said.slots.items())
    )


def _asks_beside(
    parser: Matcher, remark: list[str], found: Intent, allowed: frozenset[str] | None
) -> bool:
    """A question said beside a question or request that only tells something, after or
    before a pause: "What do I do now? Help.", "Welcher Stapel war das? Sag nochmal
    bitte." It asks what the sentence asks, in other words; it may name no value (a
    colour, a player, a word card: "Rot. Wer ist dran?" is a move and a question) and
    no part of it may be a sentence of its own."""
    if found.name not in parser.grammar.question_intents or found.slots:
        return False
    if parser.exact(" ".join(remark), allowed) is not None:
        return False
    fallback = parser.fallback
    spans = fallback.spans(fallback.tokens(" ".join(remark)))
    return not any(span.slot in VALUE_SLOTS for span in spans)


def _only_remark(
    parser: Matcher,
    remark: list[str],
    slots: Mapping[str, Any],
    possible: Mapping[str, frozenset[Any]],
    may_deny: bool = False,
    taken: frozenset[str] | None = None,
) -> bool:
    """Do the words of a remark name nothing of the game but what the sentence named
    ("yellow, because the sun is yellow"), and ask or deny nothing? ``may_deny``: beside
    a request that moves nothing, it may deny and name things ("kurz anhalten bitte, das
    Telefon klingelt"); it only may not ask."""
    grammar = parser.grammar
    guard = grammar.guard_words
    lead = grammar.opening(remark)  # "so wie ein echter Mülleimer", "just like chalk"
    granting = guard.get("concession", frozenset())
    if lead < len(remark) - 1 and remark[lead + 1] in granting:
        lead += remark[lead] in grammar.frames.inside  # "even though"
    if lead < len(remark) and remark[lead] in grammar.frames.asides:
        words = remark[lead + 1 :]
    else:
        words = remark
    words = _without_telling(grammar, _compared(grammar, words))  # "let's see if he knows"
    forbidden = remark_forbidden(grammar)
    # a reason that denies ("weil rot nicht geht", "because I haven't got red") tells why
    # this and not another: it may name other values of the move's own lists, never ask,
    # weigh or name someone ("lila, weil Ben das will" stays advice)
    refusal = guard.get("refusal", frozenset())
    opened = len(words) < len(remark)
    reason = opened and remark[lead] in guard.get("reason", frozenset())
    if opened and remark[lead] in granting:
        # "orange, obwohl rot besser passen würd": it weighs the other side, and grants it
        forbidden = forbidden - guard.get("hedge", frozenset())
        reason = True
    if may_deny and grammar.opens_with(words, "refusal"):
        return False  # "… nicht verstanden", but "Pause. Ach nee, doch nicht." takes it back
    if may_deny or reason:
        forbidden = forbidden - refusal
    if may_deny and _indirect(parser, words):  # "ich weiß nicht mehr, was ich erzählt hab"
        forbidden = forbidden - guard.get("question_word", frozenset())
    if any(w in forbidden or (w.endswith("n't") and not (may_deny or reason)) for w in words):
        return False
    if words and words[0] in guard.get("question_start", frozenset()) and not opened:
        # verb first is a question, unless a particle says it tells ("ist ja klar")
        if not (len(words) > 1 and words[1] in guard.get("telling", frozenset())):
            return False
    fallback = parser.fallback
    spans = fallback.spans(fallback.tokens(" ".join(remark)))
    if may_deny:
        # it may name the phone that rings, never a value the phase's move would take
        # now: "okay, Ball in Blau" is the move, not "okay" and a remark
        return not any(
            span.value in possible.get(span.slot, ()) and span.slot not in slots for span in spans
        )
    about_someone = any(slot in PERSONAL_SLOTS or slot == "player" for slot in slots)
    return all(
        slots.get(span.slot) == span.value
        or (reason and span.slot in slots and span.slot not in PERSONAL_SLOTS)
        # the one value the phase allows: the object in play ("…, weil die Blume sonst so
        # traurig aussieht" while the flower is coloured)
        or possible.get(span.slot) == frozenset({span.value})
        or (span.slot in possible and span.value not in possible[span.slot])
        or (span.slot in PERSONAL_SLOTS and not about_someone)
        or (span.slot in STORY_SLOTS and possible and span.slot not in possible)
        or (taken is not None and span.slot not in taken)
        for span in spans
    )


def _compared(grammar: Grammar, words: list[str]) -> list[str]:
    """``words`` without the likeness word of a comparison they open with a degree word:
    "so knallgelb wie Gummistiefel", "so rot wie 'ne Tomate" compare; their "wie" asks
    nothing."""
    if not words or words[0] not in grammar.guard_words.get("degree", frozenset()):
        return words
    likeness = grammar.frames.likeness
    for i in range(2, min(len(words), 4)):
        if words[i] in likeness:
            return words[1:i] + words[i + 1 :]
    return words


def _indirect(parser: Matcher, words: list[str]) -> bool:
    """Do ``words`` open with an indirect question, a question word and then who it is
    about ("was ich da erzählt hab", "what my story was"), not a question of their own
    ("was hast du gesagt", "what did you say")?"""
    guard = parser.grammar.guard_words
    if len(words) < 3 or words[0] not in guard.get("question_word", frozenset()):
        return False
    after = words[1]
    return after in guard.get("subject", frozenset()) or parser.fallback.slot_of(after) == "self"


STORY_SLOTS = frozenset({"word"})
"""Lists whose values are a story's words where the phase takes none of them: "brown,
because of the camping trip" names no word card while the colours are shown."""


def _taken(parser: Matcher, allowed: frozenset[str] | None) -> frozenset[str] | None:
    """The slots any sentence of the phase can fill (``None``: any phase). A value of
    another list in a remark only describes: "der Jonas, mit seinen grünen Socken" while
    who starts is chosen names no colour of the game."""
    if allowed is None:
        return None
    models = parser.fallback.models
    return frozenset(
        slot
        for name in allowed
        if name in models
        for combo in models[name].combos
        for slot in combo
    )


PERSONAL_SLOTS = frozenset({"self"})
"""Slots a pronoun fills ("meine", "ich", "my"): in a remark beside a sentence about no
player they are only the speaker talking ("rosa, weil meine Schultüte rosa war"); beside
one about a player they may say whose it is, and the remark is more than a remark."""


def _contrast(parser: Matcher, remark: list[str], slots: Mapping[str, Any]) -> bool:
    """Is the remark "not" and other values of the sentence's own slots, said together
    ("grün, nicht blau", "red, not orange")? It only says the sentence again ("red, no,
    orange", with a pause after "no", takes red back: :mod:`.retraction`)."""
    fallback = parser.fallback
    tokens = fallback.tokens(" ".join(remark))
    guard = parser.grammar.guard_words
    refusal = guard.get("refusal", frozenset())
    if len(tokens) < 2 or tokens[0] not in refusal:
        return False
    if tokens[0] in guard.get("answer_no", frozenset()):
        return False  # "rot, nee doch orange" takes red back (:mod:`.retraction`)
    rest = tokens[1:]
    spans = fallback.spans(rest)
    stop = parser.grammar.guard_words.get("stop", frozenset())
    covered = {i for span in spans for i in range(span.start, span.end)}
    return (
        bool(spans)
        and all(slots.get(span.slot) not in (None, span.value) for span in spans)
        and all(i in covered or w in stop for i, w in enumerate(rest))
    )
