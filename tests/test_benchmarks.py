"""The benchmark scripts run (on a tiny size); their figures are for people, not asserts."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_settle_benchmark_runs_on_a_tiny_size():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "settle_deals.py"), "--deals", "40", "--rounds", "1"],
        capture_output=True, text=True, check=True,
    )
    last = json.loads(done.stdout.strip().splitlines()[-1])
    assert last["deals"] == 40 and last["deals_per_second"] > 0
