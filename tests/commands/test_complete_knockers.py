"""Completing a knocker offers only who may knock in that hand: never the three-player sitter-out (R22)."""

from __future__ import annotations

from tests.support import bash_offers


def _names(ok, *words: str) -> list[str]:
    return ok("complete", *words).stdout.splitlines()


def _bash(*words: str) -> list[str]:
    """The names bash offers after TAB at the end of ``words``."""
    return [offer.split("|", 1)[1] for offer in bash_offers(*words)]


def test_three_player_knockers_leave_out_who_sits_out(ok):
    ok("new", "three", "José", "Bob", "O'Neil", "--box", "bob", "--captain", "jos")
    assert _names(ok, "knockers") == ["José", "Bob"]  # O'Neil sits out the first hand
    assert _bash("ginscore", "hand", "") == ["José", "Bob"]
    ok("hand", "bob", "0", "50")  # the box won: José sits out next (R23)
    assert _names(ok, "knockers") == ["Bob", "O'Neil"]
    assert _bash("ginscore", "hand", "") == ["Bob", "O'Neil"]
    assert _names(ok, "knockers", "--hand", "1") == ["José", "Bob"]  # edit 1: who was in that hand
    assert _bash("ginscore", "edit", "1", "") == ["José", "Bob"]
    assert _names(ok, "players") == ["José", "Bob", "O'Neil"]  # `players` still gives everyone


def test_two_player_knockers_are_both_players(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert _names(ok, "knockers") == ["Ann", "Ben"]
    ok("hand", "ann", "3", "20")
    assert _names(ok, "knockers", "--hand", "1") == ["Ann", "Ben"]


def test_knockers_of_a_finished_game_or_an_unknown_hand_break_nothing(cli, ok):
    ok("new", "three", "José", "Bob", "O'Neil", "--box", "bob", "--captain", "jos")
    ok("hand", "bob", "0", "50")
    ok("hand", "bob", "0", "50")  # Bob reaches 150: the game is over
    odd_hands = ("9", "x", "0", "²", "1" * 5000)  # a digit of another script, a number Python will not read
    for words in (("knockers",), *(("knockers", "--hand", hand) for hand in odd_hands)):
        result = cli("complete", *words)
        assert (result.exit_code, result.stderr) == (0, "")
        assert result.stdout.splitlines() == ["José", "Bob", "O'Neil"]
    assert _names(ok, "knockers", "--hand", "2") == ["Bob", "O'Neil"]
    assert _bash("ginscore", "hand", "") == ["José", "Bob", "O'Neil"]
