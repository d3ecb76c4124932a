"""The pages of `ginscore serve` in a real browser: what they show equals `status --json`, they
change by themselves when a hand is recorded, and a phone never scrolls sideways."""

from __future__ import annotations

import signal
import time

import pytest

from tests.web.browsing import no_sideways_scroll, scores_of, scores_on, UPDATE_SECONDS

VARIANTS = {  # each variant with hands that show its own parts
    "standard": [("new", "standard", "Ann", "Ben", "--dealer", "ann"), ("hand", "ann", "3", "20"),
                 ("hand", "ben", "0", "31")],
    "oklahoma": [("new", "oklahoma", "Ann", "Ben", "--dealer", "ben"), ("hand", "ann", "3", "20", "--upcard", "9s"),
                 ("hand", "ben", "2", "14", "--upcard", "kd")],
    # R17/R18: Ann is on all three games, Ben on game 1 only
    "hollywood": [("new", "hollywood", "Ann", "Ben", "--dealer", "ann"), ("hand", "ann", "3", "20"),
                  ("hand", "ann", "2", "30"), ("hand", "ben", "4", "18"), ("hand", "ann", "0", "12")],
    "three": [("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben"), ("hand", "ann", "3", "20"),
              ("hand", "cy", "1", "22")],
}


def make(ok, variant: str) -> None:
    for args in VARIANTS[variant]:
        ok(*args)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_total_on_the_session_page_is_the_one_status_json_gives(ok, status, serving, page_at, variant):
    make(ok, variant)
    page = page_at(serving().base + "/")
    assert scores_on(page) == scores_of(status())
    assert page.inner_text("h1") == status()["session"]
    assert no_sideways_scroll(page)


def test_hollywood_shows_who_is_on_each_game(ok, serving, page_at):
    """R18: a player is on a game once a win of theirs was credited to it."""
    make(ok, "hollywood")
    page = page_at(serving().base + "/")
    states = page.eval_on_selector_all("td.game-cell", "all => all.map(c => c.querySelector('.state').textContent)")
    assert states == ["on", "on", "on", "on", "not on", "not on"]  # Ann: games 1-3; Ben: game 1 only


def test_three_players_show_box_captain_and_sitter_out(ok, serving, page_at):
    make(ok, "three")
    page = page_at(serving().base + "/")
    roles = dict(zip(page.eval_on_selector_all(".player .name", "all => all.map(e => e.textContent)"),
                     page.eval_on_selector_all(".player .role", "all => all.map(e => e.textContent)")))
    words = ok("dealer", "--json").json()["roles"]
    assert roles[words["box"]] == "in the box, deals"
    assert roles[words["captain"]] == "captain"
    assert roles[words["out"]] == "sits out"


def waited_for(page, what, seconds: float = UPDATE_SECONDS):
    """Poll ``what(page)`` until it is true or ``seconds`` passed; how long it took, or None."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if what(page):
            return time.monotonic() - started
        page.wait_for_timeout(20)
    return None


def test_a_hand_recorded_shows_on_the_open_page_without_a_reload(ok, status, serving, page_at, db_path):
    make(ok, "standard")
    page = page_at(serving().base + "/")
    page.evaluate("window.notReloaded = true")
    before = scores_on(page)
    ok("hand", "ben", "2", "40")
    took = waited_for(page, lambda p: scores_on(p) != before)
    assert took is not None, "the page did not change within 2 s"
    assert page.evaluate("window.notReloaded === true")
    now = status()
    assert scores_on(page) == scores_of(now)
    assert "Ben knocked with 2" in page.inner_text("#hands")
    # everything else the page says, as `status` says it
    assert page.title() == f"{now['session']} · ginscore"
    assert page.inner_text(".rules") == "House rules: target 100; gin bonus 25; undercut bonus 10"
    assert page.eval_on_selector_all("#words p", "all => all.map(e => e.textContent)") == now["state_of_play"]
    cards = page.eval_on_selector_all(".player", "all => all.map(c => [...c.children].map(e => e.textContent))")
    assert cards == [["Ann", "\u00a0", str(now["totals"]["Ann"]), "1 hand won"],
                     ["Ben", "deals next", str(now["totals"]["Ben"]), "2 hands won"]]
    assert now["next_dealer"] == "Ben" and now["hands_won"] == {"Ann": 1, "Ben": 2}
    assert page.inner_text("#file") == str(db_path)
    assert page.inner_text("#updated").startswith("updated ")


def test_the_page_follows_the_current_session_and_says_when_it_is_over(ok, status, serving, page_at):
    make(ok, "standard")
    page = page_at(serving().base + "/")
    ok("hand", "ben", "0", "90")  # Ben reaches 100 and wins
    assert waited_for(page, lambda p: p.query_selector(".winner-words") is not None) is not None
    assert page.inner_text(".winner-words").startswith("Ben wins the game")
    over = status()
    cards = page.eval_on_selector_all(".player", "all => all.map(c => [c.querySelector('.role').textContent, "
                                                 "c.classList.contains('winner')])")
    assert cards == [["\u00a0", False], ["wins", True]] and over["winner"] == "Ben"
    ok("rematch", "--yes")
    assert waited_for(page, lambda p: p.inner_text("h1") == status()["session"]) is not None
    assert page.inner_text("#hands") == "No hands yet."
    assert page.inner_text(".match") == "Match of 2 sessions, games won: Ann 0, Ben 1"
    ok("delete", "standard-1", "--yes")  # the game before: no match left to show, as `status` shows none
    assert waited_for(page, lambda p: p.query_selector(".match") is None) is not None
    assert "Match" not in ok("status").stdout and status()["match"]["sessions"] == [status()["session"]]


def test_the_club_board_shows_every_table_of_today_and_changes_by_itself(ok, serving, page_at):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "table-1")
    ok("hand", "ann", "3", "20")
    ok("new", "three", "Cy", "Dee", "Eve", "--box", "cy", "--captain", "dee", "--name", "table-2")
    page = page_at(serving().base + "/club")
    cards = page.eval_on_selector_all(".table-card", "all => all.map(c => c.dataset.session)")
    assert cards == ["table-2", "table-1"]  # the current one first
    assert page.inner_text("#subtitle") == "2 sessions played today"
    assert page.inner_text("#ladder") == "No finished game yet."

    def card_lines(p, session):
        return p.eval_on_selector_all(f".table-card[data-session='{session}'] p", "all => all.map(e => e.textContent)")

    waiting = ok("status", "--json", "--session", "table-2").json()["state_of_play"][-1]
    assert card_lines(page, "table-2") == ["Three-player · 0 hands", waiting]

    def card_scores(p, session):
        return {e["player"]: int(e["text"]) for e in p.eval_on_selector_all(
            f".table-card[data-session='{session}'] [data-score]",
            "all => all.map(e => ({player: e.dataset.player, text: e.textContent}))")}

    assert card_scores(page, "table-1") == ok("status", "--json", "--session", "table-1").json()["totals"]
    page.evaluate("window.notReloaded = true")
    ok("hand", "cy", "5", "30", "--session", "table-2")
    assert waited_for(page, lambda p: card_scores(p, "table-2")["Cy"] == 25) is not None
    assert page.evaluate("window.notReloaded === true")
    ok("hand", "ann", "0", "90", "--session", "table-1")  # Ann wins: the ladder has its first game
    assert waited_for(page, lambda p: "Ann" in p.inner_text("#ladder")) is not None
    ladder = page.eval_on_selector_all("#ladder tbody tr", "all => all.map(r => [...r.cells].map(c => c.textContent))")
    rated = ok("ratings", "--json").json()["players"]
    assert ladder == [[str(n), line["name"], f"{line['ordinal']:.1f}", str(line["games"])] for n, line in
                      enumerate(rated, 1)]
    assert card_scores(page, "table-1") == ok("status", "--json", "--session", "table-1").json()["totals"]
    lines = card_lines(page, "table-1")  # its winner, and its last hand only
    assert lines[:2] == ["Standard · 2 hands", "Ann wins the game with 132 (Ben 0)."] and len(lines) == 3
    assert lines[2].startswith("Hand 2: Ann")
    assert no_sideways_scroll(page)


@pytest.mark.parametrize("width, height", [(390, 844), (1920, 1080)])
def test_no_page_scrolls_sideways_even_with_long_names(ok, serving, page_at, width, height):
    long = "W" * 200
    ok("new", "hollywood", long, "Ben", "--dealer", "ben")
    ok("hand", "ben", "3", "20")
    ok("new", "three", long[:-1], "Ann", "Cy", "--box", "ann", "--captain", "cy")
    served = serving()
    for address in ("/", "/club"):
        page = page_at(served.base + address, width, height)
        assert no_sideways_scroll(page), address
    ok("use", "hollywood-1")
    page = page_at(served.base + "/", width, height)
    assert long in page.inner_text("#board")
    assert no_sideways_scroll(page)


def test_the_page_says_when_the_server_is_gone(ok, serving, page_at):
    make(ok, "standard")
    served = serving()
    page = page_at(served.base + "/")
    started = time.monotonic()
    assert served.stop() == 0  # Ctrl-C: a clean stop, as `watch`, though a page is still open on it
    assert time.monotonic() - started < 5
    assert waited_for(page, lambda p: p.is_visible("#notice"), 5) is not None
    assert "not answering" in page.inner_text("#notice")


def test_a_server_gone_quiet_is_said_and_the_page_catches_up_when_it_wakes(ok, serving, page_at):
    """The laptop running serve is closed: its process stops, the connection stays open and nothing comes.
    After two keep-alives of silence the page says its scores may be old; the hand recorded meanwhile (on
    a phone) shows once the server wakes, and the notice goes. A phone that slept itself is not told so."""
    make(ok, "standard")
    served = serving()
    page = page_at(served.base + "/", clock=True)
    before = scores_on(page)
    last_heard = page.evaluate("new Date(heard).toLocaleTimeString()")
    page.clock.fast_forward(60_000)  # the phone's own screen off a minute: its timers late, not the server
    page.wait_for_timeout(300)
    assert not page.is_visible("#notice")
    served.process.send_signal(signal.SIGSTOP)
    try:
        ok("hand", "ben", "2", "40")
        page.clock.run_for(40_000)
        assert waited_for(page, lambda p: p.is_visible("#notice"), 5) is not None
        assert f"Nothing heard from the server since {last_heard} " in page.inner_text("#notice")
        assert scores_on(page) == before
    finally:
        served.process.send_signal(signal.SIGCONT)
    assert waited_for(page, lambda p: scores_on(p) != before and not p.is_visible("#notice"), 10) is not None


# Each sum of a hand's words ("13 - 3 = 10") as the lines it is drawn on: one line each, or it was broken.
# (How many were looked at, and those broken.)
SUMS_BROKEN = """() => {
  const broken = [];
  let seen = 0;
  for (const words of document.querySelectorAll('.hand-words, #tables p.dim')) {
    const walker = document.createTreeWalker(words, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const sum of text.data.matchAll(/\\d+[\\s\u00a0][-+][\\s\u00a0]\\d+[\\s\u00a0]=[\\s\u00a0]\\d+/g)) {
        const range = document.createRange();
        range.setStart(text, sum.index);
        range.setEnd(text, sum.index + sum[0].length);
        seen += 1;
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(sum[0]);
      }
    }
  }
  return [seen, broken];
}"""


@pytest.mark.parametrize("page, width", [("/", 360), ("/", 390), ("/club", 320), ("/club", 336)])
def test_a_hands_sum_is_never_broken_over_two_lines_on_a_phone(ok, serving, page_at, page, width):
    """"3 + 10 =" at the end of one line and "13" on the next reads as two numbers: each sum of the last
    hands stays on one line, whatever the names around it, on the session's page and the club's."""
    ok("new", "three", "Ægir", "Bartholomew Featherstonehaugh", "Cy", "--box", "ægir", "--captain", "bart")
    for hand in (("bart", "3", "13"), ("cy", "0", "40"), ("ægir", "4", "13"), ("bart", "2", "31"), ("cy", "9", "10")):
        ok("hand", *hand)
    ok("new", "standard", "Team 1 - 2", "\u05e9\u05e8\u05d4 \u05db\u05d4\u05df", "--dealer", "team")
    ok("hand", "team", "2", "31")
    ok("use", "three-1")
    shown = page_at(serving().base + page, width=width)
    seen, broken = shown.evaluate(SUMS_BROKEN)
    assert seen >= (5 if page == "/" else 2) and broken == []


# What a phone cannot read: a score wider than its cell (three such run together into one number),
# and a word of a name or heading broken over two lines ("Margar" / "et").
UNREADABLE = """() => {
  const problems = [];
  for (const total of document.querySelectorAll('.total')) {
    if (total.scrollWidth > total.clientWidth) problems.push('wider than its cell: ' + total.textContent);
  }
  for (const shown of document.querySelectorAll('.name, thead th')) {
    const text = shown.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    let at = 0;
    for (const word of text.data.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) problems.push('broken: ' + word);
      at += word.length + 1;
    }
  }
  return problems;
}"""


def test_every_score_and_name_reads_whole_on_a_phone(ok, serving, page_at):
    """A won Hollywood game has three-digit scores, side by side in three columns; names of a dozen
    letters sit beside them (drawn smaller where they would break), and three players share the width
    in three-player."""
    ok("new", "hollywood", "Bartholomew", "Christabelle", "--dealer", "bar")
    for hand in (("bar", "4", "22"), ("chr", "0", "40"), ("bar", "3", "5"), ("chr", "2", "30"), ("bar", "0", "50"),
                 ("chr", "1", "40"), ("chr", "0", "60")):
        ok("hand", *hand)
    ok("new", "three", "Alexandrina", "Bartholomew", "Christabelle", "--box", "ale", "--captain", "bar")
    ok("hand", "ale", "4", "22")
    served = serving()
    for session, address in (("hollywood-1", "/"), ("three-1", "/"), ("three-1", "/club")):
        ok("use", session)
        page = page_at(served.base + address)
        if session == "hollywood-1" and address == "/":  # the last five hands, newest first
            assert page.eval_on_selector_all(".hand-number", "all => all.map(e => e.textContent)") == list("76543")
        for width, height in ((360, 640), (390, 844), (600, 900)):  # the page is laid out again, as a phone turned
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate(UNREADABLE) == [], (address, session, width)


def test_a_hollywood_game_over_shows_each_final_with_its_bonuses(ok, status, serving, page_at):
    """H3 per game (R19): the points of a game won and its final, bonuses added, as `status` gives them."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--box-bonus", "20", "--shutout")
    for hand in (("ann", "4", "22"), ("ann", "0", "50"), ("ben", "2", "30"), ("ann", "0", "60"), ("ann", "0", "40")):
        ok("hand", *hand)
    page = page_at(serving().base + "/")
    shown = page.eval_on_selector_all(".game-cell", "all => all.map(c => c.querySelector('.final')?.textContent)")
    games = status()["games"]
    assert shown == [f"final {game['final'][player]}" if game["final"][player] != game["scores"][player] else None
                     for player in ("Ann", "Ben") for game in games]
    assert shown[:4] == ["final 338", "final 600", "final 580", "final 48"]


def test_the_ladder_numbers_tied_players_as_ratings_does(ok, serving, page_at):
    """Equal ratings over as many games share a place: 1, 1, 3, 3, as `ratings` numbers them. (The
    session page of the last game says its final, bonus added, and who pays whom, as `status` does.)"""
    for winner, loser in (("Ann", "Ben"), ("Cy", "Dee")):
        ok("new", "standard", winner, loser, "--dealer", winner, "--target", "50", "--game-bonus", "100",
           "--stake", "0.5")
        ok("hand", winner, "0", "40")
    served = serving()
    page = page_at(served.base + "/club")
    ladder = page.eval_on_selector_all("#ladder tbody tr",
                                       "all => all.map(r => [...r.cells].slice(0, 2).map(c => c.textContent))")
    printed = [line.split()[:2] for line in ok("ratings").stdout.splitlines()[2:6]]
    assert ladder == printed and [place for place, _ in ladder] == ["1", "1", "3", "3"]
    page = page_at(served.base + "/")
    assert page.eval_on_selector_all(".final", "all => all.map(e => e.textContent)") == ["final 165"]  # Dee's is 0
    settlement = page.inner_text(".settlement")
    assert settlement.startswith("Dee pays Cy 82.50") and settlement in ok("status").stdout.replace("\n", " ")


# Each element's text in the order its glyphs are drawn, left to right, line by line.
DRAWN = """(selector) => [...document.querySelectorAll(selector)].map((shown) => {
  const glyphs = [];
  const walk = document.createTreeWalker(shown, NodeFilter.SHOW_TEXT);
  for (let text = walk.nextNode(); text; text = walk.nextNode()) {
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width) glyphs.push([Math.round(box.top / 10), box.left, text.data[i]]);
    }
  }
  glyphs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return glyphs.map((glyph) => glyph[2]).join('');
})"""


def test_names_written_right_to_left_keep_the_numbers_beside_them_in_place(ok, serving, page_at):
    """A Hebrew name is drawn right to left, and nothing else moves: the count of hands stays after
    the names and the loser's score after the loser's name."""
    david, sarah = "דוד", "שרה"
    ok("new", "standard", david, sarah, "--dealer", david)
    for hand in ((david, "4", "22"), (sarah, "0", "12"), (sarah, "0", "60")):
        ok("hand", *hand)
    page = page_at(serving().base + "/", 1280, 800)
    subtitle, winner = page.evaluate(DRAWN, "#subtitle span:first-child, .winner-words")
    assert subtitle == f"Standard · {david[::-1]} v {sarah[::-1]} · 3 hands played"
    assert winner == f"{sarah[::-1]} wins the game with 122 ({david[::-1]} 18)."


def test_a_pinned_session_renamed_elsewhere_is_followed(ok, status, serving, page_at):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "Friday")
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    page = page_at(serving("--session", "fri").base + "/")
    ok("rename", "--session", "Friday", "Friday at Ann's")
    ok("hand", "ann", "3", "20", "--session", "Friday at Ann's")
    renamed = scores_of(status("--session", "Friday at Ann's"))
    took = waited_for(page, lambda p: p.inner_text("h1") == "Friday at Ann's" and scores_on(p) == renamed)
    assert took is not None, page.inner_text("main")
    assert page.is_hidden("#notice")
    ok("rename", "--session", "standard", "Friday")  # (another session takes the old name)
    ok("delete", "Friday at Ann's", "--yes")
    assert waited_for(page, lambda p: p.is_visible("#notice")) is not None
    assert "The session 'Friday at Ann's' is no longer in the file" in page.inner_text("#notice")  # as last seen


def test_a_change_the_game_never_reached_is_said_on_the_page_as_status_says_it_h8(ok, serving, page_at):
    """Hands 1-2, a change from hand 3, then an edit ends the game at hand 2: the page heads it with the
    rules it ended under and says the change never came into force, as `status` does; an undo brings
    hand 2 back to play, the change with it, and the page says so by itself, and from which hand."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "50")
    ok("hand", "ann", "2", "12")
    ok("house", "--game-bonus", "100", "--from-next")
    ok("edit", "2", "ann", "0", "20")
    never = "The house rules agreed from hand 3 on never came into force: the game ended at hand 2 (H8)."
    assert never in " ".join(ok("status").stdout.split())
    page = page_at(serving().base + "/")
    assert page.inner_text(".rules-note") == never
    assert "game bonus" not in page.inner_text(".rules")
    ok("undo", "--yes")
    assert waited_for(page, lambda p: p.query_selector(".rules-note") is None) is not None
    assert "game bonus 100" in page.inner_text(".rules")
    assert page.inner_text(".rules").startswith("House rules from hand 2: ")  # as status heads them
    assert ok("status").stdout.splitlines()[1].startswith("House rules from hand 2: ")


def test_totals_of_many_digits_fit_their_cards_on_a_small_phone_h5(ok, serving, page_at):
    """H5 allows a target and bonuses up to 1,000,000,000: a card was sized for three digits, so 1098 ran
    under the next player's card at 320 pixels, and ten digits made the page scroll sideways."""
    big = "1000000000"
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--target", "2000",
       "--gin-bonus", "1000", "--name", "four digits")
    ok("hand", "ann", "0", "98")  # 1098
    for variant in ("standard", "hollywood", "three"):
        players = ("Ann", "Ben", "Cy") if variant == "three" else ("Ann", "Ben")
        seats = ("--box", "ann", "--captain", "ben") if variant == "three" else ("--dealer", "ann")
        ok("new", variant, *players, *seats, "--target", big, "--gin-bonus", big, "--name", f"ten digits {variant}")
        ok("hand", "ann", "0", "98")  # 1000000098, in each open game of Hollywood too
    served = serving()
    for session in ("four digits", "ten digits standard", "ten digits hollywood", "ten digits three"):
        ok("use", session)
        page = page_at(served.base + "/", 320, 640)
        for width in (320, 390):
            page.set_viewport_size({"width": width, "height": 700})
            assert page.evaluate(UNREADABLE) == [], (session, width)
            assert no_sideways_scroll(page), (session, width)
