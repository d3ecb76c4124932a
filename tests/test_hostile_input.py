"""Hostile input: nothing stored that a command cannot read back.

A corpus of import files, each a real export with one thing made wrong, is
refused whole: exit 2, one line naming the file and the first bad field (or
line, row and column), no traceback, the database byte-for-byte unchanged.
A database damaged by hand makes commands on the damaged session exit 1,
naming the file, the session and the field; other sessions keep working.
Names are one name ignoring case, accents and width. A hypothesis fuzz of
mutated exports runs through the real CLI: no traceback, exit 0 or 2, and
what exit 0 stored reads back.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from pathlib import Path
from typing import Callable, NamedTuple

import pytest
from hypothesis import event, HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.documents import EXPORT_VERSION
from ginscore.core.names import MAX_NAME

from .conftest import run_cli, stored_sessions
from .profiles import examples

# --- the real exports the corpus is made from --------------------------------


class Base(NamedTuple):
    db: bytes  # a database holding the sessions below
    std: dict  # `export --format json` of a standard session: a knock, a hand told as cards, a draw, an undercut
    okla: dict  # of an Oklahoma session (upcards set the knock limit, R15)
    three: dict  # of a three-player session (first roles, R21)
    csv: str  # `export` (CSV) of the standard session


def _must(*args) -> str:
    done = run_cli(*args)
    assert done.exit_code == 0, (args, done.stderr)
    return done.stdout


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Base:
    db = tmp_path_factory.mktemp("base") / "ginscore.json"
    on = ("--db", str(db))
    _must(*on, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "std")
    _must(*on, "hand", "ann", "3", "20")
    _must(*on, "hand", "ben", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D",
          "--against", "KS KH KD QC JC 10C 9C 5D 4D 6H")
    _must(*on, "draw")
    _must(*on, "hand", "ann", "9", "7")
    _must(*on, "new", "oklahoma", "Ann", "Ben", "--dealer", "ben", "--name", "okla")
    _must(*on, "hand", "ann", "3", "20", "--upcard", "9s")
    _must(*on, "new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--name", "three")
    _must(*on, "hand", "ann", "3", "20")
    exports = {s: json.loads(_must(*on, "export", "-s", s, "--format", "json")) for s in ("std", "okla", "three")}
    # kept as ginscore 1.x kept it (schema 2: every session in the one file), so damage is planted in one
    # place; a command reads it as it is, and the first write upgrades it, keeping a damaged session as it was
    stored = stored_sessions(db)
    current = json.loads(db.read_bytes())["meta"]["1"]["current"]  # today: the current session's id
    one_file = {"meta": {"1": {"schema_version": 2,
                               "current": next(d["name"] for d in stored.values() if d["id"] == current)}},
                "sessions": stored}
    return Base(json.dumps(one_file, ensure_ascii=False).encode(), exports["std"], exports["okla"], exports["three"],
                _must(*on, "export", "-s", "std"))


# --- the corpus ----------------------------------------------------------------


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


NAN, INF = float("nan"), float("inf")
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
    *(J(f"target-{k}", ("rules", "target"), v, "session.rules.target must be from 0") for k, v in [
        ("negative", -1), ("huge", 10**30), ("over", 10**10),
    ]),
    J("target-zero", ("rules", "target"), 0, "target must be a whole number above 0"),
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
    J("cards-and-counts", ("hands", 1, "knocker_deadwood"), 2, "'knocker_deadwood' that ginscore does not know"),
    J("hand-after-game-over", ("rules", "target"), 10, "over"),
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
    RAW("over-8-mib", lambda b: _text(b).encode() + b" " * (8 * 2**20), "larger than 8 MiB"),
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
    C("dealer-stranger", _cell(1, "dealer", "Zed"), "first dealer"),
    C("dealer-later-wrong", _cell(2, "dealer", "Ben"), "row 2"),
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


# --- a damaged database ----------------------------------------------------------


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
    ("first_dealer-stranger", _set_doc("first_dealer", "Zed"), "first dealer"),
    ("first_roles-in-two-player", _set_doc("first_roles", {"box": "Zed", "captain": "Ben", "out": "Ann"}),
     "first roles"),
    ("first_roles-list", _set_doc("first_roles", [1]), "session.first_roles"),
    ("first_dealer-list", _set_doc("first_dealer", ["Ann"]), "session.first_dealer"),
    ("hands-int", _set_doc("hands", 5), "session.hands"),
    ("hands-table", _set_doc("hands", {"a": 1}), "session.hands"),
    ("row-deadwood-word", _rows("knock|Ann|3|20", "knock|Ann|x|20"), "hand 1's knocker_deadwood"),
    ("row-deadwood-arabic", _rows("knock|Ann|3|20", "knock|Ann|٣|20"), "hand 1's knocker_deadwood"),
    ("row-deadwood-over", _rows("knock|Ann|3|20", "knock|Ann|3|200"), "hand 1's opponent_deadwood"),
    ("row-unknown-kind", _rows("knock|Ann|3|20", "bet|Ann|3|20"), "hand 1"),
    ("row-short", _rows("knock|Ann|3|20|", "knock|Ann|3|"), "hand 1"),
    ("row-big_gin", _rows("|0|", "|2|"), "hand 1's big_gin"),
    ("row-upcard", _rows("draw|", "draw|ZZ"), "hand 3's upcard"),
    ("row-recorded_at", _rows("draw|", "draw||yesterday"), "hand 3"),
    ("row-cards", _rows("cards|Ben|AS", "cards|Ben|ZZ"), "hand 2's knocker_cards[0]"),
    ("row-stranger", _rows("knock|Ann|3|20", "knock|Zed|3|20"), "hand 1"),
    ("created_at-absent-is-fine", lambda d: d.pop("created_at"), None),
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
    """Fields this ginscore does not know (a later one wrote them) and a session name with stray
    spaces (imported before names were checked) read back, and are kept as they are on a write."""

    def older(doc):
        doc.update(name="  std  night ", colour="red")
        doc["rules"]["jokers"] = 2

    _damage(base, db_path, older)
    assert ok("status", "--session", "std night", "--json").json()["totals"] == {"Ann": 17, "Ben": 25}
    ok("hand", "ann", "3", "20", "--session", "std")
    kept = [d for d in stored_sessions(db_path).values() if d.get("colour")]
    assert len(kept) == 1 and kept[0]["name"] == "  std  night " and "jokers" not in kept[0]["rules"]
    assert len(ok("history", "--json").json()) == 3


def test_a_damaged_schema_1_session_is_not_migrated(db_path, ok, cli):
    damaged = {"name": "a", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
               "hands": [{"type": "knock", "knocker": "Ann", "knocker_cards": [1, 2], "opponent_cards": ["AS"]}]}
    fine = {"name": "b", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
            "hands": [{"type": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 20}]}
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 1, "current": "b"}},
                                   "sessions": {"1": damaged, "2": fine}}))
    ok("hand", "ann", "2", "20")
    sessions = stored_sessions(db_path)
    assert sessions["1"]["hands"] == damaged["hands"]  # kept as it was, never "repaired"
    assert sessions["2"]["hands"].startswith("knock|Ann|3|20||0|;knock|Ann|2|20||0|")
    assert ok("status", "--json").json()["totals"] == {"Ann": 35, "Ben": 0}
    done = cli("status", "--session", "a")
    assert done.exit_code == 1 and "hand 1's knocker_cards[0] must be text, not 1" in done.stderr


@pytest.mark.parametrize("args, says", [
    (["new", "standard", "A" * 201, "Ben"], "keep it to 200"),
    (["new", "standard", "Ann", "Ben", "--name", "n" * 201], "--name has 201 characters"),
    (["new", "standard", "Ann", "Ben", "--target", "10000000000"], "--target must be at most"),
    (["new", "standard", "Ann", "Ben", "--gin-bonus", str(10**30)], "--gin-bonus must be at most"),
])
def test_commands_are_as_strict_as_import(args, says, refused):
    refused(*args, says=says)


# --- names: one name ignoring case, accents and width (docs/commands.md) --------------------------

NFC, NFD = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")


@pytest.mark.parametrize("pair", [(NFC, NFD), (NFC, "Jose"), ("Ann", "Ａnn"), ("Ann", "ＡＮＮ"), ("ANN", "ann"),
                                  ("Zoë", "ZOE"), ("Straße", "STRASSE")])
def test_look_alike_names_are_one_name(pair, refused):
    refused("new", "standard", *pair, says="two players")


def test_a_name_of_accents_alone_is_empty(refused):
    refused("new", "standard", "Ann", "\u0301\u0301", says="name is empty")


# Printable characters a screen shows as nothing: the Hangul fillers, a variation selector alone.
BLANK_NAMES = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u3164 \uffa0", "\ufe0f"]


@pytest.mark.parametrize("blank", BLANK_NAMES)
def test_a_name_that_shows_as_nothing_is_refused(blank, ok, refused, tmp_path):
    """Nobody could read it in a table or type it back: refused as a player's or a session's name,
    by the commands and by import, its characters spelled out in the one line."""
    line = refused("new", "standard", "Ann", blank, says="shows as nothing")
    assert "\\u" in line and blank not in line
    refused("new", "standard", "Ann", "Ben", "--name", blank, says="the session name")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    refused("rename", blank, says="shows as nothing")
    doc = ok("export", "--format", "json").json()
    for where in ("players", "name"):
        changed = copy.deepcopy(doc)
        if where == "players":
            changed["session"]["players"][1] = blank
            changed["session"]["first_dealer"] = "Ann"
        else:
            changed["session"]["name"] = blank
        path = tmp_path / f"{where}.json"
        path.write_text(json.dumps(changed), encoding="utf-8")
        refused("import", str(path), "--as-copy", says="shows as nothing")


def test_a_name_with_a_filler_among_letters_shows_and_is_kept(ok):
    ok("new", "standard", "Ann\u3164Lee", "Ben", "--dealer", "ben")
    assert ok("status", "--json").json()["players"] == ["Ann\u3164Lee", "Ben"]


def test_matching_ignores_accents_and_width_and_keeps_the_first_spelling(ok, status):
    ok("new", "standard", NFC, "Ann", "--dealer", "jose")
    ok("hand", "jose", "3", "20")
    ok("hand", "ａnn", "2", "9")
    ok("hand", NFD.upper(), "0", "10")
    ok("edit", "1", "JOSÉ", "4", "20")
    doc = status()
    assert doc["players"] == [NFC, "Ann"]
    assert doc["totals"] == {NFC: 16 + 35, "Ann": 7}
    assert [h["knocker"] for h in ok("log", "--json").json()["hands"]] == [NFC, "Ann", NFC]


def test_session_names_match_ignoring_accents_and_width(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--name", "Café")
    ok("new", "standard", "Ann", "Ben", "--name", "other")
    refused("new", "standard", "Ann", "Ben", "--name", "CAFE", says="already a session")
    refused("new", "standard", "Ann", "Ben", "--name", "ｃａｆé", says="already a session")
    ok("use", "cafe")
    assert ok("status", "--json").json()["session"] == "Café"
    assert ok("status", "--session", "ＣＡＦＥ", "--json").json()["session"] == "Café"
    backup = tmp_path / "b.json"
    ok("export", "--format", "json", "--output", backup)
    refused("import", backup, "--as-copy", "--name", "cafe", says="already a session")
    assert "as 'Café-2'" in ok("import", backup, "--as-copy").stdout


def test_names_kept_before_folding_stay_reachable(db_path, ok):
    """A session that already holds José and Jose (recorded before names were folded): the closest spelling wins."""
    session = {"name": "old", "variant": "standard", "players": [NFC, "Jose"], "first_dealer": NFC,
               "created_at": "2026-01-01T20:00:00+00:00", "hands": ""}
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 2, "current": "old"}}, "sessions": {"1": session}}))
    ok("hand", "Jose", "3", "20")
    ok("hand", NFD, "2", "9")
    ok("hand", "jose", "1", "9")
    assert [h["knocker"] for h in ok("log", "--json").json()["hands"]] == ["Jose", NFC, "Jose"]


def test_stats_count_one_player_across_spellings(ok):
    ok("new", "standard", NFC, "Ann", "--dealer", "ann", "--target", "10")
    ok("hand", "jose", "3", "20")
    ok("new", "standard", NFD, "ANN", "--dealer", "ann", "--target", "10")
    ok("hand", "ann", "3", "20")
    doc = ok("stats", "--json").json()
    assert len(doc["players"]) == 2
    (jose,) = [r for name, r in doc["players"].items() if unicodedata.normalize("NFC", name) == NFC]
    assert jose["sessions"] == 2 and jose["sessions_won"] == 1
    assert doc["head_to_head"][0]["sessions"] == 2
    assert ok("stats", "jose", "--json").json()["players"].keys() == {NFD}  # the latest spelling
    assert len(ok("history", "--player", "JOSE", "--json").json()) == 2


# --- fuzz: mutated exports through the real CLI ------------------------------------


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _paths(value, (*path, n))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.integers(0, 30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12) | st.sampled_from(["Ann", "Ben", "ann", "9S", "ZZ", "2026-11-29T21:15:00+00:00", "knock",
                                              "draw", "", "Ａnn", NFD]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _somewhere(draw, doc):
    """A place in ``doc`` drawn at random: (its container, its key there, every path in ``doc``),
    or None when ``doc`` holds nothing."""
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return None
    path = draw(st.sampled_from(paths))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    return parent, path[-1], paths


@st.composite
def mutated_json(draw, doc):
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        found = _somewhere(draw, doc)
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


@st.composite
def damaged_session(draw, doc):
    """The stored document of a session with one to three fields deleted, replaced or its rows cut or flipped."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        found = _somewhere(draw, doc)
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


# --- stored rows read the fast way are read as the checked way reads them ------------------------

# Each field: what commands write, then what they never write.
_ROW_FIELDS = {
    "kind": (["knock", "draw", "cards"], ["bogus", "", "Knock"]),
    "name": (["Ann", "José", "Ben Cy", "Ｚoë", "x" * MAX_NAME], ["", " Ann", "A\x1bnn", "a%7Cb", "x" * (MAX_NAME + 1),
                                                                "\udcff"]),
    "count": (["0", "9", "10", "09", "98"], ["99", "200", "", "-1", "٣", "9" * 101, "1.0", " 3"]),
    "upcard": (["", "7S", "7s", "10H", "Q", "K♠", "a"], ["XX", "7S ", "1", "%25", "10"]),
    "flag": (["0", "1", ""], ["2", "true"]),
    "time": (["", "2026-01-01T20:00:00+00:00", "2026-11-29T21:15:03.123456+00:00", "2026-01-01T20:00:00Z"],
             ["2026-13-01T20:00:00+00:00", "yesterday", "2026-01-01 20:00"]),
    "knocker_cards": (["AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "AS 2S 3S 4S 7H 7D 7C 9H 10H JH"], ["AS", "", "AS  2S"]),
    "opponent_cards": (["KC QD 8S 5H 5C 6D 4C 3D 9C 8C"], ["AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "KC"]),
    "note": (["good one", "a%3Bb", "x%25"], ["", " spaced"]),
}


@st.composite
def _stored_row(draw) -> str:
    """A row as a command writes it, or (about one field in forty) one a field off, or with a field
    too few: every kind."""
    def pick(field: str) -> str:
        written, never = _ROW_FIELDS[field]
        return draw(st.sampled_from(never if draw(st.integers(0, 39)) == 0 else written))

    kind = pick("kind")
    if kind == "draw":
        values = [pick("upcard"), pick("time")]
    elif kind == "cards":
        values = [pick("name"), pick("knocker_cards"), pick("opponent_cards"), pick("upcard"), pick("flag"), pick("time")]
    else:
        values = [pick("name"), pick("count"), pick("count"), pick("upcard"), pick("flag"), pick("time")]
    if draw(st.integers(0, 4)) == 0:
        values.append(pick("note"))
    if draw(st.integers(0, 29)) == 0:
        values = values[:-1]
    return "|".join([kind, *values])


def _read_both_ways(text: str) -> tuple:
    """What ``stored_hands`` reads of ``text``, and what ``hand_from_dict`` reads of each row of
    ``hands_from_text``: each the hands, or the error's kind and words."""
    from ginscore.core.errors import Refused
    from ginscore.codec.facts import hand_from_dict, hands_from_text, stored_hands

    def read(reader):
        try:
            return "hands", reader()
        except Refused as error:
            return type(error).__name__, str(error)

    def checked():
        dicts = hands_from_text(text, "s.hands")
        for row in dicts:
            for key in ("knocker_cards", "opponent_cards"):
                if isinstance(row.get(key), str):
                    row[key] = row[key].split(" ")
        return tuple(hand_from_dict(row, f"s.hands[{n}]", strict=False) for n, row in enumerate(dicts))

    return read(lambda: stored_hands(text, "s.hands")), read(checked)


_PLAIN_ROW = "knock|Ann|3|20|7S|0|2026-01-01T20:00:00+00:00"
_ROW_SHAPES = {"knock": ("name", "count", "count", "upcard", "flag", "time", "note"), "draw": ("upcard", "time", "note"),
               "cards": ("name", "knocker_cards", "opponent_cards", "upcard", "flag", "time", "note")}


def test_each_field_of_a_stored_row_read_fast_is_read_as_the_checked_way_reads_it():
    """Every value of every field, written or never written, in a row otherwise as commands
    write it: after a plain row and before one, each read alike both ways (the hands or the error)."""
    seen = set()
    for kind, shape in _ROW_SHAPES.items():
        base = [_ROW_FIELDS[field][0][0] for field in shape]
        for place, field in enumerate(shape):
            for value in sum(_ROW_FIELDS[field], []):
                values = base[:place] + [value] + base[place + 1:]
                for row in ("|".join([kind, *values]), "|".join([kind, *values[:-1]])):  # with a note and without
                    fast, slow = _read_both_ways(f"{_PLAIN_ROW};{row};{_PLAIN_ROW}")
                    assert fast == slow, row
                    seen.add(slow[0])
    assert seen == {"hands", "BadField"}


@settings(max_examples=examples(1500), suppress_health_check=list(HealthCheck))
@given(st.lists(_stored_row(), max_size=6), st.integers(0, 3))
def test_stored_rows_read_fast_are_the_hands_and_the_error_the_checked_way_reads(rows, plain_first):
    """Every command replays every session from its stored rows; ``stored_hands`` reads a plain
    knock or draw without the dict between. It must give exactly the hands (or the first error,
    word for word) that ``hand_from_dict`` gives for each row of ``hands_from_text``."""
    fast, slow = _read_both_ways(";".join([_PLAIN_ROW] * plain_first + rows))
    event(slow[0] if slow[0] == "hands" else slow[1].split(":")[0][:60])
    assert fast == slow
