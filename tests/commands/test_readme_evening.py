"""The README's evening at the table is what ginscore prints at 80 columns, line for line."""

from __future__ import annotations

import re
import shlex

from tests.support import ROOT, shown_as_printed


def _samples() -> list[tuple[str, list[str]]]:
    """Each `$ ginscore ...` of the README's evening with the lines shown under it ("..." for lines left out)."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## An evening at the table"):readme.index("\n## ", readme.index("## An evening"))]
    samples: list[tuple[str, list[str]]] = []
    for block in section.split("```text\n")[1:]:
        for line in block.split("```", 1)[0].splitlines():
            if line.startswith("$ "):
                samples.append((line[2:], []))
            elif line:
                samples[-1][1].append(line)
    return samples


def test_the_readme_evening_is_as_printed_at_80_columns(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    checked = 0
    for command, shown in _samples():
        if "#" in command:  # needs players the evening does not have
            continue
        result = cli(*shlex.split(command)[1:])
        printed = (result.stdout + result.stderr).splitlines()
        assert shown_as_printed(shown, printed, first_lines=True), (command, shown, printed)  # to keep it short
        checked += 1
    assert checked >= 6


def test_the_readme_ratings_are_laid_out_as_printed_at_80_columns(ok, monkeypatch):
    """The ratings sample comes from years of games; its layout (headings, rule, columns, the line
    under it) is what `ratings` prints at 80 columns for the same players."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Who is the best at this table"):]
    shown = section.split("```text\n")[1].split("```", 1)[0].splitlines()
    assert shown[0] == "$ ginscore ratings"
    monkeypatch.setenv("COLUMNS", "80")
    for players in (("Ann", "Ben"), ("Ben", "Cy"), ("Ann", "Cy")):
        ok("new", "standard", *players, "--dealer", players[0].lower())
        ok("hand", players[0].lower(), "0", "90")  # gin: 115, the game is over
    printed = ok("ratings").stdout.splitlines()
    assert printed[:2] == shown[1:3] and printed[-1] == shown[-1], (printed, shown)
    rows = [(len(line), re.sub(r"[0-9]", "9", line)[:3]) for line in printed[2:-1]]
    assert rows == [(len(line), re.sub(r"[0-9]", "9", line)[:3]) for line in shown[3:-1]], (printed, shown)
