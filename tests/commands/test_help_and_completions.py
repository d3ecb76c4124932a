"""`--help` of every command, and the bash, zsh and fish completions (`ginscore complete`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

import pytest

from ginscore.cli import app as cli
from ginscore.cli import registry
from tests.support import BIN, ROOT, bash_after, bash_offers, script_module

COMMANDS = sorted(cli.every_command().commands)  # the whole app, as `ginscore --help` builds it


CONTRACT = ["new", "hand", "draw", "status", "dealer", "log", "undo", "edit", "export", "sessions", "use",
            "rematch", "rules", "where"]


def _generator():
    return script_module(ROOT / "completions" / "generate.py")


def test_every_command_of_the_contract_exists():
    assert set(CONTRACT) <= set(COMMANDS)


@pytest.mark.parametrize("name, text", sorted(_generator().render_all().items()))
def test_completion_script_is_not_stale(name, text):
    on_disk = (ROOT / "completions" / name).read_text()
    assert on_disk == text, f"completions/{name} is stale: run python completions/generate.py"


def test_completion_scripts_offer_every_command_and_variant():
    """The commands each script offers after `ginscore `, read from the script: every visible one, in order."""
    visible = [c.name for c in registry.COMMANDS if not c.hidden]
    scripts = {name: (ROOT / "completions" / name).read_text() for name in ("ginscore.bash", "_ginscore", "ginscore.fish")}
    bash = re.search(r'compgen -W "(new [^"]*)"', scripts["ginscore.bash"])[1].split()
    assert [word for word in bash if not word.startswith("-")] == visible
    assert re.findall(r"^\s*'([a-z]+):", scripts["_ginscore"], re.M)[:len(visible)] == visible
    assert re.findall(r"__fish_use_subcommand' -a (\S+)", scripts["ginscore.fish"]) == visible
    for text in scripts.values():
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


@pytest.mark.skipif(not shutil.which("fish"), reason="fish is not installed")
def test_fish_describes_commands_and_options_in_the_words_of_their_help():
    """Apostrophes, colons and brackets are quoted for the shell, not left out ("List the sessions hands.")."""
    script = ROOT / "completions" / "ginscore.fish"

    def described(line: str) -> dict[str, str]:
        ran = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C {shlex.quote(line)}"],
                             capture_output=True, text=True, timeout=60, check=True)
        return dict(row.split("\t", 1) for row in ran.stdout.splitlines() if "\t" in row)

    commands = described("ginscore ")
    assert commands["log"] == "List the session's hands." and commands["where"] == "Print the database's path."
    assert described("ginscore export --")["--excel"].startswith("CSV for a spreadsheet: a byte-order mark")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(ok, command):
    out = ok(command, "--help").stdout
    assert "Example:" in out, f"`ginscore {command} --help` shows no example"


HELP_WIDTHS = (30, 38, 40, 45, 52, 69, 70, 80, 100, 160)


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash to read the examples")
def test_every_help_example_pasted_into_a_shell_is_a_command_it_reads(ok, monkeypatch):
    """`hand --help` showed "ginscore hand ann 4 22   (Ann knocked with 4, Ben had 22)", which pasted whole
    is a syntax error: what an example says of itself is a shell comment."""
    monkeypatch.setenv("COLUMNS", "100")
    for command in COMMANDS:
        shown = ok(command, "--help").stdout
        example = " ".join(shown[shown.index("Example:") + len("Example:"):].split("\n\n")[0].split())
        assert example.startswith(f"ginscore {command}"), (command, example)
        read = subprocess.run(["bash", "-n", "-c", example], capture_output=True, text=True)
        assert read.returncode == 0, (command, example, read.stderr)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_value_in_help_is_named_in_words(ok, command):
    """`--name <str>` and `--target <int>` stood beside `--session NAME` and `--stake AMOUNT`: a value is
    named for what it is (NAME, PLAYER, POINTS, FILE, N), never by a programming type."""
    shown = ok(command, "--help").stdout
    assert not re.search(r"<(str|int|float|text|path)>|\b(INTEGER|FLOAT)\b", shown), shown


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_fits_the_screen_at_every_width_with_no_trailing_spaces(ok, monkeypatch, command):
    """`--help` follows COLUMNS (click alone never goes below 50 columns, and its option column
    keeps 44): every line fits, none ends in a space, no word is parted at a hyphen, an example
    keeps each option with its value and a quoted name whole (`house --gin-bonus` / `20` and
    `merge "club` / `(conflicted copy).json"` were parted, so a command copied from a phone failed);
    at 80 and wider, click's own 78."""
    widest = {}
    for width in HELP_WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        out = ok(*([command] if command else []), "--help").stdout
        lines = out.splitlines()
        assert "Usage: ginscore" in out and len(lines) > 3
        for line, following in zip(lines, [*lines[1:], ""]):
            assert len(line) <= max(width - 2, 20), (width, line)
            assert line == line.rstrip(), (width, line)
            # no word parted at a hyphen: "--no-" / "shutout", "tonight-" / "finals.csv" (an example)
            assert not (re.search(r"[a-z]-$", line) and re.match(r"\s*[a-z]", following)), (width, line, following)
        example = out[out.index("Example:"):].split("\n\n")[0].splitlines()
        for line, following in zip(example, example[1:]):
            assert not (re.search(r"--[a-z-]+$", line) and re.match(r"\s*[^-\s]", following)), (width, line, following)
        if width >= 40:  # (below, the quoted name of merge's example is wider than the screen)
            assert all(line.count('"') % 2 == 0 for line in example), (width, example)
        widest[width] = max(len(line) for line in lines)
    assert widest[160] == widest[100] <= 78 and widest[40] <= 38


@pytest.mark.parametrize("width", [80, 40])
def test_the_list_of_commands_says_each_in_one_whole_sentence(ok, monkeypatch, width):
    """`ginscore --help` lists each command with a short sentence of its own, never one cut
    with "...", on one line at 80 columns and on a phone's 40."""
    monkeypatch.setenv("COLUMNS", str(width))
    listed = ok("--help").stdout.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == [c for c in cli.every_command().commands if c != "complete"]
    for line in listed:
        words = line.split(None, 1)[1]
        assert "..." not in words and words.endswith(".") and words[0].isupper(), (width, line)


def test_top_level_help_lists_commands(ok):
    out = ok("--help").stdout
    for command in CONTRACT:
        assert command in out
    assert ok().stdout == out  # bare `ginscore` shows the same help


def _evening(ok):
    """Two sessions; the second (current) has a name with a space and one with an accent."""
    ok("new", "standard", "Mary Jane", "Ann", "--dealer", "ann", "--name", "friday night")
    ok("new", "three", "José", "Bob", "O'Neil", "--box", "bob", "--captain", "jos")


def _bash(*words: str) -> list[str]:
    """COMPREPLY after TAB at the end of ``words`` in a real bash, then each reply read back by bash."""
    return bash_offers(*words)


def test_bash_completes_the_players_of_the_current_session(ok):
    _evening(ok)
    assert _bash("ginscore", "hand", "") == ["José|José", "Bob|Bob"]  # O'Neil sits out: cannot knock (R22)
    assert _bash("ginscore", "hand", "jo") == ["José|José"]  # any case, as names are matched
    assert _bash("ginscore", "edit", "2", "b") == ["Bob|Bob"]  # edit's KNOCKER comes after N
    assert _bash("ginscore", "hand", "bob", "") == []  # deadwood counts: nothing to offer


def test_bash_completes_session_names_and_passes_on_session_and_db(ok, tmp_path):
    _evening(ok)
    assert _bash("ginscore", "use", "") == ["friday\\ night|friday night", "three-1|three-1"]
    assert _bash("ginscore", "use", "'fr") == ["'friday night'|friday night"]
    assert _bash("ginscore", "status", "--session", "") == ["friday\\ night|friday night", "three-1|three-1"]
    assert _bash("ginscore", "hand", "--session", "friday\\ night", "m") == ["Mary\\ Jane|Mary Jane"]
    other = tmp_path / "other.json"
    ok("--db", other, "new", "standard", "Cy", "Dee", "--dealer", "cy")
    assert _bash("ginscore", "--db", str(other), "hand", "") == ["Cy|Cy", "Dee|Dee"]
    assert _bash("ginscore", "stats", "") == [  # everyone who ever played
        "Ann|Ann", "Bob|Bob", "José|José", "Mary\\ Jane|Mary Jane", "O\\'Neil|O'Neil"]


def test_restore_completes_the_deleted_sessions_only(ok):
    """`restore` takes a deleted session's name, so its TAB offers those, each name once."""
    _evening(ok)
    ok("delete", "friday night", "--yes")
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy", "--name", "friday night")
    ok("delete", "friday night", "--yes")
    assert ok("complete", "deleted").stdout == "friday night\n"
    assert _bash("ginscore", "restore", "") == ["friday\\ night|friday night"]
    assert _bash("ginscore", "use", "") == ["three-1|three-1"]


def test_bash_offers_an_options_values_right_after_its_equals_sign(ok):
    """`--format=` then TAB: bash gives the word "=", and readline puts what is offered after it."""
    _evening(ok)
    assert _bash("ginscore", "export", "--format", "=") == [f"{v}|{v}" for v in ("csv", "json", "html", "svg")]
    assert _bash("ginscore", "export", "--format", "=", "j") == ["json|json"]
    assert _bash("ginscore", "hand", "--session", "=") == ["friday\\ night|friday night", "three-1|three-1"]


@pytest.mark.skipif(not shutil.which("bash"), reason="bash is not installed")
def test_an_interactive_bash_completes_after_an_equals_sign_and_inside_a_name_with_a_colon(ok):
    """Where readline puts a reply, typed at a real prompt: after '--format=' (bash gives the word '='),
    and in a name holding ':' (bash parts the word at the colon, and replaces only what follows it)."""
    _evening(ok)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "pub: 3")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "fri 20:00")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    json_format, session, listed, pub, pub_quoted, at_eight, colon_pinned = bash_after(
        env, "ginscore export --format=j\t", "ginscore hand --session=th\t", "ginscore export --format=\t\t",
        "ginscore use pub:\t", "ginscore use 'pub:\t", "ginscore use fri\\ 20:\t", "ginscore status --session=pub:\t")
    assert json_format.endswith("ginscore export --format=json")
    assert session.endswith("ginscore hand --session=three-1")
    assert listed.splitlines()[-2].split() == ["csv", "html", "json", "svg"]  # the four listed,
    assert listed.splitlines()[-1].endswith(" ginscore export --format=")  # the line left as typed (one '=')
    assert pub.endswith("ginscore use pub:\\ 3") and pub_quoted.endswith("ginscore use 'pub: 3'")
    assert at_eight.endswith("ginscore use fri\\ 20:00")
    assert colon_pinned.endswith("ginscore status --session=pub:\\ 3")


def test_bash_offers_the_players_typed_on_a_new_line_for_the_first_seats():
    assert _bash("ginscore", "new", "three", "Al", "Bo b", "Cy", "--box", "") == ["Al|Al", "Bo\\ b|Bo b", "Cy|Cy"]
    assert _bash("ginscore", "new", "") == [f"{v}|{v}" for v in ("standard", "oklahoma", "hollywood", "three")]


def test_complete_never_fails_loudly_and_never_writes(cli, ok, db_path):
    assert cli("complete", "players").stdout == ""  # no file yet
    assert not db_path.exists()
    _evening(ok)
    assert ok("complete", "sessions").stdout == "friday night\nthree-1\n"
    assert ok("complete", "players", "--session", "fri").stdout == "Mary Jane\nAnn\n"
    for broken in ("players --session nope", "nonsense"):
        result = cli("complete", *broken.split())
        assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    db_path.write_text("{damaged")
    result = cli("complete", "sessions")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert db_path.read_text() == "{damaged"


def test_complete_is_not_listed_for_people(ok):
    assert "complete" not in ok("--help").stdout.split()


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_zsh_completes_players_and_sessions(ok, tmp_path):
    _evening(ok)
    other = tmp_path / "other file.json"
    ok("--db", other, "new", "standard", "Cy", "Dee", "--dealer", "cy")

    def offered(line: str) -> list[str]:
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
        ran = subprocess.run(["zsh", "-f", str(ROOT / "tests" / "zsh_capture.zsh"), str(ROOT / "completions"), line],
                             capture_output=True, text=True, env=env, timeout=60)
        return [re.sub(r"\\(.)", r"\1", hit) for hit in re.findall(r"<HIT>(.*?)</HIT>", ran.stdout)]

    assert offered("ginscore hand ") == ["José", "Bob"]  # O'Neil sits out: cannot knock (R22)
    assert offered("ginscore use ") == ["friday night", "three-1"]
    assert offered("ginscore hand --session fri m") == ["Mary Jane"]
    assert offered("ginscore new three Al 'Bo b' Cy --captain ") == ["Al", "Bo b", "Cy"]
    assert offered("ginscore stats ") == ["Ann", "Bob", "José", "Mary Jane", "O'Neil"]
    assert offered(f"ginscore --db {shlex.quote(str(other))} hand ") == ["Cy", "Dee"]
    # --db after the command, and every --option=value form, as the command line takes them
    assert offered(f"ginscore hand --db {shlex.quote(str(other))} ") == ["Cy", "Dee"]
    assert offered(f"ginscore --db={shlex.quote(str(other))} hand ") == ["Cy", "Dee"]
    assert offered("ginscore hand --session=fri m") == ["Mary Jane"]
    assert offered("ginscore export --format=") == ["csv", "json", "html", "svg"]


@pytest.mark.skipif(not shutil.which("fish"), reason="fish is not installed")
def test_fish_completes_players_and_sessions(ok, tmp_path):
    _evening(ok)
    other = tmp_path / "other file.json"
    ok("--db", other, "new", "standard", "Cy", "Dee", "--dealer", "cy")

    def offered(line: str) -> list[str]:
        script = ROOT / "completions" / "ginscore.fish"
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
        ran = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C {shlex.quote(line)}"],
                             capture_output=True, text=True, env=env, timeout=60)
        return sorted(row.split("\t")[0] for row in ran.stdout.splitlines())

    assert offered("ginscore hand ") == ["Bob", "José"]  # O'Neil sits out: cannot knock (R22)
    assert offered("ginscore use ") == ["friday night", "three-1"]
    assert offered("ginscore hand --session fri ") == ["Ann", "Mary Jane"]
    assert offered("ginscore new three Al 'Bo b' Cy --dealer ") == ["Al", "Bo b", "Cy"]
    assert offered("ginscore edit 1 ") == ["Bob", "José", "O'Neil"]
    assert offered(f"ginscore --db {shlex.quote(str(other))} hand ") == ["Cy", "Dee"]


# --- a knocker completed: only who may knock in that hand, never the three-player sitter-out (R22) ----

def _names(ok, *words: str) -> list[str]:
    return ok("complete", *words).stdout.splitlines()


def _bash_names(*words: str) -> list[str]:
    """The names bash offers after TAB at the end of ``words``."""
    return [offer.split("|", 1)[1] for offer in bash_offers(*words)]


def test_three_player_knockers_leave_out_who_sits_out(ok):
    ok("new", "three", "José", "Bob", "O'Neil", "--box", "bob", "--captain", "jos")
    assert _names(ok, "knockers") == ["José", "Bob"]  # O'Neil sits out the first hand
    assert _bash_names("ginscore", "hand", "") == ["José", "Bob"]
    ok("hand", "bob", "0", "50")  # the box won: José sits out next (R23)
    assert _names(ok, "knockers") == ["Bob", "O'Neil"]
    assert _bash_names("ginscore", "hand", "") == ["Bob", "O'Neil"]
    assert _names(ok, "knockers", "--hand", "1") == ["José", "Bob"]  # edit 1: who was in that hand
    assert _bash_names("ginscore", "edit", "1", "") == ["José", "Bob"]
    assert _names(ok, "players") == ["José", "Bob", "O'Neil"]  # `players` still gives everyone


def test_two_player_knockers_are_both_players(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert _names(ok, "knockers") == ["Ann", "Ben"]
    ok("hand", "ann", "3", "20")
    assert _names(ok, "knockers", "--hand", "1") == ["Ann", "Ben"]


def test_knockers_of_a_finished_game_or_an_unknown_hand_break_nothing(cli, ok):
    ok("new", "three", "José", "Bob", "O'Neil", "--box", "bob", "--captain", "jos")
    ok("hand", "bob", "0", "50")
    ok("hand", "bob", "0", "50")  # Bob reaches 150: the game is over
    odd_hands = ("9", "x", "0", "²", "1" * 5000)  # a digit of another script, a number Python will not read
    for words in (("knockers",), *(("knockers", "--hand", hand) for hand in odd_hands)):
        result = cli("complete", *words)
        assert (result.exit_code, result.stderr) == (0, "")
        assert result.stdout.splitlines() == ["José", "Bob", "O'Neil"]
    assert _names(ok, "knockers", "--hand", "2") == ["Bob", "O'Neil"]
    assert _bash_names("ginscore", "hand", "") == ["José", "Bob", "O'Neil"]


# --- the guide's bash install line works in a plain interactive bash, with no bash-completion package ---

def _guide_install_line() -> str:
    """The line under `# bash` in the guide's "One line installs it" block."""
    guide = (ROOT / "docs" / "guide.md").read_text()
    block = guide[guide.index("One line installs it"):].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    return next(lines[i + 1] for i, line in enumerate(lines) if line.startswith("# bash"))


def test_the_guides_install_line_gives_tab_completion_in_plain_bash(ok, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", "--norc", "--noprofile", "-c", _guide_install_line()], cwd=ROOT, env=env, check=True)
    probe = (
        "complete -p ginscore; "
        "COMP_WORDS=(ginscore un); COMP_CWORD=1; _ginscore; echo \"commands: ${COMPREPLY[*]}\"; "
        "COMP_WORDS=(ginscore hand ''); COMP_CWORD=2; _ginscore; echo \"players: ${COMPREPLY[*]}\""
    )
    # A new terminal: an interactive bash that reads only ~/.bashrc (no system rc, so no bash-completion).
    ran = subprocess.run(["bash", "--rcfile", str(home / ".bashrc"), "-i", "-c", probe],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert ran.stdout.splitlines() == ["complete -o bashdefault -F _ginscore ginscore",
                                       "commands: undo", "players: Ann Ben"], ran.stderr
