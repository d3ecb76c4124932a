"""The README's pictures are what `export --format svg` draws of the recorded evening (like the completions)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("make_screenshots", ROOT / "docs" / "make_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_screenshots"] = module
    spec.loader.exec_module(module)
    return module


def test_checked_in_pictures_are_not_stale():
    stale = _script().stale()
    assert not stale, f"docs/{', docs/'.join(stale)} stale: run python docs/make_screenshots.py"


def test_readme_shows_every_picture():
    readme = (ROOT / "README.md").read_text()
    for name in _script().EVENING:
        assert f"](docs/{name}.svg)" in readme
