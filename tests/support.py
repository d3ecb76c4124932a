"""Helpers the tests share: run the CLI in-process, read the database file as another program
would, and the sessions, files and strings several test modules build on. Fixtures live in
conftest.py; this module holds plain functions and values, imported by name."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import stat
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import strategies as st
from typer.testing import CliRunner

from ginscore.cli import app as ginscore_cli
from ginscore.core.cards import parse_card
from ginscore.core.replay import replay
from ginscore.core.session import Draw, Knock, Roles, SessionFacts
from ginscore.core.scoring import HouseRules
from ginscore.core.stats import combine_tallies, packed, session_counts, tally
from ginscore.db.database import SCHEMA_VERSION
from ginscore.db.store import Store

# --- the repository and its data files ---------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent  # the repository
FIXTURES = Path(__file__).parent / "fixtures"  # the data files tests read


BIN = str(Path(sys.executable).parent)  # where pip put the `ginscore` the completion scripts call


def bash_offers(*words: str) -> list[str]:
    """COMPREPLY after TAB at the end of ``words`` in a real bash, as "reply|the name bash reads it back as"."""
    import shlex
    import subprocess

    script = ROOT / "completions" / "ginscore.bash"
    typed = " ".join(shlex.quote(w) for w in words)
    probe = (
        f"source {shlex.quote(str(script))}; COMP_WORDS=({typed}); COMP_CWORD={len(words) - 1}; _ginscore; "
        'for reply in "${COMPREPLY[@]}"; do eval "set -- $reply"; printf "%s|%s\\n" "$reply" "$1"; done'
    )
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    ran = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert ran.returncode == 0 and not ran.stderr, ran.stderr
    return ran.stdout.splitlines()


def script_module(path: Path):
    """A script of the repository (``benchmarks/``, ``docs/``, ``completions/``: not a package) as a
    module, registered under its name as an import would (dataclasses look their module up there)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


# --- the CLI run in-process, as the installed script runs it ---------------------------------


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


def _as_another_user(args, groups, said) -> None:
    """In a forked child: drop root for nobody (in ``groups`` too), run ``ginscore ARGS``, and put its
    exit status and standard error in ``said``."""
    import io

    os.setgroups(list(groups))
    os.setgid(65534)
    os.setuid(65534)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.stderr = captured = io.StringIO()
    said.put((run_main(args), captured.getvalue()))


def run_as_nobody(*args, groups: tuple[int, ...] = ()) -> tuple[int, str]:
    """``ginscore ARGS`` run by another user (nobody, also in ``groups``) in a forked child, so file
    permissions apply as they do to a second person at the table: its exit status and standard error.
    Only root can fork into another user: a test that needs one is skipped elsewhere, saying so."""
    import multiprocessing

    forked = multiprocessing.get_context("fork")
    said = forked.Queue()
    child = forked.Process(target=_as_another_user, args=([str(a) for a in args], groups, said))
    child.start()
    found = said.get(timeout=30)
    child.join()
    return found


AS_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="needs root, to act as a second user (CI runs as root)")


def _text(stream) -> str:
    return stream.getvalue().decode("utf-8", "replace").replace("\r\n", "\n")


# --- the database's files, read and put back as another program would ---------------------


def unwrapped(text: str) -> str:
    """``text`` with no whitespace at all, so a phrase matches however the screen's width broke it:
    a path longer than the line (a test's folder can be long) is broken inside itself."""
    return "".join(text.split())


def stored_sessions(db_path: Path) -> dict:
    """Every session's stored facts, by TinyDB document id, read with TinyDB itself (as a
    person's own script would read the file)."""
    from tinydb import TinyDB

    with TinyDB(db_path, access_mode="r", encoding="utf-8") as db:
        return {str(doc.doc_id): dict(doc) for doc in db.table("sessions").all()}


def names_beside(db_path: Path) -> list[str]:
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


# --- cards and sessions ------------------------------------------------------------------------


KNOCKER = "AS 2S 3S 7H 7D 7C 9H 10H JH 2D"


OPPONENT = "4S 5S 7S KS QS 8H 2C 3C 4C 6D"


def session(variant="standard", players=("Ann", "Ben"), hands=(), **rules):
    roles = Roles(*players) if variant == "three" else None
    return SessionFacts(
        name="s", variant=variant, players=tuple(players), rules=HouseRules(**rules),
        first_dealer=None if roles else players[0], first_roles=roles, hands=tuple(hands),
    )


@st.composite
def legal_sessions(draw):
    variant = draw(st.sampled_from(["standard", "oklahoma", "hollywood", "three"]))
    players = ("Ann", "Ben", "Cy") if variant == "three" else ("Ann", "Ben")
    facts = session(variant, players, target=draw(st.integers(20, 200)))
    hands = []
    for _ in range(draw(st.integers(0, 40))):
        standings = replay(facts)
        if standings.over:
            break
        upcard = parse_card(draw(st.sampled_from(["AS", "5h", "9d", "KC", "10s"])))
        if draw(st.integers(0, 9)) == 0:
            hand = Draw(upcard=upcard)
        else:
            in_hand = [standings.roles.box, standings.roles.captain] if standings.roles else list(players)
            limit = min(upcard.value, 10) if variant == "oklahoma" else 10
            hand = Knock(draw(st.sampled_from(in_hand)), draw(st.integers(0, limit)), draw(st.integers(0, 98)), upcard)
        facts = session(variant, players, hands=hands + [hand], target=facts.rules.target)
        hands.append(hand)
    return facts


# --- database files ginscore cannot use, and an older layout ----------------------------------


UNUSABLE = {
    "not-json": (b"{not json", "is not JSON"),
    "truncated": (b'{"meta": {"1": {"schema_version": 1}}, "sessions": {"1": {"na', "is not JSON"),
    "binary": (b"\x00\xff\xfe garbage", "is not JSON"),
    "a-list": (b"[1, 2, 3]", "not a ginscore database"),
    "other-tables": (b'{"_default": {"1": {"x": 1}}}', "not a ginscore database"),
    "no-meta": (b'{"sessions": {"1": {"name": "x"}}}', "not a ginscore database"),
    "bad-version": (b'{"meta": {"1": {"schema_version": "one"}}}', "not a ginscore database"),
    "a-session-not-an-object": (b'{"meta": {"1": {"schema_version": 5, "current": null}}, "sessions": {"1": [1]}}',
                                "not a ginscore database"),
    "current-not-a-name": (b'{"meta": {"1": {"schema_version": 5, "current": 3}}, "sessions": {}}',
                           "not a ginscore database"),
    "another-programs-table": (  # a table another program added beside ginscore's own
        b'{"meta": {"1": {"schema_version": 5, "current": null}}, "sessions": {}, "venues": {"1": {"x": 1}}}',
        "holds a table 'venues' beside ginscore's own",
    ),
    "newer-schema": (json.dumps({"meta": {"1": {"schema_version": SCHEMA_VERSION + 1}}}).encode(), "newer ginscore"),
    "damaged-session": (  # a 1.x file (schema 2) edited by hand
        json.dumps({"meta": {"1": {"schema_version": 2, "current": "x"}},
                    "sessions": {"1": {"name": "x", "variant": "whist", "players": ["A", "B"]}}}).encode(),
        "damaged",
    ),
    "hand-that-breaks-a-rule": (
        json.dumps({"meta": {"1": {"schema_version": 2, "current": "x"}},
                    "sessions": {"1": {"name": "x", "variant": "standard", "players": ["A", "B"],
                                       "first_dealer": "A", "rules": {},
                                       "hands": "knock|A|40|50||0|"}}}).encode(),
        "does not add up",
    ),
}


DAMAGED_SESSION = ("damaged-session", "hand-that-breaks-a-rule")


SCHEMA_1 = {
    "meta": {"1": {"schema_version": 1, "current": "old"}},
    "sessions": {"1": {"name": "old", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
                       "rules": {"gin_bonus": 20}, "first_roles": None, "created_at": None,
                       "hands": [{"type": "knock", "knocker": "Ann", "knocker_deadwood": 0, "opponent_deadwood": 10,
                                  "upcard": None, "big_gin": False, "recorded_at": "2026-01-01T20:00:00+00:00"},
                                 {"type": "draw", "upcard": "7H", "recorded_at": None}]}},
}


# --- the real exports hostile files are made from; values to put in them ------------------------


class Base(NamedTuple):
    db: bytes  # a database holding the sessions below
    std: dict  # `export --format json` of a standard session: a knock, a hand told as cards, a draw, an undercut
    okla: dict  # of an Oklahoma session (upcards set the knock limit, R15)
    three: dict  # of a three-player session (first roles, R21)
    csv: str  # `export` (CSV) of the standard session


def run_ok(*args) -> str:
    done = run_cli(*args)
    assert done.exit_code == 0, (args, done.stderr)
    return done.stdout


NAN, INF = float("nan"), float("inf")


NFC, NFD = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")


def json_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from json_paths(value, (*path, key))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from json_paths(value, (*path, n))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.integers(0, 30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12) | st.sampled_from(["Ann", "Ben", "ann", "9S", "ZZ", "2026-11-29T21:15:00+00:00", "knock",
                                              "draw", "", "Ａnn", NFD]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def somewhere_in(draw, doc):
    """A place in ``doc`` drawn at random: (its container, its key there, every path in ``doc``),
    or None when ``doc`` holds nothing."""
    paths = [p for p in json_paths(doc) if p]
    if not paths:
        return None
    path = draw(st.sampled_from(paths))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    return parent, path[-1], paths


# --- text a terminal would obey --------------------------------------------------------------


# A raw character a terminal would obey or hide: C0 (but the line break), DEL, C1, line/paragraph
# separators, lone surrogates, and every format character (bidi steering, zero-width, tags...) in
# every plane, as the running Python's Unicode names them.
FORMAT = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf")


RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff" + FORMAT + "]")


HOSTILE = {
    "osc0-title": "\x1b]0;owned\x07",
    "osc52-clipboard": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "csi-clear": "\x1b[2J\x1b[H",
    "c1-csi": "\x9b31mred",
    "del": "A\x7fB",
    "bidi-override": "\u202eAnn",
    "bidi-isolate": "\u2066x\u2069",
    "nul": "a\x00b",
    "newline": "a\nError: forged",
    "cr-bs-bell": "a\rb\bc\a",
    "c1-osc": "\x9d0;t\x9c",
    "line-separator": "a\u2028b",
    # invisible format characters outside the Basic Multilingual Plane
    "musical-beam": "a\U0001d173b",
    "egyptian-format": "a\U00013430b",
    "kaithi-number-sign": "a\U000110bdb",
    "shorthand-overlap": "a\U0001bca0b",
}


# --- paths: devices, sockets, links, temporary files -------------------------------------------


HAND = ("hand", "ann", "3", "20")


def one_error_line(result, status: int) -> str:
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


class Blocked(BaseException):
    """Raised into a command that waited too long (no ``except Exception`` of ginscore's catches it)."""


def run_in_time(*args) -> Ran:
    """The real CLI in-process (``ginscore.cli.main``), as ``cli`` runs it; a read that would block
    (opening a FIFO nobody writes) fails the test after 20 s instead of hanging it."""

    def late(signum, frame):
        raise Blocked(f"ginscore {' '.join(map(str, args))} waited 20 s")

    was = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        return run_cli(*map(str, args))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, was)


def path_state(path) -> tuple:
    """Everything about a path that ginscore must leave alone: kind, inode, device, link target, bytes, listing."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("missing",)
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        extra = os.readlink(path)
    elif stat.S_ISREG(mode):
        extra = Path(path).read_bytes()
    elif stat.S_ISDIR(mode):
        extra = sorted(os.listdir(path))
    else:
        extra = st.st_rdev
    return stat.S_IFMT(mode), st.st_ino, extra


def number_whole(number, text: str) -> bool:
    """``number`` stands in ``text`` with no digit glued to either side (so 112 is not 11 or 1120)."""
    return re.search(rf"(?<![0-9.]){re.escape(str(number))}(?![0-9])", text) is not None


def hands_in(path, session: str | None = None) -> list:
    return list(Store(path).reading().load(session).hands)


def terminal_output(leader: int, quiet: float = 0.1) -> bytes:
    """What a command started on a pseudo-terminal wrote to it (``leader``: this end of os.openpty) until it
    is quiet for ``quiet`` seconds, or ended and closed its end."""
    import select

    said = b""
    with contextlib.suppress(OSError):  # (EIO: the command's end of the terminal is closed)
        while select.select([leader], [], [], quiet)[0] and (more := os.read(leader, 65536)):
            said += more
    return said


def temporary_files(folder) -> list:
    return sorted(p.name for p in Path(folder).glob(".ginscore.json.tmp-*"))


def mknod_null(path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("cannot make a device node here")


def bind_socket(path) -> socket.socket:
    """A Unix socket at ``path``, bound from its folder: a socket's path is limited to about a hundred
    bytes, which a deep temporary folder passes."""
    sock = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(Path(path).parent)
    try:
        sock.bind(Path(path).name)
    finally:
        os.chdir(here)
    return sock


def make_not_a_file(kind: str, path: Path) -> list:
    """Put ``kind`` at ``path``; return what must be kept open while it is used."""
    spare = path.with_name("spare")
    if kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("mine")
    elif kind == "device":
        mknod_null(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        return [bind_socket(path)]
    elif kind.startswith("link to a "):
        make_not_a_file(kind.removeprefix("link to a "), spare)
        path.symlink_to(spare.name)
    return []


# --- sessions, exports and listings that several modules build on ------------------------------


def quiet_session(name: str, players: tuple, started: str | None, variant: str = "standard") -> SessionFacts:
    """A session with no hand yet."""
    return SessionFacts(name=name, variant=variant, players=players, rules=HouseRules(),
                        first_dealer=players[0], created_at=started)


HUGE = "9" * 5000  # past Python's own limit of 4,300 digits for reading a number


def exported(ok, tmp_path, fmt: str):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "4", "22")
    out = tmp_path / f"friday.{fmt}"
    ok("export", "--format", fmt, "--output", out)
    return out


def session_names(ok, *extra):
    return [row["name"] for row in ok("sessions", "--json", *extra).json()]


def every_output(ok, *db) -> dict:
    """What every listing and every session's status, log and export say, as JSON."""
    sessions = ok(*db, "sessions", "--json").json()
    return {
        "sessions": sessions,
        "deleted": ok(*db, "sessions", "--deleted", "--json").json(),
        "history": ok(*db, "history", "--json").json(),
        "stats": ok(*db, "stats", "--json").json(),
        "status": {r["name"]: ok(*db, "status", "--json", "--session", r["name"]).json() for r in sessions},
        "log": {r["name"]: ok(*db, "log", "--json", "--session", r["name"]).json() for r in sessions},
        "export": {r["name"]: json.loads(ok(*db, "export", "-f", "json", "--session", r["name"]).stdout)
                   for r in sessions},
    }


def folder_listing(db_path: Path) -> list[str]:
    return sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache")


def parted_copy(tmp_path: Path) -> Path:
    """A copy of a real database of the parted layout (ginscore 2.x): club.json and its parts."""
    folder = tmp_path / "club"
    shutil.copytree(FIXTURES / "schema3", folder)
    return folder / "club.json"


EVENING = [
    ["new", "standard", "Ann", "Ben", "--dealer", "Ann"], ["hand", "ann", "4", "22"], ["draw"], ["status"],
    ["log"], ["undo", "--yes"], ["edit", "1", "ben", "0", "30", "--note", "gin"], ["house", "--target", "150", "--from-start"],
    ["rename", "friday"], ["new", "hollywood", "Ann", "Cy", "--dealer", "Cy"], ["hand", "cy", "0", "20"],
    ["rematch", "--yes"], ["new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben"], ["hand", "ann", "3", "30"],
    ["sessions"], ["history"], ["stats"], ["chart"], ["dealer"], ["delete", "friday", "--yes"],
    ["restore", "friday"], ["use", "friday"], ["export", "-f", "json"], ["rules"],
]


def benchmark_sessions(count: int) -> list:
    """Sessions of every variant, legal hand by hand, some over (the benchmark's builder)."""
    import random

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from cli_latency import VARIANTS, _session
    finally:
        sys.path.pop(0)
    rng = random.Random(12)
    return [_session(rng, n, VARIANTS[n % 4], rng.randint(0, 30), live=False) for n in range(count)]


def statistics(history) -> dict:
    """`stats --json` of these replayed sessions, played in the order given, added up as `stats`
    adds up the rows it keeps: one tally of them all."""
    rows = [packed(session_counts(standings)) | {"created_at": None, "id": n} for n, standings in enumerate(history)]
    return combine_tallies([tally(rows)])


# One moment seen from two machines: Tokyo at 04:00 UTC, then New York half an hour later, on what
# is still the day before there, so the text of the two times sorts the other way round.
TOKYO, NEW_YORK_LATER = "2026-12-05T13:00:00+09:00", "2026-12-04T23:30:00-05:00"


def in_two_time_zones(ok, clock, first: list[list], then: list[list]) -> None:
    """Run the commands ``first`` on a machine in Tokyo, then ``then`` half an hour later in New York."""
    for at, commands in ((TOKYO, first), (NEW_YORK_LATER, then)):
        clock(at)
        for command in commands:
            ok(*command)


def bash_after(env: dict, *lines: str) -> list[str]:
    """What an interactive bash shows after each of ``lines`` is typed (TABs in it), with ginscore's
    completion loaded: what readline really inserts or lists (COMPREPLY alone cannot tell where a reply
    goes). Each line is cleared (Ctrl-U) before the next."""
    import pty
    import re
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], env | {"TERM": "dumb", "PS1": "$ "})

    def read(until: bytes = b"", quiet: float = 0.4, seconds: float = 10) -> bytes:
        """What bash writes, up to ``until``, or until it has been quiet a while (a completion is done)."""
        said, deadline = b"", time.monotonic() + seconds
        while time.monotonic() < deadline and not (until and until in said):
            if not select.select([fd], [], [], quiet)[0]:
                if said and not until:
                    break
                continue
            try:
                said += os.read(fd, 65536)
            except OSError:
                break
        return said

    shown = []
    try:
        script = ROOT / "completions" / "ginscore.bash"
        os.write(fd, f"source '{script}'; echo READ''Y\n".encode())
        read(b"READY\r\n$ ")  # the prompt after it: readline is reading keys (a TAB before is typed as is)
        for line in lines:
            os.write(fd, line.encode() + b"~")  # '~' is echoed once readline has done with the TABs before it
            said = read(b"~").decode("utf-8", "replace")
            said = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", said[: said.rfind("~")]).replace("\r\n", "\n")
            shown.append("\n".join(part.split("\r")[-1] for part in said.split("\n")).strip("\x07\n "))
            os.write(fd, b"\x15")  # Ctrl-U: the line cleared for the next
            read(quiet=0.2)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return shown


def shown_as_printed(shown: list[str], printed: list[str], first_lines: bool = False) -> bool:
    """Whether the lines a document shows are the lines printed: every run of them as it stands, the first
    at the start, the last at the end, a line "..." standing for lines left out; ``first_lines``: a sample
    with no "..." may show only the first lines printed."""
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    at = 0
    for n, run in enumerate(runs):
        if n == 0:
            if printed[:len(run)] != run:
                return False
            at = len(run)
            continue
        found = next((i for i in range(at, len(printed) - len(run) + 1) if printed[i:i + len(run)] == run), None)
        if found is None:
            return False
        at = found + len(run)
    return at == len(printed) or (len(runs) > 1 and not runs[-1]) or (first_lines and len(runs) == 1)


def at_most_a_gibibyte() -> None:
    """For a child process (``preexec_fn``): memory enough for any command; one that reads without end
    then fails at once, rather than taking the machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
