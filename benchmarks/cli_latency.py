"""How long every ginscore command takes as the history grows.

    python benchmarks/cli_latency.py                 # 20, 10,000 and 100,000 hands; 7 rounds
    python benchmarks/cli_latency.py --rounds 3 --sizes 20,10000
    python benchmarks/cli_latency.py --keep /tmp/bench
    python benchmarks/cli_latency.py --versus /tmp/old/bin/python   # this install against another

A command costs process start-up plus reading (and for `hand` and `draw` a
locked, durable write of) the database. typer and tinydb are fixed choices,
so no command can start faster than importing them: the JSON floor is
`python -c "import typer, tinydb, json"`, the human floor adds Rich's console
and table. A third, the typer floor, runs a one-option typer command on top of
the human floor's imports: what typer's own dispatch costs (typer 0.29 imports
pydantic for it, 0.28 did not); ``<command>_vs_typer`` is each command over it,
``floor_typer_vs_human`` that floor over the human one. Every command is
measured against two things, paired round by round (A B A B ...): its floor (human floor for tables, JSON floor for JSON
and CSV) and the same command on the 20-hand database. Each round runs the
floors and every command on every size back to back, a ratio is taken within
the round, and the median of the per-round ratios is reported: unpaired
medians moved by 0.2-0.3 between two runs on this shared machine, paired
ratios far less.

Databases are built through the store's API (not the CLI): 20 hands in one
session, and 10,000 and 100,000 hands in sessions of 20 over the four
variants; the last session is a standard game in play, and current. The
large ones are cached between runs in ``--cache`` (default
``~/.cache/ginscore-bench``) under a key made of this builder's source and
ginscore's own source, so a rerun is quick and a change to either rebuilds.

Peak memory is each child's own maximum resident set (``os.wait4``), in the
counted rounds (warm caches; the cold runs' own as ``cold_<command>_peak_mib``).
ginscore's modules are compiled to bytecode first, as ``pip install .``
leaves them, even where PYTHONDONTWRITEBYTECODE is set.

Every command runs with its own cache folder (``GINSCORE_CACHE``), made in the
warm-up round and kept: the figures are those of a warm cache (``--no-warm-up``
counts the first round too, cold caches and all: a quick check that it runs). After the rounds,
``stats`` and ``ratings`` are timed once more each at the largest size with the
cache deleted first (``cold_stats_s``, ``cold_ratings_s``: every session
replayed). Last, each database is merged once into an empty one (``merge_<size>_s``: every session
added; a merge once slowed with the square of the sessions it added).

``--versus PYTHON`` also runs every command on the first size, and both
floors, with another interpreter (a virtual environment with other versions
of typer or Rich and ginscore installed), right after this one's run in the
same round: ``<command>_vs_versus`` is the median of those paired ratios
(this install's time over the other's), ``start_vs_versus`` their median
over every command.

``--only status,hand`` times only those commands (the test suite's smoke run).

The last line printed is one JSON object: ``<command>_vs_floor`` and
``<command>_vs_typer`` (at the largest size), ``<command>_<size>_vs_floor``
at the sizes between the first and the largest, ``<command>_<size>_vs_20`` for
each command, ``peak_mib_<size>`` and ``peak_floor_mib`` (the human
floor's), plus ``solver_vs_reference`` and ``solver_p99_us`` when the solver
benchmark is there.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ginscore.core.scoring import HouseRules
from ginscore.db.store import Store
from ginscore.core.replay import replay
from ginscore.core.session import Draw, Knock, Roles, SessionFacts

VARIANTS = ("standard", "oklahoma", "hollywood", "three")
UPCARDS = ["AS", "3H", "6D", "9C", "10S", "KH"]
START = datetime(2026, 1, 1, 20, tzinfo=timezone.utc)
HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "ginscore"

# (label, arguments, floor, writes): floor "json" for what scripts read, "human" for tables.
COMMANDS = [
    ("status", ["status"], "human", False),
    ("status_json", ["status", "--json"], "json", False),
    ("hand", ["hand", "ann", "9", "10"], "human", True),
    ("draw", ["draw"], "human", True),
    ("log", ["log"], "human", False),
    ("dealer", ["dealer"], "human", False),
    ("export", ["export"], "json", False),
    ("sessions", ["sessions"], "human", False),
    ("history", ["history"], "human", False),
    ("stats", ["stats"], "human", False),
    ("chart", ["chart"], "human", False),
    ("history_json", ["history", "--json"], "json", False),  # every session, written as read
    ("sessions_all", ["sessions", "--all"], "human", False),
    ("history_all", ["history", "--all"], "human", False),
    ("stats_since", ["stats", "--since", "2026-01-01"], "human", False),  # the filters: the tallies, a group at a time
    ("stats_variant", ["stats", "--variant", "standard"], "human", False),
    ("ratings", ["ratings"], "human", False),
]
MERGE = "merge"  # the label of the merges timed once at the end (see the module)
COLD = [("stats", ["stats"]), ("ratings", ["ratings"])]  # timed once at the largest size, the cache deleted first
FLOORS = {
    "json": ["-c", "import typer, tinydb, json"],
    "human": ["-c", "import typer, tinydb, json, rich.console, rich.table"],
    # What typer itself costs to run a command with one option (typer 0.29 imports pydantic and
    # builds a validator for each option it parses; 0.28 did not): no ginscore command can start
    # faster than this either. Reported beside the import floors, never instead of them.
    "typer": ["-c", "import typer, tinydb, json, rich.console, rich.table\n"
                    "app = typer.Typer()\n"
                    "@app.command()\n"
                    "def table(name: str = 'x') -> None: pass\n"
                    "app(['--name', 'y'])"],
}


def _session(rng: random.Random, number: int, variant: str, hands: int, *, live: bool) -> SessionFacts:
    """A legal session of up to ``hands`` hands (fewer if its game ends); a ``live`` one never ends."""
    from ginscore.core.cards import parse_card

    players = ("Ann", "Ben", "Cy") if variant == "three" else ("Ann", "Ben")
    facts = SessionFacts(
        name=f"{variant}-{number}", variant=variant, players=players,
        rules=HouseRules(target=10_000_000 if live else 400),
        first_dealer=None if variant == "three" else "Ann",
        first_roles=Roles(*players) if variant == "three" else None,
        created_at=(START + timedelta(hours=number)).isoformat(),  # one an hour, in the order played
    )
    told = []
    for _ in range(hands):
        standings = replay(facts._replace(hands=tuple(told)))
        if standings.over:
            break
        upcard = parse_card(rng.choice(UPCARDS))
        at = facts.created_at
        if rng.random() < 0.08:
            told.append(Draw(upcard=upcard, recorded_at=at))
            continue
        in_hand = [standings.roles.box, standings.roles.captain] if standings.roles else list(players)
        limit = upcard.value if variant == "oklahoma" else 10
        told.append(Knock(rng.choice(in_hand), rng.randint(0, limit), rng.randint(0, 60), upcard, recorded_at=at))
    return facts._replace(hands=tuple(told))


def build(path: Path, sessions: int, hands_each: int, seed: int = 5) -> None:
    """A database of exactly sessions x hands_each hands, through the store's API (not the CLI).

    A session whose game ends early passes its unused hands on to the next;
    the last session is a standard game in play, and current.
    """
    rng = random.Random(seed)
    carry = 0
    with Store(path).writing() as db:
        for n in range(sessions):
            live = n == sessions - 1
            variant = "standard" if live else VARIANTS[n % 4]
            facts = _session(rng, n + 1, variant, hands_each + carry, live=live)
            carry = hands_each + carry - len(facts.hands)
            db.add(facts)


def cache_key(sessions: int, hands_each: int) -> str:
    """Changes whenever the builder or any of ginscore's code changes."""
    digest = hashlib.sha256(inspect.getsource(sys.modules[__name__]).encode())
    for source in sorted(PACKAGE.rglob("*.py")):  # all of it: a hand-kept list of modules goes stale
        digest.update(source.read_bytes())
    digest.update(f"{sessions}x{hands_each}".encode())
    return digest.hexdigest()[:16]


def database(folder: Path, cache: Path | None, hands: int) -> Path:
    """A database of ``hands`` hands in ``folder`` (a copy of the cached one when there is one)."""
    sessions = max(1, hands // 20)
    hands_each = hands // sessions
    path = folder / f"db-{hands}.json"
    cached = cache / f"db-{hands}-{cache_key(sessions, hands_each)}" if cache else None
    if cached and cached.is_dir():
        shutil.copytree(cached, folder, dirs_exist_ok=True)
        return path
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    build(work / path.name, sessions, hands_each)
    if cached:
        stale = cached.parent.glob(f"db-{hands}-*")
        for old in stale:
            shutil.rmtree(old, ignore_errors=True)
        shutil.copytree(work, cached, ignore=shutil.ignore_patterns("*.lock"))
    shutil.copytree(work, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.lock"))
    shutil.rmtree(work, ignore_errors=True)
    return path


# Peak memory: Linux carries a process's high-water mark across fork and exec,
# so a child started from this (large) process would report at least this
# process's size. Children are started from a small launcher instead, which
# times them and reads their own maximum resident set from ``os.wait4``.
LAUNCHER = r"""
import json, os, subprocess, sys, time
for line in sys.stdin:
    job = json.loads(line)
    start = time.perf_counter()
    child = subprocess.Popen(job["argv"], env=job["env"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    error = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    reply = {"seconds": elapsed, "code": os.waitstatus_to_exitcode(status), "kib": usage.ru_maxrss,
             "error": error.decode(errors="replace")[-500:]}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
"""


class Launcher:
    """A small long-lived process that runs each timed command (see LAUNCHER)."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-S", "-c", LAUNCHER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def run(self, argv: list[str], env: dict) -> tuple[float, float]:
        """Seconds and peak MiB of one whole process."""
        self.process.stdin.write(json.dumps({"argv": argv, "env": env}) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        if reply["code"] != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({reply['code']}): {reply['error'].strip()}")
        return reply["seconds"], reply["kib"] / 1024

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def solver_figures() -> dict:
    """The meld solver's own figures (benchmarks/settle_deals.py), when it offers them."""
    sys.path.insert(0, str(HERE))
    try:
        import settle_deals
    except ImportError:
        return {}
    finally:
        sys.path.pop(0)
    figures = getattr(settle_deals, "solver_figures", None)
    if figures is None:
        return {}
    found = figures()
    return {k: found[k] for k in ("solver_vs_reference", "solver_p99_us") if k in found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds (after the warm-up round)")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="count the first round too (its caches are cold): a quick check that it runs")
    parser.add_argument("--sizes", default="20,10000,100000", help="hands in each database; the first is the base")
    parser.add_argument("--keep", type=Path, help="put the databases here and leave them")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ginscore-bench",
                        help="where built databases are kept between runs")
    parser.add_argument("--no-cache", action="store_true", help="build every database afresh")
    parser.add_argument("--no-solver", action="store_true", help="leave out the solver's figures")
    parser.add_argument("--versus", help="another Python with ginscore installed, paired on the first size")
    parser.add_argument("--only", help="time only these commands (labels, comma-separated), e.g. status,hand")
    args = parser.parse_args()
    commands, cold, merging = COMMANDS, COLD, True
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {label for label, *_ in COMMANDS} - {MERGE}
        if unknown:
            parser.error(f"no such command label: {', '.join(sorted(unknown))}")
        commands = [c for c in COMMANDS if c[0] in wanted]
        cold = [c for c in COLD if c[0] in wanted]
        merging = MERGE in wanted
    sizes = [int(s) for s in args.sizes.split(",")]
    base, largest = sizes[0], sizes[-1]

    folder = args.keep or Path(tempfile.mkdtemp(prefix="ginscore-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    paths = {size: database(folder, None if args.no_cache else args.cache, size) for size in sizes}
    built = ", ".join(f"{size} hands ({_kib(paths[size])} KiB)" for size in sizes)
    print(f"databases: {built}; ready in {time.perf_counter() - started:.1f} s")

    python = sys.executable
    # Time ginscore as installed: `pip install .` leaves compiled bytecode, which a machine that
    # sets PYTHONDONTWRITEBYTECODE (this one does) would otherwise never write, so every timed
    # run would compile every module again while the floors compile nothing.
    compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([python, "-m", "compileall", "-q", str(PACKAGE)], env=compiled, check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("GINSCORE_DB", "COLUMNS")}
    env["COLUMNS"] = "100"
    env["GINSCORE_CACHE"] = str(folder / "cache")  # the derived rows: made in round 0, kept after
    undo = {size: [python, "-m", "ginscore", "--db", str(paths[size]), "undo", "--yes"] for size in sizes}

    launcher = Launcher()
    run = launcher.run
    seconds: dict[tuple, list[float]] = {}
    peaks: dict[tuple, float] = {}
    ratios: dict[str, list[float]] = {}

    counting = [args.no_warm_up]  # the warm-up round (cold caches) counts in neither times nor peaks

    # The other install keeps its own cache folder, and undoes its own hands: a cache is stamped with
    # the code that made it, so one folder shared by two versions was made again by each in turn.
    versus_env = env | {"GINSCORE_CACHE": str(folder / "cache-versus")}

    def timed(key: tuple, argv: list[str]) -> float:
        elapsed, peak = run(argv, versus_env if key[-1] == "versus" else env)
        seconds.setdefault(key, []).append(elapsed)
        if counting[0]:
            peaks[key] = max(peaks.get(key, 0.0), peak)
        return elapsed

    def versus(key: str, this: float, argv: list[str], counted: bool) -> None:
        """The same process under ``--versus``, right after this one's: the pair's ratio."""
        other = timed((key, "versus"), [args.versus, *argv])
        if counted:
            ratios.setdefault(f"{key}_vs_versus", []).append(this / other)

    skip = 0 if args.no_warm_up else 1  # the warm-up round's times, left out of the medians
    for round_number in range(1 - skip, args.rounds + 1):  # round 0 warms the caches, uncounted
        counting[0] = round_number > 0
        floor = {name: timed(("floor", name), [python, *argv]) for name, argv in FLOORS.items()}
        if round_number > 0:
            ratios.setdefault("floor_typer_vs_human", []).append(floor["typer"] / floor["human"])
        if args.versus:
            for name, argv in FLOORS.items():
                versus(f"floor_{name}", floor[name], argv, round_number > 0)
        for label, argv, floor_name, writes in commands:
            took = {}
            for size in sizes:
                took[size] = timed((label, size), [python, "-m", "ginscore", "--db", str(paths[size]), *argv])
                if writes:
                    run(undo[size], env)  # keep the size put (not timed)
            if args.versus:
                versus(label, took[base], ["-m", "ginscore", "--db", str(paths[base]), *argv], round_number > 0)
                if writes:
                    run([args.versus, *undo[base][1:]], versus_env)
            if round_number == 0:
                continue
            ratios.setdefault(f"{label}_vs_floor", []).append(took[largest] / floor[floor_name])
            ratios.setdefault(f"{label}_vs_typer", []).append(took[largest] / floor["typer"])
            for size in sizes[1:]:
                ratios.setdefault(f"{label}_{_short(size)}_vs_{_short(base)}", []).append(took[size] / took[base])
            for size in sizes[1:-1]:  # the sizes between: their own goals against the floor
                ratios.setdefault(f"{label}_{_short(size)}_vs_floor", []).append(took[size] / floor[floor_name])

    print(f"\n{'command':<14}" + "".join(f"{_short(s) + ' ms':>11}" for s in sizes) + f"{'peak MiB':>10}")
    for name in FLOORS:
        print(f"{'floor ' + name:<14}{statistics.median(seconds[('floor', name)][skip:]) * 1000:>11.1f}"
              + " " * 11 * (len(sizes) - 1) + f"{peaks[('floor', name)]:>10.1f}")
    for label, *_ in commands:
        line = "".join(f"{statistics.median(seconds[(label, s)][skip:]) * 1000:>11.1f}" for s in sizes)
        print(f"{label:<14}{line}{peaks[(label, largest)]:>10.1f}")
    if args.versus:
        print(f"\n--versus {args.versus}, {_short(base)} hands:")
        for label in [f"floor_{name}" for name in FLOORS] + [label for label, *_ in commands]:
            print(f"{label:<14}{statistics.median(seconds[(label, 'versus')][skip:]) * 1000:>11.1f}")
    print("\nmedian of per-round ratios:")
    summary = {name: round(statistics.median(values), 3) for name, values in ratios.items()}
    if args.versus:
        summary["start_vs_versus"] = round(statistics.median(
            [summary[f"{label}_vs_versus"] for label, *_ in commands]), 3)
    for name, value in summary.items():
        print(f"  {name:<28}{value:>8.3f}")
    for label, argv in cold:  # the first run after the cache is deleted: every session replayed
        shutil.rmtree(folder / "cache", ignore_errors=True)
        elapsed, peak = run([python, "-m", "ginscore", "--db", str(paths[largest]), *argv], env)
        summary[f"cold_{label}_s"] = round(elapsed, 2)
        summary[f"cold_{label}_peak_mib"] = round(peak, 1)
        print(f"  {'cold ' + label + ' (s)':<28}{elapsed:>8.2f}")
    for size in sizes if merging else ():
        into = folder / f"merged-{_short(size)}.json"
        into.unlink(missing_ok=True)
        elapsed, _ = run([python, "-m", "ginscore", "--db", str(into), MERGE, str(paths[size])], env)
        summary[f"merge_{_short(size)}_s"] = round(elapsed, 2)
        print(f"  {'merge ' + _short(size) + ' (s)':<28}{elapsed:>8.2f}")
    summary[f"peak_mib_{_short(largest)}"] = round(max(peaks[(label, largest)] for label, *_ in commands), 1)
    summary["peak_floor_mib"] = round(peaks[("floor", "human")], 1)
    if not args.no_solver:
        summary.update(solver_figures())
    print()
    print(json.dumps(summary))
    launcher.close()
    if args.keep is None:
        shutil.rmtree(folder, ignore_errors=True)


def _kib(path: Path) -> int:
    """The size of a database: its main file and the files of its stem beside it."""
    stem = path.name[: -len(".json")]
    return sum(p.stat().st_size for p in path.parent.iterdir() if p.name.startswith(stem + ".")) // 1024


def _short(size: int) -> str:
    """100000 -> 100k, 20 -> 20."""
    return f"{size // 1000}k" if size >= 1000 and size % 1000 == 0 else str(size)


if __name__ == "__main__":
    main()
