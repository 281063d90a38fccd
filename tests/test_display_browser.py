"""The table view in a real browser (Debian's headless chromium via selenium): each game
played by script while the page updates itself live; what it must show at each step,
that no secret is ever in it, and axe-core's accessibility check."""

from __future__ import annotations

from pathlib import Path

import pytest
from display_games import AXE, GAMES, axe_violations, chromium

from voice.display.server import TableServer


@pytest.fixture(scope="module")
def browser():
    assert AXE.is_file(), "axe-core is missing: run ./setup.sh (npm install)"
    driver = chromium()
    driver.set_script_timeout(20)
    yield driver
    driver.quit()


def _fresh(read):
    """The live update replaces the view's elements between finding one and reading it:
    read again from a fresh find (a few times) instead of failing on a stale element."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(9):
        try:
            return read()
        except StaleElementReferenceException:
            continue
    return read()


def _text(driver) -> str:
    return _fresh(lambda: driver.find_element("id", "view").text)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_view_follows_a_game_live_and_keeps_its_secrets(browser, tmp_path: Path, name: str):
    from selenium.webdriver.support.ui import WebDriverWait

    save = tmp_path / "game.jsonl"
    steps = GAMES[name](save)
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    try:
        port = server.server_address[1]
        first = True
        for _, must, never in steps:
            if first:
                browser.get(f"http://127.0.0.1:{port}/")
                first = False
            try:  # live: the page changes itself (server-sent events), within a second or so
                WebDriverWait(browser, 3, poll_frequency=0.1).until(
                    lambda d, must=must: all(m in _text(d) for m in must)
                )
            except Exception:  # noqa: BLE001 - say what the page showed instead
                pytest.fail(f"{name}: the page lacks {must}; it shows:\n{_text(browser)}")
            page = browser.page_source
            for secret in never:
                assert secret not in _text(browser), f"{name}: {secret!r} is shown"
            assert "Potato" not in page or name != "pantone" or "Artist: Ben" in _text(browser)
        bad = axe_violations(browser)
        assert not bad, [(v["id"], v["help"]) for v in bad]
        # the dark theme, on a phone-sized screen (= 1280 px zoomed to 400%): no sideways
        # scrolling, and the same check (contrast 7:1 included)
        browser.set_window_size(320, 800)
        browser.get(f"http://127.0.0.1:{port}/?theme=dark")
        wide = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 1, f"{name}: {wide} px sideways scrolling at 320 px"
        bad = axe_violations(browser)
        assert not bad, [(v["id"], v["help"], v["nodes"][0]["html"]) for v in bad]
        browser.set_window_size(1280, 1000)
        assert browser.find_element("id", "news").get_attribute("aria-live") == "polite"
        size = browser.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
        assert size >= 28
    finally:
        server.stop()


def test_the_private_page_in_the_browser(browser, tmp_path: Path) -> None:
    """A phone opens the public address, picks "Ich bin Anna" and sees her cards; another
    phone cannot pick her too, and neither it nor the shared screen sees them."""
    from display_games import start
    from selenium.webdriver.support.ui import WebDriverWait

    from voice.display.private import start_phones

    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "de", ("Anna", "Ben"), "Anna", cards="deal")
    start_phones(save, keep=False)
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    hand = session.game.hands["Anna"]
    names = [session.game.deck[n - 1].name for n in hand]
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        browser.delete_all_cookies()
        browser.get(f"{base}/")
        assert not any(name in browser.page_source for name in names)
        browser.find_element("xpath", "//button[normalize-space()='Ich bin Anna']").click()
        WebDriverWait(browser, 3).until(lambda d: d.current_url == f"{base}/me")
        assert all(name in _text(browser) for name in names)
        session.hear("die erste Karte ablegen")
        WebDriverWait(browser, 3, poll_frequency=0.1).until(lambda d: "Vorher" in _text(d))
        bad = axe_violations(browser)
        assert not bad, [(v["id"], v["help"]) for v in bad]
        browser.get(f"{base}/")  # Anna's phone: her page is one tap away
        assert "Das ist Annas Handy" in _phones(browser)
        browser.delete_all_cookies()  # another phone (Ben's)
        browser.get(f"{base}/")
        phones = _phones(browser)
        assert "Ich bin Anna" not in phones and "Annas Handy ist verbunden" in phones
        bad = axe_violations(browser)  # the names to pick, on the shared page
        assert not bad, [(v["id"], v["help"]) for v in bad]
        browser.get(f"{base}/me")  # no claim: back to the names, nothing of Anna's
        assert browser.current_url.startswith(f"{base}/") and not any(
            n in browser.page_source for n in names
        )
        browser.find_element("xpath", "//button[normalize-space()='Ich bin Ben']").click()
        WebDriverWait(browser, 3).until(lambda d: d.current_url == f"{base}/me")
        assert "Ben" in _text(browser) and not any(name in browser.page_source for name in names)
    finally:
        server.stop()
        browser.delete_all_cookies()


def _phones(driver) -> str:
    return str(driver.find_element("id", "phones").text)


def _count(driver) -> int:
    return int(_fresh(lambda: driver.find_element("css selector", ".count").text))


def test_paused_clocks_stand_still_in_the_browser(browser, tmp_path: Path) -> None:
    """The page's own countdown runs while the painting runs, stands still under "the clocks
    stand still", and goes on after "continue" from where it stood."""
    import time

    from display_games import start
    from selenium.webdriver.support.ui import WebDriverWait

    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    session.hear("card 1")
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        first = _count(browser)
        WebDriverWait(browser, 4, poll_frequency=0.1).until(lambda d: _count(d) < first)
        session.hear("pause")
        WebDriverWait(browser, 3, poll_frequency=0.1).until(
            lambda d: "the clocks stand still" in _text(d)
        )
        still = _count(browser)
        time.sleep(2.5)
        assert _count(browser) == still, "the countdown runs on in the pause"
        browser.refresh()
        assert _count(browser) == still
        session.hear("continue")
        WebDriverWait(browser, 3, poll_frequency=0.1).until(
            lambda d: "the clocks stand still" not in _text(d)
        )
        assert _count(browser) >= still - 1
        WebDriverWait(browser, 4, poll_frequency=0.1).until(lambda d: _count(d) < still)
    finally:
        server.stop()


def _banner(driver) -> str:
    banner = driver.find_element("id", "banner")
    assert banner.get_attribute("role") == "alert"
    return banner.text if banner.is_displayed() else ""


def test_a_lost_stream_shows_a_banner_and_it_goes_when_the_stream_is_back(
    browser, tmp_path: Path
) -> None:
    from display_games import start
    from selenium.webdriver.support.ui import WebDriverWait

    save = tmp_path / "game.jsonl"
    start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna").hear("card 1")
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    port = server.server_address[1]
    browser.get(f"http://127.0.0.1:{port}/")
    WebDriverWait(browser, 3, poll_frequency=0.1).until(
        lambda d: d.find_element("id", "conn").text == "Live"
    )
    assert _banner(browser) == ""
    server.stop()  # the game's view is gone
    WebDriverWait(browser, 6, poll_frequency=0.1).until(lambda d: "Connection lost" in _banner(d))
    assert browser.find_element("id", "conn").text != "Live"
    again = TableServer(save, "127.0.0.1", port)
    again.serve_in_thread()
    try:
        WebDriverWait(browser, 6, poll_frequency=0.1).until(lambda d: _banner(d) == "")
    finally:
        again.stop()


def test_a_stream_that_stalls_shows_a_banner(browser, tmp_path: Path, monkeypatch) -> None:
    """No update and no heartbeat for STALL_SECONDS (20 s; 2 s here): the page says that
    what it shows may be old."""
    import asyncio

    from display_games import start
    from selenium.webdriver.support.ui import WebDriverWait

    import voice.display.server as server_module

    async def silent(self, answer, player) -> None:  # a stream that says nothing, ever
        await asyncio.sleep(3600)

    monkeypatch.setattr(server_module, "STALL_SECONDS", 2)
    monkeypatch.setattr(server_module._Handler, "_updates", silent)
    save = tmp_path / "game.jsonl"
    start(save, "pantone", "de", ("Anna", "Ben", "Cem"), "Anna").hear("Karte 1")
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        assert _banner(browser) == ""
        WebDriverWait(browser, 20, poll_frequency=0.1).until(
            lambda d: "Seit 2 Sekunden kein Lebenszeichen" in _banner(d)
        )
    finally:
        server.stop()


def test_the_end_of_the_game_is_a_large_banner_announced_to_screen_readers(
    browser, tmp_path: Path
) -> None:
    from display_games import start
    from selenium.webdriver.support.ui import WebDriverWait

    from games.alle_meine_farben import CELLS, column_of, row_of

    order = ["red", "yellow", "green", "blue", "orange", "pink", "purple"]
    save = tmp_path / "game.jsonl"
    session = start(save, "alle-meine-farben", "en", ("Anna", "Ben"), "Anna")
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        assert not browser.find_elements("css selector", ".over")
        for n in range(1, CELLS + 1):  # a colouring that keeps the rules
            session.hear(order[(row_of(n) - 1 + 2 * (column_of(n) - 1)) % 7])
        WebDriverWait(browser, 3, poll_frequency=0.1).until(
            lambda d: "The game is over." in _text(d)
        )
        over = browser.find_element("css selector", ".over")
        assert over.get_attribute("role") == "alert" and "The game is over." in over.text
        body = browser.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
        size = browser.execute_script(
            "return parseFloat(getComputedStyle(arguments[0]).fontSize)", over
        )
        assert size >= 1.5 * body
        assert "You won together" in _text(browser)  # (the last thing the table heard)
        bad = axe_violations(browser)
        assert not bad, [(v["id"], v["help"]) for v in bad]
    finally:
        server.stop()
