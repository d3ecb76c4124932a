"""Every command once, through the installed script, on whatever typer and Rich this Python has.

CI runs it on the newest typer and Rich, beside the tests on the pinned ones: the pin below typer 0.29
is a measured choice (start-up time, docs/performance.md), and this shows it hides no crash.

    python .ci/smoke.py        (exit 0 when every command answered as expected)
"""

import os
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

from ginscore.cli.registry import NAMES

# Each command line with the exit status it must give, in the order of an evening.
EVENING = [
    (["new", "standard", "Ann", "Ben", "--dealer", "ann"], 0),
    (["hand", "ann", "5", "30"], 0),
    (["hand", "ben", "0", "22"], 0),
    (["draw"], 0),
    (["edit", "1", "ann", "4", "30"], 0),
    (["undo", "--yes"], 0),
    (["house", "--gin-bonus", "20", "--from-next"], 0),
    (["status"], 0), (["status", "--json"], 0), (["dealer"], 0), (["log"], 0), (["rules"], 0), (["chart"], 0),
    (["export", "--output", "{tmp}/evening.json", "--format", "json"], 0),
    (["import", "{tmp}/evening.json", "--as-copy"], 0),
    (["sessions"], 0), (["use", "standard-1"], 0), (["where"], 0),
    (["rename", "friday"], 0), (["delete", "friday", "--yes"], 0), (["restore", "friday"], 0),
    (["merge", "{tmp}/other.json"], 2),  # a file that is not there: refused
    (["stats"], 0), (["history"], 0), (["ratings"], 0),
    (["hand", "nobody", "5", "30"], 2),  # an unknown player: refused
    (["play"], 0),  # with ":quit" on its standard input
    (["rematch", "--yes"], 0),
    (["watch", "--once"], 0),
    (["serve", "--help"], 0),  # it serves until Ctrl-C (tests/web/ run it); its options parsed here
    (["serve", "--port", "-1"], 2),
    (["deadwood", "AS", "2S", "3S", "KD", "KC", "KH", "5C", "6D", "7H", "9S"], 0),
    (["complete", "players"], 0),
]


def main() -> int:
    covered = {line[0] for line, _ in EVENING}
    missing = [name for name in NAMES if name not in covered]
    if missing:
        print(f"smoke: no line for {', '.join(missing)}", file=sys.stderr)
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GINSCORE_DB=str(Path(tmp) / "g.json"), GINSCORE_CACHE=str(Path(tmp) / "cache"),
                   COLUMNS="80", NO_COLOR="1")
        for line, expected in [*EVENING, (["--help"], 0), (["--version"], 0)]:
            argv = [arg.replace("{tmp}", tmp) for arg in line]
            done = subprocess.run([sys.executable, "-m", "ginscore", *argv], env=env, cwd=tmp, input=":quit\n",
                                  capture_output=True, text=True, timeout=60)
            ok = done.returncode == expected and "Traceback" not in done.stderr
            failed += not ok
            print(f"{'ok' if ok else 'FAILED'}  ginscore {' '.join(line)}  (exit {done.returncode})")
            if not ok:
                print(done.stdout[-2000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
    print(f"smoke on typer {version('typer')}, rich {version('rich')}: {len(EVENING) + 2 - failed} command lines as expected, {failed} not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
