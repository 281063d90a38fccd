# ruff: noqa: E501 - HTML and test sentences read better unbroken
"""Each secret reaches its owner alone: phones claim their player on the public table
address; nothing private is ever on the shared page."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest
from display_games import start
from test_display_server import _get, claim_phone

from voice.display.lan import phone_host, reachable
from voice.display.private import load_claims, phones_file, release, start_phones
from voice.display.server import TableServer


@pytest.fixture()
def table(tmp_path: Path):
    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    session.hear("card 1")
    start_phones(save, keep=False)
    server = TableServer(save, "127.0.0.1", 0)
    server.serve_in_thread()
    yield server, save
    server.stop()


def _post(server: TableServer, body: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    conn.request(
        "POST",
        "/claim",
        body=body,
        headers={"Content-Type": "application/x-www-form-urlencoded", **(headers or {})},
    )
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response.status, text


def test_the_shared_page_offers_each_name_once_and_never_a_secret(table) -> None:
    server, save = table
    status, body = _get(server, "/")
    assert status == 200 and all(f"I am {p}" in body for p in ("Anna", "Ben", "Cem"))
    anna = claim_phone(server, "Anna")
    body = _get(server, "/")[
        1
    ]  # another screen (the shared one): Anna is taken, no link to her page
    assert (
        "I am Anna" not in body
        and "Anna&#x27;s phone is connected" in body
        and 'href="/me"' not in body
    )
    assert "Potato" not in body and "/p/" not in body
    mine = _get(server, "/", headers=anna)[1]  # Anna's own phone: the way to her page
    assert 'href="/me"' in mine and "Potato" not in mine
    status, page = _get(server, "/me", headers=anna)
    assert status == 200 and "Anna, your character is Mr. Potato Head" in page
    assert "Anna" in (load_claims(save) or {}) and (phones_file(save).stat().st_mode & 0o077) == 0


def test_a_second_phone_is_refused_until_the_claim_is_undone(table) -> None:
    server, save = table
    anna = claim_phone(server, "Anna")
    status, text = _post(server, "player=Anna")
    assert (
        status == 409
        and "Another phone has already picked Anna" in text
        and "disconnect Anna" in text
    )
    status, text = _post(server, "player=Ben", anna)  # one phone, one player
    assert status == 409 and "This phone is already Anna&#x27;s" in text
    assert "I am Ben" not in _get(server, "/", headers=anna)[1]
    assert release(save, "Anna")
    status, _ = _get(server, "/me", headers=anna)  # the wrong phone is out
    assert status == 303 and "Potato" not in _get(server, "/me", headers=anna)[1]
    right = claim_phone(server, "Anna")
    assert "Mr. Potato Head" in _get(server, "/me", headers=right)[1]


def test_no_page_without_a_claim_and_no_claim_from_another_site(table) -> None:
    server, _ = table
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    conn.request("GET", "/me")
    response = conn.getresponse()
    assert response.status == 303 and response.getheader("Location") == "/#phones"
    assert "Potato" not in response.read().decode()
    assert _get(server, "/me/events")[0] == 403
    assert _post(server, "player=Anna", {"Origin": "http://evil.example"})[0] == 403
    assert (
        _post(server, "player=Anna", {"Sec-Fetch-Site": "cross-site", "Origin": "null"})[0] == 403
    )
    assert _post(server, "player=Mallory")[0] == 404
    assert _get(server, "/me", headers={"Cookie": "farbspiel_x=guess"})[0] == 303


def test_resume_shuts_out_earlier_phones_unless_they_are_kept(table) -> None:
    server, save = table
    anna = claim_phone(server, "Anna")
    start_phones(save, keep=True)  # resume --keep-phones: the same phone goes on
    assert "Mr. Potato Head" in _get(server, "/me", headers=anna)[1]
    start_phones(save, keep=False)  # a plain resume: every phone picks its name again
    assert _get(server, "/me", headers=anna)[0] == 303
    assert "I am Anna" in _get(server, "/")[1]


def test_the_host_header_is_checked_for_a_network_address(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna")
    server = TableServer(save, "127.0.0.2", 0)  # (stands for the household address here)
    server.serve_in_thread()
    try:
        port = server.server_address[1]
        for host, status in (
            (f"127.0.0.2:{port}", 200),
            ("evil.example", 421),
            (f"192.168.1.9:{port}", 421),
        ):
            conn = http.client.HTTPConnection("127.0.0.2", port, timeout=5)
            conn.request("GET", "/", headers={"Host": host})
            assert conn.getresponse().status == status, host
            conn.close()
    finally:
        server.stop()


def test_private_pages_never_listen_where_phones_cannot_reach(monkeypatch) -> None:
    import voice.display.lan as lan

    assert reachable("192.168.1.20") and reachable("10.0.0.5") and not reachable("127.0.0.1")
    assert not reachable("8.8.8.8") and not reachable("0.0.0.0") and not reachable("nonsense")
    for host in ("127.0.0.1", "localhost", "8.8.8.8"):
        with pytest.raises(ValueError, match="phones_unreachable"):
            phone_host(host)
    monkeypatch.setattr(lan, "candidates", lambda: [])
    with pytest.raises(ValueError, match="phones_no_network"):
        phone_host(None)
    monkeypatch.setattr(lan, "candidates", lambda: ["192.168.1.20"])
    assert phone_host(None) == ("192.168.1.20", "192.168.1.20")
    assert phone_host("0.0.0.0") == ("0.0.0.0", "192.168.1.20")


def _said(session) -> list[str]:
    import json

    lines = session.out.stream.getvalue().splitlines()
    return [json.loads(x)["text"] for x in lines if x.startswith('{"type": "say"')]


@pytest.mark.parametrize(
    ("lang", "connected", "undo", "undone"),
    [
        (
            "en",
            "Anna's phone is connected.",
            "disconnect Anna's phone",
            "Anna's phone is disconnected.",
        ),
        ("de", "Annas Handy ist verbunden.", "Annas Handy abmelden", "Annas Handy ist abgemeldet."),
    ],
)
def test_the_table_hears_a_phone_connect_and_undoes_a_wrong_claim_by_voice(
    tmp_path: Path, lang: str, connected: str, undo: str, undone: str
) -> None:
    from voice.session.phones import claim

    save = tmp_path / "game.jsonl"
    start_phones(save, keep=False)
    session = start(save, "pantone", lang, ("Anna", "Ben", "Cem"), "Anna", cards="deal")
    assert session.seconds_to_next_timer() is not None  # (it looks at the phones while waiting)
    token = claim(save, "Anna")
    assert token is not None and claim(save, "Anna") is None
    session.tick(1.0)
    session.tick(2.0)
    said = _said(session)
    assert said.count(connected) == 1
    session.hear(undo)
    assert _said(session)[-1].startswith(undone) and "Anna" not in (load_claims(save) or {})
    assert claim(save, "Anna") is not None  # the right phone now
    session.tick(3.0)
    assert _said(session).count(connected) == 2
    out = session.out.stream.getvalue()
    assert token not in out and "http" not in out  # no secret, no link on the table's output


def test_the_terminal_and_the_table_get_the_public_address_only(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """``play --private page``: the address is shown (with a QR code of it) and said; no
    player's link, token or name-bound address is printed; earlier claims are gone."""
    import argparse

    import voice.display.lan as lan
    from voice.cli.display import start_table_view
    from voice.session.phones import claim

    monkeypatch.setattr(
        lan, "phone_host", lambda host: ("127.0.0.1", "127.0.0.1")
    )  # (loopback only here)
    save = tmp_path / "game.jsonl"
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna", cards="deal")
    start_phones(save, keep=False)
    token = claim(save, "Anna")  # a phone of an earlier run
    args = argparse.Namespace(private="page", display=False, port=0, host=None, keep_phones=False)
    view = start_table_view(session, args)
    try:
        assert view is not None
        err = capsys.readouterr().err
        assert f"Phones: each player opens {view.url} on their own phone" in err
        assert "/p/" not in err and "/me" not in err and str(token) not in err
        assert "For your private pages: each of you opens 127.0.0.1:" in " ".join(_said(session))
        assert load_claims(save) == {}  # the earlier phone must pick its name again
    finally:
        if view is not None:
            view.stop()


def test_typing_at_the_table_hears_a_phone_connect_at_once_and_the_prompt_stays_calm(
    tmp_path: Path,
) -> None:
    """The keyboard loop looks at the phones every second: "Anna's phone is connected"
    comes while nobody types, and the looks themselves print nothing (no prompt spam)."""
    import io
    import os
    import threading
    import time

    from voice.input.clock import RealClock
    from voice.input.lines import LineReader
    from voice.session.loops import run_keyboard
    from voice.session.phones import claim

    save = tmp_path / "game.jsonl"
    start_phones(save, keep=False)
    session = start(save, "pantone", "en", ("Anna", "Ben", "Cem"), "Anna", cards="deal")
    read, write = os.pipe()
    prompt = io.StringIO()

    def table() -> None:
        time.sleep(1.5)
        claim(save, "Anna")
        time.sleep(2.5)
        os.write(write, b"disconnect Anna's phone\n")
        os.close(write)

    helper = threading.Thread(target=table)
    helper.start()
    began = time.monotonic()
    run_keyboard(session, LineReader(read), RealClock(), prompt)
    helper.join()
    os.close(read)
    said = _said(session)
    assert "Anna's phone is connected." in said and said[-1].startswith(
        "Anna's phone is disconnected."
    )
    assert time.monotonic() - began < 8
    assert prompt.getvalue().count("> ") == 3  # at the start, after the news, after the line
