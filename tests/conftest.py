"""Shared fixtures: every test gets its own database file in tmp_path.

Like llm's tests, an autouse fixture points GINSCORE_DB at a temporary file,
so no test can touch a real score sheet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ginscore.cli import app


@pytest.fixture(autouse=True)
def db_path(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "ginscore.json"
    monkeypatch.setenv("GINSCORE_DB", str(path))
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


def run_cli(*args: str, input: str | None = None) -> Ran:
    """Run the real CLI in-process (CliRunner) on the test's database file."""
    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr, result.exception)


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
        result = cli(*args, input=input)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        assert "Traceback" not in result.stderr + result.stdout
        after = db_path.read_bytes() if db_path.exists() else None
        assert after == before, "a refused command changed the database file"
        if says is not None:
            assert says.lower() in lines[0].lower(), lines[0]
        return lines[0]

    return _refused


@pytest.fixture
def status(ok):
    def _status(*extra: str) -> dict:
        return ok("status", "--json", *extra).json()

    return _status
