"""The README and docs agree with the code: every command, every rule, the CSV columns."""

from __future__ import annotations

import re

import pytest

from ginscore.cli import registry
from tests.support import ROOT

README = (ROOT / "README.md").read_text()


COMMANDS = (ROOT / "docs" / "commands.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    test_line = next(line for line in README.splitlines() if "pytest" in line and not line.startswith("#"))
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_documents_every_command():
    for command in (*(command.name for command in registry.COMMANDS if not command.hidden), "--version"):
        assert f"`ginscore {command}" in README
        assert f"`ginscore {command}" in COMMANDS


def test_readme_lists_each_command_once_and_stays_short():
    rows = [line.split("|")[1].strip() for line in README.splitlines() if line.startswith("| `ginscore")]
    commands = [row.split()[1].rstrip("`") for row in rows]
    assert len(commands) == len(set(commands)), sorted(c for c in commands if commands.count(c) > 1)
    assert len(README.splitlines()) <= 250


# Every id the rule book gives, read from it: a rule added there is checked here without a word more.
RULE_IDS = re.findall(r"^- ([RH][0-9]+)\.", (ROOT / "docs" / "rules.md").read_text(), re.MULTILINE)


def test_the_rule_book_gives_every_id_once_and_in_order():
    assert RULE_IDS == [f"R{n}" for n in range(1, 26)] + [f"H{n}" for n in range(1, len(RULE_IDS) - 24)]


def test_every_rule_is_pinned_by_a_test():
    """docs/rules.md: every rule id appears in a test that pins it (name or comment)."""
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py") if p.name != "test_readme.py")
    missing = [rule for rule in RULE_IDS if not re.search(rf"\b{rule}\b|_{rule.lower()}_", text)]
    assert not missing, f"no test names or cites {missing}"


def test_rules_command_tells_every_rule(ok):
    out = ok("rules").stdout  # no session: every variant
    for rule in RULE_IDS:
        assert rule in out, rule


def _documented_csv_columns() -> list[str]:
    """The columns docs/commands.md's sentence names, in order (per-player ones as ``total:NAME``)."""
    paragraph = COMMANDS[COMMANDS.index("Scripts can rely on"):COMMANDS.index("```csv")]
    named = [c.strip() for quoted in re.findall(r"`([^`]*)`", paragraph) for c in quoted.split(",")]
    return [c for c in named if re.fullmatch(r"[a-z_0-9]+(:NAME)?", c)]


def _one_per_player(header: str) -> list[str]:
    columns = [c.split(":")[0] + ":NAME" if ":" in c else c for c in header.split(",")]
    return list(dict.fromkeys(columns))


@pytest.mark.parametrize(
    ("new", "not_this_variant"),
    [
        (["standard", "Ann", "Ben", "--dealer", "Ann"], {"game1:NAME", "game2:NAME", "game3:NAME", "box", "captain", "out"}),
        (["three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben"], {"game1:NAME", "game2:NAME", "game3:NAME"}),
        (["hollywood", "Ann", "Ben", "--dealer", "Ann"], {"total:NAME", "box", "captain", "out"}),
    ],
    ids=["standard", "three", "hollywood"],
)
def test_documented_csv_columns_are_what_export_writes(ok, new, not_this_variant):
    """docs/commands.md's list of CSV columns, and its standard header, are what `export` writes."""
    ok("new", *new)
    ok("hand", "ann", "4", "22")
    header = ok("export").stdout.splitlines()[0]
    assert [c for c in _documented_csv_columns() if c not in not_this_variant] == _one_per_player(header)
    if new[0] == "standard":
        lines = COMMANDS.splitlines()
        assert lines[lines.index("```csv") + 1] == header
