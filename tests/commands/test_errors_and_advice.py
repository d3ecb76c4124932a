"""What every command refuses and how: exit 2, one line, nothing written; the advice a refusal
gives (`--session` in the wrong place, a mistyped command, the `--db` typed back)."""

from __future__ import annotations

import os

import pytest

from tests.support import unwrapped


@pytest.fixture
def evening(ok):
    """A database with one session of each variant; the standard one current."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--name", "okla", "--spades-double", "--ace-means-gin")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--name", "holly")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--name", "trio")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "done", "--target", "10")
    ok("hand", "ann", "0", "0")  # 'done' is won
    ok("new", "standard", "Ann", "Anna", "--dealer", "Ann", "--name", "std")
    ok("hand", "ann", "4", "22")


CASES = [
    # deadwood (R3, R7)
    (["hand", "ann", "-3", "20"], "negative"),
    (["hand", "ann", "4", "-1"], "negative"),
    (["hand", "ann", "-0", "22"], "minus sign"),  # not a gin (R3)
    (["hand", "ann", "4", "-00"], "minus sign"),
    (["edit", "1", "ann", "-0", "22"], "minus sign"),
    (["hand", "ann", "4", "99"], "98"),
    (["hand", "ann", "99", "4"], "98"),
    (["hand", "ann", "11", "30"], "knock limit of 10"),
    (["hand", "ann", "four", "22"], "not a number"),
    (["hand", "ann", "4", "2.5"], "not a number"),
    (["hand", "ann", "4", ""], "not a number"),
    (["hand", "ann", "4"], "both deadwood counts"),
    (["hand"], "missing argument"),
    (["hand", "ann", "4", "22", "9"], "unexpected extra argument"),
    (["hand", "ann", "4", "22", "--upcard"], "requires an argument; give its value right after it (`ginscore hand"),
    (["status", "--db"], "requires an argument; give its value right after it (`ginscore status --help` lists"),
    (["export", "-o"], "requires an argument; give its value right after it (`ginscore export --help` lists"),
    # names
    (["hand", "zed", "4", "22"], "no player 'zed'"),
    (["hand", "an", "4", "22"], "could be"),
    (["hand", "", "4", "22"], "empty"),
    # upcards and cards
    (["hand", "ann", "4", "22", "--upcard", "11h"], "not a card"),
    (["hand", "ann", "4", "22", "--upcard", "QX"], "unknown suit"),
    (["draw", "--upcard", "zz"], "not a card"),
    (["hand", "ann", "4", "22", "--big-gin"], "big gin"),
    # Oklahoma (R15, H4)
    (["hand", "ann", "4", "22", "--session", "okla"], "upcard"),
    (["hand", "ann", "7", "22", "--upcard", "6h", "--session", "okla"], "knock limit of 6"),
    (["hand", "ann", "1", "22", "--upcard", "AH", "--session", "okla"], "only gin"),
    (["hand", "ann", "4", "22", "--upcard", "9", "--session", "okla"], "needs its suit"),
    # three-player (R22)
    (["hand", "cy", "4", "22", "--session", "trio"], "sits out"),
    # after the game (R14)
    (["hand", "ann", "4", "22", "--session", "done"], "over"),
    (["draw", "--session", "done"], "over"),
    # sessions
    (["status", "--session", "nope"], "no session 'nope'"),
    (["use", "nope"], "no session"),
    (["log", "--session", ""], "the session name is empty"),
    # new: players, variants, options (docs/commands.md)
    (["new", "standard", "Ann"], "2 players"),
    (["new", "standard", "Ann", "Ben", "Cy"], "2 players"),
    (["new", "three", "Ann", "Ben"], "3 players"),
    (["new", "standard", "Ann", "ann"], "two players are named"),
    (["new", "standard", "Ann", "  "], "empty"),
    (["new", "rummy", "Ann", "Ben"], "rummy"),
    (["new", "standard", "Ann", "Ben", "--spades-double"], "oklahoma"),
    (["new", "hollywood", "Ann", "Ben", "--ace-means-gin"], "oklahoma"),
    (["new", "standard", "Ann", "Ben", "--target", "0"], "target"),
    (["new", "standard", "Ann", "Ben", "--target", "ten"], "--target"),
    (["new", "standard", "Ann", "Ben", "--gin-bonus", "-5"], "gin-bonus"),
    (["new", "standard", "Ann", "Ben", "--undercut-bonus", "-1"], "undercut-bonus"),
    (["new", "standard", "Ann", "Ben", "--big-gin-bonus", "-1"], "big-gin-bonus"),
    (["new", "standard", "Ann", "Ben", "--dealer", "Cy"], "no player 'Cy'"),
    (["new", "standard", "Ann", "Ben", "--box", "Ann", "--captain", "Ben"], "three-player"),
    (["new", "standard", "Ann", "Ben", "--box", "Ann"], "three-player"),
    (["new", "standard", "Ann", "Ben", "--captain", "Ben"], "three-player"),
    (["new", "three", "Ann", "Ben", "Cy", "--dealer", "Ann"], "box deals"),
    (["new", "three", "Ann", "Ben", "Cy", "--box", "Ann"], "both --box and --captain"),
    (["new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "ann"], "both box and captain"),
    (["new", "standard", "Ann", "Ben", "--name", "STD"], "already a session"),
    (["new", "standard", "Ann", "Ben", "--name", " "], "name is empty"),
    (["new", "standard", "Ann", "Ben", "--bogus"], "no such option"),
    # edit and undo
    (["edit", "9", "ann", "4", "22"], "no hand 9"),
    (["edit", "0", "ann", "4", "22"], "no hand 0"),
    (["edit", "1", "ann", "4"], "give the knocker and both"),
    (["edit", "1", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KS KD 5C 6D 8S 9S QC QD 4H 3C"],
     "give who knocked before --cards"),
    (["edit", "1", "ann", "4", "22", "--draw"], "drawn hand has no knocker"),
    (["edit", "x", "ann", "4", "22"], "Invalid value for 'N'"),
    (["edit", "1", "ann", "12", "22"], "knock limit"),
    (["undo"], "nothing was removed"),  # no answer on standard input
    (["undo", "--session", "trio"], "no hands"),
    # commands and options
    (["scores"], "no such command"),
    (["status", "--jsn"], "no such option"),
    # `hand` and `edit` take "-3" to the deadwood check (R3), and refuse a mistyped option all the same
    (["hand", "ann", "4", "22", "--upcrad", "5h"], "No such option: --upcrad (Possible options: --upcard"),
    (["hand", "ann", "4", "--upcrad", "5h", "22"], "No such option: --upcrad"),
    (["hand", "ann", "4", "22", "-u"], "No such option: -u;"),
    (["edit", "1", "ann", "4", "20", "--nite", "x"], "No such option: --nite (Possible options: --note)"),
    (["new", "standrad", "Ann", "Ben"], "'standrad' is not one of 'standard'"),
    # what is wrong, and what to do
    (["hand", "4", "22", "ann"], "no player '4'; the players are Ann, Anna; the name comes first, then the counts"),
    (["new", "standard", "Ann", "Ben", "--dealer", "Cy"], "no player 'Cy'; the players are Ann, Ben"),
    (["new", "standard", "Ann", "Ben", "--stake", "-1"], "the stake must be 0 or more, not -1"),
    # H7: "-0" is not below 0; its sign is what is wrong, as with a deadwood of -0 (R3)
    (["new", "standard", "Ann", "Ben", "--stake", "-0"], "the stake -0 has a minus sign; give it like 0 or 0.01"),
    (["new", "standard", "Ann", "Ben", "--stake", "-0.00"], "the stake -0.00 has a minus sign"),
    # H7: counted as typed; 40 nines after the point were rounded to a stake of 1, and said nothing
    (["new", "standard", "Ann", "Ben", "--stake", "0." + "9" * 40], "has more than 4 decimals; round it"),
    (["hand", "ann", "1", "20", "--upcard", "ah", "--session", "okla"], "check the upcard, or record the gin as 0"),
    (["hand", "ann", "3", "20", "--big-gin"], "this session plays no big gin (H2); leave out --big-gin"),
    (["edit", "two", "ann", "4", "22"], "is not a whole number"),  # (typer 0.28 also says 'two')
    (["history", "--limit", "0"], "Invalid value for '--limit': it must be 1 or more"),
    (["sessions", "--limit", "abc"], "Invalid value for '--limit': 'abc' is not a whole number; see"),
    (["export", "--format", "xml"], "xml"),
    (["rules", "rummy"], "rummy"),
    # every number typed is read as a deadwood count is (R3): ASCII digits, perhaps a minus, not what
    # Python's int() also reads ("1_00", "+5", other scripts' digits)
    (["new", "standard", "Ann", "Ben", "--target", "1_00"],
     "Invalid value for '--target': '1_00' is not a whole number"),
    (["house", "--gin-bonus", "\uff12\uff10"], "'\uff12\uff10' is not a whole number"),
    (["house", "--box-bonus", "+5"], "'+5' is not a whole number"),
    (["edit", "1_0", "ann", "4", "22"], "Invalid value for 'N': '1_0' is not a whole number"),
    (["history", "--limit", "\uff13"], "'\uff13' is not a whole number"),
    (["deadwood", "--limit", "1_0", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"], "'1_0' is not a whole number"),
    (["hand", "ann", "+5", "22"], "'+5' is not a number"),
    (["serve", "--port", "\uff18\uff10"], "'\uff18\uff10' is not a whole number"),
    (["serve", "--port", "70000"], "Invalid value for '--port': it must be from 0 to 65535, not 70000; see"),
    (["sessions", "--all", "--limit", "2"], "give --all or --limit N, not both"),
    (["history", "--all", "--limit", "2"], "give --all or --limit N, not both"),
]


@pytest.mark.parametrize("args, says", CASES, ids=[" ".join(a) or "empty" for a, _ in CASES])
def test_refused_and_nothing_changed(evening, refused, args, says):
    refused(*args, says=says)


def test_a_number_too_long_to_read_is_said_to_be_too_large_not_to_be_no_number(evening, refused):
    """5001 digits are a whole number still: the line says it is more than ginscore takes, not misspelled."""
    assert refused("new", "standard", "Ann", "Ben", "--target", "1" * 5001).startswith(
        "Error: Invalid value for '--target': it has 5001 digits, more than any number ginscore takes; see")
    refused("sessions", "--limit", "9" * 5001, says="Invalid value for '--limit': it has 5001 digits")


def test_a_switch_given_a_value_is_refused_in_one_line_and_nothing_is_removed(evening, refused):
    """`undo --yes=1`: a switch takes no value; the line says so, and no hand is removed unasked."""
    assert refused("undo", "--yes=1") == "Error: Option '--yes' does not take a value"
    assert refused("sessions", "--all=yes") == "Error: Option '--all' does not take a value"


def test_export_to_a_folder_is_refused(evening, refused, tmp_path):
    refused("export", "--output", str(tmp_path), says=f"{tmp_path} is a folder, not a file; give --output a file path")


def test_no_refusal_speaks_in_the_validators_words(evening, refused):
    """typer 0.29 checks values with pydantic: its words ("Value error,", "Input should be") are
    said as people say them."""
    for args in (["new", "standrad", "Ann", "Ben"], ["edit", "two", "ann", "4", "22"], ["export", "-f", "xml"],
                 ["sessions", "--limit", "x"], ["history", "--limit", "-1"], ["new", "standard", "A", "B", "--target", "1e3"]):
        line = refused(*args)
        assert "Value error" not in line and "Input should" not in line, line


def test_an_option_value_that_starts_with_a_dash_is_a_value(evening, ok, status):
    ok("hand", "ann", "4", "22", "--note", "-great hand")
    ok("hand", "anna", "3", "30", "--note=-again")
    assert [h.get("note") for h in ok("log", "--json").json()["hands"][-2:]] == ["-great hand", "-again"]


def test_a_mistyped_command_gets_a_suggestion_in_a_readable_sentence(refused):
    line = refused("hnad", "ann", "4", "22")
    assert line == "Error: No such command 'hnad'. Did you mean 'hand'? See `ginscore --help`"
    assert refused("edit") == "Error: Missing argument 'N'; see `ginscore edit --help`"
    # (click lists the choices a line and a tab each: shown as escapes, they were unreadable)
    assert refused("new") == ("Error: Missing argument 'VARIANT' (one of standard, oklahoma, hollywood, three); "
                              "see `ginscore new --help`")


@pytest.mark.parametrize("args", [["--db", "status"], ["--db", "play"], ["--db=status"], ["--db", "status", "--json"],
                                  ["--db", "new", "standard", "Ann", "Ben"], ["--db", "hand", "ann", "4", "22"]])
def test_a_db_given_a_command_for_its_path_is_refused_saying_so(refused, tmp_path, monkeypatch, args):
    """`ginscore --db status` (the path left out): click takes the command for the path. Alone, it printed
    the help and exited 0, and a script went on as if the status was shown; with more words, it said there
    is no command 'standard' or no option --json, which is not what went wrong."""
    monkeypatch.chdir(tmp_path)
    command = args[1] if args[0] == "--db" else args[0].removeprefix("--db=")
    assert refused(*args) == (f"Error: --db takes the database file's path, and '{command}' is a command; "
                              f"give the path before it (`ginscore --db PATH {command}`)")
    assert list(tmp_path.iterdir()) == []


def _without_session() -> list[str]:
    """Every command people type that takes no --session (it covers no single session)."""
    from ginscore.cli import app as cli

    return [name for name, command in cli.every_command().commands.items()
            if not command.hidden and all(param.name != "session" for param in command.params)]


@pytest.mark.parametrize("command", _without_session())
def test_session_given_to_a_command_that_takes_none_says_what_it_covers(evening, refused, command):
    """Not click's "(Possible options: --json)": that the command takes no --session, and what it
    covers instead or what to type."""
    for session in ("--session", "-s"):
        line = refused(command, session, "std")
        assert line.startswith(f"Error: `ginscore {command}` takes no --session: "), line
        assert "Possible options" not in line and "see `" not in line, line
    assert "`ginscore house --session std`" in refused("rules", "--session", "std")
    assert "--player, --variant or --limit" in refused("history", "--session=std")
    assert refused("use", "--session", "fri night").endswith("give the name itself, `ginscore use 'fri night'`")
    # -s behind another switch (-ys): its value is not told apart, so the advice names the name's place
    assert refused("delete", "-ysstd").endswith("give the name itself, `ginscore delete NAME`")


def test_a_session_named_without_session_is_told_how_to_name_it(evening, refused):
    """`status std` as `use std` takes it: click's "Got unexpected extra argument(s) (std)" said nothing of how."""
    assert refused("status", "std") == ("Error: `ginscore status` takes no argument ('std'); a session is named "
                                        "with --session: `ginscore status --session std`")
    assert refused("log", "fri night").endswith("`ginscore log --session 'fri night'`")
    # the other options typed are kept: without them the advice would do something else
    assert refused("status", "--json", "std").endswith("`ginscore status --json --session std`")
    assert refused("house", "--target", "200", "--from-next", "std").endswith(
        "`ginscore house --target 200 --from-next --session std`")
    for not_a_session in (("undo", "3"), ("draw", "QS"), ("status", "fri", "night"),
                          ("hand", "ann", "4", "22", "5"), ("stats", "ann", "ben")):
        # a hand's number, a card (--upcard), two words, one argument too many: no session named
        assert "a session is named" not in refused(*not_a_session)


@pytest.mark.parametrize("args, option, long_name, following", [
    (["status", "--session", "--db", "other.json"], "--session", "--session", "--db"),
    (["status", "-s", "--json"], "-s", "--session", "--json"),
    (["status", "-s", "-h"], "-s", "--session", "-h"),
    (["hand", "ann", "4", "22", "--upcard", "--session", "okla"], "--upcard", "--upcard", "--session"),
    (["hand", "ann", "4", "22", "--note", "--session=okla"], "--note", "--note", "--session=okla"),
    (["new", "standard", "Cy", "Di", "--dealer", "--name", "late"], "--dealer", "--dealer", "--name"),
    (["new", "standard", "Cy", "Di", "--db", "--name=late"], "--db", "--db", "--name=late"),
    (["export", "-o", "--format=csv"], "-o", "--output", "--format=csv"),
])
def test_an_option_followed_by_another_was_given_no_value(evening, refused, args, option, long_name, following):
    """`status --session --db other.json` read '--db' as the session's name, then advised
    `ginscore status --session --db --session other.json`; `hand ... --note --session=okla` recorded the
    hand in the current session with that note. The value left out is said as such, and how to give one
    that starts with '-'."""
    assert refused(*args) == (
        f"Error: {option} was given no value ('{following}' is another option); give it right after {option}, "
        f"or as {long_name}=VALUE if it starts with '-' (`ginscore {args[0]} --help` lists every option)")


@pytest.mark.parametrize("args, option, following", [
    (["log", "-s", "--limit", "3"], "-s", "--limit"),  # said "Got unexpected extra argument(s) (3)"
    (["hand", "ann", "4", "22", "--note", "--great"], "--note", "--great"),  # recorded the note "--great"
    (["status", "--session", "--jsno"], "--session", "--jsno"),
])
def test_an_option_followed_by_an_option_the_command_lacks_was_given_no_value(evening, refused, args, option,
                                                                               following):
    """A word written as a long option is no value: no session may be named so, and a note that is one is
    given joined by '=' (below)."""
    assert refused(*args).startswith(f"Error: {option} was given no value ('{following}' looks like an option); "
                                     f"give it right after {option}, or as ")


@pytest.mark.parametrize("args", [
    ["edit", "{n}", "ann", "4", "22"], ["house", "--target", "{n}", "--from-next"], ["undo", "{n}"],
    ["new", "standard", "Ann", "Ben", "--stake", "{n}"], ["hand", "ann", "4", "22", "--upcard", "{n}"],
    ["status", "--session", "{n}"], ["status", "{n}"],
])
def test_a_number_typed_by_a_stuck_key_is_shortened_in_its_error(evening, refused, args):
    """300 nines echoed whole made the one line of an error five screen lines of digits: the number is told
    by its first digits and how many it has."""
    said = refused(*(arg.format(n="9" * 300) for arg in args))
    assert "999999999999…(300 digits)" in said and "9" * 13 not in said and len(said) < 240, said


def test_a_value_that_starts_with_a_dash_is_taken_joined_to_its_option(evening, ok):
    ok("hand", "ann", "4", "22", "--note=--session=okla")
    ok("hand", "anna", "3", "30", "--note", "-sweet")  # (a word after a short option's letter: a value)
    assert [h.get("note") for h in ok("log", "--json").json()["hands"][-2:]] == ["--session=okla", "-sweet"]


def test_session_given_before_the_command_goes_after_it(evening, refused):
    """Not "(Possible options: --version)": the same command line, with --session after the command."""
    moved = "Error: --session goes after the command name: `ginscore hand ann 4 22 --session std`"
    assert refused("--session", "std", "hand", "ann", "4", "22") == moved
    assert refused("-s", "std", "hand", "ann", "4", "22") == moved
    assert refused("--session=fri night", "status", "--json").endswith(
        "`ginscore status --json --session 'fri night'`")
    assert refused("--session", "std") == \
        "Error: --session goes after the command name, like `ginscore status --session std`"
    assert "`ginscore history` takes no --session" in refused("--session", "std", "history")


def test_an_empty_session_name_names_no_session(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("delete", "friday", "--yes")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "other")
    refused("restore", "", says="the session name is empty")
    refused("delete", " ", "--yes", says="the session name is empty")
    refused("use", "", says="the session name is empty")
    refused("status", "--session", "", says="the session name is empty")


def test_advice_names_the_database_the_command_line_gave(cli, ok, tmp_path, monkeypatch):
    """Advice typed as given would act on another database (maybe one with a session of that name):
    with --db on the command line (before or after the command), every `ginscore ...` it advises
    carries it, quoted for the shell; with GINSCORE_DB or the default it needs none."""
    other = tmp_path / "my games.json"
    done = cli("--db", str(other), "hand", "ann", "1", "30")
    assert done.exit_code == 2
    assert unwrapped(f"`ginscore --db '{other}' new standard Ann Ben`") in unwrapped(done.stderr), done.stderr
    ok("--db", str(other), "new", "standard", "Ann", "Ben", "--name", "friday")
    said = unwrapped(ok("delete", "friday", "--yes", "--db", str(other)).stdout)
    assert unwrapped(f"`ginscore --db '{other}' restore friday` brings it back") in said
    assert unwrapped(f"`ginscore --db '{other}' use NAME`") in said
    done = cli("use", "friday", "--db", str(other))
    assert unwrapped(f"`ginscore --db '{other}' restore friday`") in unwrapped(done.stderr), done.stderr
    assert unwrapped(f"`ginscore --db '{other}' house`") in unwrapped(ok("--db", str(other), "rules").stdout)
    monkeypatch.setenv("GINSCORE_DB", str(other))  # the same database, named by the environment
    done = cli("use", "friday")
    assert "`ginscore restore friday`" in done.stderr and "--db" not in done.stderr
    done = cli("--db", str(other), "import", str(tmp_path / "none.csv"))  # (made by any database's export)
    assert done.exit_code == 2 and "give a file made by `ginscore export`" in done.stderr, done.stderr


def test_a_quoted_database_path_in_advice_is_never_broken_across_two_lines(ok, tmp_path, monkeypatch):
    """On a phone a command longer than the screen is broken between its words, never inside the
    quoted path (copied from two lines, it would hold a line break)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "40")
    ok("--db", "our games of gin.json", "new", "standard", "Ann", "Ben", "--name", "friday")
    lines = ok("--db", "our games of gin.json", "delete", "friday", "--yes").stdout.splitlines()
    assert max(len(line) for line in lines) <= 40
    said = "\n".join(lines)
    assert said.count("'our games of gin.json'") == 4 and all(line.count("'") % 2 == 0 for line in lines), said


def test_a_quoted_session_name_in_advice_is_never_broken_across_two_lines(ok, monkeypatch):
    """A session's name typed in quotes in advice ("fri, night") stays on one line at every width a
    phone has: copied from two lines, the name would hold a line break."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri, night out")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    for width in range(30, 61, 2):
        monkeypatch.setenv("COLUMNS", str(width))
        lines = ok("house", "--session", "fri").stdout.splitlines()
        assert '"fri, night out"' in "\n".join(lines) and all(line.count('"') % 2 == 0 for line in lines), width


@pytest.mark.parametrize("name, word", [
    ("two  spaces.json", "'{folder}/two  spaces.json'"),  # not squeezed to one space
    ("new\nline.json", "$'{folder}/new\\x0aline.json'"),  # a control character: $'...', its byte escaped
    ("r\u202eversed.json", "$'{folder}/r\\xe2\\x80\\xaeversed.json'"),  # bidi: never raw on the terminal
    ("x\udcff.json", "$'{folder}/x\\xff.json'"),  # an undecodable byte, as the command line gave it
])
def test_advised_database_paths_are_typed_back_exactly(cli, tmp_path, name, word):
    done = cli("--db", str(tmp_path / name), "status")
    said = word.format(folder=tmp_path)
    assert done.exit_code == 2 and f"`ginscore --db {said} new standard Ann Ben`" in done.stderr, done.stderr
    import subprocess

    typed = subprocess.run(["bash", "-c", f"printf %s {said}"], capture_output=True).stdout
    assert typed == os.fsencode(str(tmp_path / name))


def test_only_advice_is_given_the_db_not_names_or_the_export_a_file_came_from(cli, ok, tmp_path):
    db = str(tmp_path / "g.json")
    said = ok("--db", db, "new", "standard", "Ann", "Ben", "--name", "`ginscore x`").stdout
    assert "'`ginscore x`'" in said and "--db" not in said
    done = cli("--db", db, "import", str(tmp_path / "none.json"))
    assert "made by `ginscore export`" in done.stderr


def test_the_commands_given_the_db_are_the_commands_that_use_one(ok):
    from ginscore.cli.registry import ADVISED_COMMANDS

    listed = ok("--help").stdout.split("Commands:")[1]
    names = {line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line.split()}
    assert "status" in names and set(ADVISED_COMMANDS) == names - {"export", "where", "deadwood", "complete"}


@pytest.mark.parametrize("command", ["complete"])
def test_a_path_no_command_line_can_carry_is_advised_without_a_crash(cli, command):
    """(A lone surrogate: only an in-process caller can pass one; the fuzz test found it.)"""
    done = cli("--db", "ginscore.json", command, "--db", "\ud800")
    assert done.exit_code in (1, 2) and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_name_that_cannot_be_typed_is_advised_as_one_word_the_shell_reads_back():
    """A session name edited in by hand with an escape or bidi character: advice names it as one
    $'...' word, which bash reads back as the name (a visible "\\x1b" typed would name no session)."""
    import shutil
    import subprocess

    from ginscore.core.reports import as_typed

    name = "\x1b[31mEVIL\u202e night"
    word = as_typed(name)
    assert word.startswith("$'") and word.isprintable() and word.isascii()
    if shutil.which("bash"):
        said = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
        assert said.decode("utf-8") == name
    assert as_typed("fri night") == '"fri night"' and as_typed("ann") == "ann"


def test_advice_about_a_session_that_is_not_current_names_it(ok, refused, monkeypatch):
    """`edit --session ed` advised `ginscore house --target N --from-next`, and `undo --session um` advised
    `ginscore edit 2 ...`: typed as shown, each changed the current session, another one (H8)."""
    from ginscore.cli import actions

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "ed")
    ok("hand", "ann", "5", "30")
    ok("hand", "ann", "5", "30")
    ok("house", "--target", "70", "--from-next")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "um")
    ok("hand", "ann", "5", "10")
    ok("hand", "ann", "0", "10")
    ok("house", "--gin-bonus", "30", "--from-next")
    ok("new", "standard", "X", "Y", "--dealer", "X", "--name", "other")
    refused("edit", "2", "ann", "0", "30", "--session", "ed",
            says="first give hand 3 on another target: `ginscore house --session ed --target N --from-next`")
    monkeypatch.setattr(actions, "on_a_terminal", lambda: True)
    said = " ".join(ok("undo", "--session", "um", input="n\n").stdout.split())
    assert "(H8); `ginscore edit --session um 2 ...` corrects it under the rules it was played with." in said


def test_a_name_with_quotes_or_a_dollar_is_advised_as_a_word_the_shell_reads_back(ok):
    """In double quotes a shell would expand `$5` and end the word at `"`; the advice quotes such a name so
    that the command typed as shown names the session."""
    import shlex

    name = 'Ann\'s "big" $5 night'
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", name)
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    said = " ".join(ok("house", "--session", "Ann's").stdout.split())
    command = said[said.rindex("`ginscore") + 1:said.rindex("`")]
    assert "--session 'Ann'\\''s \"big\" $5 night'" in command, said
    assert shlex.split(command)[-2:] == [name, "OPTION"], command
