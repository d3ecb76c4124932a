"""What ginscore says is true of the game played and of what it does: the version,
numbers no count can be, the rule a refusal cites, what `house` did to a finished game, the help
of `sessions`, the upcard of an Oklahoma hand, and one notation for cards in `log`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version

import pytest

from ginscore.core.scoring import limit_rule

HUGE = "9" * 5000  # past Python's own limit of 4,300 digits for reading a number


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_the_installed_one(ok, flag, db_path):
    assert ok(flag).stdout == f"ginscore {version('ginscore')}\n"
    assert not db_path.exists()


def _exported(ok, tmp_path, fmt: str):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "4", "22")
    out = tmp_path / f"friday.{fmt}"
    ok("export", "--format", fmt, "--output", out)
    return out


def test_a_csv_count_longer_than_any_count_is_refused(ok, refused, tmp_path):
    out = _exported(ok, tmp_path, "csv")
    head, row = out.read_text().splitlines()[:2]
    out.write_text(head + "\n" + row.replace(",22,", f",{HUGE},", 1) + "\n")
    assert "5000 digits" in refused("import", out, "--db", tmp_path / "other.json")


def test_a_json_number_longer_than_any_count_is_refused(ok, refused, tmp_path):
    out = _exported(ok, tmp_path, "json")
    doc = out.read_text()
    assert '"opponent_deadwood": 22' in doc
    out.write_text(doc.replace('"opponent_deadwood": 22', f'"opponent_deadwood": {HUGE}', 1))
    line = refused("import", out, "--db", tmp_path / "other.json")
    assert "5000 digits" in line and str(out.name) in line


@pytest.mark.parametrize("typed", [["hand", "ann", "4", HUGE], ["hand", "ann", f"-{HUGE}", "4"]])
def test_a_typed_count_longer_than_any_count_is_refused(ok, refused, typed):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "5000 digits" in refused(*typed)


@pytest.mark.parametrize("variant, cited, not_cited", [("standard", "(R7)", "R15"), ("oklahoma", "(R15)", "R7")])
def test_the_knock_limit_refusal_cites_the_rule_of_the_variant(ok, refused, variant, cited, not_cited):
    ok("new", variant, "Ann", "Ben", "--dealer", "ann")
    line = refused("hand", "ann", "11", "30", "--upcard", "kh")
    assert cited in line and not_cited not in line, line
    assert limit_rule(variant) == cited.strip("()")


def test_play_cites_the_rule_of_the_variant_at_the_knock_limit(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    out = ok("play", input="ann\n11\n:quit\n").stdout
    assert "knock limit of 10 (R7)" in out and "R15" not in out


def test_house_says_when_it_reopens_a_finished_game(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "90")  # 90 + 25: Ann has won
    out = ok("house", "--target", "200").stdout
    assert "Ann had won is not over yet" in out
    out = ok("house", "--target", "100").stdout
    assert "the game is over: Ann wins" in out


def test_house_says_nothing_of_the_game_when_its_end_is_unchanged(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    out = ok("house", "--gin-bonus", "20").stdout
    assert "is over" not in out and "not over yet" not in out and "wins" not in out


def test_sessions_help_tells_the_order_they_are_listed_in(ok, tmp_path):
    out = _exported(ok, tmp_path, "json")
    doc = json.loads(out.read_text())
    doc["session"]["created_at"] = "2001-01-01T20:00:00+00:00"  # an old evening, brought in last
    doc["session"]["name"] = "old"
    doc["session"].pop("id", None)
    out.write_text(json.dumps(doc))
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy", "--name", "tonight")
    ok("import", out)
    help_text = " ".join(ok("sessions", "--help").stdout.split())
    assert "oldest first" not in help_text
    assert "in the order they came into this database" in help_text
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["friday", "tonight", "old"]


def test_oklahoma_record_question_and_recorded_line_repeat_the_upcard(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    out = ok("play", input="7h\nann\n4\n22\n\n:quit\n").stdout
    assert "Ann knocked with 4 on a 7♥ upcard, Ben had 22: knock: Ann scores 22 - 4 = 18. Record it?" in out
    assert "Saved hand 1: Ann knocked with 4 on a 7♥ upcard" in out
    assert "on a 3♠ upcard" in ok("hand", "ben", "2", "30", "--upcard", "3s").stdout


def test_a_standard_hand_names_no_upcard(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "upcard" not in ok("hand", "ann", "4", "22", "--upcard", "7h").stdout


def test_log_shows_cards_in_one_notation(ok, db_path):
    """Suit symbols on a terminal that can show them, letters on one that cannot: never both."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KS KH KD QC QH QD JS JC 9C 8C",
       "--upcard", "3h")
    out = ok("log").stdout
    assert "3♥" in out and "3H" not in out
    env = {**os.environ, "GINSCORE_DB": str(db_path), "PYTHONIOENCODING": "ascii"}
    ascii_out = subprocess.run([sys.executable, "-m", "ginscore", "log"], env=env, capture_output=True,
                               text=True, encoding="ascii", check=True).stdout
    assert "3H" in ascii_out and "\\u" not in ascii_out
