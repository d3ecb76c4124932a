"""Connections that take a place and hold it: idle sockets do not shut the pages out, and a page
turned away while every event stream is taken asks again and comes back by itself."""

from __future__ import annotations

import socket
import time

from tests.web.browsing import get


def _streams(port: int, count: int) -> list[socket.socket]:
    opened = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(b"GET /events/session HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        assert connection.recv(64).split(b" ")[1] == b"200"
        opened.append(connection)
    return opened


def test_sockets_that_take_every_place_and_say_nothing_are_closed_and_the_pages_come_back(ok, serving):
    """A device that opens every connection the server allows and sends nothing, or a byte at a time,
    no longer keeps the pages out until it lets go: each is closed after REQUEST_SECONDS."""
    from ginscore.web.app import MAX_CONNECTIONS
    from ginscore.web.server import REQUEST_SECONDS

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    served = serving()
    opened = time.monotonic()
    idle = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(MAX_CONNECTIONS - 1)]
    trickling = socket.create_connection(("127.0.0.1", served.port), timeout=10)
    trickling.sendall(b"GET / HTTP/1.1\r\n")
    try:
        assert get(served.base + "/data/session")[0] == 503  # every place taken
        answered = None
        while time.monotonic() < opened + REQUEST_SECONDS + 10 and answered != 200:
            trickling.sendall(b"X: y\r\n")  # never a whole request
            time.sleep(0.25)
            answered = get(served.base + "/data/session")[0]
        assert answered == 200 and time.monotonic() - opened >= REQUEST_SECONDS
        assert get(served.base + "/")[0] == 200
        for connection in (*idle, trickling):
            assert connection.recv(64) == b"", "a silent or trickling connection was left open"
    finally:
        for connection in (*idle, trickling):
            connection.close()


def test_a_page_turned_away_while_every_stream_is_taken_comes_back_when_one_is_free(ok, serving, browser):
    from ginscore.web.app import MAX_STREAMS

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    served = serving()
    held = _streams(served.port, MAX_STREAMS)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(served.base + "/")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and "turned this page away" not in page.inner_text("body"):
        page.wait_for_timeout(50)
    assert "turned this page away" in page.inner_text("body")
    for connection in held:
        connection.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and page.eval_on_selector_all("[data-score]", "a => a.length") == 0:
        page.wait_for_timeout(100)
    assert page.eval_on_selector_all("[data-score]", "all => all.map(e => e.textContent)") == ["17", "0"]
    page.close()
