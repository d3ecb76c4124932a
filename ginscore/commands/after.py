"""After the game: statistics and history across every session."""

from __future__ import annotations

import typer

from ..errors import Refused, UnknownPlayer
from ..shown import visible
from ..variants import fold, match_name, resolve_player, Standings
from .common import app, _json_option, _print_json, _standings, _store, Variant
from .common import EVERYONE  # what these arguments complete to


def _all_standings(ctx: typer.Context, variant: Variant | None = None, since: str | None = None,
                   player: str | None = None) -> list[Standings]:
    """Every session replayed, oldest first, after the filters of `stats` and `history`."""
    store = _store(ctx)
    everything = store.reading().all_facts()
    chosen = list(everything)
    if variant is not None:
        chosen = [f for f in chosen if f.variant == variant.value]
    if since is not None:
        from datetime import date

        try:
            day = date.fromisoformat(since.strip()).isoformat()
        except ValueError:
            raise Refused(f"--since takes a date like 2026-11-01, not '{since}'") from None
        chosen = [f for f in chosen if (f.created_at or "")[:10] >= day]
    if player is not None:
        known = sorted({p for f in everything for p in f.players}, key=fold)
        wanted = fold(player.strip())
        if wanted not in {fold(p) for p in known}:
            raise UnknownPlayer(f"nobody named '{player}' has played; the players are {', '.join(known) or 'none yet'}")
        chosen = [f for f in chosen if wanted in {fold(p) for p in f.players}]
    chosen.sort(key=lambda f: f.created_at or "")
    return [_standings(store, f) for f in chosen]


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
    from ..stats import statistics

    doc = statistics(_all_standings(ctx, variant, since, with_player))
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
    as_json: bool = _json_option(),
) -> None:
    """Past sessions, newest first: date, variant, players, winner, final score.

    Example: ginscore history --player ann
    """
    from ..summary import history_row

    rows = [history_row(st) for st in reversed(_all_standings(ctx, variant, None, player))]
    if as_json:
        _print_json(rows)
        return
    from .. import render

    render.show_history(rows)
