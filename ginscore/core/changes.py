"""What a session keeps of what happened at the table (H8): who dealt each hand, and from which
hand a change of house rules applies."""

from itertools import groupby

from ginscore.core.errors import Refused
from ginscore.core.replay import replay
from ginscore.core.session import keeps_who_dealt, RuleChange, SessionFacts
from ginscore.core.scoring import HouseRules


def as_kept(facts: SessionFacts) -> SessionFacts:
    """The facts as they are kept (H8): each hand with who dealt it (or its three-player roles).
    That is given once, by the deal rule then in force, so a later change of rules never moves it."""
    changes = _kept_changes(facts.rule_changes, len(facts.hands))
    if changes != facts.rule_changes:
        facts = facts._replace(rule_changes=changes)
    if all(keeps_who_dealt(hand) for hand in facts.hands):
        return facts
    try:
        results = replay(facts).hands
    except Refused:  # a hand that cannot stand: the replay that follows names it
        return facts
    three = facts.variant == "three"
    return facts._replace(hands=tuple(
        hand if keeps_who_dealt(hand) else hand._replace(dealer=None if three else result.dealer,
                                                   roles=result.roles if three else None)
        for hand, result in zip(facts.hands, results)))


def as_it_ended(facts: SessionFacts, over: bool) -> tuple[SessionFacts, int | None]:
    """H8: for a finished game whose last rule change is agreed from a hand it never reached (an edit ended
    it sooner), the facts under the rules it ended with, and that hand; else the facts as they are, and None.
    The change itself stays kept, as an undo brings that hand back."""
    changes = facts.rule_changes
    if over and changes and changes[-1].from_hand > len(facts.hands):
        return facts._replace(rules=facts.rules_for(len(facts.hands))), changes[-1].from_hand
    return facts, None


def _kept_changes(changes: tuple[RuleChange, ...], hand_count: int) -> tuple[RuleChange, ...]:
    """The H8 change points as kept: in order, each a real change, none after the next hand."""
    kept: list[RuleChange] = []
    for change in changes:
        at = min(change.from_hand, hand_count + 1)
        if kept and kept[-1].from_hand >= at:  # a later change at the same hand (or before it) replaces its rules
            kept[-1] = RuleChange(kept[-1].from_hand, change.rules)
        else:
            kept.append(change if at == change.from_hand else RuleChange(at, change.rules))
    points = tuple(next(same) for _, same in groupby(kept, key=lambda change: change.rules))
    return points if len(points) > 1 else ()  # one period alone: the rules never changed


def rules_from(facts: SessionFacts, number: int, rules: HouseRules) -> SessionFacts:
    """H8: ``rules`` apply from hand ``number`` on; the hands before keep theirs."""
    earlier = tuple(c for c in facts.periods() if c.from_hand < number)
    return facts._replace(rules=rules, rule_changes=_kept_changes(earlier + (RuleChange(number, rules),), len(facts.hands)))


def rules_from_start(facts: SessionFacts, settings: dict) -> SessionFacts:
    """H8: ``settings`` (house rules by name) apply to every hand, in every period of the rules (they
    were set wrong from the start)."""
    periods = tuple(RuleChange(c.from_hand, c.rules._replace(**settings)) for c in facts.periods())
    return facts._replace(rules=facts.rules._replace(**settings), rule_changes=_kept_changes(periods, len(facts.hands)))
