"""Ratings: a ladder of every player over every finished game (OpenSkill Plackett-Luce)."""

import typer

from ginscore.cache.rows import Listings
from ginscore.core.errors import Refused
from ginscore.cli.actions import rated_ladder, rated_names, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import json_option, Variant
from ginscore.cli.options import EVERYONE  # what --player completes to
from ginscore.cli.output import print_json
from ginscore.cli.typed import since_day
from ginscore.core.ratings import places, unrated
from ginscore.core.names import player_named

CHARTED = 9  # players one chart tells apart (one mark each: initials, else 1-9)


@app.command(short_help="Rank every player.")
def ratings(
    ctx: typer.Context,
    variant: Variant = typer.Option(None, "--variant", help="Rate only the games of this variant."),
    since: str = typer.Option(None, "--since", help="Rate only the games finished on or after this date.",
                              metavar="DATE"),
    players: list[str] = typer.Option(None, "--player", metavar="NAME", autocompletion=EVERYONE,
                                      help="Show this player's line and their rating after each of their games "
                                      "(repeat it for more; with --chart, chart only them)."),
    chart: bool = typer.Option(False, "--chart", help="Draw each player's rating game by game."),
    as_json: bool = json_option(),
) -> None:
    """A ladder of every player over every finished game, rated with OpenSkill.

    Each finished game is one match (Hollywood: each of its three games;
    three-player: one match of three), rated in the order the games
    finished with the Plackett-Luce model. The rating is mu - 3 sigma: what
    the player surely plays at least as well as. Worked out from the hands,
    so an edited, undone or deleted game changes it.

    Example: ginscore ratings --player ann
    """
    if chart and as_json:
        raise Refused("give --chart or --json, not both (--json --player NAME holds each rating game by game)")
    day = since_day(since)
    store = store_of(ctx)
    listings = Listings(store.reading())

    names = rated_names(store, listings)
    known = list(names.values())
    wanted = list(dict.fromkeys(player_named(known, name, str.casefold) for name in players or []))  # each once
    if chart and len(wanted) > CHARTED:
        raise Refused(f"a chart tells {CHARTED} players apart; name at most {CHARTED} with --player")
    history = bool(wanted) or chart
    doc = rated_ladder(store, listings, names, variant.value if variant else None, day, history)
    ranks = dict(zip((line["name"] for line in doc["players"]), places(doc["players"])))
    if wanted:
        lines = {line["name"]: line for line in doc["players"]}
        doc["players"] = [lines.get(name) or unrated(name) for name in wanted]
    if as_json:
        print_json(doc)
        return
    from ginscore.present.chart import show_ratings_chart
    from ginscore.present.stats import show_ratings

    filtered = (variant, since) != (None, None)
    if chart:
        show_ratings_chart(doc["players"][:CHARTED], more=len(doc["players"]) - CHARTED, filtered=filtered,
                           named=bool(wanted))
    else:
        show_ratings(doc["players"], [ranks.get(line["name"]) for line in doc["players"]],
                     named=bool(wanted), filtered=filtered)
