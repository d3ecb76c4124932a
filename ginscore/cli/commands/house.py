"""The session's house rules: show them, or change them, from the start or from the next hand (H1-H8)."""

from functools import partial

import typer

from ginscore.core.errors import BadHandAt, GameOver, Refused
from ginscore.core.reports import counted
from ginscore.core.changes import rules_from, rules_from_start
from ginscore.core.replay import check_rules, replay, Standings
from ginscore.cli.actions import is_over, next_game_advice, rematch_news, replay_stored, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import session_option
from ginscore.cli.rule_options import HOUSE_COMMAND_OPTIONS, rule_values_given, takes_house_rules


@app.command(short_help="See or change house rules.")
@partial(takes_house_rules, options=HOUSE_COMMAND_OPTIONS)
def house(
    ctx: typer.Context,
    given_rules: dict = None,  # the house-rule options and --no-big-gin (takes_house_rules)
    from_start: bool = typer.Option(False, "--from-start", help="The rule was set wrong: every hand is rescored "
                                    "under it; who dealt each hand stays (H8)."),
    from_next: bool = typer.Option(False, "--from-next",
                                   help="From the next hand on: the hands played keep their scores (H8)."),
    session: str = session_option(),
) -> None:
    """The session's house rules; with options, change them.

    Takes the house-rule options of `new`, and the off forms --no-shutout,
    --no-spades-double, --no-ace-means-gin and --no-big-gin. Before the first
    hand a change simply applies. After it, say from when (H8): --from-start
    (the rule was set wrong: every hand is rescored, who dealt each stays)
    or --from-next (from the next hand on: the hands played keep their
    scores). A change that a recorded hand could not stand under (a big gin
    with big gin turned off, a target a hand before the last already
    reached, ...) is refused whole.

    Example: ginscore house --gin-bonus 20 --from-next
    """
    from ginscore.present.console import say
    from ginscore.present.screens import show_house, show_house_change

    changes = rule_values_given(given_rules)
    if given_rules["no_big_gin"]:
        if "big_gin_bonus" in changes:
            raise Refused("give --big-gin-bonus N or --no-big-gin, not both")
        changes["big_gin_bonus"] = None
    if from_start and from_next:
        raise Refused("give --from-start or --from-next, not both: a change applies to every hand, or from the "
                      "next hand on (H8)")
    if not changes:
        if from_start or from_next:
            raise Refused(f"{'--from-start' if from_start else '--from-next'} says from when a change applies; "
                          "give the house rule to change too, like --gin-bonus 20 (H8)")
        facts = store_of(ctx).reading().load(session)
        show_house(facts, named=session is not None, over=is_over(facts))
        return
    with store_of(ctx).writing() as db:
        facts = db.load(session)
        hands_played = len(facts.hands)
        rules = facts.rules._replace(**changes)
        rules.check(facts.variant)  # a rule that cannot be is said first, before from when
        from_the_start = rules_from_start(facts, changes)
        standings_before = replay_stored(store_of(ctx), facts)  # a stored hand that breaks a rule is damage: exit 1
        if hands_played and not (from_start or from_next) and from_the_start != facts:
            played = f"'{facts.name}' has {counted(hands_played, 'hand')} played"
            if standings_before.over:  # no hand comes next: only a correction is left to say
                raise Refused(f"{played} and is over, so a change corrects the rules it was played with: add "
                              "--from-start (every hand is rescored) (H8)")
            raise Refused(f"{played}, so say from when: --from-start (the rule was set wrong: every hand is "
                          f"rescored) or --from-next (from hand {hands_played + 1} on: the hands played keep their "
                          "scores) (H8)")
        if from_next and hands_played:
            if standings_before.over:
                raise Refused(f"'{facts.name}' is over, so no hand comes next for --from-next to apply to; "
                              "--from-start corrects the rules it was played with (H8)")
            new_facts = rules_from(facts, hands_played + 1, rules)
        else:
            new_facts = from_the_start
            check_rules(new_facts)
        try:
            standings = replay(new_facts)
        except BadHandAt as error:
            why = error.error
            if error.number > hands_played:  # (a change from the next hand on: that hand is not played yet)
                raise Refused(f"refused: {why}; nothing was changed") from None
            if isinstance(why, GameOver):  # a lower target: the game would have ended before this hand
                why = "the game would already have been won before it"
            raise Refused(
                f"refused: under those rules hand {error.number} could not stand ({why}); nothing was changed"
            ) from None
        of_rematch = []
        if new_facts != facts:
            db.save(new_facts)
            of_rematch = rematch_news(db, standings, facts)
    from_hand = hands_played + 1 if from_next and hands_played else None
    show_house_change(standings_before, standings, from_hand=from_hand,
                      what_follows=next_game_advice(store_of(ctx).reading, standings))
    news = _game_news(standings_before, standings)
    if news:
        say(news)
    for parts, names in of_rematch:
        say(*parts, names=names)


def _game_news(before: Standings, after: Standings) -> str | None:
    """What new rules did to the end of the game: reopened it, ended it, or gave it another winner."""
    game = after.facts.game_word
    if before.over and not after.over:
        return f"Under these rules the {game} {before.winner} had won is not over yet: it goes on."
    if after.over and not before.over:
        return f"Under these rules the {game} is over: {after.winner} wins."
    if before.over and before.winner != after.winner:
        return f"Under these rules {after.winner} wins the {game}, not {before.winner}."
    return None

