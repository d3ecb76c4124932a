"""What is said of a stored session that cannot be read or does not add up (edited by hand).

The parts of a message (text, and the ``Command`` it advises): the command line writes them.
A damaged session is left as it is; other sessions keep working.
"""

from __future__ import annotations

import re

from ginscore.codec.facts import session_from_dict
from ginscore.codec.validate import describe
from ginscore.core.errors import BadHandAt, Command, Refused
from ginscore.core.escape import visible
from ginscore.core.replay import Standings, replay
from ginscore.core.reports import as_typed

_HAND_AT = r"\bsession\.hands\[(\d+)\](\.?)"  # (compiled when first used, as re keeps it)


def damaged(doc: dict, error: Refused, aside: str | None = None) -> tuple:
    """What is said of a stored session that does not pass the field checks (the parts of a message):
    a hand by its number on every screen ("hand 1's knocker_deadwood"; the checks name it as an
    export's path does)."""
    why = re.sub(_HAND_AT, lambda found: f"hand {int(found[1]) + 1}" + ("'s " if found[2] else ""), str(error))
    return (f"has a damaged session {describe(doc.get('name'))}: {visible(why)}; ",
            *_left(doc.get("name"), bool(doc.get("deleted_at")), aside))


def unsound(name, error: BadHandAt, deleted: bool = False, aside: str | None = None) -> tuple:
    """What is said of a stored session whose hands do not add up (edited by hand): which hand, and
    why (without the advice given to someone typing that hand)."""
    why = str(error.error).split("; ")[0]
    return (f"has a session {describe(name)} whose hand {error.number} does not add up ({visible(why)}); ",
            *_left(name, deleted, aside))


def replayed(doc: dict, aside: str | None = None) -> tuple[Standings | None, tuple | None]:
    """A stored session read through every field check and replayed: (its standings, None), or
    (None, what is said of it: ``damaged``, or ``unsound`` when its hands do not add up)."""
    try:
        facts = session_from_dict(doc, strict=False)
    except Refused as error:
        return None, damaged(doc, error, aside)
    try:
        return replay(facts), None
    except BadHandAt as error:
        return None, unsound(facts.name, error, bool(doc.get("deleted_at")), aside)


def _left(name, deleted: bool, aside: str | None) -> tuple:
    said = "it was left as it is, other sessions still work (--session NAME), and "
    if aside or deleted:
        return (said + (aside or "it is deleted already (mend it in the file to list or restore it)"),)
    if not isinstance(name, str) or not name.strip():  # no command can name it: only the file can be mended
        return (said + "its name is to be mended in the file (a JSON editor, TinyDB) before it can be set aside",)
    return said, Command("delete", as_typed(name)), " sets it aside"
