"""What the package ships and what it uses of typer, click and rich."""

from __future__ import annotations

import tomllib

from tests.support import ROOT


def test_plain_install_ships_every_subpackage():
    setuptools = __import__("pytest").importorskip("setuptools")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = set(setuptools.find_packages(where=str(ROOT), **config["packages"]["find"]))
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "ginscore").rglob("__init__.py")
    }
    assert on_disk <= found, f"not shipped by `pip install .`: {sorted(on_disk - found)}"
    assert "ginscore.cli.commands" in on_disk


def test_plain_install_ships_the_pages_serve_sends():
    """ginscore/web/static/ holds no Python: only package-data puts it in a wheel."""
    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert shipped == {"ginscore.web": ["static/*"]}
    assert {p.name for p in (ROOT / "ginscore" / "web" / "static").iterdir()} == {
        "head.html", "session.html", "club.html", "board.js", "board.css", "icon.svg"}


THIRD_PARTY = ("typer", "click", "rich")


def _private(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] in THIRD_PARTY and any(p.startswith("_") and not p.startswith("__") for p in parts[1:])


def test_ginscore_uses_only_public_names_of_typer_click_and_rich():
    """No private module imported, and no private method of their classes overridden (once
    typer 0.29 broke a hand-built TyperOption, and Rich owes no one its Console._render_buffer)."""
    import ast

    found = []
    for path in sorted((ROOT / "ginscore").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        imported = {}  # local name -> the third-party dotted name it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    dotted = f"{node.module}.{alias.name}"
                    imported[alias.asname or alias.name] = dotted
                    if _private(dotted):
                        found.append(f"{path.name}: from {node.module} import {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    imported[alias.asname or alias.name.split(".")[0]] = alias.name.split(".")[0]
                    if _private(alias.name):
                        found.append(f"{path.name}: import {alias.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [imported.get(b.id, "") if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
                if any(b.split(".")[0] in THIRD_PARTY for b in bases):
                    found += [f"{path.name}: {node.name}.{item.name} overrides a private method"
                              for item in node.body if isinstance(item, ast.FunctionDef)
                              and item.name.startswith("_") and not item.name.startswith("__")]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(
                    f"{imported.get(node.value.id, '')}.{node.attr}"):
                found.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert not found, found


def test_ci_draws_every_example_a_test_asks_for_and_a_developer_a_fifth(monkeypatch):
    """tests/profiles.py: CI (``$CI`` or ``HYPOTHESIS_PROFILE=ci``) keeps each test's own count."""
    from hypothesis import settings

    from tests import profiles

    this_run = profiles.chosen()
    for env, profile in [({"CI": "true"}, "ci"), ({"HYPOTHESIS_PROFILE": "ci"}, "ci"), ({}, "dev"),
                         ({"CI": "1", "HYPOTHESIS_PROFILE": "dev"}, "dev")]:
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        assert profiles.chosen() == profile, env
    try:
        settings.load_profile("ci")
        assert profiles.examples(5000) == 5000 and profiles.examples(150) == 150
        settings.load_profile("dev")
        assert profiles.examples(5000) == 1000 and profiles.examples(10) == 5
    finally:
        settings.load_profile(this_run)
    assert "export HYPOTHESIS_PROFILE=ci" in (ROOT / ".ci" / "run").read_text()
