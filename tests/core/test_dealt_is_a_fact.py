"""Who dealt a hand is a fact (H8): no house-rule change (from the start or from the next hand),
edit or undo of a later hand changes who dealt a hand already played, or its three-player roles
(R5, H6, R21-R23). A change from the next hand on leaves every hand played with its score; one
from the start scores them as a session started with those rules, dealt by the same players."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginscore.codec.facts import hands_from_text, hands_to_text, session_from_dict, session_to_dict, stored_hands
from ginscore.core.cards import parse_card
from ginscore.core.changes import rules_from, rules_from_start, as_kept
from ginscore.core.errors import Refused
from ginscore.core.replay import check_session, replay
from ginscore.core.session import Draw, Knock, Roles
from tests.profiles import examples
from tests.support import legal_sessions

# House-rule changes a table makes mid-evening (H1, H3, H5, H6, H7); the deal only for two players.
SETTINGS = {
    "gin_bonus": st.sampled_from([20, 25, 30]),
    "undercut_bonus": st.sampled_from([10, 20, 25]),
    "target": st.integers(20, 250),
    "deal": st.sampled_from(["winner", "loser", "alternate"]),
    "box_bonus": st.sampled_from([0, 25]),
    "shutout": st.booleans(),
}


@st.composite
def changes_to(draw, facts) -> dict:
    """Some house rules changed (at least one), as `house` is given them."""
    names = [name for name in SETTINGS if not (name == "deal" and facts.variant == "three")]  # (R22)
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    return {name: draw(SETTINGS[name]) for name in chosen}


def kept(facts):
    """The facts as the database keeps them and reads them back (rows, and every field checked)."""
    return session_from_dict(session_to_dict(facts, rows=True), strict=False)


def dealt(facts) -> list:
    """Who dealt each hand as the replay plays it: the dealer, or the three-player roles."""
    return [(r.dealer, r.roles) for r in replay(facts).hands]


@st.composite
def a_hand(draw, facts):
    """A hand that may be told next: a draw, or a knock by someone in the hand, within its limit."""
    standings = replay(facts)
    upcard = parse_card(draw(st.sampled_from(["AS", "5h", "9d", "KC", "10s"])))
    if draw(st.integers(0, 9)) == 0:
        return Draw(upcard=upcard)
    roles = standings.roles
    in_hand = [roles.box, roles.captain] if roles else list(facts.players)
    limit = min(upcard.value, 10) if facts.variant == "oklahoma" else 10
    return Knock(draw(st.sampled_from(in_hand)), draw(st.integers(0, limit)), draw(st.integers(0, 98)), upcard)


def standing(facts):
    """The facts if a command would take them (its checks pass), else None (it would refuse)."""
    try:
        check_session(facts)
    except Refused:
        return None
    return facts


@st.composite
def a_change(draw, facts):
    """One thing a table does to a session: a house-rule change from the start or from the next
    hand, an edit of the last hand, an undo, or the next hand. None when a command would refuse it."""
    what = draw(st.sampled_from(["from-start", "from-next", "edit", "undo", "hand"]))
    event(what)
    if what in ("from-start", "from-next"):
        changes = draw(changes_to(facts))
        if what == "from-start" or not facts.hands:
            return standing(rules_from_start(facts, changes))
        if replay(facts).over:
            return None
        return standing(rules_from(facts, len(facts.hands) + 1, facts.rules._replace(**changes)))
    if what == "undo":
        return standing(facts._replace(hands=facts.hands[:-1])) if facts.hands else None  # `undo` refuses one that cannot stand
    if what == "edit":
        if not facts.hands:
            return None
        was = facts.hands[-1]
        before = standing(facts._replace(hands=facts.hands[:-1]))  # (None: rules agreed from the next
        if before is None or replay(before).over:                      # hand could not stand a hand earlier)
            return None
        told = draw(a_hand(before))._replace(dealer=was.dealer, roles=was.roles)  # as `edit` keeps them
        return standing(facts._replace(hands=before.hands + (told,)))
    if replay(facts).over:
        return None
    return standing(facts._replace(hands=facts.hands + (draw(a_hand(facts)),)))


@settings(max_examples=examples(200), suppress_health_check=list(HealthCheck), deadline=None)
@given(st.data(), legal_sessions())
def test_property_no_rule_change_edit_or_undo_changes_who_dealt_a_hand_played(data, facts):
    """H8 (R5, H6, R23): through any sequence of house changes from the start or the next hand,
    edits and undos of the last hand and new hands, every hand keeps who dealt it (its roles),
    as the database keeps and reads it back."""
    facts = kept(facts._replace(hands=facts.hands[:data.draw(st.integers(0, len(facts.hands)))]))
    for _ in range(data.draw(st.integers(1, 12))):
        before = dealt(facts)
        changed = data.draw(a_change(facts))
        if changed is None:
            continue
        facts = kept(changed)
        after = dealt(facts)
        shared = min(len(before), len(after))  # (an edit keeps the dealer of the hand it corrects too)
        assert after[:shared] == before[:shared], "who dealt a hand played changed"


@settings(max_examples=examples(200), suppress_health_check=list(HealthCheck), deadline=None)
@given(st.data(), legal_sessions())
def test_property_from_next_keeps_every_score_from_start_is_a_session_begun_so(data, facts):
    """H8: a change from the next hand on leaves each hand played with the points and columns it
    had; one from the start scores as a session started with those rules, with the same dealers."""
    going = [n for n in range(1, len(facts.hands) + 1) if not replay(facts._replace(hands=facts.hands[:n])).over]
    cut = data.draw(st.sampled_from(going)) if going and data.draw(st.integers(0, 4)) else len(facts.hands)
    facts = kept(facts._replace(hands=facts.hands[:cut]))  # mostly a game still going, some over
    changes = data.draw(changes_to(facts))
    before = replay(facts)
    if facts.hands and not before.over:
        later = standing(rules_from(facts, len(facts.hands) + 1, facts.rules._replace(**changes)))
        if later is not None:
            event("from-next taken")
            after = replay(kept(later))
            assert [(r.points, r.scores_after, r.dealer, r.roles, r.winner) for r in after.hands] == \
                   [(r.points, r.scores_after, r.dealer, r.roles, r.winner) for r in before.hands]
    corrected = standing(rules_from_start(facts, changes))
    if corrected is None:
        return
    event("from-start taken")
    begun = facts._replace(rules=facts.rules._replace(**changes))  # started so, each hand dealt as it was
    assert replay(kept(corrected)).hands == replay(begun).hands


def test_a_stored_row_keeps_who_dealt_and_reads_the_same_both_ways():
    """The rows keep the dealer, or the three roles, after the note (empty or not): read fast and
    the checked way alike, and written back the same."""
    rows = ["knock|Ann|3|20|7S|0|2026-01-01T20:00:00+00:00||Ben", "draw||||Ann",
            "knock|Ann|3|20||0||a note|Ann", "knock|Ann|3|20||0|||Ann|Ben|Cy", "draw|||x|Cy|Ann|Ben"]
    text = ";".join(rows)
    assert hands_to_text(hands_from_text(text)) == text
    fast = stored_hands(text)
    assert [(h.dealer, h.roles) for h in fast] == [
        ("Ben", None), ("Ann", None), ("Ann", None), (None, Roles("Ann", "Ben", "Cy")),
        (None, Roles("Cy", "Ann", "Ben"))]
    for number, row in enumerate(rows):  # each row alone: the fast reading where it has one, else the checked
        assert stored_hands(row) == (fast[number],)


def test_a_session_kept_before_h8_reads_its_dealers_once_under_its_rules():
    """A row without who dealt (kept before H8) is given the dealer its deal rule gave; written back,
    it keeps it, and a later change of deal rule from the start changes none of them."""
    doc = {"name": "old", "variant": "standard", "players": ["Ann", "Ben"], "rules": {"deal": "loser"},
           "first_dealer": "Ann", "hands": "knock|Ben|5|20||0|;knock|Ann|0|30||0|;knock|Ann|9|9||0|"}
    facts = session_from_dict(doc, strict=False)
    assert [h.dealer for h in facts.hands] == ["Ann", "Ann", "Ben"]  # loser deals (H6)
    assert session_to_dict(facts, rows=True)["hands"] == "knock|Ben|5|20||0|||Ann;knock|Ann|0|30||0|||Ann;knock|Ann|9|9||0|||Ben"
    alternate = rules_from_start(facts, {"deal": "alternate"})
    assert [r.dealer for r in replay(alternate).hands] == ["Ann", "Ann", "Ben"]
    assert replay(alternate).next_dealer == "Ann"  # Ben dealt the last hand: the deal passes (H6)


def test_a_kept_dealer_is_played_so_whatever_the_deal_rule_would_give():
    """H8: Ben dealt hand 1 though Ann was to deal first: the replay plays it so, and the next
    hand follows from it (the winner deals, R5)."""
    facts = session_from_dict({"name": "s", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
                               "hands": "knock|Ann|3|20||0|||Ben"}, strict=False)
    assert as_kept(facts) is facts
    assert [r.dealer for r in replay(facts).hands] == ["Ben"] and replay(facts).next_dealer == "Ann"
