"""`ginscore ratings`: the OpenSkill ladder over every finished game."""

from __future__ import annotations

import itertools
import json
import math
import re
import unicodedata
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tests.support import in_two_time_zones

# Two players, one game (standard): the winner goes from 25 to about 27.64, sigma about 8.07.
WINNER_MU, LOSER_MU, TWO_SIGMA = 27.635389493140497, 22.364610506859503, 8.06590141354368


WINNER_ORDINAL, LOSER_ORDINAL = 3.437685252509457, -1.8330937337715376


# Three players, one game, the two losers level (R24, H3: equal finals share a rank).
THREE_WINNER_MU, THREE_WINNER_SIGMA = 27.869048680749426, 8.205243377397993


THREE_LEVEL_MU, THREE_LEVEL_SIGMA = 23.565475659625285, 8.058224222802378


def ladder(ok, *extra) -> dict:
    return {p["name"]: p for p in ok("ratings", "--json", *extra).json()["players"]}


def test_worked_example_two_players_one_game(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "98")  # gin: 123, the game (R11, R14)
    doc = ok("ratings", "--json").json()
    assert doc["model"] == "PlackettLuce"
    assert [list(p) for p in doc["players"]] == [["name", "mu", "sigma", "ordinal", "games", "last_played"]] * 2
    ann, ben = doc["players"]
    assert ann["name"] == "Ann" and ben["name"] == "Ben"
    assert ann["mu"] == pytest.approx(WINNER_MU, abs=1e-12) and ben["mu"] == pytest.approx(LOSER_MU, abs=1e-12)
    assert ann["sigma"] == pytest.approx(TWO_SIGMA, abs=1e-12) and ben["sigma"] == pytest.approx(TWO_SIGMA, abs=1e-12)
    assert ann["ordinal"] == pytest.approx(WINNER_ORDINAL, abs=1e-12)
    assert ben["ordinal"] == pytest.approx(LOSER_ORDINAL, abs=1e-12)
    assert ann["games"] == ben["games"] == 1
    assert ann["last_played"] == ok("log", "--json").json()["hands"][0]["recorded_at"]
    out = ok("ratings").stdout
    assert out.splitlines()[2].split()[:6] == ["1", "Ann", "3.4", "27.64", "8.07", "1"]
    assert out.splitlines()[3].split()[:6] == ["2", "Ben", "-1.8", "22.36", "8.07", "1"]


def test_worked_example_three_players_level_losers_share_a_rank_r24(ok):
    ok("new", "three", "Cy", "Dee", "Eve", "--box", "Cy", "--captain", "Dee")
    ok("hand", "cy", "0", "98")  # the box wins 123: Dee and Eve both end on 0
    doc = ladder(ok)
    assert doc["Cy"]["mu"] == pytest.approx(THREE_WINNER_MU, abs=1e-12)
    assert doc["Cy"]["sigma"] == pytest.approx(THREE_WINNER_SIGMA, abs=1e-12)
    for level in ("Dee", "Eve"):
        assert doc[level]["mu"] == pytest.approx(THREE_LEVEL_MU, abs=1e-12)
        assert doc[level]["sigma"] == pytest.approx(THREE_LEVEL_SIGMA, abs=1e-12)
    assert [line.split()[0] for line in ok("ratings").stdout.splitlines()[2:5]] == ["1", "2", "2"]  # shared rank


def test_three_player_losers_placed_by_final_scores_box_bonus_counts_r24_h3(ok):
    """The winner first; the other two by their final scores (H3: with box bonuses)."""
    ok("new", "three", "Cy", "Dee", "Eve", "--box", "Cy", "--captain", "Dee", "--target", "30", "--box-bonus", "25")
    ok("hand", "dee", "2", "7")  # the captain Dee wins 5: Dee into the box, Eve captains, Cy out (R23)
    ok("hand", "eve", "3", "9")  # the captain Eve wins 6: Eve into the box, Cy captains, Dee out
    ok("hand", "cy", "0", "40")  # Cy's gin: 65, the game (R14, R24)
    assert ok("status", "--json").json()["final"] == {"Cy": 90, "Dee": 30, "Eve": 31}
    doc = ladder(ok, "--player", "eve", "--player", "dee")
    assert [g["rank"] for g in doc["Eve"]["history"]] == [2] and [g["rank"] for g in doc["Dee"]["history"]] == [3]
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 3])
    assert [x for [r] in rated for x in (r.mu, r.sigma)] == pytest.approx(
        [27.869048680749426, 8.205243377397993, 25.717262170187357, 8.058224222802378,
         21.413689149063217, 8.058224222802378], abs=1e-12)  # openskill's own figures, as of 6.2
    for name, [rating] in zip(["Cy", "Eve", "Dee"], rated):
        assert ladder(ok)[name]["mu"] == pytest.approx(rating.mu, abs=1e-12)
        assert ladder(ok)[name]["sigma"] == pytest.approx(rating.sigma, abs=1e-12)


def test_hollywood_each_finished_game_is_one_match_r19(ok):
    """R17-R19: a series gives its games one at a time, each once it has a winner."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--target", "20")
    ok("hand", "ann", "0", "0")  # gin 25: game 1 only (R17), and Ann has won it
    assert ladder(ok)["Ann"]["games"] == 1
    ok("hand", "ann", "0", "0")  # game 2 only (R18: game 1 has ended): Ann wins it, and the series
    assert ok("status", "--json").json()["winner"] == "Ann"
    doc = ladder(ok, "--player", "ann")  # game 3 is still in play: not rated
    assert doc["Ann"]["games"] == 2 and [g["game"] for g in doc["Ann"]["history"]] == [1, 2]
    ok("hand", "ben", "0", "0")  # Ben wins game 3
    doc = ladder(ok, "--player", "ben")
    assert [(g["game"], g["rank"]) for g in doc["Ben"]["history"]] == [(1, 2), (2, 2), (3, 1)]
    model = PlackettLuce()
    ann, ben = model.rating(), model.rating()
    for winner in ("ann", "ann", "ben"):
        ranks = [1, 2] if winner == "ann" else [2, 1]
        [[ann], [ben]] = model.rate([[ann], [ben]], ranks=ranks)
    assert doc["Ben"]["mu"] == pytest.approx(ben.mu, abs=1e-12) and ladder(ok)["Ann"]["mu"] == \
        pytest.approx(ann.mu, abs=1e-12)


def test_games_in_play_are_not_rated(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    assert ok("ratings", "--json").json() == {"model": "PlackettLuce", "players": []}
    assert "No finished games yet" in ok("ratings").stdout


def test_one_person_however_spelled_shown_as_stats_shows_them(ok):
    ok("new", "standard", "José", "Ben", "--dealer", "Ben")
    ok("hand", "josé", "0", "98")
    ok("new", "standard", "JOSE", "Ben", "--dealer", "Ben")
    ok("hand", "jose", "0", "98")
    doc = ladder(ok)
    assert set(doc) == set(ok("stats", "--json").json()["players"]) and len(doc) == 2
    assert doc[next(n for n in doc if n != "Ben")]["games"] == 2
    ok("new", "standard", "jOsE", "Ben", "--dealer", "Ben")  # no hand yet: a session not played
    assert set(ladder(ok)) == set(ok("stats", "--json").json()["players"]) == {"JOSE", "Ben"}


def test_ratings_follow_edit_undo_house_delete_and_restore(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "one")
    ok("hand", "ann", "0", "98")
    assert ladder(ok)["Ann"]["mu"] == pytest.approx(WINNER_MU)
    ok("edit", "1", "ben", "0", "98")  # Ben won it after all
    assert ladder(ok)["Ben"]["mu"] == pytest.approx(WINNER_MU)
    ok("undo", "--yes")
    assert ladder(ok) == {}
    ok("hand", "ann", "2", "40")  # 38: not yet a game at 100
    assert ladder(ok) == {}
    ok("house", "--target", "30", "--from-start")  # now it is (H5): every hand rescored (H8)
    assert ladder(ok)["Ann"]["mu"] == pytest.approx(WINNER_MU)
    ok("delete", "one", "--yes")  # deleted sessions count nowhere
    assert ladder(ok) == {}
    ok("restore", "one")
    assert ladder(ok)["Ann"]["mu"] == pytest.approx(WINNER_MU)


def _session_doc(name, variant, players, created, hands, target=100, roles=None):
    rules = {"target": target, "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": None, "game_bonus": 0,
             "box_bonus": 0, "shutout": False, "spades_double": False, "ace_means_gin": False, "deal": "winner",
             "stake": "0"}
    return {"ginscore_export": 1, "session": {
        "name": name, "variant": variant, "players": list(players), "rules": rules,
        "first_dealer": None if roles else players[0], "first_roles": roles, "created_at": created,
        "hands": [{"type": "knock", "knocker": knocker, "knocker_deadwood": 0, "opponent_deadwood": 98,
                   "upcard": "KS" if variant == "oklahoma" else None, "big_gin": False, "recorded_at": at}
                  for knocker, at in hands]}}


def _imported(ok, tmp_path, doc) -> None:
    path = tmp_path / f"{doc['session']['name']}.json"
    path.write_text(json.dumps(doc))
    ok("import", path)


def test_games_rated_in_the_order_they_finished_whatever_the_offset(ok, tmp_path):
    """A session started later but finished first is rated first; times compare as instants."""
    _imported(ok, tmp_path, _session_doc("early", "standard", ["Ann", "Ben"], "2026-11-01T20:00:00+00:00",
                                         [("Ann", "2026-11-01T23:30:00+00:00")]))
    _imported(ok, tmp_path, _session_doc("late", "standard", ["Ann", "Cy"], "2026-11-01T21:00:00+00:00",
                                         [("Cy", "2026-11-01T23:40:00+02:00")]))  # 21:40 UTC: finished first
    model = PlackettLuce()
    ann, ben, cy = model.rating(), model.rating(), model.rating()
    [[cy], [ann]] = model.rate([[cy], [ann]], ranks=[1, 2])
    [[ann], [ben]] = model.rate([[ann], [ben]], ranks=[1, 2])
    doc = ladder(ok, "--player", "ann")
    assert doc["Ann"]["mu"] == pytest.approx(ann.mu, abs=1e-12)
    assert [g["session"] for g in doc["Ann"]["history"]] == ["late", "early"]
    assert [g["rank"] for g in doc["Ann"]["history"]] == [2, 1]


def test_variant_and_since_rate_only_those_games(ok, tmp_path):
    _imported(ok, tmp_path, _session_doc("old", "standard", ["Ann", "Ben"], "2026-10-01T20:00:00+00:00",
                                         [("Ann", "2026-10-01T21:00:00+00:00")]))
    _imported(ok, tmp_path, _session_doc("okla", "oklahoma", ["Ann", "Ben"], "2026-11-02T20:00:00+00:00",
                                         [("Ben", "2026-11-02T21:00:00+00:00")]))
    assert ladder(ok, "--variant", "oklahoma")["Ben"]["mu"] == pytest.approx(WINNER_MU, abs=1e-12)
    assert ladder(ok, "--since", "2026-11-01")["Ben"]["mu"] == pytest.approx(WINNER_MU, abs=1e-12)
    assert ladder(ok, "--variant", "hollywood") == {}
    assert "No finished games match" in ok("ratings", "--variant", "hollywood").stdout
    assert ladder(ok)["Ann"]["games"] == 2


def test_refusals_name_what_is_wrong(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    refused("ratings", "--player", "zed", says="nobody named 'zed' has played")
    refused("ratings", "--since", "yesterday", says="--since takes a date like 2026-11-01")
    refused("ratings", "--chart", "--json", says="not both")


def test_player_line_and_history(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "98")
    ok("rematch")
    ok("hand", "ben", "0", "98")
    doc = ok("ratings", "--json", "--player", "an").json()  # a unique prefix, as stats takes it
    [ann] = doc["players"]
    assert ann["name"] == "Ann" and ann["games"] == 2
    assert [(g["rank"], g["of"]) for g in ann["history"]] == [(1, 2), (2, 2)]
    assert ann["history"][0]["mu"] == pytest.approx(WINNER_MU, abs=1e-12)
    assert ann["history"][-1]["mu"] == ann["mu"] and ann["history"][-1]["sigma"] == ann["sigma"]
    out = ok("ratings", "--player", "ann").stdout
    assert "Ann" in out and "standard-1" in out and "standard-2" in out and "1 of 2" in out and "2 of 2" in out


def test_a_known_player_with_no_game_rated_starts_at_the_default(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    [ann] = ok("ratings", "--json", "--player", "ann").json()["players"]
    assert ann == {"name": "Ann", "mu": 25.0, "sigma": 25 / 3, "ordinal": pytest.approx(0.0, abs=1e-12),
                   "games": 0, "last_played": None, "history": []}
    assert "No games rated yet." in ok("ratings", "--player", "ann").stdout.splitlines()


def _evening(ok, games: int = 6) -> None:
    names = itertools.cycle([("Ann", "Ben"), ("Ben", "Cy"), ("Cy", "Ann")])
    for n in range(games):
        a, b = next(names)
        ok("new", "standard", a, b, "--dealer", a, "--target", "30")
        ok("hand", a if n % 3 else b, "0", "10")


LONG_NAMES = ("Alexandrina", "Bartholomew", "Christabelle")  # up to 12 characters, as at the table (docs/commands.md)


def _every_variant(ok) -> None:
    """A finished game of each variant between players of long names."""
    a, b, c = LONG_NAMES
    ok("new", "standard", a, b, "--dealer", a, "--target", "30")
    ok("hand", a, "0", "10")
    ok("new", "oklahoma", b, c, "--dealer", b, "--target", "30")
    ok("hand", c, "0", "10", "--upcard", "KS")
    ok("new", "hollywood", a, c, "--dealer", a, "--target", "30", "--name", "friday hollywood")
    for knocker in (a, a, c, c, c):
        if not ok("status", "--json").json()["over"]:
            ok("hand", knocker, "0", "10")
    ok("new", "three", a, b, c, "--box", a, "--captain", b, "--target", "30")
    ok("hand", b, "0", "10")


@pytest.mark.parametrize("columns", [80, 40, 24])
def test_the_ladder_fits_the_screen_every_figure_whole(ok, monkeypatch, columns):
    _every_variant(ok)
    monkeypatch.setenv("COLUMNS", str(columns))
    doc = ok("ratings", "--json").json()
    assert {p["name"] for p in doc["players"]} == set(LONG_NAMES)
    for args in (["ratings"], ["ratings", "--player", "alex", "--player", "chris"], ["ratings", "--chart"]):
        out = ok(*args).stdout
        assert "…" not in out
        assert max(len(line) for line in out.splitlines()) <= columns, (args, out)
        for name in LONG_NAMES if args == ["ratings"] else ():
            assert name in out
    out = ok("ratings").stdout
    for line in doc["players"]:  # every figure whole, at both widths
        for figure in (f"{line['mu']:.2f}", f"{line['sigma']:.2f}", f"{line['ordinal']:.1f}"):
            assert re.search(rf"(?<![0-9.]){re.escape(figure.replace('-0.0', '0.0'))}(?![0-9])", out), (figure, out)
    history = ok("ratings", "--player", "christabelle").stdout
    [christabelle] = ok("ratings", "--json", "--player", "christabelle").json()["players"]
    for game in christabelle["history"]:
        assert f"{game['ordinal']:.1f}" in history


def test_piped_output_is_plain_text(ok):
    _evening(ok)
    for args in (["ratings"], ["ratings", "--chart"], ["ratings", "--player", "ann"]):
        assert "\x1b[" not in ok(*args).stdout


def test_chart_draws_each_players_rating_game_by_game(ok):
    _evening(ok)
    out = ok("ratings", "--chart").stdout
    assert "B Ben  C Cy  A Ann" in out and " 0 |" in out  # in the order of the ladder
    only = ok("ratings", "--chart", "--player", "cy").stdout
    assert "C Cy" in only and "A Ann" not in only


PEOPLE = [("Ann", "ann", "ÁNN"), ("José", "Jose", "JOSÉ"), ("Ben", "BEN"), ("Cy", "cy")]


START = datetime(2026, 11, 1, 19, tzinfo=timezone.utc)


OFFSETS = [timezone.utc, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))]


def _fold(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


@st.composite
def evenings(draw):
    sessions = []
    for number in range(draw(st.integers(1, 5))):
        variant = draw(st.sampled_from(["standard", "oklahoma", "hollywood", "three"]))
        people = draw(st.permutations(range(len(PEOPLE))))[: 3 if variant == "three" else 2]
        players = [draw(st.sampled_from(PEOPLE[p])) for p in people]
        hands = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10), st.integers(0, 40),
                                        st.integers(0, 90), st.sampled_from(OFFSETS)), min_size=1, max_size=12))
        sessions.append({
            "name": f"s{number}", "variant": variant, "players": players,
            "target": draw(st.sampled_from([10, 25, 40])), "box_bonus": draw(st.sampled_from([0, 25])),
            "started": 30 * number + draw(st.integers(0, 29)), "hands": hands,
        })
    changes = draw(st.lists(st.tuples(st.sampled_from(["edit", "undo", "house", "delete", "restore"]),
                                      st.integers(0, 4), st.integers(1, 12), st.integers(0, 10),
                                      st.integers(0, 40), st.sampled_from([10, 25, 40, 100])), max_size=5))
    return sessions, changes


def _build(ok, tmp_path, sessions) -> None:
    """Each session imported whole with its own times; its hands made legal as they are drawn
    (the knocker one of those at the table, R22; none after the game is over) by replaying them."""
    from ginscore.core.cards import parse_card
    from ginscore.core.replay import replay
    from ginscore.core.session import Knock, Roles, SessionFacts
    from ginscore.core.scoring import HouseRules

    for s in sessions:
        three = s["variant"] == "three"
        facts = SessionFacts(s["name"], s["variant"], tuple(s["players"]),
                             HouseRules(target=s["target"], box_bonus=s["box_bonus"]),
                             first_dealer=None if three else s["players"][0],
                             first_roles=Roles(*s["players"]) if three else None)
        created = START + timedelta(minutes=s["started"])
        told, minutes = [], 0
        for who, knocker_deadwood, opponent_deadwood, later, offset in s["hands"]:
            standings = replay(facts._replace(hands=tuple(hand for hand, _ in told)))
            if standings.over:
                break
            table = [standings.roles.box, standings.roles.captain] if three else s["players"]
            minutes += later
            at = (created + timedelta(minutes=minutes)).astimezone(offset).isoformat()
            told.append((Knock(table[who % 2], knocker_deadwood, opponent_deadwood, parse_card("KS")), at))
        doc = _session_doc(s["name"], s["variant"], s["players"], created.isoformat(), [], s["target"],
                           Roles(*s["players"]).to_dict() if three else None)
        doc["session"]["rules"]["box_bonus"] = s["box_bonus"]
        doc["session"]["hands"] = [
            {"type": "knock", "knocker": hand.knocker, "knocker_deadwood": hand.knocker_deadwood,
             "opponent_deadwood": hand.opponent_deadwood, "upcard": "KS", "big_gin": False, "recorded_at": at}
            for hand, at in told]
        _imported(ok, tmp_path, doc)


def _reference(ok) -> dict[str, tuple[float, float, int]]:
    """Every live session's finished games, from `export`, `log` and `status`, through openskill."""
    rated = []
    live = ok("sessions", "--json", "--all").json()
    for place, row in enumerate(live):
        name = row["name"]
        facts = ok("export", "--format", "json", "--session", name).json()["session"]
        hands = ok("log", "--json", "--session", name).json()["hands"]
        status = ok("status", "--json", "--session", name).json()
        target = facts["rules"]["target"]
        games = status["games"] if facts["variant"] == "hollywood" else [
            {"winner": status["winner"], "final": status["final"]}]
        for number, game in enumerate(games, start=1):
            if game["winner"] is None:
                continue
            column = (lambda h: h["games"][number - 1]) if facts["variant"] == "hollywood" else (lambda h: h["totals"])
            closing = next(n for n, h in enumerate(hands) if column(h)[game["winner"]] >= target)
            others = sorted((p for p in facts["players"] if p != game["winner"]), key=lambda p: -game["final"][p])
            finals = sorted({game["final"][p] for p in others}, reverse=True)
            ranks = [[game["winner"], 1]] + [[p, 2 + finals.index(game["final"][p])] for p in others]
            finished = datetime.fromisoformat(facts["hands"][closing]["recorded_at"])
            started = datetime.fromisoformat(facts["created_at"])
            rated.append(((finished, started, place, number), ranks))
    model = PlackettLuce()
    ratings, games = {}, {}
    for _, ranks in sorted(rated, key=lambda r: r[0]):
        keys = [_fold(p) for p, _ in ranks]
        new = model.rate([[ratings.get(k) or model.rating()] for k in keys], ranks=[r for _, r in ranks])
        for key, [rating] in zip(keys, new):
            ratings[key] = rating
            games[key] = games.get(key, 0) + 1
    return {key: (r.mu, r.sigma, games[key]) for key, r in ratings.items()}


def _change(cli, sessions, change) -> None:
    """One change through the CLI; a refusal (exit 2: a later hand could not stand) changes nothing."""
    what, which, hand, knocker_deadwood, opponent_deadwood, target = change
    name = sessions[which % len(sessions)]["name"]
    if what == "edit":
        log = cli("log", "--json", "--session", name)
        if log.exit_code or not log.json()["hands"]:
            return
        hands = log.json()["hands"]
        number = 1 + (hand - 1) % len(hands)
        done = cli("edit", number, hands[number - 1]["knocker"], knocker_deadwood, opponent_deadwood,
                   "--session", name, "--upcard", "KS")
    elif what == "undo":
        done = cli("undo", "--yes", "--session", name)
    elif what == "house":
        done = cli("house", "--target", target, "--session", name, "--from-start")
    elif what == "delete":
        done = cli("delete", name, "--yes")
    else:
        done = cli("restore", name)
    assert done.exit_code in (0, 2), (change, done.stderr)


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(evening=evenings())
def test_ratings_are_openskill_over_the_finished_games_in_order(ok, cli, tmp_path, monkeypatch, evening):
    """Every player's mu and sigma as openskill gives them, to 1e-9, after deletes, edits and
    house changes (R14-R24, H3, H5 decide who won each game, and so the ratings)."""
    sessions, changes = evening
    folder = tmp_path / f"evening-{next(_EVENINGS)}"
    folder.mkdir()
    monkeypatch.setenv("GINSCORE_DB", str(folder / "ginscore.json"))
    _build(ok, folder, sessions)
    for change in changes:
        _change(cli, sessions, change)
    expected = _reference(ok)
    doc = ok("ratings", "--json").json()
    got = {_fold(p["name"]): p for p in doc["players"]}
    assert set(got) == set(expected)
    for key, (mu, sigma, games) in expected.items():
        assert abs(got[key]["mu"] - mu) <= 1e-9 and abs(got[key]["sigma"] - sigma) <= 1e-9, key
        assert got[key]["games"] == games
        assert got[key]["ordinal"] == pytest.approx(got[key]["mu"] - 3 * got[key]["sigma"], abs=1e-9)
    order = [(-p["ordinal"], -p["games"]) for p in doc["players"]]
    assert order == sorted(order)  # by rating, then by games rated
    shown = set(ok("stats", "--json").json()["players"])
    assert {p["name"] for p in doc["players"]} <= shown  # each player spelled as stats spells them


_EVENINGS = itertools.count()


def test_names_are_shown_literally_never_as_markup(ok):
    ok("new", "standard", "[bold]Ann", "Zoë", "--dealer", "Zoë")
    ok("hand", "zo", "0", "98")
    for args in (["ratings"], ["ratings", "--chart"], ["ratings", "--player", "[bold]"]):
        assert "[bold]Ann" in ok(*args).stdout, args


def test_a_player_is_spelled_as_in_the_session_started_last_whatever_the_offset(ok, clock):
    in_two_time_zones(ok, clock, *([["new", "standard", name, "Ben", "--dealer", "ben", "--target", "30"],
                                    ["hand", "ann", "0", "10"]] for name in ("ANN", "Ann")))
    assert set(ladder(ok)) == {"Ann", "Ben"}


def test_games_finished_at_one_moment_are_rated_in_the_order_their_sessions_started(ok, tmp_path):
    """docs/ratings.md: the same finish time, so the session started first is rated first (Ben's win),
    then Ann's: Ann, who won last, leads."""
    _imported(ok, tmp_path, _session_doc("second", "standard", ["Ann", "Ben"], "2026-01-02T20:00:00+00:00",
                                         [("Ann", "2026-01-02T22:00:00+00:00")]))
    _imported(ok, tmp_path, _session_doc("first", "standard", ["Ann", "Ben"], "2026-01-01T20:00:00+00:00",
                                         [("Ben", "2026-01-02T22:00:00+00:00")]))
    assert [g["session"] for g in ladder(ok, "--player", "ann")["Ann"]["history"]] == ["first", "second"]
    assert [p["name"] for p in ok("ratings", "--json").json()["players"]] == ["Ann", "Ben"]


def test_tied_players_share_a_place_and_the_next_place_skips_them(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "75")
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    ok("hand", "cy", "0", "75")
    rows = [line.split()[:2] for line in ok("ratings").stdout.splitlines() if line[:1].isdigit()]
    assert rows == [["1", "Ann"], ["1", "Cy"], ["3", "Ben"], ["3", "Dee"]]


def test_since_keeps_the_games_of_the_day_given(ok, tmp_path):
    _imported(ok, tmp_path, _session_doc("day", "standard", ["Ann", "Ben"], "2026-01-03T20:00:00+00:00",
                                         [("Ann", "2026-01-03T21:00:00+00:00")]))
    assert set(ladder(ok, "--since", "2026-01-03")) == {"Ann", "Ben"}


def test_since_goes_by_the_day_a_game_finished_not_the_day_its_session_started(ok, tmp_path):
    """docs/ratings.md: `--since` rates the games finished on or after that day. A session started on the
    evening of 31 October and won after midnight is a game of 1 November."""
    _imported(ok, tmp_path, _session_doc("midnight", "standard", ["Ann", "Ben"], "2026-10-31T23:00:00+00:00",
                                         [("Ann", "2026-11-01T00:30:00+00:00")]))
    found = ladder(ok, "--since", "2026-11-01")
    assert set(found) == {"Ann", "Ben"} and found["Ann"]["games"] == 1
    assert found["Ann"]["mu"] == pytest.approx(WINNER_MU, abs=1e-12)  # the one game, won
    assert ladder(ok, "--since", "2026-11-02") == {}


def test_since_takes_a_game_without_a_time_by_the_day_its_session_started(ok, tmp_path):
    """docs/ratings.md: a game whose hand has no time goes by the day its session started."""
    _imported(ok, tmp_path, _session_doc("untimed", "standard", ["Ann", "Ben"], "2026-11-02T20:00:00+00:00",
                                         [("Ben", None)]))
    assert ladder(ok, "--since", "2026-11-02")["Ben"]["games"] == 1
    assert ladder(ok, "--since", "2026-11-03") == {}


def test_a_players_rating_history_says_when_each_game_finished_and_which_hollywood_game(ok, clock, monkeypatch):
    clock("2026-12-05T21:15:00+01:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "0", "80")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--name", "holly")
    ok("hand", "ann", "0", "80")  # game 1 of the series finished and rated (R19)
    monkeypatch.setenv("COLUMNS", "120")
    rows = [line.split()[:6] for line in ok("ratings", "--player", "ann").stdout.splitlines()]
    assert ["1", "2026-12-05", "21:15", "fri", "1", "of"] in rows
    assert ["2", "2026-12-05", "21:15", "holly", "(game", "1)"] in rows


def test_the_ratings_chart_labels_its_top_its_zero_and_its_bottom(ok):
    """The axis runs from the highest rating to the lowest, each rounded outwards to a whole number."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "80")
    ok("rematch")
    ok("hand", "ann", "0", "80")
    players = ok("ratings", "--json", "--player", "ann", "--player", "ben").json()["players"]
    ratings = [game["ordinal"] for line in players for game in line["history"]]
    labels = [line.split("|")[0].strip() for line in ok("ratings", "--chart").stdout.splitlines() if "|" in line]
    assert [label for label in labels if label] == [str(math.ceil(max(ratings))), "0", str(math.floor(min(ratings)))]
    assert labels[0] and labels[-1]  # the top row and the bottom row


def test_a_chart_of_every_rated_player_says_nothing_about_players_left_out(ok):
    """Nine players, as many as a chart draws: none is left out, so none is said to be."""
    names = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
    for box, captain, out in (names[0:3], names[3:6], names[6:9]):
        ok("new", "three", box, captain, out, "--box", box, "--captain", captain)
        ok("hand", box.lower(), "0", "80")  # the box wins the game at once
    out = ok("ratings", "--chart").stdout
    assert all(f" {name}" in out for name in names) and "not drawn" not in out


def test_a_ratings_chart_with_nothing_to_draw_says_why(ok):
    """An empty frame tells the table nothing: each way of having no rated game says which it is."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    assert ok("ratings", "--chart").stdout == "No finished games yet, so there is nothing to draw.\n"
    ok("hand", "ann", "0", "10")
    ok("new", "standard", "Ann", "Cy", "--dealer", "ann")
    assert ok("ratings", "--chart", "--variant", "oklahoma").stdout == (
        "No finished games match, so there is nothing to draw.\n")
    assert ok("ratings", "--chart", "--player", "cy").stdout == (
        "No game of theirs is rated, so there is nothing to draw.\n")


def test_a_ratings_chart_says_what_it_draws_and_where_everyone_starts(ok):
    """Its title names the figure drawn and its key says the dashes are 0, where every player starts."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    lines = ok("ratings", "--chart").stdout.splitlines()
    assert lines[0] == "Rating (mu - 3 sigma) after each game" and " 0 |- -" in lines, lines
    assert lines[-1] == "* several   - - 0, the start   each player's games from their first", lines


def test_a_ratings_chart_of_more_players_than_it_tells_apart_says_how_many_are_left_out(ok):
    """A chart draws nine players at most; the others must not vanish silently: it counts them and says
    how to draw them."""
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]  # ten: one more than it draws
    for first, second in zip(names[::2], names[1::2]):
        ok("new", "standard", first, second, "--dealer", first, "--target", "20")
        ok("hand", first, "0", "10")
    assert ok("ratings", "--chart").stdout.splitlines()[-1] == (
        "1 more player not drawn: name the players to draw with --player NAME.")


def test_a_ratings_chart_of_more_players_named_than_it_tells_apart_is_refused(ok, refused):
    """Ten players named for one chart: refused, saying how many it can draw, rather than some dropped."""
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
    for first, second in zip(names[::2], names[1::2]):
        ok("new", "standard", first, second, "--dealer", first, "--target", "20")
        ok("hand", first, "0", "10")
    named = [word for name in names for word in ("--player", name)]
    refused("ratings", "--chart", *named, says="a chart tells 9 players apart; name at most 9 with --player")
    assert " Ida" in ok("ratings", "--chart", *named[2:]).stdout
