"""The session's house rules: show them, or change them and rescore every hand (H1-H7)."""

import typer

from ginscore.core.errors import BadHandAt, GameOver, Refused
from ginscore.core.replay import replay, Standings
from ginscore.cli.actions import store_of
from ginscore.cli.command import app
from ginscore.cli.options import session_option
from ginscore.cli.rule_options import house_rule_options, rule_choices


@app.command(short_help="See or change house rules.")
@house_rule_options(no_big_gin=True)
def house(
    ctx: typer.Context,
    given_rules: dict = None,  # the house-rule options and --no-big-gin (house_rule_options)
    session: str = session_option(),
) -> None:
    """The session's house rules; with options, change them and rescore every hand.

    Takes the house-rule options of `new`, and the off forms --no-shutout,
    --no-spades-double, --no-ace-means-gin and --no-big-gin. A change that a
    recorded hand could not stand under (a big gin with big gin turned off, a
    target a hand before the last already reached, ...) is refused whole.

    Example: ginscore house --gin-bonus 20 --deal alternate
    """
    from ginscore.present.console import say
    from ginscore.present.screens import show_house, show_house_change

    changes = rule_choices(given_rules)
    if given_rules["no_big_gin"]:
        if "big_gin_bonus" in changes:
            raise Refused("give --big-gin-bonus N or --no-big-gin, not both")
        changes["big_gin_bonus"] = None
    if not changes:
        show_house(store_of(ctx).reading().load(session), named=session is not None)
        return
    with store_of(ctx).writing() as db:
        facts = db.load(session)
        before = replay(facts)
        rules = facts.rules._replace(**changes)
        rules.check(facts.variant)
        changed = facts._replace(rules=rules)
        try:
            standings = replay(changed)
        except BadHandAt as error:
            why = error.error
            if isinstance(why, GameOver):  # a lower target: the game would have ended before this hand
                why = "the game would already have been won before it"
            raise Refused(
                f"refused: under those rules hand {error.number} could not stand ({why}); nothing was changed"
            ) from None
        if rules != facts.rules:
            db.save(changed)
    show_house_change(facts, changed, standings)
    news = _game_news(before, standings)
    if news:
        say(news)


def _game_news(before: Standings, after: Standings) -> str | None:
    """What new rules did to the end of the game: reopened it, ended it, or gave it another winner."""
    game = "series" if after.facts.variant == "hollywood" else "game"
    if before.over and not after.over:
        return f"Under these rules the {game} {before.winner} had won is not over yet: it goes on."
    if after.over and not before.over:
        return f"Under these rules the {game} is over: {after.winner} wins."
    if before.over and before.winner != after.winner:
        return f"Under these rules {after.winner} wins the {game}, not {before.winner}."
    return None
