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


def test_letters_accents_do_not_explain_are_found_as_typed_without_them_only_when_nothing_else_matches():
    assert resolve_player(("Ægidius Rühl", "Mary"), "ae") == "Ægidius Rühl"
    assert resolve_player(("Øyvind", "Łukasz", "Þóra"), "oy") == "Øyvind"
    assert resolve_player(("Øyvind", "Łukasz", "Þóra"), "LUK") == "Łukasz"
    assert resolve_player(("Øyvind", "Łukasz", "Þóra"), "thor") == "Þóra"
    assert resolve_player(("Ægir", "Aegon"), "ae") == "Aegon"  # a name typed as it is spelt comes first
    assert resolve_player(("Øyvind", "Olaf"), "o") == "Olaf"
    with pytest.raises(UnknownPlayer, match="could be"):
        resolve_player(("Ægir", "Æsa"), "ae")


def test_oe_and_the_dotless_i_are_found_as_a_plain_keyboard_types_them():
    """docs/commands.md: a name nothing else matches is looked for with œ typed oe and ı typed i."""
    assert resolve_player(("Chlœ", "Ben"), "chloe") == "Chlœ"
    assert resolve_player(("Cœur", "Ben"), "COEUR") == "Cœur"
    assert resolve_player(("Işıl", "Ben"), "isil") == "Işıl"  # ş is s with an accent; ı has none to drop
    assert resolve_player(("Yıldız", "Ben"), "yildiz") == "Yıldız"


def test_a_plain_spelling_never_makes_two_names_one():
    from ginscore.core.names import check_players  # (identity is fold's: Ægir and Aegir are two players)
    assert check_players("standard", ["Ægir", "Aegir"]) == ("Ægir", "Aegir")
