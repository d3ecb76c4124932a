"""A session from elsewhere that is already here, matched by its session id: what `merge` and `import`
both do with it (join its match, take its later hands, keep the fields this ginscore does not know)."""

from functools import cached_property

from ginscore.codec.compare import DIVERGED, EXTENDED, compare
from ginscore.codec.facts import SESSION_KEYS, session_to_dict
from ginscore.core.errors import ExitStatus, GinscoreError
from ginscore.core.escape import visible
from ginscore.core.replay import check_session
from ginscore.core.session import SessionFacts
from ginscore.db.database import session_id_of


class Diverged(GinscoreError):
    """Their record of a session and ours differ: refused whole (exit 1), nothing written."""

    status = ExitStatus.DATABASE


STORED_KEYS = SESSION_KEYS | {"deleted_at", "copy_of"}  # the fields of a stored session ginscore knows


def unknown_fields(doc: dict) -> dict:
    """The fields of a stored session this ginscore does not know, which every command keeps."""
    return {key: value for key, value in doc.items() if key not in STORED_KEYS}


def extend(db, doc_id: int, doc: dict, ours: SessionFacts, compared, their_doc: dict | None = None) -> tuple[SessionFacts, dict]:
    """Our session grown by their later hands and rule changes (H8), checked, and its document as now
    stored (with fields of ``their_doc`` unknown here that ours lacks)."""
    grown = compared.grown(ours)
    check_session(grown)
    added = {key: value for key, value in unknown_fields(their_doc or {}).items() if key not in doc}
    new = session_to_dict(grown, rows=True)
    changed = ("hands", "rule_changes") + (("rules",) if grown.rules != ours.rules else ())
    stored = dict(doc) | added | {key: new[key] for key in changed}
    db.replace(doc_id, stored)
    return grown, stored


def import_known(db, facts: SessionFacts, source: str) -> tuple[str, SessionFacts, bool, bool] | None:
    """What `import` does with a session whose id is here: (what happened, the session here, whether it is
    deleted here, whether it joined the match theirs is in); None if new."""
    found = db.by_id().get(facts.id)
    if found is None:
        return None
    doc_id, doc = found
    ours = db.facts_of(doc)
    compared = compare(ours, facts)
    if compared.kind == DIVERGED:
        raise Diverged(
            f"{source} holds session '{visible(ours.name)}' (the same session id), but not as it is here: "
            f"{compared.why}; nothing was imported: `--as-copy` imports it as a new session"
        )
    record = SessionRecord(doc_id, doc, ours)
    linked = link_match(db, record, facts.match)
    if join_matches(db, {facts.id: facts.match}):  # its match here and theirs were two matches here: now one
        linked, record.doc = True, db.by_id()[facts.id][1]
        record.facts = ours = db.facts_of(record.doc)
    ours = record.facts
    if compared.kind == EXTENDED:
        ours, _ = extend(db, doc_id, record.doc, ours, compared)
        if not doc.get("deleted_at"):
            db.make_current(ours.name)
    return compared.kind, ours, bool(doc.get("deleted_at")), linked


def link_match(db, record, match: str | None) -> bool:
    """Our record of a session joins the match theirs is in (a rematch made there), as `rematch` links it;
    whether it did."""
    if record.doc.get("match") is not None or match is None:
        return False
    record.doc = db.whole(record.doc) | {"match": match}
    db.replace(record.doc_id, record.doc)
    record.facts = record.facts._replace(match=match)
    return True


def join_matches(db, theirs: dict[str, str | None]) -> list[str]:
    """Our matches that hold sessions of one match there become one: the same game rematched on two
    machines, its rematches brought here apart (one by `import`, one by a merge of a third machine's
    file). ``theirs``: their session ids and match ids. Every session of them takes the least id;
    the names of the live sessions that moved."""
    here = {session_id_of(doc): (n, doc) for n, doc in db.entries()}  # outlines are enough: each has its match
    used = {doc.get("match") for _, doc in here.values()} - {None}
    joined: dict[str, str] = {}  # a match id here -> the one it joins

    def root(match: str) -> str:
        while match in joined:
            match = joined[match]
        return match

    groups: dict[str, set] = {}  # their match id -> our ids of its sessions' matches
    for session_id, match in theirs.items():
        ours = here.get(session_id, (None, {}))[1].get("match")
        if match is not None:
            groups.setdefault(match, {match} & used).update({ours} - {None})
    for ids in groups.values():
        for one, other in zip(sorted(ids), sorted(ids)[1:]):
            low, high = sorted((root(one), root(other)))
            if low != high:
                joined[high] = low
    moved = []
    for n, doc in here.values():
        if doc.get("match") in joined:
            db.replace(n, db.whole(doc) | {"match": root(doc["match"])})
            moved += [] if doc.get("deleted_at") else [doc.get("name")]
    return moved


class SessionRecord:
    """One record of a session here, or a copy `--keep-both` kept (``copy_of``); facts read when asked."""

    def __init__(self, doc_id: int, doc: dict, facts: SessionFacts | None, db=None):
        self.doc_id, self.doc, self.db = doc_id, doc, db
        if facts is not None:
            self.facts = facts

    @cached_property
    def facts(self) -> SessionFacts:
        return self.db.facts_of(self.doc)
