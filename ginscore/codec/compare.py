"""Two records of one session (the same id) told apart: kept, extended or diverged (docs/storage.md "Two machines").

Pure: no files, nothing printed. Hands are compared as told at the table, not when they were typed
in; house rules as the rules each hand was played under, for the hands both records hold (H8).
"""

from typing import NamedTuple

from ginscore.codec.facts import hand_to_dict
from ginscore.core.session import Hand, SessionFacts

KEPT, EXTENDED, DIVERGED = "kept", "extended", "diverged"


class Compared(NamedTuple):
    kind: str  # KEPT, EXTENDED or DIVERGED
    later: tuple[Hand, ...] = ()  # EXTENDED: their hands after ours
    hand: int | None = None  # DIVERGED: the first hand (counting from 1) that differs
    why: str = ""  # DIVERGED: what differs, in words
    theirs: SessionFacts | None = None  # EXTENDED: their record, whose rule changes come too (H8)

    def grown(self, ours: SessionFacts) -> SessionFacts:
        """EXTENDED: ours with their later hands, and their house rules from then on (H8)."""
        return ours._replace(hands=ours.hands + self.later, rules=self.theirs.rules,
                             rule_changes=self.theirs.rule_changes)


def _told(hand: Hand) -> dict:
    return hand_to_dict(hand._replace(recorded_at=None))


def compare(ours: SessionFacts, theirs: SessionFacts) -> Compared:
    """How their record of a session stands to ours."""
    for field, words in (("variant", "variant differs"), ("players", "players differ"),
                         ("first_dealer", "first dealer differs"), ("first_roles", "first roles differ")):
        if field == "first_dealer" and ours.variant == "three":  # the box deals (R22): its roles say who
            continue
        if getattr(ours, field) != getattr(theirs, field):
            return Compared(DIVERGED, why=f"its {words}")
    both = min(len(ours.hands), len(theirs.hands))
    hands = {1} | {c.from_hand for c in ours.rule_changes + theirs.rule_changes if c.from_hand <= both}
    differ = [n for n in sorted(hands) if ours.rules_for(n) != theirs.rules_for(n)]
    if differ:
        return Compared(DIVERGED, why=_rules_differ(differ[0]))
    for number, (mine, other) in enumerate(zip(ours.hands, theirs.hands), start=1):
        if _told(mine) != _told(other):
            return Compared(DIVERGED, hand=number, why=f"hand {number} differs")
    ahead = _ahead(ours, theirs, both + 1)
    if ahead is None:
        return Compared(DIVERGED, why=_rules_differ(both + 1))
    if ahead == "ours" or (len(theirs.hands) <= len(ours.hands) and ahead == "same"):
        return Compared(KEPT)
    return Compared(EXTENDED, later=theirs.hands[len(ours.hands):], theirs=theirs)


def _rules_differ(number: int) -> str:
    return "its house rules differ" if number == 1 else f"its house rules from hand {number} on differ"


def _ahead(ours: SessionFacts, theirs: SessionFacts, number: int) -> str | None:
    """Whose record is later at hand ``number``, the first after those both hold: "same", "ours",
    "theirs" or None (H8). A rule change from that hand on is later, like a later hand, unless the
    other record played that hand under the rules before."""
    mine, other = ours.rules_for(number), theirs.rules_for(number)
    if mine == other:  # (at hand 1 always: rules that differ there are told apart before)
        return "same"
    changed_here = mine != ours.rules_for(number - 1)
    changed_there = other != theirs.rules_for(number - 1)
    if changed_here == changed_there:
        return None
    if changed_here:
        return None if len(theirs.hands) >= number else "ours"  # they played it under the rules before
    return None if len(ours.hands) >= number else "theirs"
