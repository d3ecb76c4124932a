"""Whether two installs of ginscore behave the same: the check of a change meant to change nothing.

    python benchmarks/differential.py OLD NEW              # OLD, NEW: two `ginscore` executables
    python benchmarks/differential.py OLD NEW --quick      # at 80 columns only (else 40, 80 and 160)
    python benchmarks/differential.py OLD NEW --indexed    # every file read through its index

The same scripted evenings (every variant; edits, undo, house changes from the start and from the
next hand; notes with markup; cards; rematch; export, import and merge; delete and restore; refused
input; every command's help; `play` with typed answers; an unusable file) run through both, each in
the same fresh folder, with the clock and random ids made repeatable. After every step the exit
status, standard output, standard error and every byte of the folder (database, cache, exports) are
compared. ``--indexed`` reads even a small file through its index, the path a large database takes.
Install the old code beside the new with ``pip install`` of a ``git archive`` into its own virtual
environment. Prints the count of steps and of differences; exit 1 when any step differs, each
difference written to ``--out`` (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Made the first module every ginscore process imports (PYTHONPATH): random ids and the clock repeat,
# run after run, counted by a file each process reads and moves on by one.
SITE = '''
import datetime, hashlib, os

step_file = os.environ["DIFFERENTIAL_STEP"]
step = int(open(step_file).read() or 0)
with open(step_file, "w") as f:
    f.write(str(step + 1))
drawn = [0]


def urandom(size):
    made = b""
    while len(made) < size:
        drawn[0] += 1
        made += hashlib.sha256(f"{step}-{drawn[0]}".encode()).digest()
    return made[:size]


class Clock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        at = datetime.datetime(2026, 12, 4, 20, 0, tzinfo=datetime.timezone.utc) + datetime.timedelta(minutes=step)
        return at.astimezone(tz) if tz else at.replace(tzinfo=None)


class Calendar(datetime.date):
    @classmethod
    def today(cls):
        return datetime.date(2026, 12, 4)


os.urandom = urandom
datetime.datetime, datetime.date = Clock, Calendar
if os.environ.get("DIFFERENTIAL_INDEXED"):
    import ginscore.db.layout

    ginscore.db.layout.INDEXED_FROM = 0
'''

CARDS = ["--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KD KC KH 5C 6D 8S 9S 4H QD QC"]
VIEWS = [["status"], ["status", "--json"], ["log"], ["dealer"], ["chart"], ["house"], ["rules"],
         ["sessions"], ["sessions", "--all"], ["sessions", "--json"], ["history"], ["history", "--json"],
         ["history", "--all"], ["stats"], ["stats", "--json"], ["ratings"], ["ratings", "--json"],
         ["ratings", "--chart"], ["export"], ["export", "--format", "json"], ["export", "--finals"],
         ["export", "--finals", "--excel"], ["export", "--format", "svg"], ["export", "--format", "html"],
         ["where"], ["watch", "--once"], ["complete", "players"], ["complete", "sessions"]]
COMMANDS = ["new", "rematch", "hand", "draw", "edit", "undo", "house", "status", "dealer", "log", "rules", "chart",
            "import", "export", "sessions", "use", "where", "rename", "delete", "restore", "merge", "stats",
            "history", "ratings", "play", "watch", "serve", "deadwood", "complete"]
PLAY = [":quit\n", "ann\n5\n30\n:quit\n", "draw\n:quit\n", "ben\n0\n22\nundo\n:quit\n"]


def evenings(work: str) -> list[list[list[str]]]:
    """The scripted evenings: each a list of command lines, the views run after each."""
    def knocks(*hands: str) -> list[list[str]]:
        return [["hand", *hand.split()] for hand in hands]

    return [
        [["new", "standard", "Ann", "Ben", "--dealer", "ann"], *knocks("ann 5 30", "ben 0 22", "ann 8 6"), ["draw"],
         ["hand", "ben", "3", "3"], ["edit", "1", "ann", "4", "30"], ["undo", "--yes"],
         ["house", "--gin-bonus", "20", "--from-next"], ["hand", "ann", "0", "40", "--note", "lucky [red]x[/]"],
         ["house", "--target", "150", "--from-start"], ["house", "--shutout"], ["hand", "ann", *CARDS],
         *knocks("ben 10 50", "ben 0 60", "ben 2 50", "ben 1 45", "ben 0 70")],
        [["new", "oklahoma", "Cy", "Di", "--dealer", "di", "--spades-double"],
         *knocks("cy 5 30 --upcard 7h", "cy 5 30", "di 0 20 --upcard as", "di 3 20 --upcard 3s",
                 "cy 9 20 --upcard 8s"),
         ["edit", "2", "cy", "2", "9", "--upcard", "9c"], ["draw", "--upcard", "kd"],
         *knocks("di 1 99 --upcard 2c", "di 0 90 --upcard qh")],
        [["new", "hollywood", "Ed", "Flo", "--dealer", "ed", "--stake", "0.5"],
         *knocks("ed 5 30", "flo 0 22", "ed 8 6", "flo 4 40", "ed 0 50", "ed 0 55", "flo 0 60", "ed 2 70",
                 "flo 1 80", "ed 0 90", "flo 0 95", "ed 0 99"),
         ["rematch", "--yes"], ["hand", "ed", "3", "30"]],
        [["new", "three", "Gus", "Hal", "Ivy", "--box", "gus", "--captain", "hal", "--box-bonus", "25"],
         *knocks("gus 5 30", "hal 0 22", "ivy 8 6"), ["draw"], *knocks("gus 0 80", "hal 2 90"),
         ["edit", "1", "ivy", "3", "3"], ["undo", "--yes"]],
        [["new", "standard", "Ann", "Ben", "--dealer", "ben", "--name", "friday"], ["hand", "ann", "5", "30"],
         ["export", "--output", f"{work}/e.json", "--format", "json"], ["export", "--output", f"{work}/e.csv"],
         ["import", f"{work}/e.json", "--as-copy"], ["import", f"{work}/e.json"],
         ["import", f"{work}/e.csv", "--name", "fromcsv"], ["sessions"], ["use", "friday"], ["rename", "saturday"],
         ["delete", "saturday", "--yes"], ["sessions", "--deleted"], ["status"], ["restore", "saturday"],
         ["use", "fromcsv"], ["hand", "ben", "1", "10"], ["merge", f"{work}/nothere.json"],
         ["new", "oklahoma", "Ann", "Cy", "--dealer", "cy", "--target", "200"], ["use", "saturday"],
         ["delete", "fromcsv", "--yes"], ["stats", "ann"], ["stats", "--player", "ann", "--variant", "standard"],
         ["history", "--player", "ben"], ["ratings", "--player", "ann"], ["sessions", "--limit", "1"]],
        [["new", "standard", "Ann", "Ben", "--dealer", "ann"],  # refused: each exits non-zero, no byte changed
         *knocks("nobody 5 30", "ann 11 30", "ann -1 30", "ann x y", "ann 5", "ann 5 3"),
         ["hand", "ann", "--cards", "AS AS"], ["edit", "9", "ann", "1", "2"], ["undo", "--yes"], ["undo", "--yes"],
         ["use", "nothere"], ["rename", ""], ["delete", "nothere", "--yes"], ["restore", "nothere"],
         ["new", "standard", "Ann"], ["new", "standard", "Ann", "ann"], ["new", "poker", "A", "B"],
         ["new", "standard", "A", "B", "--dealer", "zed"], ["new", "three", "A", "B", "C"],
         ["house", "--target", "-5"], ["house", "--from-next"], ["house", "--gin-bonus", "x"],
         ["export", "--format", "pdf"], ["export", "--output", "/nonexistent/dir/x.csv"],
         ["import", f"{work}/none.json"], ["stats", "--since", "yesterday"], ["history", "--limit", "0"],
         ["sessions", "--limit", "-1"], ["status", "--session", "nothere"],
         ["hand", "ann", "1", "2", "--session", "nothere"], ["--session", "x", "status"], ["bogus"],
         ["deadwood", "AS", "2S"], ["deadwood", "ZZ", "2S", "3S", "KD", "KC", "KH", "5C", "6D", "7H", "9S"],
         ["deadwood", "AS", "2S", "3S", "KD", "KC", "KH", "5C", "6D", "7H", "9S"], ["serve", "--port", "-1"],
         ["complete", "bogus"], ["--db", f"{work}/nodir/x/g.json", "status"], ["rematch"]],
    ]


def folder_digest(root: Path) -> str:
    """The digest of every file's name and bytes under ``root``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def run_all(ginscore: str, root: Path, widths: list[str], indexed: bool, steps: int | None) -> list[tuple]:
    """Every step through one install: (command line and width, status, stdout, stderr, folder digest)."""
    work = root / "w"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    (root / "step").write_text("0")
    env = dict(os.environ, PYTHONPATH=str(root / "site"), DIFFERENTIAL_STEP=str(root / "step"),
               GINSCORE_DB=f"{work}/g.json", GINSCORE_CACHE=f"{work}/c", NO_COLOR="1", TERM="dumb")
    env.pop("LINES", None)
    if indexed:
        env["DIFFERENTIAL_INDEXED"] = "1"
    found: list[tuple] = []

    def step(argv: list[str], width: str = "80", typed: str = "") -> None:
        if steps is not None and len(found) >= steps:
            return
        done = subprocess.run([ginscore, *argv], env=dict(env, COLUMNS=width), cwd=work, input=typed,
                              capture_output=True, text=True, timeout=120)
        found.append((f"{' '.join(argv)} @{width}", done.returncode, done.stdout, done.stderr, folder_digest(work)))

    for number, evening in enumerate(evenings(str(work))):
        for argv in evening:
            step(argv)
        for width in widths:
            for view in VIEWS:
                step(view, width)
        if number == 0:
            for typed in PLAY:
                step(["play"], "80", typed)
    for width in widths:
        for argv in [[name, "--help"] for name in COMMANDS] + [["--help"], ["--version"], []]:
            step(argv, width)
    for damaged in ('{"meta": nonsense', '{"_default": {}}'):  # named, exit 1, never overwritten
        (work / "g.json").write_text(damaged)
        for argv in (["status"], ["hand", "ann", "1", "2"], ["sessions"], ["new", "standard", "A", "B"]):
            step(argv)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", help="the ginscore executable of the code before")
    parser.add_argument("new", help="the ginscore executable of the code after")
    parser.add_argument("--quick", action="store_true", help="at 80 columns only")
    parser.add_argument("--indexed", action="store_true", help="every file read through its index")
    parser.add_argument("--steps", type=int, help="only the first N steps")
    parser.add_argument("--out", type=Path, help="where the report of differences goes")
    given = parser.parse_args()
    # Each step runs in the work folder: a path given relative to here is made absolute first.
    old, new = (os.path.abspath(shutil.which(name) or name) for name in (given.old, given.new))
    widths = ["80"] if given.quick else ["40", "80", "160"]
    with tempfile.TemporaryDirectory(prefix="ginscore-differential-") as scratch:
        root = Path(scratch)
        (root / "site").mkdir()
        (root / "site" / "sitecustomize.py").write_text(SITE)
        before = run_all(old, root, widths, given.indexed, given.steps)
        after = run_all(new, root, widths, given.indexed, given.steps)
    out = given.out or Path(tempfile.mkdtemp(prefix="ginscore-differential-report-"))
    out.mkdir(parents=True, exist_ok=True)
    differences = [(one, other) for one, other in zip(before, after) if one != other]
    with open(out / "report.txt", "w", encoding="utf-8") as report:
        for one, other in differences:
            report.write(f"=== {one[0]}\n")
            for at, what in enumerate(("status", "stdout", "stderr", "files"), 1):
                if one[at] != other[at]:
                    report.write(f"--- {what}\nbefore: {one[at]!r}\nafter:  {other[at]!r}\n")
    print(f"{len(before)} steps, {len(differences)} differences" + (f" (see {out}/report.txt)" if differences else ""))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
