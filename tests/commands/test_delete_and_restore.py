"""`ginscore delete` and `ginscore restore`: a session set aside and brought back whole."""

from __future__ import annotations

import json
import shutil

from tests.support import (
    facts_bytes,
    NEW_YORK_LATER,
    session_names,
    TOKYO,
)


def test_delete_shows_what_it_holds_and_asks_default_no(two_games, ok, status, db_path):
    before = db_path.read_bytes()
    out = ok("delete", "friday", input="\n").stdout
    assert "Delete 'friday': Standard, Ann v Ben, 1 hand, won by Ann (Ann 55, Ben 0)? [y/N]" in out
    assert "Nothing deleted" in out
    out = ok("delete", "friday", input="n\n").stdout
    assert "Nothing deleted" in out and db_path.read_bytes() == before
    ok("delete", "friday", input="y\n")
    assert session_names(ok) == ["test"] and status()["session"] == "test"


def test_delete_with_no_answer_is_refused_and_changes_nothing(two_games, refused):
    refused("delete", says="no answer, so nothing was deleted; add --yes")
    refused("delete", "friday", input="", says="nothing was deleted")


def test_deleting_the_current_session_leaves_none_current_and_says_so(two_games, ok, refused):
    out = ok("delete", "--yes").stdout
    assert "Deleted 'test'" in out and "`ginscore restore test` brings it back" in out
    assert "No session is current now" in out and "ginscore use NAME" in out
    refused("status", says="no session is current")
    refused("hand", "ann", "4", "22", says="no session is current")
    ok("use", "friday")
    assert ok("status", "--json").json()["session"] == "friday"


def test_deleted_sessions_are_hidden_and_not_usable(two_games, ok, refused):
    ok("delete", "test", "--yes")
    assert session_names(ok) == ["friday"]
    assert "Not listed: 1 deleted session" in ok("sessions").stdout
    deleted = ok("sessions", "--deleted", "--json").json()
    assert [r["name"] for r in deleted] == ["test"] and deleted[0]["deleted_at"]
    assert deleted[0]["hands_played"] == 1 and deleted[0]["winner"] == "Cy"
    out = ok("sessions", "--deleted").stdout
    assert "test" in out and "friday" not in out and "ginscore restore NAME" in out
    refused("use", "test", says="session 'test' is deleted; `ginscore restore test` brings it back")
    refused("status", "--session", "te", says="is deleted")
    refused("export", "--session", "test", says="is deleted")
    refused("delete", "test", "--yes", says="is deleted")


def test_deleted_sessions_count_in_no_stats_history_or_head_to_head(two_games, ok):
    everyone = ok("stats", "--json").json()
    assert set(everyone["players"]) == {"Ann", "Ben", "Cy"}
    ok("delete", "test", "--yes")
    doc = ok("stats", "--json").json()
    assert set(doc["players"]) == {"Ann", "Ben"}
    assert doc["players"]["Ann"]["sessions"] == 1 and doc["players"]["Ann"]["hands"] == 1
    assert [h["players"] for h in doc["head_to_head"]] == [["Ann", "Ben"]]
    assert [r["name"] for r in ok("history", "--json").json()] == ["friday"]
    assert ok("history", "--json", "--player", "ann").json()[0]["name"] == "friday"
    ok("restore", "test")
    assert ok("stats", "--json").json() == everyone


def test_delete_then_restore_gives_the_session_back_byte_for_byte(two_games, ok, status, db_path):
    exported = ok("export", "--format", "json", "--session", "friday").stdout
    file_before = facts_bytes(db_path)
    ok("use", "friday")
    ok("delete", "--yes")
    out = ok("restore", "friday").stdout
    assert "Restored 'friday'" in out and "current session now" in out
    assert status()["session"] == "friday"  # restore makes it current
    assert ok("export", "--format", "json").stdout == exported
    assert session_names(ok) == ["friday", "test"] and ok("sessions", "--deleted", "--json").json() == []
    ok("use", "test")
    assert facts_bytes(db_path) == file_before  # not a byte of the facts lost


def test_a_new_session_may_reuse_a_deleted_name_then_restore_needs_the_name_free(two_games, ok, refused, status):
    ok("delete", "test", "--yes")
    ok("new", "oklahoma", "Dee", "Eve", "--dealer", "Dee", "--name", "TEST")
    refused("restore", "test", says="already a session named 'TEST'; restore this one under another name")
    msg = refused("restore", "test", says="--name NEW")
    assert "ginscore rename --session test NEW" in msg
    refused("restore", "test", "--name", "friday", says="already a session named 'friday'; choose another --name")
    ok("restore", "test", "--name", "test (old)")
    assert status()["session"] == "test (old)" and status()["totals"] == {"Ann": 0, "Cy": 65}
    assert session_names(ok) == ["friday", "test (old)", "TEST"]


def test_two_deleted_sessions_with_one_name_come_back_last_deleted_first(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "dup")
    ok("hand", "ann", "4", "22")
    ok("delete", "--yes")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "dup")
    ok("delete", "dup", "--yes")
    assert [r["players"] for r in ok("sessions", "--deleted", "--json").json()] in (
        [["Cy", "Dee"], ["Ann", "Ben"]], [["Ann", "Ben"], ["Cy", "Dee"]]  # deleted in the same second
    )
    first = ok("restore", "dup").stdout
    assert "Still deleted under the name 'dup': 1 other session" in first and "ginscore restore dup --name NEW" in first
    back = status()["players"]
    refused("restore", "dup", says="already a session named 'dup'")
    ok("rename", "dup 2")
    assert "Still deleted" not in ok("restore", "dup").stdout
    assert {tuple(back), tuple(status()["players"])} == {("Ann", "Ben"), ("Cy", "Dee")}
    assert "Restored 'dup'" in first and ok("sessions", "--deleted", "--json").json() == []


def test_the_last_deleted_is_the_one_deleted_last_whatever_the_offset(ok, status, clock):
    """Deletion times written under two UTC offsets are compared as the instants they are."""
    for players, deleted_at in ((("Ann", "Ben"), TOKYO), (("Cy", "Dee"), NEW_YORK_LATER)):
        ok("new", "standard", *players, "--dealer", players[0], "--name", "dup")
        clock(deleted_at)
        ok("delete", "dup", "--yes")
    assert [r["players"] for r in ok("sessions", "--deleted", "--json").json()] == [["Cy", "Dee"], ["Ann", "Ben"]]
    ok("restore", "dup")
    assert status()["players"] == ["Cy", "Dee"]


def test_restore_does_not_guess_past_a_deletion_time_damaged_by_hand(ok, cli, db_path):
    """Which of two sessions of one name was deleted last cannot be told when one time is no time: the
    damage is named (exit 1, nothing written) rather than the other session brought back."""
    for players in (("Ann", "Ben"), ("Cy", "Dee")):
        ok("new", "standard", *players, "--dealer", players[0], "--name", "dup")
        ok("delete", "dup", "--yes")
    doc = json.loads(db_path.read_text())
    next(s for s in doc["sessions"].values() if s["players"][0] == "Ann")["deleted_at"] = 5
    db_path.write_text(json.dumps(doc))
    before = db_path.read_bytes()
    done = cli("restore", "dup")
    assert done.exit_code == 1 and "deleted_at" in done.stderr and len(done.stderr.splitlines()) == 1
    assert db_path.read_bytes() == before


def test_the_deleted_list_says_when_each_was_deleted_at_every_width(ok, monkeypatch):
    """What tells two deleted sessions of one name apart is when each was deleted: the phone's layout says
    it as the wide table's Deleted column does."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "dup")
    ok("delete", "--yes")
    deleted = ok("sessions", "--deleted", "--json").json()[0]["deleted_at"]  # like 2026-12-05T02:42:10+00:00
    for width in ("40", "80", "160"):
        monkeypatch.setenv("COLUMNS", width)
        shown = ok("sessions", "--deleted").stdout
        assert deleted[:10] in shown and "started" not in shown, width
    monkeypatch.setenv("COLUMNS", "40")
    assert f"deleted {deleted[:10]} {deleted[11:16]}" in ok("sessions", "--deleted").stdout.splitlines()


def test_restore_refuses_what_is_not_deleted_or_could_be_two(two_games, ok, refused):
    refused("restore", "friday", says="session 'friday' is not deleted, so there is nothing to restore")
    refused("restore", "fri", says="no deleted session 'fri'; no session is deleted")
    refused("restore", "", says="the session name is empty")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "alpha")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "alps")
    ok("delete", "alpha", "--yes")
    ok("delete", "alps", "--yes")
    refused("restore", "al", says="'al' could be 'alpha' or 'alps'")
    refused("restore", "zz", says="no deleted session 'zz'; `ginscore sessions --deleted` lists them")
    ok("restore", "alph")  # a unique prefix is enough
    assert ok("status", "--json").json()["session"] == "alpha"


def test_a_hollywood_session_told_as_cards_comes_back_byte_for_byte(ok, db_path):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31", "--name", "series")
    ok("hand", "ann", "--cards", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "--against", "KS KH KD 2C 3C 9C 10C JH QD 5S")
    ok("draw", "--upcard", "7h")
    ok("hand", "ben", "0", "40", "--big-gin")
    exported, file_before = ok("export", "--format", "json").stdout, facts_bytes(db_path)
    ok("delete", "series", input="y\n")
    assert ok("sessions", "--json").json() == []
    ok("restore", "series")
    assert ok("export", "--format", "json").stdout == exported and facts_bytes(db_path) == file_before


def test_new_sessions_do_not_take_the_generated_name_of_a_deleted_one(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("delete", "--yes")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert status()["session"] == "standard-2"
    ok("restore", "standard-1")
    assert status()["session"] == "standard-1"


def test_a_damaged_session_can_be_set_aside_with_delete(ok, cli, db_path):
    """A session damaged by an edit by hand fails the lists, which name it and say how to
    set it aside; `delete` works on it without reading it, and the lists work again."""
    from tests.support import edit_every_file

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "bad")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "good")
    ok("hand", "ann", "4", "22")
    edit_every_file(db_path, '"name":"bad"', '"name":"bad","match":5')
    listed = cli("sessions")
    assert listed.exit_code == 1 and "`ginscore delete bad` sets it aside" in listed.stderr
    ok("status", "--session", "good")  # the other session still works (ok asserts exit 0)
    out = ok("delete", "bad", "--yes").stdout
    assert "cannot be read" in " ".join(out.split())
    assert [row["name"] for row in ok("sessions", "--json").json()] == ["good"]
    assert ok("stats", "--json").json()["players"]["Ann"]["hands"] == 1
    deleted = cli("sessions", "--deleted")  # it is read to be listed there: named, not advised to delete
    assert deleted.exit_code == 1 and "damaged session 'bad'" in deleted.stderr
    assert "it is deleted already" in deleted.stderr and "ginscore delete" not in deleted.stderr


def test_an_exact_name_of_a_deleted_session_is_never_a_prefix_of_another(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "standard-13")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "standard-130")
    ok("delete", "standard-13", "--yes")
    before = db_path.read_bytes()
    line = refused("hand", "ann", "1", "30", "--session", "standard-13", says="is deleted")
    assert "ginscore restore standard-13" in line and db_path.read_bytes() == before
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday night")
    ok("use", "friday")  # an exact name beats a prefix of another
    assert ok("status", "--json").json()["session"] == "Friday"
    assert ok("status", "--json", "--session", "FRIDAY").json()["session"] == "Friday"
    assert ok("use", "standard-1").stdout.count("standard-130") == 1  # a prefix of no exact name: the live one


def test_a_session_changed_while_delete_asks_is_kept_and_the_advice_names_it(two_games, ok, cli, db_path, tmp_path,
                                                                             monkeypatch):
    """delete asked about 'friday' (not the current session); a hand edited there by another terminal
    before the answer keeps it, and the command to run again names 'friday': typed as it was shown
    before, `ginscore delete` would offer to delete 'test', the current one."""
    import ginscore.cli.commands.sessions as sessions

    elsewhere = tmp_path / "elsewhere.json"
    shutil.copy(db_path, elsewhere)
    ok("--db", str(elsewhere), "edit", "1", "--note", "spilt tea", "--session", "friday")

    def answered_while_another_edits(question, *args, **kwargs):
        shutil.copy(elsewhere, db_path)
        return True

    asked = sessions.asked
    monkeypatch.setattr(sessions, "asked", answered_while_another_edits)
    result = cli("delete", "friday")
    assert (result.exit_code, result.stderr) == (
        2, "Error: the session changed while you were asked; run `ginscore delete friday` again\n")
    assert db_path.read_bytes() == elsewhere.read_bytes()
    monkeypatch.setattr(sessions, "asked", asked)
    ok("delete", "friday", "--yes")
    assert session_names(ok) == ["test"]


def test_a_rematch_restored_after_its_game_was_corrected_says_it_deals_as_the_game_stood_r5(ok, status):
    """'sat' was set aside; meanwhile 'fri' was corrected to Ben's win, so Ben would deal its rematch (R5).
    Restored, 'sat' still has Ann dealing: said, with the commands that start it again; nothing changed."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "0", "90")
    ok("rematch", "--name", "sat")
    ok("delete", "sat", "--yes")
    ok("edit", "1", "ben", "0", "90", "--session", "fri")
    said = " ".join(ok("restore", "sat").stdout.split())
    assert "'fri': Its rematch 'sat' has no hands yet and was started as this game stood then (Ann deals); after " \
           "its later changes Ben deals: `ginscore delete sat --yes` then `ginscore rematch --session fri --name " \
           "sat` start it again." in said
    assert status()["next_dealer"] == "Ann"
    ok("delete", "sat", "--yes")
    ok("edit", "1", "ann", "0", "90", "--session", "fri")  # as it stood: nothing to tell
    said = ok("restore", "sat").stdout
    assert said.startswith("Restored 'sat'") and "rematch" not in said


def test_an_early_rematch_restored_after_the_real_one_is_said_to_be_left_behind_with_advice_that_works(ok, status):
    """A rematch started too early (--yes) is deleted; the game ends and its real rematch is played. The early
    one restored sits before it in the match: said, with a `delete` that works as typed, and no advice to
    start it again (that would make a third game of the match: refused without --yes)."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--name", "trio")
    ok("hand", "ann", "5", "20")
    ok("rematch", "--yes", "--name", "early")
    ok("delete", "early", "--yes")
    ok("hand", "ann", "0", "98", "--session", "trio")
    ok("rematch", "--session", "trio", "--name", "real")
    ok("hand", "ben", "3", "13")
    said = " ".join(ok("restore", "early").stdout.split())
    assert said.endswith("Its match has gone on without it, to 'real': `ginscore delete early --yes` sets it aside "
                         "again."), said
    ok("delete", "early", "--yes")
    assert status("--session", "real")["match"]["sessions"] == ["trio", "real"]
