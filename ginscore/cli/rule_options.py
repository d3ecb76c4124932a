"""The house-rule options (H1-H7) of `new`, `import` and `house`, declared once; loaded with the
command modules that hold them (table, exports, house)."""

import inspect
from enum import Enum

import typer

from ginscore.cli.options import whole_number, with_parameters
from ginscore.core.scoring import DEALS, HouseRules, parse_stake

Deal = Enum("Deal", {name: name for name in DEALS}, type=str)  # H6 choices, as typer shows them


def rule_option(name: str, kind: type, default, *declared, **settings) -> inspect.Parameter:
    if kind is int:  # (each a number of points)
        settings.update(parser=whole_number(), metavar="POINTS")
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=kind,
                             default=typer.Option(default, *declared, **settings))


# House rules (H1-H7), in the order `new`, `import` and `house` list them; None means "not given".
HOUSE_RULE_OPTIONS = (
    rule_option("target", int, None, "--target", help="Points that win a game; default 100 (R14, H5)."),
    rule_option("gin_bonus", int, None, "--gin-bonus", help="Gin bonus; default 25 (R11, H1)."),
    rule_option("undercut_bonus", int, None, "--undercut-bonus", help="Undercut bonus; default 10 (R10, H1)."),
    rule_option("big_gin_bonus", int, None, "--big-gin-bonus", help="Play big gin with this bonus, often 31 (H2)."),
    rule_option("game_bonus", int, None, "--game-bonus", help="Bonus to a game's winner, often 100 (H3)."),
    rule_option("box_bonus", int, None, "--box-bonus", help="Bonus per hand won, often 20 or 25 (H3)."),
    rule_option("shutout", bool, None, "--shutout/--no-shutout",
                help="Double the winner's final score on a shutout (H3)."),
    rule_option("spades_double", bool, None, "--spades-double/--no-spades-double",
                help="Oklahoma: a spade upcard doubles the hand (H4)."),
    rule_option("ace_means_gin", bool, None, "--ace-means-gin/--no-ace-means-gin",
                help="Oklahoma: an ace upcard allows only gin (H4)."),
    rule_option("deal", Deal, None, "--deal", help="Who deals after a hand: winner (default), loser or alternate (H6)."),
    rule_option("stake", str, None, "--stake", help="Play for this much a point, like 0.01; default 0 (H7).",
                metavar="AMOUNT"),
)
# `house` alone can turn big gin off (H2), listed right after --big-gin-bonus; the other house rules
# have an off form of their own.
NO_BIG_GIN = rule_option("no_big_gin", bool, False, "--no-big-gin", help="Stop playing big gin (H2).")
HOUSE_COMMAND_OPTIONS = tuple(added for option in HOUSE_RULE_OPTIONS
                              for added in ((option, NO_BIG_GIN) if option.name == "big_gin_bonus" else (option,)))


def takes_house_rules(function, options: tuple = HOUSE_RULE_OPTIONS):
    """Give a command ``options`` in place of its parameter ``given_rules``, which then holds what each was given."""
    return with_parameters(function, list(options), lambda given: {"given_rules": given}, where="given_rules")


def rule_values_given(given: dict) -> dict:
    """Each house rule given (``takes_house_rules``' ``given_rules``) by name, with its value; an off form is False."""
    chosen = {option.name: given[option.name] for option in HOUSE_RULE_OPTIONS if given[option.name] is not None}
    if "deal" in chosen:
        chosen["deal"] = chosen["deal"].value
    if "stake" in chosen:
        chosen["stake"] = parse_stake(chosen["stake"])  # H7: exact decimal, never a float
    return chosen


def house_rules_given(given: dict) -> HouseRules | None:
    """The house rules given (``takes_house_rules``' ``given_rules``) as ``HouseRules``, or None when none was."""
    chosen = {k: v for k, v in rule_values_given(given).items() if v is not False}
    return HouseRules(**chosen) if chosen else None
