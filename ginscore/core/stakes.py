"""Who pays whom once a game is over (H7, docs/rules.md), in exact decimals, never floats."""

from decimal import Decimal
from typing import Iterable, NamedTuple

from ginscore.core.scoring import stake_text
from ginscore.core.replay import Standings


class Payment(NamedTuple):
    """One settlement: ``payer`` owes ``payee`` ``amount`` (> 0)."""

    payer: str
    payee: str
    amount: Decimal

    def to_dict(self) -> dict:
        """An entry of "settlement" in ``status --json`` (docs/commands.md)."""
        return {"from": self.payer, "to": self.payee, "amount": money_text(self.amount)}


def money_text(amount: Decimal) -> str:
    """An amount as money is written: exact, at least two decimals (4.00, 0.625), no more than it needs
    (a stake of 0.0625 a point times 10 is 0.625, not 0.6250)."""
    amount = amount.normalize()
    if amount.as_tuple().exponent > -2:
        amount = amount.quantize(Decimal("0.01"))  # exact: it had fewer decimals
    return stake_text(amount)


def game_payments(final: dict[str, int], winner: str, stake: Decimal) -> list[Payment]:
    """The payments of one game (H7)."""
    payments = []
    for loser in final:
        if loser == winner:
            continue
        difference = final[winner] - final[loser]
        if difference > 0:
            payments.append(Payment(loser, winner, difference * stake))
        elif difference < 0:  # box bonuses left the loser's final above the winner's (H3)
            payments.append(Payment(winner, loser, -difference * stake))
    return payments


def net(payments: Iterable[Payment]) -> list[Payment]:
    """One payment per pair of players, in the order pairs first appear; none for a pair that is even."""
    owed: dict[tuple[str, str], Decimal] = {}  # (a, b): what b owes a, negative when a owes b
    for p in payments:
        if (p.payee, p.payer) in owed:
            owed[(p.payee, p.payer)] += p.amount
        elif (p.payer, p.payee) in owed:
            owed[(p.payer, p.payee)] -= p.amount
        else:
            owed[(p.payee, p.payer)] = p.amount
    return [Payment(b, a, amount) if amount > 0 else Payment(a, b, -amount)
            for (a, b), amount in owed.items() if amount]


def game_stake(st: Standings, game) -> Decimal:
    """What a point of this game is worth: the stake in force when it ended (H7). A stake changed from
    the next hand on (H8) leaves a game already over as it was settled, as its bonuses are."""
    return st.facts.rules_for(game.closed_by).stake


def settlement(st: Standings) -> list[Payment] | None:
    """The session's settlement once it is over and played for a stake (H7); else None."""
    stakes = [game_stake(st, g) for g in st.games] if st.over else []
    if not any(stakes):
        return None
    return net(p for g, stake in zip(st.games, stakes) for p in game_payments(g.final, g.winner, stake))
