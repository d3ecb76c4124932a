"""The installed `ginscore` script and `python -m ginscore`, as a user runs them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from ginscore.cli import registry


def test_python_dash_m_and_console_script(db_path):
    env = {**os.environ, "GINSCORE_DB": str(db_path)}
    done = subprocess.run([sys.executable, "-m", "ginscore", "new", "standard", "Ann", "Ben", "--dealer", "ann"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "ginscore", "status", "--json"], capture_output=True, text=True,
                          env=env)
    assert json.loads(done.stdout)["next_dealer"] == "Ann"
    done = subprocess.run([sys.executable, "-m", "ginscore", "hand", "zed", "1", "2"], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


SCRIPT = Path(sys.executable).parent / "ginscore"  # where pip put the console script of this environment


def _run(db: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "GINSCORE_DB": str(db), "COLUMNS": "100"}
    done = subprocess.run([str(SCRIPT), *args], input=input, capture_output=True, text=True, env=env,
                          cwd=db.parent, timeout=120)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def _ok(db: Path, *args: str, input: str | None = None) -> str:
    done = _run(db, *args, input=input)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


EVERY_COMMAND = [  # in an order that leaves something for the next command to act on
    ["new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday"],
    ["hand", "ann", "4", "22"],
    ["draw"],
    ["edit", "1", "ben", "3", "20"],
    ["undo", "--yes"],
    ["house", "--gin-bonus", "20", "--from-next"],
    ["status"], ["dealer"], ["log"], ["rules"], ["chart"],
    ["export", "--output", "friday.json", "--format", "json"],
    ["import", "friday.json", "--db", "copy.json"],
    ["sessions"], ["use", "friday"], ["where"], ["rename", "friday-night"],
    ["rematch", "--yes"],
    ["delete", "friday-night", "--yes"], ["restore", "friday-night"],
    ["merge", "copy.json"],
    ["stats"], ["history"], ["ratings"], ["ratings", "--chart"],
    ["watch", "--once"],
    ["deadwood", "AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D"],
    ["complete", "players"],
]


def test_the_script_runs_every_command(tmp_path):
    db = tmp_path / "ginscore.json"
    ran = {args[0] for args in EVERY_COMMAND} | {"play", "serve"}  # (tests/web/ run `serve` by this script)
    assert ran == set(registry.NAMES), "a command is missing here"
    for args in EVERY_COMMAND:
        _ok(db, *args)
    assert _ok(db, "--version") == _ok(db, "-V")
    assert "Commands" in _ok(db, "--help")


def test_the_script_says_its_version():
    """What --version says is the installed package's version, and the module's own: one number
    (pyproject.toml reads it from ``ginscore.__version__``), not a second one left behind."""
    from importlib.metadata import version

    import ginscore

    assert _ok(Path(os.devnull), "--version") == f"ginscore {version('ginscore')}\n"
    assert version("ginscore") == ginscore.__version__
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", ginscore.__version__)


PLAY = "\n".join([
    "ann", "4", "22", "",  # hand 1: Ann knocks, confirmed
    ":undo", "y",  # removes hand 1 (asks first)
    ":draw", "",  # hand 1 is a drawn hand
    ":edit 1 ben 3 20",  # ... corrected to a knock by Ben
    "ann", ":back", "ben", "30", "60", "",  # :back at the knocker's deadwood; Ben 30 is over the limit, then gin
    "ben", "0", "90",  # Ben goes gin: 90 + 25 = 115, the game is over
    "",  # confirm it
    "",  # Play a rematch? (Enter: yes)
    ":quit",
]) + "\n"


def test_play_through_undo_edit_draw_back_and_the_rematch(tmp_path):
    db = tmp_path / "ginscore.json"
    _ok(db, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    out = _ok(db, "play", input=PLAY)
    assert "Removed hand 1" in out
    assert "Corrected hand 1" in out
    assert "Rematch of 'friday'" in out
    assert "Stopped. Every hand you confirmed is saved." in out
    sessions = json.loads(_ok(db, "sessions", "--json"))
    assert len(sessions) == 2
    friday = json.loads(_ok(db, "log", "--json", "--session", "friday"))
    assert [(h.get("knocker"), h.get("knocker_deadwood")) for h in friday["hands"]] == [("Ben", 3), ("Ben", 0)]


@pytest.mark.parametrize("typed", ["--db {db} status", "status --db {db}"])
def test_the_script_takes_db_before_or_after_the_command(tmp_path, typed):
    db = tmp_path / "other.json"
    _ok(db, "--db", str(db), "new", "standard", "Cy", "Dee", "--dealer", "cy")
    out = _ok(tmp_path / "unused.json", *typed.format(db=db).split())
    assert "Cy" in out


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_the_installed_one(ok, flag, db_path):
    assert ok(flag).stdout == f"ginscore {version('ginscore')}\n"
    assert not db_path.exists()
