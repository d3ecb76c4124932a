"""The README's pictures: a real evening at the table, drawn by `ginscore export --format svg`.

    python docs/make_screenshots.py            # rewrite docs/hollywood.svg and docs/standard.svg
    python docs/make_screenshots.py --check    # exit 1 if a picture is stale
    python docs/make_screenshots.py --record   # play the evening again into docs/evening/*.json

The evening is kept as the JSON exports of two sessions (docs/evening/),
recorded by playing the hands of EVENING through the real CLI. The pictures
are made from them through the real CLI too: each file is imported into an
empty temporary database and exported as SVG. Nothing in a picture depends
on the clock or the terminal (a fixed width, fixed colours, a fixed SVG id),
so tests/screens/test_screenshots.py regenerates them and fails when the ones
checked in differ: rerun this script and commit the result.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EVENING_DIR = HERE / "evening"

# Each session: its `new` line, then every hand as typed at the table.
EVENING = {
    "hollywood": [
        "new hollywood Ann Ben --dealer ben --game-bonus 100 --box-bonus 25 --name friday-hollywood",
        "hand ann 4 22", "hand ben 0 31", "draw", "hand ann 3 28", "hand ben 2 19", "hand ann 0 44",
        "hand ben 0 38", "hand ann 6 14", "hand ben 5 30", "hand ben 0 20",
    ],
    "standard": [
        "new standard Ann Ben --dealer ann --game-bonus 100 --box-bonus 25 --name friday-standard",
        "hand ben 6 24", "hand ann 0 37", "hand ben 9 8", "hand ann 3 21", "draw", "hand ben 2 33",
        "hand ann 5 27",
    ],
}


def ginscore(db: Path, *args: str) -> str:
    """Run the real CLI on ``db``; stop with its error if it refuses."""
    env = {**os.environ, "GINSCORE_DB": str(db)}
    ran = subprocess.run([sys.executable, "-m", "ginscore", *args], capture_output=True, text=True, env=env)
    if ran.returncode != 0:
        raise SystemExit(f"ginscore {' '.join(args)}: {ran.stderr.strip()}")
    return ran.stdout


def record() -> None:
    """Play EVENING through the CLI and keep each session as its JSON export."""
    EVENING_DIR.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "evening.json"
        for name, lines in EVENING.items():
            for line in lines:
                ginscore(db, *line.split())
            ginscore(db, "export", "--format", "json", "--output", str(EVENING_DIR / f"{name}.json"))
            print(f"recorded docs/evening/{name}.json")


def draw(into: Path) -> list[Path]:
    """Import each recorded session into an empty database and export its picture into ``into``."""
    pictures = []
    for name in EVENING:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "ginscore.json"
            ginscore(db, "import", str(EVENING_DIR / f"{name}.json"))
            picture = into / f"{name}.svg"
            ginscore(db, "export", "--format", "svg", "--output", str(picture))
            pictures.append(picture)
    return pictures


def stale() -> list[str]:
    """The checked-in pictures that differ from freshly drawn ones."""
    with tempfile.TemporaryDirectory() as folder:
        fresh = draw(Path(folder))
        return [p.name for p in fresh if not (HERE / p.name).exists() or (HERE / p.name).read_bytes() != p.read_bytes()]


def main(argv: list[str]) -> int:
    if "--record" in argv:
        record()
    if "--check" in argv:
        old = stale()
        if old:
            print(f"stale pictures: {', '.join(old)}; run python docs/make_screenshots.py", file=sys.stderr)
            return 1
        return 0
    for picture in draw(HERE):
        print(f"wrote docs/{picture.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
