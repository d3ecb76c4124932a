"""Where `ginscore serve` listens, and the server itself: uvicorn on a socket bound here.

The socket is bound before uvicorn starts, so a port that is taken is one plain line and
``--port 0`` learns the port it got.
"""

from __future__ import annotations

import secrets
import socket
from typing import TextIO

import segno
import uvicorn

from ginscore.web.app import Live, make_app, MAX_CONNECTIONS

LOOPBACK = "127.0.0.1"
EVERY_ADDRESS = "0.0.0.0"  # --lan: every network this computer is on
STOP_SECONDS = 2  # at Ctrl-C, how long open pages may take to let go before they are closed


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
    margin = next((margin for margin in (4, 3) if code.symbol_size(border=margin)[0] <= width), 2)
    code.terminal(out=out, compact=compact, border=margin)


def serve(live: Live, listening: socket.socket, token: str | None) -> None:
    """Serve until Ctrl-C (then a KeyboardInterrupt, as uvicorn raises the signal it caught again)."""
    config = uvicorn.Config(make_app(live, token), log_level="error", access_log=False, lifespan="on",
                            limit_concurrency=MAX_CONNECTIONS, timeout_graceful_shutdown=STOP_SECONDS,
                            server_header=False, proxy_headers=False, http="h11", ws="none", loop="asyncio")
    server = uvicorn.Server(config)
    live.stopping = lambda: server.should_exit
    server.run(sockets=[listening])
