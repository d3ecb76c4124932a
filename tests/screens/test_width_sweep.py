"""Every human screen at every width from 40 to 160 columns: nothing wider than the screen, who
dealt and who won each hand readable in every log (R5, H6, R13, R22), a wider screen never showing
less of a log than a narrower one, no player's name broken over two lines, and no number parted
from the word it belongs to."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from ginscore.cli.commands import table as table_command
from ginscore.present import screens as present_screens
from ginscore.present.letters import markers
from tests.support import run_cli

WIDTHS = range(40, 161)

# Names with a space, an accent, and up to 12 characters.
JOSE, MARY, CHRIS, BART, ALEX = "José", "Mary Jane", "Christabelle", "Bartholomew", "Alexandrina"

EVENINGS = {
    "loser deals": (  # H6 --deal loser: only a column, a mark or a letter tells who dealt; a stake (H7)
        ["new", "standard", JOSE, MARY, "--dealer", "jos", "--deal", "loser", "--stake", "0.05"],
        [["hand", "mary", "5", "20"], ["hand", "jos", "0", "30"], ["hand", "jos", "9", "9"], ["draw"],
         ["hand", "mary", "3", "40"], ["hand", "jos", "2", "90"]],
    ),
    "oklahoma night": (  # upcards (R15), the deal alternating (H6)
        ["new", "oklahoma", BART, CHRIS, "--dealer", "bart", "--deal", "alternate", "--spades-double"],
        [["hand", "bart", "3", "40", "--upcard", "7S"], ["hand", "chris", "0", "20", "--upcard", "KD"],
         ["draw", "--upcard", "AS"], ["hand", "bart", "1", "20", "--upcard", "2H"],
         ["hand", "bart", "5", "5", "--upcard", "10H"]],
    ),
    "hollywood open": (  # the series won, game 3 still played out (R17-R19)
        ["new", "hollywood", MARY, ALEX, "--dealer", "mary"],
        [["hand", "mary", "5", "25"], ["hand", "alex", "0", "18"], ["hand", "mary", "3", "30"],
         ["hand", "alex", "2", "25"], ["hand", "mary", "0", "20"], ["hand", "alex", "1", "30"],
         ["hand", "mary", "4", "20"], ["hand", "mary", "5", "20"]],
    ),
    "hollywood over": (  # ten hands, every game past 100 and won, bonuses (R17-R19, H3)
        ["new", "hollywood", MARY, ALEX, "--dealer", "alex", "--game-bonus", "100", "--box-bonus", "25"],
        [["hand", "alex", "5", "25"], ["hand", "mary", "3", "30"], ["hand", "alex", "0", "40"],
         ["hand", "mary", "2", "50"], ["hand", "alex", "9", "9"], ["draw"], ["hand", "alex", "1", "30"],
         ["hand", "mary", "0", "60"], ["hand", "alex", "4", "40"], ["hand", "mary", "2", "30"]],
    ),
    "three of us": (  # the box, the captain and who sat out (R21-R25), an undercut of the box
        ["new", "three", JOSE, MARY, CHRIS, "--box", "jos", "--captain", "mary"],
        [["hand", "jos", "4", "30"], ["hand", "jos", "2", "50"], ["hand", "mary", "0", "40"],
         ["hand", "chris", "3", "33"], ["draw"], ["hand", "chris", "7", "20"], ["hand", "mary", "9", "8"],
         ["hand", "chris", "2", "12"], ["hand", "mary", "1", "21"], ["hand", "jos", "3", "9"]],
    ),
}

SESSION_SCREENS = (["status"], ["log"], ["dealer"], ["chart"], ["house"], ["watch", "--once"])
FILE_SCREENS = (["sessions"], ["history"], ["stats"], ["ratings"], ["rules"], ["rules", "standard"],
                ["rules", "oklahoma"], ["rules", "hollywood"], ["rules", "three"])
# Screens that are sentences, or sentences around a table whose rows start with a word.
SENTENCES = ("status", "dealer", "house", "watch", "hand", "rules")


@pytest.fixture(scope="module")
def evenings(tmp_path_factory):
    """The evenings in one file; the standings each `hand` of theirs showed (to draw again at each
    width); and each log as `log --json` tells it."""
    path = tmp_path_factory.mktemp("sweep") / "ginscore.json"
    told: dict[str, list] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GINSCORE_DB", str(path))
        patch.setenv("GINSCORE_CACHE", str(path.parent / "cache"))
        patch.setenv("NO_COLOR", "1")
        patch.setenv("COLUMNS", "120")
        # `hand` shows its result through the name its command module imported
        patch.setattr(table_command, "show_hand", lambda st, result, *a, **kw: told[name].append((st, result)))
        for name, (start, hands) in EVENINGS.items():
            assert run_cli(*start, "--name", name).exit_code == 0
            told[name] = []
            for hand in hands:
                ran = run_cli(*hand)
                assert ran.exit_code == 0, (hand, ran.stderr)
        logs = {name: run_cli("log", "--json", "--session", name).json()["hands"] for name in EVENINGS}
    return path, told, logs


# What each session screen showed, by (file, width, evening, command): the screens are the same
# at a width however often drawn, so the reproductions below read the sweep's logs, not draw them again.
_SHOWN: dict[tuple, str] = {}


@pytest.fixture
def shown_at(evenings, monkeypatch, capsys):
    """``shown_at(width)``: every screen at ``width``, as {label: text}; ``shown_at(width, only)``:
    the commands ``only`` of each evening."""
    path, told, _ = evenings
    monkeypatch.setenv("GINSCORE_DB", str(path))
    monkeypatch.setenv("GINSCORE_CACHE", str(path.parent / "cache"))
    monkeypatch.setenv("NO_COLOR", "1")

    def shown(width: int, only: tuple | None = None) -> dict[str, str]:
        monkeypatch.setenv("COLUMNS", str(width))
        screens = {}
        for name in EVENINGS:
            for command in only or SESSION_SCREENS:
                key = (path, width, name, tuple(command))
                if key not in _SHOWN:
                    ran = run_cli(*command, "--session", name)
                    assert ran.exit_code == 0, (command, ran.stderr)
                    _SHOWN[key] = ran.stdout
                screens[f"{name}: {' '.join(command)}"] = _SHOWN[key]
            for st, result in () if only else (told[name][len(told[name]) // 2], told[name][-1]):
                present_screens.show_hand(st, result)  # what `hand` shows: the hand, then the standings
                screens[f"{name}: hand {result.number}"] = capsys.readouterr().out
        for command in () if only else FILE_SCREENS:
            ran = run_cli(*command)
            assert ran.exit_code == 0, (command, ran.stderr)
            screens[" ".join(command)] = ran.stdout
        return screens

    return shown


# --- what the sweep holds every screen to ---------------------------------------------------

# A number as sentences write it: "18", "0.05", "1-3)", "(10)", "25%", "100.".
_NUMBER = r"[(]?[-+]?[0-9][0-9.,/-]*[.,;:)%]*"
# A line that starts with a number: it left the word before it ("(games" / "1-3)").
NUMBER_FIRST = re.compile(rf"^\s*{_NUMBER}(?: |$)")
# A line that starts or ends with what joins two numbers: a sum or a list of numbers was broken
# ("Bob 44 / 34" / "/ 4.", "scores 90 - 2 =" / "88.").
JOIN_FIRST = re.compile(r"^\s*[-+x/=] ")
JOIN_LAST = re.compile(r"(?:^|[0-9)] )[-+x/=]$")


def broken_name(text: str, name: str) -> str | None:
    """The two lines ``name`` is broken across (a line ending with the first part of it, the next
    starting with the rest), if it is anywhere in ``text``."""
    cuts = [(name[:cut].rstrip(), name[cut:].lstrip()) for cut in range(1, len(name))]
    heads, tails = tuple(head for head, _ in cuts), tuple(tail for _, tail in cuts)
    lines = text.splitlines()
    for line, following in zip(lines, lines[1:]):
        # plain string tests first (each regex below needs them to hold): most pairs stop here
        if not (line.rstrip().endswith(heads) and following.lstrip().startswith(tails)):
            continue
        for head, tail in cuts:
            if re.search(rf"(?:^|\W){re.escape(head)}$", line.rstrip()) and \
                    re.match(rf"{re.escape(tail)}(?:\W|$)", following.lstrip()):
                return f"{line!r} / {following!r}"
    return None


def check_screen(label: str, text: str, width: int) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= width, f"{label} at {width}: {cell_len(line)} cells: {line!r}\n{text}"
    assert "Too narrow" not in text, f"{label} at {width}:\n{text}"
    assert "\u00a0" not in text, f"{label} at {width}: a space glued for wrapping was printed"
    for name in (JOSE, MARY, CHRIS, BART, ALEX):
        broken = broken_name(text, name)
        assert broken is None, f"{label} at {width}: {name!r} broken over two lines: {broken}\n{text}"
    if not label.split(": ")[-1].startswith(SENTENCES):
        return
    lines = text.splitlines()
    for n, line in enumerate(lines):
        said = f"{label} at {width}: line {n + 1} {line!r}\n{text}"
        assert not NUMBER_FIRST.match(line), "a number left its word: " + said
        assert not JOIN_FIRST.match(line) and not JOIN_LAST.search(line), "numbers joined were broken: " + said


# --- the log, read as a person reads it -------------------------------------------------------

# What each heading of a log shows ("Hand" holds several facts, read from its lines).
HEADS = {"#": "number", "Dealer": "dealer", "Box": "dealer", "Dlr": "dealer", "Captain": "captain",
         "Sat out": "out", "Out": "out", "Knocker": "knocker", "By": "knocker", "Deadwood": "deadwood",
         "Upcard": "upcard", "Result": "result", "Winner": "winner", "Won": "winner",
         "Points": "points", "Pts": "points"}
OUTCOMES = "knock|gin|big gin|undercut"
HAND_LINES = ((rf"^\S+ (?:{OUTCOMES})(?: x2)?$", ("knocker", "result")), (r"^drawn hand$", ("result",)),
              (r"^[0-9]+ v [0-9]+$", ("deadwood",)), (r"^up ", ("upcard",)), (r" sat out$", ("out",)),
              (r" dealt$", ("dealer",)), (r" won$", ("winner",)))


def log_table(log: str) -> tuple[list[tuple[int, str]], list[list[str]]]:
    """A log's headings (where each starts, and its words) and its hands, each the lines it takes."""
    lines = log.splitlines()
    at = next(n for n, line in enumerate(lines) if line.lstrip().startswith("#") and
              lines[n + 1].startswith("─"))
    heads = [(found.start(), found.group()) for found in re.finditer(r"\S+(?: \S+)*", lines[at])]
    numbers = heads[0][0] + 1  # the "#" column, aligned right
    hands: list[list[str]] = []
    current: list[str] | None = None
    for line in lines[at + 2:]:
        if line[:numbers].strip().isdigit():
            current = [line]
            hands.append(current)
        elif line.startswith(" ") and current is not None:
            current.append(line)
        else:  # a line of its own (the legend, notes, a line between hands): no hand's
            current = None
    return heads, hands


def column_cells(heads, hand: list[str], index: int) -> list[str]:
    """What the column of ``heads[index]`` holds in a hand's lines (a left-aligned column)."""
    start = heads[index][0]
    end = heads[index + 1][0] if index + 1 < len(heads) else None
    return [line[start:end].strip() for line in hand if line[start:end].strip()]


def log_facts(log: str, players: tuple[str, ...]) -> set[str]:
    """What a log shows of each hand: its columns by what they say, the stacked "Hand" by its lines."""
    heads, hands = log_table(log)
    marks = markers(players)
    facts = set()
    for index, (_, head) in enumerate(heads):
        if head in HEADS:
            facts.add(HEADS[head])
        elif head in players or head in marks.values():
            facts.add(f"total {next(p for p in players if head in (p, marks[p]))}")
        elif re.fullmatch(r"Game [1-3]|G[1-3]", head):
            facts.add(f"game {head[-1]}")
        elif head == "Hand":
            for cells in (column_cells(heads, hand, index) for hand in hands):
                facts.update(fact for cell in cells for pattern, shown in HAND_LINES
                             if re.search(pattern, cell) for fact in shown)
        else:
            raise AssertionError(f"a log heading nobody defined: {head!r}\n{log}")
    return facts


def shows_player(log: str, players: tuple[str, ...], said: str, player: str) -> bool:
    """Whether ``said`` (a cell) names ``player``: the name, or its letter with the letter's legend."""
    mark = markers(players)[player]
    return said == player or (said == mark and f"{mark} {player}" in log)


def check_dealers_and_winners(label: str, log: str, players: tuple[str, ...], hands: list[dict]) -> None:
    """R5, H6, R13, R22: each hand's dealer (three players: the box) and winner, in a column of their
    own or a line of the hand ("J dealt", "M won"), by name or by a letter the log explains."""
    heads, rows = log_table(log)
    assert len(rows) == len(hands), f"{label}: {len(rows)} hands shown of {len(hands)}\n{log}"
    for fact, key, words in (("dealer", "dealer", "dealt"), ("winner", "winner", "won")):
        column = next((n for n, (_, head) in enumerate(heads) if HEADS.get(head) == fact), None)
        for hand, row in zip(hands, rows):
            wanted = hand[key]
            if column is not None:
                said = row[0][heads[column][0]:].split("  ")[0].strip()
                ok = shows_player(log, players, said, wanted) if wanted else said == ""
            else:
                hand_column = next(n for n, (_, head) in enumerate(heads) if head == "Hand")
                cells = column_cells(heads, row, hand_column)
                told = [c[:-len(words) - 1] for c in cells if c.endswith(f" {words}")]
                ok = (len(told) == 1 and shows_player(log, players, told[0], wanted)) if wanted else not told
            assert ok, f"{label}: hand {hand['hand']}'s {fact} is not {wanted!r}: {row}\n{log}"


def _players(name: str) -> tuple[str, ...]:
    start = EVENINGS[name][0]
    return tuple(start[2:start.index(next(word for word in start if word.startswith("--")))])


@pytest.mark.parametrize("width", WIDTHS)
def test_every_screen_at_every_width(shown_at, evenings, width):
    _, _, logs = evenings
    screens = shown_at(width)
    for label, text in screens.items():
        check_screen(label, text, width)
    for name in EVENINGS:
        check_dealers_and_winners(f"{name} at {width}", screens[f"{name}: log"], _players(name), logs[name])


def test_a_wider_screen_never_shows_less_of_a_log(shown_at):
    """The log's columns at each width are among those at every wider width (every width 40-160)."""
    facts = {name: [] for name in EVENINGS}
    for width in WIDTHS:
        for label, log in shown_at(width, only=(["log"],)).items():
            name = label.split(": ")[0]
            facts[name].append((width, log_facts(log, _players(name)), log))
    for name, seen in facts.items():
        for (width, shown, log), (wider, more, wider_log) in zip(seen, seen[1:]):
            assert shown <= more, \
                f"{name}: {sorted(shown - more)} at {width} columns, not at {wider}:\n{log}\n{wider_log}"
    for name, seen in facts.items():
        assert {"dealer", "winner"} <= seen[0][1], (name, seen[0])
    assert "upcard" in facts["oklahoma night"][0][1]  # R15: the upcard set the knock limit, shown at 40 too


# --- the reproductions ------------------------------------------------------------------------


def test_a_two_player_log_at_60_columns_and_under_shows_who_dealt(shown_at, evenings):
    """H6: under --deal loser nothing but the log tells who dealt each hand."""
    _, _, logs = evenings
    for width in (40, 50, 60):
        log = shown_at(width, only=(["log"],))["loser deals: log"]
        check_dealers_and_winners(f"at {width}", log, (JOSE, MARY), logs["loser deals"])


def test_a_count_keeps_what_it_counts_on_its_line(ok, monkeypatch):
    """R13's "even 0 points." and H7's "0.01 a point" were broken after the number between 64 and 88 columns,
    "needs 173 more" in the standings at 80."""
    ok("new", "standard", "Maximilianus", "Bartholomew", "--dealer", "max", "--stake", "0.01", "--target", "300")
    ok("hand", "max", "0", "98")  # gin: 98 + 25 = 123, so Maximilianus needs 177 more
    for width in range(40, 161):
        monkeypatch.setenv("COLUMNS", str(width))
        for shown in (ok("rules").stdout, ok("status").stdout):
            assert not re.search(r"[0-9](?: a)?\n *(?:points?|more|a point)\b", shown), (width, shown)


def test_who_needs_points_stays_on_the_line_of_what_they_need(ok, monkeypatch):
    """Hollywood's "Game 1: Ed leads Flo by 27; Ed" / "needs 73 more" at 40 columns left the name cut off."""
    ok("new", "hollywood", "Ed", "Flo", "--dealer", "ed")
    ok("hand", "ed", "3", "30")
    for width in range(40, 81):
        monkeypatch.setenv("COLUMNS", str(width))
        shown = ok("status").stdout
        assert "Ed needs 73 more" in shown.replace("\n", " ") and not re.search(r"\n *needs [0-9]", shown), (width, shown)


def test_a_long_heading_breaks_after_its_separators_and_before_v(ok, monkeypatch):
    """A line that starts with "·" or ends with "v" reads as cut: "· Maximilianus v" / "Bob"."""
    ok("new", "three", "Maximilianus", "Bartholomäus", "Christophera", "--box", "max", "--captain", "bart",
       "--name", "Friday night at the club")
    for width in range(40, 90, 2):
        monkeypatch.setenv("COLUMNS", str(width))
        heading = ok("status").stdout.split("House rules:")[0]
        assert not re.search(r"^·| v$", heading, re.MULTILINE), (width, heading)


def test_a_three_player_log_keeps_the_box_and_winner_it_shows_at_80_columns(shown_at):
    """R22: between 64 and 80 columns the box and the winner are never traded for who sat out."""
    logs = {width: shown_at(width, only=(["log"],))["three of us: log"] for width in range(64, 81)}
    for width, log in logs.items():
        assert {"dealer", "winner"} <= log_facts(log, (JOSE, MARY, CHRIS)), (width, log)


def test_names_stay_whole_at_40_columns(shown_at):
    """"José v Mary / Jane" and "(Mary / Jane 62)" were broken at 40 columns."""
    screens = shown_at(40, only=(["status"], ["log"]))
    for shown in (screens["loser deals: status"], screens["loser deals: log"]):
        assert broken_name(shown, MARY) is None, shown
    assert any(f"({MARY} 62)." in line for line in screens["loser deals: status"].splitlines())


@pytest.mark.parametrize("width", [40, 60, 80])
def test_rules_keep_numbers_with_their_words(monkeypatch, width):
    """R17, R20: "(games 1-3)" and "Bob 44 / 34 / 4." were broken at 60 and 80 columns."""
    monkeypatch.setenv("COLUMNS", str(width))
    rules = run_cli("rules", "hollywood").stdout
    for line in rules.splitlines():
        assert not NUMBER_FIRST.match(line), (width, line, rules)
        assert not JOIN_FIRST.match(line) and not JOIN_LAST.search(line), (width, line, rules)
