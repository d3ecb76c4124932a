"""A session from elsewhere that is already here, matched by its session id: what `merge` and `import`
both do with it (join its match, take its later hands, keep the fields this ginscore does not know)."""

from functools import cached_property

from ginscore.codec.compare import DIVERGED, EXTENDED, Compared, compare
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


class SessionRecord:
    """One record of a session here, or a copy `--keep-both` kept (``copy_of``); facts read when asked."""

    def __init__(self, db, doc_id: int, doc: dict, facts: SessionFacts | None = None):
        self.db, self.doc_id, self.doc = db, doc_id, doc
        if facts is not None:
            self.facts = facts

    @cached_property
    def facts(self) -> SessionFacts:
        return self.db.facts_of(self.doc)

    def link_match(self, match: str | None) -> bool:
        """This record joins the match theirs is in (a rematch made there), as `rematch` links it; whether it did."""
        if self.doc.get("match") is not None or match is None:
            return False
        self.doc = self.db.whole(self.doc) | {"match": match}
        self.db.replace(self.doc_id, self.doc)
        self.facts = self.facts._replace(match=match)
        return True

    def extend(self, compared: Compared, their_doc: dict | None = None) -> None:
        """Grown by their later hands and rule changes (H8), checked and stored, with their unknown fields it lacks."""
        grown = compared.grown(self.facts)
        check_session(grown, kept=self.facts.players)  # (its players are already here, whatever their names)
        added = {key: value for key, value in unknown_fields(their_doc or {}).items() if key not in self.doc}
        new = session_to_dict(grown, rows=True)
        changed = ("hands", "rule_changes") + (("rules",) if grown.rules != self.facts.rules else ())
        self.doc = dict(self.doc) | added | {key: new[key] for key in changed}
        self.db.replace(self.doc_id, self.doc)
        self.facts = grown


def import_known(db, facts: SessionFacts, source: str) -> tuple[str, SessionFacts, bool, bool, int] | None:
    """What `import` does with a session whose id is here: (what happened, the session here, whether it is
    deleted here, whether it joined the match theirs is in, how many of their hands it took: none when
    only rules agreed there for the next hand came, H8); None if new."""
    found = db.by_id().get(facts.id)
    if found is None:
        return None
    record = SessionRecord(db, *found)
    deleted = bool(record.doc.get("deleted_at"))
    compared = compare(record.facts, facts)
    if compared.kind == DIVERGED:
        raise Diverged(
            f"{source} holds session '{visible(record.facts.name)}' (the same session id), but not as it is here: "
            f"{compared.why}; nothing was imported: `--as-copy` imports it as a new session"
        )
    linked = record.link_match(facts.match)
    if join_matches(db, {facts.id: facts.match}):  # its match here and theirs were two matches here: now one
        linked, record = True, SessionRecord(db, *db.by_id()[facts.id])
    if compared.kind == EXTENDED:
        record.extend(compared)
        if not deleted:
            db.make_current(record.facts.name)
    return compared.kind, record.facts, deleted, linked, len(compared.later)


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
