"""The README's promises: its test command is what CI runs; every command is documented."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    test_line = next(line for line in README.splitlines() if "pytest" in line and not line.startswith("#"))
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_documents_every_command():
    for command in ("new", "hand", "draw", "status", "dealer", "log", "undo", "edit", "export", "sessions", "use",
                    "rematch", "rules", "where", "import", "deadwood", "play", "stats", "history", "chart"):
        assert f"`ginscore {command}" in README
