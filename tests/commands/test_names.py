"""Player and session names: folded, matched ignoring accents and width, refused when they show as
nothing."""

from __future__ import annotations

import copy
import json

import pytest

from tests.support import NFC, NFD, unwrapped


@pytest.mark.parametrize("args, says", [
    (["new", "standard", "A" * 201, "Ben"], "keep it to 200"),
    (["new", "standard", "Ann", "Ben", "--name", "n" * 201], "the session name has 201 characters; keep it to 200"),
    (["rename", "n" * 201], "the session name has 201 characters; keep it to 200"),  # (it said "rename has")
    (["new", "standard", "Ann", "Ben", "--target", "10000000000"], "--target must be at most"),
    (["new", "standard", "Ann", "Ben", "--gin-bonus", str(10**30)], "--gin-bonus must be at most"),
])
def test_commands_are_as_strict_as_import(args, says, refused):
    refused(*args, says=says)


@pytest.mark.parametrize("pair", [(NFC, NFD), (NFC, "Jose"), ("Ann", "Ａnn"), ("Ann", "ＡＮＮ"), ("ANN", "ann"),
                                  ("Zoë", "ZOE"), ("Straße", "STRASSE")])
def test_look_alike_names_are_one_name(pair, refused):
    refused("new", "standard", *pair, says="two players")


def test_a_name_of_accents_alone_is_empty(refused):
    refused("new", "standard", "Ann", "\u0301\u0301", says="name is empty")


# Printable characters a screen shows as nothing: the Hangul fillers, a variation selector alone.
BLANK_NAMES = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u3164 \uffa0", "\ufe0f"]


@pytest.mark.parametrize("blank", BLANK_NAMES)
def test_a_name_that_shows_as_nothing_is_refused(blank, ok, refused, tmp_path):
    """Nobody could read it in a table or type it back: refused as a player's or a session's name,
    by the commands and by import, its characters spelled out in the one line."""
    line = refused("new", "standard", "Ann", blank, says="shows as nothing")
    assert "\\u" in line and blank not in line
    refused("new", "standard", "Ann", "Ben", "--name", blank, says="the session name")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    refused("rename", blank, says="shows as nothing")
    doc = ok("export", "--format", "json").json()
    for where in ("players", "name"):
        changed = copy.deepcopy(doc)
        if where == "players":
            changed["session"]["players"][1] = blank
            changed["session"]["first_dealer"] = "Ann"
        else:
            changed["session"]["name"] = blank
        path = tmp_path / f"{where}.json"
        path.write_text(json.dumps(changed), encoding="utf-8")
        refused("import", str(path), "--as-copy", says="shows as nothing")


def test_a_name_with_a_filler_among_letters_shows_and_is_kept(ok):
    ok("new", "standard", "Ann\u3164Lee", "Ben", "--dealer", "ben")
    assert ok("status", "--json").json()["players"] == ["Ann\u3164Lee", "Ben"]


@pytest.mark.parametrize("unseen", ["\u034f", "\ufe0e", "\ufe0f", "\u17b4", "\u180b", "\u3164", "\uffa0",
                                    "\u2800", "\U000e0100", "\u115f", "\u1160"])
def test_a_name_with_something_that_shows_as_nothing_is_the_same_name(unseen, ok, refused):
    """"Ann" with a joiner, a variation selector or a filler looks like Ann at the table, so it is Ann:
    never a second player of the same look, and typed it finds her."""
    refused("new", "standard", "Ann", f"Ann{unseen}", says="two players are named")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    assert "Ann knocked with 4" in ok("hand", f"ann{unseen}", "4", "22").stdout


@pytest.mark.parametrize("shown", ["\u1161", "\ufe10", "\u2801"])
def test_a_name_with_a_character_that_shows_is_another_name(shown, ok, status):
    """Only what shows as nothing is left out of a name: a Hangul vowel (ᅡ), a vertical comma (︐) or a
    Braille dot (⠁) beside the name shows, so "Ann" and that name are two players."""
    ok("new", "standard", "Ann", f"Ann{shown}", "--dealer", "ann")
    assert status()["players"] == ["Ann", f"Ann{shown}"]


def test_matching_ignores_accents_and_width_and_keeps_the_first_spelling(ok, status):
    ok("new", "standard", NFC, "Ann", "--dealer", "jose")
    ok("hand", "jose", "3", "20")
    ok("hand", "ａnn", "2", "9")
    ok("hand", NFD.upper(), "0", "10")
    ok("edit", "1", "JOSÉ", "4", "20")
    doc = status()
    assert doc["players"] == [NFC, "Ann"]
    assert doc["totals"] == {NFC: 16 + 35, "Ann": 7}
    assert [h["knocker"] for h in ok("log", "--json").json()["hands"]] == [NFC, "Ann", NFC]


def test_a_name_with_letters_like_ae_is_typed_on_a_plain_keyboard(ok, status):
    """A keyboard without Æ or Ø reaches the player (and the session) by ae and o, in every command."""
    ok("new", "standard", "Ægidius", "Øyvind", "--dealer", "ae", "--name", "Ærø night")
    ok("hand", "oy", "3", "20")
    ok("edit", "1", "ae", "4", "20")
    assert status("--session", "aero")["totals"] == {"Ægidius": 16, "Øyvind": 0}
    assert [r["name"] for r in ok("history", "--json", "--player", "aeg").json()] == ["Ærø night"]


def test_session_names_match_ignoring_accents_and_width(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--name", "Café")
    ok("new", "standard", "Ann", "Ben", "--name", "other")
    refused("new", "standard", "Ann", "Ben", "--name", "CAFE", says="already a session")
    refused("new", "standard", "Ann", "Ben", "--name", "ｃａｆé", says="already a session")
    ok("use", "cafe")
    assert ok("status", "--json").json()["session"] == "Café"
    assert ok("status", "--session", "ＣＡＦＥ", "--json").json()["session"] == "Café"
    backup = tmp_path / "b.json"
    ok("export", "--format", "json", "--output", backup)
    refused("import", backup, "--as-copy", "--name", "cafe", says="already a session")
    assert unwrapped("as 'Café-2'") in unwrapped(ok("import", backup, "--as-copy").stdout)


def test_names_kept_before_folding_stay_reachable(db_path, ok):
    """A session that already holds José and Jose (recorded before names were folded): the closest spelling wins."""
    session = {"name": "old", "variant": "standard", "players": [NFC, "Jose"], "first_dealer": NFC,
               "created_at": "2026-01-01T20:00:00+00:00", "hands": ""}
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 2, "current": "old"}}, "sessions": {"1": session}}))
    ok("hand", "Jose", "3", "20")
    ok("hand", NFD, "2", "9")
    ok("hand", "jose", "1", "9")
    assert [h["knocker"] for h in ok("log", "--json").json()["hands"]] == ["Jose", NFC, "Jose"]


def test_a_name_starting_with_a_hyphen_is_refused_but_one_kept_in_a_file_stays_playable(db_path, ok, refused):
    """`new standard -- -x Ben` made a player every later command read as an option (`hand -x 3 9`: "No such
    option"); it is refused where it is typed. A session that already holds one is still played (after --)."""
    refused("new", "standard", "--", "-x", "Ben", says="a player's name cannot start with '-'")
    refused("new", "three", "Ann", "Ben", "--", "--", says="a player's name cannot start with '-'")
    session = {"name": "old", "variant": "standard", "players": ["-x", "Ben"], "first_dealer": "Ben",
               "created_at": "2026-01-01T20:00:00+00:00", "hands": ""}
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 2, "current": "old"}}, "sessions": {"1": session}}))
    ok("hand", "--", "-x", "3", "20")
    assert [h["knocker"] for h in ok("log", "--json").json()["hands"]] == ["-x"]


@pytest.mark.parametrize("args", [["new", "standard", "Cy", "Di", "--name=-late"], ["rename", "--", "--help"],
                                  ["rematch", "--yes", "--name=-x"]])
def test_a_session_name_starting_with_a_hyphen_is_refused(ok, refused, db_path, args):
    """`--name=-late` made a session that `restore -late` (advised as so) read as an option, and one named
    `--help` took the --db from every advice naming it; refused as a player's such name is."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    before = db_path.read_bytes()
    refused(*args, says="a session's name cannot start with '-': every command would read")
    assert db_path.read_bytes() == before
