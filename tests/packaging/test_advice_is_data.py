"""Advice written by the command line and the screens is data too: a ``Command`` (its words), so
the --db is added where the line is written and no text is rewritten afterwards."""

import ast
import re
from pathlib import Path

from ginscore.cli.registry import ADVISED_COMMANDS

PACKAGE = Path(__file__).resolve().parents[2] / "ginscore"


def test_no_text_of_the_command_line_or_the_screens_advises_a_command_that_uses_a_database():
    """Docstrings and help texts may name a command ("a file made by `ginscore export`"); no other
    string may hold "`ginscore X" for a command X whose advice acts on a database."""
    advice = re.compile(r"`ginscore (?:%s)\b" % "|".join(ADVISED_COMMANDS))
    written = []
    for path in sorted([*PACKAGE.glob("cli/**/*.py"), *PACKAGE.glob("present/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        kept = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        kept |= {id(inner) for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg in ("help", "short_help")
                 for inner in ast.walk(node.value)}
        written += [(path.relative_to(PACKAGE).as_posix(), node.lineno) for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in kept
                    and advice.search(node.value)]
    assert not written, written
