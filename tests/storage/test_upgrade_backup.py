"""The copy kept before an upgrade is written whole or not at all, and a copy an earlier try cut
short never blocks the upgrade."""

import errno
import json
import os
import subprocess
import sys

from ginscore.db import atomic

SCHEMA_1 = {
    "meta": {"1": {"schema_version": 1, "current": "old"}},
    "sessions": {"1": {"name": "old", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
                       "rules": {}, "first_roles": None, "created_at": None,
                       "hands": [{"type": "draw", "upcard": "7H", "recorded_at": None}]}},
}

KILLED_IN_THE_COPY = """
import os, sys
from ginscore.db import atomic
def half(fd, data):  # the first write of an upgrade is its copy: killed halfway through it
    os.write(fd, bytes(data)[: len(data) // 2])
    os._exit(9)
atomic._write_all = half
from ginscore.cli import main
sys.argv = ["ginscore", *sys.argv[1:]]
main()
"""


def _old(db_path) -> bytes:
    old = json.dumps(SCHEMA_1).encode()
    db_path.write_bytes(old)
    return old


def test_a_kill_during_the_copy_leaves_no_partial_copy_and_the_next_write_upgrades(ok, db_path):
    old = _old(db_path)
    backup = db_path.with_name(db_path.name + ".pre-3.bak") / db_path.name
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_THE_COPY, "--db", str(db_path), "hand", "ann", "3", "20"],
                            capture_output=True, env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"})
    assert killed.returncode == 9, killed.stderr
    assert db_path.read_bytes() == old
    assert not backup.exists() or backup.read_bytes() == old  # whole, or not there at all
    ok("hand", "ann", "3", "20")
    assert backup.read_bytes() == old and json.loads(db_path.read_bytes())["meta"]["1"]["schema_version"] == 5


def test_a_copy_an_older_ginscore_left_cut_short_is_made_whole(ok, db_path):
    old = _old(db_path)
    backup = db_path.with_name(db_path.name + ".pre-3.bak") / db_path.name
    backup.parent.mkdir()
    backup.write_bytes(old[:10])
    ok("hand", "ann", "3", "20")
    assert backup.read_bytes() == old
    assert sorted(os.listdir(backup.parent)) == [db_path.name]


def test_a_copy_the_disk_has_no_room_for_leaves_no_part_of_it_behind(ok, cli, db_path, monkeypatch):
    old = _old(db_path)
    backup = db_path.with_name(db_path.name + ".pre-3.bak")
    write_all = atomic._write_all

    def full(fd, data):  # the disk fills halfway through the copy
        write_all(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched:
        patched.setattr(atomic, "_write_all", full)
        result = cli("hand", "ann", "3", "20")
    assert result.exit_code == 1 and "no copy could be kept" in result.stderr, result.stderr
    assert db_path.read_bytes() == old
    assert os.listdir(backup) == []  # no half-written copy (nor its .part) is left in the backup folder
    ok("hand", "ann", "3", "20")
    assert (backup / db_path.name).read_bytes() == old


def test_a_part_file_another_program_makes_meanwhile_is_never_taken_for_the_copy(cli, db_path, monkeypatch):
    """Between removing a part file an earlier try left and writing its own, another program's file
    at that name would have been linked in as the backup copy: the upgrade stops, saying so."""
    old = _old(db_path)
    backup = db_path.with_name(db_path.name + ".pre-3.bak")
    backup.mkdir()
    part = backup / (db_path.name + ".part")
    part.write_bytes(b"an earlier try's")
    unlink = os.unlink

    def and_another_writes(path, *args, **kwargs):
        unlink(path, *args, **kwargs)
        if str(path) == str(part):
            part.write_bytes(b"not ginscore's")

    monkeypatch.setattr(os, "unlink", and_another_writes)
    result = cli("hand", "ann", "3", "20")
    monkeypatch.undo()
    assert result.exit_code == 1 and "just made by another program" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1 and str(db_path) in result.stderr
    assert db_path.read_bytes() == old and part.read_bytes() == b"not ginscore's"
    assert not (backup / db_path.name).exists()


def test_a_link_another_program_puts_at_the_part_files_name_meanwhile_is_the_file_named(cli, db_path, tmp_path,
                                                                                         monkeypatch):
    """Another program puts a symbolic link where the copy's part file is about to be written: the upgrade
    stops (exit 1) naming the link to move away. It named the copy instead, a file that was not there."""
    old = _old(db_path)
    backup = db_path.with_name(db_path.name + ".pre-3.bak")
    backup.mkdir()
    part = backup / (db_path.name + ".part")
    part.write_bytes(b"an earlier try's")
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    unlink = os.unlink

    def and_another_links(path, *args, **kwargs):
        unlink(path, *args, **kwargs)
        if str(path) == str(part):
            part.symlink_to(victim)

    monkeypatch.setattr(os, "unlink", and_another_links)
    result = cli("hand", "ann", "3", "20")
    monkeypatch.undo()
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr == (f"Error: the database {db_path} needs an upgrade, but {part} is a symbolic link; "
                             "move it away\n")
    assert db_path.read_bytes() == old and victim.read_bytes() == b"keep me" and part.is_symlink()
    assert not (backup / db_path.name).exists()

def test_a_name_too_long_for_the_copys_folder_stops_the_upgrade_saying_so(cli, tmp_path):
    """A database named as long as the disk allows, but too long for its copy's folder (`NAME.pre-3.bak`):
    the upgrade cannot keep its copy, so it stops (exit 1) saying why, and the old file is left as it was."""
    db = tmp_path / ("x" * 243 + ".json")
    old = _old(db)
    result = cli("--db", str(db), "hand", "ann", "3", "20")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.stderr
    assert f"needs an upgrade, but {db}.pre-3.bak could not be made: File name too long" in result.stderr
    assert db.read_bytes() == old and sorted(os.listdir(tmp_path)) == [db.name, db.name + ".lock"]
