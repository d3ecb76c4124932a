"""Where the database is: `--db`, `GINSCORE_DB`, the home folder, `~`, `where`."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from ginscore.cli import registry
from tests.support import hands_in, one_error_line


def test_where_and_db_option(ok, db_path, tmp_path):
    assert ok("where").stdout.strip() == str(db_path)
    other = tmp_path / "other.json"
    assert ok("--db", str(other), "where").stdout.strip() == str(other)
    ok("--db", str(other), "new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert other.exists() and not db_path.exists()


def test_default_path_is_app_folder(monkeypatch, ok):
    monkeypatch.delenv("GINSCORE_DB")
    import typer

    assert ok("where").stdout.strip().startswith(typer.get_app_dir("ginscore"))


class _Ran:
    def __init__(self, done: subprocess.CompletedProcess):
        self.exit_code, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr


def _python_m(*args, env: dict | None = None, cwd=None) -> _Ran:
    """The real program in its own process (`python -m ginscore`); a hang fails after 60 s."""
    done = subprocess.run([sys.executable, "-m", "ginscore", *map(str, args)], capture_output=True, text=True,
                          timeout=60, env=env, cwd=cwd)
    return _Ran(done)


def _home_of_user() -> str:
    return pwd.getpwuid(os.getuid()).pw_dir


ENVIRONMENTS = {  # variables set (None: removed) -> the database `where` must print
    "empty GINSCORE_DB": ({"GINSCORE_DB": "", "XDG_CONFIG_HOME": None}, "{home}/.config/ginscore/ginscore.json"),
    "empty XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": ""}, "{home}/.config/ginscore/ginscore.json"),
    "relative XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": "conf"}, "{home}/.config/ginscore/ginscore.json"),
    "absolute XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": "{tmp}/xdg"}, "{tmp}/xdg/ginscore/ginscore.json"),
    "empty HOME": ({"HOME": "", "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
    "empty HOME and XDG_CONFIG_HOME": ({"HOME": "", "XDG_CONFIG_HOME": ""}, "{user}/.config/ginscore/ginscore.json"),
    "relative HOME": ({"HOME": "me", "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
    "HOME unset": ({"HOME": None, "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
}


def _environment(tmp: Path, case: str) -> tuple[dict, str]:
    changes, expected = ENVIRONMENTS[case]
    env = dict(os.environ, HOME=str(tmp / "home"))
    env.pop("GINSCORE_DB")
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value.format(tmp=tmp)
    return env, expected.format(home=tmp / "home", tmp=tmp, user=_home_of_user().rstrip("/"))


@pytest.mark.parametrize("case", ENVIRONMENTS)
def test_an_empty_or_relative_home_never_means_the_current_folder(tmp_path, case):
    env, expected = _environment(tmp_path, case)
    result = _python_m("where", env=env, cwd=tmp_path)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == expected + "\n"
    assert not list(tmp_path.iterdir()) or not (tmp_path / "ginscore").exists()


@pytest.mark.parametrize("case", ["empty HOME and XDG_CONFIG_HOME", "empty XDG_CONFIG_HOME", "empty GINSCORE_DB"])
def test_the_same_in_process_and_the_environment_is_left_as_it_was(cli, tmp_path, monkeypatch, case):
    env, expected = _environment(tmp_path, case)
    for name in ("GINSCORE_DB", "HOME", "XDG_CONFIG_HOME"):
        if name in env:
            monkeypatch.setenv(name, env[name])
        else:
            monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    result = cli("where")
    assert result.exit_code == 0 and result.stdout == expected + "\n"
    assert dict(os.environ) == before


def test_no_home_at_all_is_refused_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("GINSCORE_DB", "XDG_CONFIG_HOME")}
    env["HOME"] = ""
    code = ("import pwd, runpy, sys; pwd.getpwuid = lambda uid: (_ for _ in ()).throw(KeyError(uid));"
            " sys.argv = ['ginscore', 'where']; runpy.run_module('ginscore', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                          cwd=tmp_path)
    line = one_error_line(_Ran(done), 2)
    assert "home folder" in line and "--db" in line
    assert done.stdout == ""
    # `deadwood` needs no database, so it does not care where the home folder is
    code = code.replace("'where'", "'deadwood', 'AS', '2S', '3S', '7H', '7D', '7C', '9H', '10H', 'JH', '2D'")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env,
                          cwd=tmp_path).returncode == 0


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of its own, and a current folder that is not it (where a literal ~ would go)."""
    mine = tmp_path / "home"
    mine.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("HOME", str(mine))
    monkeypatch.chdir(here)
    return mine


@pytest.mark.parametrize("how", ["GINSCORE_DB=~/g.json", "--db=~/g.json", "--db ~/g.json (quoted)"])
def test_a_database_path_starting_with_a_tilde_is_in_the_home_folder(ok, home, monkeypatch, how):
    """`--db=~/g.json` reaches ginscore unexpanded (bash expands no ~ after `--db=`), and so does a
    GINSCORE_DB set in a file: it names ~/g.json, as a shell would read it, not ./~/g.json."""
    args = []
    if how.startswith("GINSCORE_DB"):
        monkeypatch.setenv("GINSCORE_DB", "~/g.json")
    else:
        monkeypatch.delenv("GINSCORE_DB")
        args = ["--db=~/g.json"] if how.startswith("--db=") else ["--db", "~/g.json"]
    assert ok(*args, "where").stdout == f"{home / 'g.json'}\n"
    ok(*args, "new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok(*args, "hand", "ann", "3", "20")
    assert (home / "g.json").is_file() and os.listdir(".") == []
    assert ok("--db", str(home / "g.json"), "status", "--json").json()["totals"] == {"Ann": 17, "Ben": 0}


def test_files_named_with_a_tilde_are_in_the_home_folder(ok, home, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "mine")
    ok("hand", "ann", "3", "20")
    ok("export", "-f", "json", "--output", "~/mine.json")
    assert json.loads((home / "mine.json").read_text(encoding="utf-8"))["session"]["name"] == "mine"
    assert "Already here" in ok("import", "~/mine.json").stdout
    (home / "copy.json").write_bytes(db_path.read_bytes())
    before = db_path.read_bytes()
    ok("merge", "~/copy.json")  # the same sessions: nothing to add
    assert db_path.read_bytes() == before and os.listdir(".") == []


@pytest.mark.parametrize("typed, inside", [("~//g.json", "g.json"), ("~///deep//g.json", "deep/g.json")])
def test_more_slashes_after_the_tilde_stay_in_the_home_folder(ok, home, typed, inside):
    """As in a shell, `~//g.json` is the home's g.json, never /g.json at the filesystem's root."""
    assert os.path.normpath(ok("--db", typed, "where").stdout.strip()) == str(home / inside)


def test_a_folder_named_tilde_here_is_shown_by_its_full_path(ok, home, tmp_path, monkeypatch):
    """`./~/g.json` (a folder named ~ in this folder) is what it says; shown as `~/g.json` it would
    read, and be passed on, as the home folder's."""
    here = Path.cwd()
    assert ok("--db", "./~/g.json", "where").stdout == f"{here / '~' / 'g.json'}\n"
    monkeypatch.setenv("GINSCORE_DB", ok("--db", "./~/g.json", "where").stdout.strip())
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert (here / "~" / "g.json").is_file() and not (home / "g.json").exists()


def test_a_refused_db_before_the_command_gives_way_to_one_after_it(ok, tmp_path):
    """A --db after the subcommand wins (docs/commands.md), even over one before it that is refused."""
    good = tmp_path / "good.json"
    for bad in ("~no-such-user-here/g.json", "games/", " "):
        assert ok("--db", bad, "where", "--db", str(good)).stdout == f"{good}\n"
        assert ok("--db", bad, "deadwood", "AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D").exit_code == 0


@pytest.mark.parametrize("bad", ["", "~no-such-user-here/g.json", "games/"])
def test_deadwood_needs_no_database_wherever_db_is_given(ok, refused, bad):
    """A --db after the subcommand is checked when the file is needed, as one before it is."""
    hand = ["AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D"]
    assert ok("deadwood", *hand, "--db", bad).stdout == ok("--db", bad, "deadwood", *hand).stdout
    assert refused("status", "--db", bad) == refused("--db", bad, "status")


@pytest.mark.parametrize("home_is", ["", "relative/folder"])
def test_a_tilde_is_the_accounts_home_when_home_is_empty_or_relative(ok, monkeypatch, home_is):
    """`$HOME` when it is a full path, else the account's own home (docs/commands.md): never this folder."""
    import pwd

    monkeypatch.setenv("HOME", home_is)
    account = pwd.getpwuid(os.getuid()).pw_dir
    assert ok("--db", "~/g.json", "where").stdout == f"{os.path.join(account, 'g.json')}\n"


@pytest.mark.parametrize("typed, says", [
    ("~no-such-user-here/g.json", "no user named 'no-such-user-here'"),
])
def test_a_tilde_with_no_such_home_is_refused_and_makes_nothing(cli, refused, home, monkeypatch, typed, says):
    for args in (["--db", typed, "new", "standard", "Ann", "Ben"], ["--db=" + typed, "where"]):
        line = refused(*args, says=says)
        assert typed in line and "full path" in line
    monkeypatch.setenv("GINSCORE_DB", typed)
    assert "GINSCORE_DB" in refused("new", "standard", "Ann", "Ben", says=says)
    for args in (["complete", "sessions"], ["--db", typed, "complete", "players"]):  # a TAB never shows an error
        ran = cli(*args)
        assert (ran.exit_code, ran.stdout, ran.stderr) == (0, "", "")
    assert os.listdir(".") == [] and os.listdir(home) == []


def _no_account_entry(uid):
    raise KeyError(f"getpwuid(): uid not found: {uid}")


@pytest.mark.parametrize("home_is", [None, "", "relative"])
def test_a_tilde_for_an_account_the_system_does_not_know_is_refused_never_the_root(refused, home, monkeypatch,
                                                                                   home_is):
    """A container run as a number with no account (`docker --user 4242`) and HOME empty: `--db ~/g.json` was
    the filesystem's root's g.json, not refused as having no home."""
    monkeypatch.setattr(pwd, "getpwuid", _no_account_entry)
    if home_is is None:
        monkeypatch.delenv("HOME")
    else:
        monkeypatch.setenv("HOME", home_is)
    for args in (["--db", "~/g.json", "where"], ["--db", "~/g.json", "new", "standard", "Ann", "Ben"]):
        line = refused(*args, says="starts with ~, but this account has no home folder; give the full path")
        assert "'~/g.json'" in line
    assert os.listdir(".") == [] and os.listdir(home) == [] and not os.path.lexists("/g.json")


def test_an_account_with_no_home_at_all_plays_with_no_cache_anywhere(ok, db_path, home, monkeypatch):
    """No HOME, no account entry, no cache folder named (or one named from a home there is not): every
    command answers as with a cache, and nothing is written outside the database's folder."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    said = {args: ok(*args).stdout for args in (("sessions",), ("stats", "--json"), ("history", "--json"))}
    cached = {kept.name: kept.read_bytes() for kept in (db_path.parent / "cache").iterdir()}
    monkeypatch.setattr(pwd, "getpwuid", _no_account_entry)
    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for cache in (None, "~/cache"):
        if cache is None:
            monkeypatch.delenv("GINSCORE_CACHE")
        else:
            monkeypatch.setenv("GINSCORE_CACHE", cache)
        ok("hand", "ben", "0", "9")
        ok("undo", "--yes")
        assert {args: ok(*args).stdout for args in said} == said
    assert os.listdir(".") == [] and os.listdir(home) == []
    assert {kept.name: kept.read_bytes() for kept in (db_path.parent / "cache").iterdir()} == cached


@pytest.mark.parametrize("args, says", [
    (["--db", "games/", "new", "standard", "Ann", "Ben"], "like games/ginscore.json"),
    (["--db=games/", "where"], "like games/ginscore.json"),
    (["export", "--output", "out/"], "'out/' ends in /"),
    (["import", "in/"], "'in/' ends in /"),
    (["merge", "other/"], "'other/' ends in /"),
])
def test_a_path_ending_in_a_slash_names_a_folder_and_is_refused(ok, refused, tmp_path, monkeypatch, args, says):
    """Python's paths drop a trailing slash: `--db games/` made a file named `games`."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    line = refused(*args, says=says)
    assert "names a folder" in line
    assert sorted(os.listdir(tmp_path)) == before
    monkeypatch.setenv("GINSCORE_DB", "games/")
    assert "GINSCORE_DB 'games/' ends in /" in refused("where")
    assert sorted(os.listdir(tmp_path)) == before


def test_a_cache_folder_starting_with_a_tilde_is_in_the_home_folder(ok, home, monkeypatch):
    monkeypatch.setenv("GINSCORE_CACHE", "~/cache")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    cached = ok("stats", "--json").json()
    assert list((home / "cache").iterdir()) and os.listdir(".") == []
    monkeypatch.setenv("HOME", "")  # no home: no cache, the same answers
    assert ok("stats", "--json").json() == cached


COMMANDS = list(registry.NAMES)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_db_after_its_name(ok, command):
    assert "--db PATH" in ok(command, "--help").stdout


DB_AFTER = [
    ["where", "--db", "{x}"],
    ["where", "--db={x}"],
    ["--db", "{y}", "where", "--db", "{x}"],  # after the command wins
    ["status", "--json", "--db", "{x}"],
    ["status", "--db", "{x}", "--json"],
    ["hand", "ann", "3", "20", "--db", "{x}"],
    ["log", "--db", "{x}", "--json"],
]


@pytest.mark.parametrize("how", ["ginscore.cli.main", "python -m ginscore"])
@pytest.mark.parametrize("args", DB_AFTER, ids=lambda a: " ".join(a))
def test_db_after_the_command_is_the_database_used(cli, tmp_path, db_path, how, args):
    x, y = tmp_path / "x.json", tmp_path / "y.json"
    assert cli("--db", x, "new", "standard", "Ann", "Ben", "--dealer", "Ann").exit_code == 0
    before = x.read_bytes()
    typed = [a.format(x=x, y=y) for a in args]
    result = cli(*typed) if how == "ginscore.cli.main" else _python_m(*typed, env=dict(os.environ, GINSCORE_DB=str(db_path)))
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    if args[0] == "hand":
        assert len(hands_in(x)) == 1
    else:
        assert x.read_bytes() == before
    if "where" in args:
        assert result.stdout == f"{x}\n"
    if "--json" in args:
        assert json.loads(result.stdout)
    assert not db_path.exists() and not y.exists()


@pytest.mark.parametrize("args", [["--db", "", "status"], ["status", "--db", ""], ["export", "-o", ""],
                                  ["import", ""], ["import", " "], ["merge", ""]])
def test_an_empty_file_name_is_refused_the_same_on_every_typer(ok, refused, args):
    """An empty name names no file: one line, exit 2, nothing written (typer 0.28 read it as the
    current folder, 0.29 calls the folder a directory; ginscore says it before either)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    refused(*args, says="an empty name names no file")


def test_ginscore_db_of_only_spaces_is_refused_as_db_of_spaces_is(cli, monkeypatch, tmp_path):
    """An empty GINSCORE_DB is unset (the app folder's file); one of spaces names no file, as
    `--db " "` does not: refused in one line, no file made anywhere."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GINSCORE_DB", "  ")
    for args in (["status"], ["new", "standard", "Ann", "Ben"]):
        line = one_error_line(cli(*args), 2)
        assert "GINSCORE_DB is only spaces" in line
    assert list(tmp_path.iterdir()) == [] or sorted(p.name for p in tmp_path.iterdir()) == ["cache"]
