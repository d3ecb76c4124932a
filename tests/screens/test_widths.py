"""Every screen at every width shows every number and name whole."""

from __future__ import annotations

import pickle
import re

import pytest
from rich.cells import cell_len

from ginscore.present import fast_table as drawn
from ginscore.present import screens as present_screens
from ginscore.present import tables
from tests.support import number_whole, run_cli

NAMES = ("Alexandrina", "Bartholomew", "Christabelle")


WIDTHS = range(30, 161)


EVENINGS = {
    "standard": (
        ["new", "standard", "Alexandrina", "Bartholomew", "--dealer", "alex", "--name", "tuesday standard",
         "--target", "150"],
        [["hand", "alex", "5", "40"], ["hand", "bart", "0", "18"], ["hand", "alex", "9", "7"], ["draw"],
         ["hand", "alex", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KC QD 8S 5H 5C 6D 4C 3D 9C 8C"],
         ["hand", "bart", "2", "9"], ["hand", "alex", "1", "3"], ["hand", "bart", "3", "8"], ["hand", "alex", "0", "4"],
         ["hand", "bart", "1", "2"]],
    ),
    "oklahoma": (  # upcards, spades double (H4), a game bonus so the final differs (H3)
        ["new", "oklahoma", "Alexandrina", "Bartholomew", "--dealer", "bart", "--spades-double",
         "--game-bonus", "100", "--name", "oklahoma night"],
        [["hand", "alex", "3", "40", "--upcard", "7S"], ["hand", "bart", "0", "20", "--upcard", "KD"],
         ["draw", "--upcard", "AS"], ["hand", "alex", "1", "60", "--upcard", "2S"]],
    ),
    "three": (  # who sat out each hand (R22); 104 in a three-player log
        ["new", "three", *NAMES, "--box", "alex", "--captain", "bart", "--name", "three of us"],
        [["hand", "alex", "4", "30"], ["hand", "alex", "2", "50"], ["hand", "bart", "0", "40"],
         ["hand", "christ", "3", "33"], ["draw"], ["hand", "christ", "7", "20"], ["hand", "bart", "1", "40"]],
    ),
    "hollywood": (  # thirteen hands, all three games past 100 (R17-R19), bonuses (H3)
        ["new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex", "--game-bonus", "100",
         "--box-bonus", "25", "--name", "friday hollywood"],
        [["hand", "alex", "5", "25"], ["hand", "bart", "0", "18"], ["hand", "alex", "3", "30"],
         ["hand", "bart", "2", "25"], ["hand", "alex", "0", "20"], ["hand", "bart", "1", "30"],
         ["hand", "alex", "4", "20"], ["hand", "bart", "3", "10"], ["hand", "alex", "2", "10"],
         ["hand", "bart", "1", "9"], ["hand", "alex", "1", "5"], ["hand", "bart", "2", "30"],
         ["hand", "alex", "0", "30"]],
    ),
    "hollywood undercuts": (  # undercuts, three-digit points and totals, upcards (R10, R17-R19)
        ["new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex", "--target", "250",
         "--name", "hollywood undercuts"],
        [["hand", "alex", "9", "7"], ["hand", "bart", "9", "8", "--upcard", "10H"], ["hand", "alex", "1", "2"],
         ["hand", "bart", "10", "10"], ["hand", "alex", "0", "98"], ["hand", "bart", "0", "98"],
         ["hand", "alex", "10", "9", "--upcard", "QS"], ["hand", "bart", "5", "6"], ["hand", "alex", "2", "3"],
         ["hand", "bart", "1", "1"], ["hand", "alex", "0", "98"]],
    ),
    "three undercuts": (  # an undercut of the box, totals past 300 (R10, R23)
        ["new", "three", *NAMES, "--box", "alex", "--captain", "bart", "--target", "300", "--name", "three undercuts"],
        [["hand", "alex", "9", "7"], ["hand", "bart", "0", "98"], ["hand", "bart", "0", "98"],
         ["hand", "christ", "0", "98"], ["hand", "alex", "3", "2"], ["hand", "bart", "0", "95"]],
    ),
}


SESSION_COMMANDS = (["status"], ["dealer"], ["log"], ["chart"])


DATABASE_COMMANDS = (["sessions"], ["history"], ["stats"], ["rules"], ["rules", "standard"], ["rules", "hollywood"])


def _name(variant: str) -> str:
    start = EVENINGS[variant][0]
    return start[start.index("--name") + 1]


@pytest.fixture(scope="module")
def evenings(tmp_path_factory):
    """The evenings in one database; what each `hand` and `draw` was shown (to draw again);
    and what the scripts' JSON says of each session."""
    path = tmp_path_factory.mktemp("widths") / "ginscore.json"
    told: dict[str, list] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GINSCORE_DB", str(path))
        patch.setenv("NO_COLOR", "1")
        patch.setenv("COLUMNS", "120")
        patch.setattr(present_screens, "show_standings", lambda *args, **kw: None)
        patch.setattr(present_screens, "show_hand", lambda st, result, *args, **kw: told[variant].append((st, result)))
        for variant, (start, hands) in EVENINGS.items():
            assert run_cli(*start).exit_code == 0
            told[variant] = []
            for hand in hands:
                assert run_cli(*hand).exit_code == 0, hand
        docs = {v: {c: run_cli(c, "--json", "--session", _name(v)).json() for c in ("status", "log")}
                for v in EVENINGS}
    return path, told, docs


# A line of a sentence that starts with a number: the number was broken from its word.
_NUMBER_FIRST = re.compile(r"^\s*\(?[0-9][0-9.,]*[.,;:)]*(?: |$)")


# A line of a sentence that starts with an operator: a sum was broken ("2 + 10" / "= 12.").
_OPERATOR_FIRST = re.compile(r"^\s*(?:[+=] |[-x] [(]?[0-9])")


def _telling(hands: list, number: int) -> bool:
    """The hands whose output is drawn at each width: a draw, one told by its cards, one that
    closes a game, and the last."""
    st, result = hands[number]
    return number == len(hands) - 1 or result.score is None or result.hand.knocker_cards is not None \
        or bool(result.closed)


def _segments(out, renderable) -> list[tuple[str, str]]:
    """What ``out`` draws of ``renderable``: each character with its style."""
    return [(char, str(s.style or "")) for s in out.render(renderable) for char in s.text]


_RICH_DREW: dict[tuple, list] = {}


_RICH_MEASURED: dict[tuple, int] = {}


def _riches(table, out) -> list[tuple[str, str]]:
    """What Rich draws of ``table`` on ``out`` (and its natural width, as Rich measures it, is
    ``render``'s). A table that is not expanded is drawn at min(screen, its natural width), so the
    same table on any screen at least that wide is the same drawing: Rich measures and draws it
    once (the sweep shows most tables unchanged at every wider width); ``drawn``'s own drawing is
    compared with it at every width all the same."""
    if table.expand or table.width is not None:
        return _segments(out, table)
    same = (pickle.dumps(table), out.encoding, out.color_system, out.options.ascii_only)
    if same not in _RICH_MEASURED:
        _RICH_MEASURED[same] = out.measure(table, options=out.options.update_width(10_000)).maximum
        assert tables.natural_width(table) == _RICH_MEASURED[same]
    key = (*same, min(out.options.max_width, _RICH_MEASURED[same]))
    if key not in _RICH_DREW:
        _RICH_DREW[key] = _segments(out, table)
    return _RICH_DREW[key]


@pytest.fixture
def screens(evenings, monkeypatch, capsys):
    """``screens(width)``: every screen at ``width`` as {label: text}, each table checked against Rich."""
    path, told, _ = evenings
    monkeypatch.setenv("GINSCORE_DB", str(path))
    monkeypatch.setenv("NO_COLOR", "1")
    real = drawn.draw
    tables = []

    def checked(table, out):
        mine = real(table, out)
        if mine is not None:
            assert _segments(out, mine) == _riches(table, out), "drawn.draw differs from Rich"
            tables.append(table)
        return mine

    monkeypatch.setattr(drawn, "draw", checked)

    def _screens(width: int) -> dict[str, str]:
        monkeypatch.setenv("COLUMNS", str(width))
        shown = {}
        for variant in EVENINGS:
            for command in SESSION_COMMANDS:
                ran = run_cli(*command, "--session", _name(variant))
                assert ran.exit_code == 0, (command, ran.stderr)
                shown[f"{variant} {command[0]}"] = ran.stdout
            for number, (st, result) in enumerate(told[variant]):
                if _telling(told[variant], number):
                    present_screens.show_hand(st, result)
                    shown[f"{variant} hand {number + 1}"] = capsys.readouterr().out
        for command in DATABASE_COMMANDS:
            ran = run_cli(*command)
            assert ran.exit_code == 0, (command, ran.stderr)
            shown[" ".join(command)] = ran.stdout
        shown["house"] = run_cli("house").stdout
        return shown

    _screens.tables = tables
    return _screens


@pytest.mark.parametrize("width", WIDTHS)
def test_every_screen_at_every_width_shows_every_numbernumber_whole(screens, evenings, width):
    _, told, docs = evenings
    shown = screens(width)
    for label, text in shown.items():
        assert "…" not in text, (label, text)
        assert "Traceback" not in text
        for line in text.splitlines():
            assert cell_len(line) <= width, f"{label}: {cell_len(line)} > {width}: {line!r}\n{text}"
            assert line == line.rstrip(), f"{label}: trailing spaces in {line!r}"
        for typed in re.findall(r"`[^`]*`", text):  # (one longer than the screen is broken where it must be)
            assert "\n" not in typed or cell_len(" ".join(typed.split())) > width, \
                f"{label} at {width}: a command to type was broken: {typed!r}"
        if width >= 40:
            assert "Too narrow" not in text, (label, text)
        elif "Too narrow" in text:
            assert re.search(r"^Too narrow: needs [0-9]+ columns\.$", text, re.MULTILINE), (label, text)
    if width >= 40:  # a house rule's words stay together ("spades double", "box bonus 25 a hand won")
        assert any("spades double" in line for line in shown["oklahoma status"].splitlines())
        assert any("box bonus 25 a hand won" in line for line in shown["hollywood status"].splitlines())
    for variant in EVENINGS:
        log, status = shown[f"{variant} log"], shown[f"{variant} status"]
        hands = docs[variant]["log"]["hands"]
        if "Too narrow" not in log:
            for hand in hands:
                assert number_whole(hand["hand"], log), (variant, hand["hand"], log)
                for column in hand.get("games") or [hand["totals"]]:
                    for number in column.values():
                        assert number_whole(number, log), (variant, number, log)
        if "Too narrow" not in status:
            doc = docs[variant]["status"]
            columns = [g["scores"] for g in doc["games"]] if "games" in doc else [doc["totals"]]
            for column in columns + [doc["final"] or {}, doc["hands_won"]]:
                for number in column.values():
                    assert number_whole(number, status), (variant, number, status)
        for number, (st, result) in enumerate(told[variant]):
            if not _telling(told[variant], number):
                continue
            hand = shown[f"{variant} hand {number + 1}"]
            assert f"hand {result.number}:" in " ".join(hand.split()), hand
    sentences = [label for label in shown if " hand " in label or label.endswith("dealer") or
                 label.startswith("rules") or label == "house"]
    for label in sentences:
        for line in shown[label].splitlines():
            assert not _NUMBER_FIRST.match(line), f"{label} at {width}: a number left its word: {line!r}"
            assert not _OPERATOR_FIRST.match(line), f"{label} at {width}: a sum was broken: {line!r}"
    assert screens.tables  # drawn drew tables, each compared with Rich's drawing


@pytest.mark.parametrize("width", [80, 100, 160])
def test_sentences_keep_their_numbers_with_their_words(screens, width):
    """`= 13.`, `in game 1`, `box bonus 25` are never split over two lines."""
    shown = screens(width)
    for text in shown.values():
        assert not re.search(r"[^=]=\n|game\n[0-9]|box\nbonus|bonus\n[0-9]", text), text


def _log_heads(log: str) -> list[str]:
    return next(line for line in log.splitlines() if line.lstrip().startswith("#")).split()


@pytest.mark.parametrize("variant", ["standard", "oklahoma", "hollywood"])
def test_a_two_player_log_at_80_columns_shows_dealer_and_winner(screens, variant):
    """R5, H6, R13: who dealt and who won outrank the names spelled out in the cells."""
    log = screens(80)[f"{variant} log"]
    heads = _log_heads(log)
    assert "Dealer" in heads and "Winner" in heads, log
    assert "A Alexandrina" in log
    assert ("Game columns: A - B" in log) == (variant == "hollywood")


def test_a_three_player_log_never_trades_the_box_and_winner_for_names(screens):
    """R22, R13: a log too narrow for every name keeps the box and the winner, by letter."""
    for width in (90, 100):
        heads = _log_heads(screens(width)["three log"])
        assert heads[:3] == ["#", "Box", "Out"] and "Winner" in heads


def test_sessions_show_their_players_on_one_line_when_they_fit(screens):
    lines = screens(160)["sessions"].splitlines()
    assert len(lines) == 2 + len(EVENINGS)
    assert any("Alexandrina v Bartholomew v Christabelle" in line for line in lines)
    at_100 = screens(100)["sessions"]
    assert sum("Alexandrina v Bartholomew" in line for line in at_100.splitlines()) == len(EVENINGS)
    threes = sum(start[1] == "three" for start, _ in EVENINGS.values())
    assert at_100.count("v Christabelle") == threes, at_100  # a third player on a line of its own keeps its "v"


def test_rules_reflow_to_the_width(screens):
    for width in (60, 160):
        rules = screens(width)["rules hollywood"]
        r18 = rules[rules.index("R18"):rules.index("R19")]
        words = " ".join(r18.split())
        assert "A game ends when a score in it reaches the target; later wins go to the first open game, and to" \
               " each later open game" in words
        if width == 160:  # one line: no break where the rule book's source had one
            assert rules[rules.index("R20"):rules.index("H1")].count("\n") <= 2  # R20, then a blank line


@pytest.mark.parametrize("width", [8, 12, 15])
def test_below_twenty_columns_what_is_kept_together_breaks_at_spaces_never_inside_a_word(ok, monkeypatch, width):
    """Narrower than a phrase kept on one line ("Ann needs 83 more", "narrow: needs 16"), the phrase breaks at
    its spaces: the screen's words are those of a wide screen, none cut, and the line saying how wide a
    screen the table needs keeps its number whole."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "3", "20")
    monkeypatch.setenv("COLUMNS", "200")
    wide = ok("status").stdout.split()
    monkeypatch.setenv("COLUMNS", str(width))
    narrow = ok("status").stdout
    assert all(cell_len(line) <= width for line in narrow.splitlines()), narrow
    cut = set(narrow.split()) - set(wide) - {"Too", "narrow:", "16", "columns."}  # (the wide one shows the table)
    assert not cut, (cut, narrow)
    if "Too narrow" in narrow:
        assert re.search(r"^Too narrow:\nneeds 16\ncolumns\.$|^Too narrow: needs 16", narrow, re.MULTILINE), narrow
