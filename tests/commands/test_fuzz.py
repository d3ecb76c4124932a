"""Any command line, made at random: never a traceback, never an exit status that lies."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from ginscore.cli import app as ginscore_cli
from tests.profiles import examples
from tests.support import HOSTILE, RAW, database_files, put_back, run_cli

VECTORS = examples(5000)


# The vectors are drawn in seeded parts of a fifth each, so that the test workers share them.
PARTS = 5


COMMAND = ginscore_cli.every_command()  # the whole app, as `ginscore --help` builds it


COMMANDS = sorted(COMMAND.commands)


WORDS = [
    "ann", "Ann", "ben", "BEN", "cy", "an", "José", "jose", "std", "holly", "trio", "okla", "done", "s",
    "standard", "oklahoma", "hollywood", "three", "csv", "json",
    "0", "1", "3", "4", "10", "20", "22", "25", "98", "99", "-3", "-1", "2.5", "1e9", "100000000000000000000",
    "AS", "2S", "10h", "QS", "k♦", "7♠", "11h", "QX", "9", "ZZ", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D",
    "KS KH KD QC QH QD JS JC 9C 8C", "2026-01-01", "2026-13-45", "", " ", "-", "--", "--json", "-s",
]


# Where a value is a file name: relative names only, so nothing is written outside tmp_path.
FILES = ["ginscore.json", "out.csv", "out.json", "sub/x.json", ".", "..", "missing.json", "", "ginscore.json.lock"]


ANY_CHARACTER = st.characters(exclude_categories=(), exclude_characters="/")


random_text = st.text(ANY_CHARACTER, max_size=12)


hostile_text = st.sampled_from(list(HOSTILE.values()))


value = st.one_of(st.sampled_from(WORDS), st.integers(-300, 300).map(str), random_text, hostile_text)


# Answers to questions (play, undo): one line each, as a keyboard types them (the runner encodes them).
typed_answer = st.one_of(st.sampled_from(WORDS + ["q", "draw", "y", "n"]),
                         st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\n\r"), max_size=8))


def _option_draws(name: str):
    """(options strategy, {option: its value strategy}) of one command, built once, not per draw."""
    options = [p for p in COMMAND.commands[name].params if p.param_type_name == "option"]
    values = {option.name: st.sampled_from(FILES) if option.name in ("db", "output") else value for option in options}
    return (st.lists(st.sampled_from(options), max_size=4) if options else st.just([])), values


OPTION_DRAWS = {name: _option_draws(name) for name in COMMANDS}


NO_OPTIONS = (st.just([]), {})


command_name = st.sampled_from(COMMANDS)


positionals = st.lists(st.one_of(value, st.sampled_from(FILES)), max_size=5)  # (and strays)


some_file = st.sampled_from(FILES)


helps = st.sampled_from(["--help", "-h", "--bogus", "-x"])


one_in = {n: st.integers(0, n - 1) for n in (6, 10, 20, 30)}


@st.composite
def vectors(draw) -> list[str]:
    """A command line: a command of the app (now and then a random word), options and values."""
    if draw(one_in[20]) == 0:
        name = draw(value)
        options, values = NO_OPTIONS
    else:
        name = draw(command_name)
        options, values = OPTION_DRAWS[name]
    args = [name]
    for option in draw(options):
        args.append(draw(st.sampled_from(option.opts)))
        if not option.is_flag and draw(one_in[10]):  # now and then the value is missing
            args.append(draw(values[option.name]))
    args += draw(positionals)
    if draw(one_in[6]) == 0:
        args = draw(st.permutations(args))
    if draw(one_in[10]) == 0:
        args = ["--db", draw(some_file)] + args
    if draw(one_in[30]) == 0:
        args.append(draw(helps))
    if "watch" in args and "--once" not in args:  # watch redraws until Ctrl-C by design
        args.append("--once")
    if "serve" in args and "--help" not in args:  # serve serves until Ctrl-C by design (tests/web/ run it)
        args.append("--help")
    return args


@pytest.fixture
def seeded(ok, db_path) -> dict[str, bytes]:
    """The bytes of a database holding a session of every variant, hands played, one game won."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--name", "okla", "--spades-double")
    ok("hand", "ann", "3", "20", "--upcard", "7s")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--name", "holly")
    ok("hand", "ben", "0", "30")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--name", "trio", "--box-bonus", "20")
    ok("hand", "ann", "2", "12")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "done", "--target", "10")
    ok("hand", "ann", "0", "0")
    ok("new", "standard", "Ann", "José", "--dealer", "Ann", "--name", "std", "--big-gin-bonus", "31")
    ok("hand", "ann", "4", "22")
    ok("draw")
    return database_files(db_path)


@pytest.fixture
def in_tmp_path(monkeypatch, tmp_path):
    """Relative file names land in tmp_path."""
    monkeypatch.chdir(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_no_command_line_ends_in_a_traceback_or_a_lie(seeded, in_tmp_path, db_path, part):
    found: list[tuple[list[str], BaseException]] = []

    @seed(part)
    @settings(max_examples=VECTORS // PARTS + (part < VECTORS % PARTS), database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(args=vectors(), answers=st.one_of(st.none(), st.lists(typed_answer, max_size=4)))
    def run(args, answers):
        answers = None if answers is None else "\n".join(answers)
        put_back(db_path, seeded)  # every file of the database, as the last command may have replaced them
        try:
            result = run_cli(*args, input=answers)
        except Exception as error:  # a traceback
            found.append((args, error))
            raise
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
        if result.exit_code != 0:
            assert database_files(db_path) == seeded, (args, result.stderr)
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.stderr)
        for line in result.stderr.splitlines():
            assert not RAW.search(line), (args, line)
        command = args[2:3] if args[:1] == ["--db"] else args[:1]
        csv = command == ["export"] and "json" not in args
        data = csv or "where" in args  # a path or CSV piped to a script is data, kept exact (on a terminal: shown)
        if not data:  # the runner echoes typed answers, as a terminal would: those are not ginscore's
            shown = result.stdout
            for answer in (answers or "").split("\n"):
                shown = shown.replace(answer + "\n", "\n") if answer else shown
            assert not RAW.search(shown), (args, answers, result.stdout)

    run()
    assert not found
