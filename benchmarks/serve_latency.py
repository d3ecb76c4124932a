"""How soon an open page of `ginscore serve` shows a hand, and what the server holds in memory.

    python benchmarks/serve_latency.py               # 50 hands, 20 pages
    python benchmarks/serve_latency.py --hands 5 --pages 3

A standard game (target 100,000, so it never ends) in a temporary database; `ginscore serve` runs
on it through this environment's script; one page is open in headless Chromium (Debian's, or
$GINSCORE_BROWSER) through Playwright. Each hand is recorded with the `ginscore hand` command; the
latency is from the new file's last write (its modification time) to the moment the page's board
changed, as the page's own clock says it (a MutationObserver), both on this computer's clock. Then the
server's resident memory (VmRSS) is read idle, with 20 pages open on the session board, and with
20 more on the club board. One line of JSON at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "ginscore"
WATCH_CHANGES = """() => {
  window.changedAt = null;
  new MutationObserver(() => { if (window.changedAt === null) window.changedAt = Date.now(); })
    .observe(document.getElementById('board'), {subtree: true, childList: true, characterData: true});
}"""


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    browser_path = os.environ.get("GINSCORE_BROWSER") or shutil.which("chromium")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        env = {**os.environ, "GINSCORE_DB": str(Path(folder) / "g.json"), "GINSCORE_CACHE": str(Path(folder) / "c")}

        def ginscore(*words: str) -> None:
            subprocess.run([str(SCRIPT), *words], env=env, check=True, capture_output=True)

        ginscore("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "100000")
        server = subprocess.Popen([str(SCRIPT), "serve", "--port", "0"], env=env, stdout=subprocess.PIPE, text=True)
        try:
            address = next(line.split(" ", 1)[1].strip() for line in server.stdout if line.startswith("Scoreboard: "))
            browser = driver.chromium.launch(executable_path=browser_path, headless=True)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(address)
            page.wait_for_selector("body[data-updates]")
            latencies = []
            for number in range(args.hands):
                page.evaluate(WATCH_CHANGES)
                ginscore("hand", "ann" if number % 2 else "ben", "3", "20")
                written = os.stat(env["GINSCORE_DB"]).st_mtime_ns / 1e6  # the new file's last write
                page.wait_for_function("() => window.changedAt !== null", timeout=10_000)
                latencies.append(page.evaluate("window.changedAt") - written)
            idle = rss_mib(server.pid)
            pages = [browser.new_page() for _ in range(args.pages)]
            for one in pages:
                one.goto(address)
                one.wait_for_selector("body[data-updates]")
            with_pages = rss_mib(server.pid)
            club = [browser.new_page() for _ in range(args.pages)]
            for one in club:
                one.goto(address + "club")
                one.wait_for_selector("body[data-updates]")
            seen = [one.evaluate("Number(document.body.dataset.updates)") for one in pages + club]
            ginscore("hand", "ann", "3", "20")  # every page gets it: measured once each has shown it
            for one, updates in zip(pages + club, seen):
                one.wait_for_function("(seen) => Number(document.body.dataset.updates) > seen", arg=updates,
                                      timeout=10_000)
            with_club = rss_mib(server.pid)
            browser.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=15)
    print(json.dumps({
        "hands": args.hands, "latency_median_ms": round(statistics.median(latencies)),
        "latency_worst_ms": round(max(latencies)), "latency_best_ms": round(min(latencies)),
        "rss_idle_mib": round(idle, 1), f"rss_{args.pages}_pages_mib": round(with_pages, 1),
        f"rss_{args.pages}_more_club_pages_mib": round(with_club, 1), "server_exit": server.returncode,
    }))


if __name__ == "__main__":
    main()
