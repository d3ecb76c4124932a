"""Completion scripts are generated from the app and never stale; every
command has help with an example (like sqlite-utils' test_docs.py)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from ginscore.cli import app

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(typer.main.get_command(app).commands)
CONTRACT = ["new", "hand", "draw", "status", "dealer", "log", "undo", "edit", "export", "sessions", "use",
            "rematch", "rules", "where"]


def _generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "completions" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_command_of_the_contract_exists():
    assert set(CONTRACT) <= set(COMMANDS)


@pytest.mark.parametrize("name, text", sorted(_generator().render_all().items()))
def test_completion_script_is_not_stale(name, text):
    on_disk = (ROOT / "completions" / name).read_text()
    assert on_disk == text, f"completions/{name} is stale: run python completions/generate.py"


def test_completion_scripts_know_every_command_and_variant():
    for name in ("ginscore.bash", "_ginscore", "ginscore.fish"):
        text = (ROOT / "completions" / name).read_text()
        for command in COMMANDS:
            assert command in text
        assert "standard oklahoma hollywood three" in text


def test_bash_completion_completes_commands_and_choices():
    script = ROOT / "completions" / "ginscore.bash"
    probe = (
        f"source {script}; COMP_WORDS=(ginscore new ''); COMP_CWORD=2; _ginscore; echo ${{COMPREPLY[@]}}; "
        "COMP_WORDS=(ginscore un); COMP_CWORD=1; _ginscore; echo ${COMPREPLY[@]}"
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["standard oklahoma hollywood three", "undo"]


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_zsh_script_parses():
    subprocess.run(["zsh", "-n", str(ROOT / "completions" / "_ginscore")], check=True)


@pytest.mark.skipif(not shutil.which("fish"), reason="fish is not installed")
def test_fish_script_parses():
    subprocess.run(["fish", "-n", str(ROOT / "completions" / "ginscore.fish")], check=True)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(ok, command):
    out = ok(command, "--help").stdout
    assert "Example:" in out, f"`ginscore {command} --help` shows no example"


def test_top_level_help_lists_commands(ok):
    out = ok("--help").stdout
    for command in CONTRACT:
        assert command in out
    assert ok().stdout == out  # bare `ginscore` shows the same help
