"""`ginscore import`: exports brought back, and every file it must refuse whole."""

from __future__ import annotations

import copy
import csv
import io
import json
import shutil
import unicodedata
from typing import Callable, NamedTuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginscore.codec.facts import (
    session_from_dict,
    session_to_dict,
)
from ginscore.core.errors import Refused
from ginscore.core.changes import as_kept
from ginscore.core.replay import replay
from ginscore.documents import (
    EXPORT_VERSION,
    check_against_csv,
    export_csv,
    export_json,
    read_export,
)
from tests.profiles import examples
from tests.support import (
    HUGE,
    INF,
    NAN,
    Base,
    exported,
    json_values,
    legal_sessions,
    run_cli,
    somewhere_in,
    unwrapped,
)


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
    out = " ".join(ok("import", backup, "--as-copy").stdout.split())  # (a long temporary path wraps the line)
    assert "as 'standard-1-2'" in out
    rows = ok("sessions", "--json").json()
    assert [r["name"] for r in rows] == ["standard-1", "standard-1-2"] and rows[1]["current"]


def test_a_csv_reaching_a_hand_under_rules_agreed_here_since_is_refused_for_its_json_h8(ok, refused, db_path, tmp_path):
    """The phone agreed a game bonus from hand 3; the laptop, without it, played hand 3 and ended the game.
    Its CSV cannot say which rules hand 3 was played under: refused (its JSON export says, and differs)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "0", "30")
    ok("hand", "ben", "5", "20")
    laptop = ("--db", str(tmp_path / "laptop.json"))
    shutil.copy(db_path, tmp_path / "laptop.json")
    ok("house", "--game-bonus", "100", "--from-next")
    ok(*laptop, "hand", "ann", "0", "40")
    ok(*laptop, "export", "--output", str(tmp_path / "fri.csv"))
    refused("import", str(tmp_path / "fri.csv"), says="its hand 3 may have been played without the house rules "
            "agreed here from that hand on (H8), which a CSV cannot say; import its JSON export")
    ok("hand", "ann", "0", "40")  # played here under the bonus: the CSV is then ours, kept
    assert "nothing was written" in " ".join(ok("import", str(tmp_path / "fri.csv")).stdout.split())


def test_csv_that_does_not_add_up_is_refused(ok, refused, tmp_path):
    _evening(ok, "standard", "--gin-bonus", "20")
    backup = tmp_path / "b.csv"
    ok("export", "--output", backup)
    other = ("--db", str(tmp_path / "other.json"))  # (where the session is, its own rules are used)
    line = refused(*other, "import", backup, says="gin-bonus")  # played with 20, imported with the default 25
    assert not line.endswith("None") and "Oklahoma" not in line  # (a hint only for a CSV with upcards)
    text = backup.read_text().replace(",knock,Ann,17,", ",knock,Ann,71,")
    backup.write_text(text)
    for variant in ([], ["--variant", "standard"]):
        line = refused("import", backup, *variant, "--gin-bonus", "20", says="points")
        assert not line.endswith("None") and "Oklahoma" not in line


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
    facts = as_kept(facts)  # as kept: each hand with who dealt it (H8)
    assert session_from_dict(json.loads(json.dumps(session_to_dict(facts)))) == facts
    assert read_export(export_json(facts), "f") == facts
    standings = replay(facts)
    text = export_csv(standings)
    if not facts.hands:
        with pytest.raises(Refused):
            read_export(text, "f", variant=facts.variant if facts.variant == "oklahoma" else None, rules=facts.rules)
        return
    again = read_export(text, "f", variant=facts.variant if facts.variant == "oklahoma" else None, rules=facts.rules)
    assert again.hands == facts.hands and again.players == facts.players and again.variant == facts.variant
    check_against_csv(replay(again), text, "f")
    assert export_csv(replay(again)) == text


class Case(NamedTuple):
    id: str
    build: Callable[[Base], bytes]  # the file's bytes
    says: str  # what the error line must name
    suffix: str = ".json"


def _dump(doc) -> bytes:
    return json.dumps(doc, indent=2).encode()  # NaN and Infinity as Python writes them; surrogates escaped


def _set(export: str, path: tuple, value, *, delete: bool = False):
    def build(b: Base) -> bytes:
        doc = copy.deepcopy(getattr(b, export))
        *parents, last = path
        node = doc
        for key in parents:
            node = node[key]
        if delete:
            del node[last]
        else:
            node[last] = value
        return _dump(doc)

    return build


def J(case_id, path, value, says, export="std"):
    """The standard export with the field at ``path`` (below "session") set to ``value``."""
    return Case(case_id, _set(export, ("session", *path), value), says)


def DEL(case_id, path, says, export="std"):
    return Case(case_id, _set(export, ("session", *path), None, delete=True), says)


def RAW(case_id, build, says, suffix=".json"):
    return Case(case_id, build, says, suffix)


def OLDER(case_id, export, says, **told):
    """An export of format 3, which need not say who dealt each hand (H8), whose first hand says it as ``told``
    (``dealer``, ``roles``) in place of what it said."""
    def build(b: Base) -> bytes:
        doc = copy.deepcopy(getattr(b, export))
        doc["ginscore_export"] = 3
        hand = doc["session"]["hands"][0]
        hand.pop("dealer", None)
        hand.pop("roles", None)
        hand.update(told)
        return _dump(doc)

    return Case(case_id, build, says)


WRONG_TYPES = [("int", 12), ("float", 1.5), ("list", ["x"]), ("table", {"a": 1}), ("true", True), ("nan", NAN)]


TIMESTAMP = "must be a timestamp"


SESSION = [
    *(J(f"created_at-{k}", ("created_at",), v, "session.created_at " + TIMESTAMP) for k, v in WRONG_TYPES),
    *(J(f"created_at-{k}", ("created_at",), v, "session.created_at " + TIMESTAMP) for k, v in [
        ("words", "yesterday"), ("date-only", "2026-11-29"), ("month-13", "2026-13-01T10:00:00+00:00"),
        ("feb-30", "2026-02-30T10:00:00"), ("spaces", " 2026-11-29T21:15:00+00:00"),
        ("escape", "2026-11-29T21:15:00\x1b[2J"), ("empty", ""), ("long", "2026-11-29T21:15:00+00:00" * 20),
        ("infinity", INF),
    ]),
    *(J(f"name-{k}", ("name",), v, "session.name") for k, v in [
        ("int", 7), ("null", None), ("list", ["std"]), ("true", True), ("empty", ""), ("spaces", " std "),
        ("newline", "std\nnight"), ("long", "n" * 201), ("surrogate", "std\ud800"),
    ]),
    DEL("name-missing", ("name",), "session has no name"),
    *(J(f"variant-{k}", ("variant",), v, "session.variant") for k, v in [
        ("unknown", "whist"), ("case", "Standard"), ("int", 1), ("null", None), ("list", ["standard"]),
    ]),
    DEL("variant-missing", ("variant",), "session has no variant"),
    *(J(f"players-{k}", ("players",), v, "session.players") for k, v in [
        ("text", "Ann,Ben"), ("null", None), ("table", {"Ann": 1}), ("int", 2),
        ("int-name", ["Ann", 1]), ("null-name", ["Ann", None]), ("list-name", ["Ann", ["Ben"]]),
        ("empty-name", ["Ann", ""]), ("spaces", [" Ann", "Ben"]), ("long-name", ["Ann", "B" * 201]),
        ("surrogate", ["Ann", "B\udc00n"]),
    ]),
    *(J(f"players-{k}", ("players",), v, says) for k, v, says in [
        ("one", ["Ann"], "2 players, not 1"), ("three", ["Ann", "Ben", "Cy"], "2 players, not 3"),
        ("none", [], "2 players, not 0"), ("escape", ["Ann", "B\x1b]0;x\x07n"], "cannot be shown"),
        ("bidi", ["Ann", "B\u202en"], "cannot be shown"), ("case", ["Ann", "ANN"], "two players"),
        ("width", ["Ann", "Ａｎｎ"], "two players"), ("accent-case", ["Ann", "ÁNN"], "two players"),
    ]),
    *(Case(f"players-{k}", lambda b, v=v: _set("std", ("session",), {**b.std["session"], "players": v,
                                                                     "first_dealer": v[0]})(b), "two players")
      for k, v in [("accent", ["José", "Jose"]),
                   ("nfd", [unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")])]),
    DEL("players-missing", ("players",), "session has no players"),
    J("unknown-field", ("colour",), "red", "'colour' that ginscore does not know"),
    J("first_dealer-int", ("first_dealer",), 1, "session.first_dealer"),
    J("first_dealer-list", ("first_dealer",), ["Ann"], "session.first_dealer"),
    J("first_dealer-empty", ("first_dealer",), "", "session.first_dealer"),
    J("first_dealer-stranger", ("first_dealer",), "Zed", "first dealer"),
    J("first_dealer-case", ("first_dealer",), "ann", "first dealer"),
    J("first_dealer-null", ("first_dealer",), None, "first dealer"),
    J("first_roles-in-two-player", ("first_roles",), {"box": "Ann", "captain": "Ben", "out": "Cy"}, "first roles"),
    J("roles-null", ("first_roles",), None, "first roles", export="three"),
    J("roles-list", ("first_roles",), ["Ann", "Ben", "Cy"], "session.first_roles", export="three"),
    J("roles-short", ("first_roles",), {"box": "Ann", "captain": "Ben"}, "session.first_roles has no out", export="three"),
    J("roles-extra", ("first_roles",), {"box": "Ann", "captain": "Ben", "out": "Cy", "dealer": "Ann"},
      "'dealer' that ginscore does not know", export="three"),
    J("roles-twice", ("first_roles",), {"box": "Ann", "captain": "Ann", "out": "Cy"}, "first roles", export="three"),
    J("roles-int", ("first_roles", "box"), 3, "session.first_roles.box", export="three"),
    J("roles-stranger", ("first_roles", "out"), "Zed", "first roles", export="three"),
]


RULES = [
    *(J(f"rules-{k}", ("rules",), v, "session.rules must be a table") for k, v in [
        ("list", [100]), ("text", "target=100"), ("int", 100), ("null", None), ("true", True),
    ]),
    *(J(f"target-{k}", ("rules", "target"), v, "session.rules.target must be a whole number") for k, v in [
        ("true", True), ("false", False), ("text", "100"), ("float", 100.0), ("nan", NAN), ("infinity", INF),
        ("minus-infinity", -INF), ("null", None), ("list", [100]), ("table", {"n": 100}),
    ]),
    *(J(f"target-{k}", ("rules", "target"), v, "session.rules.target must be from 1 to") for k, v in [  # H5
        ("negative", -1), ("zero", 0), ("huge", 10**30), ("over", 10**10),
    ]),
    *(J(f"{name}-{k}", ("rules", name), v, f"session.rules.{name}") for name in (
        "gin_bonus", "undercut_bonus", "game_bonus", "box_bonus") for k, v in [
        ("negative", -5), ("true", True), ("text", "25"), ("float", 2.5), ("null", None),
    ]),
    *(J(f"big_gin_bonus-{k}", ("rules", "big_gin_bonus"), v, "session.rules.big_gin_bonus") for k, v in [
        ("true", True), ("text", "31"), ("negative", -31), ("float", 31.0), ("list", []),
    ]),
    *(J(f"{name}-{k}", ("rules", name), v, f"session.rules.{name} must be true or false") for name in (
        "shutout", "spades_double", "ace_means_gin") for k, v in [("int", 1), ("text", "yes"), ("null", None)]),
    J("spades-double-outside-oklahoma", ("rules", "spades_double"), True, "oklahoma house rule"),
    J("rules-unknown", ("rules", "jokers"), 2, "'jokers' that ginscore does not know"),
]


HANDS = [
    *(J(f"hands-{k}", ("hands",), v, "session.hands must be a list") for k, v in [
        ("text", "knock"), ("table", {"0": {}}), ("int", 3), ("null", None), ("true", True),
    ]),
    *(J(f"hand-{k}", ("hands", 0), v, "session.hands[0] must be a table") for k, v in [
        ("int", 1), ("list", []), ("text", "knock"), ("null", None),
    ]),
    *(J(f"hand-type-{k}", ("hands", 0, "type"), v, "session.hands[0].type") for k, v in [
        ("gin", "gin"), ("int", 1), ("null", None), ("list", ["knock"]),
    ]),
    DEL("hand-type-missing", ("hands", 0, "type"), "session.hands[0] has no type"),
    *(J(f"knocker-{k}", ("hands", 0, "knocker"), v, "session.hands[0].knocker") for k, v in [
        ("int", 1), ("null", None), ("list", ["Ann"]), ("empty", ""), ("long", "A" * 300),
    ]),
    *(J(f"knocker-{k}", ("hands", 0, "knocker"), v, "hand 1") for k, v in [("stranger", "Zed"), ("case", "ann")]),
    DEL("knocker-missing", ("hands", 0, "knocker"), "session.hands[0] has no knocker"),
    *(J(f"{field}-{k}", ("hands", 0, field), v, f"session.hands[0].{field}") for field in (
        "knocker_deadwood", "opponent_deadwood") for k, v in [
        ("text", "3"), ("float", 3.0), ("true", True), ("negative", -1), ("over", 99), ("huge", 10**40),
        ("nan", NAN), ("null", None), ("list", [3]),
    ]),
    DEL("deadwood-missing", ("hands", 0, "opponent_deadwood"), "session.hands[0] has no opponent_deadwood"),
    J("knock-over-limit", ("hands", 0, "knocker_deadwood"), 11, "knock limit"),
    J("oklahoma-over-upcard", ("hands", 0, "knocker_deadwood"), 10, "knock limit", export="okla"),
    J("oklahoma-no-upcard", ("hands", 0, "upcard"), None, "upcard", export="okla"),
    *(J(f"upcard-{k}", ("hands", 0, "upcard"), v, "session.hands[0].upcard") for k, v in [
        ("int", 9), ("unknown", "ZZ"), ("suit", "9X"), ("empty", ""), ("list", ["9S"]), ("long", "9S" * 10),
    ]),
    *(J(f"big_gin-{k}", ("hands", 0, "big_gin"), v, "session.hands[0].big_gin") for k, v in [
        ("text", "no"), ("int", 0), ("null", None),
    ]),
    J("big_gin-without-bonus", ("hands", 0, "big_gin"), True, "big gin"),
    *(J(f"recorded_at-{k}", ("hands", 0, "recorded_at"), v, "session.hands[0].recorded_at " + TIMESTAMP) for k, v in [
        ("int", 5), ("words", "now"), ("list", []), ("feb-30", "2026-02-30T10:00:00"),
    ]),
    J("hand-unknown-field", ("hands", 0, "colour"), "red", "'colour' that ginscore does not know"),
    J("draw-with-knocker", ("hands", 2, "knocker"), "Ann", "session.hands[2] has a field 'knocker'"),
    J("rule_change-unknown-field", ("rule_changes",), [{"from_hand": 1, "rules": {}, "colour": "red"}],
      "session.rule_changes[0] has a field 'colour' that ginscore"),
    J("draw-with-cards", ("hands", 2, "knocker_cards"), ["AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D"],
      "session.hands[2] has a field 'knocker_cards'"),
    J("cards-unknown-field", ("hands", 1, "colour"), "red", "session.hands[1] has a field 'colour' that ginscore"),
    *(J(f"cards-{k}", ("hands", 1, "knocker_cards"), v, "session.hands[1]") for k, v in [
        ("text", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D"), ("ints", list(range(10))), ("unknown", ["ZZ"] * 10),
        ("repeated", ["AS", "AS", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D"]),
        ("in-both", ["KS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D"]),
        ("nine", ["AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH"]),
        ("eleven", ["AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D", "4C"]),
        ("empty", []), ("null", None), ("nested", [["AS"]] * 10), ("rank-only", ["A"] * 10),
    ]),
    J("opponent-cards-null", ("hands", 1, "opponent_cards"), None, "session.hands[1].opponent_cards"),
    DEL("opponent-cards-missing", ("hands", 1, "opponent_cards"), "session.hands[1] has no opponent_cards"),
    J("cards-and-counts", ("hands", 1, "knocker_deadwood"), 2, "gives its cards and knocker_deadwood too"),
    J("hand-after-game-over", ("rules", "target"), 10, "already won before it"),
    # who dealt is a fact of each hand (H8): a format 4 export keeps it, and it is never made up
    DEL("dealer-missing", ("hands", 1, "dealer"), "hand 2 does not say who dealt it (dealer)"),
    J("dealer-null", ("hands", 0, "dealer"), None, "hand 1 does not say who dealt it (dealer)"),
    DEL("roles-missing", ("hands", 0, "roles"), "hand 1 does not say who dealt it (roles)", export="three"),
    J("first-dealer-not-hand-1s", ("first_dealer",), "Ben", "first_dealer Ben, but Ann dealt hand 1"),
    J("first-roles-not-hand-1s", ("first_roles",), {"box": "Ann", "captain": "Cy", "out": "Ben"},
      "first_roles box Ann, captain Cy, but hand 1 was dealt with box Ann, captain Ben", export="three"),
    J("knocker-spelled-otherwise", ("hands", 0, "knocker"), "ann", "'ann' is spelled 'Ann' in this session"),
    J("dealer-spelled-otherwise", ("hands", 1, "dealer"), "ANN", "'ANN' dealt this hand but is spelled 'Ann'"),
    J("first-dealer-spelled-otherwise", ("hands", 0, "dealer"), "ann", "hand 1: 'ann' dealt this hand but is spelled"),
    J("role-spelled-otherwise", ("hands", 0, "roles", "out"), "cy", "'cy' has a role in this hand but is spelled 'Cy'",
      export="three"),
    J("role-stranger", ("hands", 0, "roles", "captain"), "Zed", "hand 1: Zed has a role in this hand but does not play",
      export="three"),
    OLDER("roles-in-two-player", "std", "hand 1: this hand keeps three-player roles (box, captain, out), but two "
          "play in this session", roles={"box": "Ann", "captain": "Ben", "out": "Ann"}),
    OLDER("dealer-in-three-player", "three", "hand 1: this hand keeps a dealer (Ann), but in three-player the box "
          "deals (R22): it keeps its roles instead", dealer="Ann"),
]


def _text(b: Base, doc=None) -> str:
    return json.dumps(b.std if doc is None else doc, indent=2)


SYNTAX = [
    RAW("nested-100000", lambda b: b"[" * 100000, "nested"),
    RAW("nested-objects", lambda b: b'{"a":' * 50000, "nested"),
    RAW("nested-in-field", lambda b: _text(b).replace('"created_at": "', '"created_at": ' + "[" * 30 + '"', 1)
        .encode(), "nested"),
    RAW("nested-balanced", lambda b: ("[" * 25 + "]" * 25).encode(), "nested"),
    RAW("unterminated-escapes", lambda b: b"[" + b'"\\' * 1_000_000, "not valid JSON"),  # once quadratic
    RAW("nan-literal", lambda b: _text(b).replace('"target": 100', '"target": NaN').encode(),
        "session.rules.target must be a whole number, not NaN"),
    RAW("infinity-literal", lambda b: _text(b).replace('"knocker_deadwood": 3', '"knocker_deadwood": Infinity')
        .encode(), "knocker_deadwood must be a whole number, not Infinity"),
    RAW("minus-infinity-literal", lambda b: _text(b).replace('"gin_bonus": 25', '"gin_bonus": -Infinity').encode(),
        "gin_bonus must be a whole number, not -Infinity"),
    RAW("float-overflow", lambda b: _text(b).replace('"target": 100', '"target": 1e400').encode(),
        "not Infinity"),
    RAW("5000-digits", lambda b: _text(b).replace('"target": 100', '"target": ' + "9" * 5000).encode(),
        "5000 digits, more than any count"),
    RAW("truncated", lambda b: _text(b)[: len(_text(b)) // 2].encode(), "not valid JSON"),
    RAW("trailing-garbage", lambda b: (_text(b) + "}").encode(), "not valid JSON"),
    RAW("key-twice", lambda b: _text(b).replace('"name": "std"', '"name": "std", "name": "other"').encode(),
        "'name' twice"),
    RAW("top-level-list", lambda b: b"[1, 2]", "not a ginscore export"),
    RAW("no-session", lambda b: b'{"ginscore_export": 1}', "not a ginscore export"),
    RAW("top-unknown-field", lambda b: _text(b, {**b.std, "extra": 1}).encode(), "'extra' that ginscore does not know"),
    *(RAW(f"version-{k}", lambda b, v=v: _text(b, {**b.std, "ginscore_export": v}).encode(), says) for k, v, says in [
        ("newer", EXPORT_VERSION + 1, "newer ginscore"), ("text", "1", "ginscore_export"), ("true", True, "ginscore_export"),
        ("zero", 0, "ginscore_export"), ("null", None, "ginscore_export"), ("float", 1.0, "ginscore_export"),
    ]),
    RAW("non-utf8-name", lambda b: _text(b).encode().replace(b'"Ann"', b'"A\xffn"', 1), "not UTF-8"),
    RAW("utf16", lambda b: _text(b).encode("utf-16"), "not UTF-8"),
    RAW("nul-byte", lambda b: _text(b).encode().replace(b'"Ann"', b'"A\x00n"', 1), "NUL"),
    RAW("over-256-mib", lambda b: _text(b).encode() + b" " * (256 * 2**20), "larger than 256 MiB"),
    RAW("empty-file", lambda b: b"", "neither a JSON export nor a CSV export"),
    RAW("whitespace", lambda b: b"  \n\n ", "neither a JSON export nor a CSV export"),
    RAW("words-not-json", lambda b: b"nope\n", "is neither a JSON export nor a CSV export; import a file"),
]


def _csv(b: Base, edit) -> bytes:
    rows = [line.split(",") for line in b.csv.splitlines()]
    edit(rows)
    return ("\n".join(",".join(row) for row in rows) + "\n").encode()


def _cell(row: int, column: str, value: str):
    """The CSV with one cell replaced (row 0 is the header)."""

    def edit(rows):
        rows[row][rows[0].index(column)] = value

    return lambda b: _csv(b, edit)


def C(case_id, build, says):
    return Case(f"csv-{case_id}", build, says, ".csv")


CSV_COLUMNS = ["hand", "dealer", "knocker", "knocker_deadwood", "opponent_deadwood", "upcard", "outcome", "winner",
               "points"]


CSV = [
    C("short-row", lambda b: _csv(b, lambda rows: rows[1].pop()), "row 1 has 16 cells, but the header names 17"),
    C("extra-cell", lambda b: _csv(b, lambda rows: rows[2].append("x")), "row 2 has 18 cells, but the header names 17"),
    C("unbalanced-quote", lambda b: b.csv.replace(",Ann,", ',"Ann,', 1).encode(), "line"),
    C("quote-in-cell", lambda b: b.csv.replace(",Ann,Ann,3,", ',Ann,A"nn,3,', 1).encode(), "hand 1"),
    C("quoted-then-text", lambda b: b.csv.replace(",Ann,Ann,3,", ',Ann,"Ann"x,3,', 1).encode(), "line 2"),
    C("non-utf8", lambda b: b.csv.encode().replace(b"Ann", b"A\xe9n", 1), "line 1 is not UTF-8"),
    C("nul", lambda b: b.csv.encode().replace(b",draw,", b",dr\x00aw,", 1), "line 4 has a NUL byte"),
    *(C(f"no-column-{c}", lambda b, c=c: _csv(b, lambda rows: rows[0].__setitem__(rows[0].index(c), c + "x")),
        f"no column {c}") for c in CSV_COLUMNS),
    C("header-only", lambda b: b.csv.splitlines()[0].encode() + b"\n", "no hands"),
    C("column-twice", lambda b: _csv(b, lambda rows: [r.append(r[0]) for r in rows]), "'hand' twice"),
    C("wide-header", lambda b: _csv(b, lambda rows: rows[0].extend([f"c{n}" for n in range(200_000)] + ["hand"])),
      "'hand' twice"),
    C("unknown-column", lambda b: _csv(b, lambda rows: [r.append("x") for r in rows]), "column 'x'"),
    *(C(f"count-{k}", _cell(1, "knocker_deadwood", v), "row 1: column knocker_deadwood") for k, v in [
        ("float", "3.5"), ("word", "three"), ("negative", "-3"), ("arabic", "٣"), ("space", " 3"),
        ("underscore", "1_0"), ("empty", ""), ("formula", "'=3"),
    ]),
    C("count-over", _cell(1, "opponent_deadwood", "99"), "98"),
    C("outcome-unknown", _cell(1, "outcome", "win"), "row 1: column outcome"),
    C("upcard-bad", _cell(1, "upcard", "ZZ"), "row 1: column upcard"),
    C("recorded_at-bad", _cell(2, "recorded_at", "tuesday"), "row 2: column recorded_at"),
    C("recorded_at-feb-30", _cell(2, "recorded_at", "2026-02-30T10:00:00"), "row 2: column recorded_at"),
    C("knocker-stranger", _cell(1, "knocker", "Zed"), "hand 1"),
    C("dealer-stranger", _cell(1, "dealer", "Zed"), "column dealer is 'Zed', who does not play"),
    C("dealer-later-stranger", _cell(2, "dealer", "Zed"), "hand 2: Zed dealt this hand but does not play"),
    C("points-wrong", _cell(1, "points", "71"), "row 1: the file says points"),
    C("points-word", _cell(1, "points", "lots"), "row 1: the file says points"),
    C("total-wrong", _cell(3, "total:Ann", "1"), "row 3: the file says total:Ann"),
    C("winner-wrong", _cell(1, "winner", "Ben"), "row 1: the file says winner"),
    C("hand-number-wrong", _cell(2, "hand", "7"), "row 2: the file says hand"),
    C("cards-bad", _cell(2, "knocker_cards", "AS 2S ZZ"), "row 2: column knocker_cards"),
    C("session_id-bad", lambda b: _csv(b, lambda rows: [r.__setitem__(-1, "s-zz\x1b[31m") for r in rows[1:]]),
      "row 1: column session_id: 's-zz\\x1b[31m' is not a session id"),
    C("session_id-two", _cell(2, "session_id", "s-0123456789ab"), "row 2: column session_id is s-0123456789ab, not"),
    C("session_id-one-empty", _cell(2, "session_id", ""), "row 2: column session_id: '' is not a session id"),
    C("cards-repeated", _cell(2, "opponent_cards", "AS KH KD QC JC 10C 9C 5D 4D 6H"), "row 2"),
    C("draw-with-knocker", _cell(3, "knocker", "Ann"), "row 3"),
    C("player-empty", lambda b: b.csv.replace("total:Ben", "total:", 1).encode(), "empty"),
    C("players-twice", lambda b: b.csv.replace("total:Ben", "total:ANN", 1).encode(), "two players"),
    C("players-accent", lambda b: b.csv.replace("Ann", "José").replace("Ben", "Jose").encode(), "two players"),
]


CORPUS = SESSION + RULES + HANDS + SYNTAX + CSV


def test_the_corpus_is_large_and_its_names_unique():
    ids = [c.id for c in CORPUS]
    assert len(ids) == len(set(ids)) and len(ids) >= 150, len(ids)


@pytest.mark.parametrize("case", CORPUS, ids=[c.id for c in CORPUS])
def test_a_hostile_import_is_refused_whole(case, base, db_path, refused, tmp_path):
    db_path.write_bytes(base.db)
    file = tmp_path / f"friday{case.suffix}"
    file.write_bytes(case.build(base))
    line = refused("import", file)
    assert "friday" in line and case.says.lower() in line.lower(), line


@pytest.mark.parametrize("field, value", [(("hands", 0, "knocker"), "Z\x1b]0;owned\x07"),
                                          (("hands", 0, "upcard"), "\x1b[2J"),
                                          (("players",), ["Ann", "B\x1b[31mn"])])
def test_the_files_own_text_reaches_the_error_line_visibly(field, value, base, db_path, refused, tmp_path):
    db_path.write_bytes(base.db)
    (tmp_path / "f.json").write_bytes(_set("std", ("session", *field), value)(base))
    line = refused("import", tmp_path / "f.json")
    assert "\x1b" not in line and "\\x1b" in line, line  # shown as the four characters \x1b


def test_the_unchanged_exports_import(base, db_path, ok, tmp_path):
    """The corpus's starting points are good files: each refusal above is the one field made wrong."""
    db_path.write_bytes(base.db)
    for name, text in [("std.json", _text(base)), ("okla.json", _text(base, base.okla)),
                       ("three.json", _text(base, base.three)), ("std.csv", base.csv)]:
        (tmp_path / name).write_text(text)
        ok("import", tmp_path / name, "--as-copy")  # the same sessions as the database's: copies
    assert len(ok("sessions", "--json").json()) == 7


def test_a_folder_or_a_missing_file_is_refused(base, db_path, refused, tmp_path):
    db_path.write_bytes(base.db)
    refused("import", tmp_path / "nowhere.json", says="cannot read")
    (tmp_path / "fifo").mkdir()
    refused("import", tmp_path / "fifo")


@st.composite
def mutated_json(draw, doc):
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        found = somewhere_in(draw, doc)
        if found is None:
            break
        parent, last, paths = found
        how = draw(st.sampled_from(["delete", "replace", "copy"]))
        if how == "delete":
            del parent[last]
        elif how == "replace":
            parent[last] = draw(json_values)
        else:  # a value from elsewhere in the same export: often a plausible one
            source = doc
            for key in draw(st.sampled_from(paths)):
                source = source[key]
            parent[last] = copy.deepcopy(source)
    return json.dumps(doc, ensure_ascii=draw(st.booleans())).encode()


@st.composite
def damaged_bytes(draw, raw: bytes):
    """Bytes cut, flipped or rows repeated."""
    raw = bytearray(raw)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["truncate", "flip", "insert", "duplicate-row", "delete-row"]))
        at = draw(st.integers(0, max(len(raw) - 1, 0)))
        if how == "truncate":
            raw = raw[:at]
        elif how == "flip" and raw:
            raw[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "insert":
            raw[at:at] = draw(st.sampled_from([b",", b'"', b"\n", b"\x00", b"\xff", b"[", b"{", b"NaN", b"'="]))
        else:
            lines = bytes(raw).split(b"\n")
            n = draw(st.integers(0, len(lines) - 1))
            lines[n:n + 1] = [lines[n]] * 2 if how == "duplicate-row" else []
            raw = bytearray(b"\n".join(lines))
    return bytes(raw)


def _no_constants(word):
    raise ValueError(f"{word} in JSON output")


def _read_back_cleanly(db_path):
    """What an import stored: status, log and both exports read it back, as strict JSON."""
    for command in (["status", "--json"], ["log", "--json"], ["export", "--format", "json"], ["export"],
                    ["sessions", "--json"], ["history", "--json"], ["stats", "--json"]):
        done = run_cli(*command)
        assert done.exit_code == 0, (command, done.stderr)
        if "--json" in command or "json" in command:
            json.loads(done.stdout, parse_constant=_no_constants)


@pytest.mark.slow
@settings(max_examples=examples(600), suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_exports_never_end_in_a_traceback(data, base, db_path, tmp_path):
    kind = data.draw(st.sampled_from(["json", "okla", "three", "csv", "json-bytes"]))
    if kind == "csv":
        content, suffix = data.draw(damaged_bytes(base.csv.encode())), ".csv"
    elif kind == "json-bytes":
        content, suffix = data.draw(damaged_bytes(_text(base).encode())), ".json"
    else:
        doc = {"json": base.std, "okla": base.okla, "three": base.three}[kind]
        content, suffix = data.draw(mutated_json(doc)), ".json"
    db_path.write_bytes(base.db)
    file = tmp_path / f"fuzzed{suffix}"
    file.write_bytes(content)
    done = run_cli("import", file)  # raises on any exception but SystemExit: a traceback fails here
    event(f"{kind}: exit {done.exit_code}")
    assert done.exit_code in (0, 1, 2), done.stderr  # 1: the same session id, but hands that differ
    lines = done.stderr.splitlines()
    if done.exit_code in (1, 2):
        assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
        assert db_path.read_bytes() == base.db
        return
    _read_back_cleanly(db_path)


def test_import_refuses_a_session_name_that_new_would_refuse(ok, refused, tmp_path):
    """Import is as strict as the commands: `new --name` refuses a name it cannot show, so does import."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    doc = ok("export", "--format", "json").json()
    doc["session"]["name"] = "x\x1b]0;t\x07"
    hostile = tmp_path / "i.json"
    hostile.write_text(json.dumps(doc), encoding="utf-8")
    line = refused("import", str(hostile), says="cannot be shown")
    assert "\\x1b" in line and "\x1b" not in line


NASTY_NOTES = ["=SUM(A1)", "'=quoted", "a|b;c%d %7C", 'comma, "quoted"', "café ♠ 10♥", "-2 for the spill", "'tis"]


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


def test_the_match_is_kept_by_export_and_import(ok, tmp_path, status):
    ok("new", "standard", "Ann", "Ben", "--name", "one")
    ok("rematch", "--name", "two", "--yes")
    match = status()["match"]["id"]
    (tmp_path / "two.json").write_text(ok("export", "--format", "json").stdout)
    assert json.loads((tmp_path / "two.json").read_text())["session"]["match"] == match
    other = tmp_path / "other.json"
    ok("--db", other, "import", tmp_path / "two.json")
    assert ok("--db", other, "status", "--json").json()["match"]["id"] == match


def _export_doc(ok) -> dict:
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01")
    ok("hand", "ann", "4", "22", "--note", "fine")
    ok("rematch", "--yes")
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


def test_csv_of_a_session_with_another_deal_keeps_its_dealers(ok, tmp_path):
    """H8: who dealt each hand is read from the CSV, whatever deal rule it is read with."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser")
    ok("hand", "ben", "3", "20")
    ok("hand", "ben", "3", "20")
    (tmp_path / "s.csv").write_text(ok("export").stdout)
    other = ("--db", str(tmp_path / "other.json"))  # (where the session is, its own rules are used)
    ok(*other, "import", tmp_path / "s.csv")
    assert [h["dealer"] for h in ok(*other, "log", "--json").json()["hands"]] == ["Ann", "Ann"]
    assert ok(*other, "status", "--json").json()["next_dealer"] == "Ben"  # the winner deals (R5), read without --deal
    ok("--db", str(tmp_path / "third.json"), "import", tmp_path / "s.csv", "--deal", "loser")


def test_a_csv_whose_lines_end_in_cr_alone_comes_in_as_any_csv(ok, cli, tmp_path):
    """A spreadsheet's "CSV (Macintosh)" ends lines in CR alone: it was refused in Python's words ("do you
    need to open the file in universal-newline mode?"); it is read as the same CSV, and merge advises it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ben", "0", "30")
    mac = tmp_path / "mac.csv"
    mac.write_bytes(ok("export").stdout.replace("\n", "\r").encode())
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", mac)
    assert ok(*other, "log", "--json").json()["hands"] == ok("log", "--json").json()["hands"]
    assert "is a ginscore export, not a database" in cli("merge", str(mac)).stderr


def test_a_csv_count_longer_than_any_count_is_refused(ok, refused, tmp_path):
    out = exported(ok, tmp_path, "csv")
    head, row = out.read_text().splitlines()[:2]
    out.write_text(head + "\n" + row.replace(",22,", f",{HUGE},", 1) + "\n")
    assert "5000 digits" in refused("import", out, "--db", tmp_path / "other.json")


def test_a_json_number_longer_than_any_count_is_refused(ok, refused, tmp_path):
    out = exported(ok, tmp_path, "json")
    doc = out.read_text()
    assert '"opponent_deadwood": 22' in doc
    out.write_text(doc.replace('"opponent_deadwood": 22', f'"opponent_deadwood": {HUGE}', 1))
    line = refused("import", out, "--db", tmp_path / "other.json")
    assert "5000 digits" in line and str(out.name) in line


def test_importing_a_session_twice_adds_it_once(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--stake", "0.10")
    for args in (["hand", "ann", "0", "30"], ["hand", "ann", "0", "30"]):
        ok(*args)
    export = tmp_path / "s1.json"
    export.write_text(ok("export", "-f", "json").stdout)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", str(export))
    settled = ok(*other, "stats", "--json").json()
    before = (tmp_path / "other.json").read_bytes()
    out = unwrapped(ok(*other, "import", str(export)).stdout)
    assert "Alreadyhere" in out and "nothingwaswritten" in out
    assert (tmp_path / "other.json").read_bytes() == before
    assert ok(*other, "stats", "--json").json() == settled
    assert len(ok(*other, "sessions", "--json").json()) == 1


def test_later_hands_of_a_session_deleted_here_say_so_even_when_a_live_one_took_its_name(ok, tmp_path, status):
    """The session the export holds is deleted here and another, live, is now called the same: the
    hands go to the deleted one, which is said with how to restore it; the live one stays as it is."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    ok("hand", "ann", "3", "20")
    ok("hand", "ben", "2", "30")
    export = tmp_path / "friday.json"
    export.write_text(ok("export", "-f", "json").stdout)
    ok("undo", "--yes")
    ok("delete", "friday", "--yes")
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "friday")
    out = unwrapped(ok("import", str(export)).stdout)
    assert out == unwrapped(f"Session 'friday' was already here (deleted here: `ginscore restore friday`): added the "
                            f"later hands from {export}, 2 hands now.")
    assert status()["players"] == ["Cy", "Di"] and status()["hands_played"] == 0


def test_a_csv_with_a_big_gin_advises_the_big_gin_bonus_h2(ok, refused, tmp_path):
    # A CSV carries no house rules: its big gin needs --big-gin-bonus on import, not `hand`'s --big-gin.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "0", "20", "--big-gin")
    out = tmp_path / "big.csv"
    ok("export", "--format", "csv", "--output", out)
    other = ("--db", str(tmp_path / "other.json"))
    said = refused(*other, "import", out, says="add --big-gin-bonus N")
    assert "leave out --big-gin" not in said and "(H2)" in said
    ok(*other, "import", out, "--big-gin-bonus", "31")


def test_a_csv_scored_under_other_rules_is_refused_naming_a_rule_to_give_not_the_deal(ok, refused, tmp_path):
    """The dealers come from the CSV's own column (H8), so only a scoring rule can explain other
    points: the refusal advises one, and no longer `--deal`."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--gin-bonus", "20")
    ok("hand", "ann", "0", "30")
    backup = tmp_path / "b.csv"
    ok("export", "--output", backup)
    line = refused("--db", str(tmp_path / "other.json"), "import", backup, says="with these house rules")
    assert "--gin-bonus 20" in line and "--deal" not in line


def test_a_csv_with_hands_after_the_game_its_target_ends_asks_for_the_rules_it_was_played_with(ok, refused, tmp_path):
    """Read under a lower --target, a CSV's game ends before its last rows: the line asks for the rules it
    was played with, never names an empty game or advises a rematch in a database that is not there."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "70")
    ok("hand", "ann", "0", "10")
    backup = tmp_path / "a.csv"
    ok("export", "--output", backup)
    other = tmp_path / "other.json"
    line = refused("--db", str(other), "import", backup, "--target", "50",
                   says="does not add up at hand 2: the game was already won before it")
    assert "give the rules it was played with (like --target 150)" in line and "rematch" not in line
    assert not other.exists()


def test_a_json_export_with_a_hand_added_after_the_end_is_refused_without_advising_a_rematch(ok, refused, tmp_path):
    """A JSON export holds its rules, so a hand after the game's end was added to it: the refusal advised
    `ginscore rematch`, which, typed, would start a rematch of this database's current session."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "0", "98")
    doc = ok("export", "--format", "json").json()
    doc["session"]["hands"].append(dict(doc["session"]["hands"][0]))
    added = tmp_path / "fri.json"
    added.write_text(json.dumps(doc), encoding="utf-8")
    ok("new", "standard", "Cy", "Di", "--dealer", "cy", "--name", "tonight")
    line = refused("import", added, says="does not add up at hand 2: the game was already won before it under the "
                   "house rules it is read with; no export holds a hand after the end: export the session again")
    assert "rematch" not in line


def test_a_csv_of_rules_changed_during_play_points_to_the_json_export(ok, refused, tmp_path):
    """No one set of options describes rules changed from the next hand on (H8): the refusal says the JSON
    export brings such a session back, and it does."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "3")  # Ben undercuts: 2 + 10
    ok("house", "--undercut-bonus", "20", "--from-next")
    ok("hand", "ben", "5", "3")  # Ann undercuts: 2 + 20
    ok("export", "--output", tmp_path / "c.csv")
    ok("export", "--format", "json", "--output", tmp_path / "c.json")
    other = ("--db", str(tmp_path / "other.json"))
    for rule_options in ([], ["--undercut-bonus", "20"]):
        refused(*other, "import", tmp_path / "c.csv", *rule_options,
                says="if they changed during play (H8), import its JSON")
    ok(*other, "import", tmp_path / "c.json")
    assert ok(*other, "status", "--json").json()["totals"] == {"Ann": 22, "Ben": 12}


def test_a_three_player_rematch_s_csv_comes_back_as_already_here(ok, tmp_path):
    """A three-player rematch starts from the roles (R22, R23), not a dealer: its CSV export, which carries
    no dealer of the session, is the same session here and after a round trip through another database."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    ok("hand", "ann", "0", "90")
    ok("rematch")
    ok("hand", "ann", "0", "20")
    ok("export", "--output", tmp_path / "t.csv")
    assert "Already here" in ok("import", tmp_path / "t.csv").stdout
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", tmp_path / "t.csv")
    assert "already here 1" in ok("merge", tmp_path / "other.json").stdout


def test_an_export_of_a_session_rematched_elsewhere_brings_its_match_link(ok, tmp_path):
    """import, like merge, takes the match a rematch made on the other machine (its export carries it)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri", "--target", "50")
    ok("hand", "ann", "0", "40")
    other = ("--db", str(tmp_path / "other.json"))
    ok("export", "--format", "json", "--output", tmp_path / "here.json")
    ok(*other, "import", tmp_path / "here.json")
    ok(*other, "rematch")
    ok(*other, "export", "--session", "fri", "--format", "json", "--output", tmp_path / "there.json")
    said = " ".join(ok("import", tmp_path / "there.json").stdout.split())
    assert "it joins the match it is in there (a rematch made there)" in said
    there = ok(*other, "status", "--session", "fri", "--json").json()["match"]["id"]
    assert ok("status", "--session", "fri", "--json").json()["match"]["id"] == there
    again = " ".join(ok("import", tmp_path / "there.json").stdout.split())  # (a long path wraps the line)
    assert "nothing was written" in again  # again: nothing to do


def test_a_csv_cell_told_at_the_table_spelled_otherwise_says_so_not_to_give_house_rules(ok, refused, tmp_path):
    """Cards, upcards, dealers and notes are read as told: no house rule changes them, so a cell spelled
    otherwise than ginscore writes it (a name in lower case) is said as such. A card in lower case is the
    same card (cards are read in any case), so it comes in: it was refused as spelled otherwise."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "--cards", "10C 10D 7S 8S 9D 10S JS 7D 8D 9S", "--against", "QS 5H JC 6H KS 4H 8H 6S 6D 9C",
       "--upcard", "8h")
    ok("export", "--output", tmp_path / "e.csv")
    lowered = tmp_path / "lowered.csv"
    lowered.write_text((tmp_path / "e.csv").read_text().replace("10C 10D 7S", "10c 10d 7s").replace(",8H,", ",8h,"))
    ok("--db", str(tmp_path / "other.json"), "import", lowered)
    assert ok("--db", str(tmp_path / "other.json"), "log", "--json").json()["hands"] == ok("log", "--json").json()["hands"]
    lowered.write_text((tmp_path / "e.csv").read_text().replace(",Ben,", ",ben,"))  # the opponent's cell
    line = refused("--db", str(tmp_path / "another.json"), "import", lowered,
                   says="the file says opponent 'ben', which ginscore reads as 'Ben'; write the cell as ginscore "
                        "writes it")
    assert "house rules" not in line


def test_a_csv_a_spreadsheet_padded_with_empty_columns_and_lines_comes_in_as_written(ok, refused, tmp_path):
    """A spreadsheet saving a CSV pads each line to its widest and keeps empty lines as rows of empty cells:
    it was refused as "has the column '' twice". Columns with no name and nothing in them are its."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ben", "0", "30")
    padded = tmp_path / "padded.csv"
    lines = ok("export").stdout.splitlines()
    padded.write_text("".join(line + ",,,\n" for line in lines) + ",,,,,\n,,\n", encoding="utf-8")
    ok("--db", str(tmp_path / "other.json"), "import", padded)
    assert ok("--db", str(tmp_path / "other.json"), "log", "--json").json()["hands"] == ok("log", "--json").json()["hands"]
    lines[2] += ",,,x"  # something in a column with no name is not padding
    padded.write_text("".join(line + ",,,\n" for line in lines), encoding="utf-8")
    refused("--db", str(tmp_path / "third.json"), "import", padded, says="row 2 has 23 cells, but the header names 17")


def test_a_json_hand_of_cards_with_a_count_too_says_the_counts_come_from_the_cards(ok, refused, tmp_path):
    """knocker_deadwood is a field ginscore writes, for a hand told as counts: beside cards it is refused as
    what it is, never as a field ginscore does not know."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "--cards", "10C 10D 7S 8S 9D 10S JS 7D 8D 9S", "--against", "QS 5H JC 6H KS 4H 8H 6S 6D 9C")
    doc = ok("export", "--format", "json").json()
    doc["session"]["hands"][0]["knocker_deadwood"] = 5
    both = tmp_path / "both.json"
    both.write_text(json.dumps(doc), encoding="utf-8")
    line = refused("--db", str(tmp_path / "other.json"), "import", both,
                   says="session.hands[0] gives its cards and knocker_deadwood too; a hand told as cards has its "
                        "deadwood counted from them")
    assert "does not know" not in line


def test_a_csv_of_a_session_here_played_under_other_rules_comes_in_as_a_copy_with_its_rules(ok, refused, tmp_path):
    """The other machine played hand 2 at gin bonus 25; this table agreed 20 from hand 2 (H8). The two
    records differ: the refusal says so and what works, and --as-copy takes the rules it was played with."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "fri", "--target", "150", "--deal", "loser")
    ok("hand", "ann", "2", "10")
    other = ("--db", str(tmp_path / "other.json"))
    ok("export", "--format", "json", "--output", tmp_path / "fri.json")
    ok(*other, "import", tmp_path / "fri.json")
    ok(*other, "hand", "ben", "0", "10")  # gin: 10 + 25
    ok(*other, "export", "--output", tmp_path / "there.csv")
    ok("house", "--gin-bonus", "20", "--from-next")
    said = refused("import", tmp_path / "there.csv", says="under the house rules of 'fri' here, so the two records")
    assert "--as-copy and the options of the rules it was played with that differ" in said
    refused("import", tmp_path / "there.csv", "--as-copy")  # read with the rules here still: the advice needs both
    refused("import", tmp_path / "there.csv", "--as-copy", "--gin-bonus", "30",
            says="with these house rules; give the rules it was played with")  # the options given are off
    ok("import", tmp_path / "there.csv", "--as-copy", "--gin-bonus", "25", "--name", "fri there")
    copy = ok("status", "--json", "--session", "fri there").json()
    assert copy["totals"] == {"Ann": 8, "Ben": 35}
    assert copy["rules"] == ok("status", "--json", "--session", "fri").json()["rule_changes"][0]["rules"] | {
        "gin_bonus": 25}  # the rules the session started with, the one given laid over them


# --- what mutation testing found unguarded -----------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "three"])
def test_a_hand_giving_both_a_dealer_and_roles_is_refused_h8(ok, refused, tmp_path, variant):
    """A hand says who dealt it one way: a dealer (two players) or roles (three-player), never both."""
    players = ["Ann", "Ben", "Cy"] if variant == "three" else ["Ann", "Ben"]
    ok("--db", tmp_path / "there.json", "new", variant, *players,
       *(["--box", "ann", "--captain", "ben"] if variant == "three" else ["--dealer", "ann"]))
    ok("--db", tmp_path / "there.json", "hand", "ann", "2", "20")
    doc = json.loads(ok("--db", tmp_path / "there.json", "export", "--format", "json").stdout)
    hand = doc["session"]["hands"][0]
    hand.update(dealer="Ann") if variant == "three" else hand.update(roles={"box": "Ann", "captain": "Ben", "out": "Ben"})
    (tmp_path / "both.json").write_text(json.dumps(doc))
    assert "gives both a dealer and roles" in refused("import", tmp_path / "both.json")


@pytest.mark.parametrize(("variant", "players", "given"), [("hollywood", ["Ann", "Ben"], "standard"),
                                                           ("three", ["Ann", "Ben", "Cy"], "oklahoma")])
def test_a_csv_of_another_variant_than_variant_says_is_refused(ok, refused, tmp_path, variant, players, given):
    ok("--db", tmp_path / "there.json", "new", variant, *players,
       *(["--box", "ann", "--captain", "ben"] if variant == "three" else ["--dealer", "ann"]))
    ok("--db", tmp_path / "there.json", "hand", "ann", "2", "20")
    (tmp_path / "h.csv").write_text(ok("--db", tmp_path / "there.json", "export").stdout)
    assert refused("import", tmp_path / "h.csv", "--variant", given) == (
        f"Error: {tmp_path / 'h.csv'} holds a {variant} session, not {given}; leave out --variant")


def test_a_csv_copy_of_an_oklahoma_session_here_stays_oklahoma_unless_variant_says(ok, tmp_path):
    """--as-copy with a rule option lays it over the rules the session here started with, in its variant."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "20", "--upcard", "9h")
    ok("hand", "ben", "3", "30", "--upcard", "5c")
    (tmp_path / "ok.csv").write_text(ok("export").stdout)
    ok("import", tmp_path / "ok.csv", "--as-copy", "--target", "150")
    copy = ok("status", "--json").json()
    assert (copy["variant"], copy["rules"]["target"], copy["hands_played"]) == ("oklahoma", 150, 2)
    ok("import", tmp_path / "ok.csv", "--as-copy", "--variant", "standard")
    assert ok("status", "--json").json()["variant"] == "standard"


def test_an_early_csv_of_a_session_whose_rules_changed_later_is_already_here_h8(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "20")
    (tmp_path / "early.csv").write_text(ok("export").stdout)
    ok("hand", "ben", "2", "30")
    ok("house", "--gin-bonus", "30", "--from-next")
    ok("hand", "ann", "0", "10")
    before = db_path.read_bytes()
    assert "Already here" in ok("import", tmp_path / "early.csv").stdout
    assert db_path.read_bytes() == before


def test_a_format_4_export_of_a_session_with_no_hands_imports(ok, tmp_path):
    """ginscore writes such a session as format 3; a format 4 one (from elsewhere) reads the same."""
    ok("--db", tmp_path / "there.json", "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "empty")
    doc = json.loads(ok("--db", tmp_path / "there.json", "export", "--format", "json").stdout)
    assert doc["ginscore_export"] == 3
    (tmp_path / "v4.json").write_text(json.dumps(doc | {"ginscore_export": 4}))
    assert "Imported" in ok("import", tmp_path / "v4.json").stdout
    assert ok("status", "--json").json()["session"] == "empty"


def test_a_card_longer_than_any_card_is_refused_though_it_would_read_as_one(ok, refused, tmp_path):
    """K♣ with three emoji variation selectors still parses as K♣; the file is refused by its length."""
    ok("--db", tmp_path / "there.json", "new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("--db", tmp_path / "there.json", "hand", "ann", "--cards", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC",
       "--against", "QC QD QH JS JC 10S 10C 9C 8C 7C")
    doc = json.loads(ok("--db", tmp_path / "there.json", "export", "--format", "json").stdout)
    doc["session"]["hands"][0]["knocker_cards"][-1] += "\ufe0f" * 3
    (tmp_path / "long.json").write_text(json.dumps(doc))
    assert "knocker_cards[9] has 5 characters; at most 4 are allowed" in refused("import", tmp_path / "long.json")


@pytest.mark.parametrize("variant", ["standard", "three"])
def test_a_hand_saying_who_dealt_the_other_variants_way_is_refused_h8(ok, refused, tmp_path, variant):
    """A three-player hand says who dealt by its roles, a two-player one by its dealer: the other way
    round it does not say (a three-player hand with a dealer only ended in a traceback)."""
    players = ["Ann", "Ben", "Cy"] if variant == "three" else ["Ann", "Ben"]
    ok("--db", tmp_path / "there.json", "new", variant, *players,
       *(["--box", "ann", "--captain", "ben"] if variant == "three" else ["--dealer", "ann"]))
    ok("--db", tmp_path / "there.json", "hand", "ann", "2", "20")
    doc = json.loads(ok("--db", tmp_path / "there.json", "export", "--format", "json").stdout)
    hand = doc["session"]["hands"][0]
    if variant == "three":
        del hand["roles"]
        hand["dealer"] = "Ann"
    else:
        del hand["dealer"]
        hand["roles"] = {"box": "Ann", "captain": "Ben", "out": "Ben"}
    (tmp_path / "other-way.json").write_text(json.dumps(doc))
    said = "roles" if variant == "three" else "dealer"
    assert f"hand 1 does not say who dealt it ({said})" in refused("import", tmp_path / "other-way.json")


def test_an_export_that_brings_only_rules_agreed_for_the_next_hand_says_so_not_that_it_added_hands_h8(
        ok, db_path, tmp_path, status):
    """The phone agreed a stake from the next hand on and exported; the laptop, with the same hand, imports
    it: it said it added the later hands, though only the rules for the next hand came (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "4", "22")
    laptop = ("--db", str(tmp_path / "laptop.json"))
    shutil.copy(db_path, tmp_path / "laptop.json")
    ok("house", "--stake", "0.1", "--from-next")
    export = tmp_path / "fri.json"
    ok("export", "--format", "json", "--output", export)
    out = unwrapped(ok(*laptop, "import", export).stdout)
    assert out.startswith(unwrapped(f"Session 'fri' was already here: added the house rules agreed in {export} "
                                    "from hand 2 on (H8), no hand with them.")), out
    assert "laterhands" not in out and "stake0.1" in out
    assert status(*laptop)["rule_changes"] == status()["rule_changes"]


def test_an_import_that_brings_later_hands_shows_the_standings_and_one_already_here_does_not(ok, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("export", "--format", "json", "--output", tmp_path / "one.json")
    ok("hand", "ann", "4", "22")
    ok("export", "--format", "json", "--output", tmp_path / "two.json")
    other = ("--db", tmp_path / "other.json")
    ok(*other, "import", tmp_path / "one.json")
    extended = " ".join(ok(*other, "import", tmp_path / "two.json").stdout.split())  # (a long path wraps it)
    assert "added the later hands" in extended and "Ann leads Ben by 18" in extended
    kept = " ".join(ok(*other, "import", tmp_path / "two.json").stdout.split())
    assert "nothing was written" in kept and "Ann leads Ben" not in kept


@pytest.mark.parametrize("name", ["fri\tday.json", "fri\nday.json"])
def test_an_export_to_a_name_with_a_control_character_imports_back(ok, tmp_path, name):
    """The name is shown escaped in what is said; the file opened is the one named."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    ok("export", "--format", "json", "--output", tmp_path / name)
    said = ok("--db", tmp_path / "other.json", "import", tmp_path / name).stdout
    assert "Imported 1 hand" in " ".join(said.split()) and "\t" not in said  # (the name shown escaped)
    assert ok("--db", tmp_path / "other.json", "status", "--json").json()["totals"] == {"Ann": 18, "Ben": 0}


def test_a_csv_naming_a_player_with_stray_spaces_is_refused(ok, refused, tmp_path):
    """"Ann  Lee" would be a name no command could make (names keep single spaces)."""
    ok("new", "standard", "Ann Lee", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    (tmp_path / "spaced.csv").write_text(ok("export").stdout.replace("Ann Lee", "Ann  Lee"))
    said = refused("--db", tmp_path / "other.json", "import", tmp_path / "spaced.csv")
    assert "spaced.csv: the name in the heading 'Ann" in said and said.endswith(
        "Lee' has stray spaces or line breaks; write it once, plainly")


@pytest.mark.parametrize(("row", "column", "cell", "says"), [
    (1, "knocker", "Ann ", "row 1: column knocker: the name 'Ann ' has stray spaces or line breaks"),
    (1, "dealer", "Ann ", "row 1: column dealer: the name 'Ann ' has stray spaces or line breaks"),
    (2, "dealer", "Ann ", "row 2: column dealer: the name 'Ann ' has stray spaces or line breaks"),
    (1, "dealer", "ANN", "row 1: column dealer is 'ANN', which the headings spell 'Ann'"),
    (2, "dealer", "ANN", "at hand 2: 'ANN' dealt this hand but is spelled 'Ann' in this session"),
])
def test_a_csv_name_cell_written_otherwise_is_named_with_its_row_and_column(ok, refused, tmp_path, row, column, cell,
                                                                            says):
    """A spreadsheet keeps a space typed after a name: it was said as "Ann is spelled Ann in this session"
    (the space unseen), and a first dealer written otherwise as "the first dealer must be one of Ann, Ben",
    naming no row or column."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    ok("hand", "ann", "4", "30")
    rows = list(csv.DictReader(io.StringIO(ok("export").stdout)))
    rows[row - 1][column] = cell
    written = tmp_path / "spaced.csv"
    with written.open("w", newline="", encoding="utf-8") as out:
        table = csv.DictWriter(out, fieldnames=list(rows[0]))
        table.writeheader()
        table.writerows(rows)
    refused("--db", str(tmp_path / "other.json"), "import", written, says=says)


def test_a_csv_heading_or_scored_name_written_otherwise_is_said_as_such(ok, refused, tmp_path):
    """"Ann " in the winner column was blamed on the house rules ("give the rules it was played with"), and
    in a heading as "column dealer is 'Ann', who does not play in this session (Ann , Ben)"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    text = ok("export").stdout
    written = tmp_path / "spaced.csv"
    written.write_text(text.replace(",knock,Ann,", ",knock,Ann ,"), encoding="utf-8")
    refused("--db", str(tmp_path / "o.json"), "import", written,
            says="row 1: column winner: the name 'Ann ' has stray spaces or line breaks")
    written.write_text(text.replace("total:Ann,", "total:Ann ,"), encoding="utf-8")
    refused("--db", str(tmp_path / "o.json"), "import", written,
            says="spaced.csv: the name in the heading 'Ann ' has stray spaces or line breaks")


@pytest.mark.parametrize(("old", "new", "says"), [
    (",knock,Ann,17,17,", ",knock,Ann,17.0,17,", "the file says points '17.0', which ginscore writes '17'"),
    (",knock,Ann,17,17,", ",knock,Ann,17,+17,", "the file says total:Ann '+17', which ginscore writes '17'"),
    (",Ann,3,20,", ",Ann,3,020,", "the file says opponent_deadwood '020', which ginscore writes '20'"),
    ("\n1,", "\n1.0,", "the file says hand '1.0', which ginscore writes '1'"),
    (",knock,Ann,17,", ",knock,ann,17,", "the file says winner 'ann', which ginscore writes 'Ann'"),
    (",17,0,Ben,", ",17,0,ben,", "the file says opponent 'ben', which ginscore reads as 'Ben'"),
], ids=["points", "total", "count", "hand", "winner", "opponent"])
def test_a_number_a_spreadsheet_wrote_its_own_way_is_said_so_not_blamed_on_the_rules(ok, refused, tmp_path, old,
                                                                                     new, says):
    """"17.0" for 17 and a winner "ann" were blamed on the house rules ("give the rules it was played with"),
    and a hand "1.0" on the order of the rows; it is the cell's spelling."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    text = ok("export").stdout
    assert old in text
    written = tmp_path / "resaved.csv"
    written.write_text(text.replace(old, new, 1), encoding="utf-8")
    refused("--db", str(tmp_path / "o.json"), "import", written,
            says=f"row 1: {says}; write the cell as ginscore writes it (as an export of it does)")


def test_a_csv_whose_opponent_is_not_the_one_its_knocker_played_says_so_not_a_spelling(ok, refused, tmp_path):
    """An opponent cell naming the knocker was called a spelling ("which ginscore reads as 'Ben'"): the opponent
    follows from the knocker, so the two cells contradict each other."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    written = tmp_path / "edited.csv"
    written.write_text(ok("export").stdout.replace(",17,0,Ben,", ",17,0,Ann,", 1), encoding="utf-8")
    refused("--db", str(tmp_path / "o.json"), "import", written,
            says="row 1: the file says opponent 'Ann', but its knocker Ann played Ben that hand; correct one of")


@pytest.mark.parametrize("into", ["an empty file", "the file it came from"])
def test_a_cell_spelled_otherwise_in_a_csv_with_upcards_is_not_advised_a_variant(ok, refused, tmp_path, db_path, into):
    """A standard game may keep upcards (R15 needs them only in Oklahoma). A cell "25.0" in its CSV was told to
    add --variant oklahoma as well; typed on the file it came from, that then said to leave out --variant.
    The spelling is the whole problem, so it is all the line says."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30", "--upcard", "7s")
    written = tmp_path / "resaved.csv"
    written.write_text(ok("export").stdout.replace(",knock,Ann,25,", ",knock,Ann,25.0,", 1), encoding="utf-8")
    target = tmp_path / "o.json" if into == "an empty file" else db_path
    line = refused("--db", str(target), "import", written, says="the file says points '25.0'")
    assert line.endswith("write the cell as ginscore writes it (as an export of it does)"), line


@pytest.mark.parametrize("column", ["box", "captain", "out"])
def test_a_three_player_csv_without_a_role_column_says_which_r21(ok, refused, tmp_path, column):
    """Without `out` it said the first roles must name each player once; without `box`, that the box deals
    and "column box is ''": as a missing dealer column is said, the column is named."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "4", "22")
    rows = list(csv.reader(io.StringIO(ok("export").stdout)))
    at = rows[0].index(column)
    written = tmp_path / "three.csv"
    with written.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(row[:at] + row[at + 1:] for row in rows)
    refused("--db", str(tmp_path / "o.json"), "import", written,
            says=f"three.csv is not a ginscore export of a three-player session: it has no column {column}")


def test_a_player_whose_name_starts_with_a_hyphen_never_comes_in_from_a_file(ok, refused, tmp_path, db_path):
    """`new` reads "-a" as an option, but an export or a database edited by hand brought a player "-a" in;
    then `hand -a 5 20` said "No such option: -a", and nothing told of `--`."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30")
    said = "a player's name cannot start with '-' ('-a': every command would read it as an option)"
    for name, text in (("a.json", ok("export", "-f", "json").stdout), ("a.csv", ok("export").stdout),
                       ("db.json", db_path.read_text())):
        (tmp_path / name).write_text(text.replace("Ann", "-a"))
        command = "merge" if name == "db.json" else "import"
        refused("--db", str(tmp_path / "o.json"), command, tmp_path / name, says=said)
    refused("new", "standard", "--dealer", "ben", "--", "-a", "Ben", says=said)


def test_an_export_resaved_by_a_spreadsheet_is_told_what_to_change_or_read_back(ok, refused, tmp_path):
    """A spreadsheet set to ';' between cells, or saving "Unicode text" (UTF-16), was "neither a JSON export
    nor a CSV export" or "not UTF-8 text (byte 0)"; an editor that added a second byte order mark made
    "no column hand". The first two say what to change; the third reads back."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30")
    text = ok("export").stdout
    other = ("--db", str(tmp_path / "o.json"))
    (tmp_path / "semicolons.csv").write_text(text.replace(",", ";"), encoding="utf-8")
    refused(*other, "import", tmp_path / "semicolons.csv",
            says="semicolons.csv has its cells separated by ';'; save it with ',' between cells, as `ginscore")
    (tmp_path / "unicode.csv").write_text(text, encoding="utf-16")
    refused(*other, "import", tmp_path / "unicode.csv", says="unicode.csv is UTF-16 text, not UTF-8; save it as UTF-8")
    (tmp_path / "marked.csv").write_bytes(b"\xef\xbb\xbf" * 2 + text.encode())
    ok(*other, "import", tmp_path / "marked.csv")
    assert ok(*other, "status", "--json").json()["totals"] == {"Ann": 25, "Ben": 0}


@pytest.mark.parametrize("encoding, said", [("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32"),
                                             ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32")])
def test_unicode_text_without_a_byte_order_mark_or_as_utf_32_is_named(ok, refused, tmp_path, encoding, said):
    """UTF-16 without its mark said "line 1 has a NUL byte", UTF-32 with one was called UTF-16, and without
    one "not UTF-8 text (byte 2)": each is named, with what to save it as."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30")
    (tmp_path / "unicode.csv").write_bytes(ok("export").stdout.encode(encoding))
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "unicode.csv",
            says=f"unicode.csv is {said} text, not UTF-8; save it as UTF-8")


@pytest.mark.parametrize("separated", ["tabs", "quoted ;", "; and a name with a comma"])
def test_cells_separated_otherwise_are_told_to_be_saved_with_commas(ok, refused, tmp_path, separated):
    """Tabs, or ';' with every cell quoted or a player "Smith, J", were "neither a JSON export nor a CSV
    export" or "line 1 is neither JSON nor CSV (',' expected after '"')"."""
    ok("new", "standard", "Smith, J" if "comma" in separated else "Ann", "Ben", "--dealer", "ben")
    ok("hand", "ben", "5", "30")
    rows = list(csv.reader(io.StringIO(ok("export").stdout)))
    out = io.StringIO()
    csv.writer(out, delimiter="\t" if separated == "tabs" else ";",
               quoting=csv.QUOTE_ALL if "quoted" in separated else csv.QUOTE_MINIMAL).writerows(rows)
    (tmp_path / "resaved.csv").write_text(out.getvalue(), encoding="utf-8")
    between = "tabs" if separated == "tabs" else "';'"
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "resaved.csv",
            says=f"resaved.csv has its cells separated by {between}; save it with ',' between cells")


def test_a_json_export_whose_session_name_starts_with_a_hyphen_needs_another_name(ok, refused, tmp_path):
    """A name made elsewhere (a file edited, another program) came in as '-late', which `restore -late`,
    advised as so, then read as an option; it is refused, and --name gives it another."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "late")
    ok("hand", "ann", "3", "20")
    doc = ok("export", "--format", "json").json()
    doc["session"]["name"] = "-late"
    dashed = tmp_path / "dash.json"
    dashed.write_text(json.dumps(doc), encoding="utf-8")
    other = ("--db", str(tmp_path / "other.json"))
    refused(*other, "import", dashed, says="names its session '-late', which cannot start with '-' here")
    ok(*other, "import", dashed, "--name", "late")


def test_a_first_role_spelled_otherwise_in_a_three_player_csv_is_named_r21(ok, refused, tmp_path):
    """An `out` of "cy" for Cy in the first row said only that the first roles must name each player once
    (R21); in a later row the same cell is named with its spelling. The first row's is now named too."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "20")
    text = ok("export").stdout
    written = tmp_path / "three.csv"
    for cell, says in ((",cy,", "'cy' has one of the first roles (R21) but is spelled 'Cy' in this session"),
                       (",Dee,", "Dee has one of the first roles (R21) but does not play in this session")):
        written.write_text(text.replace(",Ben,Ann,Ben,Cy,", f",Ben,Ann,Ben{cell}", 1), encoding="utf-8")
        refused("--db", str(tmp_path / "o.json"), "import", written, says=says)


def test_a_json_export_saved_as_utf_16_is_not_told_of_spreadsheets_and_a_nul_is_no_encoding(ok, refused, tmp_path):
    """A JSON export saved as UTF-16 was told to save it as "CSV UTF-8, in a spreadsheet"; a UTF-8 file that
    starts with a NUL byte, or is four of them, was called UTF-16 or UTF-32 text."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    (tmp_path / "wide.json").write_bytes(ok("export", "--format", "json").stdout.encode("utf-16"))
    other = ("--db", str(tmp_path / "o.json"))
    line = refused(*other, "import", tmp_path / "wide.json", says="wide.json is UTF-16 text, not UTF-8; save it as")
    assert "spreadsheet" not in line, line
    for raw in (b"\0hand,dealer\n1,Ann\n", b"\0\0\0\0"):
        (tmp_path / "nul.csv").write_bytes(raw)
        refused(*other, "import", tmp_path / "nul.csv", says="nul.csv line 1 has a NUL byte, which no export holds")


def test_a_box_written_in_another_case_than_the_dealer_is_said_to_be_a_spelling_r22(ok, refused, tmp_path):
    """A three-player box cell "ann" beside the dealer "Ann" said "the box deals (R22)": it is one player
    written two ways."""
    other = ("--db", str(tmp_path / "o.json"))
    written = tmp_path / "edited.csv"
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "20")
    text = ok("export").stdout
    written.write_text(text.replace(",Ben,Ann,Ben,Cy,", ",Ben,ann,Ben,Cy,", 1), encoding="utf-8")
    refused(*other, "import", written, says="row 1: columns dealer and box name one player, spelled 'Ann' and 'ann'")
    written.write_text(text.replace("\n1,Ann,", "\n1,Ann ,", 1), encoding="utf-8")  # (checked as a role cell is)
    refused(*other, "import", written, says="row 1: column dealer: the name 'Ann ' has stray spaces or line breaks")


def test_a_three_player_csv_dealt_by_another_than_the_box_is_refused_naming_both_r22(ok, refused, tmp_path):
    """A dealer cell naming the player who sits out, beside the box: the box deals every hand (R22)."""
    other = ("--db", str(tmp_path / "o.json"))
    written = tmp_path / "edited.csv"
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "20")
    written.write_text(ok("export").stdout.replace("\n1,Ann,", "\n1,Cy,", 1), encoding="utf-8")
    refused(*other, "import", written,
            says="row 1: column dealer is 'Cy', but the box deals (R22), and column box is 'Ann'")


def test_a_csv_card_cell_that_holds_no_cards_where_none_were_told_is_refused_as_written_otherwise(
        ok, refused, tmp_path):
    """A hand told by its counts has no cards: a card cell filled (with cards or not) says that ginscore reads
    no cards there, not that it reads "''", and how to write it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    rows = list(csv.reader(io.StringIO(ok("export").stdout)))
    rows[1][rows[0].index("opponent_cards")] = "ZZ"
    with open(tmp_path / "edited.csv", "w", newline="", encoding="utf-8") as written:
        csv.writer(written).writerows(rows)
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "edited.csv",
            says="row 1: the file says opponent_cards 'ZZ', but ginscore reads no cards for this hand (a drawn "
                 "hand, or one without knocker_cards is read by its deadwood counts); leave the cell empty, or give "
                 "both hands' cards")
    rows[1][rows[0].index("opponent_cards")] = "AS 2S"  # real cards, where none are read: the same
    with open(tmp_path / "edited.csv", "w", newline="", encoding="utf-8") as written:
        csv.writer(written).writerows(rows)
    assert "opponent_cards 'AS 2S', but ginscore reads no cards for this hand" in refused(
        "--db", str(tmp_path / "o.json"), "import", tmp_path / "edited.csv")


def test_a_json_exports_first_dealer_written_in_another_case_is_said_to_be_a_spelling_r5(ok, refused, tmp_path):
    """A JSON export's "first_dealer": "ann" said "the first dealer must be one of Ann, Ben (R5)", where a
    CSV's first dealer and every other name say how the session spells it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    text = ok("export", "--format", "json").stdout
    (tmp_path / "edited.json").write_text(text.replace('"first_dealer": "Ann"', '"first_dealer": "ann"'))
    refused("--db", str(tmp_path / "o.json"), "import", tmp_path / "edited.json",
            says="'ann' is the first dealer (R5) but is spelled 'Ann' in this session")


def test_a_record_of_a_session_here_whose_player_starts_with_a_hyphen_brings_its_later_hands(ok, refused, tmp_path,
                                                                                              db_path):
    """A session kept from a file edited by hand before such names were refused has a player "-a": its own
    JSON export, played on elsewhere, was refused by import, though its players were already here. Into a
    file where the session is not, it is still refused."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30")
    db_path.write_text(db_path.read_text().replace("Ann", "-a"))
    laptop = ("--db", str(tmp_path / "laptop.json"))
    (tmp_path / "laptop.json").write_bytes(db_path.read_bytes())
    ok(*laptop, "hand", "--", "-a", "5", "20")
    (tmp_path / "later.json").write_text(ok(*laptop, "export", "--format", "json").stdout)
    ok("import", tmp_path / "later.json")
    assert ok("status", "--json").json()["totals"] == {"-a": 40, "Ben": 0}
    refused("--db", str(tmp_path / "new.json"), "import", tmp_path / "later.json", says="cannot start with '-'")
