"""`merge`: the sessions of another database, matched by session id (what `import` does with an id it
knows is in cli/matched.py, which both share)."""

import os
import re
from pathlib import Path

import typer

from ginscore.codec import validate
from ginscore.core.errors import BadHandAt, Command, DatabaseUnusable, Refused
from ginscore.codec.compare import DIVERGED, EXTENDED, KEPT, compare
from ginscore.codec.facts import SESSION_ID, derived_session_id, new_session_id, session_to_dict, stored_rows
from ginscore.core.escape import shell_word, visible
from ginscore.core.reports import as_typed, counted
from ginscore.core.replay import check_session, replay
from ginscore.core.session import SessionFacts
from ginscore.core.names import MAX_NAME, free_name, with_ending
from ginscore.db.database import session_id_of
from ginscore.db.store import Store
from ginscore.documents import is_export
from ginscore.cli.actions import rematch_news, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import json_option
from ginscore.cli.output import print_json
from ginscore.cli.matched import Diverged, extend, join_matches, link_match, SessionRecord, unknown_fields
from ginscore.cli.paths import named_file


@app.command(short_help="Merge another database.")
def merge(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="Another ginscore database: another machine's copy, a sync "
                               "client's conflicted copy, an old backup.", metavar="FILE"),
    keep_both: bool = typer.Option(False, "--keep-both",
                                   help="Keep their record of a session that differs from ours as a copy, "
                                        "'NAME (merged)', instead of refusing the whole merge."),
    as_json: bool = json_option(),
) -> None:
    """Bring in the sessions of another ginscore database, matched by session id.

    Sessions only there are added; a session whose hands here are the first
    hands of theirs gets their later hands; one that is the same, or longer
    here, is kept as it is. A session that differs (a hand, or its house rules)
    refuses the whole merge, nothing written, unless --keep-both keeps theirs
    as a copy. A session named otherwise there, and a deletion made only
    there, are reported, not applied; a rematch made there links ours into
    its match. Merging the same file again changes nothing.

    Example: ginscore merge "club (conflicted copy).json"
    """
    file = named_file(file, "the database file to merge")
    store = store_of(ctx)
    shown_file = visible(str(file))
    if store.owns(str(file)) and os.path.exists(file):
        raise Refused(f"{shown_file} is this database (or one of its files); merge another ginscore database")
    if not os.path.exists(file):
        link = " (it is a link to a file that is not there)" if os.path.islink(file) else ""
        raise Refused(f"there is no file '{shown_file}'{link}; give the path of another ginscore database")
    try:
        theirs_db = Store(file).reading()
        their_docs = _their_docs(theirs_db)
    except DatabaseUnusable as error:
        raise _not_mergeable(file, shown_file, error) from None
    if not their_docs:  # (an empty file holds none either)
        raise Refused(f"{shown_file} holds no ginscore sessions, so there is nothing to merge; "
                      "give another machine's copy of a database that has some")
    report = {"file": str(file), "added": [], "extended": [], "copied": [], "kept": [], "linked": [], "skipped": []}
    played = {}  # each copy's name: how many of it and its session here have hands (those count in stats)
    grown = []  # the document number of each session of report["extended"]
    # every change below is committed at the end, or none (a refusal); the sessions changed go in together
    with store.writing() as db, db.changing_many():
        here_by_id = db.by_id()
        records, by_id = _records_here(db, here_by_id)
        their_originals = _legacy_originals(their_docs.values())
        matches = _same_matches(here_by_id, their_docs)
        for session_id, doc in their_docs.items():
            found = here_by_id.get(session_id)
            if found is not None and _same_facts(found[1], _in_our_match(doc, matches)):  # a copy: nothing to read
                report["kept"].append({"name": found[1].get("name"), "hands": _hands_in(found[1])})
                report["skipped"] += _not_applied(found[1], doc)
                continue
            try:
                facts = theirs_db.facts_of(doc)  # every field checked, as the database's reader checks it
                facts = facts._replace(match=matches.get(facts.match, facts.match))
                original = _original_of(doc, session_id, their_originals, theirs_db.path)
            except DatabaseUnusable as error:
                raise _not_mergeable(file, shown_file, error) from None
            _refuse_unsound(facts, shown_file)
            our_records = records.setdefault(original, [])
            same = by_id.get(session_id)  # ours of this id: outside our_records only if its copy_of was edited
            if not our_records and same is None:  # a session only there
                _add_theirs(db, doc, facts, original, report, our_records, by_id)
                continue
            candidates = our_records + ([same] if same is not None and same not in our_records else [])
            closest = _closest(candidates, session_id, facts)
            if closest is None:  # damaged here, every record of it: left as it is, as every command leaves it
                report["skipped"].append({"name": candidates[0].doc.get("name"), "why": DAMAGED_HERE,
                                          "deleted": bool(candidates[0].doc.get("deleted_at"))})
                continue
            kind, record, compared = closest
            if kind != DIVERGED and record.doc.get("id") == session_id and link_match(db, record, facts.match):
                report["linked"].append({"name": record.doc.get("name")})
            if kind == DIVERGED and same is None and original != session_id:
                # a copy `merge --keep-both` kept there of a session here: added as that copy
                _add_theirs(db, doc, facts, original, report, our_records, by_id)
                continue
            if kind == KEPT:
                report["kept"].append({"name": record.doc.get("name"), "hands": len(record.facts.hands)})
            elif kind == EXTENDED:
                record.facts, record.doc = extend(db, record.doc_id, record.doc, record.facts, compared, doc)
                grown.append(record.doc_id)
                report["extended"].append({"name": record.facts.name, "hands_added": len(compared.later),
                                           "hands": len(record.facts.hands),
                                           "deleted": bool(record.doc.get("deleted_at"))})
            elif not keep_both:
                raise Diverged(
                    f"session '{visible(record.facts.name)}' is not the same here and in {shown_file}: "
                    f"{compared.why}; nothing was merged: ", Command("merge", "--keep-both", shell_word(str(file))),
                    f" keeps theirs as a copy named '{visible(_copy_name(db, facts))}'"
                )
            else:
                copy = facts._replace(id=new_session_id(), match=None, name=_copy_name(db, facts))
                gone = {"deleted_at": doc["deleted_at"]} if doc.get("deleted_at") else {}  # (deleted there: so here)
                stored = session_to_dict(copy, rows=True) | unknown_fields(doc) | {"copy_of": original} | gone
                our_records.append(SessionRecord(db.insert(stored), stored, copy))
                by_id[copy.id] = our_records[-1]
                report["copied"].append({"name": copy.name, "of": record.facts.name, "hand": compared.hand,
                                         "deleted": bool(gone)})
                played[copy.name] = bool(copy.hands) + bool(record.facts.hands)
            if kind != DIVERGED and record.doc.get("id") == session_id:  # a copy kept took their name and deletion
                report["skipped"] += _not_applied(record.doc, doc)
        linked = {row["name"] for row in report["linked"]}
        moved = join_matches(db, {session_id: doc.get("match") for session_id, doc in their_docs.items()})
        report["linked"] += [{"name": name} for name in moved if name not in linked]
        # A game their hands ended, read again rather than kept from the loop: its match may just have been joined.
        stored = dict(db.entries())
        news = [(row["name"], *line) for row, doc_id in zip(report["extended"], grown) if not row["deleted"]
                for line in rematch_news(db, replay(db.facts_of(stored[doc_id])), since="the hands merged")]
    if as_json:
        print_json(report)
        return
    _tell(report, shown_file, played, news)


def _same_matches(here_by_id: dict, their_docs: dict) -> dict[str, str]:
    """Their match ids that are ours under another: a session each side rematched is in one match."""
    same = {}
    for session_id, doc in their_docs.items():
        found = here_by_id.get(session_id)
        mine, their = (found[1].get("match") if found else None), doc.get("match")
        if mine and isinstance(their, str) and their and mine != their:  # (any other is refused when read)
            same.setdefault(their, mine)
    return same


def _in_our_match(doc: dict, matches: dict[str, str]) -> dict:
    """Their stored session, in our id of its match."""
    match = doc.get("match")
    return doc | {"match": matches[match]} if isinstance(match, str) and match in matches else doc


def _refuse_unsound(facts: SessionFacts, shown_file: str) -> None:
    """Refuse the whole merge when a session of theirs could not stand here (a hand edited there by hand that
    does not add up), as `import` refuses it: brought in, it would stop every list here."""
    try:
        check_session(facts)
    except BadHandAt as error:
        why = f"its hand {error.number} does not add up ({str(error.error).split('; ')[0]})"
    except Refused as error:
        why = str(error).split("; ")[0]
    else:
        return
    raise Refused(f"{shown_file} cannot be merged: in its session '{visible(facts.name)}', {why}; nothing was merged")


DAMAGED_HERE = "damaged here, so theirs was not compared"
DELETED_THERE = "deleted there"


def _merged_ending(number: int) -> str:
    """The ending that ``free_name`` gives a copy kept by `merge`."""
    return " (merged)" if number == 1 else f" (merged {number})"


def _copy_name(db, facts: SessionFacts) -> str:
    """The name of a kept copy of their diverged session: 'NAME (merged)', numbered when taken."""
    return free_name(facts.name, lambda n: n == facts.name or db.taken(n), _merged_ending, MAX_NAME)


def _add_theirs(db, doc: dict, facts: SessionFacts, original: str, report: dict, our_records: list,
                by_id: dict) -> None:
    """Add a session found only there, as it is there (deleted, or a copy); a name taken here gets ' (merged)'."""
    stored = session_to_dict(facts, rows=True) | unknown_fields(doc)
    if original != stored["id"]:
        stored["copy_of"] = original
    deleted = doc.get("deleted_at")
    if deleted:
        stored["deleted_at"] = deleted
    else:
        stored["name"] = free_name(facts.name, db.taken, _merged_ending, MAX_NAME)
    report["added"].append({"name": stored["name"], "hands": len(facts.hands), "deleted": bool(deleted)})
    our_records.append(SessionRecord(db.insert(stored), stored, facts._replace(name=stored["name"])))
    by_id[stored["id"]] = our_records[-1]


def _not_mergeable(file: Path, shown: str, error: DatabaseUnusable) -> Refused:
    """What is wrong with their file, said of it as ``shown`` (never with this database's hints), exit 2."""
    if is_export(file):
        return Refused(f"{shown} is a ginscore export, not a database: ", Command("import", shell_word(str(file))),
                       " brings its session in; nothing was merged")
    return Refused(f"{shown} cannot be merged: it {error.problem.split('; ')[0]}; nothing was merged")


def _their_docs(theirs_db) -> dict[str, dict]:
    """Their sessions by id (``by_id`` refuses an id twice), each name one `new` would take."""
    found = {session_id: doc for session_id, (_, doc) in theirs_db.by_id().items()}
    for doc in found.values():
        try:
            validate.text(doc.get("name"), "session", "name", limit=MAX_NAME)
        except Refused as error:
            raise DatabaseUnusable(theirs_db.path, f"has a session whose {visible(str(error))}")
        if doc["name"].startswith("-"):  # (an older ginscore's, or edited: every command would read it as an option)
            raise DatabaseUnusable(theirs_db.path, f"has a session named '{doc['name']}', which cannot start with '-' "
                                                   "here (every command would read it as an option): rename it there")
    return found


def _records_here(db, here_by_id: dict) -> tuple[dict[str, list[SessionRecord]], dict[str, SessionRecord]]:
    """Every record here, by the session it is a record of, and by its own id."""
    originals = _legacy_originals(doc for _, doc in here_by_id.values())
    records: dict[str, list[SessionRecord]] = {}
    by_id = {}
    for session_id, (doc_id, doc) in here_by_id.items():
        original = _original_of(doc, session_id, originals, None)
        by_id[session_id] = SessionRecord(doc_id, doc, None, db)
        records.setdefault(original, []).append(by_id[session_id])
    for kept in records.values():  # the session's own record first, then its copies in the order kept
        kept.sort(key=lambda record: "copy_of" in record.doc)
    return records, by_id


def _legacy_originals(docs) -> dict[str, str]:
    """The ids merge once gave a kept copy (``_copy_id_before``), and whose copy each is."""
    return {_copy_id_before(doc): session_id_of(doc) for doc in docs}


def _copy_id_before(doc: dict) -> str:
    """The id an older merge gave a kept copy of ``doc``'s session, before copies had ``copy_of``."""
    return derived_session_id({}, f"a copy kept by merge of {doc.get('id')}")


def _original_of(doc: dict, session_id: str, legacy: dict[str, str], path) -> str:
    """The id of the session a stored record is a record of, itself or the session it is a kept copy of
    (``path``: their file, where a bad ``copy_of`` is damage)."""
    original = doc.get("copy_of")
    if original is not None:
        if isinstance(original, str) and SESSION_ID.fullmatch(original):
            return original
        if path is not None:
            raise DatabaseUnusable(path, f"has a session whose copy_of {visible(repr(original))} is not a session id")
    seen = {session_id}
    while session_id in legacy and legacy[session_id] not in seen:
        session_id = legacy[session_id]
        seen.add(session_id)
    return session_id


def _closest(records: list[SessionRecord], session_id: str, facts: SessionFacts) -> tuple[str, SessionRecord, object] | None:
    """How their record of a session stands to the closest of ours; None when all of ours are damaged."""
    compared = []
    for record in records:
        try:
            compared.append((compare(record.facts, facts), record))
        except DatabaseUnusable:  # (a damaged session: its facts cannot be read)
            continue
    if not compared:
        return None
    same_id = sorted(compared, key=lambda pair: pair[1].doc.get("id") != session_id)
    kept = [pair for pair in same_id if pair[0].kind == KEPT]
    extended = [pair for pair in same_id if pair[0].kind == EXTENDED]
    result, record = (kept[0] if kept else max(extended, key=lambda pair: len(pair[1].facts.hands)) if extended
                      else same_id[0])
    return result.kind, record, result


def _same_facts(our_doc: dict, their_doc: dict) -> bool:
    """Whether their document is ours but for its name and deletion (``_not_applied`` tells those); ours
    named by something not text (an editor's) is damaged, and is read as such."""
    told = ("name", "deleted_at")
    return isinstance(our_doc.get("name"), str) and (
        {k: v for k, v in our_doc.items() if k not in told} == {k: v for k, v in their_doc.items() if k not in told})


def _hands_in(doc: dict) -> int:
    """How many hands a stored document holds, counted without reading them."""
    hands = doc.get("hands")
    return len(stored_rows(hands)) if isinstance(hands, str) else 0


def _merged_name(given, name) -> bool:
    """Whether ``given`` is the name a merge gave a session named ``name`` ('NAME (merged N)')."""
    if not isinstance(given, str) or not isinstance(name, str):
        return False
    tail = given[len(re.sub(r" \(merged(?: \d+)?\)$", "", given)):]
    return bool(tail) and with_ending(name, tail, MAX_NAME) == given


def _not_applied(our_doc: dict, doc: dict) -> list[dict]:
    """Renames and deletions made only there: told, never applied."""
    skipped = []
    our_name, their_name = our_doc.get("name"), doc.get("name")
    deleted = bool(our_doc.get("deleted_at"))
    # not the name a merge here gave theirs, nor one a merge there gave ours (either may have renamed it)
    if their_name != our_name and not _merged_name(our_name, their_name) and not _merged_name(their_name, our_name):
        skipped.append({"name": our_name, "why": f"named '{their_name}' there", "deleted": deleted})
    if doc.get("deleted_at") and not deleted:
        skipped.append({"name": our_name, "why": DELETED_THERE, "deleted": deleted})
    return skipped


def _tell(report: dict, shown_file: str, played: dict[str, int], news: list[tuple]) -> None:
    from ginscore.present.console import say  # (Rich: only for words on a screen, never for --json)

    # Each session once: a rename or deletion made only there is of a session counted already.
    skipped = [row for row in report["skipped"] if row["why"] == DAMAGED_HERE]
    sessions = {key: rows for key, rows in report.items() if key not in ("file", "linked")} | {"skipped": skipped}
    counts = [f"{key} {len(rows)}" for key, rows in sessions.items()
              if rows or key in ("added", "kept")]  # each number after its word: they wrap together
    deleted = sum(row["why"] == DELETED_THERE for row in report["skipped"])
    named = len(report["skipped"]) - len(skipped) - deleted  # (which side renamed it cannot be told)
    changes = "".join((f"; {counted(deleted, 'deletion')} made only there not applied" if deleted else "",
                       f"; {counted(named, 'session')} named otherwise there, kept as named here" if named else ""))
    changed = report["added"] or report["extended"] or report["copied"] or report["linked"]
    say(f"Merged {shown_file}: {', '.join(counts)}{changes}." + ("" if changed else " Nothing was changed."))
    for row in report["added"]:
        gone = " (deleted there: added as deleted)" if row["deleted"] else ""
        say(f"  added     '{visible(row['name'])}', {counted(row['hands'], 'hand')}{gone}")
    for row in report["extended"]:
        first = row["hands"] - row["hands_added"] + 1
        hidden = ((" (it is deleted here: ", Command("restore", as_typed(row["name"])), " brings it back)")
                  if row["deleted"] else ())  # (their hands are in it all the same, out of every list)
        what = (f"hands {first} to {row['hands']} from there" if row["hands_added"] > 1
                else f"hand {first} from there" if row["hands_added"]
                else f"the house rules changed there from hand {first} on")  # (no hand: only a rule change, H8)
        say(f"  extended  '{visible(row['name'])}': {what}", *hidden)
    for row in report["linked"]:  # (a session counted already, as kept or extended)
        say(f"  linked    '{visible(row['name'])}': into the match it is in there (a rematch made there)")
    for row in report["copied"]:
        typed = as_typed(row["name"])
        counting = (("; it was deleted there, so it is deleted here (", Command("restore", typed), " brings it back)")
                    if row["deleted"] else
                    (("; neither counts in stats or ratings, having no hands", "; only the one with hands counts in "
                      "stats and ratings", "; both count in stats and ratings until one is deleted")[played[row["name"]]]
                     + " (", Command("delete", typed), " or the other)"))
        say(f"  copied    '{visible(row['name'])}': theirs of '{visible(row['of'])}', which differs"
            + (f" from hand {row['hand']}" if row["hand"] else ""), *counting)
    for row in report["skipped"]:
        say(f"  skipped   '{visible(row['name'])}': {visible(row['why'])} (", *_not_applied_advice(row), ")")
    for name, parts, names in news:  # (an empty rematch here started before their hands ended its game)
        say(f"'{visible(name)}': ", *parts, names=names)


def _not_applied_advice(row: dict) -> tuple:
    """What a user can do about a change of theirs not applied here, or a damaged session, as parts."""
    if row["why"] == DAMAGED_HERE:
        return ("mend it in this file, then merge again",)
    if row["deleted"]:
        return ("not applied here, where it is deleted",)
    typed = as_typed(row["name"])
    if row["why"] == DELETED_THERE:
        return ("not applied here; ", Command("delete", typed), " does it")
    return ("kept as named here; ", Command("rename", "--session", typed, "NEW"), " renames it")
