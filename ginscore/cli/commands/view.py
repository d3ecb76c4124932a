"""One session for people and scripts: standings, dealer, log, rules, chart."""

import typer

from ginscore.core.changes import as_it_ended
from ginscore.core.errors import Command, Refused
from ginscore.cli.actions import is_over, load_standings, match_of, next_game_advice, replay_stored, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import json_option, session_option, Variant
from ginscore.cli.output import print_json
from ginscore.core.reports import (dealer_dict, log_dict, match_dict, never_in_force, rules_words, status_dict,
                                     VARIANT_NAMES)


@app.command(short_help="Show the standings.")
def status(ctx: typer.Context, as_json: bool = json_option(), session: str = session_option()) -> None:
    """Standings: totals (Hollywood: three games), who deals next, roles, winners.

    With a stake (H7), who pays whom once the game is over; for a session
    started by `rematch`, the match so far.

    Example: ginscore status --json
    """
    store = store_of(ctx)
    db = store.reading()
    facts = db.load(session)
    standings = replay_stored(store, facts)
    match = match_of(store, db, facts)
    if as_json:
        print_json(status_dict(standings, match))
        return
    from ginscore.present.screens import show_match, show_standings

    show_standings(standings, what_follows=next_game_advice(lambda: db, standings))
    if match and len(match) > 1:  # the others deleted, or never brought here: no match to show a person
        show_match(match_dict(match))


@app.command(short_help="Say who deals next.")
def dealer(ctx: typer.Context, as_json: bool = json_option(), session: str = session_option()) -> None:
    """Who deals the next hand (three-player: who is in the box, captains, sits out).

    Example: ginscore dealer
    """
    store = store_of(ctx)
    db = store.reading()
    standings = replay_stored(store, db.load(session))
    if as_json:
        print_json(dealer_dict(standings))
        return
    from ginscore.present.screens import show_dealer  # Rich is loaded for people only

    show_dealer(standings, next_game_advice(lambda: db, standings))


@app.command(short_help="List the session's hands.")
def log(ctx: typer.Context, as_json: bool = json_option(), session: str = session_option()) -> None:
    """Every hand of the session with its result and running totals.

    Example: ginscore log
    """
    standings = load_standings(ctx, session)
    if as_json:
        print_json(log_dict(standings))
        return
    from ginscore.present.log import show_log

    show_log(standings)


@app.command(short_help="Explain the rules.")
def rules(
    ctx: typer.Context,
    variant: Variant = typer.Argument(
        None, help="standard, oklahoma, hollywood or three; default: the current session's.", metavar="VARIANT"
    ),
) -> None:
    """The rules in plain words, and the current session's house rules.

    Example: ginscore rules oklahoma
    """
    from ginscore.present.console import say
    from ginscore.present.rulebook import rule_lines, show_rules

    db = store_of(ctx).reading()
    try:
        facts = db.load(None) if db.names() else None
    except Refused:
        facts = None
    chosen = variant.value if variant else (facts.variant if facts else None)
    show_rules(rule_lines(chosen))
    if facts:
        # a finished game: the rules it ended under, not a change from a hand it never reached (H8)
        ended_under, never = as_it_ended(facts, facts.rule_changes and is_over(facts))
        house = "; ".join(rules_words(ended_under))
        say("")
        if facts.variant == chosen:
            say(f"House rules of '{facts.name}' ({VARIANT_NAMES[facts.variant]}): {house}.")
            if never:
                say(never_in_force(facts, never, end="; "), Command("house"), " shows how they changed during play.")
            elif facts.rule_changes:  # the hands before were played under others (H8)
                say(f"In force from hand {facts.rule_changes[-1].from_hand} on; ", Command("house"),
                    " shows how they changed during play (H8).")
        else:  # the current session plays another variant: its house rules are not these rules'
            say(f"The current session '{facts.name}' is {VARIANT_NAMES[facts.variant]}, not {VARIANT_NAMES[chosen]}; "
                f"its own house rules: {house}.")


@app.command(short_help="Chart the scores.")
def chart(ctx: typer.Context, session: str = session_option()) -> None:
    """The session's scores over its hands, drawn in the terminal, with the target.

    One letter a player, so it reads without colour; Hollywood's three games
    are drawn side by side.

    Example: ginscore chart
    """
    from ginscore.present.chart import show_chart

    show_chart(load_standings(ctx, session))
