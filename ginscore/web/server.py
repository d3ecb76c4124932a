"""Where `ginscore serve` listens, and the server itself: uvicorn on a socket bound here.

The socket is bound before uvicorn starts, so a port that is taken is one plain line and
``--port 0`` learns the port it got.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal
import socket
from typing import TextIO

import h11
import segno
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ginscore.web.app import LiveDocuments, make_app, MAX_CONNECTIONS

LOOPBACK = "127.0.0.1"
EVERY_ADDRESS = "0.0.0.0"  # --lan: every network this computer is on
STOP_SECONDS = 2  # at Ctrl-C, how long open pages may take to let go before they are closed
REQUEST_SECONDS = 5  # how long a connection may hold a place without a whole request (and between requests)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def bound(lan: bool, port: int) -> socket.socket:
    """A listening socket on this computer's loopback, or with ``lan`` on every network; OSError if not."""
    return socket.create_server((EVERY_ADDRESS if lan else LOOPBACK, port), backlog=128)


def lan_address() -> str:
    """This computer's address on its local network: the one its route out starts from. (Connecting
    a UDP socket sends nothing; it only picks the route.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # an address reserved for documentation: never reached
            return probe.getsockname()[0]
        except OSError:
            return LOOPBACK


def print_qr(address: str, out: TextIO, width: int) -> None:
    """``address`` as a QR code for a phone's camera, in block characters where the output can show them;
    on a screen too narrow for the usual margin of four modules, with two (phones still read it)."""
    try:
        "█▀▄".encode(out.encoding or "ascii")
        compact = True
    except (LookupError, UnicodeEncodeError):
        compact = False
    code = segno.make(address, error="m")
    columns = 1 if compact else 2  # a module is a block character, or two reversed spaces
    margin = next((margin for margin in (4, 3) if code.symbol_size(border=margin)[0] * columns <= width), 2)
    code.terminal(out=out, compact=compact, border=margin)


class RequestOnTime(H11Protocol):
    """uvicorn's HTTP/1.1, except that a connection must send a whole request within
    ``REQUEST_SECONDS`` of opening or of its last answer, or be closed. uvicorn closes only idle
    connections that were answered: sockets opened and left silent, or fed a byte at a time (a head
    or a body), would otherwise hold every connection place until their device lets go, and no page
    could load."""

    request_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.wait_for_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.wait_for_request()

    def connection_lost(self, exc) -> None:
        super().connection_lost(exc)
        self.stop_waiting()

    def wait_for_request(self) -> None:
        self.stop_waiting()
        if not self.transport.is_closing():
            self.request_deadline = self.loop.call_later(REQUEST_SECONDS, self.too_slow)

    def stop_waiting(self) -> None:
        if self.request_deadline is not None:
            self.request_deadline.cancel()
            self.request_deadline = None

    def too_slow(self) -> None:
        self.request_deadline = None
        # No whole request head yet, or a body still coming in (no page reads one): closed, as uvicorn
        # closes an idle connection; a request already read (an open page's event stream) is left alone.
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


class QuietStop(uvicorn.Server):
    """uvicorn's server, silent once asked to stop: a second Ctrl-C (force quit) cancels the open pages,
    which uvicorn would log as errors, each with its traceback."""

    def handle_exit(self, sig, frame) -> None:
        for name in ("uvicorn.error", "uvicorn.asgi"):
            logging.getLogger(name).disabled = True
        super().handle_exit(sig, frame)


def server_for(live: LiveDocuments, token: str | None) -> QuietStop:
    """The server, which Ctrl-C stops from now on: pressed before it runs, it only asks the server to
    stop (never a KeyboardInterrupt halfway through starting the event loop), and it stops on starting."""
    config = uvicorn.Config(make_app(live, token), log_level="error", access_log=False, lifespan="on",
                            limit_concurrency=MAX_CONNECTIONS, timeout_graceful_shutdown=STOP_SECONDS,
                            server_header=False, proxy_headers=False, http=RequestOnTime,
                            timeout_keep_alive=REQUEST_SECONDS, ws="none", loop="asyncio")
    server = QuietStop(config)
    live.stopping = lambda: server.should_exit
    signal.signal(signal.SIGINT, server.handle_exit)  # (uvicorn puts this back, and calls it again, at its end)
    return server
