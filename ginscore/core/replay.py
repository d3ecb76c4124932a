"""Replay a session's facts (``core/session.py``) into standings: each hand's result, every game's
column, the winner and who deals next (R5, R12-R25, H3, H6, H8; docs/architecture.md). It is the one
place a hand is checked against the state of the game, so recording, editing and importing refuse
the same things. Every variant is a list of games: one, or three for Hollywood (R17).
"""

from typing import NamedTuple

from ginscore.core.cards import Card
from ginscore.core.errors import BadHand, BadHandAt, BadSetting, GameOver, NEXT_GAME, NotInHand, Refused, UnknownPlayer
from ginscore.core.names import check_count, check_players, check_readable, spelled_as
from ginscore.core.scoring import ALTERNATE, DRAW, LOSER_DEALS, HandScore, HouseRules, is_doubled, knock_limit, limit_rule
from ginscore.core.scoring import check_upcard_suit, score_hand
from ginscore.core.session import Draw, Hand, in_hand, Roles, SessionFacts


class Bonuses(NamedTuple):
    """One player's end-of-game bonuses in one game, each by name (H3); 0 where not earned."""

    game: int = 0
    box: int = 0
    shutout: int = 0  # what the doubling added: the player's hand points and other bonuses once more


class Game:
    """One game's column: hand points, wins credited, and how it ended (H3). A plain mutable class,
    not a dataclass, which every command would pay for at import."""

    __slots__ = ("number", "scores", "wins", "winner", "closed_by", "final", "bonuses")

    def __init__(self, number: int, scores: dict[str, int], wins: dict[str, int]):
        self.number = number
        self.scores = scores  # hand points, without the end-of-game bonuses (H3)
        self.wins = wins  # hands won credited to this game
        self.winner: str | None = None
        self.closed_by: int | None = None  # number of the hand that won it
        self.final: dict[str, int] | None = None  # hand points + bonuses (H3), once won
        self.bonuses: dict[str, Bonuses] | None = None  # each player's bonuses by name (H3), once won

    @property
    def is_open(self) -> bool:
        return self.winner is None


class HandResult(NamedTuple):
    """One replayed hand: who dealt, what it scored, the columns after it."""

    number: int
    hand: Hand
    dealer: str
    roles: Roles | None  # three-player roles this hand was played with
    opponent: str | None
    score: HandScore | None  # None on a draw
    winner: str | None
    knock_limit: int | None
    credited: tuple[int, ...]  # game numbers the win was credited to (R17, R18)
    scores_after: tuple[dict[str, int], ...]  # every game's column after this hand
    closed: tuple[int, ...]  # games this hand won

    @property
    def outcome(self) -> str:
        return self.score.outcome if self.score else DRAW

    @property
    def points(self) -> int | None:
        return self.score.points if self.score else None


class Standings(NamedTuple):
    """A session replayed: the answer to every 'who is ahead' question."""

    facts: SessionFacts
    hands: tuple[HandResult, ...]
    games: tuple[Game, ...]
    next_dealer: str | None  # None once the session is over
    roles: Roles | None  # three-player roles for the next hand; None once over
    winner: str | None
    over: bool
    rematch_dealer: str | None  # who would deal next had the session gone on (rematch)
    rematch_roles: Roles | None

    @property
    def totals(self) -> dict[str, int]:
        """Hand points; for Hollywood, game 1's column."""
        return dict(self.games[0].scores)

    @property
    def final(self) -> dict[str, int] | None:
        """Scores with end-of-game bonuses (H3) once the session is over."""
        if not self.over:
            return None
        return {p: sum(g.final[p] for g in self.games) for p in self.facts.players}


class _ReplayState:
    """The running state while hands are replayed."""

    def __init__(self, facts: SessionFacts):
        self.facts = facts
        self.games = [Game(n, dict.fromkeys(facts.players, 0), dict.fromkeys(facts.players, 0))
                      for n in range(1, 4 if facts.variant == "hollywood" else 2)]  # R17: Hollywood plays three
        self.dealer = facts.first_dealer
        self.roles = facts.first_roles
        self.rules = facts.rules_for(1)  # H8: the rules of the hand being played
        self.results: list[HandResult] = []

    @property
    def over(self) -> bool:
        return all(not g.is_open for g in self.games)

    @property
    def current_dealer(self) -> str | None:
        """Who deals the hand to be played: in three-player the box (R22)."""
        return self.roles.box if self.roles else self.dealer

    def winner(self) -> str | None:
        """Who has won the session so far: the game's winner; in Hollywood, who won two of the three (R19)."""
        if self.facts.variant != "hollywood":
            return self.games[0].winner
        for player in self.facts.players:
            if sum(g.winner == player for g in self.games) >= 2:
                return player
        return None

    def play(self, number: int, hand: Hand) -> None:
        """Play hand ``number``: refuse it if it cannot stand here, score it, credit it and note its result."""
        facts = self.facts
        if self.over:
            raise game_over(facts, self.winner())
        self.follow_rules(number)
        self._take_dealt(hand)
        roles = self.roles
        dealer = self.current_dealer
        opponent = score = winner = limit = None
        credited = closed = ()
        if isinstance(hand, Draw):  # R12, R25: nobody scores, same dealer, same roles
            self._check_upcard(hand.upcard, needed=False)
        else:
            opponent = self._opponent(hand.knocker)
            self._check_upcard(hand.upcard, needed=facts.variant == "oklahoma")
            limit = knock_limit(facts.variant, self.rules, hand.upcard)
            score = score_hand(
                self.rules,
                hand.knocker_deadwood,
                hand.opponent_deadwood,
                limit=limit,
                limit_rule_id=limit_rule(facts.variant),
                big_gin=hand.big_gin,
                doubled=is_doubled(facts.variant, self.rules, hand.upcard),
                knocker=hand.knocker,
                opponent=opponent,
            )
            winner = hand.knocker if score.knocker_wins else opponent  # R13
            credited, closed = self._credit(winner, score.points, number)
            if roles:
                self.roles = roles.after(box_won=winner == roles.box)  # R23 (the box deals, R22)
            else:
                self.dealer = self._next_dealer(dealer, winner, facts.rules_for(number + 1))
        self.results.append(HandResult(number, hand, dealer, roles, opponent, score, winner, limit, credited,
                                       scores_after=tuple(dict(g.scores) for g in self.games), closed=closed))

    def follow_rules(self, number: int) -> None:
        """H8: play on under the rules in force from hand ``number``, refused if their target is already reached."""
        rules = self.facts.rules_for(number)
        if rules is self.rules:
            return
        self.rules = rules
        for game in self.games:
            if not game.is_open:
                continue
            for player, score in game.scores.items():
                if score >= rules.target:
                    where = f" in game {game.number}" if self.facts.variant == "hollywood" else ""
                    raise BadSetting(f"the target {rules.target} in force from hand {number} on is already reached: "
                                     f"{player} has {score}{where}, so the game would have ended before (H5, H8)")

    def _take_dealt(self, hand: Hand) -> None:
        """H8: a hand that keeps who dealt it (or its roles) is played so, whatever the deal rule would give."""
        if hand.roles is not None:
            if self.roles is None:
                raise BadHand("this hand keeps three-player roles (box, captain, out), but two play in this session")
            _check_roles(self.facts.players, hand.roles, "a role in this hand", BadHand, "the roles of this hand")
            self.roles = hand.roles
        elif hand.dealer is not None:
            if self.roles is not None:
                raise BadHand(f"this hand keeps a dealer ({hand.dealer}), but in three-player the box deals (R22): "
                                 "it keeps its roles instead")
            if hand.dealer not in self.facts.players:
                raise not_playing(self.facts.players, hand.dealer, "dealt this hand but ")
            self.dealer = hand.dealer

    def _next_dealer(self, dealer: str, winner: str, rules: HouseRules) -> str:
        """Who deals after a decided two-player hand (R5, H6), by the deal rule of that next hand (H8)."""
        deal = rules.deal
        if deal == LOSER_DEALS:  # H6: the loser deals
            return next(p for p in self.facts.players if p != winner)
        if deal == ALTERNATE:  # H6: the deal passes to the other player
            return next(p for p in self.facts.players if p != dealer)
        return winner  # R5, H6 default: the winner deals next

    def _opponent(self, knocker: str) -> str:
        """Who plays this hand against ``knocker``; refused when the knocker is no player or sits out (R22)."""
        if knocker not in self.facts.players:
            raise not_playing(self.facts.players, knocker)
        if self.roles is not None and knocker == self.roles.out:  # R21, R22
            raise NotInHand(
                f"{knocker} sits out this hand; only {self.roles.box} (box) and "
                f"{self.roles.captain} (captain) can knock (R22)"
            )
        return next(p for p in in_hand(self.facts.players, self.roles) if p != knocker)

    def _check_upcard(self, upcard: Card | None, *, needed: bool) -> None:
        if upcard is None and needed:
            raise BadHand("Oklahoma needs this hand's upcard, which sets the knock limit (R15): add --upcard, like --upcard 7h")
        check_upcard_suit(self.rules, upcard)

    def _credit(self, winner: str, points: int, number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Credit a win to games (R17, R18) and close the games it wins (R14, R18): the numbers of both."""
        open_games = [g for g in self.games if g.is_open]
        # R18: the first open game, and each later one whose preceding game credited the winner a hand
        credited = open_games[:1] + [g for g in open_games[1:] if self.games[g.number - 2].wins[winner]]
        closed = []
        for game in credited:
            game.scores[winner] += points
            game.wins[winner] += 1
            if game.scores[winner] >= self.rules.target:  # R14, R18, H5
                game.winner, game.closed_by = winner, number
                game.bonuses = _end_of_game(game, self.rules, self.facts.players)
                game.final = {p: game.scores[p] + sum(b) for p, b in game.bonuses.items()}
                closed.append(game.number)
        return tuple(g.number for g in credited), tuple(closed)


def _end_of_game(game: Game, rules: HouseRules, players: tuple[str, ...]) -> dict[str, Bonuses]:
    """Each player's end-of-game bonuses in a game just won (H3)."""
    bonuses = {p: Bonuses(box=rules.box_bonus * game.wins[p]) for p in players}
    won = bonuses[game.winner]._replace(game=rules.game_bonus)
    if rules.shutout and all(game.scores[p] == 0 for p in players if p != game.winner):
        won = won._replace(shutout=game.scores[game.winner] + won.game + won.box)
    bonuses[game.winner] = won
    return bonuses


def game_over(facts: SessionFacts, winner: str | None) -> GameOver:
    """The refusal of a hand after the end of the game (R14, R19, R24)."""
    won = f": {winner} won it" if winner else ""
    return GameOver(f"the {facts.game_word} '{facts.name}' is over{won}", *NEXT_GAME)


def replay(facts: SessionFacts) -> Standings:
    """Replay every hand of a session; raise BadHandAt for one that cannot stand."""
    state = _ReplayState(facts)
    try:
        for number, hand in enumerate(facts.hands, start=1):
            state.play(number, hand)
        over = state.over
        if not over:  # H8: the rules may change from the next hand on
            number = len(facts.hands) + 1
            state.follow_rules(number)
    except Refused as error:
        raise BadHandAt(number, error) from None
    roles = state.roles
    rematch_dealer = state.current_dealer
    return Standings(facts, tuple(state.results), tuple(state.games), next_dealer=None if over else rematch_dealer,
                     roles=None if over else roles, winner=state.winner(), over=over, rematch_dealer=rematch_dealer,
                     rematch_roles=roles)


def may_knock(standings: Standings, number: int | None = None) -> list[str]:
    """Who may knock in hand ``number`` (None: the next): everyone but the one sitting out (R22), when known."""
    facts = standings.facts
    if number is None:
        roles = standings.roles
    else:
        roles = standings.hands[number - 1].roles if 1 <= number <= len(standings.hands) else None
    return [p for p in facts.players if roles is None or p != roles.out]


def check_session(facts: SessionFacts, kept=()) -> Standings:
    """Check a session from elsewhere (an import, a merge, or their later hands of a session here) as a
    command checks its own, before it is stored; return its standings. ``kept``: as ``check_players``."""
    check_players(facts.variant, facts.players, kept)  # (each name was read as text without stray spaces)
    if facts.name:  # (a CSV carries none)
        check_readable(facts.name, "the session name")
    check_rules(facts)
    check_seats(facts)
    return replay(facts)


def check_rules(facts: SessionFacts) -> None:
    """Refuse house rules that make no sense for the session's variant (H1-H7), in every period (H8)."""
    for period in facts.periods():
        period.rules.check(facts.variant)


def not_playing(players, name: str, did: str = "") -> UnknownPlayer:
    """A name in a file that is none of the players: a name spelled as no command keeps it (a file
    edited by hand) is said as such, not as someone else."""
    spelled = spelled_as(players, name)
    if spelled is not None:
        return UnknownPlayer(f"'{name}' {did}is spelled '{spelled}' in this session; write it as the session does")
    return UnknownPlayer(f"{name} {did}does not play in this session ({', '.join(players)})")


def _check_roles(players, roles, has: str, refusal: type[Refused], named: str) -> None:
    """R21: three-player roles name each of the three players once; a name that plays none is said as such."""
    if sorted(roles) != sorted(players):
        stranger = next((name for name in roles if name not in players), None)
        if stranger is not None:
            raise not_playing(players, stranger, f"has {has} but ")
        raise refusal(f"{named} (box, captain, out) must name each of the three players once (R21)")


def check_seats(facts: SessionFacts) -> None:
    """Check what a replay stands on: the players and the first dealer (R5) or roles (R21). Run on
    every read too, so a session edited by hand names its damage instead of breaking the replay."""
    check_count(facts.variant, facts.players)
    if len(set(facts.players)) != len(facts.players):
        raise Refused(f"the players {', '.join(facts.players)} name one player twice; tell them apart")
    if facts.variant == "three":
        _check_roles(facts.players, facts.first_roles or (), "one of the first roles (R21)", Refused, "the first roles")
    elif facts.first_roles is not None:
        raise Refused("first roles (box, captain, out) are for three-player; a two-player session has a first dealer")
    elif facts.first_dealer not in facts.players:
        if spelled_as(facts.players, facts.first_dealer) is not None:  # (written another way)
            raise not_playing(facts.players, facts.first_dealer, "is the first dealer (R5) but ")
        raise Refused(f"the first dealer must be one of {', '.join(facts.players)} (R5)")
