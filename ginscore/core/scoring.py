"""House rules and the score of one hand (R3, R7-R13, R15, H1-H7): ``score_hand`` is the only
place a hand's points are worked out."""

import re
from decimal import Decimal
from typing import NamedTuple

from ginscore.core.cards import Card
from ginscore.core.errors import BadDeadwood, BadHand, BadSetting, IllegalKnock, NoBigGin
from ginscore.core.escape import visible  # a rule or stake read from a file is shown in a message, never obeyed

VARIANTS = ("standard", "oklahoma", "hollywood", "three")
KNOCK_LIMIT = 10  # R7
MAX_DEADWOOD = 98  # R3: two each of K, Q, J, 10 and 9, no meld
MAX_SETTING = 10**9  # the largest target or bonus (benchmarks play long sessions to a high one): beyond, a typing error

# Outcomes, as docs/commands.md names them in the CSV.
KNOCK, UNDERCUT, GIN, BIG_GIN, DRAW = "knock", "undercut", "gin", "big-gin", "draw"

# H6: who deals after a decided hand (two-player variants).
WINNER_DEALS, LOSER_DEALS, ALTERNATE = "winner", "loser", "alternate"
DEALS = (WINNER_DEALS, LOSER_DEALS, ALTERNATE)

# H7: a stake is digits with at most STAKE_PLACES decimals (a hundredth of a cent),
# typed plainly (no sign, no exponent), up to MAX_STAKE a point.
STAKE_PLACES = 4
MAX_STAKE = Decimal(1_000_000)
_STAKE = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def parse_stake(text) -> Decimal:
    """Read a stake as typed or stored (H7): an exact decimal without trailing zeros, never a float."""
    if not isinstance(text, str):  # a JSON number could be a float: money is exact text
        raise BadSetting(f"the stake {visible(repr(text))} must be written as text, like \"0.01\" (H7)")
    typed = text.strip()
    if typed.startswith("-") and _STAKE.fullmatch(typed[1:]):
        if not Decimal(typed):  # "-0" is not below 0: what is wrong is the sign, as with deadwood
            raise BadSetting(f"the stake {typed} has a minus sign; give it like 0 or 0.01 (H7)")
        raise BadSetting(f"the stake must be 0 or more, not {typed}; give it like 0.01 or 2 (H7)")
    if not _STAKE.fullmatch(typed):
        raise BadSetting(f"the stake '{visible(text)}' is not an amount; give it like 0.01 or 2 (H7)")
    value = Decimal(typed)
    # counted as typed: normalize() rounds to the decimal context's precision, so a long 0.999... would pass as 1
    if len(typed.partition(".")[2].rstrip("0")) > STAKE_PLACES:
        raise BadSetting(f"the stake {typed} has more than {STAKE_PLACES} decimals; round it, like 0.01 (H7)")
    if value > MAX_STAKE:
        raise BadSetting(f"the stake {typed} is more than {MAX_STAKE} a point; give a smaller amount (H7)")
    return Decimal(stake_text(value.normalize())) if value else Decimal(0)


def stake_text(stake: Decimal) -> str:
    """A stake as kept in the file and shown: plain digits, no exponent (H7)."""
    return format(stake, "f")


# The house rules that are numbers, each at most MAX_SETTING; the bonuses, each 0 or more (big gin's too,
# when it is played), with the rules a refusal cites.
_NUMBER_RULES = ("target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus")
_BONUSES = {"gin_bonus": "H1, H3", "undercut_bonus": "H1, H3", "game_bonus": "H1, H3", "box_bonus": "H1, H3",
            "big_gin_bonus": "H2"}


def _option(rule: str) -> str:
    """The command-line option that sets a house rule: ``--gin-bonus`` for ``gin_bonus``."""
    return "--" + rule.replace("_", "-")


class HouseRules(NamedTuple):
    """A session's house rules (H1-H7), chosen when the session is created (`house` changes them)."""

    target: int = 100  # R14, H5
    gin_bonus: int = 25  # R11, H1
    undercut_bonus: int = 10  # R10, H1
    big_gin_bonus: int | None = None  # H2: None is off
    game_bonus: int = 0  # H3
    box_bonus: int = 0  # H3
    shutout: bool = False  # H3
    spades_double: bool = False  # H4, Oklahoma only
    ace_means_gin: bool = False  # H4, Oklahoma only
    deal: str = WINNER_DEALS  # H6
    stake: Decimal = Decimal(0)  # H7: per point; kept as an exact decimal string

    def to_dict(self) -> dict:
        data = self._asdict()
        data["stake"] = stake_text(self.stake)  # never a float (H7)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "HouseRules":
        """Rules as stored or imported, each a rule of the type its field is annotated with (as
        ``codec/facts.py`` checks them first); a file from 1.0 has no deal or stake: the defaults."""
        if "deal" in data and data["deal"] not in DEALS:
            raise BadSetting(f"the deal rule {data['deal']!r} is none of {', '.join(DEALS)} (H6)")
        if "stake" in data:
            data = data | {"stake": parse_stake(data["stake"])}
        return cls(**data)

    def check(self, variant: str) -> None:
        """Refuse settings that make no sense (docs/commands.md; H1-H7)."""
        if self.target <= 0:
            raise BadSetting(f"the target must be a whole number above 0, not {self.target} (H5)")
        for name in _NUMBER_RULES:
            if (getattr(self, name) or 0) > MAX_SETTING:
                raise BadSetting(f"{_option(name)} must be at most {MAX_SETTING}, not {getattr(self, name)} (H1-H5)")
        for name, cited in _BONUSES.items():
            if (getattr(self, name) or 0) < 0:  # (no big gin is None)
                raise BadSetting(f"{_option(name)} must be 0 or more, not {getattr(self, name)} ({cited})")
        if variant != "oklahoma":
            for name in ("spades_double", "ace_means_gin"):
                if getattr(self, name):
                    played = "three-player" if variant == "three" else variant
                    raise BadSetting(f"{_option(name)} is an Oklahoma house rule (H4); leave it out for {played}")
        if variant == "three" and self.deal != WINNER_DEALS:
            raise BadSetting(f"in three-player the box deals every hand (R22), so --deal {self.deal} cannot apply; leave it out")


class HandScore(NamedTuple):
    """What one knocked hand scored, and the parts that explain it."""

    outcome: str  # knock, undercut, gin, big-gin
    knocker_wins: bool  # R13: the knocker, or the opponent on an undercut
    difference: int  # deadwood difference (gin: the opponent's deadwood)
    bonus: int  # gin, big-gin or undercut bonus; 0 on a plain knock
    doubled: bool  # H4 spades double
    points: int


def check_deadwood(count: int, whose: str) -> None:
    """R3: deadwood is 0 to 98; anything else is a typing error."""
    if count < 0:
        raise BadDeadwood(f"{whose} deadwood {count} is negative; count the unmatched cards again (R3: 0 to 98)")
    if count > MAX_DEADWOOD:
        raise BadDeadwood(
            f"{whose} deadwood {count} is more than ten cards can hold (R3: at most 98); count again"
        )


def knock_limit(variant: str, rules: HouseRules, upcard: Card | None) -> int:
    """The most deadwood a knocker may hold this hand (R7, R15, H4)."""
    if variant != "oklahoma" or upcard is None:  # (Oklahoma without an upcard is refused before asking)
        return KNOCK_LIMIT
    if rules.ace_means_gin and upcard.rank == 1:
        return 0
    return upcard.value


def limit_rule(variant: str) -> str:
    """The rule a message cites for a hand's knock limit in ``variant``."""
    return "R15" if variant == "oklahoma" else "R7"


def check_upcard_suit(rules: HouseRules, upcard: Card | None) -> None:
    """H4: with spades double on, an upcard's suit decides whether the hand counts double."""
    if upcard is not None and upcard.suit is None and rules.spades_double:
        raise BadHand(f"spades double is on (H4), so the upcard needs its suit: type it like {upcard}s or {upcard}h")


def is_doubled(variant: str, rules: HouseRules, upcard: Card | None) -> bool:
    """H4: spades double, Oklahoma only."""
    return variant == "oklahoma" and rules.spades_double and upcard is not None and upcard.suit == "S"


def score_hand(
    rules: HouseRules,
    knocker_deadwood: int,
    opponent_deadwood: int,
    *,
    limit: int = KNOCK_LIMIT,
    limit_rule_id: str = "R7",
    big_gin: bool = False,
    doubled: bool = False,
    knocker: str = "the knocker",
    opponent: str = "the opponent",
) -> HandScore:
    """Score one knocked hand (R3, R7, R9-R11, R13, H1, H2, H4); ``opponent_deadwood`` is after lay-offs (R8)."""
    check_deadwood(knocker_deadwood, f"{knocker}'s")
    check_deadwood(opponent_deadwood, f"{opponent}'s")
    if knocker_deadwood > limit:
        if limit == 0:
            raise IllegalKnock(
                f"{knocker} knocked with {knocker_deadwood}, but this hand allows only gin (H4: ace means gin)",
                "check the upcard, or record the gin as 0"
            )
        raise IllegalKnock(
            f"{knocker} knocked with {knocker_deadwood}, over this hand's knock limit of {limit} ({limit_rule_id})",
            "check the count or play on"
        )
    if big_gin:
        if rules.big_gin_bonus is None:
            raise NoBigGin("this session plays no big gin (H2); leave out --big-gin")
        if knocker_deadwood != 0:
            raise BadHand(f"big gin melds all 11 cards, but {knocker} has {knocker_deadwood} deadwood (H2); "
                             "leave out --big-gin for a knock")
    if knocker_deadwood == 0:  # R11, H2: gin; the opponent never scores
        outcome, knocker_wins = BIG_GIN if big_gin else GIN, True
        difference = opponent_deadwood
        bonus = rules.big_gin_bonus if big_gin else rules.gin_bonus
    elif knocker_deadwood < opponent_deadwood:  # R9
        outcome, knocker_wins = KNOCK, True
        difference, bonus = opponent_deadwood - knocker_deadwood, 0
    else:  # R10: equal or lower
        outcome, knocker_wins = UNDERCUT, False
        difference, bonus = knocker_deadwood - opponent_deadwood, rules.undercut_bonus
    points = (difference + bonus) * (2 if doubled else 1)
    return HandScore(outcome, knocker_wins, difference, bonus, doubled, points)
