"""How fast ginscore settles a deal from the cards.

    python benchmarks/settle_deals.py            # 2,000 random deals, 5 rounds (about 2 minutes)
    python benchmarks/settle_deals.py --deals 500 --rounds 3 --seed 7

Each deal is 10 cards for the knocker and 10 for the opponent from one
shuffled deck; settling it finds the knocker's best melds (and, among equal
ones, the one that leaves the opponent the most) and the opponent's best
melds and lay-offs (ginscore.core.melds.settle). The same deals go through the
brute-force reference of the tests (tests/melds_reference.py: every meld,
every combination, every set of lay-offs) and through the solver ginscore
1.0 shipped (tests/melds_previous.py), in rounds that alternate solver,
reference, previous, solver, ... so that all three see the same machine load.
Each round gives a ratio (reference time / solver time); the median of those
ratios is `solver_vs_reference`, which drifts far less between machines than
microseconds do. Every settle is also timed on its own: a deal's time is its
median over the rounds, and p50/p99 are taken over the deals.

The last line printed is one JSON object: {"deals", "deals_per_second",
"solver_p50_us", "solver_p99_us", "solver_vs_reference", "previous_p50_us",
"previous_p99_us", "solver_vs_previous"}. `solver_figures()` gives the two
figures with goals (docs/performance.md), for benchmarks/cli_latency.py.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import random
import statistics
import time
from pathlib import Path

from ginscore.core.cards import Card
from ginscore.core.melds import settle

TESTS = Path(__file__).resolve().parent.parent / "tests"
DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def _from_tests(name: str):
    """One of the tests' solvers, loaded from its file (sys.path stays as it was)."""
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", TESTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deals(count: int, seed: int) -> list[tuple[list[Card], list[Card]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(DECK, 20)
        out.append((cards[:10], cards[10:]))
    return out


def _each_timed(run, hands) -> list[float]:
    """Seconds of every single ``run(knocker, opponent)``."""
    clock = time.perf_counter
    times = []
    for knocker, opponent in hands:
        start = clock()
        run(knocker, opponent)
        times.append(clock() - start)
    return times


def _percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def measure(count: int = 2000, rounds: int = 5, seed: int = 2026) -> dict:
    """Solver, reference and previous solver on the same deals, in alternating rounds."""
    hands = deals(count, seed)
    ref_settle = _from_tests("melds_reference").ref_settle
    previous_settle = _from_tests("melds_previous").settle
    for run in (settle, ref_settle, previous_settle):  # warm up on a few deals, not counted
        _each_timed(run, hands[:20])
    per_deal = {"solver": [[] for _ in hands], "previous": [[] for _ in hands]}
    totals: dict[str, list[float]] = {"solver": [], "reference": [], "previous": []}
    for _ in range(rounds):
        for name, run in (("solver", settle), ("reference", ref_settle), ("previous", previous_settle)):
            gc.collect()
            times = _each_timed(run, hands)
            totals[name].append(sum(times))
            for mine, seconds in zip(per_deal.get(name, ()), times):
                mine.append(seconds)
    figures = {"deals": count, "rounds": rounds}
    for name in ("solver", "previous"):
        typical = sorted(statistics.median(times) for times in per_deal[name])
        figures[f"{name}_p50_us"] = _percentile(typical, 0.50) * 1e6
        figures[f"{name}_p99_us"] = _percentile(typical, 0.99) * 1e6
        figures[f"{name}_s"] = statistics.median(totals[name])
    figures["reference_s"] = statistics.median(totals["reference"])
    pairs = list(zip(totals["solver"], totals["reference"], totals["previous"]))
    figures["solver_vs_reference"] = statistics.median(ref / mine for mine, ref, _ in pairs)
    figures["solver_vs_previous"] = statistics.median(before / mine for mine, _, before in pairs)
    figures["previous_vs_reference"] = statistics.median(ref / before for _, ref, before in pairs)
    return figures


def solver_figures(deals: int = 2000, rounds: int = 5, seed: int = 2026) -> dict:
    """The two figures with goals (docs/performance.md): ``solver_vs_reference`` (>10) and ``solver_p99_us`` (<100)."""
    figures = measure(deals, rounds, seed)
    return {"solver_vs_reference": round(figures["solver_vs_reference"], 1),
            "solver_p99_us": round(figures["solver_p99_us"], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians are reported")
    args = parser.parse_args()
    f = measure(args.deals, args.rounds, args.seed)
    print(f"{args.deals} deals, {args.rounds} rounds (seed {args.seed})")
    print(f"{'what':<11}{'median s':>10}{'p50 us':>9}{'p99 us':>9}{'reference / it':>16}")
    print(f"{'solver':<11}{f['solver_s']:>10.3f}{f['solver_p50_us']:>9.1f}{f['solver_p99_us']:>9.1f}"
          f"{f['solver_vs_reference']:>16.1f}")
    print(f"{'previous':<11}{f['previous_s']:>10.3f}{f['previous_p50_us']:>9.1f}{f['previous_p99_us']:>9.1f}"
          f"{f['previous_vs_reference']:>16.1f}")
    print(f"{'reference':<11}{f['reference_s']:>10.3f}{'':>9}{'':>9}{1:>16.1f}")
    print(json.dumps({
        "deals": args.deals,
        "deals_per_second": round(args.deals / f["solver_s"]),
        "solver_p50_us": round(f["solver_p50_us"], 1),
        "solver_p99_us": round(f["solver_p99_us"], 1),
        "solver_vs_reference": round(f["solver_vs_reference"], 1),
        "previous_p50_us": round(f["previous_p50_us"], 1),
        "previous_p99_us": round(f["previous_p99_us"], 1),
        "solver_vs_previous": round(f["solver_vs_previous"], 2),
    }))


if __name__ == "__main__":
    main()
