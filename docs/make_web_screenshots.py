"""The pictures of `ginscore serve`: each variant's page on a phone (390x844, light) and on a TV
(1920x1080, dark), and the club board, taken in a real browser.

    python docs/make_web_screenshots.py    # rewrite docs/serve/*.png

A temporary database is filled through the real CLI (the hands below), `ginscore serve` is started
on it (pinned to each session in turn), and headless Chromium takes each picture once the page
shows its data. It needs Playwright (the test extra) and a Chromium (`apt-get install chromium`,
or $GINSCORE_BROWSER). Unlike the SVGs of make_screenshots.py these are not compared by a test:
a browser does not draw the same bytes twice.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "serve"
SIZES = [(390, 844, "light", "phone"), (1920, 1080, "dark", "tv")]

# Each session: its `new` line, then every hand as typed at the table.
SESSIONS = {
    "standard": [
        "new standard Ann Ben --dealer ann --stake 0.05 --name standard",
        "hand ben 6 24", "hand ann 0 37", "hand ben 9 8", "hand ann 3 21", "draw", "hand ben 2 33",
        "hand ann 5 27",
    ],
    "oklahoma": [
        "new oklahoma Ann Ben --dealer ben --name oklahoma",
        "hand ann 3 20 --upcard 9s", "hand ben 2 14 --upcard kd", "hand ben 0 26 --upcard 4h",
        "hand ann 1 19 --upcard 7c",
    ],
    "hollywood": [  # Ann is on all three games, Ben on two (R17, R18)
        "new hollywood Ann Ben --dealer ben --name hollywood",
        "hand ann 4 22", "hand ben 0 31", "draw", "hand ann 3 28", "hand ben 2 19", "hand ann 0 44",
    ],
    "three": [
        "new three Ann Ben Cy --box ann --captain ben --name three",
        "hand ann 3 20", "hand cy 2 25", "hand ben 0 18", "hand ann 4 9",
    ],
}


def ginscore(db: Path, *args: str) -> None:
    env = {**os.environ, "GINSCORE_DB": str(db)}
    ran = subprocess.run([sys.executable, "-m", "ginscore", *args], capture_output=True, text=True, env=env)
    if ran.returncode != 0:
        raise SystemExit(f"ginscore {' '.join(args)}: {ran.stderr.strip()}")


def serving(db: Path, *args: str) -> tuple[subprocess.Popen, str]:
    """`ginscore serve --port 0 ARGS` on ``db``, and its address once it listens."""
    env = {**os.environ, "GINSCORE_DB": str(db)}
    server = subprocess.Popen([sys.executable, "-m", "ginscore", "serve", "--port", "0", *args], env=env,
                              stdout=subprocess.PIPE, text=True)
    for line in server.stdout:
        if line.startswith("Scoreboard: "):
            return server, line.split(" ", 1)[1].strip().rstrip("/")
    raise SystemExit("ginscore serve did not start")


def browser_path() -> str:
    found = os.environ.get("GINSCORE_BROWSER") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise SystemExit("no Chromium found: apt-get install chromium, or set $GINSCORE_BROWSER")
    return found


def take(browser, address: str, name: str) -> None:
    for width, height, scheme, size in SIZES:
        page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
        page.goto(address)
        page.wait_for_selector("body[data-updates]")
        picture = OUT / f"{name}-{size}.png"
        page.screenshot(path=str(picture))
        page.close()
        print(f"wrote {picture.relative_to(HERE.parent)}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        db = Path(folder) / "club.json"
        for lines in SESSIONS.values():
            for line in lines:
                ginscore(db, *line.split())
        browser = driver.chromium.launch(executable_path=browser_path(), headless=True)
        for name in [*SESSIONS, "club"]:
            server, address = serving(db) if name == "club" else serving(db, "--session", name)
            try:
                take(browser, address + ("/club" if name == "club" else "/"), name)
            finally:
                server.send_signal(signal.SIGINT)
                server.wait(timeout=15)
        browser.close()


if __name__ == "__main__":
    main()
