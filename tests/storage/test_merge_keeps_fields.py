"""`merge` keeps the fields of a session it does not know (a user's own, a later version's), as
every other command does: on a session it adds, and on one it extends."""

import json
import shutil


def _set_field(path, name: str, **fields) -> None:
    data = json.loads(path.read_bytes())
    for doc in data["sessions"].values():
        if doc["name"] == name:
            doc.update(fields)
    path.write_text(json.dumps(data))


def _session(path, name: str) -> dict:
    return next(doc for doc in json.loads(path.read_bytes())["sessions"].values() if doc["name"] == name)


def test_merge_keeps_unknown_fields_on_sessions_it_adds_and_extends(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "shared")
    ok("hand", "ann", "5", "20")
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    ok("--db", str(theirs), "hand", "ben", "3", "30", "--session", "shared")  # extended there
    ok("--db", str(theirs), "new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "only there")
    _set_field(theirs, "shared", venue="the club")
    _set_field(theirs, "only there", venue="the pub", later={"kept": [1, 2]})
    ok("merge", str(theirs))
    added, extended = _session(db_path, "only there"), _session(db_path, "shared")
    assert added["venue"] == "the pub" and added["later"] == {"kept": [1, 2]}
    assert extended["venue"] == "the club" and extended["hands"].count("knock|") == 2  # their hand came too
    ok("merge", str(theirs))  # merging again changes nothing
