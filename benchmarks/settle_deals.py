"""How fast ginscore settles a deal from the cards (issue 4).

    python benchmarks/settle_deals.py            # 10,000 random deals
    python benchmarks/settle_deals.py --deals 500 --seed 7

Each deal is 10 cards for the knocker and 10 for the opponent from one
shuffled deck; settling it finds the knocker's best melds (and, among equal
ones, the one that leaves the opponent the most) and the opponent's best
melds and lay-offs (ginscore.melds.settle). Run side by side in the same
process, the baseline only adds up the card values of both hands: the ratio
says how many times that floor a full settlement costs, which drifts far less
between machines than seconds do. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from ginscore.cards import Card
from ginscore.melds import settle

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def deals(count: int, seed: int) -> list[tuple[list[Card], list[Card]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(DECK, 20)
        out.append((cards[:10], cards[10:]))
    return out


def baseline(hands) -> None:
    for knocker, opponent in hands:
        sum(c.value for c in knocker) + sum(c.value for c in opponent)


def settle_all(hands) -> None:
    for knocker, opponent in hands:
        settle(knocker, opponent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the median is reported")
    args = parser.parse_args()
    hands = deals(args.deals, args.seed)
    timings = {"baseline": [], "settle": []}
    for _ in range(args.rounds):  # alternate so both see the same machine load
        for name, run in (("baseline", baseline), ("settle", settle_all)):
            start = time.perf_counter()
            run(hands)
            timings[name].append(time.perf_counter() - start)
    base, full = statistics.median(timings["baseline"]), statistics.median(timings["settle"])
    per_deal_us = full / args.deals * 1e6
    print(f"{'what':<10} {'median s':>10} {'us/deal':>10} {'deals/s':>10}")
    print(f"{'baseline':<10} {base:>10.3f} {base / args.deals * 1e6:>10.1f} {args.deals / base:>10.0f}")
    print(f"{'settle':<10} {full:>10.3f} {per_deal_us:>10.1f} {args.deals / full:>10.0f}")
    print(json.dumps({"deals": args.deals, "deals_per_second": round(args.deals / full),
                      "us_per_deal": round(per_deal_us, 1), "settle_vs_baseline": round(full / base, 1)}))


if __name__ == "__main__":
    main()
