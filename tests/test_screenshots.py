"""The README's pictures are what `export --format svg` draws of the recorded evening (like the completions)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import script_module

ROOT = Path(__file__).resolve().parent.parent


def _script():
    return script_module(ROOT / "docs" / "make_screenshots.py")


def test_checked_in_pictures_are_not_stale():
    stale = _script().stale()
    assert not stale, f"docs/{', docs/'.join(stale)} stale: run python docs/make_screenshots.py"


def test_readme_shows_every_picture():
    readme = (ROOT / "README.md").read_text()
    for name in _script().EVENING:
        assert f"](docs/{name}.svg)" in readme
