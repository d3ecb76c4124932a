"""A session as a picture to share: its standings and log, as `status` and `log` draw them, in an
HTML page or an SVG image as wide as its widest table and with fixed colours, so a picture is the
same whatever terminal made it. Rich's export escapes ``<``, ``&`` and quotes.
"""

from __future__ import annotations

import html

from rich.cells import cell_len
from rich.console import Console

from ginscore.core.replay import Standings
from ginscore.present.console import recording, say
from ginscore.present.log import show_log
from ginscore.present.screens import session_heading, show_standings

WIDEST = 200  # first drawn this wide, then again as wide as the widest line (never under NARROWEST)
NARROWEST = 80
SVG_ID = "ginscore"  # Rich draws a fresh random id into every SVG unless given one

# Formatted twice: with the title here, then with the code and colours by Rich's export. So Rich's fields
# are in double braces, and a brace of the stylesheet itself in four.
PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{{stylesheet}}
body {{{{
    color: {{foreground}};
    background-color: {{background}};
}}}}
</style>
</head>
<body>
    <pre style="font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace"><code style="font-family:inherit">{{code}}</code></pre>
</body>
</html>
"""


def _recorded(st: Standings, width: int) -> Console:
    """The standings (Hollywood: every game and its final bonuses) then the log, recorded ``width`` wide;
    a picture is shared, so it advises no command (one would name this machine's database path)."""
    with recording(width=width, force_terminal=True, color_system="truecolor", no_color=False,
                   legacy_windows=False) as out:
        show_standings(st, footer=not st.over)  # who deals next is news; a command to type is not (nor a path)
        say("")
        show_log(st)
    return out


def picture(st: Standings, fmt: str) -> str:
    """The session as an ``html`` page or an ``svg`` picture, as wide as its widest table, nothing wrapped."""
    lines = _recorded(st, WIDEST).export_text().splitlines()
    out = _recorded(st, max(NARROWEST, *(cell_len(line) for line in lines)))
    title = session_heading(st.facts).plain.partition("\n")[0]
    if fmt == "svg":
        return out.export_svg(title=title, unique_id=SVG_ID)
    return out.export_html(code_format=PAGE.format(title=html.escape(title)))
