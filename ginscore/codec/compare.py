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
are compared as the rules each hand both played was played under (H8). A
change from the next hand on that one record made after the hands both hold
is a later fact, like a later hand: it makes that record the later one (and
comes along with its hands); a hand the other played under the rules before,
or a different change from the same hand, is a difference.
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
    both = min(len(ours.hands), len(theirs.hands))
    hands = {1} | {c.from_hand for c in ours.rule_changes + theirs.rule_changes if c.from_hand <= both}
    if any(ours.rules_for(n) != theirs.rules_for(n) for n in hands if n <= max(both, 1)):
        return Compared(DIVERGED, why="its house rules differ")
    for number, (mine, other) in enumerate(zip(ours.hands, theirs.hands), start=1):
        if _told(mine) != _told(other):
            return Compared(DIVERGED, hand=number, why=f"hand {number} differs")
    ahead = _ahead(ours, theirs, both + 1)
    if ahead is None:
        return Compared(DIVERGED, why="its house rules differ")
    if ahead == "ours" or len(theirs.hands) <= len(ours.hands) and ahead == "same":
        return Compared(KEPT)
    return Compared(EXTENDED, later=theirs.hands[len(ours.hands):], theirs=theirs)


def _ahead(ours: SessionFacts, theirs: SessionFacts, number: int) -> str | None:
    """Whose record is later at hand ``number``, the first after the hands both hold (H8): "same"
    when both play it under the same rules; "ours" or "theirs" when one record changed the rules
    from it on (a later fact, as a later hand is) and the other did not or played it as before;
    None when both did, differently."""
    mine, other = ours.rules_for(number), theirs.rules_for(number)
    if mine == other:
        return "same"
    if number == 1:  # no hand yet: neither change is later than the other
        return None
    changed_here = mine != ours.rules_for(number - 1)
    changed_there = other != theirs.rules_for(number - 1)
    if changed_here == changed_there:
        return None
    if changed_here:
        return None if len(theirs.hands) >= number else "ours"  # they played it under the rules before
    return None if len(ours.hands) >= number else "theirs"


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
