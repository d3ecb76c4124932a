"""Every command of docs/commands.md through the real CLI on a real TinyDB file in tmp_path."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest

STATUS_KEYS = {"session", "variant", "players", "rules", "hands_played", "next_dealer", "final", "winner", "over"}
RULE_KEYS = {"target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus", "shutout",
             "spades_double", "ace_means_gin", "deal", "stake"}


def test_new_standard_with_dealer_and_status_json(ok, status):
    out = ok("new", "standard", "Ann", "Ben", "--dealer", "ben").stdout
    assert "Started 'standard-1'" in out and "Ben deals next." in out
    doc = status()
    assert STATUS_KEYS <= set(doc) and "totals" in doc
    assert "games" not in doc and "roles" not in doc
    assert set(doc["rules"]) == RULE_KEYS
    assert doc["session"] == "standard-1" and doc["variant"] == "standard"
    assert doc["players"] == ["Ann", "Ben"] and doc["hands_played"] == 0
    assert doc["next_dealer"] == "Ben" and doc["totals"] == {"Ann": 0, "Ben": 0}
    assert doc["final"] is None and doc["winner"] is None and doc["over"] is False


def test_r5_random_first_dealer_is_printed(ok, status):
    out = ok("new", "standard", "Ann", "Ben").stdout
    dealer = status()["next_dealer"]
    assert f"{dealer} deals first, chosen at random (R5)" in out


def test_hand_prints_score_and_why(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("hand", "an", "4", "22").stdout
    assert "knock: Ann scores 22 - 4 = 18" in out
    assert "Ann deals next." in out
    out = ok("hand", "Ann", "8", "6").stdout
    assert "undercut: Ben scores 2 + 10 = 12" in out  # R10
    out = ok("hand", "BEN", "0", "31").stdout
    assert "gin: Ben scores 31 + 25 = 56" in out  # R11
    doc = status()
    assert doc["totals"] == {"Ann": 18, "Ben": 68} and doc["hands_played"] == 3
    assert doc["next_dealer"] == "Ben"


def test_draw_keeps_the_dealer_r12(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("draw").stdout
    assert "nobody scores; Ann deals again (R12)" in out
    doc = status()
    assert doc["hands_played"] == 1 and doc["next_dealer"] == "Ann" and doc["totals"] == {"Ann": 0, "Ben": 0}


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
    said = " ".join(ok("rematch").stdout.split())
    assert "Rematch of 'standard-1'. 'standard-1' was not over (1 hand played); it stays as it is, in play." in said
    assert status("--session", "standard-1")["over"] is False and status()["session"] == "standard-2"


def test_hollywood_status_games_and_r20_through_cli(ok, status):
    ok("new", "hollywood", "Alexandra", "Bob", "--dealer", "Bob")
    ok("hand", "bob", "5", "15")
    ok("hand", "alex", "2", "20")
    out = ok("hand", "bob", "0", "5").stdout
    assert "in games 1 and 2" in out
    ok("hand", "bob", "6", "10")
    doc = status()
    assert "totals" not in doc and len(doc["games"]) == 3
    assert [g["scores"] for g in doc["games"]] == [
        {"Alexandra": 18, "Bob": 44}, {"Alexandra": 0, "Bob": 34}, {"Alexandra": 0, "Bob": 4}]
    assert all(g["winner"] is None and g["final"] is None for g in doc["games"])


def test_hollywood_winner_with_two_games_before_over(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "75")
    out = ok("hand", "ann", "0", "75").stdout
    assert "Game 2 goes to Ann" in out
    doc = status()
    assert doc["winner"] == "Ann" and doc["over"] is False and doc["next_dealer"] == "Ann"
    assert doc["games"][0]["final"] == {"Ann": 100, "Ben": 0}
    out = ok("hand", "ann", "0", "75").stdout
    assert "Ann wins the series" in out
    doc = status()
    assert doc["over"] is True and doc["final"] == {"Ann": 300, "Ben": 0}
    out = ok("status").stdout
    assert ["Won", "by", "Ann", "Ann", "Ann"] in [line.split() for line in out.splitlines()]  # each game's winner


def test_three_player_roles_rotation_and_dealer(ok, status):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    doc = status()
    assert doc["roles"] == {"box": "Ann", "captain": "Ben", "out": "Cy"} and doc["next_dealer"] == "Ann"
    ok("hand", "ben", "3", "20")  # box loses (R23)
    assert status()["roles"] == {"box": "Ben", "captain": "Cy", "out": "Ann"}
    out = ok("dealer").stdout
    assert "Ben is in the box and deals, Cy captains, Ann sits out" in out
    assert ok("dealer", "--json").json() == {
        "session": "three-1", "next_dealer": "Ben", "roles": {"box": "Ben", "captain": "Cy", "out": "Ann"},
        "over": False}
    ok("hand", "ben", "2", "9")  # box wins
    assert status()["roles"] == {"box": "Ben", "captain": "Ann", "out": "Cy"}
    ok("draw")  # R25
    assert status()["roles"] == {"box": "Ben", "captain": "Ann", "out": "Cy"}
    assert status()["totals"] == {"Ann": 0, "Ben": 17 + 7, "Cy": 0}  # R24: the sitter-out never scores


def test_three_player_random_draw_is_printed_r21(ok, status):
    out = ok("new", "three", "Ann", "Ben", "Cy").stdout
    assert "Drew for seats (R21)" in out
    roles = status()["roles"]
    assert sorted(roles.values()) == ["Ann", "Ben", "Cy"]


def test_three_player_rematch_continues_rotation_r23(ok, status):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--target", "10")
    ok("hand", "ben", "0", "0")  # Ben wins the game with 25; the box lost
    assert status()["over"] is True and status()["roles"] is None
    ok("rematch")
    assert status()["roles"] == {"box": "Ben", "captain": "Cy", "out": "Ann"}


def test_oklahoma_upcard_limit_and_spades_double(ok, refused, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--spades-double")
    refused("hand", "ann", "4", "20", says="upcard")
    refused("hand", "ann", "7", "20", "--upcard", "6h", says="knock limit of 6")
    out = " ".join(ok("hand", "ann", "6", "20", "--upcard", "6s").stdout.split())  # as words, however wrapped
    assert "Ann knocked with 6 on a 6♠ upcard" in out and "x 2 for the spade upcard = 28" in out
    assert status()["totals"]["Ann"] == 28
    for upcard, said in (("8d", "Ben knocked with 3 on an 8♦ upcard"), ("ah", "Ben went gin on an A♥ upcard")):
        out = " ".join(ok("hand", "ben", "3" if upcard == "8d" else "0", "20", "--upcard", upcard).stdout.split())
        assert said in out, out


def test_big_gin_h2(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    refused("hand", "ann", "3", "20", "--big-gin", says="but Ann has 3 deadwood (H2); leave out --big-gin for a knock")
    out = ok("hand", "ann", "0", "20", "--big-gin").stdout
    assert "big gin: Ann scores 20 + 31 = 51" in out
    assert status()["totals"]["Ann"] == 51


def test_log_and_log_json(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("draw", "--upcard", "7h")
    ok("hand", "ben", "9", "3")
    doc = ok("log", "--json").json()
    assert doc["session"] == "standard-1"
    hands = doc["hands"]
    assert [h["outcome"] for h in hands] == ["knock", "draw", "undercut"]
    assert [h["winner"] for h in hands] == ["Ann", None, "Ann"]
    assert [h["points"] for h in hands] == [18, None, 16]
    assert [h["totals"] for h in hands] == [{"Ann": 18, "Ben": 0}, {"Ann": 18, "Ben": 0}, {"Ann": 34, "Ben": 0}]
    assert [h["dealer"] for h in hands] == ["Ann", "Ann", "Ann"]
    assert hands[1]["upcard"] == "7H" and hands[0]["recorded_at"]
    out = ok("log").stdout
    assert "undercut" in out and "34" in out


def test_undo_asks_and_yes_skips(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ann", "5", "20")
    out = ok("undo", input="n\n").stdout
    assert "Nothing removed" in out and status()["hands_played"] == 2
    out = ok("undo", input="y\n").stdout
    assert "Removed hand 2" in out and status()["hands_played"] == 1
    ok("undo", "--yes")
    assert status()["hands_played"] == 0 and status()["totals"] == {"Ann": 0, "Ben": 0}


def test_edit_rescores_everything_after(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")  # Ann +18, deals next
    ok("hand", "ann", "5", "20")  # Ann +15
    out = ok("edit", "1", "ben", "4", "22").stdout
    assert "Corrected hand 1" in out
    doc = ok("log", "--json").json()
    assert [h["dealer"] for h in doc["hands"]] == ["Ann", "Ben"]
    assert status()["totals"] == {"Ann": 15, "Ben": 18}
    ok("edit", "2", "--draw")
    assert status()["totals"] == {"Ann": 0, "Ben": 18}


def test_edit_refused_whole_when_a_later_hand_cannot_stand(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    ok("hand", "ann", "0", "10")  # 35
    ok("hand", "ben", "2", "12")  # 10
    refused("edit", "1", "ann", "0", "40", says="hand 2")  # would win the game at hand 1
    assert status()["totals"] == {"Ann": 35, "Ben": 10}


def test_edit_that_ends_a_finished_game_earlier_says_one_thing_to_do(ok, refused, status):
    """Not "the game is over; start another with `ginscore rematch`" and "undo or edit the later
    hands first" at once: the change makes the game end earlier, so the later hands would follow
    its end (R14): check the counts, or undo those hands. Editing them cannot help."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben", "--name", "cards")
    for _ in range(4):
        ok("hand", "ben", "4", "30")  # Ben wins at hand 4 with 104
    line = refused("edit", "1", "ben", "4", "90", "--session", "cards")
    assert line == ("Error: refused: with that change Ben wins the game at hand 2, so hands 3 and 4 would come "
                    "after its end (R14); check the counts, or undo hands 3 and 4 first")
    assert "refused: with that change Ben wins the game at hand 3, so hand 4 would" in refused("edit", "3", "ben", "4", "90")
    assert status()["final"] == {"Ann": 0, "Ben": 104}


def test_edit_refused_when_later_knocker_would_sit_out(ok, refused):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    ok("hand", "ann", "2", "12")  # box wins: Cy captains, Ben out
    ok("hand", "ann", "2", "12")  # the box again
    refused("edit", "1", "ben", "2", "12", says="Ann sits out")  # now Ann would be out at hand 2


def test_edit_keeps_the_upcard_and_its_knock_limit_r15(ok, refused, status):
    ok("new", "oklahoma", "Mary", "Cy", "--dealer", "cy")
    ok("hand", "mary", "5", "30", "--upcard", "7d")  # hand 1: limit 7
    ok("hand", "mary", "2", "30", "--upcard", "3s")  # hand 2: limit 3
    ok("draw", "--upcard", "kh")  # hand 3

    def upcards():
        return [h["upcard"] for h in ok("log", "--json").json()["hands"]]

    out = " ".join(ok("edit", "1", "mary", "7", "3").stdout.split())  # no --upcard: 7D kept
    assert "Mary knocked with 7 on a 7♦ upcard, Cy had 3" in out
    refused("edit", "2", "mary", "4", "30", says="over this hand's knock limit of 3 (R15)")  # checked against 3S
    ok("edit", "2", "mary", "3", "30", "--upcard", "9c")  # a new upcard replaces it
    ok("edit", "3", "--draw")  # a drawn hand keeps its upcard too
    assert upcards() == ["7D", "9C", "KH"]
    refused("edit", "1", "mary", "7", "3", "--upcard", "", says="add --upcard")  # R15: Oklahoma needs one
    assert status()["totals"] == {"Mary": 27, "Cy": 14}


def test_edit_keeps_an_upcard_recorded_outside_oklahoma_and_empty_removes_it(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22", "--upcard", "5c")
    ok("edit", "1", "ann", "3", "22")
    assert ok("log", "--json").json()["hands"][0]["upcard"] == "5C"
    ok("edit", "1", "ann", "3", "22", "--upcard", "")
    assert ok("log", "--json").json()["hands"][0]["upcard"] is None


def test_export_csv_columns_and_inert_formulas(ok, tmp_path):
    ok("new", "standard", "=Ann", "Ben", "--dealer", "=ann")
    ok("hand", "=ann", "4", "22")
    ok("draw")
    text = ok("export").stdout
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:11] == ["hand", "dealer", "knocker", "knocker_deadwood", "opponent_deadwood", "upcard",
                            "outcome", "winner", "points", "total:=Ann", "total:Ben"] or rows[0][9] == "'total:=Ann"
    assert rows[1][:11] == ["1", "'=Ann", "'=Ann", "4", "22", "", "knock", "'=Ann", "18", "18", "0"]
    assert rows[2][:9] == ["2", "'=Ann", "", "", "", "", "draw", "", ""]
    target = tmp_path / "out.csv"
    ok("export", "--output", str(target))
    assert target.read_text() == text


def test_export_csv_hollywood_columns(ok):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ben", "2", "12")
    header = next(csv.reader(io.StringIO(ok("export").stdout)))
    assert header[9:15] == ["game1:Ann", "game1:Ben", "game2:Ann", "game2:Ben", "game3:Ann", "game3:Ben"]


def test_export_json_holds_the_session(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "22", "--upcard", "5c")
    doc = json.loads(ok("export", "--format", "json").stdout)
    session = doc["session"]
    assert session["variant"] == "oklahoma" and session["first_dealer"] == "Ann"
    assert session["hands"][0]["upcard"] == "5C" and session["hands"][0]["knocker_deadwood"] == 3


def test_sessions_use_and_session_option(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    rows = ok("sessions", "--json").json()
    assert [(r["name"], r["current"]) for r in rows] == [("Friday", False), ("hollywood-1", True)]
    assert set(rows[0]) >= {"name", "variant", "players", "hands_played", "winner", "over", "current"}
    ok("hand", "ann", "2", "9", "--session", "fri")
    assert status("--session", "friday")["totals"]["Ann"] == 7
    assert status()["session"] == "hollywood-1"
    ok("use", "FRI")
    assert status()["session"] == "Friday"
    out = ok("sessions").stdout
    assert "Friday" in out and "hollywood-1" in out


def test_rules_command(ok):
    out = ok("rules", "oklahoma").stdout
    assert "R15" in out and "R21" not in out
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--box-bonus", "20")
    out = ok("rules").stdout
    assert "R23" in out and "box bonus 20" in out


def test_where_and_db_option(ok, db_path, tmp_path):
    assert ok("where").stdout.strip() == str(db_path)
    other = tmp_path / "other.json"
    assert ok("--db", str(other), "where").stdout.strip() == str(other)
    ok("--db", str(other), "new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert other.exists() and not db_path.exists()


def test_default_path_is_app_folder(monkeypatch, ok):
    monkeypatch.delenv("GINSCORE_DB")
    import typer

    assert ok("where").stdout.strip().startswith(typer.get_app_dir("ginscore"))


def test_names_printed_literally_not_as_markup(ok):
    ok("new", "standard", "[bold]Ann", "Ben", "--dealer", "Ben")
    out = ok("hand", "[bold]ann", "3", "9").stdout
    assert "[bold]Ann" in out


def test_colour_for_people_plain_when_piped_and_no_color_respected(ok, monkeypatch):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    assert "\x1b[" not in ok("status").stdout  # not a terminal: plain text
    monkeypatch.setenv("FORCE_COLOR", "1")  # as if on a terminal
    assert "\x1b[1;36m" in ok("status").stdout  # "Ben deals next." in bold cyan
    monkeypatch.setenv("NO_COLOR", "1")
    coloured = ok("status").stdout
    assert "36m" not in coloured and "Ben deals next." in coloured


def test_python_dash_m_and_console_script(db_path):
    env = {**os.environ, "GINSCORE_DB": str(db_path)}
    done = subprocess.run([sys.executable, "-m", "ginscore", "new", "standard", "Ann", "Ben", "--dealer", "ann"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "ginscore", "status", "--json"], capture_output=True, text=True,
                          env=env)
    assert json.loads(done.stdout)["next_dealer"] == "Ann"
    done = subprocess.run([sys.executable, "-m", "ginscore", "hand", "zed", "1", "2"], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["status"], ["status", "--json"], ["stats"], ["chart"], ["ratings", "--json"]])
def test_only_ratings_imports_openskill(ok, db_path, command):
    """openskill is `ratings`' alone: no other command pays for loading it at start-up."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "98")
    probe = ("import sys; sys.argv = ['ginscore', '--db', sys.argv[1], *sys.argv[2:]]\n"
             "from ginscore.cli import app as cli\n"
             "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'openskill'), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(db_path), *command], capture_output=True, text=True)
    loaded = done.stderr.strip().splitlines()[-1]
    assert ("'openskill'" in loaded) if command[0] == "ratings" else loaded == "[]", loaded


@pytest.mark.parametrize("args, collects", [(["status"], False), (["where"], False),
                                            (["watch", "--once"], True)])
def test_a_one_shot_command_runs_without_the_cyclic_collector_and_watch_with_it(ok, db_path, args, collects):
    """ginscore.cli.main, as the script runs it, switches the collector off for one command (it
    only costs there) and `watch`/`play`, which run for an evening, switch it back on; a test
    calling main(argv) in-process keeps its own."""
    import gc

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert gc.isenabled()
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: sys.stderr.write(f'collecting={gc.isenabled()}\\n'))\n"
             f"sys.argv = ['ginscore', *{args!r}]\n"
             "from ginscore.cli import main\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "GINSCORE_DB": str(db_path)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == f"collecting={collects}"
