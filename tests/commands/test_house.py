"""`ginscore house`: the session's house rules shown, and changed from the start or from the next
hand; once hands are played a change says from when (H8), and who dealt each hand (R5, H6;
three-player R21-R23) stays what happened at the table, in the log, the exports, the next deal
and a rematch."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.profiles import examples


def test_house_shows_every_rule_and_changes_nothing(ok, db_path):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01", "--deal", "loser")
    before = db_path.read_bytes()
    out = ok("house").stdout
    for words in ("Target", "Gin bonus", "Undercut bonus", "Big gin", "Game bonus", "Box bonus", "Shutout",
                  "Spades double", "Ace means gin", "the loser deals next", "0.01 a point"):
        assert words in out
    assert db_path.read_bytes() == before


def test_house_change_rescores_every_hand(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25 = 55
    ok("hand", "ben", "9", "5")  # undercut: Ann 4 + 10 = 14
    out = ok("house", "--gin-bonus", "20", "--undercut-bonus", "25", "--stake", "0.02", "--from-start").stdout
    assert "rescored 2 hands" in out and "Gin bonus (H1): 20 (was 25)" in out
    doc = status()
    assert doc["totals"] == {"Ann": 50 + 29, "Ben": 0}
    assert doc["rules"]["gin_bonus"] == 20 and doc["rules"]["stake"] == "0.02"


@pytest.mark.parametrize("when", [[], ["--from-next"], ["--from-start"]])
def test_a_change_before_the_first_hand_says_so_not_that_no_hand_was_rescored(ok, status, when):
    """H8: before any hand, from the start and from the next hand are the same change."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    out = ok("house", "--gin-bonus", "30", *when).stdout
    assert out.startswith("Changed the house rules of 'standard-1' before its first hand:\n"
                          "  Gin bonus (H1): 30 (was 25)\n"), out
    assert status()["rules"]["gin_bonus"] == 30 and status()["rule_changes"] == []


def test_house_lowering_the_target_to_the_last_hand_ends_the_game(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # 55
    ok("hand", "ann", "2", "20")  # 73
    ok("house", "--target", "70", "--stake", "1", "--from-start")
    doc = status()
    assert doc["over"] is True and doc["winner"] == "Ann"
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "73.00"}]


def test_house_turns_switches_off(ok, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--shutout", "--spades-double", "--ace-means-gin",
       "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "9", "--upcard", "5s")  # doubled: 14
    assert status()["totals"]["Ann"] == 14
    ok("house", "--no-shutout", "--no-spades-double", "--no-ace-means-gin", "--no-big-gin", "--from-start")
    doc = status()
    assert doc["totals"]["Ann"] == 7
    assert [doc["rules"][k] for k in ("shutout", "spades_double", "ace_means_gin", "big_gin_bonus")] == [
        False, False, False, None]


def test_house_with_the_same_rules_writes_nothing(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--gin-bonus", "20")
    before = db_path.read_bytes()
    assert "nothing was changed" in ok("house", "--gin-bonus", "20").stdout
    assert db_path.read_bytes() == before


def test_house_acts_on_the_named_session(ok, status):
    ok("new", "standard", "Ann", "Ben", "--name", "first")
    ok("new", "standard", "Cy", "Di", "--name", "second")
    ok("house", "--target", "150", "--session", "first")
    assert status("--session", "first")["rules"]["target"] == 150
    assert status()["rules"]["target"] == 100
    # the rules of a session named, not current, say how to change *its* rules
    said = " ".join(ok("house", "--session", "first").stdout.split())
    assert "Change any of them with `ginscore house --session first OPTION`" in said
    assert "`ginscore house OPTION`" in " ".join(ok("house").stdout.split())
    assert said.endswith("OPTION`.")  # no hand yet: none to rescore (it said "every hand is rescored")


@pytest.fixture
def played(ok):
    """An Oklahoma session that turns several house-rule changes down."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "9", "--upcard", "5")  # hand 1: a rank-only upcard
    ok("hand", "ben", "0", "40", "--big-gin", "--upcard", "kh")  # hand 2: big gin, 71
    ok("hand", "ann", "1", "20", "--upcard", "ah", "--note", "knock on an ace")  # hand 3: 19
    ok("hand", "ben", "3", "4", "--upcard", "9c")  # hand 4


@pytest.mark.parametrize("options, says", [
    (["--no-big-gin"], "hand 2 could not stand (this session plays no big gin"),
    (["--target", "60"], "hand 3 could not stand (the game would already have been won before it)"),
    (["--spades-double"], "hand 1 could not stand (spades double is on"),
    (["--ace-means-gin"], "hand 3 could not stand (Ann knocked with 1, but this hand allows only gin"),
    (["--big-gin-bonus", "31", "--no-big-gin"], "not both"),
    (["--deal", "loser", "--target", "0"], "target must be"),
    (["--gin-bonus", "-5"], "0 or more"),
])
def test_house_change_a_hand_cannot_stand_under_is_refused_whole(played, refused, options, says):
    line = refused("house", *options, "--from-start", says=says)
    assert line.startswith("Error: refused: under those rules hand") or "hand" not in says


def test_house_refuses_a_rule_that_makes_no_sense_for_the_variant(ok, refused):
    ok("new", "standard", "Ann", "Ben")
    refused("house", "--spades-double", says="Oklahoma house rule (H4)")
    refused("house", "--ace-means-gin", says="Oklahoma house rule (H4)")


def test_house_says_a_rule_cannot_be_before_asking_from_when(ok, refused):
    """After a hand, a rule that cannot be is the one thing said: saying from when would not help (H4, H5,
    R22, H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    refused("house", "--spades-double", says="--spades-double is an Oklahoma house rule (H4); leave it out")
    refused("house", "--target", "0", says="the target must be a whole number above 0, not 0 (H5)")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "4", "22")
    refused("house", "--deal", "loser", says="in three-player the box deals every hand (R22)")
    refused("house", "--spades-double", says="(H4); leave it out for three-player")  # the variant's name
    refused("house", "--gin-bonus", "30", says="say from when")  # a rule that can be: from when, first


def test_house_without_a_session_is_refused(refused):
    refused("house", says="no session yet")
    refused("house", "--target", "50", says="no session yet")


def test_house_says_when_it_reopens_a_finished_game(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "90")  # 90 + 25: Ann has won
    out = ok("house", "--target", "200", "--from-start").stdout
    assert "Ann had won is not over yet" in out
    out = ok("house", "--target", "100", "--from-start").stdout
    assert "the game is over: Ann wins" in out


def test_house_says_nothing_of_the_game_when_its_end_is_unchanged(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    out = ok("house", "--gin-bonus", "20", "--from-start").stdout
    assert "is over" not in out and "not over yet" not in out and "wins" not in out


# --- once hands are played: from when (H8), and who dealt stays what happened ---------------


def _dealers(ok, *where) -> list[str]:
    return [hand["dealer"] for hand in ok("log", "--json", *where).json()["hands"]]


@pytest.fixture
def loser_deals(ok):
    """The evening of the report: the loser deals (H6); Ann, Ann and Ben dealt."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser")
    ok("hand", "ben", "5", "20")  # Ben wins: Ann, who lost, deals again
    ok("hand", "ann", "0", "30")  # Ann wins: Ben deals
    ok("hand", "ann", "9", "9")  # Ben undercuts: Ann deals next


@pytest.mark.parametrize("when", ["--from-start", "--from-next"])
def test_a_deal_rule_changed_after_three_hands_keeps_who_dealt_them(loser_deals, ok, status, when):
    """H8: the dealers stay Ann, Ann, Ben in the log and the CSV, and the next deal follows the new
    rule from Ben's deal of the last hand: the deal passes to Ann (H6 alternate)."""
    assert _dealers(ok) == ["Ann", "Ann", "Ben"]
    ok("house", "--deal", "alternate", when)
    assert _dealers(ok) == ["Ann", "Ann", "Ben"]
    assert [row["dealer"] for row in csv.DictReader(io.StringIO(ok("export").stdout))] == ["Ann", "Ann", "Ben"]
    assert status()["next_dealer"] == "Ann"
    assert "Ann deals next." in ok("status").stdout


def test_a_change_after_a_hand_without_from_when_is_refused_naming_both(loser_deals, refused):
    line = refused("house", "--deal", "alternate", says="--from-start")
    assert "--from-next" in line and "(H8)" in line and "from hand 4" in line
    refused("house", "--gin-bonus", "20", "--from-start", "--from-next", says="not both")
    refused("house", "--from-next", says="give the house rule to change too")


def test_before_the_first_hand_a_change_simply_applies(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("house", "--gin-bonus", "20")
    doc = status()
    assert doc["rules"]["gin_bonus"] == 20 and doc["rule_changes"] == []
    ok("house", "--gin-bonus", "30", "--from-next")  # (said or not: nothing is played yet)
    assert status()["rules"]["gin_bonus"] == 30 and status()["rule_changes"] == []


def test_a_rule_set_right_from_the_start_says_what_it_was_when(ok):
    """After a change from hand 3 on, one from the start names both settings it replaces, with their hands (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "30")
    ok("hand", "ann", "2", "30")
    assert "Big gin (H2): off (was bonus 31)\n" in ok("house", "--no-big-gin", "--from-next").stdout
    out = ok("house", "--no-big-gin", "--from-start").stdout
    assert "Big gin (H2): off (was bonus 31 from hand 1, off from hand 3)\n" in out


def test_a_box_bonus_from_the_next_hand_says_it_counts_the_hands_won_before(ok):
    """H3, H8: a box bonus is paid when the game ends, for every hand won in it, so a change from the next
    hand on counts the hands before it too, and says so."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "30")  # 28
    out = " ".join(ok("house", "--box-bonus", "5", "--from-next").stdout.split())
    assert "for every hand won in it: those before hand 2 too (H3, H8)." in out
    ok("hand", "ann", "0", "50")  # gin: 50 + 25 = 75, 103 in all: Ann wins, 2 hands won
    finals = ok("export", "--finals").stdout.splitlines()
    assert finals[1].startswith("standard-1,1,Ann,103,0,10,0,113,won")  # 2 x 5: hand 1's box counted too
    assert "counted when a game ends" not in ok("house", "--gin-bonus", "20", "--from-start").stdout


def test_from_next_keeps_the_hands_played_and_scores_the_next_under_the_new_rule(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25
    ok("hand", "ann", "2", "12")  # 10
    out = ok("house", "--gin-bonus", "20", "--from-next").stdout
    assert "from hand 3 on; hands 1 and 2 keep their scores (H8)" in " ".join(out.split())
    assert "Gin bonus (H1): 20 (was 25)" in out
    assert status()["totals"] == {"Ann": 65, "Ben": 0}  # nothing rescored
    ok("hand", "ann", "0", "10")  # gin under the new rule: 10 + 20
    doc = status()
    assert doc["totals"] == {"Ann": 95, "Ben": 0} and doc["rules"]["gin_bonus"] == 20
    assert [c["from_hand"] for c in doc["rule_changes"]] == [1, 3]
    assert [c["rules"]["gin_bonus"] for c in doc["rule_changes"]] == [25, 20]
    assert [h["points"] for h in ok("log", "--json").json()["hands"]] == [55, 10, 30]


def test_from_start_says_which_hands_score_differently_h8(ok):
    """A rule set wrong and corrected (H8): the person checking against paper is told which hands moved and
    from what, not only that every hand was rescored; hands the rule did not touch are not listed."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--spades-double")
    ok("hand", "ann", "3", "20", "--upcard", "9h")  # 17, not doubled
    ok("hand", "ben", "0", "22", "--upcard", "5s")  # gin: (22 + 25) x 2 (R16, H4)
    ok("hand", "ann", "2", "12", "--upcard", "ks")  # (12 - 2) x 2
    lines = ok("house", "--gin-bonus", "20", "--from-start").stdout.splitlines()
    assert lines[1:3] == ["  Gin bonus (H1): 20 (was 25)", "  Hand 2: Ben 84 (was 94)"], lines
    assert not lines[3].startswith("  Hand"), lines
    lines = ok("house", "--no-spades-double", "--from-start").stdout.splitlines()
    assert lines[2:4] == ["  Hand 2: Ben 42 (was 84)", "  Hand 3: Ann 10 (was 20)"], lines
    said = ok("house", "--target", "150", "--from-start").stdout  # no hand scores differently
    assert "Hand " not in said and "more hand" not in said
    said = ok("house", "--gin-bonus", "25", "--from-next").stdout  # the hands played keep their scores
    assert "Hand " not in said and "more hand" not in said


def test_from_start_counts_the_hands_it_does_not_list_h8(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "500")
    for _ in range(7):
        ok("hand", "ann", "0", "1")  # gins of 1 + 25
    lines = ok("house", "--gin-bonus", "20", "--from-start").stdout.splitlines()
    assert lines[2:8] == [f"  Hand {n}: Ann 21 (was 26)" for n in range(1, 6)] + [
        "  and 2 more hands scored differently"], lines


@pytest.mark.parametrize("variant, first, undercutter", [
    ("standard", ["Ann", "Ben", "--dealer", "ann"], "Ben"),
    ("hollywood", ["Ann", "Ben", "--dealer", "ann"], "Ben"),
    ("three", ["Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben"], "Cy"),  # Cy captains hand 2 (R23)
])
def test_from_start_names_the_player_who_scored_an_undercut_not_the_knocker_r10_r13_h8(ok, variant, first,
                                                                                       undercutter):
    """Ann knocks with 7 against 4 and is undercut: the player who scored the hand is the one the corrected hand
    names with its points, as on paper, in every variant, never Ann."""
    ok("new", variant, *first)
    ok("hand", "ann", "5", "15")  # a knock: 10, whatever the undercut bonus
    ok("hand", "ann", "7", "4")  # undercut: 3 + 10, then 3 + 25
    lines = ok("house", "--undercut-bonus", "25", "--from-start").stdout.splitlines()
    assert lines[1:3] == ["  Undercut bonus (H1): 25 (was 10)", f"  Hand 2: {undercutter} 28 (was 13)"], lines
    assert "  Hand 1:" not in lines


def test_a_long_name_in_a_corrected_hand_stays_whole_at_40_columns_h8(ok, monkeypatch):
    """A name with spaces that fits on a line is never broken over two in the hands a change from the start lists."""
    ok("new", "standard", "Maria Fernanda de los Santos", "Ben", "--dealer", "ben")
    ok("hand", "maria", "0", "10")  # gin: 10 + 25, then 10 + 20
    monkeypatch.setenv("COLUMNS", "40")
    out = ok("house", "--gin-bonus", "20", "--from-start").stdout
    assert "Maria Fernanda de los Santos 30" in out, out


def test_from_start_rescores_every_hand(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")
    ok("house", "--gin-bonus", "20", "--from-start")
    doc = status()
    assert doc["totals"] == {"Ann": 50, "Ben": 0} and doc["rule_changes"] == []


def test_from_next_that_makes_the_game_as_it_stands_impossible_is_refused(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "65")  # 90
    refused("house", "--target", "80", "--from-next", says="the target 80 in force from hand 2 on is already reached")
    ok("house", "--target", "80", "--from-start")  # the rule was set wrong: Ann won at hand 1
    assert ok("status", "--json").json()["over"] is True
    refused("house", "--gin-bonus", "20", "--from-next", says="is over, so no hand comes next")
    # without either: only the one that can be done is offered (--from-next was, and then refused)
    said = refused("house", "--gin-bonus", "20", says="'standard-1' has 1 hand played and is over, so a change "
                   "corrects the rules it was played with: add --from-start (every hand is rescored) (H8)")
    assert "--from-next" not in said


def test_the_log_shows_where_the_rules_changed(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    for _ in range(3):
        ok("hand", "ann", "2", "12")
    ok("house", "--gin-bonus", "20", "--from-next")
    shown = ok("log").stdout
    assert "from hand 4: gin bonus 20" in shown  # a change from the next hand on: under the hands
    # over the hands, the rules they were played under, not those of the next hand
    assert "House rules from hand 1: target 100; gin bonus 25; undercut bonus 10\n" in shown
    assert ok("rules").stdout.endswith("gin bonus 20; undercut bonus 10.\nIn force from hand 4 on; "
                                       "`ginscore house` shows how they changed during play (H8).\n")
    ok("hand", "ben", "0", "12")
    ok("hand", "ann", "2", "12")
    lines = ok("log").stdout.splitlines()
    at = lines.index("from hand 4: gin bonus 20")
    assert lines[at - 1].startswith("3 ") and lines[at + 3].startswith("4 ")  # between hands 3 and 4
    doc = ok("log", "--json").json()
    assert [c["from_hand"] for c in doc["rule_changes"]] == [1, 4]
    house = " ".join(ok("house").stdout.split())
    assert "In force from hand 4 on; the house rules changed during play (H8): from hand 4: gin bonus 20" in house
    assert "--from-next (from hand 6 on) or --from-start" in house


def test_undo_back_before_a_change_keeps_the_rules_agreed_for_the_next_hand(ok, status):
    """A change point stays while it is at most the next hand; undone further, the rules agreed
    become the rules from the next hand on (docs/rules.md H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "12")
    ok("hand", "ann", "2", "12")
    ok("house", "--gin-bonus", "20", "--from-next")
    ok("hand", "ann", "0", "12")
    ok("undo", "--yes")
    assert [c["from_hand"] for c in status()["rule_changes"]] == [1, 3]
    ok("undo", "--yes")
    doc = status()
    assert [c["from_hand"] for c in doc["rule_changes"]] == [1, 2] and doc["rules"]["gin_bonus"] == 20
    ok("undo", "--yes")
    doc = status()
    assert doc["rule_changes"] == [] and doc["rules"]["gin_bonus"] == 20


def test_rematch_takes_its_first_dealer_from_who_dealt_the_last_hand(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser", "--target", "50")
    ok("hand", "ben", "5", "20")  # Ben 15; Ann deals again
    ok("hand", "ann", "0", "30")  # Ann 55: over; Ann dealt it
    ok("house", "--deal", "alternate", "--from-start")
    assert _dealers(ok) == ["Ann", "Ann"]
    ok("rematch")
    assert status()["next_dealer"] == "Ben"  # the deal passes from Ann, who dealt the last hand (H6)


def test_json_export_carries_dealers_and_changes_and_comes_back_the_same(loser_deals, ok, tmp_path):
    ok("house", "--deal", "alternate", "--from-next")
    ok("hand", "ben", "4", "30")
    exported = ok("export", "--format", "json").stdout
    doc = json.loads(exported)
    assert doc["ginscore_export"] == 4
    assert [h["dealer"] for h in doc["session"]["hands"]] == ["Ann", "Ann", "Ben", "Ann"]
    assert [c["from_hand"] for c in doc["session"]["rule_changes"]] == [1, 4]
    (tmp_path / "s.json").write_text(exported)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", tmp_path / "s.json")
    assert ok(*other, "export", "--format", "json").stdout == exported
    assert ok(*other, "log").stdout == ok("log").stdout


def test_merge_takes_a_later_rule_change_with_the_later_hands(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "2", "12")
    phone = tmp_path / "phone.json"
    phone.write_bytes(db_path.read_bytes())
    ok("hand", "ann", "2", "12")
    ok("house", "--gin-bonus", "20", "--from-next")
    ok("hand", "ann", "0", "12")
    laptop = ok("export", "--format", "json").stdout
    ok("--db", str(phone), "merge", str(db_path))
    assert ok("--db", str(phone), "export", "--format", "json").stdout == laptop


def test_merge_of_copies_that_differ_in_who_dealt_a_hand_keeps_both_apart(ok, cli, db_path, tmp_path):
    """Who dealt is a fact: two records that tell it differently cannot both be right, so neither is
    taken for the other (as two records of a hand told differently)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "2", "12")
    doc = json.loads(ok("export", "--format", "json").stdout)
    doc["session"]["hands"][0]["dealer"] = doc["session"]["first_dealer"] = "Ben"  # a record where Ben dealt
    (tmp_path / "other.json").write_text(json.dumps(doc))
    ok("--db", str(tmp_path / "copy.json"), "import", tmp_path / "other.json")
    before = db_path.read_bytes()
    done = cli("merge", str(tmp_path / "copy.json"))
    assert done.exit_code == 1 and "is not the same here" in done.stderr and db_path.read_bytes() == before
    ok("merge", str(tmp_path / "copy.json"), "--keep-both")
    assert _dealers(ok, "--session", "friday (merged)") == ["Ben"] and _dealers(ok, "--session", "friday") == ["Ann"]


def test_a_csv_whose_dealer_is_not_a_player_is_refused_in_one_line(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "12")
    ok("hand", "ann", "2", "12")
    rows = ok("export").stdout.splitlines()
    rows[2] = rows[2].replace(",Ann,Ann,", ",Zed,Ann,", 1)
    (tmp_path / "s.csv").write_text("\n".join(rows) + "\n")
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "s.csv",
            says="hand 2: Zed dealt this hand but does not play in this session")


def test_three_player_roles_stay_when_rules_change_from_the_start(ok):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    ok("hand", "ann", "2", "12")  # box wins (R23)
    ok("hand", "cy", "2", "12")  # captain Cy beats the box: Cy into the box
    before = [h["roles"] for h in ok("log", "--json").json()["hands"]]
    ok("house", "--target", "300", "--gin-bonus", "20", "--from-start")
    assert [h["roles"] for h in ok("log", "--json").json()["hands"]] == before
    assert ok("status", "--json").json()["roles"] == {"box": "Cy", "captain": "Ben", "out": "Ann"}


@pytest.mark.parametrize("change, says", [
    (lambda c: c[0].update(from_hand=2), "from_hand is 2, but the first change gives the rules of hand 1"),
    (lambda c: c[1].update(from_hand=9), "from_hand must be from 1 to 4"),
    (lambda c: c[1]["rules"].update(gin_bonus=30), "the last change must be the rules in force now"),
    (lambda c: c[1].update(when="later"), "'when' that ginscore does not know"),
])
def test_an_export_whose_rule_changes_do_not_add_up_is_refused(loser_deals, ok, refused, tmp_path, change, says):
    """H8: the change points of an import start at hand 1, go forward, stop at the next hand and end
    with the rules in force now."""
    ok("house", "--gin-bonus", "20", "--from-next")
    doc = json.loads(ok("export", "--format", "json").stdout)
    change(doc["session"]["rule_changes"])
    (tmp_path / "s.json").write_text(json.dumps(doc))
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "s.json", says=says)


@pytest.mark.parametrize("variant", ["standard", "hollywood", "three"])
def test_the_rule_change_lines_fit_every_width(ok, monkeypatch, variant):
    """From 40 to 160 columns the log and `house` say where the rules changed (H8) on lines that fit,
    the log's parts as wide as each other."""
    seats = ["Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben"] if variant == "three" else ["Ann", "Ben",
                                                                                               "--dealer", "ann"]
    ok("new", variant, *seats, "--target", "500")
    ok("hand", "ann", "2", "12")
    ok("hand", "ann", "3", "12")
    ok("house", "--box-bonus", "25", "--gin-bonus", "20", "--stake", "0.05", "--from-next")
    ok("hand", "ann", "0", "12")
    for width in range(40, 161, 6):
        monkeypatch.setenv("COLUMNS", str(width))
        log = ok("log").stdout.splitlines()
        for line in log + ok("house").stdout.splitlines():
            assert len(line) <= width and line == line.rstrip(), (width, line)
        at = next(n for n, line in enumerate(log) if line.startswith("from hand 3: gin bonus 20;"))
        rules = [n for n, line in enumerate(log) if set(line) == {"─"}]
        assert len(rules) == 2 and log[rules[0]] == log[rules[1]] and rules[0] < at < rules[1], (width, log)


MOVES = st.one_of(
    st.tuples(st.just("hand"), st.sampled_from(["ann", "ben"]), st.integers(0, 10), st.integers(0, 30)),
    st.tuples(st.just("house"), st.sampled_from(["winner", "loser", "alternate"]),
              st.sampled_from(["--from-start", "--from-next"])),
    st.tuples(st.just("edit"), st.sampled_from(["ann", "ben"]), st.integers(0, 10), st.integers(0, 30)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("draw")),
)


@settings(max_examples=examples(30), suppress_health_check=list(HealthCheck), deadline=None)
@given(moves=st.lists(MOVES, min_size=1, max_size=10))
def test_property_through_the_cli_no_deal_change_edit_or_undo_rewrites_who_dealt(cli, tmp_path_factory, moves):
    """H8 (R5, H6) through the installed entry point and a real file: whatever deal rules are set
    (from the start or the next hand), whatever the last hand is corrected to or undone, each hand
    still there was dealt by whom the log said before."""
    db = ("--db", str(tmp_path_factory.mktemp("moves") / "g.json"))
    assert cli(*db, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser", "--target", "400").exit_code == 0
    for move in moves:
        before = [h["dealer"] for h in cli(*db, "log", "--json").json()["hands"]]
        if move[0] == "house":
            done = cli(*db, "house", "--deal", move[1], move[2])
            assert done.exit_code == 0 or "is over" in done.stderr, done.stderr  # a deal rule always applies
        elif move[0] == "edit":
            done = cli(*db, "edit", str(max(1, len(before))), *map(str, move[1:]))
        elif move[0] == "undo":
            done = cli(*db, "undo", "--yes")
        else:
            done = cli(*db, *map(str, move))
        assert done.exit_code in (0, 2), done.stderr
        after = [h["dealer"] for h in cli(*db, "log", "--json").json()["hands"]]
        shared = min(len(before), len(after))
        assert after[:shared] == before[:shared], (move, before, after)


def test_an_undo_that_would_move_a_lower_target_before_a_score_that_reached_it_is_refused(ok, refused):
    """H8: rules agreed from the next hand move back with an undo; where they cannot stand there
    (game 1 already past the new target), the undo is refused and the file stays readable."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "26")
    ok("hand", "ann", "0", "0")
    ok("hand", "ann", "0", "1")
    ok("house", "--target", "20", "--from-next")
    line = refused("undo", "--yes", says="cannot undo hand 2")  # (refused: the file is unchanged)
    assert "--from-next" in line
    ok("status")
    ok("house", "--target", "30", "--from-next")
    ok("undo", "--yes")
    assert ok("status", "--json").json()["hands_played"] == 1


def test_house_on_a_game_that_is_over_offers_only_from_start(ok, refused):
    """H8: once the game is over no hand comes next, so `--from-next` would be refused: not offered."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    ok("hand", "ann", "0", "90")
    said = " ".join(ok("house").stdout.split())
    assert "--from-start" in said and "--from-next" not in said
    refused("house", "--target", "200", "--from-next", says="over")
    ok("house", "--target", "200", "--from-start")


def test_house_shows_the_rules_of_a_session_whose_hand_no_longer_adds_up(ok, db_path):
    """Working out whether the game is over (for the advice under the rules) never turns a damaged
    hand into a refusal: the rules are shown, as before H8's advice."""
    import json

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    data = json.loads(db_path.read_text())
    session = data["sessions"]["1"]
    session["hands"] = session["hands"].replace("|3|20|", "|30|20|")
    db_path.write_text(json.dumps(data))
    assert "House rules of 'standard-1'" in ok("house").stdout


def test_h6_h8_a_deal_rule_changed_from_the_next_hand_decides_who_deals_it(ok):
    """Ann won hand 1; from hand 2 the loser deals, so Ben deals hand 2 (H6 in force for it, H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "10")
    ok("house", "--deal", "loser", "--from-next")
    assert ok("dealer", "--json").json()["next_dealer"] == "Ben"


def test_r14_h8_a_target_lowered_to_exactly_a_players_score_is_already_reached(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "54")  # Ann 50
    before = db_path.read_bytes()
    said = refused("house", "--target", "50", "--from-next")
    assert "already reached" in said and "Ann has 50" in said, said
    assert db_path.read_bytes() == before


def test_a_change_from_the_start_that_changes_the_winner_says_so_and_one_that_does_not_says_nothing_h8(ok):
    """Hollywood to 30 (R17-R20): Ann wins the series; with a target of 40 Ben does, and a later change
    that leaves Ben the winner says nothing of it."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "30")
    for hand in (["ben", "5", "30"], ["ann", "0", "5"], ["ben", "0", "15"], ["ben", "3", "30"], ["ann", "0", "20"]):
        ok("hand", *hand)
    said = " ".join(ok("house", "--target", "40", "--from-start").stdout.split())
    assert "Under these rules Ben wins the series, not Ann." in said
    assert "Under these rules" not in ok("house", "--gin-bonus", "26", "--from-start").stdout


def test_a_target_from_the_next_hand_already_reached_is_refused_in_one_plain_line_h5_h8(ok, refused):
    """Not a word about a hand that "could not stand": the next hand is not played yet."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")
    assert refused("house", "--target", "50", "--from-next") == (
        "Error: refused: the target 50 in force from hand 2 on is already reached: Ann has 55, so the game "
        "would have ended before (H5, H8); nothing was changed")


def test_the_big_gin_row_says_off_or_its_bonus_h2(ok, monkeypatch):
    import re

    monkeypatch.setenv("COLUMNS", "120")

    def big_gin_row(*session):
        row = next(line for line in ok("house", *session).stdout.splitlines() if line.startswith("Big gin"))
        return re.split(r"  +", row)[:2]

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("new", "standard", "Cy", "Di", "--dealer", "cy", "--big-gin-bonus", "31", "--name", "bg")
    assert big_gin_row("--session", "standard-1") == ["Big gin (H2)", "off"]
    assert big_gin_row("--session", "bg") == ["Big gin (H2)", "bonus 31"]
    ok("house", "--session", "bg", "--no-big-gin")
    assert big_gin_row("--session", "bg") == ["Big gin (H2)", "off"]


def test_from_next_says_which_hands_keep_their_scores_and_the_one_setting_it_replaces_h8(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "12")
    out = ok("house", "--gin-bonus", "30", "--from-next").stdout
    assert "from hand 2 on; hand 1 keeps its score (H8)" in " ".join(out.split())
    ok("hand", "ann", "2", "12")
    out = ok("house", "--gin-bonus", "40", "--from-next").stdout
    assert "Gin bonus (H1): 40 (was 30)\n" in out, out
    ok("hand", "ann", "2", "12")
    out = ok("house", "--gin-bonus", "35", "--from-next").stdout
    assert "from hand 4 on; hands 1 to 3 keep their scores (H8)" in " ".join(out.split())


@pytest.mark.parametrize("width", [40, 60, 120])
def test_house_shows_each_rules_setting_and_option_at_every_width(ok, monkeypatch, width):
    """Wide: the option beside each rule; medium: under its setting; a phone: "rule: setting", a line each."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "150")
    monkeypatch.setenv("COLUMNS", str(width))
    lines = [line.split() for line in ok("house").stdout.splitlines()]
    if width == 120:
        assert ["Target", "(H5)", "150", "--target"] in lines and ["Gin", "bonus", "(H1)", "25", "--gin-bonus"] in lines
    elif width == 60:
        at = lines.index(["Target", "(H5)", "150"])
        assert lines[at + 1] == ["--target"]
    else:
        assert ["Target", "(H5):", "150"] in lines and ["Gin", "bonus", "(H1):", "25"] in lines


def test_house_with_the_rules_already_so_says_only_that(ok):
    """Once hands are played too: no "Changed ..." heading and no standings after "nothing was changed"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "10")
    out = ok("house", "--gin-bonus", "25").stdout
    assert out == "The house rules of 'standard-1' are already so; nothing was changed.\n"


def test_a_change_from_the_last_hand_played_splits_the_log_before_it_h8(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "12")
    ok("house", "--gin-bonus", "30", "--from-next")
    ok("hand", "ann", "0", "12")  # the first hand under the change, and the last played
    lines = ok("log").stdout.splitlines()
    assert lines.count("from hand 2: gin bonus 30") == 1  # between the hands, not again under them
    at = lines.index("from hand 2: gin bonus 30")
    assert lines[at - 1].startswith("1 ") and lines[at + 3].startswith("2 ") and lines[at + 3].split()[-3:] == [
        "42", "52", "0"]


def test_house_of_a_session_named_wider_than_its_table_shows_the_whole_name(ok, monkeypatch):
    """The heading then takes two lines over the table (Rich lays out such a title, not the fast drawing)."""
    name = "a very long name for a friday evening session at the club house"
    ok("new", "standard", "Ann", "Ben", "--name", name)
    monkeypatch.setenv("COLUMNS", "120")
    out = ok("house").stdout
    assert f"House rules of '{name}'" in " ".join(out.split()) and "Change with" in out


@pytest.mark.parametrize(("change", "shown"), [
    (["--game-bonus", "100", "--box-bonus", "20", "--stake", "1", "--shutout"], "target 100; gin bonus 25; undercut bonus 10\n"),
    (["--target", "150"], "target 100;"),
])
def test_a_change_from_a_hand_the_game_never_reached_is_said_never_in_force_h8(ok, status, change, shown):
    """Hands 1-2, a change from hand 3, then an edit of hand 2 ends the game there: it ended under hand 2's
    rules (no bonus, no payment), so the screens head it with those and say the change never came."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "50")
    ok("hand", "ann", "2", "12")
    ok("house", *change, "--from-next")
    ok("edit", "2", "ann", "0", "20")  # 75 + 45 = 120: over the target of 100 at hand 2
    doc = status()
    assert doc["over"] and doc["final"] == {"Ann": 120, "Ben": 0} and "settlement" not in doc
    never = "The house rules agreed from hand 3 on never came into force: the game ended at hand 2 (H8)"
    screen = ok("status").stdout
    assert f"House rules: {shown}" in screen and never + "." in screen.replace("\n", " ")
    assert "game bonus" not in screen and "target 150" not in screen
    assert never + "." in ok("log").stdout.replace("\n", " ")
    house = ok("house").stdout
    assert never + ":" in house.replace("\n", " ") and "150" not in house.split("(H8)")[0]
    told = " ".join(ok("rules").stdout.split()).split("House rules of 'standard-1' (Standard): ")[1]
    assert told.startswith(shown.strip().rstrip(";")) and never + "; `ginscore house` shows" in told
    assert "In force from" not in told and "game bonus" not in told and "150" not in told
    ok("undo", "--yes")  # hand 2 to play again: the change comes into force from it
    screen = ok("status").stdout
    assert "never came into force" not in screen and ("game bonus 100" in screen or "target 150" in screen)
    told = " ".join(ok("rules").stdout.split()).split("House rules of 'standard-1'")[1]
    assert "never came into force" not in told and "In force from hand 2 on" in told  # the next hand now


# Every house rule set off its default; `--deal`'s value stays last, as a test swaps it.
EVERY_RULE_SET = ("--big-gin-bonus", "31", "--game-bonus", "100", "--box-bonus", "20", "--shutout", "--spades-double",
                  "--ace-means-gin", "--stake", "0.01", "--deal", "alternate")


def test_house_shows_each_rules_setting_beside_it_and_the_option_that_changes_it(ok):
    """The table is what players agree their evening on (H1-H7): each rule's setting in words, on its own
    row, with the option to type to change it (three-player: R22 deals, no option)."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", *EVERY_RULE_SET, "--name", "all")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--name", "none")
    rows = {name: [[cell.strip() for cell in line.split("  ") if cell.strip()]
                   for line in ok("house", "--session", name).stdout.splitlines()[3:-1]] for name in ("all", "none")}
    assert rows["all"] == [
        ["Target (H5)", "100", "--target"], ["Gin bonus (H1)", "25", "--gin-bonus"],
        ["Undercut bonus (H1)", "10", "--undercut-bonus"],
        ["Big gin (H2)", "bonus 31", "--big-gin-bonus, --no-big-gin"],
        ["Game bonus (H3)", "100 to the winner", "--game-bonus"], ["Box bonus (H3)", "20 a hand won", "--box-bonus"],
        ["Shutout (H3)", "doubles the winner's final", "--shutout, --no-shutout"],
        ["Spades double (H4)", "on", "--spades-double, --no-spades-double"],
        ["Ace means gin (H4)", "on", "--ace-means-gin, --no-ace-means-gin"],
        ["Deal (H6)", "the deal alternates", "--deal winner|loser|alternate"],
        ["Stake (H7)", "0.01 a point", "--stake"],
    ], rows["all"]
    assert rows["none"] == [
        ["Target (H5)", "100", "--target"], ["Gin bonus (H1)", "25", "--gin-bonus"],
        ["Undercut bonus (H1)", "10", "--undercut-bonus"], ["Big gin (H2)", "off", "--big-gin-bonus, --no-big-gin"],
        ["Game bonus (H3)", "off", "--game-bonus"], ["Box bonus (H3)", "off", "--box-bonus"],
        ["Shutout (H3)", "off", "--shutout, --no-shutout"], ["Deal (R22)", "the box deals every hand"],
        ["Stake (H7)", "none", "--stake"],
    ], rows["none"]


def test_the_heading_of_a_session_says_every_house_rule_not_at_its_default(ok):
    """Under each session's name the table reads the rules it plays by (H1-H7): the target and bonuses
    always, then each rule changed from its default, in words."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", *EVERY_RULE_SET)
    said = " ".join(" ".join(ok("status").stdout.splitlines()[1:3]).split())
    assert said == ("House rules: target 100; gin bonus 25; undercut bonus 10; big gin bonus 31; game bonus 100; "
                    "box bonus 20 a hand won; shutouts double; spades double; ace means gin; the deal alternates; "
                    "stake 0.01 a point"), said


def test_rules_turned_off_from_the_next_hand_are_said_off_in_words_h8(ok):
    """H8: a rule switched off from the next hand on is told as off, so the table knows what no longer
    counts; the log's heading keeps the rules hand 1 was played under, the standings what holds now and since
    when (the hands before were scored under others)."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", *EVERY_RULE_SET[:-1], "loser")
    ok("hand", "ann", "2", "30", "--upcard", "9h")
    ok("house", "--no-big-gin", "--game-bonus", "0", "--box-bonus", "0", "--no-shutout", "--no-spades-double",
       "--no-ace-means-gin", "--stake", "0", "--deal", "winner", "--from-next")
    log = " ".join(ok("log").stdout.split())
    assert ("House rules from hand 1: target 100; gin bonus 25; undercut bonus 10; big gin bonus 31; game bonus 100; "
            "box bonus 20 a hand won; shutouts double; spades double; ace means gin; the loser deals next; "
            "stake 0.01 a point") in log, log
    assert log.endswith("from hand 2: no big gin; no game bonus; no box bonus; shutouts do not double; spades do not "
                        "double; an ace does not mean gin; the winner deals next; no stake"), log
    assert ok("status").stdout.splitlines()[1] == ("House rules from hand 2: target 100; gin bonus 25; undercut "
                                                   "bonus 10")
    house = ok("house").stdout
    assert [line.split("(H4)")[1].split()[0] for line in house.splitlines() if "(H4)" in line] == ["off", "off"], house


def test_a_box_bonus_changed_from_the_next_hand_warns_it_pays_the_hands_before_too_h3_h8(ok):
    """A box bonus is paid when a game ends, for every hand won in it (H3): a change from hand 2 on pays
    hand 1's winner at the new bonus, which the table must be told when it agrees the change (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--box-bonus", "20")
    ok("hand", "ann", "2", "10")
    said = " ".join(ok("house", "--box-bonus", "25", "--from-next").stdout.split())
    assert ("A box bonus is counted when a game ends, for every hand won in it: those before hand 2 too (H3, "
            "H8).") in said, said


def test_only_a_box_bonus_changed_from_the_next_hand_warns_of_the_hands_before_h3_h8(ok):
    """The warning is for a box bonus changed from the next hand on: one rescored from the start pays
    every hand at the new bonus anyway, and another rule changed from the next hand pays nothing back."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--box-bonus", "20")
    ok("hand", "ann", "2", "10")
    said = " ".join(ok("house", "--box-bonus", "25", "--from-start").stdout.split())
    assert "Box bonus (H3): 25 a hand won (was 20 a hand won)" in said and "A box bonus is" not in said, said
    said = " ".join(ok("house", "--target", "150", "--from-next").stdout.split())
    assert "Target (H5): 150 (was 100)" in said and "A box bonus is" not in said, said


def test_house_of_a_game_over_offers_only_a_change_from_the_start_h8(ok):
    """No hand of a finished game comes next, so a change can only say the rule was set wrong (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    said = " ".join(ok("house").stdout.split())
    assert said.endswith("Change any of them with `ginscore house OPTION` and --from-start (the game is over, so the "
                         "rule was set wrong: every hand is rescored) (H8)."), said


def test_a_house_change_shows_the_standings_it_leaves(ok):
    """After a change the table needs the totals as they now stand (H8), not only what was changed."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25, then 30 + 20
    rows = [line.split() for line in ok("house", "--gin-bonus", "20", "--from-start").stdout.splitlines()]
    assert rows[:2] == [["Changed", "the", "house", "rules", "of", "'standard-1'", "and", "rescored", "1", "hand:"],
                        ["Gin", "bonus", "(H1):", "20", "(was", "25)"]], rows
    assert ["Ann", "50", "1"] in rows and rows[-1] == ["Ann", "deals", "next."], rows


def test_a_screen_too_narrow_for_a_column_of_options_shows_each_under_its_setting(ok, monkeypatch):
    """At 60 columns the options do not fit in a column of their own: each is written under its
    setting, still in the table, so the table is not left without a word of how to change a rule."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.setenv("COLUMNS", "60")
    lines = ok("house").stdout.splitlines()
    assert lines[1].split() == ["Rule", "Setting"], lines
    assert lines[3].split() == ["Target", "(H5)", "100"] and lines[4].split() == ["--target"], lines


@pytest.mark.parametrize("width", [40, 45])
def test_a_screen_too_narrow_for_a_table_of_the_options_still_shows_each_option(ok, monkeypatch, width):
    """Under 50 columns the options fit neither beside nor under the settings in a table. A table of the
    settings alone left the advice "`ginscore house OPTION`" naming options the screen no longer showed:
    the rules go a line each, with the option that changes it under each."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.setenv("COLUMNS", str(width))
    lines = ok("house").stdout.splitlines()
    assert lines[1:5] == ["Target (H5): 100", "  --target", "Gin bonus (H1): 25", "  --gin-bonus"], lines
    assert "  --deal winner|loser|alternate" in lines and "  --stake" in lines, lines


def test_a_rule_that_never_changed_was_one_setting_whatever_changed_beside_it_h8(ok):
    """After the gin bonus changed from hand 2, the undercut bonus changed from the start was 10 throughout:
    said once, never "10 from hand 1, 10 from hand 2"; the gin bonus was two settings, each from its hand."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    ok("house", "--gin-bonus", "20", "--from-next")
    ok("hand", "ann", "3", "20")
    assert "  Undercut bonus (H1): 5 (was 10)\n" in ok("house", "--undercut-bonus", "5", "--from-start").stdout
    said = ok("house", "--gin-bonus", "30", "--from-start").stdout
    assert "  Gin bonus (H1): 30 (was 25 from hand 1, 20 from hand 2)\n" in said, said


def _house_rule_options():
    from ginscore.cli.rule_options import HOUSE_RULE_OPTIONS

    # A value each option's default is not; a new kind of option needs one here.
    unlike_default = {int: ["37"], bool: [], "Deal": ["loser"], str: ["0.5"]}
    for option in HOUSE_RULE_OPTIONS:
        kind = option.annotation if option.annotation in unlike_default else option.annotation.__name__
        name = option.default.param_decls[0].split("/")[0]
        yield pytest.param(name, unlike_default[kind], id=name)


@pytest.mark.parametrize("option, value", list(_house_rule_options()))
def test_every_house_rule_changed_says_so_and_what_it_was(ok, status, option, value):
    """`house` tells a change by the rows of its table: a rule with no row there was changed and saved,
    while `house` said the rules were already so (H1-H7)."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    before = status()["rules"]
    said = ok("house", option, *value).stdout
    assert "Changed the house rules of 'oklahoma-1' before its first hand:" in said and "(was " in said, said
    assert status()["rules"] != before


@pytest.mark.parametrize("width", [40, 60])
def test_three_players_deal_has_no_option_and_no_empty_line_under_it_r22(ok, monkeypatch, width):
    """The box deals every hand (R22), which no option changes: under 50 columns, and under the setting in the
    table up to 80, an empty line stood where its option would be."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    monkeypatch.setenv("COLUMNS", str(width))
    lines = ok("house").stdout.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("Deal (R22)"))
    assert lines[at + 1].startswith("Stake (H7)"), lines


def test_a_setting_that_wraps_on_a_very_narrow_screen_goes_on_indented_r22(ok, monkeypatch):
    """At 20 columns "Deal (R22): the box" was followed by "deals every hand" at the left edge, which reads
    as a rule of its own: the rest of a setting goes on indented, under its rule."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    monkeypatch.setenv("COLUMNS", "20")
    lines = ok("house").stdout.splitlines()
    at = lines.index("Deal (R22): the box")
    assert lines[at + 1:at + 3] == ["  deals every hand", "Stake (H7): none"], lines
