"""The pages of `ginscore serve` in a real browser: what they show equals `status --json`, they
change by themselves when a hand is recorded, and a phone never scrolls sideways."""

from __future__ import annotations

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


def test_a_hand_recorded_shows_on_the_open_page_without_a_reload(ok, status, serving, page_at):
    make(ok, "standard")
    page = page_at(serving().base + "/")
    page.evaluate("window.notReloaded = true")
    before = scores_on(page)
    ok("hand", "ben", "2", "40")
    took = waited_for(page, lambda p: scores_on(p) != before)
    assert took is not None, "the page did not change within 2 s"
    assert page.evaluate("window.notReloaded === true")
    assert scores_on(page) == scores_of(status())
    assert "Ben knocked with 2" in page.inner_text("#hands")


def test_the_page_follows_the_current_session_and_says_when_it_is_over(ok, status, serving, page_at):
    make(ok, "standard")
    page = page_at(serving().base + "/")
    ok("hand", "ben", "0", "90")  # Ben reaches 100 and wins
    assert waited_for(page, lambda p: p.query_selector(".winner-words") is not None) is not None
    assert page.inner_text(".winner-words").startswith("Ben wins the game")
    ok("rematch", "--yes")
    assert waited_for(page, lambda p: p.inner_text("h1") == status()["session"]) is not None


def test_the_club_board_shows_every_table_of_today_and_changes_by_itself(ok, serving, page_at):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "table-1")
    ok("hand", "ann", "3", "20")
    ok("new", "three", "Cy", "Dee", "Eve", "--box", "cy", "--captain", "dee", "--name", "table-2")
    page = page_at(serving().base + "/club")
    cards = page.eval_on_selector_all(".table-card", "all => all.map(c => c.dataset.session)")
    assert sorted(cards) == ["table-1", "table-2"]

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
