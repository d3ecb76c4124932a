"""`ginscore new`: a session started, its first dealer or roles."""

from __future__ import annotations

STATUS_KEYS = {"session", "variant", "players", "rules", "hands_played", "next_dealer", "final", "winner", "over"}


RULE_KEYS = {"target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus", "shutout",
             "spades_double", "ace_means_gin", "deal", "stake"}


def test_new_standard_with_dealer_and_status_json(ok, status):
    out = ok("new", "standard", "Ann", "Ben", "--dealer", "ben").stdout
    assert "Started 'standard-1'" in out and "Ben deals next." in out
    doc = status()
    assert STATUS_KEYS <= set(doc) and "totals" in doc
    assert "games" not in doc and "roles" not in doc
    assert set(doc["rules"]) == RULE_KEYS
    assert doc["session"] == "standard-1" and doc["variant"] == "standard"
    assert doc["players"] == ["Ann", "Ben"] and doc["hands_played"] == 0
    assert doc["next_dealer"] == "Ben" and doc["totals"] == {"Ann": 0, "Ben": 0}
    assert doc["final"] is None and doc["winner"] is None and doc["over"] is False


def test_r5_random_first_dealer_is_printed(ok, status):
    out = ok("new", "standard", "Ann", "Ben").stdout
    dealer = status()["next_dealer"]
    assert f"{dealer} deals first, chosen at random (R5)" in out


def test_three_player_random_draw_is_printed_r21(ok, status):
    out = ok("new", "three", "Ann", "Ben", "Cy").stdout
    assert "Drew for seats (R21)" in out
    roles = status()["roles"]
    assert sorted(roles.values()) == ["Ann", "Ben", "Cy"]


def test_refused_new_creates_no_file(refused, db_path):
    refused("new", "standard", "Ann", "Ann")
    assert not db_path.exists()
