"""The names the shell completion scripts offer while a line is typed (completions/)."""

import sys

import typer

from ginscore.core.errors import GinscoreError
from ginscore.cli.actions import store_of
from ginscore.cli.typer_app import app
from ginscore.core.escape import visible
from ginscore.core.replay import may_knock, replay


@app.command()
def complete(
    ctx: typer.Context,
    kind: str = typer.Argument(..., help="players, knockers, everyone, sessions or deleted.", metavar="KIND"),
    session: str = typer.Option(None, "--session", "-s", help="The session whose players to give.", metavar="NAME"),
    hand: str = typer.Option(None, "--hand", help="knockers: of this hand (the next one when left out).", metavar="N"),
) -> None:
    """Names for shell completion, one a line: `players` of the session acted on, `knockers` (who
    may knock in the next hand, or in hand --hand N), `everyone` who ever played, `sessions`, or the
    `deleted` ones (what `restore` takes).

    Only reads; prints nothing (and exits 0) when there is nothing to offer
    or the file cannot be read, so a TAB never shows an error.

    Example: ginscore complete players --session friday
    """
    try:
        db = store_of(ctx).reading()
        if kind == "sessions":
            names = db.names()
        elif kind == "deleted":
            names = db.deleted_names()
        elif kind == "players":
            names = list(db.load(session).players)
        elif kind == "knockers":
            # A TAB never ends in a traceback: isdigit() also takes "²", and Python refuses a very long number.
            number = None if hand is None else int(hand) if hand.isascii() and hand.isdigit() and len(hand) < 10 else 0
            names = may_knock(replay(db.load(session)), number)
        elif kind == "everyone":
            from ginscore.cache.rows import Listings  # (only this kind reads the cache)

            names = sorted({p for group in Listings(db).tally_groups() for p in group["players"]},
                           key=lambda p: (p.casefold(), p))
        else:
            names = []
    except GinscoreError:
        names = []
    sys.stdout.write("".join(f"{visible(name)}\n" for name in names))
