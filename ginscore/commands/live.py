"""The guided loop for the table."""

from __future__ import annotations

import typer

from ..cards import parse_card
from ..errors import Refused
from ..shown import visible
from ..variants import Draw, Knock, SessionFacts, Standings
from .common import app, _append, _deadwood, _now, _replay_changed, _session_option, _standings, _store


def _ask(question: str, read):
    """Ask until ``read`` accepts the answer; a refused answer is told and asked again."""
    from .. import render

    while True:
        answer = typer.prompt(visible(question), default="", show_default=False).strip()
        try:
            return read(answer)
        except Refused as error:
            render.say(f"  {error}")


def _ask_hand(facts: SessionFacts, standings: Standings):
    """One hand, question by question; None when the player quits."""
    from ..rules import MAX_DEADWOOD, check_deadwood, knock_limit
    from ..variants import resolve_player as resolve

    rules, quit_words = facts.rules, ("q", "quit", "stop", "exit")
    upcard = None
    if facts.variant == "oklahoma":  # R15: the upcard first, it sets the knock limit

        def read_upcard(text):
            if text.lower() in quit_words:
                return "quit"
            card = parse_card(text, rank_only=not rules.spades_double)
            return card

        upcard = _ask("Upcard (like 7h)?", read_upcard)
        if upcard == "quit":
            return None
    in_hand = (standings.roles.box, standings.roles.captain) if standings.roles else facts.players

    def read_knocker(text):
        if text.lower() in quit_words:
            return "quit"
        if text.lower() == "draw":
            return "draw"
        name = resolve(facts.players, text)
        if name not in in_hand:
            raise Refused(f"{name} sits out this hand; {' or '.join(in_hand)} can knock (R22)")
        return name

    knocker = _ask("Who knocked? (a name, 'draw', or 'quit')", read_knocker)
    if knocker == "quit":
        return None
    if knocker == "draw":
        return Draw(upcard=upcard, recorded_at=_now())
    opponent = next(p for p in in_hand if p != knocker)
    limit = knock_limit(facts.variant, rules, upcard)

    def count(whose, most):
        def read(text):
            value = _deadwood(text, whose)
            check_deadwood(value, whose)
            if value > most:
                raise Refused(f"{value} is over this hand's knock limit of {most} (R7, R15); check the count")
            return value

        return read

    knocker_deadwood = _ask(f"{knocker}'s deadwood?", count(f"{knocker}'s", limit))
    big_gin = False
    if knocker_deadwood == 0 and rules.big_gin_bonus is not None:
        big_gin = typer.confirm("All 11 cards melded (big gin)?", default=False)
    opponent_deadwood = _ask(f"{opponent}'s deadwood after lay-offs?", count(f"{opponent}'s", MAX_DEADWOOD))
    return Knock(knocker, knocker_deadwood, opponent_deadwood, upcard, big_gin, _now())


@app.command()
def play(ctx: typer.Context, session: str = _session_option()) -> None:
    """A guided loop for the table: asks for each hand, saves it, shows the standings.

    It says who deals (and who is in the box), then asks who knocked (or
    'draw'), the knocker's deadwood and the opponent's after lay-offs
    (Oklahoma: the upcard first). Each hand is saved as soon as you confirm
    it, so quitting ('quit', or Ctrl-D) loses nothing. Wrong answers are
    asked again.

    Example: ginscore play
    """
    from .. import render
    from ..summary import explain

    store = _store(ctx)
    name = store.reading().find_name(session)
    while True:
        facts = store.reading().load(name)
        standings = _standings(store, facts)
        if standings.over:
            render.say("The game is over; `ginscore rematch` starts the next one.")
            return
        render.say("")
        render.say(f"Hand {len(facts.hands) + 1}. " + render.next_words(standings))
        try:
            told = _ask_hand(facts, standings)
            if told is None:
                render.say("Stopped. Every hand you confirmed is saved.")
                return
            preview = _replay_changed(facts._replace(hands=facts.hands + (told,)), len(facts.hands) + 1)
            if not typer.confirm(visible(f"{explain(preview, preview.hands[-1])}. Record it?"), default=True):
                render.say("Not recorded; take the hand again.")
                continue
        except typer.Abort:
            render.say("")
            render.say("Stopped. Every hand you confirmed is saved.")
            return
        except Refused as error:
            render.say(f"Not recorded: {error}. Take the hand again.")
            continue
        standings = _append(ctx, name, lambda _facts, hand=told: hand)
        render.show_hand(standings, standings.hands[-1], verb="Saved")
