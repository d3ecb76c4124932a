"""A session as the table told it: who plays, the variant, the house rules and when they changed
(H8), who dealt first, and each hand (R1-R25). Facts only: no score is kept; ``replay`` works the
standings out of them.
"""

from typing import NamedTuple

from ginscore.core.cards import Card, SUITS
from ginscore.core.scoring import HouseRules


class Roles(NamedTuple):
    """Three-player roles for one hand (R21-R23)."""

    box: str
    captain: str
    out: str

    def after(self, box_won: bool) -> "Roles":
        """R23: who plays which role in the next hand."""
        if box_won:
            return Roles(self.box, self.out, self.captain)
        return Roles(self.captain, self.out, self.box)

    def to_dict(self) -> dict:
        return {"box": self.box, "captain": self.captain, "out": self.out}


def in_hand(players: tuple[str, ...], roles: Roles | None) -> tuple[str, ...]:
    """Who plays a hand: both players, or of three the box and the captain (R22)."""
    return (roles.box, roles.captain) if roles else players


class Knock(NamedTuple):
    """A knocked hand as told at the table (opponent's deadwood after lay-offs)."""

    knocker: str
    knocker_deadwood: int
    opponent_deadwood: int
    upcard: Card | None = None
    big_gin: bool = False
    recorded_at: str | None = None
    knocker_cards: tuple[Card, ...] | None = None  # when told as cards: the counts come from them
    opponent_cards: tuple[Card, ...] | None = None
    note: str | None = None  # a remark kept with the hand (`--note`)
    dealer: str | None = None  # two-player: who dealt it, as it happened (H8); None until stored
    roles: Roles | None = None  # three-player: who was in the box (and dealt), captain and out (H8)


class Draw(NamedTuple):
    """A drawn hand (R12)."""

    upcard: Card | None = None
    recorded_at: str | None = None
    note: str | None = None
    dealer: str | None = None  # as Knock's
    roles: Roles | None = None


Hand = Knock | Draw


def keeps_who_dealt(hand: Hand) -> bool:
    """Whether a hand keeps who dealt it (or its roles): every hand of a schema 5 file does (H8); an
    older file's hands are given theirs when it is upgraded."""
    return hand.dealer is not None or hand.roles is not None


class RuleChange(NamedTuple):
    """H8: the house rules in force from a hand on."""

    from_hand: int
    rules: HouseRules

    def to_dict(self) -> dict:
        """As exported and in ``status --json`` (docs/commands.md)."""
        return {"from_hand": self.from_hand, "rules": self.rules.to_dict()}


class SessionFacts(NamedTuple):
    """Everything a session is; standings are derived from it."""

    name: str
    variant: str
    players: tuple[str, ...]
    rules: HouseRules = HouseRules()
    first_dealer: str | None = None  # two-player variants (R5)
    first_roles: Roles | None = None  # three-player (R21)
    hands: tuple[Hand, ...] = ()
    created_at: str | None = None
    match: str | None = None  # sessions linked by `rematch` share this id (stable across renames)
    id: str | None = None  # the session's own random id, given when it starts; kept by export, merge and import
    # H8: every period of the rules from hand 1, the last one ``rules``; empty while they never changed
    rule_changes: tuple[RuleChange, ...] = ()

    @property
    def game_word(self) -> str:
        """What a session plays to its end, in words: a Hollywood series (R19), else a game."""
        return "series" if self.variant == "hollywood" else "game"

    def rules_for(self, number: int) -> HouseRules:
        """The house rules hand ``number`` is (or will be) played under (H8)."""
        if not self.rule_changes or number > len(self.hands):
            return self.rules
        begun = (change.rules for change in reversed(self.rule_changes) if change.from_hand <= number)
        return next(begun, self.rule_changes[0].rules)

    def periods(self) -> tuple[RuleChange, ...]:
        """Every period of the rules (H8), from hand 1: ``rule_changes``, or the one of ``rules``."""
        return self.rule_changes or (RuleChange(1, self.rules),)


def draw_for_roles(players: tuple[str, ...], rng) -> tuple[Roles, list[tuple[str, Card]]]:
    """R21: the first roles by a draw of cards (king high, ties draw again), and the deciding draw."""
    # This order and ``rng`` decide the draw: a seeded run draws the same cards.
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in SUITS]
    while True:
        drawn = list(zip(players, rng.sample(deck, len(players))))
        if len({card.rank for _, card in drawn}) == len(players):
            break
    order = [name for name, _ in sorted(drawn, key=lambda pair: -pair[1].rank)]
    return Roles(*order), drawn
