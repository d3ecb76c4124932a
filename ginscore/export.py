"""CSV and JSON out, written with the ``csv`` and ``json`` modules (never Rich)."""

from __future__ import annotations

import csv
import io
import json

from .records import session_to_dict
from .summary import csv_rows
from .variants import SessionFacts, Standings

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORT_VERSION = 1


def inert(cell):
    """A cell a spreadsheet would run as a formula gets a leading quote (CLI.md)."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
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
    doc = {"ginscore_export": EXPORT_VERSION, "session": session_to_dict(facts)}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
