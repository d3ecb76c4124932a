"""`export --format html` and `--format svg`: pictures of the standings."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

SVG = "{http://www.w3.org/2000/svg}"


class _Page(HTMLParser):
    """Collects the text of a page, and fails on tags other than Rich's export uses."""

    ALLOWED = {"html", "head", "meta", "title", "style", "body", "pre", "code", "span"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.tags = [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def _page(html: str) -> tuple[str, set]:
    page = _Page()
    page.feed(html)
    page.close()
    return "".join(page.text), page.tags


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(el.itertext()).replace("\xa0", " ") for el in root.iter(f"{SVG}text")]


def _hollywood_with_bonuses(ok):
    """Game 1 won by <script> with a game bonus (H3), games 2 and 3 open."""
    ok("new", "hollywood", "<script>", 'Ben & "Co"', "--dealer", "<s", "--game-bonus", "100")
    ok("hand", "<s", "0", "60")
    ok("hand", "<s", "0", "60")
    ok("hand", "ben", "3", "20")


def test_html_page_parses_and_shows_every_name_and_total_escaped(ok, status):
    _hollywood_with_bonuses(ok)
    doc = status()
    html = ok("export", "--format", "html").stdout
    text, tags = _page(html)
    assert tags <= _Page.ALLOWED, tags  # the name <script> did not become a tag
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert "Ben &amp; &quot;Co&quot;" in html
    for player in doc["players"]:
        assert player in text
    for game in doc["games"]:
        for score in game["scores"].values():
            assert str(score) in text
    # H3: game 1's final with its game bonus, beside its hand points
    final = doc["games"][0]["final"]
    assert final["<script>"] == doc["games"][0]["scores"]["<script>"] + 100
    assert f"<script> {final['<script>']}" in text
    assert "Game columns" in text  # the log follows the standings


def test_svg_picture_parses_as_xml_and_shows_the_totals(ok, status):
    _hollywood_with_bonuses(ok)
    doc = status()
    texts = _svg_texts(ok("export", "--format", "svg").stdout)
    joined = "\n".join(texts)
    for game in doc["games"]:
        for score in game["scores"].values():
            assert any(str(score) in t.split() for t in texts), score
    assert "<script>" in joined and 'Ben & "Co"' in joined


@pytest.mark.parametrize("variant, players", [
    ("standard", ["Ann", "Ben"]), ("oklahoma", ["Ann", "Ben"]), ("three", ["Ann", "Ben", "Cy"]),
])
def test_pictures_of_every_variant_show_the_totals_and_the_winner(ok, status, variant, players):
    roles = ["--box", "Ann", "--captain", "Ben"] if variant == "three" else ["--dealer", "Ann"]
    ok("new", variant, *players, *roles, "--target", "50")
    ok("hand", "ben", "0", "40", *(["--upcard", "9s"] if variant == "oklahoma" else []))
    doc = status()
    assert doc["winner"] == "Ben"
    text, _ = _page(ok("export", "--format", "html").stdout)
    svg = "\n".join(_svg_texts(ok("export", "--format", "svg").stdout))
    for shown in (text, svg):
        assert "Ben wins the game" in shown
        for player, score in doc["final"].items():
            assert player in shown and str(score) in shown


def test_picture_into_a_file_and_the_same_picture_twice(ok, tmp_path):
    _hollywood_with_bonuses(ok)
    target = tmp_path / "tonight.svg"
    ok("export", "--format", "svg", "--output", target)
    assert target.read_text(encoding="utf-8") == ok("export", "--format", "svg").stdout  # no random ids


def test_picture_does_not_depend_on_the_terminal(ok, monkeypatch):
    _hollywood_with_bonuses(ok)
    wide = ok("export", "--format", "html").stdout
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("NO_COLOR", "1")
    assert ok("export", "--format", "html").stdout == wide


def test_picture_of_a_session_without_hands(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    text, _ = _page(ok("export", "--format", "html").stdout)
    assert "No hands yet" in text and "Ann deals next" in text


def test_whatever_reaches_a_picture_or_the_board_is_made_visible():
    """Defence in depth: even text that slipped past the input checks is shown, never obeyed."""
    import io

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ginscore.present.console import Escaped, EscapingHook

    table = Table()
    table.add_column(Text("Ann\x1b]0;owned\x07"))
    table.add_row(Text("\u202eneB"))
    out = Console(file=io.StringIO(), width=60, record=True, color_system=None)
    out.push_render_hook(EscapingHook())
    out.print(table)
    out.print(Escaped(Text("tab\there")))
    text = out.export_text(clear=False)
    ET.fromstring(out.export_svg(unique_id="t"))  # no character XML forbids
    assert "Ann\\x1b]0;owned" in text and "\\u202eneB" in text  # (Rich itself drops the bell)
    assert "\x1b" not in text and "\u202e" not in text


def test_a_picture_is_titled_with_the_first_line_of_the_session_heading(ok):
    """The page's <title> (a browser tab, a bookmark) and the SVG's title bar: name, variant and players."""
    ok("new", "standard", "Ann", 'Ben & "Co"', "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "2", "10")
    html = ok("export", "--format", "html").stdout
    assert "<title>friday · Standard · Ann v Ben &amp; &quot;Co&quot;</title>" in html
    svg = ok("export", "--format", "svg").stdout.replace("&#160;", " ")
    assert 'class="ginscore-title"' in svg and "friday · Standard · Ann v Ben &amp; &quot;Co&quot;</text>" in svg


@pytest.mark.parametrize("fmt", ["html", "svg"])
@pytest.mark.parametrize("over", [True, False])
def test_a_picture_to_share_advises_no_command_and_names_no_path(ok, tmp_path, fmt, over):
    """A picture leaves this machine: "`ginscore --db /home/ann/... rematch` starts the next one" in it
    named a private path and a command nobody looking at it can type."""
    db = ["--db", str(tmp_path / "private-folder" / "evening.json")]
    ok(*db, "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    ok(*db, "hand", "ann", "0", "40" if over else "10")
    picture = ok(*db, "export", "--format", fmt).stdout
    shown = _page(picture)[0] if fmt == "html" else "\n".join(_svg_texts(picture))
    assert "private-folder" not in picture and "`" not in shown and "ginscore " not in shown
    assert ("Ann wins the game" in shown) == over and ("deals next" in shown) != over
