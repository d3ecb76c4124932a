"""Connections that take a place and hold it: idle sockets do not shut the pages out, and a page
turned away while every event stream is taken asks again and comes back by itself."""

from __future__ import annotations

import select
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
    """A device that opens every connection the server allows and sends nothing, or a request a byte at a
    time (its head, or a body), no longer keeps the pages out until it lets go: each is closed after
    REQUEST_SECONDS, while the trickling ones go on trickling; an open page's event stream is left open."""
    from ginscore.web.app import MAX_CONNECTIONS
    from ginscore.web.server import REQUEST_SECONDS

    assert (MAX_CONNECTIONS, REQUEST_SECONDS) == (464, 5)  # as docs/commands.md says
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    served = serving()
    opened = time.monotonic()
    [stream] = _streams(served.port, 1)
    head, body, chunked = (socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(3))
    head.sendall(b"GET / HTTP/1.1\r\n")
    for connection, chunks in ((body, b"Content-Length: 100000"), (chunked, b"Transfer-Encoding: chunked")):
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + chunks + b"\r\n\r\n")
        assert connection.recv(12) == b"HTTP/1.1 200"  # the page answered; its body never ends
    trickles = {head: b"X: y\r\n", body: b"x", chunked: b"1\r\nx\r\n"}  # never a whole request
    idle = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(MAX_CONNECTIONS - 4)]
    still_open = {*idle, *trickles}
    try:
        assert get(served.base + "/data/session")[0] == 503  # every place taken
        answered = None
        while still_open and time.monotonic() < opened + REQUEST_SECONDS + 10:
            for connection, more in trickles.items():
                if connection in still_open:
                    try:
                        connection.sendall(more)
                    except OSError:  # closed by the server: the point
                        pass
            for connection in select.select(list(still_open), [], [], 0.25)[0]:
                try:
                    ended = not connection.recv(65536)  # (an answer to a head is read; then the end)
                except ConnectionResetError:  # closed with trickled bytes unread
                    ended = True
                if ended:
                    still_open.discard(connection)
            if answered != 200:
                answered = get(served.base + "/data/session")[0]
                back = time.monotonic() - opened
        assert not still_open, f"{len(still_open)} silent or trickling connections were left open"
        assert answered == 200 and back >= REQUEST_SECONDS
        assert get(served.base + "/")[0] == 200
        stream.setblocking(False)
        while select.select([stream], [], [], 0)[0]:
            assert stream.recv(65536), "the event stream of an open page was closed"
    finally:
        stream.close()
        for connection in (*idle, *trickles):
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
