"""`merge`: the sessions of another database, matched by session id (what `import` does with an id it
knows is in cli/matched.py, which both share)."""

import os
import re
from contextlib import suppress
from pathlib import Path

import typer

from ginscore.codec import validate
from ginscore.core.errors import BadHandAt, Command, DatabaseUnusable, GinscoreError, Refused
from ginscore.codec.compare import DIVERGED, EXTENDED, KEPT, Compared, compare
from ginscore.codec.facts import SESSION_ID, derived_session_id, new_session_id, session_to_dict, stored_rows
from ginscore.core.escape import shell_word, visible
from ginscore.core.reports import as_typed, counted
from ginscore.core.replay import check_session, replay
from ginscore.core.session import SessionFacts
from ginscore.core.names import MAX_NAME, free_name, with_ending
from ginscore.db.database import session_id_of
from ginscore.db.store import Store
from ginscore.documents import is_export, MAX_FILE
from ginscore.cli.actions import rematch_news, store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import json_option
from ginscore.cli.output import print_json
from ginscore.cli.matched import Diverged, join_matches, SessionRecord, unknown_fields
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
    with suppress(OSError):  # (one that cannot be read is said so below, as such)
        if os.path.getsize(file) > MAX_FILE:  # refused before a byte is read, as import refuses it
            raise Refused(f"{shown_file} is larger than {MAX_FILE // 2**20} MiB, the most merge reads (a database "
                          "of 100,000 hands is far smaller); give another machine's copy of a ginscore database")
    try:
        theirs_db = Store(file).reading()
        their_docs = _their_docs(theirs_db)
        their_current = _current_name(theirs_db) or None
    except DatabaseUnusable as error:
        raise _not_mergeable(file, shown_file, error) from None
    if not their_docs:  # (an empty file holds none either)
        raise Refused(f"{shown_file} holds no ginscore sessions, so there is nothing to merge; "
                      "give another machine's copy of a database that has some")
    # every change below is committed at the end, or none (a refusal); the sessions changed go in together
    with store.writing() as db, db.changing_many():
        merging = _Merging(db, file, theirs_db, their_docs, keep_both)
        for session_id, doc in their_docs.items():
            _bring_in(merging, session_id, doc)
        news = merging.join_their_matches(their_docs)
        # A database with none current (a new one, merged into) takes theirs if it was added, as `import` would.
        now_current = _here_of(merging, their_docs, their_current) if _current_name(db) is None else None
        if now_current is not None:
            db.make_current(now_current)
            merging.report["made_current"] = {"name": now_current, "name_there": their_current}
    if as_json:
        print_json(merging.report)
        return
    _tell(merging.report, shown_file, merging.played, news)


class _Merging:
    """A merge under way: this database, their file, and what it has done so far (its report, every record here)."""

    def __init__(self, db, file: Path, theirs_db, their_docs: dict[str, dict], keep_both: bool):
        self.db, self.theirs_db, self.keep_both = db, theirs_db, keep_both
        self.file, self.shown_file = file, visible(str(file))
        self.report = {"file": str(file), "added": [], "extended": [], "copied": [], "kept": [], "linked": [],
                       "skipped": [], "made_current": None}
        self.played = {}  # each copy's name: how many of it and its session here have hands (those count in stats)
        self.grown = []  # the document number of each session of report["extended"]
        self.here_by_id = db.by_id()  # every session here, as stored before the merge
        self.records: dict[str, list[SessionRecord]] = {}  # every record here, by the session it is a record of
        self.by_id: dict[str, SessionRecord] = {}  # the same (and those brought in), by its own id
        originals = _legacy_originals(doc for _, doc in self.here_by_id.values())
        for session_id, (doc_id, doc) in self.here_by_id.items():
            original = _original_of(doc, session_id, originals, None)
            self.by_id[session_id] = SessionRecord(db, doc_id, doc)
            self.records.setdefault(original, []).append(self.by_id[session_id])
        for kept in self.records.values():  # the session's own record first, then its copies in the order kept
            kept.sort(key=lambda record: "copy_of" in record.doc)
        self.their_originals = _legacy_originals(their_docs.values())
        self.matches = {}  # their match ids that are ours under another: a session each side rematched is in one match
        for session_id, doc in their_docs.items():
            found = self.here_by_id.get(session_id)
            mine, their = (found[1].get("match") if found else None), doc.get("match")
            if mine and isinstance(their, str) and their and mine != their:  # (any other is refused when read)
                self.matches.setdefault(their, mine)

    def store_theirs(self, original: str, their_doc: dict, facts: SessionFacts) -> None:
        """Store their record as ``facts``, as it is there (deleted, or a copy), where their later records find it."""
        stored = session_to_dict(facts, rows=True) | unknown_fields(their_doc)
        if original != stored["id"]:
            stored["copy_of"] = original
        if their_doc.get("deleted_at"):
            stored["deleted_at"] = their_doc["deleted_at"]
        record = SessionRecord(self.db, self.db.insert(stored), stored, facts)
        self.records.setdefault(original, []).append(record)
        self.by_id[stored["id"]] = record

    def read_theirs(self, session_id: str, doc: dict) -> tuple[SessionFacts, str]:
        """Their record as facts in our id of its match, and the session it is a record of (itself, or one it is a
        copy of); one that does not read, or could not stand here, refuses the whole merge, as `import` does."""
        try:
            facts = self.theirs_db.facts_of(doc)  # every field checked, as the database's reader checks it
            facts = facts._replace(match=self.matches.get(facts.match, facts.match))
            original = _original_of(doc, session_id, self.their_originals, self.theirs_db.path)
        except DatabaseUnusable as error:
            raise _not_mergeable(self.file, self.shown_file, error) from None
        here = self.here_by_id.get(session_id)
        kept = here[1].get("players") if here else None  # (names already here are taken as they are)
        try:
            check_session(facts, kept if isinstance(kept, list) else ())  # (a hand edited there that does not add up)
        except BadHandAt as error:
            why = f"its hand {error.number} does not add up ({str(error.error).split('; ')[0]})"
        except Refused as error:
            why = str(error).split("; ")[0]
        else:
            return facts, original
        raise Refused(f"{self.shown_file} cannot be merged: in its session '{visible(facts.name)}', {why}; "
                      "nothing was merged")

    def join_their_matches(self, their_docs: dict[str, dict]) -> list[tuple]:
        """Join our matches that are one match there (a session moved is told as linked); then what each game their
        hands ended means for its rematch here (read again, not kept from before: its match may just have joined)."""
        linked = {row["name"] for row in self.report["linked"]}
        moved = join_matches(self.db, {session_id: doc.get("match") for session_id, doc in their_docs.items()})
        self.report["linked"] += [{"name": name} for name in moved if name not in linked]
        stored = dict(self.db.entries())
        return [(row["name"], *line) for row, doc_id in zip(self.report["extended"], self.grown) if not row["deleted"]
                for line in rematch_news(self.db, replay(self.db.facts_of(stored[doc_id])), since="the hands merged")]


def _bring_in(merging: _Merging, session_id: str, doc: dict) -> None:
    """Their record of one session: ours kept or extended, theirs added or kept as a copy, ours skipped, or refused."""
    found = merging.here_by_id.get(session_id)
    if found is not None and _same_facts(found[1], doc, merging.matches):  # a copy: nothing to read
        merging.report["kept"].append({"name": found[1].get("name"), "hands": _hands_in(found[1])})
        merging.report["skipped"] += _not_applied(found[1], doc)
        return
    facts, original = merging.read_theirs(session_id, doc)
    ours = merging.records.get(original, [])
    same = merging.by_id.get(session_id)  # ours of this id: outside ``ours`` only if its copy_of was edited
    candidates = ours + ([same] if same is not None and same not in ours else [])
    if not candidates:  # a session only there
        _add_theirs(merging, doc, facts, original)
        return
    closest = _closest(candidates, session_id, facts)
    if closest is None:  # damaged here, every record of it: left as it is, as every command leaves it
        merging.report["skipped"].append({"name": candidates[0].doc.get("name"), "why": DAMAGED_HERE,
                                          "deleted": bool(candidates[0].doc.get("deleted_at"))})
        return
    record, compared = closest
    if compared.kind != DIVERGED:
        _keep_or_extend(merging, record, compared, doc, facts)
    elif same is None and original != session_id:  # a copy `merge --keep-both` kept there of a session here
        _add_theirs(merging, doc, facts, original)
    elif merging.keep_both:  # theirs kept beside ours as a new session 'NAME (merged)', in no match
        copy = facts._replace(id=new_session_id(), match=None, name=_copy_name(merging.db, facts))
        merging.store_theirs(original, doc, copy)
        merging.report["copied"].append({"name": copy.name, "of": record.facts.name, "hand": compared.hand,
                                         "deleted": bool(doc.get("deleted_at"))})
        merging.played[copy.name] = bool(copy.hands) + bool(record.facts.hands)
    else:
        raise Diverged(
            f"session '{visible(record.facts.name)}' is not the same here and in {merging.shown_file}: "
            f"{compared.why}; nothing was merged: ", Command("merge", "--keep-both", shell_word(str(merging.file))),
            f" keeps theirs as a copy named '{visible(_copy_name(merging.db, facts))}'"
        )


def _add_theirs(merging: _Merging, doc: dict, facts: SessionFacts, original: str) -> None:
    """Add a session found only there, as it is there (deleted, or a copy); a name taken here gets ' (merged)'."""
    deleted = bool(doc.get("deleted_at"))
    if not deleted:
        facts = facts._replace(name=free_name(facts.name, merging.db.taken, _merged_ending, MAX_NAME))
    merging.report["added"].append({"name": facts.name, "hands": len(facts.hands), "deleted": deleted})
    merging.store_theirs(original, doc, facts)


def _keep_or_extend(merging: _Merging, ours: SessionRecord, compared: Compared, doc: dict, facts: SessionFacts) -> None:
    """Ours holds their hands, or its hands are the first of theirs: it gets the later ones (and rule changes, H8)."""
    own = ours.doc.get("id") == facts.id  # one record, not a copy either side kept (in no match, named by a merge)
    if own and ours.link_match(facts.match):  # (a rematch made there)
        merging.report["linked"].append({"name": ours.doc.get("name")})
    if compared.kind == KEPT:
        merging.report["kept"].append({"name": ours.doc.get("name"), "hands": len(ours.facts.hands)})
    else:
        ours.extend(compared, doc)
        merging.grown.append(ours.doc_id)
        merging.report["extended"].append({"name": ours.facts.name, "hands_added": len(compared.later),
                                           "hands": len(ours.facts.hands), "deleted": bool(ours.doc.get("deleted_at"))})
    if own:  # their name and deletion: told, not applied
        merging.report["skipped"] += _not_applied(ours.doc, doc)


DAMAGED_HERE = "damaged here, so theirs was not compared"
DELETED_THERE = "deleted there"


def _current_name(db) -> str | None:
    """The current session's name, None when there is none; "" when its name is damaged (current all the same)."""
    try:
        return db.current_name
    except GinscoreError:
        return ""


def _here_of(merging: _Merging, their_docs: dict[str, dict], name: str | None) -> str | None:
    """The name here of their session ``name`` when this merge added it (never deleted there)."""
    return next((merging.by_id[session_id].doc["name"] for session_id, doc in their_docs.items()
                 if name is not None and doc.get("name") == name and not doc.get("deleted_at")
                 and session_id not in merging.here_by_id), None)


def _merged_ending(number: int) -> str:
    """The ending that ``free_name`` gives a copy kept by `merge`."""
    return " (merged)" if number == 1 else f" (merged {number})"


def _copy_name(db, facts: SessionFacts) -> str:
    """The name of a kept copy of their diverged session: 'NAME (merged)', numbered when taken."""
    return free_name(facts.name, lambda n: n == facts.name or db.taken(n), _merged_ending, MAX_NAME)


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


def _closest(ours: list[SessionRecord], session_id: str, facts: SessionFacts) -> tuple[SessionRecord, Compared] | None:
    """The record of ours closest to theirs, and how theirs stands to it; None when all of ours are damaged."""
    readable = []
    for record in ours:
        try:
            readable.append((record, compare(record.facts, facts)))
        except DatabaseUnusable:  # (a damaged session: its facts cannot be read)
            continue
    if not readable:
        return None
    same_id = sorted(readable, key=lambda pair: pair[0].doc.get("id") != session_id)
    kept = [pair for pair in same_id if pair[1].kind == KEPT]
    extended = [pair for pair in same_id if pair[1].kind == EXTENDED]
    return kept[0] if kept else max(extended, key=lambda pair: len(pair[0].facts.hands)) if extended else same_id[0]


def _same_facts(our_doc: dict, their_doc: dict, matches: dict[str, str]) -> bool:
    """Whether their document is ours but for its name and deletion (``_not_applied`` tells those), in our id of
    its match; ours named by something not text (an editor's) is damaged, and is read as such."""
    told = ("name", "deleted_at")
    if isinstance(their_doc.get("match"), str) and their_doc["match"] in matches:
        their_doc = their_doc | {"match": matches[their_doc["match"]]}
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
    sessions = {key: rows for key, rows in report.items()
                if key not in ("file", "linked", "made_current")} | {"skipped": skipped}
    # "kept" (the JSON's word) read as if sessions of ours were dropped: people read "already here"
    counts = [f"{'already here' if key == 'kept' else key} {len(rows)}" for key, rows in sessions.items()
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
    if report["made_current"]:
        here, there = report["made_current"]["name"], report["made_current"]["name_there"]
        named = "" if here == there else f" as '{visible(there)}'"
        say(f"Now keeping score in '{visible(here)}', current there{named} (none was here).")


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
