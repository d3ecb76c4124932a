"""Sessions from elsewhere, matched by session id: `merge`, and what `import` does with an id it knows."""

from __future__ import annotations

import os
import re
from pathlib import Path

import typer

from ..errors import DatabaseUnusable, ExitStatus, GinscoreError, Refused
from ..merging import DIVERGED, EXTENDED, KEPT, compare, free_name, line_of, merged_ending
from ..records import derived_session_id, new_session_id, session_to_dict
from ..shown import visible
from ..summary import as_typed, counted
from ..variants import MAX_NAME, SessionFacts, check_session
from .common import app, _json_option, named_file, _print_json, _store


class Diverged(GinscoreError):
    """Their record of a session and ours differ: refused whole (exit 1), nothing written."""

    status = ExitStatus.DATABASE


def extend(db, doc_id: int, doc: dict, ours: SessionFacts, later) -> SessionFacts:
    """Our session with their later hands added (every hand checked as the commands would)."""
    grown = ours._replace(hands=ours.hands + tuple(later))
    check_session(grown)
    db.replace(doc_id, dict(doc) | {"hands": session_to_dict(grown, rows=True)["hands"]})
    return grown


def import_known(db, facts: SessionFacts, source: str) -> tuple[str, SessionFacts] | None:
    """An imported session whose id is already here: (what happened, the session here), or None
    when the id is new. The same hands or fewer: nothing written; more, with ours as a prefix: the
    later hands added; diverged: refused (exit 1), nothing written."""
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
    if compared.kind == EXTENDED:
        ours = extend(db, doc_id, doc, ours, compared.later)
        if not doc.get("deleted_at"):
            db.make_current(ours.name)
    return compared.kind, ours


@app.command()
def merge(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="Another ginscore database: another machine's copy, a sync "
                               "client's conflicted copy, an old backup.", metavar="FILE"),
    keep_both: bool = typer.Option(False, "--keep-both",
                                   help="Keep their record of a session that differs from ours as a copy, "
                                        "'NAME (merged)', instead of refusing the whole merge."),
    as_json: bool = _json_option(),
) -> None:
    """Bring in the sessions of another ginscore database, matched by session id.

    Sessions only there are added; a session whose hands here are the first
    hands of theirs gets their later hands; one that is the same, or longer
    here, is kept as it is. A session that differs (a hand, or its house rules)
    refuses the whole merge, nothing written, unless --keep-both keeps theirs
    as a copy. Renames and deletions made only there are reported, not
    applied. Merging the same file again changes nothing.

    Example: ginscore merge "club (conflicted copy).json"
    """
    from ..store import Store

    file = named_file(file, "the database file to merge")
    store = _store(ctx)
    other = Store(file)
    shown_file = visible(str(file))
    if store.owns(str(file)) and os.path.exists(file):
        raise Refused(f"{shown_file} is this database (or one of its files); merge another ginscore database")
    if not str(file).strip() or not os.path.lexists(file):
        raise Refused(f"there is no file '{shown_file}'; give the path of another ginscore database")
    theirs_db = other.reading()
    try:
        theirs = _theirs(theirs_db)
    except DatabaseUnusable as error:
        raise _not_mergeable(file, error) from None
    if not theirs_db.storage.raw or not theirs:
        raise Refused(f"{shown_file} holds no ginscore sessions")
    report = {"file": str(file), "added": [], "extended": [], "copied": [], "kept": [], "skipped": []}
    with store.writing() as db:
        here = db.by_id()
        read = {}  # their sessions' facts, each read once
        for session_id, (_, doc) in theirs:
            found = here.get(session_id)
            if found is not None and _same_facts(found[1], doc):  # a copy of ours: nothing to read
                continue
            try:
                read[session_id] = theirs_db.facts_of(doc)  # every field checked, as the database's reader checks it
            except DatabaseUnusable as error:
                raise _not_mergeable(file, error) from None
        ours_kept_there = _our_lines(db, here, read)
        plan, copies = [], set()
        for session_id, (_, doc) in theirs:
            found = here.get(session_id)
            if session_id not in read:
                plan.append((KEPT, doc, None, found, None, None, None))
                continue
            facts = read[session_id]
            if found is None and session_id in ours_kept_there:  # their copy of our record of a session
                found = ours_kept_there[session_id]
                ours = db.facts_of(found[1])
                compared = compare(ours, facts)
                if compared.kind != DIVERGED:  # (its name there is the copy's, not a rename)
                    plan.append((compared.kind, None, facts, found, compared, ours, None))
                    continue
                found = None
            if found is None:
                plan.append(("add", doc, facts, None, None, None, None))
                continue
            ours = first = db.facts_of(found[1])
            compared = told = compare(ours, facts)
            tried = set()
            while compared.kind == DIVERGED:  # a copy an earlier --keep-both kept of this record of theirs
                kept = next((c for c in (copy_id(session_id, facts, compared.hand), _copy_id_before(found[1]))
                             if c in here and c not in tried), None)
                if kept is None:
                    break
                tried.add(kept)
                found = here[kept]
                ours = db.facts_of(found[1])
                compared = compare(ours, facts)
            if compared.kind == DIVERGED and not keep_both:
                raise Diverged(
                    f"session '{visible(first.name)}' is not the same here and in {shown_file}: {told.why}; "
                    "nothing was merged: `ginscore merge --keep-both` keeps theirs as a copy named "
                    f"'{visible(_copy_name(db, facts))}'"
                )
            made = None
            if compared.kind == DIVERGED:
                made = copy_id(session_id, facts, compared.hand)
                if made in here or made in copies or made in read:  # (only a copy edited here since)
                    made = new_session_id()
                copies.add(made)
            plan.append((compared.kind, doc, facts, found, compared, ours, made))
        for kind, doc, facts, found, compared, ours, made in plan:
            if kind == "add":
                report["added"].append(_add(db, doc, facts))
                continue
            doc_id, our_doc = found
            if kind == DIVERGED:
                copy = facts._replace(id=made, match=None, name=_copy_name(db, facts))
                db.add(copy, current=False)
                report["copied"].append({"name": copy.name, "of": ours.name, "hand": compared.hand})
            elif kind == EXTENDED:
                extend(db, doc_id, our_doc, ours, compared.later)
                report["extended"].append({"name": ours.name, "hands_added": len(compared.later),
                                           "hands": len(ours.hands) + len(compared.later)})
            else:
                report["kept"].append({"name": our_doc.get("name"), "hands": _hands_in(our_doc, ours)})
            if doc is not None:
                report["skipped"] += _not_applied(our_doc, doc)
    if as_json:
        _print_json(report)
        return
    _tell(report, shown_file)


def _copy_name(db, facts: SessionFacts) -> str:
    """The name a kept copy of their diverged session gets: always 'NAME (merged)' (a copy, even
    where their name is free here), numbered when that is taken."""
    return free_name(facts.name, lambda n: n == facts.name or db.taken(n), merged_ending, MAX_NAME)


def _add(db, doc: dict, facts: SessionFacts) -> dict:
    """A session only there, added as it is there (a deleted one stays deleted); a name taken
    here by another live session gets ' (merged)'."""
    stored = session_to_dict(facts, rows=True)
    deleted = doc.get("deleted_at")
    if deleted:
        stored["deleted_at"] = deleted
    else:
        stored["name"] = free_name(facts.name, db.taken, merged_ending, MAX_NAME)
    db.insert(stored)
    return {"name": stored["name"], "hands": len(facts.hands), "deleted": bool(deleted)}


def _not_mergeable(file: Path, error: DatabaseUnusable) -> DatabaseUnusable:
    """What is wrong with their file, said of it: never as if it were this database (whose hints,
    like deleting a damaged session, would act here)."""
    return DatabaseUnusable(file, f"cannot be merged: it {error.problem.split('; ')[0]}; nothing was merged")


def _theirs(theirs_db) -> list[tuple[str, tuple[int, dict]]]:
    """Their sessions by id, each id once and each name one `new` would take."""
    from ..fields import text
    from ..store import session_id_of

    found, seen = [], set()
    for n, doc in theirs_db.entries():
        session_id = session_id_of(doc)
        if session_id in seen:
            raise DatabaseUnusable(theirs_db.path, f"holds two sessions with one id ({visible(session_id)})")
        seen.add(session_id)
        try:
            text(doc.get("name"), "session", "name", limit=MAX_NAME)
        except Refused as error:
            raise DatabaseUnusable(theirs_db.path, f"has a session whose {visible(str(error))}")
        found.append((session_id, (n, doc)))
    return found


def copy_id(session_id: str, record: SessionFacts, hand: int | None) -> str:
    """The id of the copy ``--keep-both`` keeps of ``record``, a record of the session ``session_id``
    that parted from ours at ``hand``: made from the id and that record up to where it parted
    (``line_of``), so that merging the same file again, or after it has more hands, finds that
    copy instead of making another; and the other machine, keeping a copy of our record, gives
    it another id (a copy of each record, each under its own id, however often they are merged
    back and forth)."""
    return derived_session_id({}, f"a copy kept by merge of {session_id}: {line_of(record, hand)}")


def _copy_id_before(doc: dict) -> str:
    """The id merge gave a copy of another record of ``doc``'s session before ``copy_id`` (from
    the session's id alone, so the two machines gave their copies one id): still found."""
    return derived_session_id({}, f"a copy kept by merge of {doc.get('id')}")


def _our_lines(db, here: dict, read: dict) -> dict:
    """The ids under which they would keep a copy of our record of each session that parted:
    a session of theirs under one of those ids is our own record, kept there."""
    lines = {}
    for session_id, facts in read.items():
        if session_id in here:
            ours = db.facts_of(here[session_id][1])
            compared = compare(ours, facts)
            if compared.kind == DIVERGED:
                lines[copy_id(session_id, ours, compared.hand)] = here[session_id]
    return lines


def _same_facts(ours: dict, theirs: dict) -> bool:
    """Whether their document is ours but for its name and whether it is deleted (told apart by
    ``_not_applied``): the same stored facts, so nothing of theirs needs reading."""
    told = ("name", "deleted_at")
    return {k: v for k, v in ours.items() if k not in told} == {k: v for k, v in theirs.items() if k not in told}


def _hands_in(doc: dict, facts: SessionFacts | None) -> int:
    if facts is not None:
        return len(facts.hands)
    hands = doc.get("hands")
    return len(hands.split(";")) if isinstance(hands, str) and hands else 0


def _not_applied(our_doc: dict, doc: dict) -> list[dict]:
    """Renames and deletions made only there: told, never applied."""
    skipped = []
    ours = our_doc.get("name")
    named = re.sub(r" \(merged(?: \d+)?\)$", "", ours) if isinstance(ours, str) else ours
    merged_here = named != ours and isinstance(doc.get("name"), str) and doc["name"].startswith(named)
    if doc.get("name") != ours and not merged_here:  # not the name a merge here gave it
        skipped.append({"name": our_doc.get("name"), "why": f"renamed there to '{doc.get('name')}'"})
    if doc.get("deleted_at") and not our_doc.get("deleted_at"):
        skipped.append({"name": our_doc.get("name"), "why": "deleted there"})
    return skipped


def _tell(report: dict, shown_file: str) -> None:
    from .. import render

    counts = [f"{key} {len(report[key])}" for key in ("added", "extended", "copied", "kept", "skipped")
              if report[key] or key in ("added", "kept")]  # each number after its word: they wrap together
    changed = report["added"] or report["extended"] or report["copied"]
    render.say(f"Merged {shown_file}: {', '.join(counts)}." + ("" if changed else " Nothing was changed."))
    for row in report["added"]:
        gone = " (deleted there: added as deleted)" if row["deleted"] else ""
        render.say(f"  added     '{visible(row['name'])}', {counted(row['hands'], 'hand')}{gone}")
    for row in report["extended"]:
        first = row["hands"] - row["hands_added"] + 1
        render.say(f"  extended  '{visible(row['name'])}': hands {first} to {row['hands']} from there"
                   if row["hands_added"] > 1 else f"  extended  '{visible(row['name'])}': hand {first} from there")
    for row in report["copied"]:
        render.say(f"  copied    '{visible(row['name'])}': theirs of '{visible(row['of'])}', which differs"
                   + (f" from hand {row['hand']}" if row["hand"] else ""))
    for row in report["skipped"]:
        render.say(f"  skipped   '{visible(row['name'])}': {visible(row['why'])} (not applied here; "
                   f"`ginscore rename --session {visible(as_typed(row['name']))} NEW` or `ginscore delete` does it)")
