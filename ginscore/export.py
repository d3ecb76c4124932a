"""CSV and JSON out, written with the ``csv`` and ``json`` modules (never Rich)."""

from __future__ import annotations

import csv
import io
import json

from .cards import parse_card, parse_cards
from .errors import Refused
from .records import knock_from_cards, session_from_dict, session_to_dict, stored_note
from .rules import BIG_GIN, DRAW, GIN, KNOCK, UNDERCUT, WINNER_DEALS, HouseRules
from .summary import CSV_COLUMNS, csv_rows
from .variants import Draw, Hand, Knock, Roles, SessionFacts, Standings

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORT_VERSION = 2  # 2: deal, stake, notes and the match (issue 10)


def inert(cell):
    """A cell a spreadsheet would run as a formula gets a leading quote (CLI.md).

    A cell that itself starts with a quote gets one more, so that ``_uninert``
    gives any text back exactly (a note like "'=x" or "'tis").
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS + ("'",)):
        return "'" + cell
    return "" if cell is None else cell


def export_csv(standings: Standings) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in csv_rows(standings):
        writer.writerow([inert(cell) for cell in row])
    return buffer.getvalue()


def export_json(facts: SessionFacts) -> str:
    """Everything needed to rebuild the session: its facts, exactly as stored."""
    doc = {"ginscore_export": _format_for(facts), "session": session_to_dict(facts)}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _format_for(facts: SessionFacts) -> int:
    """Format 1 when the session uses nothing 1.0 lacks, so 1.0 still imports it; else 2,
    which 1.0 refuses rather than silently dropping a stake, a deal rule, notes or the match."""
    rules = facts.rules
    newer = rules.deal != WINNER_DEALS or rules.stake or facts.match or any(h.note for h in facts.hands)
    return 2 if newer else 1


# --- back in (``ginscore import``) -------------------------------------------


def _uninert(cell: str) -> str:
    """Undo ``inert``: a quote put before a formula-looking cell (or before a quote)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS + ("'",)):
        return cell[1:]
    return cell


def read_backup(text: str, source: str, *, variant: str | None = None, rules: HouseRules | None = None) -> SessionFacts:
    """A session from a file made by ``export``: JSON (whole) or CSV (hands, then checked).

    ``variant`` and ``rules`` only serve a CSV, which carries neither; the
    JSON export carries both. Raises Refused when the file does not add up.
    """
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if doc is not None:
        if variant is not None or rules is not None:
            raise Refused(f"{source} is a JSON export, which carries its own variant and house rules; leave out those options")
        return _from_json(doc, source)
    return _from_csv(text, source, variant, rules or HouseRules())


def _from_json(doc, source: str) -> SessionFacts:
    if not isinstance(doc, dict) or not isinstance(doc.get("session"), dict) or "ginscore_export" not in doc:
        raise Refused(f"{source} is JSON but not a ginscore export (made by `ginscore export --format json`)")
    version = doc["ginscore_export"]
    if not isinstance(version, int) or version > EXPORT_VERSION:
        raise Refused(f"{source} was exported by a newer ginscore (format {version}); upgrade ginscore to import it")
    try:
        return session_from_dict(doc["session"])
    except Refused as error:
        raise Refused(f"{source}: {error}") from None


def _from_csv(text: str, source: str, variant: str | None, rules: HouseRules) -> SessionFacts:
    reader = csv.reader(io.StringIO(text))
    try:
        table = [[_uninert(cell) for cell in row] for row in reader if row]
    except csv.Error as error:
        raise Refused(f"{source} is neither JSON nor CSV ({error})") from None
    header = table[0] if table else []
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        raise Refused(f"{source} is not a ginscore export: it has no column {', '.join(missing)}")
    if len(table) < 2:
        raise Refused(f"{source} has no hands, so it cannot tell who dealt first; start the session with `ginscore new`")
    games = [c for c in header if c.startswith("game1:")]
    players = tuple(c.split(":", 1)[1] for c in (games or [c for c in header if c.startswith("total:")]))
    found = "hollywood" if games else ("three" if len(players) == 3 else None)
    if found and variant not in (None, found):
        raise Refused(f"{source} holds a {found} session, not {variant}; leave out --variant")
    variant = found or variant or "standard"
    rows = [dict(zip(header, row)) for row in table[1:]]
    hands = tuple(_csv_hand(row, n) for n, row in enumerate(rows, start=1))
    first = rows[0]
    first_dealer, first_roles = first["dealer"], None
    if variant == "three":
        first_dealer = None
        first_roles = Roles(first.get("box", ""), first.get("captain", ""), first.get("out", ""))
    return SessionFacts(
        name="", variant=variant, players=players, rules=rules, first_dealer=first_dealer,
        first_roles=first_roles, hands=hands,
    )


def _csv_hand(row: dict, number: int) -> Hand:
    upcard = parse_card(row["upcard"], rank_only=True) if row.get("upcard") else None
    at = row.get("recorded_at") or None
    try:
        note = stored_note(row.get("note") or None)
    except Refused as error:
        raise Refused(f"row {number}: {error}") from None
    if row["outcome"] == DRAW:
        return Draw(upcard=upcard, recorded_at=at, note=note)
    if row["outcome"] not in (KNOCK, UNDERCUT, GIN, BIG_GIN):
        raise Refused(f"row {number}: unknown outcome '{row['outcome']}'")
    counts = []
    for column in ("knocker_deadwood", "opponent_deadwood"):
        try:
            counts.append(int(row[column]))
        except ValueError:
            raise Refused(f"row {number}: {column} '{row[column]}' is not a whole number") from None
    told = {"upcard": upcard, "big_gin": row["outcome"] == BIG_GIN, "recorded_at": at, "note": note}
    if row.get("knocker_cards"):
        return knock_from_cards(
            row["knocker"], parse_cards(row["knocker_cards"]), parse_cards(row.get("opponent_cards", "")), **told
        )
    return Knock(row["knocker"], counts[0], counts[1], **told)


def check_against_csv(standings: Standings, text: str, source: str) -> None:
    """Refuse a CSV whose scores differ from what its hands score under these rules."""
    table = [[_uninert(cell) for cell in row] for row in csv.reader(io.StringIO(text)) if row]
    header, theirs = table[0], table[1:]
    ours = csv_rows(standings)
    columns = [c for c in ours[0] if c in header and c not in ("recorded_at",)]
    for number, (their_row, our_row) in enumerate(zip(theirs, ours[1:]), start=1):
        their, our = dict(zip(header, their_row)), dict(zip(ours[0], our_row))
        for column in columns:
            mine = "" if our[column] is None else str(our[column])
            if their.get(column, "") != mine:
                raise Refused(
                    f"{source} row {number}: the file says {column} '{their.get(column)}', but the hands score "
                    f"'{mine}' with these house rules; give the rules it was played with "
                    "(like --gin-bonus 20, or --deal loser when the dealers differ)"
                )
