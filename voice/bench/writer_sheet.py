"""What a held-out writer needs, and nothing of the grammars or corpora (issue 24, item 2).

    python -m voice.bench.writer_sheet --out DIR

Writes ``DIR/<game>.<lang>.md``: the table (players), each situation the held-out files may
start from (``before: NAME``), told by what farbspiel has just said there and which
intents the phase takes, and every intent's meaning with the slots ``expect`` must give.
It plays each situation of ``tests/understanding/`` but prints none of its script lines
or corpus sentences, so a writer can work from it without having seen how farbspiel is
taught to understand.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml

from voice.bench.understanding import Tables, _entry_cases, _intent_names, _read, corpus_files

MEANING: dict[str, str] = {
    # every game
    "help": "asks what can be said now. slots: {}",
    "more_help": "asks for more help than the short help (the rules in more detail). slots: {}",
    "repeat": "asks farbspiel to say the last thing again. slots: {}",
    "undo": "takes back the last move. slots: {}",
    "pause": "pauses the game (clocks stop). slots: {}",
    "continue": "goes on after a pause. slots: {}",
    "quit": "ends the session. slots: {}",
    "slower": "asks farbspiel to speak slower. slots: {}",
    "faster": "asks farbspiel to speak faster. slots: {}",
    "score": "asks for the points (optionally one player's). slots: {} or {player: NAME}",
    "whose_turn": "asks whose turn it is (or whether it is NAME's turn). slots: {} or "
    "{player: NAME}",
    "status": "asks where the game stands overall. slots: {}",
    "affirm": "yes, answering a question farbspiel just asked. slots: {}",
    "deny": "no, answering a question farbspiel just asked. slots: {}",
    "correction": "takes back the move just made and says the right one instead, right "
    "after it (e.g. the colour was misheard). slots: {colour: COLOUR} (Alle meine Farben, "
    "Farben) ",
    "choose_first": "says who begins at the very start. slots: {player: NAME}",
    "random_first": "asks farbspiel to pick who begins. slots: {}",
    "talk": "(internal: plain talk; never expect it, write never_move instead)",
    # Alle meine Farben
    "place": "the player whose turn it is lays a colour card on the object now asked for "
    "(paints it). slots: {colour: COLOUR, object: N} (N = the object's number below; the "
    "object may be left out of the sentence when it is the one asked for)",
    "pass": "Alle meine Farben: the player cannot or will not lay a card and passes. "
    "Pantone: the guesser passes (gives up this guess). slots: {}",
    "allowed_colours": "asks which colours may be laid now (or whether COLOUR may). slots: "
    "{} or {colour: COLOUR}",
    "board_row": "asks what lies in row N of the grid (1-4, top to bottom). slots: {index: N}",
    "board_column": "asks what lies in column N of the grid (1-5, left to right). slots: "
    "{index: N}",
    "whole_board": "asks for the whole grid read out. slots: {}",
    "where_is": "asks where an object is in the grid. slots: {object: N}",
    "object_colour": "asks which colour an object got. slots: {object: N}",
    "placed": "(the assistant's move said by the table; do not write it)",
    "assistant_cards": "asks which cards the assistant (the computer's seat) holds. slots: {}",
    # Farben
    "choose_side": "the chooser picks one of the two words on the word card, by the word or "
    "by position (first/second). slots: {word: WORD} or {side: 1|2}",
    "ready": "the players say they have all chosen their colour card in secret. slots: {}",
    "reveal": "a player says which colour card they chose (shows it). slots: {colour: COLOUR}",
    "done": "Farben: the storyteller / namer is finished. Pantone: the Artist is finished "
    "laying swatches. slots: {}",
    "choose_stack": "picks the next word stack to name colours for (optionally for "
    "PLAYER). slots: {word: WORD} or {word: WORD, player: NAME}",
    "name_colour": "in the scoring round the namer says which colour a player chose for the "
    "word (or their own). slots: {colour: COLOUR, player: NAME} or {colour: COLOUR, self: "
    "true}",
    "hint": "the namer asks for a hint (optionally from NAME). slots: {} or {player: NAME}",
    "forgot": "the hint-giver says they forgot their colour / have no hint. slots: {}",
    "dont_know": "the namer says they do not know. slots: {}",
    "left_to_name": "asks whose colours are still to be named. slots: {}",
    "stacks_left": "asks which word stacks are left. slots: {}",
    "colours_left": "asks which colour cards PLAYER (or the speaker) still holds in hand, "
    "not yet played. slots: {player: NAME} or {self: true}",
    "words": "asks what the words are. slots: {}",
    "colour_of": "asks which colour PLAYER chose for WORD (only after it was shown). slots: "
    "{player: NAME, word: WORD}",
    "unknown_player": "a name that is not at the table. slots: {colour: COLOUR, stranger: name}",
    "time_left": "asks about the remaining time. slots: {}",
    # Pantone
    "choose": "the Artist says the number of the card they chose (printed cards). slots: {card: N}",
    "guess": "the guesser whose window it is names a character. slots: {character: NAME} "
    "(the character's name as in the list below; a name not in the list is still a guess, "
    "written as said)",
    "penalty": "the table says PLAYER broke a rule (e.g. the Artist talked). slots: {player: NAME}",
    "hints": "asks what the Artist has laid so far (read out). slots: {}",
    "last_hint": "asks what the Artist laid last. slots: {}",
    "phase_info": "asks what is going on now / what happens now. slots: {}",
    "my_cards": "asks for one's own cards (private; farbspiel refuses at the table). slots: {}",
    "board": "the Artist describes swatches laid (colour, count, place). slots: {items: "
    "[{colour: COLOUR, count: N, place: top|bottom|left|right|middle}]}",
    "board_query": "asks about the swatches (how many, which). slots: {}",
    "hint_words": "(internal)",
    "thinking": "thinking aloud in one's guess window, no guess yet. slots: {}",
    "correct": "the Artist says a guess was right. slots: {}",
    "wrong": "the Artist says a guess was wrong. slots: {}",
    "discard": "the Artist discards the chosen card. slots: {}",
    "far_card": "(internal)",
}


def sheet(path: Path) -> str:
    game, lang, doc = _read(path)
    setup = doc.get("setup") or {}
    situations: dict[str, Any] = doc.get("situations") or {}
    tables = Tables()
    lines = [
        f"# Writer's sheet: {game}, language {lang}",
        "",
        f"Players at the table: {', '.join(setup.get('players', []))}"
        + (f"; {setup['first']} begins." if setup.get("first") else "."),
    ]
    words = (setup.get("options") or {}).get("words")
    if words:
        lines.append(
            "Word cards of this game, in order: " + "; ".join(" / ".join(w) for w in words)
        )
    lines += ["", "## Situations (`before: NAME`)", ""]
    names = list(situations) or [""]
    for name in names:
        entry: dict[str, object] = {"text": "x", "never_move": True}
        if name:
            entry["before"] = name
        (case,) = _entry_cases(game, lang, entry, setup, situations, "sheet")
        session = tables.session(case)
        phase = session.phase()
        said = list(getattr(session.out, "said", []))[-3:]
        lines.append(f"### {name or '(no before: the very start)'}")
        lines.append("farbspiel has just said: " + " | ".join(f"“{s}”" for s in said))
        note = situations[name].get("note") if isinstance(situations.get(name), dict) else None
        if note:
            lines.append(f"What is going on: {note}")
        intents = sorted(i for i in phase.intents if not MEANING.get(i, "(").startswith("("))
        lines.append("intents this phase takes: " + ", ".join(intents))
        lines.append("")
    lines += ["## Intents", ""]
    known = _intent_names(game, lang)
    for intent, meaning in MEANING.items():
        if intent in known and not meaning.startswith("("):
            lines.append(f"- `{intent}`: {meaning}")
    return "\n".join(lines) + "\n"


def values(game: str, lang: str) -> str:
    """The slot values: colours and objects, or the Pantone deck's character names."""
    data = Path(__file__).resolve().parents[2] / "games" / "data"
    colours = yaml.safe_load((data / "colours.yaml").read_text(encoding="utf-8"))
    out = ["## Slot values", ""]
    out.append(
        "COLOUR (write the id): "
        + ", ".join(f"{cid} = {names[lang]}" for cid, names in colours.items())
    )
    if game == "alle-meine-farben":
        box = yaml.safe_load((data / "alle_meine_farben.yaml").read_text(encoding="utf-8"))
        out.append("Colours in this game: " + ", ".join(box["colours"]))
        out.append(
            "Objects N (asked for in this order, laid in a 5 x 4 grid row by row): "
            + ", ".join(f"{n} = {o[lang]}" for n, o in enumerate(box["objects"], start=1))
        )
    if game == "pantone":
        from games.pantone_deck import builtin_deck

        out.append(
            "Characters of the deck (card number: name): "
            + "; ".join(f"{n}: {c.name}" for n, c in enumerate(builtin_deck(lang), start=1))
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m voice.bench.writer_sheet")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in corpus_files():
        game, lang, _ = _read(path)
        text = sheet(path) + "\n" + values(game, lang)
        (args.out / f"{path.stem}.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
