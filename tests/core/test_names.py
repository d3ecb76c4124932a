"""How a typed name is matched to a player: exactly first, then a unique prefix, ignoring case."""

from __future__ import annotations

import pytest

from ginscore.core.errors import UnknownPlayer
from ginscore.core.names import resolve_player


def test_player_names_match_exact_then_unique_prefix_ignoring_case():
    players = ("Al", "Alice", "Bob")
    assert resolve_player(players, "al") == "Al"
    assert resolve_player(players, "ALI") == "Alice"
    assert resolve_player(players, "b") == "Bob"
    with pytest.raises(UnknownPlayer, match="could be"):
        resolve_player(("Alice", "Alan"), "al")
    with pytest.raises(UnknownPlayer, match="no player"):
        resolve_player(players, "zed")
