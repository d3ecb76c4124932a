"""A session's export files, JSON and CSV: written with the ``json`` and ``csv`` modules (never
through Rich), and read back in by ``import``, refused whole when anything in them is off."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
import json
import os
import re
import stat

from ginscore.codec import validate
from ginscore.core.cards import parse_card, parse_cards
from ginscore.core.errors import BadField, Command, Refused
from ginscore.core.names import check_players, fold, MAX_NAME, spelled_as
from ginscore.codec.facts import DEALER, ROLES, knock_from_cards, made_id, session_from_dict, session_to_dict
from ginscore.codec.facts import checked_at, stored_note
from ginscore.core.scoring import BIG_GIN, DRAW, GIN, KNOCK, UNDERCUT, WINNER_DEALS, HouseRules
from ginscore.core.stakes import money_text
from ginscore.core.reports import CSV_COLUMNS, FINALS_COLUMNS, csv_rows, finals_dicts, finals_rows
from ginscore.core.replay import replay, Standings
from ginscore.core.session import Draw, Hand, Knock, Roles, SessionFacts

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORT_VERSION = 4  # 2: deal, stake, notes and the match; 3: the session's id; 4: who dealt, rule changes (H8)


def inert(cell):
    """A cell a spreadsheet would run as a formula gets a leading quote (docs/commands.md); one that
    starts with a quote gets one more, so that ``uninert`` gives any text back exactly."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS + ("'",)):
        return "'" + cell
    return "" if cell is None else cell


def export_csv(standings: Standings, *, excel: bool = False, finals: bool = False) -> str:
    """The hands CSV, or with ``finals`` how the session ended (docs/commands.md "CSV export").

    ``excel``: a byte-order mark and CRLF line ends, so that a spreadsheet reads accents and lines right."""
    rows = finals_rows(standings) if finals else csv_rows(standings)
    buffer = io.StringIO()
    if excel:
        buffer.write("\ufeff")
    writer = csv.writer(buffer, lineterminator="\r\n" if excel else "\n")
    for row in rows:  # an amount of money is a number ginscore wrote, never a formula: not made inert
        writer.writerow([money_text(cell) if isinstance(cell, Decimal) else inert(cell) for cell in row])
    return buffer.getvalue()


def export_json(facts: SessionFacts, standings: Standings | None = None) -> str:
    """The JSON export: the session's facts, and how it ended (``finals``, never read back by `import`)."""
    doc = {"ginscore_export": _format_for(facts), "session": session_to_dict(facts),
           "finals": finals_dicts(standings or replay(facts))}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _format_for(facts: SessionFacts) -> int:
    """The lowest format that holds all the session uses: an older ginscore that cannot read it all refuses it."""
    if facts.hands or facts.rule_changes:
        return 4
    if facts.id is not None:
        return 3
    return 2 if facts.rules.deal != WINNER_DEALS or facts.rules.stake or facts.match else 1


# --- back in (the import command) -------------------------------------------
# A file is refused whole, naming the first bad field, rather than partly understood.

# Room for the 100,000 hands ginscore is built for (docs/performance.md), each as large as a hand can be.
MAX_FILE = 256 * 1024 * 1024  # bytes
MAX_NESTING = 20  # an export is nested 5 deep
_IN_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)  # an unterminated string runs to the end: linear time
_NOT_BRACKET = re.compile(r"[^\[\]{}]")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def uninert(cell: str) -> str:
    """Undo ``inert``: a quote put before a formula-looking cell (or before a quote)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS + ("'",)):
        return cell[1:]
    return cell


def read_file(path, source: str) -> str:
    """The text of a file to import: a regular file of at most MAX_FILE bytes of UTF-8, without NUL."""
    again = ("give a file made by ", Command("export"))
    too_large = (f"{source} is larger than {MAX_FILE // 2**20} MiB, the most import reads (an export of "
                 "100,000 hands is smaller); ", *again)
    try:
        found = os.stat(path)
        if not stat.S_ISREG(found.st_mode):
            raise Refused(f"{source} is not a regular file; ", *again)
        if found.st_size > MAX_FILE:  # refused before a byte is read
            raise Refused(*too_large)
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE + 1)  # bounded still: the file may have grown since
    except OSError as error:
        raise Refused(f"cannot read {source}: {error.strerror or error}; ", *again) from None
    if len(raw) > MAX_FILE:
        raise Refused(*too_large)
    wide = _wide_unicode(raw)
    if wide:  # a spreadsheet's "Unicode text", or an editor's
        json_text = raw[:64].decode(wide[1], "replace").lstrip("\ufeff \r\n\t")[:1] in ("{", "[")
        raise Refused(f"{source} is {wide[0]} text, not UTF-8; save it as UTF-8"
                      f"{'' if json_text else ' (CSV UTF-8, in a spreadsheet)'}, or ", *again)
    try:
        text = raw.decode("utf-8-sig").lstrip("\ufeff")  # (a mark saved twice: once by us, once by an editor)
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise Refused(f"{source} line {line} is not UTF-8 text (byte {error.start}); ", *again) from None
    del raw  # one copy of a large file held, not two
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise Refused(f"{source} line {line} has a NUL byte, which no export holds; ", *again)
    return text


def _wide_unicode(raw: bytes) -> tuple[str, str] | None:
    """("UTF-16" or "UTF-32", the codec) for text saved so, told by its byte order mark or by the NUL bytes
    beside each of its first characters (UTF-8 text has none); else None."""
    for mark, name, codec in ((b"\xff\xfe\0\0", "UTF-32", "utf-32"), (b"\0\0\xfe\xff", "UTF-32", "utf-32"),
                              (b"\xff\xfe", "UTF-16", "utf-16"), (b"\xfe\xff", "UTF-16", "utf-16")):
        if raw.startswith(mark):
            return name, codec
    head = raw[:8]
    for name, codec, zero in (("UTF-16", "utf-16-le", "0101"), ("UTF-16", "utf-16-be", "1010"),
                              ("UTF-32", "utf-32-le", "0111"), ("UTF-32", "utf-32-be", "1110")):
        if len(head) == 8 and all((byte == 0) == (zero[n % 4] == "1") for n, byte in enumerate(head)):
            return name, codec
    return None


def read_export(text: str, source: str, *, variant: str | None = None, rules: HouseRules | None = None,
                session_here=None, rules_over: dict | None = None) -> SessionFacts:
    """A session from a file `export` wrote, JSON or CSV; Refused when anything in it is off.

    ``variant`` and ``rules`` serve a CSV, which carries neither, unless ``session_here(session_id)`` has its
    session; ``rules_over``: house rules given to lay over that session's (import --as-copy)."""
    if text.lstrip()[:1] in ("{", "["):
        if variant is not None or rules is not None:
            raise Refused(f"{source} is a JSON export, which carries its own variant and house rules; leave out those options")
        return _from_json(_parse_json(text, source), source, session_here)
    return _from_csv(text, source, variant, rules, session_here, rules_over)


def is_export(path) -> bool:
    """Whether a file given to `merge` looks like an export (by its form alone), to advise `import`."""
    try:
        text = read_file(path, str(path))
        if text.lstrip()[:1] == "{":
            doc = json.loads(text)
            return isinstance(doc, dict) and "ginscore_export" in doc
        return set(CSV_COLUMNS) <= set(next(csv.reader(_csv_lines(text)), []))
    except (Refused, ValueError, RecursionError, csv.Error):
        return False


JSON_EXPORT = Command("export", "--format", "json")


def _parse_json(text: str, source: str):
    """``json.loads`` with the nesting bounded and a key given twice refused.

    Nesting is counted before parsing, so a deep file is one line, not a RecursionError; NaN and
    Infinity are left to the field checks, which refuse them by name."""
    level = 0
    for step in map(_DEPTH.get, _NOT_BRACKET.sub("", _IN_STRING.sub("", text))):
        level += step
        if level > MAX_NESTING:
            raise Refused(f"{source} is nested more than {MAX_NESTING} levels deep, which no export is")

    def pairs(items):
        doc = {}
        for key, value in items:
            if key in doc:
                raise Refused(f"{source} gives the field {validate.describe(key)} twice in one table")
            doc[key] = value
        return doc

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_int=validate.json_number)
    except BadField as error:  # a number longer than any count (validate.json_number)
        raise Refused.at(source, error) from None
    except ValueError as error:
        raise Refused(f"{source} is not valid JSON ({error}); give a file made by ", JSON_EXPORT) from None


def _from_json(doc, source: str, session_here=None) -> SessionFacts:
    """``session_here(session_id)``: the session of that id here, whose players' names are taken as they are."""
    if not isinstance(doc, dict) or not isinstance(doc.get("session"), dict) or "ginscore_export" not in doc:
        raise Refused(f"{source} is JSON but not a ginscore export (made by ", JSON_EXPORT, ")")
    version = doc["ginscore_export"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise Refused(f"{source}: ginscore_export must be a format number like {EXPORT_VERSION}, not {validate.describe(version)}")
    if version > EXPORT_VERSION:
        raise Refused(f"{source} was exported by a newer ginscore (format {version}); upgrade ginscore to import it")
    try:
        # "finals" are worked out again from the hands: what the file says of them is not read
        validate.mapping(doc, "the export", {"ginscore_export", "session", "finals"})
        facts = session_from_dict(doc["session"])
        if version >= 4:
            here = session_here(facts.id) if session_here is not None and facts.id else None
            _check_dealt(doc["session"]["hands"] if facts.hands else [], facts, here.players if here else ())
    except Refused as error:
        raise Refused.at(source, error) from None
    return facts


def _check_dealt(told: list[dict], facts: SessionFacts, kept=()) -> None:
    """Format 4 keeps who dealt every hand (H8): a hand ``told`` without it, or a first dealer other than
    hand 1's, was changed after the export, and working the dealer out from the rules would make a fact up."""
    check_players(facts.variant, facts.players, kept)  # first, as a replay does: a dealer is one of them
    three = facts.variant == "three"
    for number, hand in enumerate(told, start=1):  # (a three-player hand by its roles, a two-player one by its dealer)
        if hand.get(ROLES if three else DEALER) is None:
            raise Refused(f"hand {number} does not say who dealt it ({'roles' if three else 'dealer'}), which every "
                          "hand of an export of this format keeps (H8); export the session again")
    if not facts.hands:
        return
    first, kept = (facts.hands[0].roles, facts.first_roles) if three else (facts.hands[0].dealer, facts.first_dealer)
    # (a name of hand 1 that is none of the players is said by the replay, with how the session spells it)
    if kept is not None and kept != first and set(first if three else [first]) <= set(facts.players):
        said = (f"first_roles box {kept.box}, captain {kept.captain}, but hand 1 was dealt with box {first.box}, "
                f"captain {first.captain}" if three else f"first_dealer {kept}, but {first} dealt hand 1")
        raise Refused(f"the session says {said}; who dealt is a fact of the hand (H8); export the session again")


def _csv_lines(text: str) -> io.StringIO:
    """A CSV's text to read; a spreadsheet's "CSV (Macintosh)" ends its lines in CR alone."""
    return io.StringIO(text.replace("\r", "\n") if "\r" in text and "\n" not in text else text)


def _csv_table(text: str, source: str) -> list[list[str]]:
    """The rows of a CSV, each as long as the header; Refused naming the line or row that is not."""
    heading = _csv_lines(text).readline().replace('"', "").strip()
    for separator, between in ((";", "';'"), ("\t", "tabs")):  # a spreadsheet's setting in some languages
        if set(heading.split(separator)) >= set(CSV_COLUMNS):
            raise Refused(f"{source} has its cells separated by {between}; save it with ',' between cells, as ",
                          Command("export"), " writes it")
    reader = csv.reader(_csv_lines(text), strict=True)
    table = []
    try:
        for row in reader:
            if any(row):  # (a spreadsheet's empty line is a row of empty cells)
                table.append([uninert(cell) for cell in row])
    except csv.Error as error:
        raise Refused(f"{source} line {reader.line_num} is neither JSON nor CSV ({error})") from None
    header = table[0] if table else []
    named = len(header)
    while named and not header[named - 1]:
        named -= 1
    if named < len(header):  # a spreadsheet pads each line to its widest: columns with no name or cell are its
        table = [row[:named] if not any(row[named:]) else row for row in table]
        header = table[0]
    missing = [c for c in CSV_COLUMNS if c not in header]
    if set(FINALS_COLUMNS) <= set(header):  # derived from the hands, which it does not hold
        raise Refused(f"{source} holds how a session ended, made by ", Command("export", "--finals"),
                      ", not its hands; import the hands, which ", Command("export"), " writes")
    if len(missing) == len(CSV_COLUMNS):  # nothing like a CSV export (nor JSON: it did not start so)
        raise Refused(f"{source} is neither a JSON export nor a CSV export; import a file ", Command("export"), " wrote")
    if missing:
        raise Refused(f"{source} is not a ginscore export: it has no column {', '.join(missing)}; import a file ",
                      Command("export"), " wrote")
    seen = set()  # a set, not a look back along the header: a hostile header is long
    for column in header:
        if column in seen:
            raise Refused(f"{source} has the column {validate.describe(column)} twice")
        seen.add(column)
    for number, row in enumerate(table[1:], start=1):
        if len(row) != len(header):
            raise Refused(f"{source} row {number} has {len(row)} cells, but the header names {len(header)} columns")
    return table


def _from_csv(text: str, source: str, variant: str | None, rules: HouseRules | None, session_here=None,
              rules_over: dict | None = None) -> SessionFacts:
    table = _csv_table(text, source)
    header = table[0]
    if len(table) < 2:
        raise Refused(f"{source} has no hands, so it cannot tell who dealt first; start the session with ", Command("new"))
    games = [c for c in header if c.startswith("game1:")]
    players = tuple(c.split(":", 1)[1] for c in (games or [c for c in header if c.startswith("total:")]))
    for player in players:  # (a heading a spreadsheet kept a space in)
        validate.text(player, f"{source}: the name in the heading", limit=MAX_NAME)
    found = "hollywood" if games else ("three" if len(players) == 3 else None)
    if found and variant not in (None, found):
        raise Refused(f"{source} holds a {found} session, not {variant}; leave out --variant")
    rows = [dict(zip(header, row)) for row in table[1:]]
    session_id = _csv_session_id(rows, source)
    ours = session_here(session_id) if session_here and session_id else None
    changes = ()
    if ours is not None and rules_over is not None:  # another record of it (--as-copy): its first rules, those given over them
        variant, rules = variant or ours.variant, ours.rules_for(1)._replace(**rules_over)
    elif ours is not None:  # this session is here: each hand is read with the variant and rules it had here (H8)
        told = [option for option, given, kept in (("--variant", variant, ours.variant),
                                                   ("the house-rule options", rules, ours.rules))
                if given is not None and given != kept]
        if told:
            raise Refused(f"{source} is session '{ours.name}' here, read with its own variant and house rules; "
                          f"leave out {' and '.join(told)}")
        variant, rules = ours.variant, ours.rules_for(len(rows) + 1)
        changes = tuple(c for c in ours.rule_changes if c.from_hand <= len(rows) + 1)
    variant = found or variant or "standard"
    if variant == "three" and (gone := [column for column in Roles._fields if column not in header]):
        raise Refused(f"{source} is not a ginscore export of a three-player session: it has no column "
                      f"{', '.join(gone)}; import a file ", Command("export"), " wrote")
    hands = []
    for number, row in enumerate(rows, start=1):
        try:
            for column in ("opponent", "winner"):  # (scored, not read: a name written otherwise is said first)
                _name_cell(row, column)
            hands.append(_csv_hand(row)._replace(**_csv_dealt(row, variant)))
        except Refused as error:
            raise Refused.at(f"{source} row {number}", error) from None
    first_dealer, first_roles = (None, hands[0].roles) if variant == "three" else (hands[0].dealer, None)
    if variant != "three" and first_dealer not in players:  # (later hands' dealers are checked as they are replayed)
        spelled = spelled_as(players, first_dealer)
        who = f"which the headings spell '{spelled}'" if spelled else \
            f"who does not play in this session ({', '.join(players)})"
        raise Refused(f"{source} row 1: column dealer is {validate.describe(first_dealer or '')}, {who}; write the "
                      "name as the headings do")
    return SessionFacts(
        name="", variant=variant, players=players, rules=rules or HouseRules(), first_dealer=first_dealer,
        first_roles=first_roles, hands=tuple(hands), id=session_id, rule_changes=changes,
    )


def _csv_session_id(rows: list[dict], source: str) -> str | None:
    """The session's id, the same on every row; None when no row has one (an older ginscore's CSV)."""
    if not any(row.get("session_id") for row in rows):
        return None
    first = None
    for number, row in enumerate(rows, start=1):
        found = checked_at(f"{source} row {number}: column session_id", made_id, row["session_id"])
        if first is not None and found != first:
            raise Refused(f"{source} row {number}: column session_id is {found}, not {first} as on row 1: "
                          "a CSV holds one session; import each session's own export")
        first = found
    return first


def _csv_hand(row: dict) -> Hand:
    """One row's hand; Refused naming the column that is wrong."""
    upcard = _cell(row, "upcard", lambda c: parse_card(c, rank_only=True))
    at = validate.timestamp(row.get("recorded_at") or None, "column recorded_at")
    note = _cell(row, "note", stored_note)
    if row["outcome"] == DRAW:
        return Draw(upcard=upcard, recorded_at=at, note=note)
    if row["outcome"] not in (KNOCK, UNDERCUT, GIN, BIG_GIN):
        raise Refused(f"column outcome: unknown outcome {validate.describe(row['outcome'])}")
    counts = [_cell(row, c, lambda cell: validate.digits(cell, "a deadwood count"))  # R3 checks the range
              for c in ("knocker_deadwood", "opponent_deadwood")]
    told = {"upcard": upcard, "big_gin": row["outcome"] == BIG_GIN, "recorded_at": at, "note": note}
    knocker = _name_cell(row, "knocker")
    if row.get("knocker_cards"):
        hands = [_cell(row, c, parse_cards) or [] for c in ("knocker_cards", "opponent_cards")]
        return knock_from_cards(knocker, *hands, **told)
    for column, count in zip(("knocker_deadwood", "opponent_deadwood"), counts):
        if count is None:
            raise Refused(f"column {column} is empty; a knocked hand has both deadwood counts")
    return Knock(knocker, counts[0], counts[1], **told)


def _csv_dealt(row: dict, variant: str) -> dict:
    """Who dealt the row's hand (H8): its dealer, or in three-player its roles, whose box deals (R22)."""
    if variant != "three":
        return {"dealer": _name_cell(row, "dealer") or None}
    roles = Roles(*(_name_cell(row, column) for column in Roles._fields))
    dealer = _name_cell(row, "dealer")  # (checked as the role cells are: stray spaces, what cannot be shown)
    if dealer != roles.box and fold(dealer) == fold(roles.box):
        raise Refused(f"columns dealer and box name one player, spelled {validate.describe(dealer)} and "
                      f"{validate.describe(roles.box)}; write the name as the headings do")
    if dealer != roles.box:
        raise Refused(f"column dealer is {validate.describe(dealer)}, but the box deals (R22), and column box "
                      f"is {validate.describe(roles.box)}")
    return {"roles": roles}


def _name_cell(row: dict, column: str) -> str:
    """A cell naming a player, as written ("" when empty); refused when no name is written so (stray spaces)."""
    return _cell(row, column, lambda cell: validate.text(cell, "the name", limit=MAX_NAME)) or ""


def _cell(row: dict, column: str, read):
    """``read`` of a cell, None when empty; Refused naming the column."""
    cell = row.get(column) or ""
    if not cell:
        return None
    return checked_at(f"column {column}", read, cell)


# Cells a CSV's hands are read from as they were told at the table: no house rule changes them.
_AS_TOLD = frozenset(("dealer", "knocker", "upcard", "opponent", "box", "captain", "out", "knocker_cards",
                      "opponent_cards", "note"))


_CARD_COLUMNS = ("upcard", "knocker_cards", "opponent_cards")


def _same_number(theirs: str, ours: str) -> bool:
    """Whether a cell spelled otherwise holds the number ginscore writes (a short cell: a number, never a page)."""
    try:
        return bool(ours) and len(theirs) <= 40 and Decimal(theirs.strip()) == Decimal(ours)
    except ArithmeticError:  # (not a number: decimal's InvalidOperation)
        return False


def _same_cards(column: str, theirs: str, ours: str) -> bool:
    """Whether a card cell spelled otherwise holds the same cards ("7s" for "7S": cards are read in any case)."""
    read = (lambda cell: [parse_card(cell, rank_only=True)]) if column == "upcard" else parse_cards
    try:
        return read(theirs) == read(ours)
    except Refused:
        return False


class ScoresDiffer(Refused):
    """A CSV whose scores differ from what its hands score under the rules it was read with."""


def check_against_csv(standings: Standings, text: str, source: str, here: str | None = None) -> None:
    """Refuse a CSV whose scores differ from what its hands score under these rules (``here``: those of
    the session of that name here, the CSV being a record of it)."""
    table = _csv_table(text, source)  # (already read whole by read_export: it refuses nothing here)
    header, theirs = table[0], table[1:]
    ours = csv_rows(standings)
    unknown = next((c for c in header if c not in ours[0]), None)
    if unknown is not None:
        raise Refused(f"{source} has a column {validate.describe(unknown)} that ginscore does not write for this session")
    columns = [c for c in ours[0] if c in header and c != "recorded_at"]
    for number, (their_row, our_row) in enumerate(zip(theirs, ours[1:]), start=1):
        their, our = dict(zip(header, their_row)), dict(zip(ours[0], our_row))
        for column in columns:
            mine = "" if our[column] is None else str(our[column])
            cell = their[column]  # (every column compared is in the header, and every row as long)
            if cell == mine or column in _CARD_COLUMNS and _same_cards(column, cell, mine):
                continue
            # Only the cell's spelling differs: a cell read from the file ("7s"), a number ("25.0", "+25", "030"),
            # or a name ("ann"); the opponent is not read but follows from the knocker, so may truly differ
            if column in ("knocker_cards", "opponent_cards") and not mine:  # none read: a draw, or a hand by its counts
                raise Refused(f"{source} row {number}: the file says {column} '{cell}', but ginscore reads no cards "
                              "for this hand (a drawn hand, or one without knocker_cards is read by its deadwood "
                              "counts); leave the cell empty, or give both hands' cards")
            if column in _AS_TOLD - {"opponent"} or _same_number(cell, mine) or \
                    column in ("winner", "opponent") and fold(cell) == fold(mine):
                told = "reads as" if column in _AS_TOLD else "writes"
                raise Refused(f"{source} row {number}: the file says {column} '{cell}', which ginscore "
                              f"{told} '{mine}'; write the cell as ginscore writes it (as an export of it does)")
            if column == "opponent":
                raise Refused(f"{source} row {number}: the file says opponent '{cell}', but its knocker "
                              f"{our['knocker']} played {mine} that hand; correct one of the two cells")
            if column == "hand":  # numbered, not scored: no rule changes it
                raise Refused(f"{source} row {number}: the file says hand {validate.describe(cell)}, "
                              f"but row {number} is hand {mine}; a CSV holds its hands in order from hand 1, "
                              "so put the rows in order and number them so")
            said = f"{source} row {number}: the file says {column} '{cell}', but the hands score '{mine}'"
            if here is not None:  # two records of one session that differ: neither is taken for the other
                raise Refused(f"{said} under the house rules of '{here}' here, so the two records differ (H8); "
                              "bring it in as another session with --as-copy and the options of the rules it was "
                              "played with that differ (like --gin-bonus N)")
            raise ScoresDiffer(f"{said} with these house rules; give the rules it was played with (like "
                               "--gin-bonus 20 or --target 150), or if they changed during play (H8), import its "
                               "JSON export")
