"""Two records of one session (the same session id), told apart: what `merge` and `import` do.

Pure: no files, nothing printed. A session recorded on two machines (a copy
of the database on the laptop and on the phone, a sync client's conflicted
copy, an old backup) is one of:

- ``kept``: theirs holds the same hands as ours, or fewer (a prefix): nothing to do;
- ``extended``: ours is a prefix of theirs: their later hands are added to ours;
- ``diverged``: the two differ at a hand (or in what the session is: its
  variant, players, first dealer or roles, house rules): neither can be taken
  for the other, and nothing is changed unless a copy of theirs is kept.

Hands are compared as what was told at the table (knocker, deadwood, upcard,
cards, big gin, note, who dealt it), not when they were typed in. House rules
are compared as the rules each hand both played was played under, and the
rules for the hand after the shorter record (H8): a change one record made
after the other's last hand is a later fact like a later hand, and comes
with their later hands; the same hand under other rules, or the next one,
is a difference.
"""

from typing import NamedTuple

from ginscore.codec.facts import hand_to_dict
from ginscore.core.replay import Hand, SessionFacts

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
    told = hand_to_dict(hand)
    told.pop("recorded_at", None)
    return told


def compare(ours: SessionFacts, theirs: SessionFacts) -> Compared:
    """How their record of a session stands to ours."""
    for field, words in (("variant", "variant differs"), ("players", "players differ"),
                         ("first_dealer", "first dealer differs"), ("first_roles", "first roles differ")):
        if getattr(ours, field) != getattr(theirs, field):
            return Compared(DIVERGED, why=f"its {words}")
    if not _same_rules(ours, theirs):
        return Compared(DIVERGED, why="its house rules differ")
    for number, (mine, other) in enumerate(zip(ours.hands, theirs.hands), start=1):
        if _told(mine) != _told(other):
            return Compared(DIVERGED, hand=number, why=f"hand {number} differs")
    if len(theirs.hands) <= len(ours.hands):
        return Compared(KEPT)
    return Compared(EXTENDED, later=theirs.hands[len(ours.hands):], theirs=theirs)


def _same_rules(ours: SessionFacts, theirs: SessionFacts) -> bool:
    """Whether both records play every hand both hold, and the hand after the shorter, under the
    same house rules (H8). Rules change only at their change points, so those are the hands compared."""
    upto = min(len(ours.hands), len(theirs.hands)) + 1
    hands = {1, upto} | {c.from_hand for c in ours.rule_changes + theirs.rule_changes if c.from_hand <= upto}
    return all(ours.rules_for(n) == theirs.rules_for(n) for n in hands)


def free_name(name: str, taken, ending, limit: int) -> str:
    """``name`` if not ``taken(name)``, else the first free ``name + ending(n)`` for n = 1, 2, ...;
    the name is shortened before its ending so that the whole stays within ``limit`` characters."""
    if not taken(name):
        return name
    number = 1
    while True:
        tail = ending(number)
        chosen = name[: max(1, limit - len(tail))].rstrip() + tail
        if not taken(chosen):
            return chosen
        number += 1


def merged_ending(number: int) -> str:
    """`` (merged)``, then `` (merged 2)``, `` (merged 3)`` ..."""
    return " (merged)" if number == 1 else f" (merged {number})"
