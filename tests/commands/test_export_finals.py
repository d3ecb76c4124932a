"""`ginscore export --finals` and `--excel`: how a session ended, as a spreadsheet reads it.

Every expected row below is worked out by hand from the rules (R10-R24, H3, H7) in the comments
beside the hands, never by calling ginscore's own code.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from tests.support import ROOT

HEADER = ["session", "game", "player", "hand_points", "game_bonus", "box_bonus", "shutout_bonus", "final",
          "result", "stake_net"]


def finals(ok, *extra) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(ok("export", "--finals", *extra).stdout)))
    assert rows[0] == HEADER
    return rows[1:]


def test_an_evening_that_ended_265_to_149_says_so_with_each_bonus_by_name(ok):
    """The hands CSV ends at 105 to 69; the finals add the game bonus and the box bonuses (H3) and
    settle the difference at the stake (H7)."""
    ok("new", "standard", "Ann", "José", "--dealer", "ann", "--name", "friday", "--game-bonus", "100",
       "--box-bonus", "20", "--stake", "0.05")
    ok("hand", "josé", "2", "20")  # José knocks: 20 - 2 = 18
    ok("hand", "ann", "0", "30")  # Ann gin: 30 + 25 = 55
    ok("hand", "josé", "3", "20")  # 17 -> José 35
    ok("hand", "josé", "3", "20")  # 17 -> José 52
    ok("hand", "ann", "2", "27")  # 25 -> Ann 80
    ok("hand", "josé", "3", "20")  # 17 -> José 69
    ok("hand", "ann", "1", "26")  # 25 -> Ann 105: Ann wins (R14)
    last = list(csv.reader(io.StringIO(ok("export").stdout)))[-1]
    assert last[9:11] == ["105", "69"]  # the hands CSV: running totals only
    # Ann: 105 + game bonus 100 + 3 hands won x 20 = 265; José: 69 + 4 x 20 = 149.
    # H7: (265 - 149) x 0.05 = 5.80, José to Ann.
    assert finals(ok) == [
        ["friday", "1", "Ann", "105", "100", "60", "0", "265", "won", "5.80"],
        ["friday", "1", "José", "69", "0", "80", "0", "149", "lost", "-5.80"],
    ]


def test_a_shutout_doubles_the_winners_whole_final(ok):
    """H3: Ben scored nothing, so Ann's hand points and bonuses count twice; no stake, no net."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "blank", "--game-bonus", "100",
       "--box-bonus", "25", "--shutout")
    ok("hand", "ann", "0", "50")  # gin: 50 + 25 = 75
    ok("hand", "ann", "5", "35")  # knock: 30 -> 105, Ann wins
    # Ann: 105 + 100 + 2 x 25 = 255, doubled: the shutout adds 255 -> 510. Ben: 0.
    assert finals(ok) == [
        ["blank", "1", "Ann", "105", "100", "50", "255", "510", "won", ""],
        ["blank", "1", "Ben", "0", "0", "0", "0", "0", "lost", ""],
    ]


def test_oklahoma_finals_carry_the_doubled_spade_hand(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--name", "okla", "--spades-double",
       "--game-bonus", "100", "--stake", "0.25")
    ok("hand", "ben", "3", "20", "--upcard", "5h")  # a 5 allows 5 (R15): Ben 17
    ok("hand", "ann", "0", "40", "--upcard", "7s")  # gin on a spade (H4): (40 + 25) x 2 = 130, Ann wins
    # Ann: 130 + 100 = 230; Ben 17. H7: 213 x 0.25 = 53.25.
    assert finals(ok) == [
        ["okla", "1", "Ann", "130", "100", "0", "0", "230", "won", "53.25"],
        ["okla", "1", "Ben", "17", "0", "0", "0", "17", "lost", "-53.25"],
    ]


def test_hollywood_has_a_row_per_player_per_game_and_nets_add_up_to_the_settlement(ok):
    """R17-R19 with H3's bonuses counted per game (the wins credited to it) and H7 per game."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--name", "holly", "--target", "50",
       "--game-bonus", "50", "--box-bonus", "10", "--stake", "0.1")
    ok("hand", "ann", "2", "22")  # Ann's 1st win, 20: game 1
    ok("hand", "ben", "0", "15")  # Ben's 1st, gin 40: game 1
    ok("hand", "ann", "1", "31")  # Ann's 2nd, 30: games 1 and 2; game 1 Ann 50, won (R18)
    # Mid-series: game 1 is over (its final), the others unfinished; no net until the series is over.
    assert finals(ok) == [
        ["holly", "1", "Ann", "50", "50", "20", "0", "120", "won", ""],
        ["holly", "1", "Ben", "40", "0", "10", "0", "50", "lost", ""],
        ["holly", "2", "Ann", "30", "", "", "", "", "unfinished", ""],
        ["holly", "2", "Ben", "0", "", "", "", "", "unfinished", ""],
        ["holly", "3", "Ann", "0", "", "", "", "", "unfinished", ""],
        ["holly", "3", "Ben", "0", "", "", "", "", "unfinished", ""],
    ]
    ok("hand", "ben", "3", "33")  # 30: game 2 only (Ben not yet credited in game 2)
    ok("hand", "ben", "0", "10")  # gin 35: games 2 and 3; game 2 Ben 65, won
    ok("hand", "ann", "5", "30")  # 25: game 3 (the only one open)
    ok("hand", "ann", "2", "30")  # 28: game 3 Ann 53, won; Ann wins the series 2-1
    # Game 1: Ann 50 + 50 + 2 x 10 = 120, Ben 40 + 10 = 50: Ben pays 70 x 0.1 = 7.00
    # Game 2: Ben 65 + 50 + 2 x 10 = 135, Ann 30 + 10 = 40: Ann pays 95 x 0.1 = 9.50
    # Game 3: Ann 53 + 50 + 2 x 10 = 123, Ben 35 + 10 = 45: Ben pays 78 x 0.1 = 7.80
    # Netted: Ann gets 7.00 - 9.50 + 7.80 = 5.30 from Ben.
    assert finals(ok) == [
        ["holly", "1", "Ann", "50", "50", "20", "0", "120", "won", "7.00"],
        ["holly", "1", "Ben", "40", "0", "10", "0", "50", "lost", "-7.00"],
        ["holly", "2", "Ann", "30", "0", "10", "0", "40", "lost", "-9.50"],
        ["holly", "2", "Ben", "65", "50", "20", "0", "135", "won", "9.50"],
        ["holly", "3", "Ann", "53", "50", "20", "0", "123", "won", "7.80"],
        ["holly", "3", "Ben", "35", "0", "10", "0", "45", "lost", "-7.80"],
    ]
    settlement = ok("status", "--json").json()["settlement"]
    assert settlement == [{"from": "Ben", "to": "Ann", "amount": "5.30"}]


def test_three_player_finals_have_a_row_for_each_player(ok):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--name", "trio", "--target", "50",
       "--game-bonus", "20", "--box-bonus", "10", "--stake", "0.01")
    ok("hand", "ann", "3", "23")  # box Ann beats captain Ben: 20; Cy captains next (R23)
    ok("hand", "cy", "2", "12")  # captain Cy beats box Ann: 10; Cy in the box, Ben captain, Ann out
    ok("hand", "ben", "0", "10")  # captain Ben gin: 35; Ben in the box, Ann captain
    ok("hand", "ann", "1", "31")  # captain Ann: 30 -> Ann 50, wins (R24)
    # Ann 50 + 20 + 2 x 10 = 90; Ben 35 + 10 = 45; Cy 10 + 10 = 20.
    # H7: Ben pays 45 x 0.01 = 0.45, Cy pays 70 x 0.01 = 0.70; Ann gets 1.15.
    assert finals(ok) == [
        ["trio", "1", "Ann", "50", "20", "20", "0", "90", "won", "1.15"],
        ["trio", "1", "Ben", "35", "0", "10", "0", "45", "lost", "-0.45"],
        ["trio", "1", "Cy", "10", "0", "10", "0", "20", "lost", "-0.70"],
    ]


def test_an_unfinished_game_says_so_and_leaves_bonuses_final_and_net_empty(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "open", "--game-bonus", "100",
       "--box-bonus", "20", "--stake", "0.01")
    ok("hand", "ann", "4", "22")  # 18
    ok("draw")
    ok("hand", "ben", "6", "4")  # Ben knocks, Ann undercuts: 2 + 10 = 12 -> Ann 30
    assert finals(ok) == [
        ["open", "1", "Ann", "30", "", "", "", "", "unfinished", ""],
        ["open", "1", "Ben", "0", "", "", "", "", "unfinished", ""],
    ]


def test_a_stake_of_half_a_cent_nets_exactly(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "cents", "--stake", "0.005")
    ok("hand", "ann", "0", "80")  # gin: 105, Ann wins
    # H7: 105 x 0.005 = 0.525, exactly, not rounded to cents
    assert finals(ok) == [
        ["cents", "1", "Ann", "105", "0", "0", "0", "105", "won", "0.525"],
        ["cents", "1", "Ben", "0", "0", "0", "0", "0", "lost", "-0.525"],
    ]
    doc = ok("export", "--format", "json").json()
    assert [row["stake_net"] for row in doc["finals"]] == ["0.525", "-0.525"]


def test_the_json_export_carries_the_same_finals(ok):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--name", "holly", "--target", "50", "--box-bonus", "10")
    ok("hand", "ann", "0", "30")  # gin 55: game 1, won by Ann: 55 + 10 = 65
    ok("hand", "ben", "2", "12")  # 10: Ben's game 1 is closed, so game 2 (R18)
    doc = ok("export", "--format", "json").json()
    assert doc["finals"][:3] == [
        {"session": "holly", "game": 1, "player": "Ann", "hand_points": 55, "game_bonus": 0, "box_bonus": 10,
         "shutout_bonus": 0, "final": 65, "result": "won", "stake_net": None},
        {"session": "holly", "game": 1, "player": "Ben", "hand_points": 0, "game_bonus": 0, "box_bonus": 0,
         "shutout_bonus": 0, "final": 0, "result": "lost", "stake_net": None},
        {"session": "holly", "game": 2, "player": "Ann", "hand_points": 0, "game_bonus": None, "box_bonus": None,
         "shutout_bonus": None, "final": None, "result": "unfinished", "stake_net": None},
    ]
    as_csv = [["" if v is None else str(v) for v in row.values()] for row in doc["finals"]]
    assert as_csv == finals(ok)


def test_finals_cells_a_spreadsheet_would_run_stay_inert_but_a_net_stays_a_number(ok):
    ok("new", "standard", "=Ann", "+Ben", "--dealer", "=ann", "--name", "@night", "--stake", "1")
    ok("hand", "+ben", "0", "80")  # gin 105
    assert finals(ok) == [
        ["'@night", "1", "'=Ann", "0", "0", "0", "0", "0", "lost", "-105.00"],
        ["'@night", "1", "'+Ben", "105", "0", "0", "0", "105", "won", "105.00"],
    ]


def test_a_json_export_with_finals_changed_by_hand_imports_with_the_finals_of_its_hands(ok, tmp_path):
    """Finals are derived: import reads them from the hands, never from the file."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday", "--game-bonus", "100")
    ok("hand", "ann", "0", "80")  # gin 105, Ann wins: 205
    path = tmp_path / "friday.json"
    doc = ok("export", "--format", "json").json()
    doc["finals"][0]["final"] = 999
    path.write_text(json.dumps(doc))
    ok("import", "--as-copy", path)
    assert ok("status", "--json").json()["final"] == {"Ann": 205, "Ben": 0}
    del doc["finals"]  # an export of an older ginscore
    path.write_text(json.dumps(doc))
    ok("import", "--as-copy", path)
    assert ok("status", "--json").json()["final"] == {"Ann": 205, "Ben": 0}


def test_import_refuses_a_finals_csv_naming_what_it_holds(ok, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    path = tmp_path / "finals.csv"
    ok("export", "--finals", "--output", path)
    refused("import", path, says="export --finals`, not its hands")


# --- --excel ---------------------------------------------------------------------------------------


def _jose_evening(ok):
    ok("new", "standard", "José", "Ann", "--dealer", "josé", "--name", "noche", "--stake", "0.01")
    ok("hand", "josé", "4", "22", "--note", "José's first")
    ok("draw")
    ok("hand", "josé", "0", "80")  # gin 105: José wins


@pytest.mark.parametrize("finals_too", [[], ["--finals"]], ids=["hands", "finals"])
def test_excel_writes_a_byte_order_mark_and_crlf_and_jose_reads_back(ok, tmp_path, finals_too):
    _jose_evening(ok)
    plain, excel = tmp_path / "plain.csv", tmp_path / "excel.csv"
    ok("export", *finals_too, "--output", plain)
    ok("export", *finals_too, "--excel", "--output", excel)
    data = excel.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    lines = data[3:].split(b"\n")
    assert lines[-1] == b"" and all(line.endswith(b"\r") for line in lines[:-1])
    assert data == b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\n", b"\r\n")  # the same cells
    with open(excel, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[1][2 if finals_too else 1] == "José"
    with open(plain, encoding="utf-8", newline="") as handle:
        assert list(csv.reader(handle)) == rows


def test_excel_on_standard_output_is_the_same_bytes(ok, tmp_path, db_path):
    _jose_evening(ok)
    excel = tmp_path / "excel.csv"
    ok("export", "--finals", "--excel", "--output", excel)
    piped = subprocess.run([sys.executable, "-m", "ginscore", "export", "--finals", "--excel"],
                           capture_output=True, check=True).stdout
    assert piped == excel.read_bytes()


def test_the_default_csv_export_stays_plain_utf8_with_newlines(ok, tmp_path):
    """No byte-order mark, no CR: the hands CSV is byte for byte what it was before --excel."""
    _jose_evening(ok)
    session = ok("export", "--format", "json").json()["session"]
    at = [hand["recorded_at"] for hand in session["hands"]]
    sid = session["id"]
    out = tmp_path / "plain.csv"
    ok("export", "--output", out)
    assert out.read_bytes() == (
        "hand,dealer,knocker,knocker_deadwood,opponent_deadwood,upcard,outcome,winner,points,total:José,total:Ann,"
        "opponent,knocker_cards,opponent_cards,recorded_at,note,session_id\n"
        f"1,José,José,4,22,,knock,José,18,18,0,Ann,,,{at[0]},José's first,{sid}\n"
        f"2,José,,,,,draw,,,18,0,,,,{at[1]},,{sid}\n"
        f"3,José,José,0,80,,gin,José,105,123,0,Ann,,,{at[2]},,{sid}\n"
    ).encode("utf-8")


def test_a_hands_csv_written_with_excel_imports(ok, cli, tmp_path, monkeypatch):
    _jose_evening(ok)
    excel = tmp_path / "excel.csv"
    ok("export", "--excel", "--output", excel)
    before = ok("log", "--json").json()
    monkeypatch.setenv("GINSCORE_DB", str(tmp_path / "other.json"))
    ok("import", excel, "--stake", "0.01")
    after = ok("log", "--json").json()
    assert after["hands"] == before["hands"]
    assert ok("status", "--json").json()["settlement"] == [{"from": "Ann", "to": "José", "amount": "1.23"}]


# --- refusals: exit 2, one line, nothing written ------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--finals", "--format", "json"], "not --format json: the JSON export carries the finals already"),
        (["--finals", "--format", "html"], "--finals is for CSV"),
        (["--finals", "--format", "svg"], "--finals is for CSV"),
        (["--excel", "--format", "json"], "--excel is for CSV, not --format json"),
        (["--excel", "--format", "html"], "--excel is for CSV"),
        (["--excel", "--format", "svg"], "leave out --excel or --format svg"),
        (["--excel", "--finals", "--format", "json"], "--finals is for CSV"),
    ],
)
def test_finals_and_excel_with_another_format_are_refused_and_nothing_is_written(ok, refused, tmp_path,
                                                                                   options, says):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    out = tmp_path / "sub" / "out.txt"
    out.parent.mkdir()
    refused("export", *options, "--output", out, says=says)
    refused("export", *options, says=says)
    assert list(out.parent.iterdir()) == []


def test_finals_output_is_refused_onto_the_database(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    refused("export", "--finals", "--excel", "--output", db_path, says="is the database")


def test_docs_name_the_finals_columns_export_writes(ok):
    """docs/commands.md "Finals export" shows the header `export --finals` writes."""
    from tests.support import ROOT

    text = (ROOT / "docs" / "commands.md").read_text()
    section = text[text.index("### Finals export"):]
    assert section.split("```\n", 2)[1].splitlines()[0] == ",".join(HEADER)
    for column in HEADER:
        assert f"`{column}`" in section, column


def test_the_example_of_commands_md_is_what_export_writes(ok):
    """docs/commands.md shows the finals of a game Ann won with a game bonus of 100, a box bonus of 20 and a
    stake of 0.01: Ann 75 + 55 = 130 in two hands, Ben 28 in one; 130 + 100 + 2 x 20 = 270, 28 + 20 = 48,
    and (270 - 48) x 0.01 = 2.22 (H3, H7)."""
    doc = (ROOT / "docs" / "commands.md").read_text()
    start = doc.index("```\nsession,game,player,") + 4
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--box-bonus", "20",
       "--stake", "0.01", "--name", "friday")
    ok("hand", "ann", "0", "50")  # gin: 50 + 25 = 75
    ok("hand", "ben", "2", "30")  # knock: 30 - 2 = 28
    ok("hand", "ann", "0", "30")  # gin: 30 + 25 = 55, Ann 130: the game is won
    assert ok("export", "--finals").stdout.replace("\r\n", "\n") == doc[start:doc.index("```", start)]
