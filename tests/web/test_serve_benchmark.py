"""benchmarks/serve_latency.py still runs on a tiny size (it needs the browser the page tests use)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import ROOT


def test_the_serve_benchmark_runs_on_a_tiny_size(browser, tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "serve_latency.py"), "--hands", "1", "--pages", "1"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["hands"] == 1 and figures["server_exit"] == 0
    assert 0 < figures["latency_median_ms"] <= figures["latency_worst_ms"] < 2000
    assert 0 < figures["rss_idle_mib"] <= figures["rss_1_more_club_pages_mib"]
