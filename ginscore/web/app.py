"""The web app of `ginscore serve`: two pages, their assets, their data and their live events.

Nothing a request says reaches the file system: the routes are fixed, and the pages and assets
are read from the package once. No route writes (docs/commands.md "The live web page").
"""

from __future__ import annotations

import asyncio
import hmac
import re
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib import resources
from urllib.parse import unquote

import anyio.to_thread
import orjson
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from ginscore.db.store import POLL_SECONDS, file_signature

WAKE_SECONDS = 1.0  # how often an idle event stream checks whether the server is stopping
# An idle event stream says something this often: a dead connection is noticed, and the page can tell
# a server gone quiet (its laptop asleep) from one with nothing new.
KEEP_ALIVE_SECONDS = 15
MAX_STREAMS = 64  # open pages at once; one more is answered 503 (and its browser tries again later)

# Connections at once, beyond which uvicorn answers 503. Idle sockets count too (a phone asleep), so
# there is room for them beside the streams, well below the usual limit of open files.
MAX_CONNECTIONS = MAX_STREAMS + 400
TOKEN_COOKIE = "ginscore_token"
LOOPBACK_NAMES = ["127.0.0.1", "localhost"]  # the Host a page on this computer asks for

# Said on every response: scripts and styles only from this server (never inline), no framing,
# no sniffing a type, no page kept in a cache or named to another site (its address may hold the token).
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
}
# A request's target in absolute form, as sent to a proxy (``GET http://host/club``): its address and path.
ABSOLUTE_FORM = re.compile(rb"https?://([^/]*)(/.*)?", re.IGNORECASE | re.DOTALL)
PAGES = {"/": "session.html", "/club": "club.html"}  # each written after the head the pages share
FILES = {  # what is served from the package, by its address: the only files any request can reach
    "/assets/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/assets/board.css": ("board.css", "text/css; charset=utf-8"),
    "/assets/icon.svg": ("icon.svg", "image/svg+xml"),
}


def as_json(document: dict) -> bytes:
    """A document as one line of JSON, with ``<``, ``>`` and ``&`` escaped: no text reads as markup."""
    return (orjson.dumps(document).replace(b"<", b"\\u003c").replace(b">", b"\\u003e")
            .replace(b"&", b"\\u0026"))


class LiveDocuments:
    """The documents the pages show, made again once after each change of the file.

    A maker never raises for a file it cannot read: it says so in its document."""

    def __init__(self, path, makers: dict[str, Callable[[], dict]], stopping: Callable[[], bool] = lambda: False,
                 poll: float = POLL_SECONDS):
        self.path, self.makers, self.stopping, self.poll = path, makers, stopping, poll
        self.version = 0  # one more at each change of the file
        self.seen = file_signature(path)  # taken before the first read: no change is missed
        self.made: dict[str, tuple[int, bytes]] = {}
        self.making = {name: asyncio.Lock() for name in makers}
        self.change = asyncio.Event()  # set at the next change (then a fresh one waits for the one after)
        self.streams = 0

    async def watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            now = file_signature(self.path)
            if now != self.seen:
                self.seen = now
                self.version += 1
                self.change.set()
                self.change = asyncio.Event()

    async def document(self, name: str) -> bytes:
        """The document ``name`` as the file is now (made at most once a change)."""
        async with self.making[name]:
            version = self.version
            made = self.made.get(name)
            if made is None or made[0] != version:
                made = version, as_json(await anyio.to_thread.run_sync(self.makers[name]))
                self.made[name] = made
            return made[1]

    async def events(self, name: str):
        """Server-sent events: the document now, then again each time it changes."""
        yield b"retry: 2000\n\n"  # a page that loses the server asks again every two seconds
        shown, version, quiet = None, None, 0.0
        while not self.stopping():
            if version != self.version:
                version = self.version
                body = await self.document(name)
                if body != shown:  # a file written with the same standings shows nothing new
                    shown = body
                    yield b"data: " + body + b"\n\n"
                continue
            try:
                await asyncio.wait_for(self.change.wait(), WAKE_SECONDS)
            except TimeoutError:
                quiet += WAKE_SECONDS
                if quiet >= KEEP_ALIVE_SECONDS:
                    quiet = 0.0
                    # an event, not a comment (which a page never sees), saying when the next one comes
                    yield b"event: alive\ndata: %d\n\n" % KEEP_ALIVE_SECONDS


class CountedStream(StreamingResponse):
    """An event stream that holds one of the server's ``MAX_STREAMS`` places until it ends."""

    def __init__(self, live: LiveDocuments, name: str):
        super().__init__(live.events(name), media_type="text/event-stream")
        self.live = live
        live.streams += 1

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.live.streams -= 1


class Guard:
    """Every response with ``SECURITY_HEADERS``; with a token (``--lan``), every request without it refused
    (it comes in the address, which the QR code holds, and is kept in a cookie for the requests after).
    A request naming the whole address (``ABSOLUTE_FORM``) is read as its path, asked of that address."""

    def __init__(self, app, token: str | None):
        self.app, self.token = app, token

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        absolute = ABSOLUTE_FORM.fullmatch(scope.get("raw_path") or b"")
        if absolute:  # HTTP/1.1 says a server takes this form too, its address then standing for the Host
            path = absolute[2] or b"/"
            headers = [(name, value) for name, value in scope["headers"] if name != b"host"] + [(b"host", absolute[1])]
            scope = scope | {"raw_path": path, "path": unquote(path.decode("ascii")), "headers": headers}
        cookie_token = None

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if cookie_token:
                    headers.append("set-cookie", f"{cookie}={cookie_token}; Path=/; HttpOnly; SameSite=Strict")
            await send(message)

        # named for the port: two servers on one computer are one host to a browser, each with its own token
        cookie = f"{TOKEN_COOKIE}_{(scope.get('server') or ('', ''))[1]}"
        if self.token is not None:
            request = Request(scope)
            typed = request.query_params.get("token")
            given = typed if typed is not None else request.cookies.get(cookie, "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                refused = PlainTextResponse("Refused: open the address that ginscore serve --lan printed, with its "
                                            "token (or scan its QR code).\n", status_code=403)
                await refused(scope, receive, sending)
                return
            if typed is not None and request.cookies.get(cookie) != typed:
                cookie_token = typed
        await self.app(scope, receive, sending)


def packaged(name: str) -> bytes:
    return resources.files("ginscore.web").joinpath("static", name).read_bytes()


def make_app(live: LiveDocuments, token: str | None = None) -> Starlette:
    """The app: ``PAGES``, ``FILES``, and the data and events of each document of ``live``; without a
    token, only for this computer's own address, so a web page elsewhere cannot read it through a
    name it points here."""
    served = {address: (packaged(name), kind) for address, (name, kind) in FILES.items()}
    for address, name in PAGES.items():
        served[address] = (packaged("head.html") + packaged(name), "text/html; charset=utf-8")
    routes = [Route(address, lambda request, body=body, kind=kind: Response(body, media_type=kind), methods=["GET"])
              for address, (body, kind) in served.items()]
    for name in live.makers:
        async def data(request: Request, name=name) -> Response:
            return Response(await live.document(name), media_type="application/json")

        async def events(request: Request, name=name) -> Response:
            if live.streams >= MAX_STREAMS:
                return PlainTextResponse("Too many pages are open; this one tries again shortly.\n",
                                         status_code=503, headers={"retry-after": "5"})
            return CountedStream(live, name)

        routes += [Route(f"/data/{name}", data, methods=["GET"]), Route(f"/events/{name}", events, methods=["GET"])]

    @asynccontextmanager
    async def watching(app):
        watcher = asyncio.create_task(live.watch())
        try:
            yield
        finally:
            watcher.cancel()

    middleware = [Middleware(Guard, token=token)]
    if token is None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES))
    app = Starlette(routes=routes, middleware=middleware, lifespan=watching)
    app.router.redirect_slashes = False  # `/club/` is no address of ours (404), not a redirect to `/club`
    return app
