"""The scoreboard of `ginscore watch`: one frame of a session, readable across the table, the
standings as `status` draws them under the totals in block digits when they fit.
"""

from __future__ import annotations

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from ginscore.core.errors import NEXT_GAME
from ginscore.core.replay import Standings
from ginscore.core.reports import explain
from ginscore.present.console import Escaped, recording
from ginscore.present.screens import show_match, show_standings
from ginscore.present.wrapping import one_phrase, wrapped

# Each digit three cells wide and five lines tall.
_FONT = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": ("██ ", " █ ", " █ ", " █ ", "███"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", "███", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", "  █", "  █"),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    " ": ("   ",) * 5,
}


def big_number(number: int, digits: int = 0) -> str:
    """``number`` in block digits, right-aligned to ``digits`` places: five lines, a blank column between."""
    glyphs = [_FONT[c] for c in str(number).rjust(digits)]
    return "\n".join(" ".join(g[row] for g in glyphs) for row in range(5))


def _role_words(st: Standings) -> dict[str, str]:
    """A word under each name: who deals next, or the three-player role of the next hand."""
    if st.over:
        return {st.winner: "wins"} if st.winner else {}
    if st.roles:
        r = st.roles
        return {r.box: "in the box, deals", r.captain: "captain", r.out: "sits out"}
    return {st.next_dealer: "deals next"}


def big_board(st: Standings) -> Table:
    """A row a player: the name, then each game's points (Hollywood: three) in block digits."""
    facts = st.facts
    board = Table(box=box.HEAVY_HEAD, show_lines=True, padding=(0, 2))
    board.add_column("")
    hollywood = facts.variant == "hollywood"
    for game in st.games:
        board.add_column(f"Game {game.number}" if hollywood else "Points", justify="right")
    words = _role_words(st)
    for player in facts.players:
        name = Text(player, style="bold")
        if player in words:
            name.append(f"\n{words[player]}", style="cyan" if player != st.winner else "green")
        digits = []
        for game in st.games:
            style = "bold green" if game.winner == player else ("bold" if _leader(game.scores) == player else "")
            places = max(len(str(score)) for score in game.scores.values())
            digits.append(Text(big_number(game.scores[player], places), style=style, justify="left", no_wrap=True))
        board.add_row(name, *digits)
    return board


def _leader(scores: dict[str, int]) -> str | None:
    """The one player ahead in a column, if anyone is."""
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    return ranked[0][0] if ranked[0][1] > ranked[1][1] else None


def _as_drawn(out: Console, draw) -> Text:
    """What ``draw()`` prints at ``out``'s width and colours, as one Text: the standings as `status` lays them out."""
    with recording(width=out.width, color_system=out.color_system, force_terminal=out.is_terminal,
                   no_color=out.no_color) as drawn:
        draw()
    return Text.from_ansi(drawn.export_text(styles=True).rstrip("\n"))


def frame(st: Standings, out: Console, *, big: bool, footer: str, what_follows: tuple = NEXT_GAME,
          match: dict | None = None, cut: bool = False) -> RenderableType:
    """One picture of the session: big totals when ``big`` and they fit, the standings (``what_follows``: as
    ``show_standings``), the ``match`` so far (as `status` shows it), the last hand, the ``footer``.
    ``cut``: the picture fills a screen that shows no more than its height, so one too tall says so."""
    parts: list[RenderableType] = [_as_drawn(out, lambda: show_standings(st, what_follows=what_follows))]
    if match is not None:
        parts.append(_as_drawn(out, lambda: show_match(match)))
    if st.hands:
        last = st.hands[-1]
        said = Text(f"Last hand ({last.number}): {explain(st, last)}.")  # broken as `say` breaks a sentence
        parts.append(Text("\n").join(wrapped(said, out.width, names=st.facts.players)))
    else:
        parts.append(Text("No hands yet."))
    parts.append(_footer(footer, out.width))
    # On a short screen the footer gives way first, then the match: the standings and the last hand stay.
    fewer = [parts, parts[:-1], *([[parts[0], *parts[2:-1]]] if match is not None else [])]
    board = big_board(st) if big else None
    if board is not None and Measurement.get(out, out.options.update_width(1000), board).maximum <= out.width:
        # The big digits whole or not at all, and only where the standings and the last hand still fit below them.
        for rest in fewer[:2]:
            if _fits(out, [board, *rest]):
                return Escaped(Group(board, *rest))
    if big:
        parts = next((rest for rest in fewer if _fits(out, rest)), fewer[-1])
        if cut and not _fits(out, parts):
            parts = [_cut_to_height(out, parts)]
    return Escaped(Group(*parts))


def _fits(out: Console, parts: list[RenderableType]) -> bool:
    return len(out.render_lines(Group(*parts), out.options, pad=False)) <= out.height


def _cut_to_height(out: Console, parts: list[RenderableType]) -> RenderableType:
    """The lines of ``parts`` that fit above one saying there is more: a screen would cut them mid-sentence."""
    lines = out.render_lines(Group(*parts), out.options, pad=False)[:max(out.height - 1, 0)]
    kept = Segments([segment for line in lines for segment in (*line, Segment.line())])
    return Group(kept, Text("… a taller window shows more", style="dim", no_wrap=True, overflow="ellipsis"))


def _footer(footer: str, width: int) -> Text:
    """The file, when the board last changed, and how to stop: broken between those, never inside one."""
    kept = " · ".join(one_phrase(part) for part in footer.split(" · "))
    return Text("\n").join(wrapped(Text(kept, style="dim"), width))


def problem(message: str, footer: str, out: Console, cut: bool = False) -> RenderableType:
    """What `watch` shows while the database cannot be read: the problem, and that it keeps watching
    (``cut``: as ``frame``; the footer gives way first)."""
    body = Text(message, style="bold red")
    body.append("\nStill watching: the board comes back as soon as the file can be read.", style="")
    parts = [Panel(body, title="ginscore watch", border_style="red"), _footer(footer, out.width)]
    if cut and not _fits(out, parts):
        parts = parts[:1] if _fits(out, parts[:1]) else [_cut_to_height(out, parts[:1])]
    return Escaped(Group(*parts))
