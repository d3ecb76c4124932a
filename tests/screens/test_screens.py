"""Every screen at every width, colour, and the width taken from the terminal."""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios

import pytest

from tests.support import edit_every_file, number_whole


def test_colour_for_people_plain_when_piped_and_no_color_respected(ok, monkeypatch):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    assert "\x1b[" not in ok("status").stdout  # not a terminal: plain text
    monkeypatch.setenv("FORCE_COLOR", "1")  # as if on a terminal
    assert "\x1b[1;36m" in ok("status").stdout  # "Ben deals next." in bold cyan
    monkeypatch.setenv("NO_COLOR", "1")
    coloured = ok("status").stdout
    assert "36m" not in coloured and "Ben deals next." in coloured


NAMES = ("Alexandrina", "Bartholomew", "Christabelle")


WIDTHS = (40, 80, 120)


# Each variant's evening: how it starts, its hands, and the last hand (recorded at the width under test).
EVENINGS = {
    "standard": (
        ["new", "standard", "Alexandrina", "Bartholomew", "--dealer", "alex", "--name", "tuesday standard"],
        [["hand", "alex", "5", "40"], ["hand", "bart", "0", "18"], ["hand", "alex", "9", "7"], ["draw"]],
        ["hand", "alex", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KC QD 8S 5H 5C 6D 4C 3D 9C 8C"],
    ),
    "oklahoma": (  # upcards, spades double (H4), a game bonus so the final differs (H3)
        ["new", "oklahoma", "Alexandrina", "Bartholomew", "--dealer", "bart", "--spades-double",
         "--game-bonus", "100", "--name", "oklahoma night"],
        [["hand", "alex", "3", "40", "--upcard", "7S"], ["hand", "bart", "0", "20", "--upcard", "KD"],
         ["draw", "--upcard", "AS"]],
        ["hand", "alex", "1", "60", "--upcard", "2S"],
    ),
    "three": (  # who sat out each hand must show (R22)
        ["new", "three", *NAMES, "--box", "alex", "--captain", "bart", "--name", "three of us"],
        [["hand", "alex", "4", "30"], ["hand", "alex", "2", "50"], ["hand", "bart", "0", "40"],
         ["hand", "christ", "3", "33"], ["draw"]],
        ["hand", "christ", "7", "20"],
    ),
    "hollywood": (  # all three games past 100 (R17-R19), bonuses (H3)
        ["new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex", "--game-bonus", "100",
         "--box-bonus", "25", "--name", "friday hollywood"],
        [["hand", "alex", "5", "40"], ["hand", "bart", "0", "38"], ["hand", "alex", "3", "60"],
         ["hand", "bart", "2", "55"], ["hand", "alex", "0", "45"], ["hand", "bart", "1", "70"]],
        ["hand", "alex", "4", "50"],
    ),
}


HUMAN_COMMANDS = (["status"], ["log"], ["stats"], ["history"], ["sessions"], ["chart"], ["rules"], ["dealer"])


def _evening(ok, variant: str) -> str:
    """Record the evening up to its last hand; return the last hand's own output."""
    start, hands, last = EVENINGS[variant]
    ok(*start)
    for hand in hands:
        ok(*hand)
    return ok(*last).stdout


def _fits(text: str, width: int) -> None:
    assert "…" not in text, text
    for line in text.splitlines():
        assert len(line) <= width, f"{len(line)} > {width}: {line!r}\n{text}"


def _numbers_of(doc: dict) -> list[int]:
    """Every total of ``status --json``: points (each Hollywood game), finals with bonuses, hands won."""
    columns = [g["scores"] for g in doc["games"]] if "games" in doc else [doc["totals"]]
    columns += [doc["final"] or {}, doc["hands_won"]]
    return [value for column in columns for value in column.values()]


@pytest.fixture
def narrow(monkeypatch):
    """Set the width human output is laid out for; NO_COLOR so the text is the text."""

    def _narrow(width: int) -> None:
        monkeypatch.setenv("COLUMNS", str(width))
        monkeypatch.setenv("NO_COLOR", "1")

    return _narrow


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("variant", list(EVENINGS))
def test_every_screen_fits_and_shows_every_number_and_namenumber_whole(ok, narrow, variant, width):
    narrow(width)
    hand_output = _evening(ok, variant)
    doc = ok("status", "--json").json()
    players = doc["players"]
    numbers = _numbers_of(doc)
    screens = {"hand": hand_output} | {" ".join(c): ok(*c).stdout for c in HUMAN_COMMANDS}
    for command, text in screens.items():
        _fits(text, width)
        if command not in ("rules", "dealer"):
            for name in players:
                assert re.search(rf"\b{name}\b", text), (command, name, text)
    for command in ("hand", "status"):
        for number in numbers:
            assert number_whole(number, screens[command]), (command, number, screens[command])
    last_totals = ok("log", "--json").json()["hands"][-1]
    for column in last_totals.get("games") or [last_totals["totals"]]:
        for number in column.values():
            assert number_whole(number, screens["log"]), (number, screens["log"])
    stats = ok("stats", "--json").json()["players"]
    for name, record in stats.items():
        assert number_whole(record["hands"], screens["stats"]) and number_whole(record["gins"], screens["stats"])
    assert number_whole(len(EVENINGS[variant][1]) + 1, screens["history"])  # hands played


@pytest.mark.parametrize("width", WIDTHS)
def test_who_deals_next_and_each_hollywood_game_whole_on_every_width(ok, narrow, width):
    narrow(width)
    ok("new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex")
    ok("hand", "alex", "0", "90")  # 115 in game 1: game 1 won; games 2 and 3 open
    out = ok("status").stdout
    _fits(out, width)
    assert "Alexandrina deals next." in " ".join(out.split())
    for game in ("Game 1", "Game 2", "Game 3"):
        assert game in out
    assert number_whole(115, out)


def test_stats_lists_players_as_rows(ok, narrow):
    narrow(80)
    _evening(ok, "three")
    out = ok("stats").stdout
    rows = [line.split() for line in out.splitlines()]
    for name in NAMES:
        assert sum(1 for row in rows if row[:1] == [name]) >= 1  # each player starts a row
    assert not any(row[1:] and all(cell in NAMES for cell in row) and len(row) > 1 for row in rows)


def test_the_three_player_log_says_who_sat_out(ok, narrow):
    _evening(ok, "three")  # hand 1: Alexandrina (box) v Bartholomew, Christabelle sat out (R22)
    narrow(140)
    out = ok("log").stdout
    assert "Sat out" in out
    assert "Christabelle" in next(line for line in out.splitlines() if line.split()[:1] == ["1"])
    narrow(80)  # one line a hand still, the box and the sitter-out by letter (R22)
    rows = [line.split() for line in ok("log").stdout.splitlines()]
    assert rows[2][:3] == ["#", "Box", "Out"] and rows[4][:4] == ["1", "A", "C", "A"]
    assert ["C", "Christabelle"] == rows[-1][-2:]
    narrow(40)
    out = ok("log").stdout
    assert "C sat out" in out and "C Christabelle" in out


def test_an_oklahoma_log_at_80_columns_keeps_who_dealt_and_who_won(ok, narrow):
    """H6 (the loser deals) and R13: at 80 columns the names turn to letters before Dealer and Winner go."""
    ok("new", "oklahoma", "Mary Jane", "Cy", "--dealer", "cy", "--deal", "loser")
    ok("hand", "mary", "5", "30", "--upcard", "7d")
    ok("hand", "cy", "6", "3", "--upcard", "10d")  # undercut: Mary Jane scores, Cy deals again (H6)
    narrow(80)
    out = ok("log", "--session", "oklahoma-1").stdout
    _fits(out, 80)
    rows = [line.split() for line in out.splitlines()]
    assert rows[2][:2] == ["#", "Dealer"] and "Winner" in rows[2]
    assert rows[5][:3] == ["2", "C", "C"] and rows[5][7:9] == ["undercut", "M"]  # Cy dealt and knocked; Mary Jane won
    assert "M Mary Jane  C Cy" in out


def test_empty_columns_are_left_out(ok, narrow):
    narrow(120)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("draw")
    out = ok("log").stdout
    assert "Upcard" not in out and "Points" not in out and "Knocker" not in out  # a draw-only log
    ok("hand", "ann", "4", "22")
    out = ok("log").stdout
    assert "Upcard" not in out and "Points" in out and "Knocker" in out  # a standard game without upcards


def test_a_hollywood_log_never_cuts_a_game_score(ok, narrow):
    narrow(80)
    _evening(ok, "hollywood")
    out = ok("log").stdout
    assert "92-116" in out and "127-53" in out and "116-69" in out
    narrow(40)
    out = ok("log").stdout
    _fits(out, 40)
    rows = [line.split() for line in out.splitlines()]
    last = rows[next(n for n, row in enumerate(rows) if row[:1] == ["7"]):]  # hand 7: A's and B's lines of the games
    assert ["A", "92", "127", "116"] in [row[-4:] for row in last]
    assert ["B", "116", "53", "69"] in [row[-4:] for row in last]


def test_the_hollywood_chart_stacks_its_games_when_they_do_not_fit(ok, narrow):
    _evening(ok, "hollywood")
    narrow(120)
    wide = ok("chart").stdout
    narrow(80)
    stacked = ok("chart").stdout
    _fits(stacked, 80)
    titles = ("Game 1 (won by Bartholomew)", "Game 2 (won by Alexandrina)", "Game 3 (won by Alexandrina)")
    assert any(all(t in line for t in titles) for line in wide.splitlines())  # side by side
    lines = stacked.splitlines()
    assert [lines.index(t) for t in titles] == sorted(lines.index(t) for t in titles)  # one under another


def test_the_chart_draws_no_score_under_the_target_on_its_line(ok, narrow):
    narrow(80)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "1", "97")  # Ann 96: near the target, not on it (R14)
    out = ok("chart").stdout
    target_line = next(line for line in out.splitlines() if line.lstrip().startswith("100 |"))
    assert "A" not in target_line and "*" not in target_line
    ok("hand", "ann", "0", "4")  # Ann 125: over the target
    assert "A" in next(line for line in ok("chart").stdout.splitlines() if line.lstrip().startswith("125 |"))


def test_the_standings_say_who_leads_by_how_much_and_what_they_need(ok, narrow, status):
    narrow(120)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "Level at 0; each needs 100 more to reach 100." in ok("status").stdout
    out = ok("hand", "ann", "2", "25").stdout  # R9: Ann 23
    assert "Ann leads Ben by 23; Ann needs 77 more to reach 100." in out
    assert status()["state_of_play"] == ["Ann leads Ben by 23; Ann needs 77 more to reach 100.", "Ann deals next."]
    ok("hand", "ben", "2", "25")
    assert "Level at 23; each needs 77 more to reach 100." in ok("status").stdout
    ok("hand", "ben", "0", "75")  # R11: Ben wins the game
    assert status()["state_of_play"] == [] and "leads" not in ok("status").stdout


def test_the_state_of_play_per_open_hollywood_game(ok, narrow, status):
    narrow(120)
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "80")  # R17: Ann's first win, game 1: 105, won
    ok("hand", "ben", "2", "12")  # Ben's first win: game 1 is over, so game 2 (R18)
    assert status()["state_of_play"][:2] == [
        "Game 2: Ben leads Ann by 10; Ben needs 90 more to reach 100.",
        "Game 3: Level at 0; each needs 100 more to reach 100.",
    ]
    out = ok("status").stdout
    assert "Game 2: Ben leads Ann by 10" in out and "Game 1:" not in out


def test_the_state_of_play_in_three_player_names_the_next_roles(ok, narrow, status):
    narrow(120)
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "2", "25")  # R23: the box won, so Ben and Cy swap: Cy captains, Ben sits out
    assert status()["state_of_play"] == [
        "Ann leads Ben and Cy by 23; Ann needs 77 more to reach 100.",
        "Next hand: Ann is in the box and deals, Cy captains, Ben sits out.",
    ]
    ok("hand", "cy", "0", "0")  # gin: 25 to Cy; the box lost: Ann sits out, Cy to the box
    out = " ".join(ok("status").stdout.split())
    assert "Cy is level" not in out and "Cy leads Ann by 2 and Ben by 25" in out
    assert "Next hand: Cy is in the box and deals" in out


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return env | {"NO_COLOR": "1"} | extra


def _run(command: str, env: dict, **streams) -> str:
    """A real process, in a session of its own (no controlling terminal)."""
    done = subprocess.run(command, shell=True, env=env, capture_output="stdout" not in streams, text=True,
                          start_new_session=True, timeout=60, **streams)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_piped_with_no_terminal_is_80_wide(ok, db_path):
    _evening(ok, "hollywood")
    python = sys.executable
    out = _run(f"{python} -m ginscore log | cat", _env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
               stderr=subprocess.DEVNULL)
    _fits(out, 80)
    assert "Dealer" in out and "Knocker" not in out  # the 80-column log (players by letter), not the 120 one
    for garbage in ("wide", "-5", "0", "1e3", "80x", " "):  # a value that is no width is ignored
        out = _run(f"{python} -m ginscore log | cat", _env(COLUMNS=garbage), stdin=subprocess.DEVNULL,
                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert "Dealer" in out and "Knocker" not in out, garbage


@pytest.mark.parametrize("via", ["stderr", "stdin"])
def test_piped_to_a_pager_takes_the_width_of_the_terminal(ok, via):
    """`ginscore log | less`: stdout is a pipe, the terminal is still on stderr (and stdin)."""
    _evening(ok, "hollywood")
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
        streams = {"stdin": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, via: follower}
        out = _run(f"{sys.executable} -m ginscore log", _env(), stdout=subprocess.PIPE, **streams)
    finally:
        os.close(follower)
        os.close(leader)
    _fits(out, 40)
    assert "G1" in out  # the stacked 40-column log


def test_columns_set_wins_over_the_terminal(ok):
    _evening(ok, "hollywood")
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
        out = _run(f"{sys.executable} -m ginscore log", _env(COLUMNS="120"), stdout=subprocess.PIPE,
                   stdin=subprocess.DEVNULL, stderr=follower)
    finally:
        os.close(follower)
        os.close(leader)
    assert "Dealer" in out and max(len(line) for line in out.splitlines()) > 80


def test_outside_text_is_shown_not_obeyed(ok, narrow, db_path):
    narrow(80)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "evening")
    # `new` refuses such a name; a file edited by another program can still hold one
    edit_every_file(db_path, '"evening"', '"evening\\u001b]0;owned\\u0007"')
    for command in ("status", "log", "sessions", "history", "chart"):
        out = ok(command).stdout
        assert "\x1b" not in out and "\x07" not in out
    assert "evening\\x1b]0;owned\\x07" in ok("sessions").stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_stats_of_ten_players_fit_with_every_namenumber_whole(ok, narrow, width):
    narrow(width)
    names = ["Alexandrina", "Bartholomew", "Christabelle", "Dominique", "Evangeline", "Florentino",
             "Gwendolyn", "Humphrey", "Isadora", "Jeremiah"]
    for a, b in zip(names[::2], names[1::2]):
        ok("new", "standard", a, b, "--dealer", a)
        ok("hand", a, "3", "41")  # R9: 38 to the knocker
    out = ok("stats").stdout
    _fits(out, width)
    for name in names:
        assert re.search(rf"^{name}\b", out, re.MULTILINE), name  # each player heads a row
    assert number_whole(38, out)


@pytest.mark.parametrize("width", [30, 40, 60, 120])
def test_log_says_who_scored_an_undercut_at_every_width(ok, narrow, width):
    """R10, R13: on an undercut the opponent scores: the Winner column, or the hand's "won" line, says who."""
    narrow(width)
    ok("new", "standard", "Alexandrina", "Bartholomew", "--dealer", "alex")
    ok("hand", "alex", "5", "40")
    ok("hand", "bart", "9", "7")  # Bartholomew undercut: Alexandrina scores 12
    out = ok("log").stdout
    lines = out.splitlines()
    at = next(n for n, line in enumerate(lines) if "undercut" in line and line.lstrip().startswith("2"))
    hand = "\n".join(lines[at:at + 4])
    assert re.search(r"undercut +(A|Alexandrina) +12 ", hand) or "A won" in hand, out


@pytest.mark.parametrize("width", [40, 80])
def test_hollywood_standings_show_each_games_final_with_its_bonuses(ok, narrow, width):
    """H3 in Hollywood: each game gets its own bonuses; people see each game's final, not only --json."""
    narrow(width)
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--box-bonus", "25")
    for hand in (["ann", "0", "45"], ["ann", "2", "60"], ["ben", "3", "40"], ["ann", "0", "51"], ["ann", "5", "38"]):
        ok("hand", *hand)
    games = ok("status", "--json").json()["games"]
    out = ok("status").stdout
    for game in games:
        if game["final"]:
            line = f"Game {game['game']} with its bonuses (H3): Ann {game['final']['Ann']}, Ben {game['final']['Ben']}."
            assert line in " ".join(out.split()), out
    # game 1: Ann 70 + 58 hand points, 2 wins credited: 128 + 100 + 2 x 25 = 278 (H3)
    assert games[0]["final"] == {"Ann": 278, "Ben": 0}


def test_an_indented_item_that_wraps_goes_on_further_in(ok, monkeypatch):
    """At 40 columns the items of "Match so far:" wrap; their next lines go on two further in,
    so that they do not read as the next item."""
    ok("new", "standard", "Annabelle", "Benedict", "--target", "30", "--stake", "0.05", "--dealer", "anna")
    ok("hand", "anna", "2", "40")
    ok("rematch")
    ok("hand", "bene", "0", "40")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("status").stdout.splitlines()
    block = lines[next(n for n, line in enumerate(lines) if line.startswith("  Annabelle:")):]
    assert block[1] == "    finished games" and block[2].startswith("  Benedict: ")
    assert all(line.startswith(("  Annabelle: ", "  Benedict: ", "  Settled so far: ", "    ")) for line in block), block


def test_narrow_hollywood_standings_mark_each_game_won_beside_its_winner_only(ok, narrow):
    """At 40 columns the games are rows and the players columns; "(won)" goes with the game's winner."""
    narrow(40)
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "75")  # game 1 to Ann, 100 to 0
    ok("hand", "ben", "0", "60")
    ok("hand", "ann", "0", "75")  # game 2 to Ann, 100 to 85; game 3 open
    rows = {line.split()[1]: line.split()[2:] for line in ok("status").stdout.splitlines()
            if re.match(r"Game [0-9]+ ", line)}  # the table's rows, not "Game 3: Level at 0; ..."
    assert rows == {"1": ["100", "(won)", "0"], "2": ["100", "(won)", "85"], "3": ["0", "0"]}


def test_a_sentence_that_wraps_goes_on_at_the_left_edge(ok, narrow):
    """Only an indented item goes on further in; the heading's house rules and the state of play do not."""
    narrow(40)
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "10")
    lines = ok("status").stdout.splitlines()
    assert lines[1:3] == ["House rules: target 100; gin bonus 25;", "undercut bonus 10"]
    assert lines[-3:] == ["Ann leads Ben by 8; Ann needs 92 more to", "reach 100.", "Ann deals next."]


def test_a_name_longer_than_the_screen_is_folded_at_its_edge(ok, narrow):
    """A name that fits no line is cut where the line ends, every line full: 20 letters, 10 wide characters."""
    ok("new", "standard", "Alexandrin" + "a" * 28, "李" * 21, "--dealer", "alex")
    narrow(20)
    lines = ok("status").stdout.splitlines()
    assert "Alexandrinaaaaaaaaaa" in lines and "李" * 10 in lines


def test_a_session_name_said_in_a_sentence_stays_on_one_line_when_it_fits(ok, narrow):
    """At 40 columns "its rematch is 'saturday rematch at the club'" and the match's list keep each name
    whole; a name wider than the screen still breaks at its spaces, never past the edge."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday night at the club")
    ok("hand", "ann", "0", "90")
    ok("rematch", "--name", "saturday rematch at the club")
    narrow(40)
    over = ("--session", "friday night at the club")
    shown = ok("status", *over).stdout + ok("dealer", *over).stdout
    lines = shown.splitlines()
    assert lines.count("'saturday rematch at the club'.") == 2
    assert "friday night at the club," in lines and "saturday rematch at the club):" in lines
    assert "'friday night at the club' is over, so" in lines
    ok("rename", "--session", "saturday rematch at the club", "the long saturday night rematch at the club")
    lines = ok("dealer", *over).stdout.splitlines()
    assert max(map(len, lines)) <= 40 and lines[-1].endswith("club'."), lines  # broken at its spaces


def test_a_heading_exactly_as_wide_as_the_screen_stays_on_one_line(ok, narrow):
    heading = "standard-1 · Standard · Ann v Ben"
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    narrow(len(heading))
    assert ok("status").stdout.splitlines()[0] == heading


LONG_NAMES = ("Maximiliana Wolfeschlegel", "Bartholomew Christabelle", "Cyrano Montmorency Lafay")


@pytest.mark.parametrize("variant, start, told", [
    ("hollywood", ["--dealer", "max"], {  # R17: a player's first hand won scores in game 1
        LONG_NAMES[0]: ["  Game 1  18", "  Game 2  0", "  Game 3  0", "  Hands won  1"],
        LONG_NAMES[1]: ["  Game 1  55", "  Game 2  0", "  Game 3  0", "  Hands won  1"]}),
    ("three", ["--box", "max", "--captain", "bar"], {  # R23: the box won, stays in; the captain and the one out swap
        LONG_NAMES[0]: ["  Next hand  in the box", "  Points  18", "  Hands won  1"],
        LONG_NAMES[1]: ["  Next hand  sits out", "  Points  0", "  Hands won  0"],
        LONG_NAMES[2]: ["  Next hand  captain", "  Points  0", "  Hands won  0"]}),
])
def test_names_of_two_dozen_letters_at_40_columns_still_show_every_score(ok, narrow, variant, start, told):
    """Neither standings table fits 40 columns with names this long: each player's scores are said in a few
    lines under the name, never 'Too narrow' in place of the scores; stats' head to head likewise."""
    narrow(40)
    ok("new", variant, *LONG_NAMES[:len(told)], *start)
    ok("hand", "max", "4", "22")
    if variant == "hollywood":
        ok("hand", "bar", "0", "30")  # gin: 30 + 25
    for command in ("status", "stats"):
        text = ok(command).stdout
        _fits(text, 40)
        assert "Too narrow" not in text, text
    lines = ok("status").stdout.splitlines()
    for name, said in told.items():
        at = max(n for n, line in enumerate(lines) if line == name)  # (the heading names them first)
        assert lines[at + 1:at + 1 + len(said)] == said, lines
    assert "Head to head" in ok("stats").stdout


def test_a_meld_is_never_broken_over_two_lines_at_any_width(ok, narrow):
    """At 40 columns a hand told as cards printed "Ann spreads ... [9♥" and "10♥ J♥], unmatched ..." below it:
    a meld stays on one line wherever it fits on one (R2), in what `hand` and `deadwood` print."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    cards = ("--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "4S 5S 8H QH QD QC KS KD 6C 9C")
    for width in range(16, 81):
        narrow(width)
        for shown in (ok("hand", "ann", *cards).stdout, ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D").stdout):
            _fits(shown, width)
            for line in shown.splitlines():
                assert line.count("[") == line.count("]"), f"at {width}: a meld broken in {line!r}\n{shown}"
        ok("undo", "--yes")


@pytest.mark.parametrize("width", range(12, 25))
def test_a_players_lines_on_a_very_narrow_screen_keep_each_value_whole_and_indented(ok, narrow, width):
    """At 20 columns "  Next hand  in the" was followed by "box" at the left edge, which reads as a player
    named box: a value too long for its heading's line goes under it, indented, whole where it fits (R22)."""
    narrow(width)
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "20")
    lines = ok("status").stdout.splitlines()
    _fits("\n".join(lines), width)
    at = lines.index("Ben")  # (the heading names the players "Ann v Ben v Cy", never alone on a line)
    told = " ".join(lines[at + 1:at + 5])
    assert all(line.startswith("  ") for line in lines[at + 1:at + 4]), lines
    assert "in the box" not in told and "sits out" in told and "  Points  0" in lines[at + 1:at + 5], lines


def test_a_meld_exactly_as_wide_as_the_screen_stays_whole(ok, narrow):
    """At 10 columns `deadwood` printed "Melds [7♥" and "7♦ 7♣] ..." below it: a meld of exactly 10 cells
    was broken where it would fit a line of its own (R2)."""
    narrow(10)
    shown = ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D").stdout.splitlines()
    assert shown[:3] == ["Melds", "[7♥ 7♦ 7♣]", "[A♠ 2♠ 3♠]"], shown


def test_stats_too_narrow_for_any_table_says_each_players_figures_under_the_name(ok, narrow):
    """Under 35 columns, with names of two dozen letters, stats printed thirteen "Too narrow: needs 35
    columns." lines and no figure: each player's statistics are said a line each under the name."""
    ok("new", "standard", "Maximiliana Wolfeschlegel", "Bartholomew Christabelle", "--dealer", "max")
    ok("hand", "max", "4", "22")
    narrow(30)
    shown = ok("stats").stdout
    _fits(shown, 30)
    assert "Too narrow" not in shown, shown
    lines = shown.splitlines()
    at = lines.index("Maximiliana Wolfeschlegel")
    assert lines[at + 1:at + 5] == ["  Sessions  1", "  Sessions won  0", "  Hands  1", "  Hands won  1"], lines
    assert "  Avg deadwood knocking  4.00" in lines and "Head to head" in lines, lines


@pytest.mark.parametrize("width", [10, 12])
def test_head_to_head_on_a_very_narrow_screen_keeps_each_value_under_its_heading(ok, narrow, width):
    """At 10-12 columns stats' head to head put "1" and "0" at the left edge under "  Sessions" and
    "  Wins  0 -", where the standings keep a value under its heading, indented."""
    ok("new", "standard", "Annabelle-Josephine", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    narrow(width)
    lines = ok("stats").stdout.splitlines()
    at = max(n for n, line in enumerate(lines) if line.startswith("  Sessions"))  # (the pair's, last)
    assert lines[at:] in (["  Sessions", "  1", "  Wins", "  0 - 0"], ["  Sessions  1", "  Wins  0 - 0"]), lines
