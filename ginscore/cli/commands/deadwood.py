"""Cards in, deadwood out: the best melds of a hand."""

import typer

from ginscore.core.cards import parse_cards
from ginscore.core.errors import BadCard, Refused
from ginscore.cli.typer_app import app
from ginscore.cli.options import json_option, whole_number
from ginscore.cli.output import print_json
from ginscore.core.melds import arrange, best_discard


@app.command(short_help="Count a hand's deadwood.")
def deadwood(
    cards: list[str] = typer.Argument(..., help="10 or 11 cards, as separate words or one quoted string.", metavar="CARD..."),
    limit: int = typer.Option(10, "--limit", parser=whole_number(), metavar="N",
                              help="The knock limit to judge by (Oklahoma: the upcard's value, R15)."),
    as_json: bool = json_option(),
) -> None:
    """The best melds and deadwood of a hand (R2, R3); with 11 cards, the best discard.

    Example: ginscore deadwood AS 2S 3S 7H 7D 7C 9H 10H JH 2D
    """
    if not 0 <= limit <= 10:
        raise Refused(f"--limit must be from 0 to 10 (R7, R15), not {limit}")
    hand = parse_cards(cards)
    if len(hand) not in (10, 11):
        raise BadCard(f"give 10 cards (a hand) or 11 (just after the draw), not {len(hand)}")
    if len(hand) == 10:
        spread, discard, big_gin = arrange(hand), None, False
    else:
        found = best_discard(hand)
        spread, discard, big_gin = found.spread, found.discard, found.big_gin
    if as_json:
        doc = {
            "deadwood": spread.deadwood,
            "melds": [[str(c) for c in meld] for meld in spread.melds],
            "unmatched": [str(c) for c in spread.unmatched],
        }
        if len(hand) == 11:
            doc["discard"] = str(discard) if discard else None
        doc.update(knock=spread.deadwood <= limit, gin=spread.deadwood == 0, big_gin=big_gin, limit=limit)
        print_json(doc)
        return
    from ginscore.present.screens import show_deadwood

    show_deadwood(spread, discard, big_gin, limit)
