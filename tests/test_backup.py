"""Backup and restore: export then import then export gives the same output."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.core.errors import Refused
from ginscore.documents import check_against_csv, export_csv, export_json, read_backup
from ginscore.codec.facts import hands_from_text, hands_to_text, session_from_dict, session_to_dict
from ginscore.core.replay import replay

from .test_core_variants import legal_sessions
from .profiles import examples


def _evening(ok, variant, *extra):
    players = ["Ann", "=Ben", "Cy"] if variant == "three" else ["Ann", "=Ben"]
    seats = ["--box", "Ann", "--captain", "=Ben"] if variant == "three" else ["--dealer", "=ben"]
    ok("new", variant, *players, *seats, *extra)
    upcard = ["--upcard", "9s"] if variant == "oklahoma" else []
    ok("hand", "ann", "3", "20", *upcard)
    ok("hand", "cy" if variant == "three" else "=ben", "0", "12", *upcard)  # R23: =Ben sits out
    ok("draw")
    ok("hand", "=ben" if variant == "three" else "ann", "9", "7", *upcard)  # an undercut


@pytest.mark.parametrize("variant", ["standard", "oklahoma", "hollywood", "three"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_import_export_is_the_same(ok, tmp_path, variant, fmt):
    rules = ["--gin-bonus", "20", "--box-bonus", "5"] + (["--spades-double"] if variant == "oklahoma" else [])
    _evening(ok, variant, *rules)
    first = ok("export", "--format", fmt).stdout
    (tmp_path / f"backup.{fmt}").write_text(first)
    other = tmp_path / "other.json"
    options = [] if fmt == "json" else rules + (["--variant", variant] if variant == "oklahoma" else [])
    ok("--db", other, "import", tmp_path / f"backup.{fmt}", *options)
    again = ok("--db", other, "export", "--format", fmt).stdout
    assert again == first
    assert ok("--db", other, "status", "--json").json()["rules"] == ok("status", "--json").json()["rules"]


def test_import_into_the_same_database_is_already_here_and_a_copy_takes_a_free_name(ok, tmp_path):
    _evening(ok, "standard")
    backup = tmp_path / "b.json"
    ok("export", "--format", "json", "--output", backup)
    assert "Already here" in ok("import", backup).stdout
    out = ok("import", backup, "--as-copy").stdout
    assert "as 'standard-1-2'" in out
    rows = ok("sessions", "--json").json()
    assert [r["name"] for r in rows] == ["standard-1", "standard-1-2"] and rows[1]["current"]


def test_csv_that_does_not_add_up_is_refused(ok, refused, tmp_path):
    _evening(ok, "standard", "--gin-bonus", "20")
    backup = tmp_path / "b.csv"
    ok("export", "--output", backup)
    other = ("--db", str(tmp_path / "other.json"))  # (where the session is, its own rules are used)
    refused(*other, "import", backup, says="gin-bonus")  # played with 20, imported with the default 25
    text = backup.read_text().replace(",knock,Ann,17,", ",knock,Ann,71,")
    backup.write_text(text)
    refused("import", backup, "--gin-bonus", "20", says="points")


def test_a_csv_whose_rows_are_numbered_otherwise_is_refused_without_blaming_the_rules(ok, refused, tmp_path):
    """A row renumbered (or rows moved) in a spreadsheet: no house rule makes hand 2 hand 5, so the
    refusal says how the rows must be numbered, not which rule to give."""
    _evening(ok, "standard")
    backup = tmp_path / "b.csv"
    ok("export", "--output", backup)
    lines = backup.read_text(encoding="utf-8").splitlines()
    lines[2] = "5" + lines[2][1:]
    backup.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = refused("--db", str(tmp_path / "other.json"), "import", backup, says="row 2 is hand 2")
    assert "in order from hand 1" in line and "--gin-bonus" not in line


@pytest.mark.parametrize(
    "content, says",
    [
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "whist", "players": ["A", "B"]}}', "variant"),
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "standard", "players": ["A", "B"],'
         ' "first_dealer": "A", "hands": [{"type": "knock", "knocker": "A", "knocker_deadwood": 12,'
         ' "opponent_deadwood": 30}]}}', "knock limit"),
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "standard", "players": ["A", "a"],'
         ' "first_dealer": "A"}}', "two players"),
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "standard", "players": ["A", "B"],'
         ' "first_dealer": "Z"}}', "first dealer"),
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "three", "players": ["A", "B", "C"],'
         ' "first_roles": {"box": "A", "captain": "A", "out": "C"}}}', "roles"),
        ('{"ginscore_export": 1, "session": {"name": "x", "variant": "standard", "players": ["A", "B"],'
         ' "first_dealer": "A", "rules": {"target": 0}}}', "target"),
        ('{"ginscore_export": 9, "session": {}}', "newer"),
        ('{"hello": "world"}', "not a ginscore export"),
        ("[1, 2]", "not a ginscore export"),
        ("a,b,c\n1,2,3\n", "neither a JSON export nor a CSV export; import a file `ginscore export` wrote"),
        ("hand,dealer,knocker,knocker_deadwood,opponent_deadwood,upcard,outcome,winner,points,total:A,total:B\n",
         "no hands"),
        ("hand,dealer,knocker,knocker_deadwood,opponent_deadwood,upcard,outcome,winner,points,total:A,total:B\n"
         "1,A,A,x,9,,knock,A,5,5,0\n", "must be a whole number"),
        ("hand,dealer,knocker,knocker_deadwood,opponent_deadwood,upcard,outcome,winner,points,total:A,total:B\n"
         "1,A,A,4,9,,slam,A,5,5,0\n", "unknown outcome"),
        ("hand,dealer,knocker,knocker_deadwood,opponent_deadwood,upcard,outcome,winner,points,total:A,total:B\n"
         "1,A,Z,4,9,,knock,Z,5,5,0\n", "Z does not play"),
    ],
)
def test_import_refuses_files_that_do_not_add_up(ok, refused, tmp_path, content, says):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    backup = tmp_path / "bad.txt"
    backup.write_text(content)
    refused("import", backup, says=says)


def test_import_refuses_missing_file_and_options_on_json(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    refused("import", tmp_path / "nope.json", says="cannot read")
    backup = tmp_path / "b.json"
    ok("export", "--format", "json", "--output", backup)
    refused("import", backup, "--gin-bonus", "20", says="carries its own")
    refused("import", backup, "--as-copy", "--name", "standard-1", says="already a session")


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(legal_sessions())
def test_property_json_and_csv_round_trips_are_the_identity(facts):
    assert session_from_dict(json.loads(json.dumps(session_to_dict(facts)))) == facts
    assert read_backup(export_json(facts), "f") == facts
    standings = replay(facts)
    text = export_csv(standings)
    if not facts.hands:
        with pytest.raises(Refused):
            read_backup(text, "f", variant=facts.variant if facts.variant == "oklahoma" else None, rules=facts.rules)
        return
    again = read_backup(text, "f", variant=facts.variant if facts.variant == "oklahoma" else None, rules=facts.rules)
    assert again.hands == facts.hands and again.players == facts.players and again.variant == facts.variant
    check_against_csv(replay(again), text, "f")
    assert export_csv(replay(again)) == text


names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=examples(200))
@given(names, st.integers(0, 98), st.integers(0, 98), st.sampled_from([None, "7H", "Q"]), st.booleans(),
       st.sampled_from([None, "2026-11-29T21:15:00+01:00"]))
def test_property_stored_rows_round_trip(name, knocker_deadwood, opponent_deadwood, upcard, big_gin, at):
    """records.hands_to_text: any name, including | ; and %, comes back exactly (schema 2)."""
    hands = [
        {"type": "knock", "knocker": name, "knocker_deadwood": knocker_deadwood,
         "opponent_deadwood": opponent_deadwood, "upcard": upcard, "big_gin": big_gin, "recorded_at": at},
        {"type": "draw", "upcard": upcard, "recorded_at": at},
        {"type": "knock", "knocker": name, "knocker_cards": "AS 2S", "opponent_cards": "3S", "upcard": upcard,
         "big_gin": big_gin, "recorded_at": at},
    ]
    assert hands_from_text(hands_to_text(hands)) == hands


def test_names_with_separators_survive_the_file(ok):
    ok("new", "standard", "A|n;n%7C", "B%3B", "--dealer", "a|")
    ok("hand", "a|n", "4", "22")
    ok("hand", "b%", "2", "9")
    assert ok("status", "--json").json()["totals"] == {"A|n;n%7C": 18, "B%3B": 7}
