"""`ginscore rematch`: the next game with the same players and rules, linked into a match."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.support import in_two_time_zones, run_cli, stored_sessions


def test_game_won_banner_final_and_rematch_r5(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--game-bonus", "100", "--shutout")
    ok("hand", "ben", "0", "60")
    out = ok("hand", "ben", "0", "40").stdout
    assert "Ben wins the game" in out
    doc = status()
    assert doc["winner"] == "Ben" and doc["over"] is True and doc["next_dealer"] is None
    assert doc["final"] == {"Ann": 0, "Ben": (150 + 100) * 2}  # H3
    assert "was not over" not in ok("rematch").stdout
    doc = status()
    assert doc["session"] == "standard-2" and doc["next_dealer"] == "Ben"  # winner of the last hand deals
    assert doc["rules"]["game_bonus"] == 100 and doc["rules"]["shutout"] is True


def test_a_rematch_mid_game_says_the_old_game_stays_in_play(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    said = " ".join(ok("rematch", "--yes").stdout.split())
    assert "Rematch of 'standard-1'. 'standard-1' was not over (1 hand played); it stays as it is, in play." in said
    assert status("--session", "standard-1")["over"] is False and status()["session"] == "standard-2"


def test_three_player_rematch_continues_rotation_r23(ok, status):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--target", "10")
    ok("hand", "ben", "0", "0")  # Ben wins the game with 25; the box lost
    assert status()["over"] is True and status()["roles"] is None
    ok("rematch")
    assert status()["roles"] == {"box": "Ben", "captain": "Cy", "out": "Ann"}


def test_h6_rematch_first_dealer_follows_the_deal_rule(ok, status):
    # Loser deals: Ann wins the last hand, so Ben deals the first hand of the rematch.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser", "--target", "20", "--stake", "0.05")
    ok("hand", "ann", "0", "10")
    assert status()["over"] is True
    ok("rematch")
    doc = status()
    assert doc["next_dealer"] == "Ben"
    assert doc["rules"]["deal"] == "loser" and doc["rules"]["stake"] == "0.05"


@pytest.mark.parametrize("start, hand, first, then", [
    (["standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser"], ["ann", "0", "10"],
     "Ben dealing first (H6)", {"next_dealer": "Ben"}),
    (["oklahoma", "Ann", "Ben", "--dealer", "ben"], ["ann", "0", "10", "--upcard", "10h"],
     "Ann dealing first (H6)", {"next_dealer": "Ann"}),
    (["three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben"], ["ben", "0", "0"],
     "Ben in the box and Cy captain (R23)", {"roles": {"box": "Ben", "captain": "Cy", "out": "Ann"}}),
])
def test_a_game_over_says_who_starts_the_rematch_as_the_rematch_then_has_it(ok, status, start, hand, first, then):
    """The table asks who deals the next game as soon as one ends: `status` and `dealer` say it, and the
    rematch started then is dealt so (H6, R23)."""
    ok("new", *start, "--target", "10")
    ok("hand", *hand)
    told = [" ".join(ok(command).stdout.split()) for command in ("status", "dealer")]
    assert all(f"`ginscore rematch` starts the next one, {first}." in said for said in told), told
    ok("rematch")
    assert {key: status()[key] for key in then} == then


def test_a_change_from_the_next_hand_that_the_game_ended_before_holds_in_the_rematch_h8(ok, status):
    """The table agreed gin 20 from hand 3 on; hand 3 was undone and hand 2 corrected to a gin that ends
    the game, so the change never came into force: the game keeps gin 25, and its rematch plays the gin
    20 agreed for the hands to come (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "50")
    ok("hand", "ann", "5", "35")
    ok("hand", "ann", "5", "15")
    ok("house", "--gin-bonus", "20", "--from-next")
    ok("hand", "ben", "2", "12")
    ok("undo", "--yes")
    ok("edit", "2", "ann", "0", "20")  # 20 + gin 25: the game ends at hand 2
    game = status()
    assert game["over"] and game["totals"]["Ann"] == 75  # hand 2 scored with gin 25
    ok("rematch")
    assert status()["rules"]["gin_bonus"] == 20


def test_h6_rematch_with_alternate_passes_the_deal_on(ok, status):
    # Alternate: Ben dealt the last hand (hand 2), so Ann deals first in the rematch.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "alternate", "--target", "20")
    ok("hand", "ann", "5", "9")
    ok("hand", "ann", "0", "0")
    ok("rematch")
    assert status()["next_dealer"] == "Ann"


def test_rematch_links_sessions_into_a_match(ok, status):
    # Game 1: Ann wins 35 to 0 at 0.1 a point (Ben owes 3.5). Game 2: Ben wins 35 to 0
    # (Ann owes 3.5). The match so far: a game each, 35 points each, nobody owes.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "0.1")
    assert status()["match"] is None
    ok("hand", "ann", "0", "10")
    ok("rematch")
    ok("hand", "ben", "0", "10")
    doc = status()
    match = doc["match"]
    assert match["sessions"] == ["standard-1", "standard-2"]
    assert match["games_won"] == {"Ann": 1, "Ben": 1}
    assert match["finals"] == {"Ann": 35, "Ben": 35}
    assert match["settlement"] == []
    ok("rematch")
    ok("hand", "ann", "1", "40")
    match = status()["match"]
    assert match["sessions"] == ["standard-1", "standard-2", "standard-3"]
    assert match["games_won"] == {"Ann": 2, "Ben": 1} and match["finals"] == {"Ann": 74, "Ben": 35}
    assert match["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "3.90"}]
    assert status("--session", "standard-1")["match"]["id"] == match["id"]
    out = ok("status").stdout
    assert "Match so far (3 sessions" in out and "Ann: 2 games won" in out and "Ben pays Ann 3.9" in out


def test_a_match_lists_its_sessions_in_the_order_they_started_whatever_the_offset(ok, status, clock):
    first = [["new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--name", "tokyo"],
             ["hand", "ann", "0", "10"]]
    in_two_time_zones(ok, clock, first, [["rematch", "--name", "new-york"]])
    assert status()["match"]["sessions"] == ["tokyo", "new-york"]


def test_a_match_imported_rematch_first_is_still_in_the_order_its_games_started_r5(ok, refused, clock, tmp_path):
    clock("2026-12-05T20:00:00+01:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "fri")
    ok("hand", "ann", "0", "90")
    clock("2026-12-05T20:40:00+01:00")
    ok("rematch", "--name", "sat")
    for name in ("sat", "fri"):  # the rematch's export first, as a sync client may hand them over
        ok("export", "--session", name, "--format", "json", "--output", str(tmp_path / f"{name}.json"))
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", str(tmp_path / "sat.json"))
    assert ok(*other, "import", str(tmp_path / "fri.json")).stdout.splitlines()[-1] == \
        "The session is over; its rematch is 'sat'."
    assert ok(*other, "status", "--json").json()["match"]["sessions"] == ["fri", "sat"]
    assert "its rematch is 'sat'" in ok(*other, "dealer", "--session", "fri").stdout
    assert ok(*other, "status", "--session", "sat").stdout.count("Match so far (2 sessions: fri, sat)") == 1
    refused(*other, "rematch", "--session", "fri", says="'fri' already has its rematch, 'sat'")


def test_the_match_so_far_counts_one_point_as_one_point(ok, status):
    # Ben's one hand won by a single point (5 against 6), then Ann's gin (25) ends the game at 20.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ben", "5", "6")
    ok("hand", "ann", "0", "0")
    ok("rematch")
    assert status()["match"]["finals"] == {"Ann": 25, "Ben": 1}
    out = ok("status").stdout
    assert "Ben: 0 games won, 1 point in finished games" in out
    assert "Ann: 1 game won, 25 points in finished games" in out


def test_a_game_whose_rematch_was_deleted_shows_no_match_of_one(ok, status):
    """"Match so far (1 session ...)" and "Games of one match ...: standard-1." read as nonsense; the link is kept
    (status --json), for a restore or a merge to bring the match back whole."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    ok("rematch")
    assert "Match so far (2 sessions" in ok("status").stdout and "Games of one match" in ok("history").stdout
    assert "Games of one match" not in ok("history", "--limit", "1").stdout  # one game of it listed
    ok("delete", "standard-2", "--yes")
    ok("use", "standard-1")
    assert "Match so far" not in ok("status").stdout and "Games of one match" not in ok("history").stdout
    assert status()["match"]["sessions"] == ["standard-1"]


def test_a_refused_rematch_links_nothing(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--name", "one")
    ok("new", "standard", "Ann", "Ben", "--name", "two")
    refused("rematch", "--name", "ONE", "--yes", says="already a session named")
    assert "match" not in stored_sessions(db_path)["2"]


def test_a_rematch_mid_game_without_a_terminal_needs_yes(ok, refused, status):
    # docs/commands.md: on a game not yet over, no terminal and no --yes: refused, exit 2, nothing written
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    said = refused("rematch", input="y\n", says="'standard-1' is not over yet (1 hand played)")
    assert "add --yes to start its rematch anyway" in said
    assert status()["session"] == "standard-1"


def test_a_rematch_mid_game_asks_on_a_terminal(ok, status, monkeypatch):
    from ginscore.cli import actions

    monkeypatch.setattr(actions, "on_a_terminal", lambda: True)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    out = ok("rematch", input="n\n").stdout
    assert "'standard-1' is not over yet (1 hand played). Start its rematch anyway?" in out
    assert "Nothing started." in out and status()["session"] == "standard-1"
    out = ok("rematch", input="y\n").stdout
    assert "Rematch of 'standard-1'." in out and status()["session"] == "standard-2"


def test_a_finished_game_rematches_without_asking_or_yes(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    out = ok("rematch").stdout  # no terminal, no --yes, no input: the game is over, nothing to ask
    assert "Start its rematch anyway?" not in out and status()["session"] == "standard-2"


def test_a_rematch_asked_about_while_the_game_changed_elsewhere_is_refused(ok, db_path, status, monkeypatch):
    # the first dealer and the question were worked out from the game as it was read (R5, H6)
    import subprocess
    import sys

    from ginscore.cli import actions

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")

    def meanwhile(question, default, **how_asked):
        subprocess.run([sys.executable, "-m", "ginscore", "hand", "ben", "2", "30"], check=True,
                       capture_output=True)  # recorded from another terminal
        return True

    monkeypatch.setattr(actions, "on_a_terminal", lambda: True)
    monkeypatch.setattr(actions.typer, "confirm", meanwhile)
    result = run_cli("rematch")
    assert result.exit_code == 2 and "changed while its rematch was being started" in result.stderr
    assert status()["session"] == "standard-1" and status()["hands_played"] == 2


def test_two_rematches_started_at_once_are_both_in_the_game_s_match(ok, status, monkeypatch):
    """Ben starts the rematch from another terminal while Ann's asks: both new sessions follow the game
    they were started from, in its one match (the match standings count every game of it)."""
    import subprocess
    import sys

    from ginscore.cli import actions

    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    ok("hand", "ann", "4", "22")

    def meanwhile(question, default, **how_asked):
        subprocess.run([sys.executable, "-m", "ginscore", "rematch", "--yes", "--session", "standard-1"], check=True,
                       capture_output=True)  # Ben, from another terminal
        return True

    monkeypatch.setattr(actions, "on_a_terminal", lambda: True)
    monkeypatch.setattr(actions.typer, "confirm", meanwhile)
    assert run_cli("rematch").exit_code == 0
    matches = {status("--session", name)["match"]["id"] for name in ("standard-1", "standard-2", "standard-3")}
    assert len(matches) == 1


def test_a_rematch_mid_game_asks_a_person_at_a_real_terminal(ok, status):
    """Standard input a terminal (a pseudo-terminal here, as ssh gives): asked, not refused for --yes."""
    import pty
    import subprocess
    import sys

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    leader, follower = pty.openpty()
    try:
        os.write(leader, b"n\n")  # the answer, waiting in the terminal's input
        ran = subprocess.run([sys.executable, "-m", "ginscore", "rematch"], stdin=follower, capture_output=True,
                             text=True, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert ran.returncode == 0, ran.stderr
    assert "Start its rematch anyway?" in ran.stdout and "Nothing started." in ran.stdout
    assert status()["session"] == "standard-1"


def test_a_game_that_already_has_its_rematch_is_asked_about_before_another(ok, refused, status, monkeypatch):
    """`rematch --session standard-1` after its rematch was started (the earlier game named by a slip):
    a second game from the same end would repeat its first dealer (R5); asked, or refused without --yes."""
    from ginscore.cli import actions

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    ok("rematch")
    refused("rematch", "--session", "standard-1",
             says="'standard-1' already has its rematch, 'standard-2'; add --yes to start another")
    assert status()["session"] == "standard-2"
    monkeypatch.setattr(actions, "on_a_terminal", lambda: True)
    out = ok("rematch", "--session", "standard-1", input="n\n").stdout
    assert "'standard-1' already has its rematch, 'standard-2'. Start another?" in out and "Nothing started." in out
    assert status()["session"] == "standard-2"
    ok("rematch", "--session", "standard-1", "--yes")
    assert status()["match"]["sessions"] == ["standard-1", "standard-2", "standard-3"]


def test_advice_after_a_game_over_acts_on_that_game_or_names_its_rematch(ok, refused):
    """Advice for a finished game that is not the current session dropped its --session: `ginscore rematch`
    typed as shown acted on the current one (refused as not over, or a second rematch). It names the game
    now, and once its rematch is started, says which it is (R5: one game follows another once)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10")
    ok("hand", "ann", "0", "5")  # Ann's gin: over
    ok("new", "standard", "Cy", "Di", "--name", "other")  # now the current session
    rematch = "`ginscore rematch --session standard-1` starts the next one, Ann dealing first (H6)"
    assert f"The session is over; {rematch}." in " ".join(ok("status", "--session", "standard-1").stdout.split())
    assert f"nobody deals; {rematch}." in " ".join(ok("dealer", "--session", "standard-1").stdout.split())
    refused("hand", "ann", "1", "2", "--session", "standard-1", says=f"Ann won it; {rematch}")
    refused("draw", "--session", "standard-1", says=f"Ann won it; {rematch}")
    refused("edit", "9", "ann", "1", "2", "--session", "standard-1", says="see `ginscore log --session standard-1`")
    for shown in (ok("house", "--session", "standard-1", "--gin-bonus", "30", "--from-start"),  # (still over)
                  ok("watch", "--session", "standard-1", "--once")):
        assert f"The session is over; {rematch}." in " ".join(shown.stdout.split())
    ok("rematch", "--session", "standard-1")
    ok("use", "other")
    started = "its rematch is 'standard-2'"
    assert f"The session is over; {started}." in ok("status", "--session", "standard-1").stdout
    assert f"nobody deals; {started}." in ok("dealer", "--session", "standard-1").stdout
    assert f"The session is over; {started}." in ok("watch", "--session", "standard-1", "--once").stdout
    refused("hand", "ann", "1", "2", "--session", "standard-1", says=f"Ann won it; {started}")
    ok("use", "standard-1")
    assert f"nobody deals; {started}." in ok("dealer").stdout


def _stored(db_path, name: str) -> dict:
    return next(doc for doc in stored_sessions(db_path).values() if doc["name"] == name)


def _rematch_after_ann_wins(ok, variant: str, *roles: str) -> None:
    """'fri' (Ann won it with one gin) and its rematch, just started and current, with no hands yet."""
    players = ("Ann", "Ben", "Cy") if variant == "three" else ("Ann", "Ben")
    ok("new", variant, *players, *(roles or ("--dealer", "Ann")), "--name", "fri")
    ok("hand", "ann", "0", "90")
    ok("rematch", "--name", "sat")


def test_a_correction_of_who_won_says_the_rematch_with_no_hands_was_dealt_as_the_game_stood_r5(ok, status, db_path):
    """The rematch starts where its game left off (R5: the winner deals); corrected to Ben's win before any
    hand of the rematch, the correction says the rematch still has Ann dealing, and the commands it gives
    start it again with Ben dealing. The rematch itself is left as it was (a copy of the file elsewhere
    would otherwise differ from this one)."""
    _rematch_after_ann_wins(ok, "standard")
    rematch = _stored(db_path, "sat")
    said = " ".join(ok("edit", "1", "ben", "0", "90", "--session", "fri").stdout.split())
    assert "Its rematch 'sat' has no hands yet and was started as this game stood then (Ann deals); after this " \
           "correction Ben deals: `ginscore delete sat --yes` then `ginscore rematch --session fri --name sat` " \
           "start it again." in said
    assert _stored(db_path, "sat") == rematch and status()["next_dealer"] == "Ann"
    ok("delete", "sat", "--yes")
    ok("rematch", "--session", "fri", "--name", "sat")
    assert status()["session"] == "sat" and status()["next_dealer"] == "Ben"
    assert status()["match"]["sessions"] == ["fri", "sat"]


def test_a_correction_of_who_won_says_the_roles_a_three_player_rematch_would_now_have_r23(ok, status):
    _rematch_after_ann_wins(ok, "three", "--box", "Ann", "--captain", "Ben")
    assert status()["roles"] == {"box": "Ann", "captain": "Cy", "out": "Ben"}  # the box won: it stays
    said = " ".join(ok("edit", "1", "ben", "0", "90", "--session", "fri").stdout.split())
    assert "(Ann is in the box and deals, Cy captains, Ben sits out); after this correction Ben is in the box " \
           "and deals, Cy captains, Ann sits out:" in said  # the box lost (R23)


def test_a_game_reopened_while_its_empty_rematch_is_current_says_so_and_what_its_end_means(ok, status):
    """undo (as the rematch advises) reopens 'fri' while 'sat' stays current: said, with the command that
    goes back; the hand that ends 'fri' again, with Ben winning, says 'sat' was dealt as fri first ended."""
    _rematch_after_ann_wins(ok, "standard")
    said = " ".join(ok("undo", "--session", "fri", "--yes").stdout.split())
    assert "'fri' is not over now, and its rematch 'sat' is still the current session: `ginscore use fri` goes " \
           "back to it." in said
    said = " ".join(ok("hand", "ben", "0", "90", "--session", "fri").stdout.split())
    assert "Its rematch 'sat' has no hands yet and was started as this game stood then (Ann deals); after this " \
           "correction Ben deals:" in said


@pytest.mark.parametrize("reopened_by", [("undo", "--session", "fri", "--yes"),
                                         ("edit", "1", "ann", "4", "9", "--session", "fri")])
def test_a_game_reopened_while_its_rematch_is_under_way_says_so(ok, status, reopened_by):
    """The table is a hand into 'sat' when the hand that ended 'fri' is undone or corrected to a knock
    that does not reach the target: 'fri' is in play again, which is said with the command that goes
    back to it, though 'sat' already has a hand (it is not restarted: no word of its deal)."""
    _rematch_after_ann_wins(ok, "standard")
    ok("hand", "ben", "2", "12")
    said = " ".join(ok(*reopened_by).stdout.split())
    assert "'fri' is not over now, and its rematch 'sat' is still the current session: `ginscore use fri` goes " \
           "back to it." in said and "has no hands yet" not in said
    assert status()["session"] == "sat" and not status("--session", "fri")["over"]


@pytest.mark.parametrize("brought", ["merge", "import"])
def test_a_game_ended_by_hands_brought_in_says_its_early_rematch_was_dealt_as_it_stood_r5(ok, db_path, tmp_path,
                                                                                         brought):
    """The phone started the rematch early (Ann deals); the laptop's hand ends the game with Ben's gin,
    so Ben deals the rematch (R5). Brought in by merge or import, the phone is told, as a hand typed is."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "g")
    ok("hand", "ann", "0", "50")
    laptop = ("--db", str(tmp_path / "laptop.json"))
    shutil.copy(db_path, tmp_path / "laptop.json")
    ok("rematch", "--yes", "--name", "r")
    ok(*laptop, "hand", "ben", "0", "98")
    ok(*laptop, "export", "--session", "g", "--format", "json", "--output", str(tmp_path / "g.json"))
    said = ok(*((brought, str(tmp_path / "laptop.json")) if brought == "merge" else
                ("import", str(tmp_path / "g.json")))).stdout
    assert ("Its rematch 'r' has no hands yet and was started as this game stood then (Ann deals); after the "
            f"hands {brought.rstrip('e')}ed Ben deals: `ginscore delete r --yes` then `ginscore rematch ") in \
        " ".join(said.split())
    assert ok("dealer", "--session", "r").stdout.startswith("Ann deals")  # told, not changed


def test_a_copy_taken_before_the_correction_differs_only_in_the_game_corrected(ok, db_path, tmp_path):
    """Nothing of the rematch changed, so a backup or a sync client's copy from before differs from this
    file in the corrected game alone: merged keeping both, only that game is copied."""
    import shutil

    _rematch_after_ann_wins(ok, "standard")
    backup = tmp_path / "backup.json"
    shutil.copy(db_path, backup)
    ok("edit", "1", "ben", "0", "90", "--session", "fri")
    merged = ok("merge", str(backup), "--keep-both", "--json").json()
    assert [copy["name"] for copy in merged["copied"]] == ["fri (merged)"], merged


def test_a_house_change_that_reopens_the_game_says_its_rematch_is_still_current(ok, status):
    _rematch_after_ann_wins(ok, "standard")
    said = " ".join(ok("house", "--target", "200", "--from-start", "--session", "fri").stdout.split())
    assert "the game Ann had won is not over yet" in said and "`ginscore use fri` goes back to it." in said
    assert status()["session"] == "sat" and status()["next_dealer"] == "Ann"


def test_a_rematch_with_a_hand_played_keeps_who_dealt_it_whatever_the_correction_h8(ok, status, db_path):
    """Once the rematch's first hand is played, who dealt it is a fact (H8): correcting the game before
    changes nothing in it, and says nothing of it."""
    _rematch_after_ann_wins(ok, "standard")
    ok("hand", "ann", "4", "20")
    said = ok("edit", "1", "ben", "0", "90", "--session", "fri").stdout
    assert "Its rematch" not in said
    assert ok("log", "--json").json()["hands"][0]["dealer"] == "Ann" and status()["next_dealer"] == "Ann"


def test_a_correction_that_leaves_the_winner_leaves_the_rematch_as_it_was(ok, db_path):
    _rematch_after_ann_wins(ok, "standard")
    rematch = _stored(db_path, "sat")
    said = ok("edit", "1", "ann", "0", "80", "--session", "fri").stdout
    assert "Its rematch" not in said and "not over now" not in said
    assert ok("dealer").stdout == "Ann deals next.\n"
    assert _stored(db_path, "sat") == rematch


def test_a_match_that_comes_out_even_says_nobody_owes_anything_h7(ok):
    """A game each by the same margin at a stake: the match so far must say that nobody owes anything,
    not leave the table to wonder whether the settlement was forgotten."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "0.1")
    ok("hand", "ann", "0", "10")
    ok("rematch")
    ok("hand", "ben", "0", "10")
    lines = ok("status").stdout.splitlines()
    at = lines.index("Match so far (2 sessions: standard-1, standard-2):")
    assert lines[at + 1:] == ["  Ann: 1 game won, 35 points in finished games",
                              "  Ben: 1 game won, 35 points in finished games",
                              "  Settled so far: nobody owes anything (H7)."], lines


def test_a_match_played_for_no_stake_says_nothing_of_settling_h7(ok, status):
    """No stake, no settlement: the match so far lists the games and points alone, and its JSON has
    no "settlement" for a script to read as "nobody owes"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30")
    ok("hand", "ann", "0", "10")
    ok("rematch")
    lines = ok("status").stdout.splitlines()
    at = lines.index("Match so far (2 sessions: standard-1, standard-2):")
    assert lines[at + 1:] == ["  Ann: 1 game won, 35 points in finished games",
                              "  Ben: 0 games won, 0 points in finished games"], lines
    assert "settlement" not in status()["match"]


def test_a_match_with_a_debt_says_who_pays_whom_and_nothing_else_h7(ok):
    """One game won at a stake: the match so far says the one payment, never also that nobody owes anything."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "0.1")
    ok("hand", "ann", "0", "10")
    ok("rematch")
    lines = ok("status").stdout.splitlines()
    at = lines.index("Match so far (2 sessions: standard-1, standard-2):")
    assert lines[at + 1:] == ["  Ann: 1 game won, 35 points in finished games",
                              "  Ben: 0 games won, 0 points in finished games",
                              "  Settled so far: Ben pays Ann 3.50 (H7)."], lines
