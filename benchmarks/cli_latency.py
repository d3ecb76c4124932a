"""How long a ginscore command takes at the table, against the floor it cannot beat (issue 5).

    python benchmarks/cli_latency.py             # 15 runs of each, after a warm-up
    python benchmarks/cli_latency.py --runs 5 --keep /tmp/bench

A command costs process start-up plus one read (and for `hand` one locked,
durable write) of the database. typer and tinydb are fixed choices, so no
command can start faster than importing them: the JSON floor is
`python -c "import typer, tinydb, json"`, the human floor adds Rich's console
and table. Two databases are built through the store's API: 10,000 hands over
500 sessions of the four variants, and one session of 20 hands. Every command
and floor is run as a whole process with this interpreter, round-robin so
that all of them see the same machine load; the medians are compared as
ratios, which drift far less on a shared machine than milliseconds do.

The last line printed is one JSON object:
{"status_vs_floor", "status_json_vs_floor", "hand_vs_floor", "status_10k_vs_20", "hand_10k_vs_20"}.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ginscore.rules import HouseRules
from ginscore.store import Store
from ginscore.variants import Draw, Knock, Roles, SessionFacts, replay

VARIANTS = ("standard", "oklahoma", "hollywood", "three")
UPCARDS = ["AS", "3H", "6D", "9C", "10S", "KH"]


def _session(rng: random.Random, number: int, variant: str, hands: int, *, live: bool) -> SessionFacts:
    """A legal session of up to ``hands`` hands (fewer if its game ends); a ``live`` one never ends."""
    from ginscore.cards import parse_card

    players = ("Ann", "Ben", "Cy") if variant == "three" else ("Ann", "Ben")
    facts = SessionFacts(
        name=f"{variant}-{number}", variant=variant, players=players,
        rules=HouseRules(target=10_000_000 if live else 400),
        first_dealer=None if variant == "three" else "Ann",
        first_roles=Roles(*players) if variant == "three" else None,
        created_at="2026-01-01T20:00:00+00:00",
    )
    told = []
    for _ in range(hands):
        standings = replay(facts._replace(hands=tuple(told)))
        if standings.over:
            break
        upcard = parse_card(rng.choice(UPCARDS))
        at = "2026-01-01T20:00:00+00:00"
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


def _timed(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode().strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command (after one warm-up)")
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--hands", type=int, default=20, help="hands per session")
    parser.add_argument("--keep", type=Path, help="build the databases here and leave them")
    args = parser.parse_args()

    folder = args.keep or Path(tempfile.mkdtemp(prefix="ginscore-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    big, small = folder / "big.json", folder / "small.json"
    for path in (big, small):
        path.unlink(missing_ok=True)
    started = time.perf_counter()
    build(big, args.sessions, args.hands)
    build(small, 1, args.hands)
    size = sum(len(f.hands) for f in Store(big).reading().all_facts())
    print(f"built {size} hands in {args.sessions} sessions ({big.stat().st_size // 1024} KiB) "
          f"and {args.hands} hands in 1 session, in {time.perf_counter() - started:.1f} s")

    python = sys.executable
    env = {k: v for k, v in os.environ.items() if k != "GINSCORE_DB"}
    ginscore = [python, "-m", "ginscore"]
    cases: dict[str, list[str]] = {
        "floor json": [python, "-c", "import typer, tinydb, json"],
        "floor human": [python, "-c", "import typer, tinydb, json, rich.console, rich.table"],
    }
    for label, path in (("10k", big), ("20", small)):
        db = ["--db", str(path)]
        cases[f"status {label}"] = ginscore + db + ["status"]
        cases[f"status --json {label}"] = ginscore + db + ["status", "--json"]
        cases[f"hand {label}"] = ginscore + db + ["hand", "ann", "9", "10"]
        cases[f"log --json {label}"] = ginscore + db + ["log", "--json"]
        cases[f"export {label}"] = ginscore + db + ["export"]
    undo = {label: ginscore + ["--db", str(path), "undo", "--yes"] for label, path in (("10k", big), ("20", small))}

    times: dict[str, list[float]] = {name: [] for name in cases}
    for run in range(args.runs + 1):  # the first round warms the caches and is not counted
        for name, argv in cases.items():
            elapsed = _timed(argv, env)
            if name.startswith("hand"):
                _timed(undo[name.split()[-1]], env)  # keep the size put
            if run:
                times[name].append(elapsed)
    median = {name: statistics.median(values) for name, values in times.items()}

    floor_json, floor_human = median["floor json"], median["floor human"]
    print(f"\n{'command':<22}{'median ms':>10}{'vs json floor':>15}{'vs human floor':>16}")
    for name, value in median.items():
        print(f"{name:<22}{value * 1000:>10.1f}{value / floor_json:>15.2f}{value / floor_human:>16.2f}")
    ratios = {
        "status_vs_floor": median["status 10k"] / floor_human,
        "status_json_vs_floor": median["status --json 10k"] / floor_json,
        "hand_vs_floor": median["hand 10k"] / floor_human,
        "status_10k_vs_20": median["status 10k"] / median["status 20"],
        "hand_10k_vs_20": median["hand 10k"] / median["hand 20"],
    }
    print()
    print(json.dumps({k: round(v, 3) for k, v in ratios.items()}))
    if args.keep is None:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
