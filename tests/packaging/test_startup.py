"""What a command line loads: only its command's module, openskill only for `ratings`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ginscore.cli import app as cli
from ginscore.cli import registry


@pytest.mark.parametrize("command", [["status"], ["status", "--json"], ["stats"], ["chart"], ["ratings", "--json"]])
def test_only_ratings_imports_openskill(ok, db_path, command):
    """openskill is `ratings`' alone: no other command pays for loading it at start-up."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "98")
    probe = ("import sys; sys.argv = ['ginscore', '--db', sys.argv[1], *sys.argv[2:]]\n"
             "from ginscore.cli import app as cli\n"
             "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'openskill'), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(db_path), *command], capture_output=True, text=True)
    loaded = done.stderr.strip().splitlines()[-1]
    assert ("'openskill'" in loaded) if command[0] == "ratings" else loaded == "[]", loaded


@pytest.mark.parametrize("args, collects", [(["status"], False), (["where"], False),
                                            (["watch", "--once"], True)])
def test_a_one_shot_command_runs_without_the_cyclic_collector_and_watch_with_it(ok, db_path, args, collects):
    """ginscore.cli.main, as the script runs it, switches the collector off for one command (it
    only costs there) and `watch`/`play`, which run for an evening, switch it back on; a test
    calling main(argv) in-process keeps its own."""
    import gc

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert gc.isenabled()
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: sys.stderr.write(f'collecting={gc.isenabled()}\\n'))\n"
             f"sys.argv = ['ginscore', *{args!r}]\n"
             "from ginscore.cli import main\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "GINSCORE_DB": str(db_path)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == f"collecting={collects}"


def test_each_command_is_where_the_command_line_looks_for_it():
    """A command line loads only its command's module (the registry): every command is listed
    there under the module that registers it."""
    cli.every_command()  # every command module loaded, so each command is registered on the app
    app = cli.typer_app.app
    where = {c.name or c.callback.__name__: c.callback.__module__.rsplit(".", 1)[1] for c in app.registered_commands}
    assert where == {command.name: command.module for command in registry.COMMANDS}


def test_a_command_line_loads_only_its_own_commands(tmp_path):
    probe = ("import sys; sys.argv = ['ginscore', '--db', sys.argv[1], 'status', '--json']\n"
             "from ginscore.cli import app as cli\n"
             "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('ginscore.cli.')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "g.json")], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == str([
        "ginscore.cli.actions", "ginscore.cli.app", "ginscore.cli.commands", "ginscore.cli.commands.view",
        "ginscore.cli.messages", "ginscore.cli.options", "ginscore.cli.output", "ginscore.cli.paths",
        "ginscore.cli.registry", "ginscore.cli.starting", "ginscore.cli.stopping", "ginscore.cli.typer_app"])


@pytest.mark.parametrize("command", [["status"], ["status", "--json"], ["watch", "--once"], ["ratings", "--json"],
                                     ["serve", "--help"]])
def test_only_serve_imports_the_web_server(ok, db_path, command):
    """Starlette, uvicorn, segno and ginscore.web are `serve`'s alone, and only once it serves: no
    other command (nor `serve --help`) pays for loading them at start-up."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    probe = ("import sys; sys.argv = ['ginscore', '--db', sys.argv[1], *sys.argv[2:]]\n"
             "from ginscore.cli import app as cli\n"
             "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'segno', 'anyio')"
             " or m.startswith('ginscore.web')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(db_path), *command], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def _commands_with_json() -> list[str]:
    return [name for name, command in cli.every_command().commands.items()
            if any("--json" in getattr(param, "opts", ()) for param in command.params)]


@pytest.mark.parametrize("name", _commands_with_json())
def test_json_for_a_script_never_loads_rich(ok, db_path, tmp_path, name):
    """A script's `--json` pays for no Rich: a command that imported present/ before its `--json` branch
    would load it, and nothing else would tell."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "98")
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Dee", "--dealer", "cy")
    arguments = {"merge": [str(other)], "deadwood": ["AS", "2S", "3S", "KD", "KC", "KH", "5C", "6D", "7H", "9S"]}
    probe = ("import sys; sys.argv = ['ginscore', '--db', sys.argv[1], *sys.argv[2:]]\n"
             "from ginscore.cli import app as cli\n"
             "try:\n    cli.main()\nexcept SystemExit as end:\n    print(end.code, file=sys.stderr)\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'rich'), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(db_path), name, *arguments.get(name, []), "--json"],
                          capture_output=True, text=True)
    status, loaded = done.stderr.strip().splitlines()[-2:]
    assert (status, loaded) == ("0", "[]"), done.stderr
