"""`ginscore serve` as a command: what it prints, what it refuses, how it stops."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess

import pytest

from tests.web.browsing import get, iter_ready, SCRIPT, sha256


def test_it_says_the_file_and_the_addresses_and_stops_cleanly_at_ctrl_c(ok, db_path, serving):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    before, beside = sha256(db_path), sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache")
    served = serving()
    assert served.printed.splitlines()[0] == f"Serving {db_path}"
    assert f"Club board: http://127.0.0.1:{served.port}/club" in served.printed
    assert "token" not in served.printed  # on the loopback there is none
    assert get(served.base + "/data/session")[0] == 200
    assert served.stop() == 0
    assert served.process.stderr.read() == ""  # nothing of the web server's own (its log) on the terminal
    assert sha256(db_path) == before
    assert sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache") == beside  # no lock, no temp file


def run(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), "serve", *args], capture_output=True, text=True, timeout=timeout)


def test_a_port_that_is_taken_is_refused_in_one_line(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        done = run("--port", str(taken.getsockname()[1]))
    assert done.returncode == 2
    assert done.stderr.startswith("Error: cannot listen on port ") and done.stderr.count("\n") == 1
    assert "another program listens on it" in done.stderr and "attempting" not in done.stderr
    assert "--port" in done.stderr


@pytest.mark.parametrize("columns", [40, 80])
def test_the_qr_code_fits_the_screen_it_is_printed_on(ok, serving, monkeypatch, columns):
    """A phone's 40 columns: the code keeps a narrower margin rather than wrap (and be unreadable)."""
    from rich.cells import cell_len

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.setenv("COLUMNS", str(columns))
    served = serving("--lan")
    code = [line for line in served.printed.splitlines() if line.strip() and set(line) <= set(" █▀▄")]
    assert len(code) > 10 and len({cell_len(line) for line in code}) == 1
    assert cell_len(code[0]) <= columns
    assert (cell_len(code[0]) > 40) == (columns == 80)  # the usual margin where it fits
    assert code in qr_of(served.address)  # what a phone reads: the address, token and all
    # every line but the path and the addresses (which no break may part) fits: the warning was one of 107
    words = [line for line in served.printed.splitlines()
             if line not in code and "http://" not in line and not line.startswith("Serving ")]
    assert "Anyone on this network" in words[0] and all(cell_len(line) <= columns for line in words), words


def qr_of(address: str) -> list[list[str]]:
    """The ways ``address`` is drawn as a QR code in block characters: any error level, any margin."""
    import io

    import segno

    drawn = []
    for error in "lmqh":
        for margin in (4, 3, 2):
            out = io.StringIO()
            segno.make(address, error=error).terminal(out=out, compact=True, border=margin)
            drawn.append([line for line in out.getvalue().splitlines() if line.strip()])
    return drawn


def test_a_session_that_is_not_there_is_refused_before_serving(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    done = run("--session", "nothing-like-it", "--port", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_file_that_cannot_be_read_is_refused_before_serving(db_path):
    db_path.write_text("{ this is not a database")
    done = run("--port", "0")
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr


def test_a_port_out_of_range_is_refused(ok):
    done = run("--port", "70000")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_the_qr_code_is_drawn_in_blocks_or_else_in_plain_ascii():
    """A terminal that cannot show block characters gets the code in reversed colours, never '?'s."""
    import io

    from ginscore.web.server import print_qr

    for encoding in ("utf-8", "ascii"):
        out = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
        print_qr("http://192.0.2.1:8000/?token=abc", out, 80)
        out.flush()
        drawn = out.buffer.getvalue()
        assert drawn.count(b"\n") > 10
        assert (b"\xe2\x96\x88" in drawn) if encoding == "utf-8" else (b"\x1b[7m" in drawn and drawn.isascii())
    # an address as --lan prints it fits 80 columns both ways (in reversed colours a module is two spaces
    # wide, and the margin was chosen as if it were one: 82 columns, which a terminal wraps, and no camera reads)
    for encoding, width in (("utf-8", 40), ("utf-8", 80), ("ascii", 80)):
        out = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
        print_qr("http://192.168.178.20:8000/?token=" + "x" * 22, out, width)
        out.flush()
        lines = re.sub(r"\x1b\[[0-9;]*m", "", out.buffer.getvalue().decode(encoding)).splitlines()
        assert max(len(line) for line in lines) <= width, (encoding, width)


def test_the_page_shows_a_hostile_path_made_visible_and_advice_with_its_db(ok, tmp_path, serving):
    """A path is hostile input: its bidi marks and escapes never reach the page raw, and the advice in a
    damaged file's message carries the --db it was served with, as the terminal's does."""
    import json
    import time

    hostile = tmp_path / "club\u202etxt\x1b[31m.json"
    ok("--db", hostile, "new", "standard", "Ann", "Ben", "--dealer", "ann")
    served = serving("--db", str(hostile))
    assert served.printed.splitlines()[0].endswith("club\\u202etxt\\x1b[31m.json")  # the terminal too: no escape runs
    doc = json.loads(get(served.base + "/data/session")[2])
    assert doc["file"].endswith("club\\u202etxt\\x1b[31m.json") and doc["problem"] is None
    data = json.loads(hostile.read_text())
    data["sessions"]["1"]["rules"]["target"] = 1.5  # edited by hand while the page is open
    hostile.write_text(json.dumps(data))
    deadline = time.monotonic() + 10
    while doc["problem"] is None and time.monotonic() < deadline:
        time.sleep(0.2)
        doc = json.loads(get(served.base + "/data/session")[2])
    problem = doc["problem"]
    assert "damaged session 'standard-1'" in problem and "\u202e" not in problem and "\x1b" not in problem
    assert "`ginscore --db " in problem and "delete standard-1` sets it aside." in problem
    assert problem.startswith("The database ")  # a sentence of its own before the page's "Still watching"


def test_the_page_shows_the_rules_a_game_ended_under_not_a_change_it_never_reached_h8(ok, serving):
    """As `status` does: a change from hand 3 of a game an edit ended at hand 2 never came into force."""
    import json

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "50")
    ok("hand", "ann", "2", "12")
    ok("house", "--game-bonus", "100", "--from-next")
    ok("edit", "2", "ann", "0", "20")
    served = serving()
    shown = json.loads(get(served.base + "/data/session")[2])
    assert served.stop() == 0
    assert shown["house_rules"] and not any("game bonus" in words for words in shown["house_rules"])
    assert shown["status"]["rules"]["game_bonus"] == 100  # status --json: the last period, as documented


def no_network_can_be_had() -> bool:
    """Whether a command can be run with the network taken away (unshare, as root or where allowed)."""
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not no_network_can_be_had(), reason="needs `unshare --net` (root) to take the network away")
def test_lan_on_a_computer_on_no_network_says_no_phone_can_reach_it(ok):
    """With no network, --lan printed 127.0.0.1 (which a phone reads as itself), a QR code of it, and
    "Anyone on this network ... can read the scores"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    process = subprocess.Popen(["unshare", "--net", str(SCRIPT), "serve", "--port", "0", "--lan"],  # (unshare execs it)
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    printed = "".join(iter_ready(process))  # up to "Ctrl-C stops"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0 and stderr == "", stderr
    said = " ".join(printed.split())
    assert "This computer is on no network now, so no phone can reach it: the address works here only." in said
    assert "Anyone on this network" not in said and "█" not in said and "▀" not in said


def test_the_club_board_takes_today_by_the_moment_played_not_the_date_written(ok, db_path, serving, monkeypatch):
    """A time is written with the offset of the machine that recorded it: minutes ago in another zone can
    bear another date. The board took "today" from the date written, so a table playing now was left off
    (and one of yesterday could show); it takes the moment, on this computer's clock."""
    import json
    from datetime import datetime, timedelta, timezone

    now = datetime.now(timezone.utc).replace(microsecond=0)
    elsewhere = timezone(timedelta(hours=14 if now.hour >= 10 else -12))  # a zone whose date is not today's
    assert now.astimezone(elsewhere).date() != now.date()
    played = {"now, written elsewhere": now.astimezone(elsewhere), "yesterday": now - timedelta(hours=30)}
    for name in played:
        ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", name)
        ok("hand", "ann", "3", "20")
    data = json.loads(db_path.read_text())
    for doc in data["sessions"].values():
        when = played[doc["name"]].isoformat()
        doc["created_at"], doc["hands"] = when, re.sub(r"\|20[0-9T:+-]+\|", f"|{when}|", doc["hands"])
    db_path.write_text(json.dumps(data))
    assert [h["recorded_at"] for h in ok("log", "--json").json()["hands"]] == [played["yesterday"].isoformat()]
    monkeypatch.setenv("TZ", "UTC")  # the server's clock
    served = serving()
    tables = json.loads(get(served.base + "/data/club")[2])["tables"]
    assert [table["status"]["session"] for table in tables] == ["now, written elsewhere"]


# Run ginscore with one function (MODULE:NAME, or MODULE:CLASS.NAME) sending this process a Ctrl-C as it returns.
CTRL_C_AFTER = """
import importlib, os, signal, sys
where, name = sys.argv.pop(1).split(":")
*path, last = name.split(".")
owner = importlib.import_module(where)
for part in path:
    owner = getattr(owner, part)
real = getattr(owner, last)
def pressed(*args, **kwargs):
    out = real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGINT)
    return out
setattr(owner, last, pressed)
from ginscore.cli import main
sys.argv[0] = "ginscore"
main()
"""


@pytest.mark.parametrize("moment", ["uvicorn.server:Server.serve", "asyncio.runners:Runner._lazy_init",
                                    "uvicorn.server:Server.startup"])
def test_ctrl_c_while_the_server_starts_stops_it_as_quietly_as_later(ok, moment):
    """Once "Ctrl-C stops" is printed, a Ctrl-C as the server was starting gave exit 130 with "stopped;
    nothing was changed", or Python's warning of a coroutine never run, or a traceback from an event loop
    made halfway: each moment is one a hurried person can hit."""
    import sys

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    done = subprocess.run([sys.executable, "-c", CTRL_C_AFTER, moment, "serve", "--port", "0"],
                          capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.endswith("Ctrl-C stops\n")


def test_ctrl_c_pressed_over_and_over_stops_serving_with_exit_0(ok):
    """A hand that keeps pressing Ctrl-C until the server goes: a press as it ended killed it, which a shell
    reads as 130, where Ctrl-C ends serving with 0."""
    import os
    import select
    import sys
    import time

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    for _ in range(3):  # (a press must land as Python ends)
        terminal, child = os.openpty()
        process = subprocess.Popen([sys.executable, "-m", "ginscore", "serve", "--port", "0"], stdin=child,
                                   stdout=child, stderr=child)  # (`-m`: this checkout's ginscore)
        os.close(child)
        printed, deadline = b"", time.monotonic() + 30
        while b"Ctrl-C stops" not in printed:
            assert time.monotonic() < deadline and process.poll() is None, printed
            if select.select([terminal], [], [], 0.5)[0]:
                printed += os.read(terminal, 4096)
        while process.poll() is None and time.monotonic() < deadline:
            process.send_signal(signal.SIGINT)
            time.sleep(0.002)
        try:
            assert process.wait(timeout=30) == 0
        finally:
            process.kill()
            os.close(terminal)


def test_a_cache_forged_by_hand_never_breaks_the_club_board(ok, db_path, serving):
    """The club board keeps when each session was played in the cache; an entry of another shape
    written there by hand (re-sealed: its seal catches damage, not a forger) is set aside and made again,
    and the board is the one a clean cache makes, with nothing on the terminal."""
    import os

    from ginscore.cache.files import Cache

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    served = serving()
    expected = get(served.base + "/data/club")[2]
    assert served.stop() == 0
    kept = Cache(os.path.realpath(db_path))
    forged = {"key": "by-digest", "value": dict.fromkeys(kept.section("played_between")["value"], 7)}
    kept.put("played_between", forged)
    kept.save(kept.made_from, kept.names())
    assert Cache(os.path.realpath(db_path)).section("played_between") == forged
    served = serving()
    assert get(served.base + "/data/club")[2] == expected
    assert served.stop() == 0
    assert served.process.stderr.read() == ""
    assert Cache(os.path.realpath(db_path)).section("played_between") not in (None, forged)  # made again
