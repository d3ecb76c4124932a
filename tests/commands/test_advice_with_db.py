"""Advice to run a command is written from its words (``errors.Command``) where its line is put
together, with the --db this command line gave. Nothing said is rewritten afterwards, so a name
that reads like advice is shown as it is, and the words of an advised command keep their spaces."""

import pytest


@pytest.fixture
def db(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "400")  # (every sentence on one line)
    return str(tmp_path / "our  games.json")


def test_the_terminal_rewrites_no_text():
    from ginscore.present import terminal

    assert not hasattr(terminal, "advice")


def test_a_name_that_reads_like_advice_is_shown_as_it_is(ok, db):
    typed = f"'{db}'"
    said = ok("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "`ginscore delete x`").stdout
    assert "Started '`ginscore delete x`'" in said and "--db" not in said, said
    said = ok("--db", db, "delete", "`ginscore delete x`", "--yes").stdout
    assert "Deleted '`ginscore delete x`'" in said, said
    assert f"`ginscore --db {typed} restore " in said and f"`ginscore --db {typed} use NAME`" in said, said
    assert said.count("--db") == 4, said  # restore, use, sessions and new: not the name


def test_a_name_with_two_spaces_is_advised_whole_with_the_db(refused, db):
    line = refused("--db", db, "delete", "--session", "fri  night")
    assert line == (f"Error: `ginscore --db '{db}' delete` takes no --session: give the name itself, "
                    f"`ginscore --db '{db}' delete 'fri  night'`")
    line = refused("--db", db, "--session", "fri  night", "status")
    assert line == f"Error: --session goes after the command name: `ginscore --db '{db}' status --session 'fri  night'`"


def test_play_names_its_own_commands_and_gives_the_db_to_the_shells(ok, db):
    ok("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "ann")
    said = ok("--db", db, "play", input=":help\n:edit\n:edit 9 ann 4 22\n:quit\n").stdout
    assert "as the `undo` command" in said and "as the `edit` command (like" in said, said  # (no advice to type)
    assert "type it like `:edit 3 ann 4 22`" in said, said
    assert f"(it has 0); see `ginscore --db '{db}' log`" in said, said


def test_help_is_advised_without_the_db_wherever_the_db_was_typed(refused, db):
    """Help reads no database, so advice to read it never carries --db, typed before or after the command."""
    for line in (refused("--db", db, "hand", "--note"), refused("hand", "ann", "3", "--db", db, "--note"),
                 refused("--db", db, "hand", "ann", "3", "20", "--upcrad", "7h")):
        assert "`ginscore hand --help`" in line and "--db" not in line.split("`ginscore", 1)[1], line


def test_advice_on_a_command_line_refused_before_its_db_was_read_still_carries_that_db(refused, db):
    """`delete -s fri --db PATH` advised `ginscore delete fri`, which deletes from another database: the
    --db after the command name is the command line's, though the refusal came before it was read."""
    line = refused("delete", "-s", "fri", "--db", db)
    assert line == (f"Error: `ginscore --db '{db}' delete` takes no --session: give the name itself, "
                    f"`ginscore --db '{db}' delete fri`")
    line = refused("sessions", "--session=fri", f"--db={db}")
    assert line.endswith(f"`ginscore --db '{db}' status --session fri` shows one"), line
    line = refused("--db", "other.json", "delete", "-s", "fri", "--db", db)  # the one after the command name wins
    assert line.endswith(f"`ginscore --db '{db}' delete fri`"), line
    assert "`ginscore hand --help`" in refused("hand", "ann", "3", "--upcrad", "7h", "--db", db)
    # an empty --db= names no file: advising `--db ''` would only be refused in turn
    assert refused("delete", "-s", "fri", "--db=").endswith("give the name itself, `ginscore delete fri`")
