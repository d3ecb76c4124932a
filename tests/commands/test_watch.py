"""`ginscore watch`: a live scoreboard that redraws when the database changes."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import time

import pytest

from ginscore.present.scoreboard import big_number
from tests.support import unwrapped

fcntl = pytest.importorskip("fcntl")  # pseudo-terminals: POSIX only


termios = pytest.importorskip("termios")


DEADLINE = 30.0  # seconds to wait for a change to be drawn before the test fails


ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Z0-9]|[=>78])")


def _ginscore(*args: str) -> subprocess.CompletedProcess:
    """Another terminal at the table: a separate process writing the same file."""
    return subprocess.run([sys.executable, "-m", "ginscore", *args], capture_output=True, text=True, check=True)


class Watching:
    """A `ginscore watch` process and everything it has drawn so far."""

    def __init__(self, *args: str, terminal: bool, columns: int = 100, rows: int = 50, term: str | None = None,
                 behind: bool = False):
        """``behind``: a terminal that has not yet shown what was written to it (a slow link), so the board's
        first write waits for it."""
        command = [sys.executable, "-m", "ginscore", "watch", *args]
        if terminal:
            self.fd, child = os.openpty()
            fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            if behind:
                _fill(child)
            env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
            env.update({"TERM": term} if term else {})
            # in a process group of its own, as a shell starts a command: a Ctrl-Z stops it
            self.process = subprocess.Popen(command, stdin=child, stdout=child, stderr=child, env=env,
                                            process_group=0)
            os.close(child)
        else:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.fd = self.process.stdout.fileno()
        self.raw = b""
        self.mark = 0

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def wait_for(self, *wanted: str) -> str:
        """Read until everything ``wanted`` has been drawn since the last call; return what was drawn."""
        deadline = time.monotonic() + DEADLINE
        while True:
            fresh = self.text[self.mark:]
            if all(_flat(w) in _flat(fresh) for w in wanted):  # however the board wrapped the words
                self.mark = len(self.text)
                return fresh
            left = deadline - time.monotonic()
            assert left > 0 and self.process.poll() is None, f"never drew {wanted}; drew:\n{fresh}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    self.raw += os.read(self.fd, 65536)
                except OSError:  # the terminal closed
                    pass

    def stop(self, presses: int = 1, gap: float = 0, signal_number: int = signal.SIGINT) -> int:
        """Ctrl-C, as at the table (``presses`` times, ``gap`` seconds apart), or another signal; the exit status."""
        for press in range(presses):
            time.sleep(gap if press else 0)
            self.process.send_signal(signal_number)
        try:
            status = self.process.wait(timeout=DEADLINE)
        finally:
            self.process.kill()
        self.read_drawn()
        return status

    def read_drawn(self) -> bytes:
        """Read all that has been drawn and not read yet; return it."""
        start = len(self.raw)
        while select.select([self.fd], [], [], 0)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.raw += chunk
        return self.raw[start:]

    @property
    def screen_given_back(self) -> bool:
        """The terminal is as before the board: off the board's full screen, its cursor shown."""
        return (self.raw.rfind(b"\x1b[?1049l") > self.raw.rfind(b"\x1b[?1049h")
                and self.raw.rfind(b"\x1b[?25h") > self.raw.rfind(b"\x1b[?25l"))


def _fill(terminal: int) -> None:
    """Write to ``terminal`` until it holds no more unread."""
    other = os.open(os.ttyname(terminal), os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        while True:
            os.write(other, b"." * 512)
    except BlockingIOError:
        pass
    finally:
        os.close(other)


def _flat(drawn: str) -> str:
    """Drawn text without the board's frame or any whitespace: a long path is broken inside itself."""
    return unwrapped(re.sub("[│╭╮╰╯─]", " ", drawn))


@pytest.fixture
def watching():
    started = []

    def start(*args: str, terminal: bool = False, columns: int = 100, rows: int = 50, term: str | None = None,
              behind: bool = False):
        started.append(Watching(*args, terminal=terminal, columns=columns, rows=rows, term=term, behind=behind))
        return started[-1]

    yield start
    for w in started:
        if w.process.poll() is None:
            w.process.send_signal(signal.SIGCONT)  # (one left stopped by a Ctrl-Z)
            w.process.kill()
            w.process.wait()


def test_watch_in_a_terminal_redraws_a_hand_from_another_process_and_stops_on_ctrl_c(ok, watching, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True)
    first = board.wait_for("Ben deals next", "No hands yet")
    assert "█" in first  # the big digits of a terminal
    _ginscore("hand", "ann", "0", "47")  # gin: 47 + 25 = 72
    drawn = board.wait_for("Last hand (1): Ann went gin", "72")
    assert re.search(r"Ann\s+72\s+1", drawn), drawn  # the standings row: points, hands won
    assert all(row in drawn for row in big_number(72).splitlines())  # and 72 in digits five lines tall
    assert board.stop() == 0
    assert board.raw.rstrip().endswith(b"\x1b[?1049l")  # back from the full screen
    assert b"\x1b[?25h" in board.raw  # cursor shown again
    assert "Error" not in board.text and "Traceback" not in board.text


def test_a_screen_said_to_be_enormous_is_drawn_at_the_largest_and_ctrl_c_still_stops_it(ok, watching):
    """A terminal (or $COLUMNS and $LINES) claiming 65535 by 65535 had watch draw a blank full screen for
    minutes, deaf to Ctrl-C and SIGTERM, and a kill -9 left the terminal on that screen, its cursor hidden:
    no screen is taken as larger than 1,000 columns and lines."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True, columns=65535, rows=65535)
    board.wait_for("Ben deals next", "No hands yet")
    board.process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + DEADLINE
    while board.process.poll() is None and time.monotonic() < deadline:  # read as a terminal shows it
        if select.select([board.fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):
                board.raw += os.read(board.fd, 1 << 20)
    assert board.process.poll() == 0
    board.read_drawn()
    assert board.screen_given_back


@pytest.mark.parametrize("gap", [0, 0.001, 0.01])
def test_ctrl_c_pressed_twice_in_a_hurry_still_gives_the_terminal_back(ok, watching, gap):
    """The second press landed while the board gave the screen back: the terminal stayed on the board's
    full screen with its cursor hidden, or watch ended as if killed (130), not as a Ctrl-C ends it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True)
    board.wait_for("No hands yet")
    assert board.stop(presses=2, gap=gap) == 0
    assert board.screen_given_back, board.raw[-200:]
    assert "Error" not in board.text and "Traceback" not in board.text


def _waiting_on_the_terminal(process: subprocess.Popen) -> bool:
    """Whether ``process`` waits for the terminal to take what it writes (Linux: what it sleeps in)."""
    try:
        return open(f"/proc/{process.pid}/wchan").read() == "wait_woken"
    except OSError:
        pytest.skip("needs Linux's /proc/PID/wchan to see that the board waits for the terminal")


def test_ctrl_c_while_a_slow_terminal_takes_the_first_board_gives_the_screen_back(ok, watching):
    """Over a slow link the board's first write waits for the terminal; a Ctrl-C then came out of the middle of it
    and watch ended (exit 0) with the terminal left on the board's full screen."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True, behind=True)
    deadline = time.monotonic() + DEADLINE
    while not _waiting_on_the_terminal(board.process):
        assert time.monotonic() < deadline and board.process.poll() is None, "the board never waited"
        time.sleep(0.05)
    board.process.send_signal(signal.SIGINT)
    while board.process.poll() is None:  # the terminal catches up
        board.read_drawn()
        time.sleep(0.05)
    assert board.stop() == 0
    assert board.screen_given_back, board.raw[-200:]
    assert "Error" not in board.text and "Traceback" not in board.text


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_watch_ended_by_kill_or_timeout_gives_the_terminal_back_and_ends_by_the_signal(ok, watching, stop):
    """`kill`, `timeout` or a hang-up ended watch at once, leaving the terminal on the board's full screen with
    no cursor; it gives them back, and still ends by the signal (143, 129), as every command does."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True)
    board.wait_for("No hands yet")
    assert board.stop(signal_number=stop) == -stop
    assert board.screen_given_back, board.raw[-200:]
    assert "Error" not in board.text and "Traceback" not in board.text


def test_ctrl_z_gives_the_terminal_back_until_fg_draws_the_board_again(ok, watching):
    """Ctrl-Z left the shell on the board's full screen with no cursor, and `fg` came back to whatever the shell
    had written over the board, until a hand was recorded."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True)
    board.wait_for("Ben deals next", "No hands yet")
    board.process.send_signal(signal.SIGTSTP)
    os.waitid(os.P_PID, board.process.pid, os.WSTOPPED | os.WNOWAIT)  # stopped, as the shell sees it
    board.read_drawn()
    assert board.screen_given_back, board.raw[-200:]
    board.process.send_signal(signal.SIGCONT)  # `fg`
    drawn = board.wait_for("Ben deals next", "No hands yet")  # nothing recorded meanwhile: drawn again all the same
    assert "█" in drawn and not board.screen_given_back
    assert board.stop() == 0
    assert board.screen_given_back and "Traceback" not in board.text


def test_ctrl_z_where_a_shell_without_job_control_ignores_it_leaves_the_board_up(ok, watching):
    """Started with Ctrl-Z ignored (a shell without job control), watch keeps it ignored: it is not stopped
    and the board stays up until Ctrl-C gives the terminal back."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    before = signal.signal(signal.SIGTSTP, signal.SIG_IGN)
    try:
        board = watching(terminal=True)  # (a child keeps an ignored signal ignored)
    finally:
        signal.signal(signal.SIGTSTP, before)
    board.wait_for("Ben deals next", "No hands yet")
    board.process.send_signal(signal.SIGTSTP)
    time.sleep(0.5)
    assert os.waitid(os.P_PID, board.process.pid, os.WSTOPPED | os.WNOHANG | os.WNOWAIT) is None  # not stopped
    board.read_drawn()
    assert not board.screen_given_back
    assert board.stop() == 0
    assert board.screen_given_back and "Traceback" not in board.text


# Python pressing Ctrl-C every millisecond from the moment ginscore starts to read its app in, then ginscore run.
CTRL_C_HELD_DOWN = """
import os, signal, sys, threading, time
from importlib.abc import MetaPathFinder
def press():
    while True:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.001)
class Pressing(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "ginscore.cli.app":
            sys.meta_path.remove(self)
            threading.Thread(target=press, daemon=True).start()
        return None
sys.meta_path.insert(0, Pressing())
sys.argv[0] = "ginscore"
from ginscore.cli import main
main()
"""


def test_ctrl_c_pressed_again_and_again_as_watch_starts_says_one_line(ok):
    """A hand still on Ctrl-C as watch starts: a second press while the first was answered printed a
    KeyboardInterrupt traceback, or killed watch before it said why."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    for _ in range(3):  # (where the second press lands varies)
        terminal, child = os.openpty()
        process = subprocess.Popen([sys.executable, "-c", CTRL_C_HELD_DOWN, "watch"], stdin=child, stdout=child,
                                   stderr=child)
        os.close(child)
        said = b""
        try:
            status = process.wait(timeout=DEADLINE)
            while select.select([terminal], [], [], 0.2)[0]:
                said += os.read(terminal, 65536)
        except OSError:  # all it wrote is read: the terminal is closed
            pass
        finally:
            process.kill()
            os.close(terminal)
        assert (status, said) == (130, b"Error: stopped; nothing was changed\r\n")


def test_watch_on_a_dumb_terminal_prints_each_board_in_turn(ok, watching):
    """TERM=dumb (an editor's shell, a serial console): the full-screen board drew nothing at all, not the
    first frame, not a hand recorded. It prints each frame in turn, as into a file."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching(terminal=True, term="dumb")
    board.wait_for("Ben deals next", "No hands yet")
    _ginscore("hand", "ann", "0", "47")
    assert re.search(r"Ann\s+72\s+1", board.wait_for("Last hand (1): Ann went gin"))
    assert board.stop() == 0
    assert b"\x1b[?1049h" not in board.raw and "Traceback" not in board.text


def test_watch_follows_an_edit_an_undo_a_rematch_and_use(ok, watching):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben", "--target", "50")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "other")
    ok("use", "standard-1")
    board = watching()  # piped: a frame per change
    board.wait_for("standard-1", "No hands yet")
    _ginscore("hand", "ann", "3", "20")
    board.wait_for("Last hand (1): Ann knocked with 3", "17")
    _ginscore("edit", "1", "ann", "3", "30")
    board.wait_for("Ben had 30", "27")
    _ginscore("undo", "--yes")
    board.wait_for("No hands yet")
    _ginscore("hand", "ben", "0", "40")  # 65: over 50
    board.wait_for("Ben wins the game")
    _ginscore("rematch")
    board.wait_for("standard-2", "No hands yet")
    _ginscore("use", "other")
    board.wait_for("other", "Cy deals next")
    assert board.stop() == 0


def _a_game_and_its_rematch(ok) -> None:
    """'fri', won by Ann's gin (35), and its rematch 'sat', one hand in (Ben 10): a match of two games."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--name", "fri")
    ok("hand", "ann", "0", "10")
    ok("rematch", "--name", "sat")
    ok("hand", "ben", "2", "12")


def test_watch_shows_the_match_so_far_and_a_correction_of_an_earlier_game(ok, watching):
    """As `status` does: the games won and points of the match under the standings, redrawn when an
    earlier game of the match is corrected elsewhere, though the session on the board did not change."""
    _a_game_and_its_rematch(ok)
    board = watching(terminal=True)
    board.wait_for("Match so far (2 sessions: fri, sat):", "Ann: 1 game won, 35 points in finished games")
    _ginscore("edit", "1", "ann", "0", "20", "--session", "fri")  # 20 + 25
    board.wait_for("Ann: 1 game won, 45 points in finished games")
    assert board.stop() == 0


def test_on_a_short_screen_the_match_gives_way_before_the_last_hand(ok, watching):
    _a_game_and_its_rematch(ok)
    board = watching(terminal=True, columns=80, rows=11)  # the standings and the last hand: 9 lines
    drawn = board.wait_for("Ben leads Ann by 10", "Last hand (1): Ben knocked with 2")
    assert "Match so far" not in drawn
    assert board.stop() == 0


def test_watch_with_session_stays_on_it(ok, watching):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben", "--name", "pinned")
    board = watching("--session", "pin")
    board.wait_for("pinned", "No hands yet")
    _ginscore("new", "standard", "Cy", "Dee", "--dealer", "Cy")  # becomes current; the board stays
    _ginscore("hand", "--session", "pinned", "ann", "2", "9")
    drawn = board.wait_for("Last hand (1): Ann knocked with 2")
    assert "Cy" not in drawn
    assert board.stop() == 0
    assert board.text.count("pinned · Standard") == 2  # another session's change drew no frame


def test_watch_shows_a_missing_or_damaged_file_and_keeps_watching(ok, watching, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching()
    board.wait_for("No hands yet")
    good = db_path.read_bytes()
    db_path.unlink()
    board.wait_for("is not there", "Still watching")
    db_path.write_text("{not json")
    board.wait_for("is not JSON", "Still watching")
    db_path.write_bytes(good)  # a sync client puts it back
    board.wait_for("Ben deals next", "No hands yet")
    assert board.stop() == 0


def test_a_session_damaged_while_watched_is_advised_with_the_db_watch_was_given(ok, watching, db_path):
    """A hand edited past the knock limit (R7) while watched: the board's advice keeps the --db it was
    given, as at start; without it, `ginscore delete friday` would act on another database."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben", "--name", "friday")
    ok("hand", "ann", "4", "22")
    board = watching("--db", str(db_path))
    board.wait_for("Ann deals next")
    data = json.loads(db_path.read_text())
    data["sessions"]["1"]["hands"] = data["sessions"]["1"]["hands"].replace("|Ann|4|", "|Ann|11|")
    db_path.write_text(json.dumps(data))
    board.wait_for("does not add up", f"`ginscore --db {db_path} delete friday` sets it aside")
    assert board.stop() == 0


def test_watch_once_prints_one_frame_and_never_writes(ok, db_path):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "40")
    before = db_path.read_bytes()
    lock = db_path.with_name(db_path.name + ".lock")
    lock.unlink(missing_ok=True)
    out = ok("watch", "--once").stdout
    assert "Last hand (1): Ann went gin" in out and "65" in out and "Ann deals next" in out
    assert "Ctrl-C" not in out
    assert db_path.read_bytes() == before and not lock.exists()  # no lock taken, nothing written


def test_watch_refuses_at_start_what_it_cannot_show(cli, refused, db_path):
    refused("watch", "--once", says="no session yet")
    db_path.write_text("[1, 2]")
    result = cli("watch", "--once")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and str(db_path) in result.stderr
    assert db_path.read_text() == "[1, 2]"


def test_watch_of_an_unknown_session_is_refused(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    refused("watch", "--once", "--session", "nope", says="no session 'nope'")


def test_watch_on_a_narrow_terminal_leaves_out_the_big_digits_not_the_totals(ok, watching):
    ok("new", "hollywood", "Al", "Bo", "--dealer", "Bo")
    ok("hand", "al", "0", "75")  # 100, in game 1 (R17)
    ok("hand", "bo", "0", "98")  # 123, in game 2 (game 1 is over)
    board = watching("--once", terminal=True, columns=40)
    drawn = board.wait_for("Last hand (2)")
    assert board.process.wait(timeout=DEADLINE) == 0
    assert "█" not in drawn, drawn  # the digits would not fit whole
    assert "100" in drawn and "123" in drawn, drawn  # every total, in whatever layout fits 40 columns


SHORT_SCREEN_EVENINGS = {
    "hollywood": (["new", "hollywood", "Jean-Édouard", "Mary Jane Lo", "--dealer", "mary"],
                  [["jean", "0", "75"], ["jean", "0", "75"], ["mary", "2", "60"]],
                  "Jean-Édouard has won the series (2 games); game 3 is still being played out."),
    "standard": (["new", "standard", "Ann", "Ben", "--dealer", "ann"],
                 [["ann", "5", "30"], ["ben", "0", "22"], ["ann", "3", "9"]], "deals next"),
}


@pytest.mark.parametrize("variant, rows, digits, footer", [
    ("hollywood", 24, False, True), ("hollywood", 50, True, True),
    ("standard", 24, True, False), ("standard", 50, True, True),
])
def test_watch_on_a_short_screen_keeps_the_standings_then_the_digits_then_the_footer(
        ok, watching, db_path, variant, rows, digits, footer):
    """A second screen of 80x24: the big digits above Hollywood's standings pushed the series, who deals,
    the last hand and the footer off the bottom. The standings and the last hand always show; the
    digits only where they fit below them too; the footer (file, time, Ctrl-C) gives way to the digits."""
    new, hands, said = SHORT_SCREEN_EVENINGS[variant]
    ok(*new)
    for hand in hands:
        ok("hand", *hand)
    board = watching("--once", terminal=True, columns=80, rows=rows)
    board.wait_for("Last hand (3)")
    assert board.process.wait(timeout=DEADLINE) == 0 and board.stop() == 0  # (stop reads what is left)
    drawn = board.text
    assert len(drawn.strip("\r\n").splitlines()) <= rows, drawn
    assert _flat(said) in _flat(drawn)
    assert ("█" in drawn) == digits, drawn
    assert ("·updated" in "".join(drawn.split())) == footer, drawn  # (a long path wraps the footer anywhere)


@pytest.mark.parametrize("rows, cut", [(24, True), (40, False)])
def test_a_board_taller_than_the_screen_says_so_on_its_last_line(ok, watching, rows, cut):
    """A Hollywood series over, with every bonus and a stake (H3, H7), on a second screen 40 columns wide:
    at 24 rows its standings alone are taller than the screen. The screen's last line says the rest is
    below, rather than the board ending mid-sentence; a screen tall enough shows it all, the last hand too."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--box-bonus", "20", "--shutout",
       "--stake", "0.05")
    for hand in (("ann", "4", "22"), ("ann", "0", "50"), ("ben", "2", "30"), ("ann", "0", "60"), ("ann", "0", "40")):
        ok("hand", *hand)
    board = watching(terminal=True, columns=40, rows=rows)
    drawn = board.wait_for("Ann wins the series", "Ben pays Ann 73.50",
                           "a taller window shows more" if cut else "Last hand (5): Ann went gin")
    assert board.stop() == 0
    assert ("a taller window shows more" in drawn) == cut, drawn
    assert ("Last hand" in drawn) != cut, drawn


def test_every_digit_has_its_own_block_glyph_five_lines_tall():
    """A score with any digit in it can be drawn big (a 6 was never drawn in these tests before)."""
    glyphs = {}
    for digit in range(10):
        rows = big_number(digit).splitlines()
        assert len(rows) == 5 and all(len(row) == 3 for row in rows), (digit, rows)
        glyphs[digit] = tuple(rows)
    assert len(set(glyphs.values())) == 10  # no two digits alike
    assert [len(row) for row in big_number(1234567890).splitlines()] == [10 * 3 + 9] * 5


def test_watch_shows_the_big_digits_on_a_screen_exactly_as_wide_as_their_board(ok, watching):
    """The board is measured where it is drawn (100 columns), then shown on a screen of just that width."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "30")  # 28: two digits
    wide = watching("--once", terminal=True, columns=100)
    wide.wait_for("Last hand (1)")
    assert wide.process.wait(timeout=DEADLINE) == 0 and wide.stop() == 0
    board = [line.rstrip() for line in wide.text.splitlines() if any(c in line for c in "┏┃┡│└█")]
    exact = watching("--once", terminal=True, columns=max(len(line) for line in board))
    drawn = exact.wait_for("Last hand (1)")
    assert exact.process.wait(timeout=DEADLINE) == 0 and exact.stop() == 0
    assert "█" in exact.text, drawn


def test_watch_lays_the_board_out_again_when_its_window_is_resized(ok, watching):
    """The console was made at the window's first size, so a window narrowed from 100 columns to 40 kept
    frames 100 wide, which the terminal wrapped into a garbled screen; the board is laid out again."""
    ok("new", "hollywood", "Al", "Bo", "--dealer", "Bo")
    ok("hand", "al", "0", "75")
    ok("hand", "bo", "0", "98")
    board = watching(terminal=True, columns=100)
    assert "█" in board.wait_for("Last hand (2)")  # the big digits fit 100 columns
    fcntl.ioctl(board.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 40, 0, 0))
    board.process.send_signal(signal.SIGWINCH)
    drawn = board.wait_for("Last hand (2)")  # drawn again, with nothing recorded meanwhile
    assert "█" not in drawn and "100" in drawn and "123" in drawn, drawn
    assert board.stop() == 0


def _under_the_names(text: str) -> list[str]:
    """The first column of the big-digit board: each name and the word under it, in order."""
    cells = [line.split("│")[1].strip() for line in text.splitlines() if line.count("│") >= 2]
    return [c for c in cells if c]


@pytest.mark.parametrize("new, hands, under", [
    (["standard", "Ann", "Ben", "--dealer", "ann"], [["ann", "2", "30"]], ["Ann", "deals next", "Ben"]),
    (["three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben"], [["ann", "3", "30"]],
     ["Ann", "in the box, deals", "Ben", "sits out", "Cy", "captain"]),
    (["standard", "Ann", "Ben", "--dealer", "ann", "--target", "20"], [["ben", "0", "30"]],
     ["Ann", "Ben", "wins"]),
])
def test_the_big_board_says_under_each_name_who_deals_or_won(ok, watching, new, hands, under):
    """Across the table the word under a name is what says who shuffles next (R22: the box deals), or who
    won once the game is over; the names alone leave the table asking."""
    ok("new", *new)
    for hand in hands:
        ok("hand", *hand)
    board = watching("--once", terminal=True, columns=100)
    board.wait_for("Last hand (1)")
    assert board.process.wait(timeout=DEADLINE) == 0 and board.stop() == 0
    assert _under_the_names(board.text) == under, board.text


@pytest.mark.parametrize("new, heads", [
    (["standard", "Ann", "Ben", "--dealer", "ann"], ["Points"]),
    (["hollywood", "Ann", "Ben", "--dealer", "ann"], ["Game 1", "Game 2", "Game 3"]),
])
def test_the_big_digits_stand_under_what_they_count(ok, watching, new, heads):
    """Hollywood's three columns of digits are its three games (R17): without their headings a game's
    score reads as a total."""
    ok("new", *new)
    ok("hand", "ann", "2", "30")
    board = watching("--once", terminal=True, columns=100)
    board.wait_for("Last hand (1)")
    assert board.process.wait(timeout=DEADLINE) == 0 and board.stop() == 0
    heading = next(line for line in board.text.splitlines() if "┃" in line)
    assert [cell.strip() for cell in heading.split("┃")[1:-1]] == ["", *heads], board.text


def _digits_beside(raw: bytes, name: str) -> str:
    """The top line of a player's big digits, as drawn (colours and all), on the row that names them."""
    line = next(line for line in raw.decode().splitlines() if "█" in line and f"{name} " in ANSI.sub("", line))
    return line.split("│")[2].strip(" ")


@pytest.mark.parametrize("hands, ann, ben", [
    ([], "", ""),  # level: nobody stands out
    ([["ann", "2", "10"]], "\x1b[1m", ""),  # Ann leads: her total in bold
    ([["ann", "2", "30"]], "\x1b[1;32m", ""),  # Ann has won: her total in bold green
])
def test_the_big_digits_of_the_leader_are_bold_and_of_the_winner_green(ok, watching, hands, ann, ben):
    """Across the table the colour of the digits is what tells who is ahead, or who has won, before any
    name is read; a level game singles nobody out."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    for hand in hands:
        ok("hand", *hand)
    board = watching("--once", terminal=True, columns=100, term="xterm-256color")
    board.wait_for("Last hand" if hands else "No hands yet")
    assert board.process.wait(timeout=DEADLINE) == 0 and board.stop() == 0
    for name, style in (("Ann", ann), ("Ben", ben)):
        digits = _digits_beside(board.raw, name)
        assert digits.startswith(style + "█") if style else digits.startswith(("█", " ")), (name, digits)


def test_watch_piped_prints_the_totals_as_numbers_never_in_block_digits(ok):
    """Into a file or another program the block digits are only noise: the totals stand as numbers in
    the standings."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "30")
    out = ok("watch", "--once").stdout
    assert "█" not in out and re.search(r"Ann\s+28\s+1", out), out


def test_the_board_of_a_file_it_cannot_read_is_titled_as_the_watch(ok, watching, db_path):
    """The problem is drawn in a panel titled as the command, so it reads as the board's, not a crash."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben")
    board = watching()
    board.wait_for("No hands yet")
    db_path.unlink()
    drawn = board.wait_for("is not there", "Still watching")
    assert board.stop() == 0
    assert re.search(r"╭─+ ginscore watch ─+╮", drawn), drawn


def test_the_footer_breaks_between_its_parts_never_inside_one(ok, monkeypatch, tmp_path):
    """At 40 columns the footer ended a line with "updated" and put its time alone on the next."""
    monkeypatch.chdir(tmp_path)
    kept = ("--db", "a-database-file-here.json")  # as given, the footer's first part: 25 columns
    ok(*kept, "new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.setenv("COLUMNS", "40")
    footer = ok(*kept, "watch", "--once").stdout.splitlines()[-2:]
    assert footer[0] == "a-database-file-here.json ·", footer
    assert re.fullmatch(r"updated [0-9]{2}:[0-9]{2}:[0-9]{2}", footer[1]), footer


def test_a_problem_taller_than_the_screen_says_so_on_its_last_line(ok, watching, db_path):
    """On a screen of 4 rows, the file taken away while watched: the problem's panel ran off the bottom with
    no border and no word of more below it, as the board itself once did."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    board = watching(terminal=True, columns=40, rows=4)
    board.wait_for("a taller window shows more")
    db_path.rename(db_path.with_name("away.json"))
    drawn = board.wait_for("ginscore watch", "a taller window shows more")
    assert "Still watching" not in drawn  # (below the cut)
    assert board.stop() == 0
