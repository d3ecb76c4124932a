"""`ginscore serve` against what should not get in: names that are markup, paths that climb out,
requests without the token, more event streams than it takes, a file replaced and deleted under
it. It keeps serving, never changes the file, and never shows raw markup."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import threading
import time

import pytest

from tests.support import run_cli
from tests.web.browsing import get, no_sideways_scroll, sha256, start_serving, UPDATE_SECONDS

MARKUP_NAMES = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>']


def raw_get(port: int, target: str, headers: dict | None = None) -> tuple[int, bytes]:
    """A GET of ``target`` exactly as written (urllib would tidy the dots away)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", target, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_names_that_are_markup_show_as_text(ok, db_path, serving, page_at):
    ok("new", "standard", *MARKUP_NAMES, "--dealer", "<script>", "--name", "<b>night</b>")
    ok("hand", "<script>", "3", "20", "--note", "<iframe src=//x> &amp; R&D")
    before = sha256(db_path)
    served = serving()
    for address in ("/", "/club"):
        page = page_at(served.base + address)
        names = page.eval_on_selector_all(".name", "all => all.map(e => e.textContent)")
        assert set(MARKUP_NAMES) <= set(names)
        assert "Note: <iframe src=//x> &amp; R&D" in page.inner_text("main")  # a hand's note shows, as text
        assert page.eval_on_selector_all("script", "all => all.length") == 1  # board.js, nothing injected
        assert page.query_selector("img, iframe, b") is None
        assert "<script>alert(1)</script>" not in page.content()  # only ever as &lt;script&gt;
        assert no_sideways_scroll(page)
    page = page_at(served.base + "/")
    assert page.inner_text("h1") == "<b>night</b>"
    assert page.inner_text("#subtitle").startswith("Standard · ") and " · 1 hand played\n" in page.inner_text("#subtitle")
    status, headers, body = get(served.base + "/data/session")
    assert b"<" not in body and b">" not in body and b"&" not in body  # escaped in the JSON as well
    assert headers["content-type"] == "application/json"
    assert sha256(db_path) == before


@pytest.fixture(scope="module")
def one_server(tmp_path_factory):
    """One `ginscore serve` of a standard session, for the probes that only read what it answers."""
    db = tmp_path_factory.mktemp("served") / "ginscore.json"
    assert run_cli("--db", str(db), "new", "standard", "Ann", "Ben", "--dealer", "ann").exit_code == 0
    served = start_serving("--db", str(db))
    served.db = db
    yield served
    served.stop()


@pytest.mark.parametrize("target", [
    "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd", "/assets/../../../etc/passwd",
    "/assets/..%2f..%2f..%2fetc%2fpasswd", "/assets/%2e%2e/app.py", "/assets/..%5c..%5capp.py", "//etc/passwd",
    "/assets/board.js/../../../../etc/passwd", "/assets/%252e%252e/%252e%252e/etc/passwd", "/static/board.js",
    "/assets/", "/assets/app.py", "/data/../../etc/passwd", "/etc/passwd%00.js", "/ginscore.json",
    "/club/", "/data/session/", "/events/session/",  # no address of ours, not redirects to one
])
def test_no_path_reaches_the_file_system(one_server, target):
    status, body = raw_get(one_server.port, target)
    assert status in (400, 404), (target, status)
    assert b"root:" not in body and b"import" not in body and b"sessions" not in body


def test_only_reading_is_served(one_server):
    before, served = sha256(one_server.db), one_server
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for target in ("/", "/data/session", "/events/session"):
            connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
            connection.request(method, target, body=b'{"hands": []}')
            assert connection.getresponse().status == 405, (method, target)
            connection.close()
    assert get(served.base + "/", {"Host": "evil.example"})[0] == 400  # a name pointed here by another site
    assert get(served.base + "/", {"Host": f"evil.example:{served.port}"})[0] == 400
    assert get(served.base + "/", {"Host": f"localhost:{served.port}"})[0] == 200  # as a person types it
    with pytest.raises(ConnectionRefusedError):  # 127.0.0.1 only, not every address of this computer
        socket.create_connection(("127.0.0.2", served.port), timeout=10).close()
    assert sha256(one_server.db) == before


def test_a_request_naming_the_whole_address_as_a_proxy_sends_it_is_answered_for_that_address(one_server):
    """HTTP/1.1 lets a request name the whole address (``GET http://host/data/session``); the address in it,
    not the Host line, is then the one asked for, and a name pointed here by another site is refused."""
    port = one_server.port
    status, body = raw_get(port, f"http://127.0.0.1:{port}/data/session")
    assert status == 200 and json.loads(body)["file"] == str(one_server.db)
    assert body == raw_get(port, "/data/session")[1]  # what the usual form of the request is answered
    assert raw_get(port, f"HTTP://localhost:{port}")[0] == 200  # the page itself, its path left out
    assert raw_get(port, f"http://127.0.0.1:{port}/assets/board.js?v=1")[0] == 200
    assert raw_get(port, f"http://evil.example:{port}/data/session")[0] == 400  # the Host line says 127.0.0.1
    assert raw_get(port, f"http://127.0.0.1:{port}/../../etc/passwd")[0] == 404
    assert raw_get(port, "http:///data/session")[0] == 400


def test_every_response_says_what_it_is_and_where_scripts_may_come_from(one_server):
    served = one_server
    for address, kind in (("/", "text/html"), ("/club", "text/html"), ("/assets/board.js", "text/javascript"),
                          ("/assets/board.css", "text/css"), ("/assets/icon.svg", "image/svg+xml"),
                          ("/data/club", "application/json")):
        status, headers, body = get(served.base + address)
        assert status == 200 and headers["content-type"].startswith(kind), address
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["content-security-policy"] == ("default-src 'self'; base-uri 'none'; form-action 'none'; "
                                                      "frame-ancestors 'none'")
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY" and headers["cross-origin-resource-policy"] == "same-origin"
        assert headers["cache-control"] == "no-store"  # a page's address may hold the token
        assert "server" not in {name.lower() for name in headers}  # it does not name its web server
    page = get(served.base + "/")[2].decode()
    assert "<script>" not in page and " style=" not in page and "onload" not in page  # nothing inline


TOKEN = re.compile(r"\?token=([\w-]+)")


def test_lan_refuses_every_request_without_its_token(ok, db_path, serving):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    before = sha256(db_path)
    served = serving("--lan")
    token = TOKEN.search(served.address)[1]
    assert len(token) >= 20
    assert "█" in served.printed or "▀" in served.printed  # the QR code
    assert f"Serving {db_path}" in served.printed
    for address in ("/", "/club", "/data/session", "/events/session", "/assets/board.js", "/nothing"):
        assert get(served.base + address)[0] == 403, address
        assert get(served.base + address + "?token=" + token[:-1] + "x")[0] == 403, address
        assert get(served.base + address + "?token=")[0] == 403, address
        assert get(served.base + address, {"Cookie": f"ginscore_token_{served.port}=wrong"})[0] == 403, address
    status, headers, _ = get(served.base + "/?token=" + token)
    assert status == 200 and f"ginscore_token_{served.port}={token}" in headers["set-cookie"]
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {part.strip() for part in headers["set-cookie"].split(";")}
    assert get(served.base + "/data/session", {"Cookie": f"ginscore_token_{served.port}={token}"})[0] == 200
    host = re.match(r"http://([^:/]+):", served.address)[1]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # this computer's address on its network
        try:
            probe.connect(("192.0.2.1", 9))
            assert host == probe.getsockname()[0]
        except OSError:  # (a computer on no network: its own)
            assert host == "127.0.0.1"
    assert get(served.address)[0] == 200  # as a phone opens it: listened on, and its Host let in
    assert get(served.address.replace("/?", "/club?"))[0] == 200
    assert f"Club board: {served.address.replace('/?', '/club?')}\n" in served.printed
    assert sha256(db_path) == before


def test_a_page_of_a_lan_server_started_again_says_to_scan_its_new_code(ok, serving, page_at):
    """A new token each start: the old address is never let in again, and the page says what to do
    rather than try for ever as if too many pages were open."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    first = serving("--lan")
    page = page_at(f"{first.base}/?token={TOKEN.search(first.address)[1]}")
    assert first.stop() == 0
    serving("--lan", "--port", str(first.port))
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and "new QR code" not in page.inner_text("#notice"):
        page.wait_for_timeout(100)
    assert "no longer accepts this page's address" in page.inner_text("#notice")
    assert "Scan its new QR code" in page.inner_text("#notice")


class InProcess:
    """The app object itself served by uvicorn in a thread, on the loopback."""

    def __init__(self, app):
        import uvicorn

        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def test_the_app_compares_the_token_and_keeps_it_in_a_cookie(tmp_path):
    from ginscore.web.app import LiveDocuments, make_app

    live = LiveDocuments(tmp_path / "none.json", {"session": lambda: {"problem": None}})
    served = InProcess(make_app(live, token="right-token"))
    try:
        base = f"http://127.0.0.1:{served.port}"
        assert get(base + "/data/session")[0] == 403
        assert get(base + "/data/session?token=right-tokeN")[0] == 403
        assert get(base + "/data/session?token=right-token-and-more")[0] == 403
        assert get(base + "/data/session?token=%C3%A9")[0] == 403  # not ASCII: refused, not an error
        assert get(base + "/data/session", {"Cookie": f"ginscore_token_{served.port}=right-token"})[0] == 200
        assert get(base + "/data/session?token=right-token")[2] == b'{"problem":null}'
    finally:
        served.stop()


def test_two_lan_servers_on_one_computer_keep_their_own_token_in_one_browser(tmp_path):
    """A browser keeps cookies by host, not port: the second server's token cookie replaced the first's,
    and the first server's club board then answered 403 to the page it had let in."""
    import http.cookiejar
    import urllib.error
    import urllib.request

    from ginscore.web.app import LiveDocuments, make_app

    live = LiveDocuments(tmp_path / "none.json", {"session": lambda: {"problem": None}})
    first, second = InProcess(make_app(live, token="first-token")), InProcess(make_app(live, token="second-token"))
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def status(url: str) -> int:
        try:
            with browser.open(url, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        assert status(f"http://127.0.0.1:{first.port}/data/session?token=first-token") == 200
        assert status(f"http://127.0.0.1:{second.port}/data/session?token=second-token") == 200
        assert status(f"http://127.0.0.1:{first.port}/data/session") == 200  # its cookie, not the second's
        assert status(f"http://127.0.0.1:{second.port}/data/session") == 200
    finally:
        first.stop()
        second.stop()


def test_an_idle_event_stream_asks_again_after_two_seconds_and_says_it_is_there_every_fifteen(tmp_path):
    """A page that loses the server asks again every two seconds (docs/commands.md); a stream with
    nothing new says something every fifteen seconds, so a page gone away is noticed and its place freed.
    (A second is a wait for a change that timed out, without waiting it.)"""
    import asyncio

    from ginscore.web.app import LiveDocuments

    waits = []

    async def nothing_changed(change, timeout):
        change.close()
        waits.append(timeout)
        raise TimeoutError

    live = LiveDocuments(tmp_path / "none.json", {"session": lambda: {"problem": None}},
                         stopping=lambda: sum(waits) >= 31)
    said = []

    async def read():
        said.extend([chunk async for chunk in live.events("session")])

    waiting, asyncio.wait_for = asyncio.wait_for, nothing_changed
    try:  # in a thread of its own: the browser's event loop may be running in this one
        reading = threading.Thread(target=asyncio.run, args=(read(),), daemon=True)
        reading.start()
        reading.join(10)
    finally:
        asyncio.wait_for = waiting
    assert said == [b"retry: 2000\n\n", b'data: {"problem":null}\n\n', b"event: alive\ndata: 15\n\n",
                    b"event: alive\ndata: 15\n\n"]  # at 15 s and at 30 s


def test_an_event_stream_sends_a_change_as_soon_as_the_file_is_seen_to_change(tmp_path, monkeypatch):
    """Not at its next wake (made a minute here): a hand shows within a second (docs/commands.md)."""
    import asyncio

    from ginscore.web import app

    monkeypatch.setattr(app, "WAKE_SECONDS", 60)
    watched = tmp_path / "ginscore.json"
    watched.write_text("1")
    live = app.LiveDocuments(watched, {"session": lambda: {"file": watched.read_text()}}, poll=0.01)
    said = []

    async def read():
        watching = asyncio.create_task(live.watch())
        events = live.events("session")
        said.append(await anext(events))  # retry
        said.append(await anext(events))
        watched.write_text("22")
        said.append(await asyncio.wait_for(anext(events), 5))
        watching.cancel()

    reading = threading.Thread(target=asyncio.run, args=(read(),), daemon=True)  # (the browser's loop may run here)
    reading.start()
    reading.join(10)
    assert said[1:] == [b'data: {"file":"1"}\n\n', b'data: {"file":"22"}\n\n']


def test_two_hundred_event_streams_are_bounded_and_the_server_keeps_answering(ok, serving):
    from ginscore.web.app import MAX_STREAMS

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    served = serving()
    opened, answers = [], []
    for _ in range(200):
        connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        connection.sendall(b"GET /events/session HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        opened.append(connection)
    for connection in opened:
        try:
            answers.append(connection.recv(64).split(b" ")[1])
        except (OSError, IndexError):
            answers.append(b"closed")
    streaming = answers.count(b"200")
    assert streaming == MAX_STREAMS == 64  # as docs/commands.md says
    assert answers.count(b"503") + answers.count(b"closed") == 200 - streaming
    assert get(served.base + "/data/session")[0] == 200  # a page still loads beside them
    for connection in opened:
        connection.close()
    time.sleep(1.5)  # the streams notice their pages are gone
    assert get(served.base + "/data/session")[0] == 200
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
    connection.sendall(b"GET /events/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert connection.recv(64).split(b" ")[1] == b"200"  # their places are free again
    connection.close()


def test_a_file_replaced_then_deleted_is_said_and_picked_up_again(ok, db_path, serving, page_at, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    kept = tmp_path / "kept.json"
    shutil.copy(db_path, kept)
    ok("hand", "ben", "3", "40")
    served = serving()
    club = page_at(served.base + "/club")
    page = page_at(served.base + "/")

    def shows(p, text):
        return text in p.inner_text("body")

    def waited(condition) -> bool:
        deadline = time.monotonic() + UPDATE_SECONDS + 1
        while time.monotonic() < deadline:
            if condition():
                return True
            page.wait_for_timeout(25)
        return False

    assert shows(page, "Ben knocked")
    replacement = tmp_path / "replacement.json"
    shutil.copy(kept, replacement)
    os.replace(replacement, db_path)  # as a sync client puts a file in place
    assert waited(lambda: not shows(page, "Ben knocked") and page.eval_on_selector_all(
        "[data-score]", "all => all.map(e => e.textContent)") == ["17", "0"])
    os.remove(db_path)
    assert waited(lambda: page.is_visible("#notice") and "is not there" in page.inner_text("#notice"))
    assert page.evaluate("document.body.classList.contains('stale')")  # the board stays, greyed
    assert waited(lambda: "is not there" in club.inner_text("#notice"))
    assert club.eval_on_selector_all(".table-card", "all => all.length") == 1  # the club board's too
    assert get(served.base + "/data/club")[0] == 200  # the club board says the same, and the server goes on
    assert not db_path.exists()  # nothing was made in its place
    db_path.write_bytes(b"{ this is not a database")
    assert waited(lambda: page.is_visible("#notice") and "is not there" not in page.inner_text("#notice"))
    damaged = db_path.read_bytes()
    shutil.copy(kept, db_path)
    assert waited(lambda: not page.is_visible("#notice"))
    assert not page.evaluate("document.body.classList.contains('stale')")
    assert page.eval_on_selector_all("[data-score]", "all => all.map(e => e.textContent)") == ["17", "0"]
    assert damaged == b"{ this is not a database"
    assert sha256(db_path) == sha256(kept)  # the server changed nothing
    assert served.process.poll() is None


def test_ctrl_c_twice_stops_quietly_with_pages_open(ok, serving):
    """People press Ctrl-C twice, and with pages open the stop takes a moment: the second press (uvicorn's
    force quit) cancelled the open pages and printed uvicorn's tracebacks, dozens of lines to hundreds."""
    import signal

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    served = serving()
    opened = []
    for _ in range(5):  # five pages open
        connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        connection.sendall(b"GET /events/session HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        assert connection.recv(64).split(b" ")[1] == b"200"
        opened.append(connection)
    served.process.send_signal(signal.SIGINT)
    time.sleep(0.03)
    served.process.send_signal(signal.SIGINT)
    _, said = served.process.communicate(timeout=15)
    for connection in opened:
        connection.close()
    assert said == "", said
    assert served.process.returncode in (0, -signal.SIGINT)  # (a press after the stop ends Python's own way)
