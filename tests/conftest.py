"""Shared fixtures: every test gets its own database file in tmp_path.

Like llm's tests, an autouse fixture points GINSCORE_DB at a temporary file,
so no test can touch a real score sheet. Every test runs the CLI the way the
installed `ginscore` script does: ``ginscore.cli:main`` with the arguments
(``run_cli``, ``run_main``), in-process.

Hypothesis runs under a profile (``tests.profiles``): ``ci`` draws as many
examples as each test asks for (``tests.profiles.examples``) and is what CI
runs (``$CI`` set, or ``HYPOTHESIS_PROFILE=ci``); ``dev``, the default
elsewhere, a fifth of them.
"""

from __future__ import annotations

import json
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ginscore.cli import app as ginscore_cli
from tests import profiles

profiles.load()


def pytest_configure(config):
    """Tests that press Ctrl-C on a ginscore process need Ctrl-C live in it. A shell starts a
    background job (`pytest &`, a CI step run that way) with SIGINT ignored, and every process it
    starts inherits that: ginscore then rightly keeps ignoring it. Give the run Python's own."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
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

    compileall.compile_dir(str(Path(ginscore_cli.__file__).parent), quiet=1)


def script_module(path: Path):
    """A script of the repository (``benchmarks/``, ``docs/``, ``completions/``: not a package) as a
    module, registered under its name as an import would (dataclasses look their module up there)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


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


@dataclass
class Ran:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    def json(self):
        return json.loads(self.stdout)


def run_main(args) -> int:
    """``ginscore ARGS`` as the installed script runs it (``ginscore.cli:main``), on the streams
    as they are; its exit status. An exception that is not an exit is raised, as a traceback."""
    try:
        ginscore_cli.main([str(a) for a in args])
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    raise AssertionError("ginscore.cli.main returned without an exit status")


def run_cli(*args: str, input: str | None = None) -> Ran:
    """Run the real CLI in-process, as the installed script does, on the test's database file:
    ``input`` is typed at it, and what it writes to each stream is kept apart."""
    with CliRunner().isolation(input=input) as (stdout, stderr, _both):
        status = run_main(args)
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = _text(stdout), _text(stderr)
    return Ran(status, out, err, SystemExit(status) if status else None)


def _text(stream) -> str:
    return stream.getvalue().decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.fixture
def cli():
    return run_cli


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
        every_file, names = database_files(db_path), _names_beside(db_path)
        result = cli(*args, input=input)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        assert "Traceback" not in result.stderr + result.stdout
        after = db_path.read_bytes() if db_path.exists() else None
        assert after == before, "a refused command changed the database file"
        assert database_files(db_path) == every_file, "a refused command changed a file of the database"
        assert _names_beside(db_path) == names, "a refused command made or removed a file (a lock?)"
        if says is not None:
            assert says.lower() in lines[0].lower(), lines[0]
        return lines[0]

    return _refused


@pytest.fixture
def status(ok):
    def _status(*extra: str) -> dict:
        return ok("status", "--json", *extra).json()

    return _status


def stored_sessions(db_path: Path) -> dict:
    """Every session's stored facts, by TinyDB document id, read with TinyDB itself (as a
    person's own script would read the file)."""
    from tinydb import TinyDB

    with TinyDB(db_path, access_mode="r", encoding="utf-8") as db:
        return {str(doc.doc_id): dict(doc) for doc in db.table("sessions").all()}


def _names_beside(db_path: Path) -> list[str]:
    """What is in the database's folder (and whether the folder is there), its lock too; not the cache."""
    folder = db_path.parent
    return sorted(p.name for p in folder.iterdir() if p.name != "cache") if folder.exists() else ["(no folder)"]


def database_files(db_path: Path) -> dict[str, bytes]:
    """The bytes of every file in the database's folder but its lock (the cache lives elsewhere)."""
    return {p.name: p.read_bytes() for p in db_path.parent.iterdir()
            if p.is_file() and not p.name.endswith(".lock")}


def edit_every_file(db_path: Path, old: str, new: str) -> None:
    """What another program editing the database by hand does: ``old`` made ``new`` in it."""
    db_path.write_text(db_path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def facts_bytes(db_path: Path) -> list[bytes]:
    """The bytes that hold the facts: the one database file."""
    return [db_path.read_bytes()]


def put_back(db_path: Path, files: dict[str, bytes]) -> None:
    """Make the database's folder exactly ``files`` (from ``database_files``) again."""
    for name in set(database_files(db_path)) - set(files):
        (db_path.parent / name).unlink()
    for name, data in files.items():
        (db_path.parent / name).write_bytes(data)
