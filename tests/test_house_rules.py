"""House rules after the fact: `house`, who deals (H6), stakes (H7), notes and matches.

Every case runs the real CLI on a real database file; a refused change is
checked by the `refused` fixture (exit 2, one line, file byte-identical).
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.documents import _uninert, inert
from ginscore.codec.facts import check_note, hands_from_text, hands_to_text
from ginscore.core.scoring import HouseRules
from ginscore.core.stakes import game_payments, net, settlement
from ginscore.core.replay import replay

from .conftest import stored_sessions
from .test_core_variants import legal_sessions
from .profiles import examples


def dealers(ok) -> list[str]:
    return [h["dealer"] for h in ok("log", "--json").json()["hands"]]


# --- H6: who deals -----------------------------------------------------------


def test_h6_winner_deals_by_default_r5(ok, status):
    # Ann deals hand 1 and Ben wins it: Ben deals hand 2 (R5).
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ben", "3", "20")
    assert status()["next_dealer"] == "Ben" and status()["rules"]["deal"] == "winner"


def test_h6_loser_deals_worked_example(ok, status):
    # Ann deals hand 1, Ben wins it by knocking, so Ann (the loser) deals hand 2.
    # Ann goes gin on hand 2, so Ben (the loser) deals hand 3. Hand 3 is drawn,
    # so Ben deals again (R12). Ben is undercut on hand 4: Ann wins, Ben deals hand 5.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser")
    ok("hand", "ben", "3", "20")
    assert status()["next_dealer"] == "Ann"
    ok("hand", "ann", "0", "12")
    assert status()["next_dealer"] == "Ben"
    out = ok("draw").stdout
    assert "Ben deals again (R12)" in out
    ok("hand", "ben", "8", "5")  # undercut: Ann wins (R10, R13)
    assert dealers(ok) == ["Ann", "Ann", "Ben", "Ben"]
    assert status()["next_dealer"] == "Ben"
    assert ok("dealer", "--json").json()["next_dealer"] == "Ben"


def test_h6_alternate_worked_example(ok, status):
    # Ann deals hand 1 and wins it: Ben deals hand 2 all the same (the deal passes).
    # Ben wins hand 2: Ann deals hand 3. Hand 3 is drawn: Ann deals hand 4 again (R12).
    # Ann deals hand 4, so Ben deals hand 5, whoever wins.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "alternate")
    ok("hand", "ann", "2", "9")
    ok("hand", "ben", "0", "4")
    ok("draw")
    ok("hand", "ben", "1", "5")
    assert dealers(ok) == ["Ann", "Ben", "Ann", "Ann"]
    assert status()["next_dealer"] == "Ben"
    assert "the deal alternates" in ok("status").stdout


def test_h6_alternate_in_hollywood_and_oklahoma(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ben", "--deal", "alternate")
    ok("hand", "ann", "2", "9")
    ok("hand", "ann", "2", "9")
    assert dealers(ok) == ["Ben", "Ann"] and status()["next_dealer"] == "Ben"
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ben", "--deal", "loser")
    ok("hand", "ann", "2", "9", "--upcard", "5h")
    assert status()["next_dealer"] == "Ben"


def test_h6_three_player_is_always_r22(ok, refused, status):
    refused("new", "three", "Ann", "Ben", "Cy", "--deal", "loser", says="the box deals every hand (R22)")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--deal", "winner")
    refused("house", "--deal", "alternate", says="R22")
    assert "the box deals every hand" in ok("house").stdout


def test_h6_rematch_first_dealer_follows_the_deal_rule(ok, status):
    # Loser deals: Ann wins the last hand, so Ben deals the first hand of the rematch.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser", "--target", "20", "--stake", "0.05")
    ok("hand", "ann", "0", "10")
    assert status()["over"] is True
    ok("rematch")
    doc = status()
    assert doc["next_dealer"] == "Ben"
    assert doc["rules"]["deal"] == "loser" and doc["rules"]["stake"] == "0.05"


def test_h6_rematch_with_alternate_passes_the_deal_on(ok, status):
    # Alternate: Ben dealt the last hand (hand 2), so Ann deals first in the rematch.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "alternate", "--target", "20")
    ok("hand", "ann", "5", "9")
    ok("hand", "ann", "0", "0")
    ok("rematch")
    assert status()["next_dealer"] == "Ann"


# --- H7: stakes --------------------------------------------------------------


def test_h7_standard_worked_example(ok, status):
    # Ben knocks 1 against 50: Ben 49. Ann goes gin against 87: Ann 87 + 25 = 112.
    # Ann wins 112 to 49 at 0.01 a point: Ben pays Ann (112 - 49) x 0.01 = 0.63.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01")
    ok("hand", "ben", "1", "50")
    assert "settlement" not in status()  # not over yet
    out = ok("hand", "ann", "0", "87").stdout
    assert "Ben pays Ann 0.63" in out
    doc = status()
    assert doc["final"] == {"Ann": 112, "Ben": 49}
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "0.63"}]
    assert "Ben pays Ann 0.63" in ok("status").stdout


def test_h7_no_stake_no_settlement(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10")
    ok("hand", "ann", "0", "0")
    doc = status()
    assert doc["over"] is True and "settlement" not in doc and doc["rules"]["stake"] == "0"
    assert "pays" not in ok("status").stdout


def test_h7_box_bonus_can_make_the_winner_pay(ok, status):
    # Box bonus 25 a hand won (H3). Ben wins six hands by 1 (knocks 1 against 2):
    # 6 points + 6 x 25 = 156. Ann goes gin against 75 once: 100 points, reaching
    # the target: Ann wins the game with 100 + 25 = 125. Ben's final is higher,
    # so the winner pays: Ann pays Ben (156 - 125) x 0.01 = 0.31.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--box-bonus", "25", "--stake", "0.01")
    for _ in range(6):
        ok("hand", "ben", "1", "2")
    ok("hand", "ann", "0", "75")
    doc = status()
    assert doc["winner"] == "Ann" and doc["final"] == {"Ann": 125, "Ben": 156}
    assert doc["settlement"] == [{"from": "Ann", "to": "Ben", "amount": "0.31"}]
    assert "Ann pays Ben 0.31" in ok("status").stdout


def test_h7_three_player_each_loser_settles_with_the_winner(ok, status):
    # Ann (box) goes gin against Ben (captain) with 80: 105, game over.
    # Ben 0 and Cy 0: each pays Ann 105 x 2 = 210.
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--stake", "2")
    ok("hand", "ann", "0", "80")
    assert status()["settlement"] == [
        {"from": "Ben", "to": "Ann", "amount": "210.00"},
        {"from": "Cy", "to": "Ann", "amount": "210.00"},
    ]


def _hollywood_series(ok, stake: str, ben_third: tuple[str, str]) -> None:
    """Target 10. Ann wins 10 (game 1, 10-0). Ben wins 12: his first win goes to game 2
    only (R18), which he wins 12-0. Ben's next win (``ben_third``) goes to game 3.
    Ann wins 10 in game 3 and the series is over (R19)."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", stake)
    ok("hand", "ann", "1", "11")
    ok("hand", "ben", "1", "13")
    ok("hand", "ben", *ben_third)
    ok("hand", "ann", "1", "11")


def test_h7_hollywood_nets_the_three_games(ok, status):
    # Game 1: Ann 10 - Ben 0, Ben owes 10. Game 2: Ben 12 - Ann 0, Ann owes 12.
    # Game 3: Ann 10 - Ben 5, Ben owes 5. Netted: Ben pays Ann 10 - 12 + 5 = 3 points,
    # at 0.25 a point 0.75: one payment for the pair.
    _hollywood_series(ok, "0.25", ("2", "7"))  # Ben wins 5
    doc = status()
    assert [g["final"] for g in doc["games"]] == [{"Ann": 10, "Ben": 0}, {"Ann": 0, "Ben": 12}, {"Ann": 10, "Ben": 5}]
    assert doc["over"] is True
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "0.75"}]
    assert "Ben pays Ann 0.75 (the three games netted" in ok("status").stdout


def test_h7_hollywood_games_that_cancel_out_owe_nothing(ok, status):
    # Game 1: Ben owes 10. Game 2: Ann owes 12. Game 3: Ann 10 - Ben 8, Ben owes 2.
    # 10 - 12 + 2 = 0: nobody pays.
    _hollywood_series(ok, "1", ("2", "10"))  # Ben wins 8
    doc = status()
    assert doc["over"] is True and doc["settlement"] == []
    assert "nobody pays" in ok("status").stdout


def test_h7_hollywood_settles_only_once_the_series_is_over(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", "1")
    ok("hand", "ann", "1", "11")  # game 1
    ok("hand", "ann", "1", "11")  # games 2 (and 3)
    doc = status()
    assert doc["winner"] == "Ann" and doc["over"] is False and "settlement" not in doc


@pytest.mark.parametrize("typed", ["-1", "abc", "1e-2", "nan", "Infinity", "0.00001", "1,5", "", "+1", "2000000"])
def test_h7_stake_that_is_not_an_amount_is_refused(ok, refused, typed):
    refused("new", "standard", "Ann", "Ben", "--stake", typed, says="stake")
    ok("new", "standard", "Ann", "Ben")
    refused("house", "--stake", typed, says="stake")


def test_h7_stake_is_kept_as_exact_text_never_a_float(ok, db_path, status):
    ok("new", "standard", "Ann", "Ben", "--stake", "0.10")
    stored = stored_sessions(db_path)["1"]["rules"]["stake"]
    assert stored == "0.1" and status()["rules"]["stake"] == "0.1"


# --- house -------------------------------------------------------------------


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
    out = ok("house", "--gin-bonus", "20", "--undercut-bonus", "25", "--stake", "0.02").stdout
    assert "rescored 2 hands" in out and "Gin bonus (H1): 20 (was 25)" in out
    doc = status()
    assert doc["totals"] == {"Ann": 50 + 29, "Ben": 0}
    assert doc["rules"]["gin_bonus"] == 20 and doc["rules"]["stake"] == "0.02"


def test_house_lowering_the_target_to_the_last_hand_ends_the_game(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # 55
    ok("hand", "ann", "2", "20")  # 73
    ok("house", "--target", "70", "--stake", "1")
    doc = status()
    assert doc["over"] is True and doc["winner"] == "Ann"
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "73.00"}]


def test_house_turns_switches_off(ok, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--shutout", "--spades-double", "--ace-means-gin",
       "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "9", "--upcard", "5s")  # doubled: 14
    assert status()["totals"]["Ann"] == 14
    ok("house", "--no-shutout", "--no-spades-double", "--no-ace-means-gin", "--no-big-gin")
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
    line = refused("house", *options, says=says)
    assert line.startswith("Error: refused: under those rules hand") or "hand" not in says


def test_house_refuses_a_rule_that_makes_no_sense_for_the_variant(ok, refused):
    ok("new", "standard", "Ann", "Ben")
    refused("house", "--spades-double", says="Oklahoma house rule (H4)")
    refused("house", "--ace-means-gin", says="Oklahoma house rule (H4)")


# --- notes -------------------------------------------------------------------

NASTY_NOTES = ["=SUM(A1)", "'=quoted", "a|b;c%d %7C", 'comma, "quoted"', "café ♠ 10♥", "-2 for the spill", "'tis"]


def test_notes_on_hand_draw_and_edit(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "Note: Ben's | misdeal ; 100%\n" in ok("hand", "ann", "4", "22", "--note", "  Ben's | misdeal ; 100%  ").stdout
    ok("draw", "--note", "stock ran out")
    ok("hand", "ben", "3", "9")
    hands = ok("log", "--json").json()["hands"]
    assert [h["note"] for h in hands] == ["Ben's | misdeal ; 100%", "stock ran out", None]
    ok("edit", "1", "ann", "5", "22")  # no --note: the note is kept
    ok("edit", "3", "ben", "3", "9", "--note", "counted twice")  # a note added
    ok("edit", "2", "--draw", "--note", "")  # an empty note removes it
    hands = ok("log", "--json").json()["hands"]
    assert [h["note"] for h in hands] == ["Ben's | misdeal ; 100%", None, "counted twice"]
    assert hands[0]["knocker_deadwood"] == 5
    out = ok("log").stdout
    assert "hand 1: Ben's | misdeal ; 100%" in out and "hand 3: counted twice" in out


@pytest.mark.parametrize("note, says", [
    ("\x1b]0;pwned\x07", "cannot be shown"),
    ("bidi \u202e text", "cannot be shown"),
    ("x" * 201, "keep it to 200"),
])
def test_note_that_cannot_be_kept_is_refused(ok, refused, note, says):
    ok("new", "standard", "Ann", "Ben")
    ok("hand", "ann", "4", "22")
    line = refused("hand", "ann", "4", "22", "--note", note, says=says)
    assert "\x1b" not in line and "\u202e" not in line
    refused("draw", "--note", note, says=says)
    refused("edit", "1", "ann", "4", "22", "--note", note, says=says)


def test_a_blank_note_is_no_note(ok):
    ok("new", "standard", "Ann", "Ben")
    ok("hand", "ann", "4", "22", "--note", "   ")
    assert ok("log", "--json").json()["hands"][0]["note"] is None


def _noted_evening(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--stake", "0.05", "--deal", "alternate")
    for number, note in enumerate(NASTY_NOTES):
        if number == 3:
            ok("draw", "--note", note)
        else:
            ok("hand", "ann" if number % 2 else "ben", "2", "9", "--note", note)
    ok("hand", "ann", "3", "9")  # no note


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_notes_round_trip_through_export_and_import(ok, tmp_path, fmt):
    _noted_evening(ok)
    first = ok("export", "--format", fmt).stdout
    (tmp_path / f"backup.{fmt}").write_text(first)
    other = tmp_path / "other.json"
    options = [] if fmt == "json" else ["--stake", "0.05", "--deal", "alternate"]
    ok("--db", other, "import", tmp_path / f"backup.{fmt}", *options)
    notes = [h["note"] for h in ok("--db", other, "log", "--json").json()["hands"]]
    assert notes == NASTY_NOTES + [None]
    assert ok("--db", other, "export", "--format", fmt).stdout == first
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(first)))
        assert rows[0]["note"] == "'=SUM(A1)"  # made inert for spreadsheets
        assert rows[-1]["note"] == ""
    else:
        doc = json.loads(first)["session"]
        assert [h.get("note") for h in doc["hands"]] == NASTY_NOTES + [None]
        assert doc["rules"]["stake"] == "0.05" and doc["rules"]["deal"] == "alternate"


def test_rows_without_a_note_read_as_1_0_wrote_them():
    """A 1.0 row has no note field; a hand without a note is still stored without one."""
    old = "knock|Ann|4|22||0|2026-11-29T20:00:00+01:00;draw||2026-11-29T20:05:00+01:00"
    hands = hands_from_text(old)
    assert [h.get("note") for h in hands] == [None, None]
    assert hands_to_text(hands) == old
    noted = hands_to_text([dict(hands[0], note="a|b;c%")])
    assert noted.endswith("|a%7Cb%3Bc%25") and hands_from_text(noted)[0]["note"] == "a|b;c%"


def test_a_database_of_1_0_without_deal_stake_or_notes_still_reads(ok, db_path, status):
    db_path.write_text(json.dumps({
        "meta": {"1": {"schema_version": 2, "current": "old"}},
        "sessions": {"1": {
            "name": "old", "variant": "standard", "players": ["Ann", "Ben"],
            "rules": {"target": 100, "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": None,
                      "game_bonus": 0, "box_bonus": 0, "shutout": False, "spades_double": False,
                      "ace_means_gin": False},
            "first_dealer": "Ann", "first_roles": None, "created_at": "2026-11-29T20:00:00+01:00",
            "hands": "knock|Ann|4|22||0|2026-11-29T20:00:00+01:00",
        }},
    }))
    doc = status()
    assert doc["rules"]["deal"] == "winner" and doc["rules"]["stake"] == "0" and doc["match"] is None
    assert ok("log", "--json").json()["hands"][0]["note"] is None


# --- the match ---------------------------------------------------------------


def test_rematch_links_sessions_into_a_match(ok, status):
    # Game 1: Ann wins 35 to 0 at 0.1 a point (Ben owes 3.5). Game 2: Ben wins 35 to 0
    # (Ann owes 3.5). The match so far: a game each, 35 points each, nobody owes.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "0.1")
    assert status()["match"] is None
    ok("hand", "ann", "0", "10")
    ok("rematch")
    ok("hand", "ben", "0", "10")
    doc = status()
    match = doc["match"]
    assert match["sessions"] == ["standard-1", "standard-2"]
    assert match["games_won"] == {"Ann": 1, "Ben": 1}
    assert match["finals"] == {"Ann": 35, "Ben": 35}
    assert match["settlement"] == []
    ok("rematch")
    ok("hand", "ann", "1", "40")
    match = status()["match"]
    assert match["sessions"] == ["standard-1", "standard-2", "standard-3"]
    assert match["games_won"] == {"Ann": 2, "Ben": 1} and match["finals"] == {"Ann": 74, "Ben": 35}
    assert match["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "3.90"}]
    assert status("--session", "standard-1")["match"]["id"] == match["id"]
    out = ok("status").stdout
    assert "Match so far (3 sessions" in out and "Ann: 2 games won" in out and "Ben pays Ann 3.9" in out


def test_history_shows_which_sessions_are_one_match(ok):
    ok("new", "standard", "Ann", "Ben", "--name", "friday")
    ok("rematch", "--name", "friday-2")
    ok("new", "standard", "Cy", "Di", "--name", "alone")
    ok("new", "hollywood", "Ann", "Ben", "--name", "sat")
    ok("rematch", "--name", "sat-2")
    rows = {r["name"]: r["match"] for r in ok("history", "--json").json()}
    assert rows["alone"] is None
    assert rows["friday"] == rows["friday-2"] and rows["sat"] == rows["sat-2"] and rows["friday"] != rows["sat"]
    out = ok("history").stdout
    assert "One match (linked by `ginscore rematch`): friday, friday-2." in out
    assert "One match (linked by `ginscore rematch`): sat, sat-2." in out and "alone." not in out


def test_the_match_is_kept_by_export_and_import(ok, tmp_path, status):
    ok("new", "standard", "Ann", "Ben", "--name", "one")
    ok("rematch", "--name", "two")
    match = status()["match"]["id"]
    (tmp_path / "two.json").write_text(ok("export", "--format", "json").stdout)
    assert json.loads((tmp_path / "two.json").read_text())["session"]["match"] == match
    other = tmp_path / "other.json"
    ok("--db", other, "import", tmp_path / "two.json")
    assert ok("--db", other, "status", "--json").json()["match"]["id"] == match


# --- import: new fields checked strictly -------------------------------------


def _export_doc(ok) -> dict:
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01")
    ok("hand", "ann", "4", "22", "--note", "fine")
    ok("rematch")
    ok("hand", "ann", "4", "22", "--note", "fine")
    return json.loads(ok("export", "--format", "json").stdout)


@pytest.mark.parametrize("path, value, says", [
    (("rules", "stake"), 0.01, "must be written as text"),
    (("rules", "stake"), "NaN", "not an amount"),
    (("rules", "stake"), "-0.01", "the stake must be 0 or more, not -0.01"),
    (("rules", "stake"), "1E+2", "not an amount"),
    (("rules", "stake"), "0.123456", "decimals"),
    (("rules", "deal"), "dealer", "deal rule"),
    (("rules", "deal"), 1, "deal must be text"),
    (("hands", 0, "note"), 5, "note"),
    (("hands", 0, "note"), "", "note"),
    (("hands", 0, "note"), " padded ", "note"),
    (("hands", 0, "note"), "\x1b[2J", "note"),
    (("hands", 0, "note"), "y" * 201, "note"),
    (("rules", "target"), "100", "must be a whole number"),
    (("rules", "big_gin_bonus"), 31.0, "must be a whole number"),
    (("rules", "shutout"), 1, "must be true or false"),
    (("match",), "not-an-id", "match id"),
    (("match",), 7, "match id"),
])
def test_import_refuses_a_bad_deal_stake_note_or_match(ok, refused, tmp_path, path, value, says):
    doc = _export_doc(ok)
    where = doc["session"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    line = refused("import", tmp_path / "bad.json", says=says)
    assert "\x1b" not in line


# --- properties --------------------------------------------------------------


@st.composite
def finished_sessions(draw):
    facts = draw(legal_sessions())
    rules = facts.rules._replace(
        box_bonus=draw(st.sampled_from([0, 0, 5, 25])),
        game_bonus=draw(st.sampled_from([0, 100])),
        shutout=draw(st.booleans()),
        stake=draw(st.sampled_from([Decimal("0.01"), Decimal("0.0025"), Decimal("1"), Decimal("7.5")])),
        deal=draw(st.sampled_from(["winner"] if facts.variant == "three" else ["winner", "loser", "alternate"])),
    )
    return facts._replace(rules=rules)


@settings(max_examples=examples(200))
@given(finished_sessions())
def test_property_h7_settlement_is_exact_and_adds_up(facts):
    standings = replay(facts)
    payments = settlement(standings)
    if not standings.over:
        assert payments is None
        return
    stake = facts.rules.stake
    # What each player should end up receiving: every game, every loser against its winner (H7).
    due = {p: Decimal(0) for p in facts.players}
    for game in standings.games:
        for loser in facts.players:
            if loser != game.winner:
                owed = (game.final[game.winner] - game.final[loser]) * stake
                due[game.winner] += owed
                due[loser] -= owed
    received = {p: Decimal(0) for p in facts.players}
    pairs = set()
    for p in payments:
        assert isinstance(p.amount, Decimal) and p.amount > 0 and p.payer != p.payee
        assert frozenset((p.payer, p.payee)) not in pairs  # one payment per pair
        pairs.add(frozenset((p.payer, p.payee)))
        text = p.to_dict()["amount"]
        assert "E" not in text and Decimal(text) == p.amount
        received[p.payee] += p.amount
        received[p.payer] -= p.amount
    assert received == due and sum(received.values()) == 0
    if facts.variant != "hollywood":
        game = standings.games[0]
        for p in payments:
            assert p.amount == abs(game.final[p.payer] - game.final[p.payee]) * stake


@given(st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from("ABC"), st.integers(1, 10_000)), max_size=12))
def test_property_net_keeps_every_balance(moves):
    payments = [game_payments({a: 0, b: points}, b, Decimal("0.01"))[0] for a, b, points in moves if a != b]
    balance = {p: Decimal(0) for p in "ABC"}
    for p in payments:
        balance[p.payee] += p.amount
        balance[p.payer] -= p.amount
    netted = net(payments)
    after = {p: Decimal(0) for p in "ABC"}
    for p in netted:
        after[p.payee] += p.amount
        after[p.payer] -= p.amount
    assert after == balance
    assert len({frozenset((p.payer, p.payee)) for p in netted}) == len(netted)


def test_house_rules_read_back_from_their_stored_form():
    rules = HouseRules(deal="alternate", stake=Decimal("0.01"))
    assert HouseRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_a_refused_rematch_links_nothing(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--name", "one")
    ok("new", "standard", "Ann", "Ben", "--name", "two")
    refused("rematch", "--name", "ONE", says="already a session named")
    assert "match" not in stored_sessions(db_path)["2"]


def test_house_without_a_session_is_refused(refused):
    refused("house", says="no session yet")
    refused("house", "--target", "50", says="no session yet")


def test_csv_of_a_session_with_another_deal_needs_that_deal(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser")
    ok("hand", "ben", "3", "20")
    ok("hand", "ben", "3", "20")
    (tmp_path / "s.csv").write_text(ok("export").stdout)
    other = ("--db", str(tmp_path / "other.json"))  # (where the session is, its own rules are used)
    refused(*other, "import", tmp_path / "s.csv", says="--deal loser when the dealers differ")
    ok(*other, "import", tmp_path / "s.csv", "--deal", "loser")


NOTE_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"), whitelist_characters=" |;%"),
    min_size=1, max_size=200,
).filter(str.strip)


@given(NOTE_TEXT)
def test_property_any_kept_note_survives_the_stored_row(text):
    note = check_note(text)
    hands = [{"type": "draw", "upcard": None, "recorded_at": None, "note": note}]
    assert hands_from_text(hands_to_text(hands))[0]["note"] == note


@given(st.text(max_size=30))
def test_property_inert_cells_come_back_exactly(text):
    assert _uninert(inert(text)) == text


def test_an_export_carries_the_session_id_as_format_3(ok):
    """Format 3 carries the session's id, which an older ginscore would refuse as an unknown
    field rather than import the session without it."""
    ok("new", "standard", "Ann", "Ben")
    ok("hand", "ann", "4", "22")
    doc = json.loads(ok("export", "--format", "json").stdout)
    assert doc["ginscore_export"] == 3 and doc["session"]["id"].startswith("s-")
