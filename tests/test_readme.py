"""The README's promises: its test command is what CI runs; every command is documented."""

from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    test_line = next(line for line in README.splitlines() if "pytest" in line and not line.startswith("#"))
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_documents_every_command():
    for command in ("new", "hand", "draw", "status", "dealer", "log", "undo", "edit", "export", "sessions", "use",
                    "rematch", "rules", "where", "import", "deadwood", "play", "stats", "history", "chart", "watch"):
        assert f"`ginscore {command}" in README


RULE_IDS = [f"R{n}" for n in range(1, 26)] + [f"H{n}" for n in range(1, 6)]


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
