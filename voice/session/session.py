"""The session: the one place that joins parser, engine, journal, timers and output.

Input arrives as text (typed, scripted or recognised, with a confidence) through
:meth:`Session.hear`, and time through :meth:`Session.tick`. The hub routes what is heard:
global commands (repeat, help, undo, pause, speech rate, quit ...) to their row in
:mod:`voice.session.commands`, answers and corrections to the yes/no dialogue
(:mod:`voice.session.dialogue`), game intents to the engine as actions or questions. The
assistant's seat (:mod:`voice.session.seat`) takes its turns after. What they share - the
game, its actions, the save file, the timers and what is said - is the
:class:`~voice.session.core.Table`. Every accepted action is journalled before it is
announced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.engine import Action, Event, GameError, Setup
from voice.output.sinks import Output
from voice.recognition.base import Transcript
from voice.session import choice, commands, dialogue
from voice.session.adapters.base import GameAdapter
from voice.session.core import HELD_DENY_FROM, SAY_BACK_FROM, Phase, Table
from voice.session.dialogue import CORRECTION, Dialogue
from voice.session.seat import SeatPlayer
from voice.understanding.intents import MAX_CHARS, Intent
from voice.understanding.policy import Decision, Verdict
from voice.understanding.talk import meant_for_game

__all__ = ["Phase", "Session"]

PHONE_CHECK = 1.0
"""Seconds between looks at the phones file while waiting for speech or keys."""

HUB_KEYS = frozenset(
    {"resumed", "resumed_paused", "journal_tail_dropped", "yes_or_no", "say_again", "still_paused"}
)
"""The message keys the hub says itself (on resuming, and to what is not heard now)."""


class Session(Table):
    """One game at one table."""

    ANSWER_KEYS = HUB_KEYS | commands.ANSWER_KEYS | dialogue.KEYS | choice.KEYS

    def __init__(
        self, adapter: GameAdapter, lang: str, setup: Setup, out: Output, **options: Any
    ) -> None:
        """``options``: those of :class:`Table` (the save file, the actions so far ...)."""
        super().__init__(adapter, lang, setup, out, **options)
        commands.check(self.grammar.global_intents)
        self.seat_player = SeatPlayer(self)
        self.dialogue = Dialogue(self, self.seat_player)

    # --- life cycle ------------------------------------------------------------------
    def start(self, resumed: bool = False, note_dropped_tail: bool = False) -> None:
        """Open the game: announce it, or (resumed) replay the journal and re-prompt.

        Raises :class:`JournalError` if the saved actions do not replay.
        """
        self.out.set_rate(self.rate)
        if resumed:
            if not self.replayed:
                self.check_replay()
            keys = ["resumed"] + (["journal_tail_dropped"] if note_dropped_tail else [])
            if self.paused:  # saved in a pause: the break goes on until the table says so
                self.timers.pause()
                self.respond([Event(k) for k in keys] + [Event("resumed_paused")])
            else:
                self.respond([Event(k) for k in keys] + self.game.prompt())
        else:
            self.respond(self.game.start())
        active = self.timers.active()
        self.sync_timers(active)
        self.timers.restore_ran(active)  # timers that had run before the pause
        if self.game.is_over():
            self.finished = True
        self.seat_player.play()

    def resume_in_pause(self, timers_ran: Mapping[str, float] | None = None) -> None:
        """The saved game was paused: :meth:`start` goes on in the pause, and the timers
        that were running go on from where they stood (``timers_ran``: seconds each had
        run, as the pause was journalled)."""
        self.paused = True
        self.timers.keep_ran(timers_ran or {})

    def reset_clock(self, now: float) -> None:
        """Start counting time from ``now`` (the real clock's reading)."""
        self.timers.reset(now)

    def tick(self, now: float) -> bool:
        """Let time pass up to ``now``: due timers apply their actions, in order (and the
        assistant takes the turn a timer may have given it). False once the game is over
        (a timer can end it). A move held before it counts (:meth:`Dialogue.hold`) counts
        once its moment is over; until then the timers stand still."""
        self.timers.now = max(self.timers.now, now)
        if self.dialogue.held is not None:
            if now < self.dialogue.held.due:
                self.phone_news()
                return not self.finished
            self.dialogue.release()
            self.seat_player.play()
        self.run_timers(now)
        self.seat_player.play()
        self.phone_news()
        return not self.finished

    def phone_news(self) -> None:
        """A phone picked its player on the table view: "Anna's phone is connected" (said
        once a claim, nothing else about it: no address, no link)."""
        if self.phones is not None:
            news = self.phones.news()
            if news:
                self.out.record({"type": "phones", "connected": [e.data["player"] for e in news]})
                self.say_only(news)

    def due_now(self) -> bool:
        """Whether a wait for input ended with something to say (a timer is due, a phone
        was connected), rather than only to look at the phones."""
        wait = self._next_due()
        return (wait is not None and wait <= 0) or (
            self.phones is not None and self.phones.pending()
        )

    def seconds_to_next_timer(self) -> float | None:
        """As :meth:`Table.seconds_to_next_timer`, but at most a second while phones may
        pick their players (so that the table hears of it at once)."""
        wait = self._next_due()
        if self.phones is not None and self.phones.on() and not self.finished:
            wait = PHONE_CHECK if wait is None else min(wait, PHONE_CHECK)
        return wait

    def _next_due(self) -> float | None:
        """Seconds until a held move counts or, with none held, the next timer fires."""
        held = self.dialogue.held_for()
        return held if held is not None else super().seconds_to_next_timer()

    # --- what recognisers need -------------------------------------------------------
    def phase(self) -> Phase:
        if self.question is not None or self.dialogue.held is not None:
            # a question, or a move said back and held: yes, no, "no, blue", and the
            # commands that may always be said (a small grammar: "no" is heard clearly)
            return self.dialogue.phase(commands.HEARD_WHILE_ASKING)
        if self.paused:
            return Phase(commands.HEARD_WHILE_PAUSED)
        expecting = self.game.expecting()
        # "nein, doch gelb" right after a move corrects it (not while a story is told)
        move = None if expecting.quiet else self.dialogue.correctable()
        correctable = not expecting.quiet and (
            move is not None or self.dialogue.refused_move() is not None
        )
        correction = {CORRECTION} if correctable else set()
        if self.dialogue.takes_back():  # "nein" right after a move said back, even in a story
            correction |= dialogue.ANSWERS
        # table talk is listened for where it could be taken for a move the phase expects
        quiet = (
            self.grammar.quiet_intents
            if expecting.intents & self.grammar.guarded_intents
            else set()
        )
        return Phase(
            expecting.intents | self.grammar.global_intents | quiet | correction,
            {k: tuple(v) for k, v in expecting.slots.items()},
            expecting.quiet,
            self.dialogue.corrected_values() if move is not None else {},
        )

    @property
    def awaiting(self) -> tuple[str, Action | None] | None:
        """The question farbspiel waits for: ``(kind, action)`` with kind ``"move"``,
        ``"choice"`` ("lila oder rosa?", ``action`` the likelier reading), ``"undo"``,
        ``"correct"`` or ``"quit"``; ``None`` when it asked nothing."""
        if self.question is None:
            return None
        return self.question.kind, self.question.action

    def phrases(self) -> list[str]:
        """The sentences a recogniser should listen for now (normalised, unique)."""
        phase = self.phase()
        intents = phase.intents
        if not self.paused:
            # "weiter" is only worth hearing while the game is paused; out of a pause a
            # recogniser pulled long table talk onto it ("Morgen fahren wir zu Oma und
            # Opa" heard as "mach weiter", measured). Typed, it is still answered.
            intents = intents - {"continue"}
        seen: dict[str, None] = {}
        for phrase, _ in self.grammar.phrases(intents, phase.slots):
            seen.setdefault(phrase, None)
        return list(seen)

    def phrase_names(self) -> tuple[str, ...]:
        """The names of more than one word that :meth:`phrases` may hold (players, Pantone's
        characters), for :meth:`Recogniser.set_phrases`."""
        return self.grammar.spoken_names(self.adapter.name_lists)

    def seat_moves(self, actions: Sequence[Action]) -> set[int]:
        """Which of ``actions`` (from the start of the game) the assistant made."""
        return self.seat_player.moves(actions)

    # --- input -----------------------------------------------------------------------
    def hear(self, text: str, confidence: float = 1.0) -> None:
        """Handle one utterance (typed, scripted or recognised)."""
        if self.finished:
            return
        phase = self.phase()
        intent = self.parser.parse(text, phase.intents, phase.slots, last=phase.last)
        if phase.quiet and (intent is None or intent.name not in phase.intents):
            # A story or a hint word: the assistant stays quiet and lets the table talk.
            self.out.record({"type": "ignored", "text": text[:MAX_CHARS]})
            self.seat_player.heard_talk()
            return
        if intent is not None and intent.name in self.grammar.quiet_intents:
            self.out.record({"type": "ignored", "text": text[:MAX_CHARS]})
            return  # table talk ("nicht gelb", "blau oder grün"): no move, no answer
        if intent is None and self._talk(text, phase):
            # plainly talk between people, or thinking aloud: no answer
            self.out.record({"type": "ignored", "text": text})
            return
        if intent is None:
            key = "too_long" if len(text) > MAX_CHARS else "not_understood"
            self.out.record({"type": "not_understood", "text": text[:MAX_CHARS]})
            self.say_only([Event(key)])
            return
        # words only guessed at (a near-miss, the fallback) are asked about, never said back
        sure = min(confidence, intent.score) if intent.score >= self.confirm_below else 0.0
        self._handle(intent, sure, phase)
        self.seat_player.play()

    def _talk(self, text: str, phase: Phase) -> bool:
        """Is ``text``, understood as nothing, talk between people (no answer) rather
        than meant for the game ("not understood")? A move the guard refused ("ich male
        den Hut nicht lila an", "did Cem play green", "Ben, take red") is talk with a game
        word in it; for the rest see :func:`voice.understanding.talk.meant_for_game`."""
        if len(text) > MAX_CHARS:
            return False
        if self.parser.refuses(text, phase.intents, phase.slots):
            return True
        return not meant_for_game(self.grammar, text)

    def hear_speech(self, transcript: Transcript) -> None:
        """Handle one recognised utterance: the play policy decides whether to act on it,
        confirm it first, ask again, or ignore it as table talk."""
        if self.finished:
            return
        phase = self.phase()
        answering = self.question is not None or self.dialogue.held is not None
        verdict = self.policy.decide(
            transcript, phase.intents, phase.slots, self.is_move, answering=answering
        )
        if phase.quiet and verdict.decision is Decision.ASK_AGAIN:
            # a story or a hint is being told: "say that again?" would interrupt it
            verdict = replace(verdict, decision=Decision.IGNORE)
        self.out.record(
            {
                "type": "heard",
                "text": transcript.text,
                "confidence": round(verdict.confidence, 3),
                "decision": verdict.decision.value,
            }
        )
        if self._against_held(transcript, verdict):
            return
        if verdict.decision is Decision.IGNORE:
            if phase.quiet:
                self.seat_player.heard_talk()
            return
        if verdict.decision is Decision.ASK_AGAIN or verdict.intent is None:
            self.say_only([Event("yes_or_no" if answering else "say_again")])
            return
        # the policy has decided; the confidence only tells the dialogue whether to confirm
        # (a move cheap to take back is then made and said back, not asked first - unless
        # it was said as a question, or its words were only guessed at)
        sure = 1.0 if verdict.decision is Decision.ACT else 0.0
        if sure == 0.0 and not transcript.question and verdict.intent.score >= self.confirm_below:
            sure = SAY_BACK_FROM
        rival = verdict.rival if verdict.decision is Decision.CONFIRM else None
        self._handle(verdict.intent, sure, phase, rival)
        self.seat_player.play()

    def _against_held(self, transcript: Transcript, verdict: Verdict) -> bool:
        """While a move is held, something heard too unsure to act on: a "nein" too unsure
        for anything else still drops it (:data:`HELD_DENY_FROM`); anything else, however
        unsure, may be a "no" lost in the noise, so the move is asked about (only silence
        lets it count). False if nothing is held, or it was heard clearly."""
        decision = verdict.decision
        if self.dialogue.held is None or not transcript.text:
            return False
        if decision is Decision.IGNORE and (
            verdict.intent is not None
            and verdict.intent.name == "deny"
            and verdict.confidence >= HELD_DENY_FROM
        ):
            self.dialogue.drop()
        elif decision in (Decision.IGNORE, Decision.ASK_AGAIN):
            self.dialogue.ask_held()
        else:
            return False
        return True

    def is_move(self, intent: Intent) -> bool:
        """Intents that change the game (and so are worth a confirmation)."""
        name = intent.name
        return (
            name in self.grammar.game_intents
            and name not in dialogue.ANSWERS
            and name not in self.adapter.queries
            and name not in self.adapter.status_intents
        )

    def _handle(
        self, intent: Intent, confidence: float, phase: Phase, rival: Intent | None = None
    ) -> None:
        if self.dialogue.settle_held(intent.name, intent.slots):
            return  # "ja" / "nein" to a move held; anything else made it count first
        if self.question is None and intent.name in dialogue.ANSWERS:
            # nothing asked, but the game waits for a yes-or-no move (the Artist's verdict)
            meant = self.adapter.yes_no_intent(intent.name == "affirm", self.game)
            if meant is not None:
                intent = Intent(meant, {}, intent.text, intent.score)
        name, slots = intent.name, intent.slots
        if name not in dialogue.ANSWERS and name != CORRECTION:
            self.dialogue.heard_other()  # "nein" now no longer takes back a move said back
        if self.dialogue.answer_heard(name, slots, phase):
            return
        if self.paused and name not in phase.intents:
            self.respond([Event("still_paused")])
            return
        if name in self.grammar.quiet_intents:
            return  # table talk the recogniser heard as such: let it be
        if name in self.grammar.global_intents:
            commands.run(name, commands.Call(self, self.dialogue, phase, slots))
            return
        if self.dialogue.unasked(name, slots, confidence):
            return
        # Intents the phase does not expect still go to the engine: it knows the reason
        # why not ("nobody may pass in the pro variant") and says it.
        if name in self.adapter.queries:
            self._ask(name, slots)
        elif name in self.adapter.status_intents:
            self.respond(self.game.status())
        else:
            action = self.adapter.action_for(intent, self.game)
            untold = self.adapter.untold(action, self.game) if self.private is None else None
            if untold is not None:  # e.g. a dealt card the Artist could not be told
                self.refuse(*untold)
                return
            aloud = self.adapter.said_aloud(action, self.game)
            if aloud is not None:  # e.g. a dealt card's deck number
                self.refuse(*aloud)
                return
            if rival is not None:  # two colours compete: "Meinst du lila oder rosa?"
                rival_action = self.adapter.action_for(rival, self.game)
                if choice.ask(self, action, rival_action, name):
                    return
            self.dialogue.move(action, confidence)

    def _ask(self, name: str, slots: Mapping[str, Any]) -> None:
        # Engines read no clock: questions get the seconds left on their timers.
        args = {**slots, "timers_left": self.timers.left()}
        try:
            self.respond(self.game.query(name, args))
        except GameError as exc:
            self.refuse(exc.key, exc.params)
