"""Shared fixtures: every test gets its own database file in tmp_path.

Like llm's tests, an autouse fixture points GINSCORE_DB at a temporary file,
so no test can touch a real score sheet. Every test runs the CLI the way the
installed `ginscore` script does: ``ginscore.cli:main`` with the arguments
(``run_cli``, ``run_main`` in tests/support.py, with the other plain helpers), in-process.

Hypothesis runs under a profile (``tests.profiles``): ``ci`` draws as many
examples as each test asks for (``tests.profiles.examples``) and is what CI
runs (``$CI`` set, or ``HYPOTHESIS_PROFILE=ci``); ``dev``, the default
elsewhere, a fifth of them.
"""

from __future__ import annotations

import json
import signal
from datetime import datetime
from pathlib import Path

import pytest

from ginscore.cli import actions
from tests import profiles
from tests.support import (
    Base,
    Ran,
    database_files,
    names_beside,
    run_cli,
    run_ok,
    stored_sessions,
)

profiles.load()


def pytest_configure(config):
    """Tests that press Ctrl-C on a ginscore process, or hang up on it, need those signals live in
    it. A shell starts a background job (`pytest &`, a CI step run that way) with SIGINT ignored,
    `nohup` starts it with SIGHUP ignored, and every process it starts inherits that: ginscore then
    rightly keeps ignoring them. Give the run Python's own."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    # Any ginscore a test starts, even with an environment made before a test's own fixtures
    # ran, keeps its cache out of the developer's cache folder (each test then sets its own).
    import os
    import tempfile

    config._ginscore_cache = os.environ["GINSCORE_CACHE"] = tempfile.mkdtemp(prefix="ginscore-test-cache-")
    if not hasattr(config, "workerinput"):  # once a run, in the controller (before any worker starts)
        _compile_ginscore()


def pytest_unconfigure(config):
    """The run's cache folder goes with the run (a developer's /tmp gathered one per run and worker)."""
    import shutil

    folder = getattr(config, "_ginscore_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _compile_ginscore() -> None:
    """Leave ginscore's bytecode as `pip install .` does. A machine that sets
    PYTHONDONTWRITEBYTECODE (CI images often do) with an editable install would otherwise compile
    every module again in each of the hundreds of ginscore processes the tests start."""
    import compileall

    import ginscore

    compileall.compile_dir(str(Path(ginscore.__file__).parent), quiet=1)  # the whole package, not one folder


@pytest.fixture(autouse=True)
def db_path(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "ginscore.json"
    monkeypatch.setenv("GINSCORE_DB", str(path))
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cache"))  # never the developer's cache folder
    monkeypatch.delenv("NO_COLOR", raising=False)
    # Human output is laid out for $COLUMNS, else the terminal pytest runs in: fix it
    # so a test never depends on the developer's window (test_screens sets its own).
    monkeypatch.setenv("COLUMNS", "120")
    return path


@pytest.fixture(autouse=True)
def cache_kept_in_use(request, monkeypatch):
    """A command that breaks on parts of its cache is run again without it (for a cache file forged by
    hand), which would hide a real bug that shows only with a warm cache: in a test that forges no cache
    file (marked ``forged_cache``), such a second run fails the test."""
    if request.node.get_closest_marker("forged_cache"):
        return
    from ginscore import cache
    from ginscore.cli import app

    def first_run_only(run, may_run_again=lambda: True):
        def checked():
            if cache.this_run.set_aside:
                pytest.fail("a command broke on its cache's parts and was run again without them")
            return run()

        return cache.run_with_the_cache(checked, may_run_again)

    monkeypatch.setattr(app, "run_with_the_cache", first_run_only)


@pytest.fixture
def cli():
    return run_cli


class _StoppedClock:
    """Stands for ``datetime`` where ginscore reads the time: always ``when``, with its own offset."""

    def __init__(self, when: datetime):
        self.when = when

    def now(self):
        return self

    def astimezone(self):
        return self.when


@pytest.fixture
def clock(monkeypatch):
    """``clock("2026-12-05T13:00:00+09:00")``: what every command records as now from then on, offset and
    all, as a machine in that time zone would at that moment."""

    def set_to(iso: str) -> None:
        monkeypatch.setattr(actions, "datetime", _StoppedClock(datetime.fromisoformat(iso)))

    return set_to


@pytest.fixture
def ok(cli):
    """Run a command that must succeed; return its result."""

    def _ok(*args: str, input: str | None = None) -> Ran:
        result = cli(*args, input=input)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return result

    return _ok


@pytest.fixture
def refused(cli, db_path):
    """Run a command that must be refused: exit 2, one line on stderr, file unchanged."""

    def _refused(*args: str, input: str | None = None, says: str | None = None) -> str:
        before = db_path.read_bytes() if db_path.exists() else None
        every_file, names = database_files(db_path), names_beside(db_path)
        result = cli(*args, input=input)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        assert "Traceback" not in result.stderr + result.stdout
        after = db_path.read_bytes() if db_path.exists() else None
        assert after == before, "a refused command changed the database file"
        assert database_files(db_path) == every_file, "a refused command changed a file of the database"
        assert names_beside(db_path) == names, "a refused command made or removed a file (a lock?)"
        if says is not None:
            assert says.lower() in lines[0].lower(), lines[0]
        return lines[0]

    return _refused


@pytest.fixture
def status(ok):
    def _status(*extra: str) -> dict:
        return ok("status", "--json", *extra).json()

    return _status


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Base:
    db = tmp_path_factory.mktemp("base") / "ginscore.json"
    on = ("--db", str(db))
    run_ok(*on, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "std")
    run_ok(*on, "hand", "ann", "3", "20")
    run_ok(*on, "hand", "ben", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D",
          "--against", "KS KH KD QC JC 10C 9C 5D 4D 6H")
    run_ok(*on, "draw")
    run_ok(*on, "hand", "ann", "9", "7")
    run_ok(*on, "new", "oklahoma", "Ann", "Ben", "--dealer", "ben", "--name", "okla")
    run_ok(*on, "hand", "ann", "3", "20", "--upcard", "9s")
    run_ok(*on, "new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--name", "three")
    run_ok(*on, "hand", "ann", "3", "20")
    exports = {s: json.loads(run_ok(*on, "export", "-s", s, "--format", "json")) for s in ("std", "okla", "three")}
    # kept as ginscore 1.x kept it (schema 2: every session in the one file), so damage is planted in one
    # place; a command reads it as it is, and the first write upgrades it, keeping a damaged session as it was
    stored = stored_sessions(db)
    current = json.loads(db.read_bytes())["meta"]["1"]["current"]  # today: the current session's id
    one_file = {"meta": {"1": {"schema_version": 2,
                               "current": next(d["name"] for d in stored.values() if d["id"] == current)}},
                "sessions": stored}
    return Base(json.dumps(one_file, ensure_ascii=False).encode(), exports["std"], exports["okla"], exports["three"],
                run_ok(*on, "export", "-s", "std"))


@pytest.fixture
def evening(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "2", "12")
    return db_path.read_bytes()
