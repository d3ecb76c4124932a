"""The checked-in screenshots are not stale and the README shows them."""

from __future__ import annotations

from tests.support import ROOT, script_module


def _script():
    return script_module(ROOT / "docs" / "make_screenshots.py")


def test_checked_in_pictures_are_not_stale():
    stale = _script().stale()
    assert not stale, f"docs/{', docs/'.join(stale)} stale: run python docs/make_screenshots.py"


def test_readme_shows_every_picture():
    readme = (ROOT / "README.md").read_text()
    for name in _script().EVENING:
        assert f"](docs/{name}.svg)" in readme
