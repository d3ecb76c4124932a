"""Helpers of the web tests: `ginscore serve` run by the installed script, plain requests, and
what a page shows read back."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "ginscore"  # where pip put the console script of this environment
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
UPDATE_SECONDS = 2  # a hand recorded shows on an open page within this


class Served:
    """One `ginscore serve` running: its address (with the token, for --lan) and its output."""

    def __init__(self, process: subprocess.Popen, address: str, printed: str):
        self.process, self.address, self.printed = process, address, printed
        found = re.match(r"http://[^/]+:(\d+)/", address)
        self.port = int(found[1])
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_serving(*args: str) -> Served:
    """`ginscore serve --port 0 ARGS` (the database of $GINSCORE_DB), once it listens."""
    process = subprocess.Popen([str(SCRIPT), "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8")
    printed = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        printed += line
        if line.startswith("Scoreboard: "):
            served = Served(process, line.split(" ", 1)[1].strip(), printed)
            served.printed += "".join(iter_ready(process))
            return served
    process.kill()
    raise AssertionError(f"serve did not start: {printed}{process.stderr.read()}")


def iter_ready(process: subprocess.Popen):
    """The lines printed after the address, up to the last one (it says how to stop)."""
    for line in process.stdout:
        yield line
        if "Ctrl-C stops" in line:
            return


def get(url: str, headers: dict | None = None, timeout: float = 10) -> tuple[int, dict, bytes]:
    """Status, headers and body of a GET (an error status too)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def chromium() -> str | None:
    named = os.environ.get("GINSCORE_BROWSER")
    if named:
        return named if Path(named).exists() else None
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


def scores_on(page) -> dict:
    """Every score on a page: {(player, game): points} (game 1 for a variant of one column)."""
    found = page.eval_on_selector_all(
        "[data-score]", "all => all.map(e => [e.dataset.player, e.dataset.game, e.textContent])")
    return {(player, int(game)): int(text) for player, game, text in found}


def scores_of(status: dict) -> dict:
    """The same, from `status --json`."""
    if status["variant"] == "hollywood":
        return {(p, g["game"]): g["scores"][p] for g in status["games"] for p in status["players"]}
    return {(p, 1): status["totals"][p] for p in status["players"]}


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
