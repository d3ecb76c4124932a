"""Many sessions: list, choose, rename, delete and restore them, and where the file is."""

import os
import sys

import typer

from ginscore.core.errors import Command, DatabaseUnusable, Refused
from ginscore.core.escape import shell_word, shows_plainly, visible
from ginscore.core.reports import VARIANT_NAMES, as_typed, counted, history_row, session_item
from ginscore.cli.actions import asked, game_after, game_before, rematch_news, replay_stored, store_of, time_now
from ginscore.cli.typer_app import app
from ginscore.cli.options import all_option, json_option, limit_option, session_option
from ginscore.cli.options import DELETED, SESSIONS  # what these arguments complete to
from ginscore.cli.output import print_json_items, write_exactly
from ginscore.cli.typed import how_many, session_name


@app.command(short_help="List the sessions.")
def sessions(
    ctx: typer.Context,
    show_all: bool = all_option(),
    limit: int = limit_option(),
    as_json: bool = json_option(),
    deleted: bool = typer.Option(False, "--deleted", help="List the deleted sessions instead (`ginscore restore` brings one back)."),
) -> None:
    """List the sessions in the order they came into this database, marking the current one.

    A session brought in by `import` comes after those already here, however
    old it is; --deleted lists the most recently deleted first.

    Shows the newest that fit one screen and says how many more there are;
    --all lists every one, --limit N the newest N. --json lists every one
    unless --limit is given.

    Example: ginscore sessions --deleted
    """
    from ginscore.cache.rows import Listings, json_item

    newest, fit = how_many(show_all, limit, as_json)
    store = store_of(ctx)
    db = store.reading()
    db.refuse_if_not_ours()
    if deleted:
        listed = db.deleted()  # the most recently deleted first
        rows = [session_item(history_row(replay_stored(store, facts, deleted=True)), False)
                | {"deleted_at": deleted_at} for facts, deleted_at in listed[:newest]]
    else:
        listings, listed = Listings(db), db.listed()
        picked = listed if newest is None else listed[-newest:]
        current = db.current_name
        numbers = [number for number, _, _ in picked]  # each session's document number
        if as_json:  # the cache keeps each as not current: the current one's item is made here
            items = listings.listed_items(numbers, "sessions")
            for at, (number, name, _) in enumerate(picked):
                if name == current:
                    items[at] = json_item(session_item(next(listings.history_items([number])), True))
            print_json_items(items)
            return
        from ginscore.present.lists import SESSION_CELLS, from_kept_cells, session_cells, show_long_sessions

        if not fit and from_kept_cells(len(numbers)):  # years of sessions: their cells as kept, no rows read
            show_long_sessions(listings.listed_cells(numbers, "sessions", session_cells, SESSION_CELLS),
                               [name == current for _, name, _ in picked], hidden=db.deleted_count(),
                               older=len(listed) - len(picked), current_name=current)
            return
        rows = [session_item(row, row["name"] == current) for row in listings.history_items(numbers)]
    if as_json:  # written a few items at a time, so that years of sessions take little memory
        print_json_items(map(json_item, rows))
        return
    from ginscore.present.lists import show_fitting, show_sessions

    hidden = 0 if deleted else db.deleted_count()

    def show(shown: list[dict]) -> None:
        show_sessions(shown, deleted=deleted, hidden=hidden, older=len(listed) - len(shown),
                      current=None if deleted else current)

    if fit and deleted:  # the most recently deleted first
        show_fitting(rows, show)
    elif fit:  # in the order added: the newest that fit
        show_fitting(rows[::-1], lambda fitting: show(fitting[::-1]))
    else:
        show(rows)


@app.command(short_help="Make a session current.")
def use(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A session name or a unique prefix of one.", metavar="NAME", autocompletion=SESSIONS),
) -> None:
    """Make a session current.

    Example: ginscore use hollywood-2
    """
    with store_of(ctx).writing() as db:
        found = db.find_name(name)
        db.make_current(found)
    from ginscore.present.console import say

    say(f"Now keeping score in '{found}'.")


@app.command(short_help="Print the database's path.")
def where(ctx: typer.Context) -> None:
    """Print the path of the database file in use.

    Example: ginscore where
    """
    path = str(store_of(ctx).path)
    encoding = sys.stdout.encoding
    shown = path if shows_plainly(path, encoding) else shell_word(path, encoding)
    # a script: the path's own bytes, undecodable ones too; a person: a path to copy, every character visible
    write_exactly(os.fsencode(path) + b"\n", f"{shown}\n")


def _what_it_holds(standings) -> str:
    """What a session holds, in one line: variant, players, hands, the result so far."""
    facts = standings.facts
    if facts.variant == "hollywood":
        scores = "; ".join(
            f"game {g.number} " + " to ".join(str(g.scores[p]) for p in facts.players) for g in standings.games
        )
    else:
        scores = ", ".join(f"{p} {s}" for p, s in (standings.final or standings.totals).items())
    result = f"won by {standings.winner}" if standings.winner else "in play"
    return visible(
        f"'{facts.name}': {VARIANT_NAMES[facts.variant]}, {' v '.join(facts.players)}, "
        f"{counted(len(standings.hands), 'hand')}, {result} ({scores})"
    )


@app.command(short_help="Rename a session.")
def rename(
    ctx: typer.Context,
    new_name: str = typer.Argument(..., help="The session's new name.", metavar="NEW_NAME"),
    session: str = session_option(),
) -> None:
    """Rename the session (the current one unless --session names another).

    Names stay unique, ignoring case; a current session stays current.

    Example: ginscore rename friday-night
    """
    new = session_name(new_name, "rename")
    with store_of(ctx).writing() as db:
        old = db.find_name(session)
        if old != new:  # (the same name in other letters is a rename)
            db.rename(old, new)
    from ginscore.present.console import say

    say(f"'{visible(old)}' already has that name; nothing was changed." if old == new
        else f"Renamed '{visible(old)}' to '{new}'.")


@app.command(short_help="Delete a session.")
def delete(
    ctx: typer.Context,
    name: str = typer.Argument(None, help="The session to delete (exact name or unique prefix); the current one when left out.", metavar="NAME"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Delete without asking."),
) -> None:
    """Delete a session: it leaves the list, statistics and history, but nothing is destroyed.

    Shows what the session holds and asks first. `ginscore sessions --deleted`
    lists deleted sessions and `ginscore restore NAME` brings one back whole.

    Example: ginscore delete test-1 --yes
    """
    from ginscore.present.console import say

    store = store_of(ctx)
    reading = store.reading()
    found = reading.find_name(name)
    try:
        facts = reading.load(found)
        what = _what_it_holds(replay_stored(store, facts))
    except DatabaseUnusable as error:  # a session damaged by an edit by hand: set it aside, unread
        facts, what = None, f"'{visible(found)}', which cannot be read ({error.problem.split(';')[0]})"
    if not asked(f"Delete {what}?", yes, "delete", names=facts.players if facts else ()):
        return
    with store.writing() as db:
        if facts is not None and db.load(facts.name) != facts:
            raise Refused("the session changed while you were asked; run ", Command("delete", as_typed(found)), " again")
        was_current = db.delete(found, time_now())
    say(f"Deleted {what}. " + ("" if facts is not None else "Once it is mended in the file, "),
        Command("restore", as_typed(found)), " brings it back.")
    if was_current:
        say("No session is current now: pick one with ", Command("use", "NAME"), " (see ", Command("sessions"),
            ") or start one with ", Command("new"), ".")


@app.command(short_help="Restore a deleted session.")
def restore(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A deleted session's name (see `ginscore sessions --deleted`).", metavar="NAME",
                               autocompletion=DELETED),
    new_name: str = typer.Option(None, "--name", metavar="NAME",
                                 help="Bring it back under this name (when its own is in use)."),
) -> None:
    """Bring a deleted session back whole and make it current.

    Of two deleted sessions with the same name, the one deleted last comes
    back. Refused when a live session has that name now: rename one of them.

    Example: ginscore restore friday
    """
    new = session_name(new_name) or None
    with store_of(ctx).writing() as db:
        facts, left = db.restore(name, new)
    from ginscore.present.console import say

    store = store_of(ctx)
    reading = store.reading()
    say(f"Restored {_what_it_holds(replay_stored(store, facts))}; it is the current session now.")
    # A rematch set aside while its game was corrected still deals as the game stood (R5, R23); one set
    # aside for another started after it is left behind in its match: either is said.
    game, later = game_before(reading, facts), game_after(reading, facts)
    if later is not None and not facts.hands:
        say(f"Its match has gone on without it, to '{visible(later.name)}': ", Command("delete", as_typed(facts.name),
            "--yes"), " sets it aside again.", names=(f"'{visible(later.name)}'",))
    for parts, names in rematch_news(reading, replay_stored(store, game), since="its later changes") if game else ():
        say(f"'{visible(game.name)}': ", *parts, names=names)
    if left:
        say(f"Still deleted under the name '{visible(left[0])}': {counted(len(left), 'other session')}; ",
            Command("restore", as_typed(left[0]), "--name", "NEW"), " brings back the one deleted last.")
