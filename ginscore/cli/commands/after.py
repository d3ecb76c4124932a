"""After the game: statistics and history across every session."""

import typer

from ginscore.cache.rows import Listings
from ginscore.core.errors import UnknownPlayer
from ginscore.core.names import fold, match_name, player_named
from ginscore.cli.actions import store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import all_option, json_option, limit_option, Variant
from ginscore.cli.options import EVERYONE  # what these arguments complete to
from ginscore.cli.output import print_json, print_json_items
from ginscore.cli.typed import how_many, since_day
from ginscore.core.stats import combine_tallies, tally
from ginscore.core.times import time_order


def _picked(listings: Listings, variant: Variant | None = None, since: str | None = None,
            player: str | None = None) -> tuple[list[int], list[dict]]:
    """The sessions the filters of `stats` and `history` choose (their document numbers, oldest first) and
    their tallies, from the cache's tally groups: only a group that --since cuts in two reads its rows."""
    day = since_day(since)
    groups = listings.tally_groups()
    if player is not None:  # a unique prefix, as everywhere; spellings of one name (José, Jose) are one
        known = sorted({p for group in groups for p in group["players"]})
        meant = {fold(p) for p in match_name(known, player)}
        if len(meant) != 1:
            player_named(known, player, lambda p: (fold(p), p))  # raises: who it could be, or nobody
        wanted = meant.pop()
    started, tallies = [], []
    for group in groups:
        if variant is not None and group["variant"] != variant.value:
            continue
        if player is not None and wanted not in {fold(p) for p in group["players"]}:
            continue
        # (started, document number) of each session in the group
        lines = [(when or "", number) for when, number, *_ in group["tally"]["sessions"]]
        kept = lines if since is None else [(when, number) for when, number in lines if when[:10] >= day]
        if not kept:
            continue
        started += kept
        if len(kept) == len(lines):
            tallies.append(group["tally"])
        else:
            numbers = [number for _, number in kept]
            tallies.append(tally([row | {"id": n} for n, row in zip(numbers, listings.summaries(numbers))]))
    in_time = time_order(when for when, _ in started)
    started.sort(key=lambda pair: (in_time(pair[0]), pair[1]))  # as played: ties in the order added
    return [number for _, number in started], tallies


@app.command(short_help="Show player statistics.")
def stats(
    ctx: typer.Context,
    player: str = typer.Argument(
        None, help="Show only this player (and their head-to-head).", metavar="PLAYER", autocompletion=EVERYONE
    ),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    since: str = typer.Option(None, "--since", help="Only sessions started on or after this date.", metavar="DATE"),
    with_player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME",
                                   autocompletion=EVERYONE),
    as_json: bool = json_option(),
) -> None:
    """Who wins, gins and gets undercut: statistics across every session.

    Worked out from the hands as told, like the standings, so an edited hand
    changes them too. A run of wins ends at any hand not won, a draw too.

    Example: ginscore stats --since 2026-01-01
    """
    doc = combine_tallies(_picked(Listings(store_of(ctx).reading()), variant, since, with_player)[1])
    if player is not None:
        names = list(doc["players"])
        if not names:
            raise UnknownPlayer(f"no hands played in the sessions that match, so there is no '{player}' to show")
        among = " in the sessions chosen" if (variant, since, with_player) != (None, None, None) else ""
        name = player_named(names, player, fold, among)
        doc = {
            "players": {name: doc["players"][name]},
            "head_to_head": [h for h in doc["head_to_head"] if name in h["players"]],
        }
    if as_json:
        print_json(doc)
        return
    from ginscore.present.stats import show_stats

    show_stats(doc)


@app.command(short_help="List past sessions.")
def history(
    ctx: typer.Context,
    player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME",
                                   autocompletion=EVERYONE),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    show_all: bool = all_option(),
    limit: int = limit_option(),
    as_json: bool = json_option(),
) -> None:
    """Past sessions, newest first: when each started, its name and variant, hands, winner and score.

    Shows the newest that fit one screen and says how many more there are;
    --all shows every one, --limit N the newest N. --json prints every one
    unless --limit is given.

    Example: ginscore history --player ann
    """
    newest, fit = how_many(show_all, limit, as_json)
    filters = (*(("--player", player) if player is not None else ()),  # as typed: what the advice below repeats
               *(("--variant", variant.value) if variant is not None else ()))
    db = store_of(ctx).reading()
    listings = Listings(db)
    if variant is None and player is None:  # each start is listed: only the rows shown are read
        # ties keep their order; a damaged start (None) sorts first, and reading it fails
        listed = db.listed()  # (document number, name, started) of each
        started = time_order(when for _, _, when in listed)
        chosen = [number for number, _, _ in sorted(listed, key=lambda entry: started(entry[2]))]
    else:
        chosen = _picked(listings, variant, None, player)[0]
    shown = chosen[::-1][:newest]  # newest first
    if as_json:
        print_json_items(listings.listed_items(shown, "history"))
        return
    from ginscore.present.lists import HISTORY_HEADS, from_kept_cells, history_cells, history_lines, show_fitting
    from ginscore.present.lists import show_history, show_long_history

    if not fit and from_kept_cells(len(shown)):  # years of sessions: their cells as kept, no rows read
        cells = listings.listed_cells(shown, "history", history_cells, len(HISTORY_HEADS))
        show_long_history(cells, db.matched(shown), len(chosen) - len(shown), filters)
        return
    rows = list(listings.history_items(shown))

    def show(shown: list[dict]) -> None:
        show_history(shown, older=len(chosen) - len(shown), filters=filters,
                     hidden=0 if shown else db.deleted_count())

    if fit:
        show_fitting(rows, show, history_lines)
    else:
        show(rows)
