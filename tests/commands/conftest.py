"""Fixtures shared by the tests of several commands."""

from __future__ import annotations

import pytest


@pytest.fixture
def season(ok):
    """A small hand-made history: two standard games and a three-player one."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "one")
    ok("hand", "ann", "0", "20")  # Ann gin 45
    ok("hand", "ben", "6", "4")  # Ben undercut by Ann: 2 + 10 = 12 -> Ann 57, wins
    ok("new", "standard", "ann", "Ben", "--dealer", "Ben", "--target", "50", "--name", "two")
    ok("hand", "ben", "3", "13")  # Ben knock 10
    ok("draw")
    ok("hand", "ann", "8", "10")  # Ann knock 2
    ok("hand", "ben", "0", "30")  # Ben gin 55 -> Ben 65, wins
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Cy", "--captain", "Ann", "--target", "500", "--name", "trio")
    ok("hand", "cy", "2", "12")  # box Cy beats captain Ann: 10; Ben captains next
    ok("hand", "ben", "9", "9")  # Ben knocks, Cy undercuts: 10


@pytest.fixture
def two_games(ok):
    """'friday' (Ann beat Ben) and 'test' (a throw-away game where Cy beat Ann), 'test' current."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "friday")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25 = 55, Ann wins
    ok("new", "standard", "Ann", "Cy", "--dealer", "Ann", "--target", "50", "--name", "test")
    ok("hand", "cy", "0", "40")  # gin: 40 + 25 = 65, Cy wins
