"""The README's promises: its test command is what CI runs; every command is documented."""

from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    test_line = next(line for line in README.splitlines() if "pytest" in line and not line.startswith("#"))
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_documents_every_command():
    for command in ("new", "hand", "draw", "status", "dealer", "log", "undo", "edit", "export", "sessions", "use",
                    "rematch", "rules", "where", "import", "deadwood", "play", "stats", "history", "chart",
                    "rename", "delete", "restore", "house", "watch"):
        assert f"`ginscore {command}" in README


RULE_IDS = [f"R{n}" for n in range(1, 26)] + [f"H{n}" for n in range(1, 8)]


def test_every_rule_is_pinned_by_a_test():
    """RULES.md: every rule id appears in a test that pins it (name or comment)."""
    import re

    text = "\n".join(p.read_text() for p in (ROOT / "tests").glob("test_*.py") if p.name != "test_readme.py")
    missing = [rule for rule in RULE_IDS if not re.search(rf"\b{rule}\b|_{rule.lower()}_", text)]
    assert not missing, f"no test names or cites {missing}"


def test_rules_command_tells_every_rule(ok):
    out = ok("rules").stdout  # no session: every variant
    for rule in RULE_IDS:
        assert rule in out, rule



def _readme_csv_columns() -> list[str]:
    """The columns the README's sentence names, in order (per-player ones as ``total:NAME``)."""
    import re

    paragraph = README[README.index("Scripts can rely on"):README.index("```csv")]
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
def test_readme_csv_columns_are_what_export_writes(ok, new, not_this_variant):
    """The README's list of CSV columns, and its standard header, are what `export` writes (issue 10)."""
    ok("new", *new)
    ok("hand", "ann", "4", "22")
    header = ok("export").stdout.splitlines()[0]
    assert [c for c in _readme_csv_columns() if c not in not_this_variant] == _one_per_player(header)
    if new[0] == "standard":
        lines = README.splitlines()
        assert lines[lines.index("```csv") + 1] == header
