"""A reader that races another command's upgrade of a 2.x database is told to run again, never to
restore the folder from a copy (which would undo the upgrade's write)."""

import shutil
from pathlib import Path

import ginscore.db.upgrade

FIXTURES = Path(__file__).parent.parent / "fixtures"
UPGRADED = b'{"meta":{"1":{"schema_version":4,"current":null}},"sessions":{}}'


def test_a_reader_racing_an_upgrade_is_told_to_run_again(cli, tmp_path, monkeypatch):
    folder = tmp_path / "club"
    shutil.copytree(FIXTURES / "schema3", folder)
    main = folder / "club.json"
    real_read = ginscore.db.upgrade.Old._read

    def upgraded_meanwhile(self, path):  # another command upgrades between the main file and its parts
        if main.read_bytes() != UPGRADED:
            backup = folder / "club.json.pre-3.bak"
            backup.mkdir()
            for part in folder.glob("club.*-*.json"):
                part.rename(backup / part.name)
            main.write_bytes(UPGRADED)
        return real_read(self, path)

    monkeypatch.setattr(ginscore.db.upgrade.Old, "_read", upgraded_meanwhile)
    done = cli("--db", str(main), "sessions")
    assert done.exit_code == 1 and "run the command again" in done.stderr, done.stderr
    assert "restore the folder" not in done.stderr and main.read_bytes() == UPGRADED
