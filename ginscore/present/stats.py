"""Statistics (`stats`) and ratings (`ratings`) for people: a player a row, split or stacked to fit."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ginscore.core.escape import visible
from ginscore.core.reports import counted
from ginscore.present import fast_table
from ginscore.present.console import say, screen
from ginscore.present.tables import (blocks, fit, heading_and_value, natural_width, show, show_aligned, show_list,
                                     table_of, time_text)


STAT_COLUMNS = [  # headings of two short lines, so more statistics fit side by side
    (("Sessions",), "sessions"), (("Sessions", "won"), "sessions_won"),
    (("Hollywood", "games won"), "hollywood_games_won"), (("Hands",), "hands"), (("Hands", "won"), "hands_won"),
    (("Gins",), "gins"), (("Big", "gins"), "big_gins"), (("Knocks", "won"), "knocks_won"),
    (("Undercuts", "scored"), "undercuts_scored"), (("Undercut", "(suffered)"), "undercuts_suffered"),
    (("Avg deadwood", "knocking"), "avg_deadwood_knocking"), (("Avg deadwood", "caught"), "avg_deadwood_caught"),
    (("Points", "a hand"), "points_per_hand"), (("Longest run", "of wins"), "longest_run"),
]


def _stats_table(doc: dict, columns: list[tuple[tuple[str, ...], str]]) -> Table:
    rows = [[name, *[_stat_cell(record[key]) for _, key in columns]] for name, record in doc["players"].items()]
    return table_of([("Player", False)] + [(head, True) for head, _ in columns], rows)


def _stat_cell(value) -> str:
    """A statistic as people read it: counts whole, averages with two decimals (3.20, not 3.2)."""
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _stat_columns(doc: dict) -> list[tuple[tuple[str, ...], str]]:
    """The statistics shown: Hollywood games won only where someone has won one."""
    players = doc["players"].values()
    return [c for c in STAT_COLUMNS if c[1] != "hollywood_games_won" or any(r[c[1]] for r in players)]


def _stats_tables(doc: dict, columns: list[tuple[tuple[str, ...], str]]) -> list[Table]:
    """A player a row; the statistics in as few tables as fit the screen side by side."""
    width = screen().width
    whole = _stats_table(doc, columns)
    measured = fast_table.content_widths(whole)  # the Player column, then each statistic's (all plain text)

    def fits(chosen: list[int]) -> bool:
        return fast_table.table_width(whole, [measured[0]] + [measured[n + 1] for n in chosen]) <= width

    groups, group = [], []
    for number in range(len(columns)):
        if group and not fits(group + [number]):
            groups.append(group)
            group = []
        group.append(number)
    groups.append(group)
    per = -(-len(columns) // len(groups))  # as many tables, evened out, when they still fit
    even = [list(range(n, min(n + per, len(columns)))) for n in range(0, len(columns), per)]
    if len(even) == len(groups) and all(fits(g) for g in even):
        groups = even
    return [_stats_table(doc, [columns[n] for n in chosen]) for chosen in groups]


def show_stats(doc: dict) -> None:
    """A player a row, a statistic a column (split into several tables on a narrow screen)."""
    out = screen()
    if not doc["players"]:  # (nor, then, anyone met head to head)
        say("No hands played in the sessions that match, so there is nothing to count yet.")
        return
    columns = _stat_columns(doc)
    tables = _stats_tables(doc, columns)
    if any(natural_width(table) > out.width for table in tables):  # not one statistic fits beside the names
        out.print(blocks([[name, *(line for head, key in columns
                                   for line in heading_and_value(" ".join(head), _stat_cell(record[key])))]
                          for name, record in doc["players"].items()]))
        tables = []
    for number, table in enumerate(tables):
        if number:
            out.print()
        show(table)
    if doc["head_to_head"]:
        pairs = doc["head_to_head"]

        def head_to_head(stacked: bool) -> Table:
            rows = []
            for pair in pairs:
                a, b = pair["players"]
                wins = [str(pair["wins"][a]), str(pair["wins"][b])]
                rows.append([[a, b], str(pair["sessions"]), wins] if stacked else
                            [f"{a} v {b}", str(pair["sessions"]), " - ".join(wins)])
            return table_of([("Players", False), ("Sessions", True), ("Wins", True)], rows,
                            title="Head to head", title_justify="left", leading=1 if stacked else 0)

        def pair_blocks() -> Group:  # names of two dozen letters at 40 columns
            lines = [[*pair["players"], *heading_and_value("Sessions", str(pair["sessions"])),
                      *heading_and_value("Wins", " - ".join(str(pair["wins"][name]) for name in pair["players"]))]
                     for pair in pairs]
            return Group(Text("Head to head", style="table.title"), blocks(lines))

        out.print()
        show(fit(lambda: head_to_head(False), lambda: head_to_head(True), pair_blocks))


def _rating(value: float) -> str:
    """A rating to one decimal (the ladder's figure), never "-0.0"."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def show_ratings(players: list[dict], ranks: list[int | None], named: bool = False, filtered: bool = False) -> None:
    """The ladder (``ratings --json``'s players with their ``ranks``); ``named``: the players
    --player names, each with their rating after each of their games."""

    def cells(line: dict, rank: int | None, short: bool) -> list:
        last = time_text(line["last_played"])[:10 if short else 16] or "-"
        rating, mu, sigma, games = _rating(line["ordinal"]), f"{line['mu']:.2f}", f"{line['sigma']:.2f}", str(line["games"])
        if short:  # a phone: the last game's day under the name, sigma under mu
            return ["" if rank is None else str(rank), [line["name"], last], rating, [mu, sigma], games]
        return ["" if rank is None else str(rank), line["name"], rating, mu, sigma, games, last]

    def entry_blocks() -> Group:
        return blocks([[f"{'' if rank is None else f'{rank}. '}{line['name']}",
                        f"rating {_rating(line['ordinal'])} · {counted(line['games'], 'game')} rated",
                        f"mu {line['mu']:.2f} · sigma {line['sigma']:.2f}",
                        f"last game {time_text(line['last_played']) or '-'}"] for line, rank in zip(players, ranks)])

    if named:
        for line, rank in zip(players, ranks):
            _show_rating_history(line, rank)
    elif players:
        _show_ranked(list(zip(players, ranks)), ("#", "Player", "Rating", "Mu", "Sigma", "Games", "Last game"),
                     ("#", ("Player", "Last game"), "Rating", ("Mu", "Sigma"), "Games"),
                     ("Player", "Last game", ("Player", "Last game")), cells, entry_blocks)
    if not players:
        say("No finished games match, so nobody is rated." if filtered else
            "No finished games yet, so nobody is rated; a game counts once it has a winner.")
    else:
        say("Rating: mu - 3 sigma (OpenSkill Plackett-Luce); a start is mu 25, sigma 8.33.")


def _show_rating_history(line: dict, rank: int | None) -> None:
    """One player's ladder line, then their rating after each of their games."""
    say(line["name"], style="bold")
    place = f"#{rank} · " if rank is not None else ""
    say(f"{place}rating {_rating(line['ordinal'])} (mu {line['mu']:.2f}, sigma {line['sigma']:.2f}) · "
        f"{counted(line['games'], 'game')} rated")
    history = line["history"]
    if not history:
        say("No games rated yet.")
        return

    def cells(n: int, game: dict, short: bool) -> list:
        session = game["session"] + (f" (game {game['game']})" if game["game"] is not None else "")
        place = f"{game['rank']} of {game['of']}"
        numbers = [_rating(game["ordinal"]), f"{game['mu']:.2f}", f"{game['sigma']:.2f}"]
        if short:
            return [str(n), [time_text(game["finished"])[:10] or "-", session], place, numbers[0]]
        return [str(n), time_text(game["finished"]) or "-", session, place, *numbers]

    def game_blocks() -> Group:  # two lines a game
        return blocks([[f"{n}. {time_text(game['finished'])[:10] or '-'} · {game['rank']} of {game['of']} · "
                        f"rating {_rating(game['ordinal'])}", "   " + cells(n, game, False)[2]]
                       for n, game in enumerate(history, start=1)], apart=False)

    _show_ranked(list(enumerate(history, start=1)), ("Game", "Finished", "Session", "Place", "Rating", "Mu", "Sigma"),
                 ("Game", ("Finished", "Session"), "Place", "Rating"), ("Finished", "Session", ("Finished", "Session")),
                 cells, game_blocks)
    screen().print()


def _show_ranked(entries: list[tuple], heads: tuple, short_heads: tuple, left: tuple, cells, as_blocks) -> None:
    """``entries`` (each ``cells(*entry, short)`` a row) as the widest table that fits, with the
    columns in ``left`` aligned left, else as ``as_blocks()`` (a few lines an entry)."""

    def table(short: bool) -> Table:
        return table_of([(head, head not in left) for head in (short_heads if short else heads)],
                        [cells(*entry, short) for entry in entries])

    show_list(len(entries), lambda: screen().print(as_blocks()),
              lambda: show_aligned(heads, [[visible(text) for text in cells(*entry, False)] for entry in entries]),
              lambda: table(False), lambda: table(True), as_blocks)
