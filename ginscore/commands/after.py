"""After the game: statistics and history across every session."""

from __future__ import annotations

import typer

from ..errors import Refused, UnknownPlayer
from ..shown import visible
from ..variants import fold, match_name, resolve_player
from .common import app, _all_option, _how_many, _json_option, _limit_option, _print_json, _store, Variant
from .common import EVERYONE  # what these arguments complete to


def _started(entry: tuple) -> str:
    """When a listed session started, for sorting (a damaged start sorts first; reading it fails)."""
    return entry[2] if isinstance(entry[2], str) else ""


def _chosen(ctx: typer.Context, variant: Variant | None = None, since: str | None = None,
            player: str | None = None, newest: int | None = None, lean: bool = False) -> tuple[list[dict], int]:
    """The summary rows of the sessions the filters of `stats` and `history` choose, oldest
    first (only the ``newest`` N when given), and how many were chosen.

    Rows come from the summary kept beside the facts (``Database.summaries``),
    so nothing is replayed; without filters only the rows shown are read.
    """
    if since is not None:
        from datetime import date

        try:
            day = date.fromisoformat(since.strip()).isoformat()
        except ValueError:
            raise Refused(f"--since takes a date like 2026-11-01, not '{since}'") from None
    db = _store(ctx).reading()
    if variant is None and since is None and player is None:
        listed = sorted(db.listed(), key=_started)  # stable: ties keep their order
        picked = listed if newest is None else listed[-newest:]
        return db.summaries([entry[0] for entry in picked], lean), len(listed)
    everything = db.summaries(lean=lean)
    chosen = everything
    if variant is not None:
        chosen = [r for r in chosen if r["variant"] == variant.value]
    if since is not None:
        chosen = [r for r in chosen if (r["created_at"] or "")[:10] >= day]
    if player is not None:
        known = sorted({p for r in everything for p in r["players"]}, key=fold)
        wanted = fold(player.strip())
        if wanted not in {fold(p) for p in known}:
            raise UnknownPlayer(f"nobody named '{player}' has played; the players are {', '.join(known) or 'none yet'}")
        chosen = [r for r in chosen if wanted in {fold(p) for p in r["players"]}]
    chosen.sort(key=lambda r: r["created_at"] or "")
    return (chosen if newest is None else chosen[-newest:]), len(chosen)


@app.command()
def stats(
    ctx: typer.Context,
    player: str = typer.Argument(
        None, help="Show only this player (and their head-to-head).", metavar="PLAYER", autocompletion=EVERYONE
    ),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    since: str = typer.Option(None, "--since", help="Only sessions started on or after this date.", metavar="DATE"),
    with_player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME",
                                   autocompletion=EVERYONE),
    as_json: bool = _json_option(),
) -> None:
    """Who wins, gins and gets undercut: statistics across every session.

    Worked out from the hands as told, like the standings, so an edited hand
    changes them too.

    Example: ginscore stats --since 2026-01-01
    """
    from ..stats import combine, combine_tallies

    if (variant, since, with_player) == (None, None, None):  # every session: the totals and tallies kept beside them
        db = _store(ctx).reading()
        kept = db.running_totals()
        doc = combine_tallies(kept[1], start=kept[0]) if kept else None
        if doc is None:  # no totals kept, or the newest part holds a session played before the last they count
            doc = combine_tallies(db.tallies())
    else:
        doc = combine(_chosen(ctx, variant, since, with_player)[0])
    if player is not None:
        names = list(doc["players"])
        if not names:
            raise UnknownPlayer(f"no sessions match, so there is no '{player}' to show")
        if not match_name(names, player):  # stats span sessions: not "no player in this session"
            among = " in the sessions chosen" if (variant, since, with_player) != (None, None, None) else ""
            raise UnknownPlayer(
                f"nobody named '{visible(player)}' has played{among}; the players are {', '.join(names)}"
            )
        name = resolve_player(names, player)
        doc = {
            "players": {name: doc["players"][name]},
            "head_to_head": [h for h in doc["head_to_head"] if name in h["players"]],
        }
    if as_json:
        _print_json(doc)
        return
    from .. import render

    render.show_stats(doc)


@app.command()
def history(
    ctx: typer.Context,
    player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME",
                                   autocompletion=EVERYONE),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    show_all: bool = _all_option(),
    limit: int = _limit_option(),
    as_json: bool = _json_option(),
) -> None:
    """Past sessions, newest first: date, variant, players, winner, final score.

    Shows the newest that fit one screen and says how many more there are;
    --all shows every one, --limit N the newest N. --json prints every one
    unless --limit is given.

    Example: ginscore history --player ann
    """
    newest, fit = _how_many(show_all, limit, as_json)
    rows, chosen = _chosen(ctx, variant, None, player, newest, lean=True)  # the rows without their counts
    rows.reverse()
    if as_json:
        _print_json(rows)
        return
    from .. import render

    if fit:
        rows = rows[:render.fitting(rows, render.history_lines)]
    render.show_history(rows, older=chosen - len(rows))
