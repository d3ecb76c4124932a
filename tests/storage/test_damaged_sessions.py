"""A session damaged by an edit by hand fails alone, is kept as it was, and can be set aside."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from tests.support import (
    DAMAGED_SESSION,
    NAN,
    UNUSABLE,
    Base,
    json_values,
    run_cli,
    somewhere_in,
    stored_sessions,
)


@pytest.mark.parametrize("case", DAMAGED_SESSION)
def test_a_damaged_session_is_kept_as_it_is_beside_a_new_one(cli, ok, db_path, case):
    content, _ = UNUSABLE[case]
    db_path.write_bytes(content)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    kept = stored_sessions(db_path)["1"]
    assert kept.pop("id").startswith("s-")  # upgraded from 1.x: the session got the id made from its fields
    assert kept == json.loads(content)["sessions"]["1"]
    assert cli("status", "--session", "x").exit_code == 1  # still damaged, still named
    assert ok("status", "--json").json()["session"] == "standard-1"


def test_edit_is_how_a_user_mends_a_stored_hand_that_breaks_a_rule(cli, ok, db_path):
    content, _ = UNUSABLE["hand-that-breaks-a-rule"]
    db_path.write_bytes(content)
    assert cli("status").exit_code == 1
    ok("edit", "1", "a", "4", "50")
    assert ok("status", "--json").json()["totals"] == {"A": 46, "B": 0}


@pytest.mark.parametrize("when", ["--from-start", "--from-next"])
def test_a_house_change_on_a_stored_hand_that_breaks_a_rule_names_the_file_as_status_does(cli, db_path, when):
    """A hand edited by hand into one that breaks a rule is damage in the file (exit 1, `delete` sets it
    aside), not a hand just typed that a count could mend (exit 2)."""
    content, _ = UNUSABLE["hand-that-breaks-a-rule"]
    db_path.write_bytes(content)
    before = db_path.read_bytes()
    said = cli("status").stderr
    result = cli("house", "--gin-bonus", "20", when)
    assert (result.exit_code, result.stderr) == (1, said)
    assert "does not add up" in said and db_path.read_bytes() == before


def test_two_live_sessions_of_one_name_copied_by_hand_are_refused_not_mixed_up(cli, ok, db_path):
    """A session copied in an editor under a new id: two sessions named 'friday', both shown as current,
    and `use friday` or a hand would pick one without a word. Every command exits 1 naming the file."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"]["2"] = dict(data["sessions"]["1"], id="s-0123456789abcdef01234567")
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    for args in (["sessions"], ["status"], ["use", "friday"], ["hand", "ann", "3", "20"], ["history"]):
        result = cli(*args)
        assert result.exit_code == 1 and result.stdout == "", args
        assert "holds two sessions named 'friday'; give one of them another name" in result.stderr, args
    assert db_path.read_bytes() == before


def test_two_sessions_given_one_id_by_hand_are_refused_not_mixed_up(cli, ok, db_path, tmp_path):
    """A second session given the first's id (an edit by hand, say through TinyDB): `use` of it
    would make current the other one, and a hand go into the wrong session; every command that
    must tell them apart exits 1 naming the file, which stays as it was (merge too, either way)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "s")
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "t")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    first, second = data["sessions"]["1"], data["sessions"]["2"]
    second["id"] = data["meta"]["1"]["current"] = first["id"]
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    for args in (["use", "t"], ["use", "s"], ["status"], ["hand", "cy", "3", "20"], ["sessions"]):
        result = cli(*args)
        assert result.exit_code == 1 and result.stdout == "", args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and str(db_path.name) in lines[0] and "two sessions with one id" in lines[0], args
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Ed", "Flo", "--dealer", "Ed")
    assert cli("--db", str(other), "merge", str(db_path)).exit_code == 2  # theirs: a file that cannot be merged
    assert cli("merge", str(other)).exit_code == 1  # ours: this database cannot be used
    assert db_path.read_bytes() == before


def _damage(base: Base, db_path: Path, change) -> bytes:
    """The base database with the 'std' session's stored document changed by ``change``."""
    data = json.loads(base.db)
    doc = next(d for d in data["sessions"].values() if d["name"] == "std")
    change(doc)
    raw = json.dumps(data, ensure_ascii=False).encode()
    db_path.write_bytes(raw)
    return raw


def _set_doc(key, value):
    return lambda doc: doc.__setitem__(key, value)


def _rows(old, new):
    return lambda doc: doc.__setitem__("hands", doc["hands"].replace(old, new, 1))


def _first_note(text):
    """The first stored hand's note (the eighth field of its row) set to ``text``."""
    def change(doc):
        rows = doc["hands"].split(";")
        fields = rows[0].split("|")
        fields[7] = text
        doc["hands"] = ";".join(["|".join(fields)] + rows[1:])
    return change


DAMAGE = [
    ("created_at-list", _set_doc("created_at", ["2026"]), "session.created_at"),
    ("created_at-int", _set_doc("created_at", 12), "session.created_at"),
    ("created_at-words", _set_doc("created_at", "last friday"), "session.created_at"),
    ("created_at-nan", _set_doc("created_at", NAN), "session.created_at"),
    ("target-text", lambda d: d["rules"].__setitem__("target", "100"), "session.rules.target"),
    ("target-true", lambda d: d["rules"].__setitem__("target", True), "session.rules.target"),
    ("target-nan", lambda d: d["rules"].__setitem__("target", NAN), "session.rules.target"),
    ("shutout-int", lambda d: d["rules"].__setitem__("shutout", 1), "session.rules.shutout"),
    ("rules-list", _set_doc("rules", []), "session.rules"),
    ("players-text", _set_doc("players", "Ann Ben"), "session.players"),
    ("players-ints", _set_doc("players", [1, 2]), "session.players[0]"),
    ("variant-unknown", _set_doc("variant", "whist"), "session.variant"),
    ("variant-three", _set_doc("variant", "three"), "played by 3 players, not 2"),
    ("players-one", _set_doc("players", ["Ann"]), "played by 2 players, not 1"),
    ("players-three", _set_doc("players", ["Ann", "Ben", "Cy"]), "played by 2 players, not 3"),
    ("players-twice", _set_doc("players", ["Ann", "Ann"]), "one player twice"),
    # what was never typed is not advised to be typed plainly
    ("players-control", _set_doc("players", ["Ann", "B\x07en"]),
     "session.players[1] 'B\\x07en' has characters that cannot be shown; it was left as it is"),
    ("row-note-control", _first_note("h\x1bi"),
     "hand 1's note: a hand's note 'h\\x1bi' is not plain text of 1 to 200 characters; it was left as it is"),
    ("first_dealer-stranger", _set_doc("first_dealer", "Zed"), "first dealer"),
    ("first_roles-in-two-player", _set_doc("first_roles", {"box": "Zed", "captain": "Ben", "out": "Ann"}),
     "first roles"),
    ("first_roles-list", _set_doc("first_roles", [1]), "session.first_roles"),
    ("first_dealer-list", _set_doc("first_dealer", ["Ann"]), "session.first_dealer"),
    ("hands-int", _set_doc("hands", 5), "session.hands"),
    ("id-not-ours", _set_doc("id", "s-1"), "session.id: 's-1' is not a session id ginscore makes"),
    ("rule_changes-int", _set_doc("rule_changes", 5), "session.rule_changes must be a list, not 5"),
    ("rule_changes-first-from-hand-2", lambda d: d.__setitem__("rule_changes", [{"from_hand": 2, "rules": d["rules"]}]),
     "session.rule_changes[0].from_hand is 2, but the first change gives the rules of hand 1"),
    ("rule_changes-twice-from-hand-1", lambda d: d.__setitem__("rule_changes", [
        {"from_hand": 1, "rules": dict(d["rules"], gin_bonus=20)}, {"from_hand": 1, "rules": d["rules"]}]),
     "session.rule_changes[1].from_hand is 1"),
    ("rule_changes-last-not-in-force", lambda d: d.__setitem__("rule_changes", [
        {"from_hand": 1, "rules": dict(d["rules"], gin_bonus=20)}]), "the last change must be the rules in force now"),
    ("hands-table", _set_doc("hands", {"a": 1}), "session.hands"),
    ("row-deadwood-word", _rows("knock|Ann|3|20", "knock|Ann|x|20"), "hand 1's knocker_deadwood"),
    ("row-deadwood-arabic", _rows("knock|Ann|3|20", "knock|Ann|٣|20"), "hand 1's knocker_deadwood"),
    ("row-deadwood-over", _rows("knock|Ann|3|20", "knock|Ann|3|200"), "hand 1's opponent_deadwood"),
    ("row-unknown-kind", _rows("knock|Ann|3|20", "bet|Ann|3|20"), "hand 1"),
    ("row-short", _rows("knock|Ann|3|20|", "knock|Ann|3|"), "hand 1"),
    ("row-empty", _rows(";", ";;"), "hand 2 is not a stored hand"),
    ("row-a-word", lambda d: d.__setitem__("hands", "bet;" + d["hands"]), "hand 1 is not a stored hand"),
    ("row-dealer-stray-space", _rows("||Ann;", "||Ann ;"), "hand 1's dealer 'Ann ' has stray spaces"),
    ("row-dealer-empty-is-none", _rows("||Ann;", "||;"), None),
    ("row-a-field-too-many", lambda d: d.__setitem__("hands", d["hands"].replace(";", "|Ben;", 1)),
     "hand 1 is not a stored hand"),
    ("row-big_gin", _rows("|0|", "|2|"), "hand 1's big_gin"),
    ("row-upcard", _rows("draw|", "draw|ZZ"), "hand 3's upcard"),
    ("row-recorded_at", _rows("draw|", "draw||yesterday"), "hand 3"),
    ("row-cards", _rows("cards|Ben|AS", "cards|Ben|ZZ"), "hand 2's knocker_cards[0]"),
    ("row-stranger", _rows("knock|Ann|3|20", "knock|Zed|3|20"), "hand 1"),
    ("created_at-absent-is-fine", lambda d: d.pop("created_at"), None),
    ("row-count-in-a-hundred-digits-is-fine", _rows("knock|Ann|3|20", "knock|Ann|" + "0" * 99 + "3|20"), None),
]


@pytest.mark.parametrize("case_id, change, says", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_a_damaged_session_fails_alone(case_id, change, says, base, db_path, cli, ok):
    raw = _damage(base, db_path, change)
    if says is None:  # a session kept without a start time (older files): still readable
        ok("status", "--session", "std")
        return
    for command in (["status", "--session", "std"], ["log", "--json", "-s", "std"], ["export", "-s", "std"],
                    ["hand", "ann", "3", "20", "-s", "std"], ["sessions"], ["history"], ["stats"]):
        done = cli(*command)
        lines = done.stderr.splitlines()
        assert done.exit_code == 1 and len(lines) == 1, (command, done.stderr)
        assert str(db_path) in lines[0] and "'std'" in lines[0] and says in lines[0], lines[0]
        assert "Traceback" not in done.stdout + done.stderr
        assert db_path.read_bytes() == raw
    assert ok("status", "--session", "three", "--json").json()["players"] == ["Ann", "Ben", "Cy"]
    ok("log", "--session", "okla")


def test_a_damaged_session_set_aside_stays_aside_until_it_is_mended(base, db_path, ok, cli):
    """delete sets a damaged session aside; restore does not bring it back damaged (every list would
    stop on it again): exit 1, one line, nothing written, and it says what to do. Mended, it comes back."""
    _damage(base, db_path, _rows("knock|Ann|3|20", "knock|Ann|x|20"))
    said = ok("delete", "std", "--yes").stdout
    assert "cannot be read" in said and "hand 1's knocker_deadwood" in said and "Once it is mended" in " ".join(said.split())
    raw = db_path.read_bytes()
    done = cli("restore", "std")
    assert done.exit_code == 1 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "it stays deleted" in done.stderr and "hand 1's knocker_deadwood" in done.stderr
    assert "ginscore delete" not in done.stderr and db_path.read_bytes() == raw
    assert ok("sessions", "--json").json()[0]["name"] != "std"  # the lists go on without it
    db_path.write_bytes(raw.replace(b"knock|Ann|x|20", b"knock|Ann|3|20"))  # mended by hand
    ok("restore", "std")
    assert ok("status", "--json").json()["session"] == "std"


def test_a_hand_in_another_session_keeps_the_damaged_one_as_it_was(base, db_path, ok, cli):
    _damage(base, db_path, _set_doc("created_at", ["2026"]))
    ok("hand", "ann", "0", "12", "--session", "three")
    assert ok("status", "--session", "three", "--json").json()["hands_played"] == 2
    kept = stored_sessions(db_path)
    assert [d["created_at"] for d in kept.values() if d["name"] == "std"] == [["2026"]]
    assert cli("status", "--session", "std").exit_code == 1


def _std_edited(db_path: Path, edit) -> None:
    """The database file with session 'std' changed by ``edit`` (a document -> None), written
    by Python's own json: values orjson cannot read or write survive in the file as written."""
    data = json.loads(db_path.read_text(encoding="utf-8"))
    edit(next(doc for doc in data["sessions"].values() if doc["name"] == "std"))
    db_path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("edit, kept, damaged", [
    (lambda doc: doc.update(name="std\ud800"), b'"std\\ud800"', True),  # a lone surrogate, escaped as JSON allows
    (lambda doc: doc.update(players=["Ann", "B\udcffen"]), b'"B\\udcffen"', True),
    (lambda doc: doc["rules"].update(target=float("nan"), gin_bonus=10 ** 30),
     b'"target":NaN,"gin_bonus":' + str(10 ** 30).encode(), True),
    (lambda doc: doc.update(extra=2 ** 70, more=float("inf")), b'"extra":' + str(2 ** 70).encode(), False),  # later fields
], ids=["surrogate name", "surrogate player", "NaN and 10**30", "2**70 and Infinity, unknown fields"])
def test_what_only_pythons_json_reads_is_one_damaged_session_and_kept_as_it_was(base, db_path, ok, cli, edit, kept,
                                                                                   damaged):
    """A lone surrogate, NaN, or an integer past 64 bits edited into one session by hand: orjson
    neither reads nor writes them. Every listing says the session is damaged in one line (never a
    traceback), or, for a field this ginscore does not know, works; the other sessions keep
    working, and a write to one of them keeps the session's values exactly as they were read."""
    _damage(base, db_path, lambda data: data)
    _std_edited(db_path, edit)
    for args in (["sessions"], ["history"], ["stats"], ["ratings"], ["status", "--session", "std"]):
        result = cli(*args)
        assert result.exit_code == int(damaged) and "Traceback" not in result.stderr, (args, result.stderr)
        if damaged:
            assert result.stderr.count("\n") == 1 and "damaged session" in result.stderr, (args, result.stderr)
    ok("hand", "ann", "0", "12", "--session", "three")
    assert ok("status", "--session", "three", "--json").json()["hands_played"] == 2
    assert kept in db_path.read_bytes().replace(b", ", b",").replace(b": ", b":")


def test_a_document_id_past_64_bits_is_read_and_cached(db_path, ok):
    """TinyDB's document ids are numbers in the file's keys; one edited past 64 bits is read as
    any other, and the cache (which keeps ids) is written and read again without a traceback."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben", "--name", "S1")
    ok("hand", "ann", "3", "20")
    ok("new", "standard", "Cy", "Di", "--dealer", "cy", "--name", "S2")
    ok("hand", "cy", "2", "20")  # (a session with no hand counts in no statistics)
    db_path.write_text(db_path.read_text(encoding="utf-8").replace('"sessions":{"1":', '"sessions":{"99999999999999999999999":'),
                       encoding="utf-8")
    first = ok("stats").stdout
    assert ok("stats").stdout == first and "Ann" in first and "Cy" in first
    assert [row["name"] for row in ok("sessions", "--json").json()] == ["S1", "S2"]


@pytest.mark.parametrize("content", [b"[" * 100000, b'{"sessions":' * 50000, b'{"sessions": {"x": {}}}',
                                     b'{"sessions": {"1": {"name": "a"}}, "meta": {"1": ' + b"[" * 5000 + b"]" * 5000 + b"}}"])
def test_a_database_that_is_not_ours_is_one_line(content, db_path, cli):
    db_path.write_bytes(content)
    for command in (["status"], ["sessions"], ["new", "standard", "Ann", "Ben"]):
        done = cli(*command)
        assert done.exit_code == 1 and len(done.stderr.splitlines()) == 1, done.stderr
        assert str(db_path) in done.stderr and "Traceback" not in done.stderr
    assert db_path.read_bytes() == content


def test_what_a_command_can_read_back_is_not_damage(base, db_path, ok):
    """A session's field this ginscore does not know (a later one wrote it) and a session name with stray
    spaces (imported before names were checked) read back, and are kept as they are on a write."""

    def older(doc):
        doc.update(name="  std  night ", colour="red")

    _damage(base, db_path, older)
    assert ok("status", "--session", "std night", "--json").json()["totals"] == {"Ann": 17, "Ben": 25}
    ok("hand", "ann", "3", "20", "--session", "std")
    kept = [d for d in stored_sessions(db_path).values() if d.get("colour")]
    assert len(kept) == 1 and kept[0]["name"] == "  std  night "
    assert len(ok("history", "--json").json()) == 3


def test_a_session_name_kept_before_names_were_checked_reads_back_whatever_its_length_or_tabs(base, db_path, ok):
    """A session's name imported before names were checked, with a tab in it and longer than `new` allows,
    is no damage: every list shows it, and a write to another session keeps it as it was."""
    name = "std\tnight " + "x" * 200
    _damage(base, db_path, lambda doc: doc.update(name=name))
    assert name in [row["name"] for row in ok("sessions", "--json").json()]
    ok("hand", "ann", "3", "20", "--session", "three")
    assert name in [doc["name"] for doc in stored_sessions(db_path).values()]


@pytest.mark.parametrize("rules", [{"jokers": 2}, {"spades_double": True}])
def test_a_rule_this_ginscore_cannot_apply_is_damage_never_dropped(base, db_path, ok, cli, rules):
    """A house rule a later ginscore wrote (scored without it, a hand could score wrong), or an Oklahoma
    rule on a standard session (H4), names the session as damaged; nothing is written, so nothing is lost."""
    _damage(base, db_path, lambda doc: doc["rules"].update(rules))
    before = db_path.read_bytes()
    for command in (["status", "--session", "std"], ["hand", "ann", "3", "20", "--session", "std"]):
        done = cli(*command)
        assert done.exit_code == 1 and "has a damaged session 'std'" in done.stderr, done.stderr
    assert db_path.read_bytes() == before
    said = cli("status", "--session", "std").stderr
    assert ("has a field 'jokers' that ginscore does not know: upgrade ginscore if a newer one wrote it" in said
            if "jokers" in rules else "--spades-double is an Oklahoma house rule (H4)" in said)


@pytest.mark.parametrize("hands, said", [
    ([{"type": "knock", "knocker": "Ann", "knocker_cards": [1, 2], "opponent_cards": ["AS"]}],
     "hand 1's knocker_cards[0] must be text, not 1"),
    ({}, "session.hands must be a list of hands, not a table of fields"),
], ids=["cards not text", "an empty table"])
def test_a_damaged_schema_1_session_is_not_migrated(db_path, ok, cli, hands, said):
    """A 1.x session whose hands an edit by hand made unreadable stays damaged through the upgrade, kept
    as it was: never "repaired" into a session without hands."""
    damaged = {"name": "a", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann", "hands": hands}
    fine = {"name": "b", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
            "hands": [{"type": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 20}]}
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 1, "current": "b"}},
                                   "sessions": {"1": damaged, "2": fine}}))
    ok("hand", "ann", "2", "20")
    sessions = stored_sessions(db_path)
    assert sessions["1"]["hands"] == damaged["hands"]  # kept as it was, never "repaired"
    assert sessions["2"]["hands"].startswith("knock|Ann|3|20||0|||Ann;knock|Ann|2|20||0|")  # who dealt kept (H8)
    assert ok("status", "--json").json()["totals"] == {"Ann": 35, "Ben": 0}
    done = cli("status", "--session", "a")
    assert done.exit_code == 1 and said in done.stderr, done.stderr


@st.composite
def damaged_session(draw, doc):
    """The stored document of a session with one to three fields deleted, replaced or its rows cut or flipped."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        found = somewhere_in(draw, doc)
        if found is None:
            break
        parent, last, paths = found
        value = parent[last]
        how = draw(st.sampled_from(["delete", "replace", "text"] if isinstance(value, str) else ["delete", "replace"]))
        if how == "delete":
            del parent[last]
        elif how == "replace":
            parent[last] = draw(json_values)
        else:  # a stored string (the hand rows, a name, a time) with characters changed
            at = draw(st.integers(0, len(value)))
            parent[last] = value[:at] + draw(st.sampled_from(["|", ";", "%", "", "x", "9", "-1", "\x00", "é"])) \
                + value[at + draw(st.integers(0, 3)):]
    return doc


@pytest.mark.slow
@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_damage_in_the_database_never_ends_in_a_traceback(data, base, db_path):
    stored = json.loads(base.db)
    name, other = data.draw(st.sampled_from([("std", "three"), ("three", "okla"), ("okla", "std")]))
    key = next(k for k, d in stored["sessions"].items() if d["name"] == name)
    stored["sessions"][key] = data.draw(damaged_session(stored["sessions"][key]))
    raw = json.dumps(stored).encode()
    for command in (["status", "-s", name], ["log", "--json", "-s", name], ["sessions", "--json"], ["stats"],
                    ["hand", "ann", "3", "20", "-s", name], ["hand", "ben", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D",
                    "--against", "KS KH KD QC JC 10C 9C 5D 4D 6H", "--upcard", "10h", "-s", name]):
        db_path.write_bytes(raw)
        done = run_cli(*command)  # raises on any exception but SystemExit: a traceback fails here
        event(f"{command[0]}: exit {done.exit_code}")
        assert done.exit_code in (0, 1, 2), done.stderr
        if done.exit_code:
            assert len(done.stderr.splitlines()) == 1 and db_path.read_bytes() == raw, done.stderr
    db_path.write_bytes(raw)
    assert run_cli("status", "-s", other, "--json").exit_code == 0  # the other sessions keep working


def test_a_deletion_time_that_is_no_time_is_damage(base, db_path, cli):
    """deleted_at is checked as every other time is: `sessions --deleted` never shows 'whenever' as one."""
    _damage(base, db_path, _set_doc("deleted_at", "whenever"))
    before = db_path.read_bytes()
    for command in (["sessions", "--deleted"], ["restore", "std"]):
        done = cli(*command)
        assert done.exit_code == 1 and "session.deleted_at must be a timestamp like" in done.stderr, done.stderr
    assert db_path.read_bytes() == before


@pytest.mark.parametrize(("name", "said"), [(5, "5: session.name must be text"), ("", "'': session.name is empty")])
def test_a_session_whose_name_is_not_text_is_named_as_damage_with_advice_that_works(ok, cli, db_path, name, said):
    """No command can name a session whose name is 5, or empty (`delete ""` was advised, and refused as an
    empty name), so none is advised: the file is to be mended. The current one says so too, rather than
    that no session is current."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"]["1"]["name"] = name
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    for args in (["sessions"], ["status"], ["hand", "ann", "3", "20"]):
        result = cli(*args)
        assert result.exit_code == 1 and f"has a damaged session {said}" in result.stderr, (args, result.stderr)
        assert "delete" not in result.stderr and "its name is to be mended in the file" in result.stderr, args
    assert db_path.read_bytes() == before


def test_a_stored_hand_with_a_field_ginscore_does_not_know_is_damage_kept_as_it_is(cli, ok, db_path):
    """A session's own unknown fields are kept by every write; a hand's could not be (the rows have no
    place for them), so such a hand is damage, named, and left in the file as it is, never dropped."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    doc = json.loads(db_path.read_bytes())
    session = doc["sessions"]["1"]
    session["hands"] = [{"type": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 20,
                         "dealer": "Ann", "recorded_at": session["created_at"], "seat_note": "by the window"}]
    db_path.write_text(json.dumps(doc))
    for args in (["status"], ["hand", "ben", "2", "10"]):
        result = cli(*args)
        assert result.exit_code == 1 and "hand 1 has a field 'seat_note' that ginscore does not know" in result.stderr
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy")  # the other sessions still work
    assert stored_sessions(db_path)["1"]["hands"][0]["seat_note"] == "by the window"
