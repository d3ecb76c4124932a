"""docs/guide.md's examples are what ginscore prints: each block of `$ ginscore ...` lines is run at 80
columns in the order of the evening it tells, and every line it shows is compared ("..." stands for the
lines it leaves out). The play transcript has a test of its own (tests/commands/test_play.py)."""

from __future__ import annotations

import re
import shlex

from tests.support import ROOT, shown_as_printed

GUIDE = (ROOT / "docs" / "guide.md").read_text()


def _block(first: str, after: str = "") -> list[str]:
    """The lines of the guide's example that starts with the command line ``$ ginscore {first}`` (the
    first such example after the words ``after``)."""
    start = GUIDE.index(f"\n$ ginscore {first}\n", GUIDE.index(after)) + 1
    return GUIDE[start:GUIDE.index("```", start)].splitlines()


def _shown_as_told(cli, lines: list[str], meanwhile: dict | None = None, error_status: int = 2) -> None:
    """Run each command of ``lines`` and compare what it prints with the lines under it. ``meanwhile``:
    commands the guide does not show, run before the command line given as key (hands played between).
    A command the guide shows saying "Error: " must exit ``error_status``."""
    at = 0
    while at < len(lines):
        command, told = lines[at], []
        at += 1
        while at < len(lines) and not lines[at].startswith("$ ginscore "):
            told.append(lines[at])
            at += 1
        for args in (meanwhile or {}).get(command, ()):
            assert cli(*args).exit_code == 0, args
        answer = next((found.group(1) for line in told if (found := re.search(r"\[y/N\]: (\S+)$", line))), None)
        ran = cli(*shlex.split(command)[2:], input=None if answer is None else f"{answer}\n")
        assert ran.exit_code == (error_status if any(line.startswith("Error: ") for line in told) else 0), (command, ran)
        while told and not told[-1]:  # the blank line between two commands
            told.pop()
        printed = [line.rstrip() for line in (ran.stdout + ran.stderr).splitlines()]
        told = ["..." if line.strip() == "..." else line.rstrip() for line in told]
        assert shown_as_printed(told, printed), "\n".join([command, "--- the guide:", *told, "--- ginscore:", *printed])


def test_the_evening_of_the_deal_the_stake_the_match_and_the_house_rules(cli, clock, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    clock("2026-11-29T18:16:00+00:00")
    _shown_as_told(cli, _block("new standard Ann Ben --dealer ann --deal loser --stake 0.01"))
    _shown_as_told(cli, _block("hand ann 0 87"))
    _shown_as_told(cli, _block("log"))
    # the rematch's first two hands, which the guide leaves out: Ben 70 (gin, 45 + 25), then 28 (30 - 2)
    _shown_as_told(cli, _block("rematch"), {"$ ginscore status": [("hand", "ben", "0", "45"),
                                                                  ("hand", "ben", "2", "30")]})
    _shown_as_told(cli, _block("house"))
    _shown_as_told(cli, _block("house --target 60 --from-start"))


def test_rename_delete_and_restore_as_the_guide_shows_them(cli, ok, clock, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    clock("2026-11-29T18:12:00+00:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    _shown_as_told(cli, _block('rename "Friday at Ann\'s"'))


def test_the_chart_after_the_game(cli, ok, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    for hand in (("hand", "ann", "4", "22"), ("hand", "ann", "2", "14"), ("hand", "ann", "0", "35"), ("draw",)):
        ok(*hand)  # Ann 18, 30, 90 (gin: 35 + 25), and a drawn hand: the hands the chart draws
    _shown_as_told(cli, _block("chart"))


def test_two_machines_merged_as_the_guide_shows(cli, ok, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "5", "30")
    (tmp_path / "phone.json").write_bytes((tmp_path / "ginscore.json").read_bytes())  # the file copied over
    ok("--db", "phone.json", "hand", "ben", "0", "22")
    ok("--db", "phone.json", "new", "oklahoma", "Cy", "Dee", "--dealer", "cy", "--name", "sunday")
    ok("--db", "phone.json", "hand", "cy", "2", "17", "--upcard", "9h")
    _shown_as_told(cli, _block("merge phone.json"))
    # then each machine records its own hand 3 of Friday's game: the two differ
    ok("hand", "ann", "10", "20")
    ok("--db", "phone.json", "hand", "ben", "4", "9", "--session", "friday")
    _shown_as_told(cli, _block("merge phone.json", after="a different hand 3"), error_status=1)
