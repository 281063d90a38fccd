# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""The table view of Farben: the round's word card and chosen word, who tells, the stacks
done; while scoring, the stack being named and the cards turned over so far."""

from __future__ import annotations

from typing import Any

from games.farben import ROUNDS
from voice.display.state import TableState
from voice.display.views import esc, game_over, score_table, swatch, word


def render(state: TableState, lang: str) -> tuple[str, str, str]:
    """The title, the main content and the live region's summary (see ``GameView``)."""
    game: Any = state.game
    parts = [f"<h1>{esc(word(lang, 'farben'))}</h1>"]
    phase = game.stage
    news = ""
    if phase in ("side", "choosing", "reveal", "story"):
        round_text = word(lang, "round", round=game.round + 1, rounds=ROUNDS)
        card = game.cards[game.round]
        parts.append(f'<p class="sub">{esc(round_text)}</p>')
        parts.append(
            f'<p class="big">{esc(word(lang, "word_card"))}: '
            f"<strong>{esc(card[0])}</strong> / <strong>{esc(card[1])}</strong></p>"
        )
        news = round_text
        if game.word is not None:
            parts.append(
                f'<p class="huge">{esc(word(lang, "chosen_word"))}: '
                f"<strong>{esc(game.word)}</strong></p>"
            )
            news += f". {word(lang, 'chosen_word')}: {game.word}"
        else:
            parts.append(
                f'<p class="big turn">{esc(word(lang, "turn"))}: '
                f"<strong>{esc(game.starter)}</strong></p>"
            )
        if phase in ("reveal", "story"):
            teller = game.teller
            parts.append(
                f'<p class="big turn">{esc(word(lang, "teller"))}: <strong>{esc(teller)}</strong></p>'
            )
            news += f". {word(lang, 'teller')}: {teller}"
            if phase == "story":  # the teller holds the card up now: the table sees it
                colour = game.stacks[-1].colours.get(teller)
                if colour:
                    shown = word(lang, "shows", player=teller, colour="§")
                    before, _, after = esc(shown).partition("§")
                    parts.append(f'<p class="big">{before}{swatch(lang, colour)}{after}</p>')
        done = game.stacks[:-1] if game.word is not None else game.stacks
        if done:
            items = "".join(
                f"<li>{esc(s.word)} · {esc(word(lang, 'cards_on_stack', count=len(s.colours)))}</li>"
                for s in done
            )
            parts.append(
                f'<section aria-labelledby="h-done"><h2 id="h-done">{esc(word(lang, "stacks_done"))}'
                f'</h2><ul class="stacks">{items}</ul></section>'
            )
    elif phase in ("choose_stack", "naming"):
        parts.append(f'<p class="sub">{esc(word(lang, "scoring"))}</p>')
        namer = game.namer
        parts.append(f'<p class="big turn">{esc(word(lang, "namer", player=namer))}</p>')
        news = word(lang, "namer", player=namer)
        if game.stack is not None:
            parts.append(
                f'<p class="huge">{esc(word(lang, "scoring_stack", word=game.stack.word))}</p>'
            )
            news += ". " + word(lang, "scoring_stack", word=game.stack.word)
            parts.append(_stack_cards(lang, game.stack))
        else:
            parts.append(f'<p class="big">{esc(word(lang, "no_stack_yet"))}</p>')
        done = [s for s in game.stacks if s.scored_by is not None and s is not game.stack]
        waiting = [s for s in game.stacks if s.scored_by is None and s is not game.stack]
        for key, stacks in (("stacks_done", done), ("stacks_waiting", waiting)):
            if stacks:
                items = "".join(f"<li>{esc(s.word)}{_revealed_list(lang, s)}</li>" for s in stacks)
                parts.append(
                    f'<section aria-labelledby="h-{key}"><h2 id="h-{key}">{esc(word(lang, key))}'
                    f'</h2><ul class="stacks">{items}</ul></section>'
                )
    elif phase == "over":
        parts.append(game_over(lang, game.result()))
        news = word(lang, "over")
    parts.append(score_table(lang, game.scores))
    return word(lang, "farben"), "".join(parts), news


def _stack_cards(lang: str, stack: Any) -> str:
    items = []
    for player in stack.colours:
        if player in stack.revealed:
            items.append(f"<li>{esc(player)}: {swatch(lang, stack.colours[player])}</li>")
        else:
            items.append(
                f'<li>{esc(player)}: <span class="facedown">{esc(word(lang, "face_down"))}</span></li>'
            )
    return f'<ul class="stackcards">{"".join(items)}</ul>'


def _revealed_list(lang: str, stack: Any) -> str:
    shown = [p for p in stack.colours if p in stack.revealed]
    if not shown:
        return ""
    return ": " + ", ".join(f"{esc(p)} {swatch(lang, stack.colours[p])}" for p in shown)
