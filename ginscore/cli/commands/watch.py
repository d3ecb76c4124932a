"""A live scoreboard for a second screen: `ginscore watch`."""

import gc
import os
import signal
import sys
from contextlib import contextmanager, suppress
from datetime import datetime

import typer
from rich.control import Control

from ginscore.core.errors import GinscoreError, message_parts, NEXT_GAME
from ginscore.core.replay import Standings
from ginscore.cli import stopping
from ginscore.db import interrupts
from ginscore.db.store import POLL_SECONDS, file_signature
from ginscore.core.reports import match_dict
from ginscore.cli.actions import followed, next_game_advice, Pinned, pinned_by, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import session_option
from ginscore.present import scoreboard as board
from ginscore.present.console import screen
from ginscore.present.terminal import parts_text, screen_height, screen_width


class _Board:
    """What the board shows: the watched session, or the problem that keeps it from being read."""

    def __init__(self, store, pinned: Pinned | None, out, big: bool, until: str):
        self.store, self.pinned, self.out, self.big, self.until = store, pinned, out, big, until
        self.live = False  # filling the screen, which shows no more than its height
        self.seen: tuple | None = file_signature(store.path)  # taken before the first read: no change is missed
        self.showing: Standings | str = ""
        self.shown_key: object = ""  # what tells one board from the next: the session's facts, or the problem
        self.what_follows = NEXT_GAME  # what it says follows the game, once it is over
        self.updated = ""
        self.match: dict | None = None  # the match so far, when the session is in one with others

    def show(self, showing: Standings | str, match: dict | None = None) -> bool:
        """Show ``showing`` (and ``match``, the match so far) from now on; False when it is what the board
        already shows."""
        key = (showing.facts, match) if isinstance(showing, Standings) else showing
        if key == self.shown_key:
            return False
        self.showing, self.shown_key, self.updated = showing, key, f"{datetime.now():%H:%M:%S}"
        self.match = match
        if isinstance(showing, Standings):
            self.what_follows = next_game_advice(self.store.reading, showing)
        return True

    def read(self) -> bool:
        """Read the file again if it changed; False when the board would show the same."""
        now = file_signature(self.store.path)
        if now == self.seen:
            return False
        self.seen = now
        try:
            if self.seen is None:
                return self.show(f"The database file {self.store.path} is not there.")
            return self.show(*self.current())
        except GinscoreError as error:  # said as the exit point says it: its advice with this --db
            return self.show(parts_text(message_parts(error)))

    def current(self) -> tuple[Standings, dict | None]:
        """The session on the board as the file has it now, and its match so far when it has other games
        (an earlier game corrected elsewhere changes the board too), as `status` shows them."""
        standings, match = followed(self.store, self.pinned)
        return standings, match_dict(match) if match and len(match) > 1 else None

    def frame(self):
        """The board as it stands, laid out for the console's width now."""
        footer = f"{self.store.path} · updated {self.updated}{self.until}"
        if isinstance(self.showing, str):
            return board.problem(self.showing, footer, self.out, cut=self.live)
        return board.frame(self.showing, self.out, big=self.big, footer=footer, what_follows=self.what_follows,
                           match=self.match, cut=self.live)


@contextmanager
def _given_back_while_suspended(out):
    """Ctrl-Z: the screen the board filled, and the cursor, are given back while watch is stopped, and taken again
    when `fg` goes on with it; the list yielded is not empty once the board must be drawn anew."""
    redraw: list[bool] = []
    if not interrupts.ctrl_z_ours():
        yield redraw
        return

    def written(control: str) -> None:  # straight to the terminal: the stream may be halfway through a frame
        with suppress(OSError):
            os.write(out.file.fileno(), control.encode())

    def suspended(number, frame) -> None:
        written(str(Control.show_cursor(True)) + str(Control.alt_screen(False)))
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stopped here, until `fg`
        signal.signal(signal.SIGTSTP, suspended)
        written(str(Control.alt_screen(True)) + str(Control.show_cursor(False)))
        redraw.append(True)

    signal.signal(signal.SIGTSTP, suspended)
    try:
        yield redraw
    finally:
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)


@app.command(short_help="Show a live scoreboard.")
def watch(
    ctx: typer.Context,
    session: str = session_option(),
    once: bool = typer.Option(False, "--once", help="Print one frame and stop (for scripts and tests)."),
) -> None:
    """A live scoreboard for a second screen, redrawn whenever the database changes.

    Follows the current session (a rematch, a `use` from another terminal)
    unless --session pins one. It only reads: never locks, never writes. On
    a terminal it fills the screen until Ctrl-C; piped into a file it prints
    a frame each time the standings change, for a log. A file that cannot
    be read while watching (a sync client replacing it) is shown on the
    board and watched until it can.

    Example: ginscore watch
    """
    gc.enable()  # it runs for an evening: main switched the cyclic collector off for one command

    store = store_of(ctx)
    out = screen()
    on_terminal = sys.stdout.isatty()
    pinned = pinned_by(store, session)
    scoreboard = _Board(store, pinned, out, big=on_terminal, until="" if once else " · Ctrl-C stops")
    scoreboard.show(*scoreboard.current())  # a file or session that cannot be read stops here (exit 1 or 2)
    with stopping.until_stopped() as stops, suppress(KeyboardInterrupt):  # Ctrl-C ends a watch: quietly, exit 0
        if once or not on_terminal or out.is_dumb_terminal:  # (a dumb terminal has no screen to redraw)
            out.print(scoreboard.frame())
            while not once:
                stops.wait(POLL_SECONDS)
                if scoreboard.read():
                    out.rule()
                    out.print(scoreboard.frame())
                    out.file.flush()
            return
        from rich.live import Live

        scoreboard.live = True
        live = Live(scoreboard.frame(), console=out, screen=True, auto_refresh=False)
        try:  # not `with`: a Ctrl-C while it starts must give the screen back too
            with _given_back_while_suspended(out) as redraw:
                live.start(refresh=True)
                while True:
                    stops.wait(POLL_SECONDS)
                    # the console was made at one size (it never asks the terminal itself): a resized
                    # window is found here, and the board laid out again for it
                    now = (screen_width(), screen_height())
                    resized = now != tuple(out.size)
                    if resized:
                        out.size = now
                    if scoreboard.read() or resized or redraw:
                        redraw.clear()
                        live.update(scoreboard.frame(), refresh=True)
        finally:
            live.stop()
