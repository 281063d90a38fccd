# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""Scripted games for the table view's browser test and its screenshot command.

Each game is played in-process through a real :class:`Session` writing a real journal;
after each step the test looks at the page a real browser shows. A step is
``(lines to say, texts the page must show, texts it must never show)``.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from games.engine import Setup
from voice.output.sinks import JsonOutput, RecordingOutput
from voice.session.adapters import ADAPTERS
from voice.session.journal import Header, Journal
from voice.session.session import Session

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
Step = tuple[list[str], list[str], list[str]]


def start(
    save: Path, game: str, lang: str, players: tuple[str, ...], first: str, **options: Any
) -> Session:
    adapter = ADAPTERS[game]
    setup = Setup(players, 5, first, {**adapter.default_options(lang), **options})
    journal = Journal.create(save, Header(game, lang, setup))
    session = Session(adapter, lang, setup, JsonOutput(io.StringIO()), journal=journal,
                      private=RecordingOutput())  # fmt: skip
    session.start()
    return session


def pantone(save: Path) -> Iterator[Step]:
    s = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    secret = "Mr. Potato Head"
    yield (
        [],
        ["Artist: Anna", "The Artist chooses a character", "Phase 1: all swatches allowed"],
        [secret],
    )
    s.hear("card 1")
    yield [], ["The Artist is painting", "Painting time left"], [secret, "Potato"]
    s.hear("on the board: two yellow at the top, black in the middle")
    yield [], ["2 ×", "yellow", "at the top", "black", "in the middle"], [secret]
    s.hear("done")
    yield [], ["Guessing now: Ben", "Guess time left", "Guessing order"], [secret]
    s.hear("is it pinocchio")
    s.hear("pass")
    yield [], ["Hints read so far", "Plastic", "Guessing now: Ben"], [secret, "Potato"]
    s.hear("mister potato head")
    yield [], ["Artist: Ben", "Anna 4", "Ben 4", "Cem 0"], []


def amf_profi(save: Path) -> Iterator[Step]:
    s = start(save, "alle-meine-farben", "de", ("Anna", "Ben"), "Anna", variant="profi")
    yield [], ["Jetzt: Nummer 1, Ball", "Am Zug: Anna", "Profi-Variante"], []
    s.hear("rot")
    yield [], ["Jetzt: Nummer 2, Hut", "verdeckt", "Am Zug: Ben"], ["rot"]
    s.hear("gelb")
    yield [], ["Jetzt: Nummer 3, Säge"], ["rot", "gelb"]


def amf_basic(save: Path) -> Iterator[Step]:
    s = start(save, "alle-meine-farben", "en", ("Anna", "Ben"), "Anna")
    yield [], ["Now: number 1, ball", "Turn: Anna", "Cards in the pile: 22"], []
    s.hear("red")
    yield [], ["Now: number 2, hat", "red", "Turn: Ben", "Cards in the pile: 21"], []


def farben(save: Path) -> Iterator[Step]:
    s = start(save, "farben", "en", ("Julia", "Tom", "Uma"), "Julia")
    game: Any = s.game
    yield [], ["Round 1 of 10", "Word card", "Turn: Julia"], []
    colours = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "white", "black",
               "grey", "brown", "multicoloured"]  # fmt: skip
    for r in range(10):
        word = game.cards[game.round][0]
        s.hear(word)
        if r == 0:
            yield [], [f"Chosen word: {word}"], []
        s.hear("ready")
        for i in range(3):
            teller = game.teller
            colour = colours[(r + {"Julia": 0, "Tom": 4, "Uma": 8}[teller]) % 12]
            s.hear(f"I chose {colour}")
            if r == 0 and i == 0:
                yield [], [f"Telling: {teller}", f"{teller} shows", colour], []
            s.hear("done")
            if r == 0 and i == 0:
                # the card lies face down again: its colour is no longer on the table
                yield [], [f"Telling: {game.teller}"], [f"{teller} shows"]
    yield [], ["Scoring", "Naming:"], []
    stack_word = game.stacks[0].word
    s.hear(stack_word)
    secret = dict(game.stacks[0].colours)
    namer = game.namer
    # every card on the stack is face down: none of its colours is anywhere on the page
    yield (
        [],
        [f"Stack now: {stack_word}"] + [f"{p}: face down" for p in secret],
        list(secret.values()),
    )
    other = next(p for p in secret if p != namer)
    s.hear(f"{other} played {secret[other]}")
    still = [p for p in secret if p != other]
    yield [], [secret[other]] + [f"{p}: face down" for p in still], [secret[p] for p in still]


GAMES = {"pantone": pantone, "amf-profi": amf_profi, "amf-basic": amf_basic, "farben": farben}


def chromium() -> Any:
    """A headless Debian chromium driven by selenium (the driver from Debian too)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,1000", "--force-prefers-reduced-motion"):  # fmt: skip
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the current page (serious and critical only)."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations'],"
        " rules: {'color-contrast-enhanced': {enabled: true}}})"  # AAA: contrast 7:1
        ".then(r => done(JSON.stringify(r.violations)))"
        ".catch(e => done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e)}])));"
    )
    return [v for v in json.loads(result) if v.get("impact") in ("serious", "critical")]
