"""A lock file that cannot be made (a folder this user may not write): said as the database being out
of reach, naming the lock, not as a lock file to remove (there is none)."""

import errno

import ginscore.db.lock


def test_a_lock_that_cannot_be_made_is_not_called_a_file_to_remove(cli, db_path, monkeypatch):
    real_open = ginscore.db.lock.os.open

    def open_in_a_read_only_folder(path, flags, *mode):
        if str(path).endswith(".lock"):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, flags, *mode)

    monkeypatch.setattr(ginscore.db.lock.os, "open", open_in_a_read_only_folder)
    result = cli("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert result.exit_code == 1, result.stderr
    assert result.stderr == (f"Error: the database {db_path} cannot be locked or reached: its lock file "
                             f"{db_path}.lock cannot be made or opened: Permission denied\n")
    assert not db_path.exists()
