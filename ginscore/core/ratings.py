"""Ratings across sessions: a ladder of every player over every finished game (OpenSkill). The
choices are in docs/ratings.md."""

from __future__ import annotations

from ginscore.core.names import fold
from ginscore.core.replay import Standings
from ginscore.core.session import SessionFacts
from ginscore.core.times import instant, time_order

MODEL = "PlackettLuce"


def _model():
    """OpenSkill's Plackett-Luce model, imported only when a rating is made: the import is slow."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rated_games(facts: SessionFacts, standings: Standings) -> list[dict]:
    """The finished games of one session as plain data, each one match to rate (docs/ratings.md)."""
    started = instant(facts.created_at)
    games = []
    for game in standings.games:
        if game.winner is None:  # still in play: not rated
            continue
        finished = facts.hands[game.closed_by - 1].recorded_at
        others = [p for p in facts.players if p != game.winner]
        finals = sorted({game.final[p] for p in others}, reverse=True)
        games.append({
            "session": facts.name,
            "variant": facts.variant,
            "game": game.number,
            "finished": finished,
            "when": instant(finished) or started,
            "started": started,
            # [name, rank]: the winner first (1), the others by their final scores (H3), equal finals sharing a rank
            "ranks": [[game.winner, 1]] + [[p, 2 + finals.index(game.final[p])] for p in others],
        })
    return games


def chosen(game: dict, variant: str | None, since: str | None) -> bool:
    """Whether ``--variant`` and ``--since`` (a YYYY-MM-DD day) keep a game (docs/ratings.md)."""
    if variant is not None and game["variant"] != variant:
        return False
    return since is None or (game["finished"] or game["started"])[:10] >= since


def shown_names(sessions: list[dict]) -> dict[str, str]:
    """Each folded name's spelling in the latest session it played (one with a hand), as ``stats`` shows it;
    a player of sessions with no hand yet, as there."""
    started = time_order(session["created_at"] for session in sessions)
    order = sorted(range(len(sessions)), key=lambda n: (started(sessions[n]["created_at"]), n))
    seated = {fold(name): name for n in order for name in sessions[n]["players"]}
    return seated | {fold(name): name for n in order if sessions[n]["played"] for name in sessions[n]["players"]}


def ladder(sessions: list[list[dict]], names: dict[str, str], *, variant: str | None, since: str | None,
           history: bool) -> dict:
    """``ratings --json`` from the games of each session, rated in the order docs/ratings.md gives;
    ``names`` says how to show each folded name (``shown_names``)."""
    model = _model()
    games = sorted(
        ((game["when"], game["started"], position, game["game"], game) for position, played in enumerate(sessions)
         for game in played if chosen(game, variant, since)),
        key=lambda entry: entry[:4],
    )
    ratings: dict = {}
    players: dict[str, dict] = {}
    for *_, game in games:
        keys = [fold(name) for name, _ in game["ranks"]]
        ranks = [rank for _, rank in game["ranks"]]
        teams = [[ratings[key] if key in ratings else model.rating()] for key in keys]
        for key, (name, rank), [rating] in zip(keys, game["ranks"], model.rate(teams, ranks=ranks)):
            ratings[key] = rating
            record = players.setdefault(key, {"spelled": name, "games": 0, "history": []})
            record["spelled"] = name
            record["games"] += 1
            record["last_played"] = game["finished"]
            if history:
                record["history"].append({
                    "session": game["session"], "variant": game["variant"],
                    "game": game["game"] if game["variant"] == "hollywood" else None,
                    "finished": game["finished"], "rank": rank, "of": len(keys),
                    "mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal(),
                })
    shown = [_line(names.get(key, record["spelled"]), ratings[key], record["games"], record["last_played"],
                   record["history"] if history else None) for key, record in players.items()]
    shown.sort(key=lambda line: (-line["ordinal"], -line["games"], fold(line["name"]), line["name"]))
    return {"model": MODEL, "players": shown}


def unrated(name: str) -> dict:
    """The ladder line of a player with no game rated: OpenSkill's starting rating and an empty history."""
    return _line(name, _model().rating(), 0, None, [])


def _line(name: str, rating, games: int, last_played: str | None, history: list | None) -> dict:
    """One player of ``ratings --json``; ``history`` only when it was asked for (not None)."""
    line = {"name": name, "mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal(), "games": games,
            "last_played": last_played}
    return line if history is None else line | {"history": history}


def places(players: list[dict]) -> list[int]:
    """Each ladder line's rank: 1, 2, ...; lines of the same rating and games share one."""
    ranks = []
    for n, line in enumerate(players):
        same = n and (line["ordinal"], line["games"]) == (players[n - 1]["ordinal"], players[n - 1]["games"])
        ranks.append(ranks[-1] if same else n + 1)
    return ranks
