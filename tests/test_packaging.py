"""`pip install .` (the README's first command) installs every part of ginscore.

The tests run an editable install, which finds subpackages whatever the
packaging says; a plain install ships only what pyproject.toml names. A
subpackage left out there breaks every command for a new user
(ModuleNotFoundError: ginscore.commands), so the packaging is checked here.
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_plain_install_ships_every_subpackage():
    setuptools = __import__("pytest").importorskip("setuptools")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = set(setuptools.find_packages(where=str(ROOT), **config["packages"]["find"]))
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "ginscore").rglob("__init__.py")
    }
    assert on_disk <= found, f"not shipped by `pip install .`: {sorted(on_disk - found)}"
    assert "ginscore.commands" in on_disk
