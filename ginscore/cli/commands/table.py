"""At the table: start a session, record, correct and undo hands, rematch. Every command here shows
the standings, so Rich is loaded with the module."""

import functools
import inspect

import typer

from ginscore.core.errors import BadHandAt, Command, DatabaseUnusable, IllegalKnock, NoBigGin, NotInHand, Refused
from ginscore.core.scoring import check_upcard_suit, HouseRules, knock_limit
from ginscore.core.replay import game_over, may_knock, replay, Standings
from ginscore.core.session import draw_for_roles, Draw, Roles, SessionFacts
from ginscore.core.names import check_players, match_name, resolve_player
from ginscore.core.reports import as_typed, counted, explain
from ginscore.codec.facts import check_note, NOTE_LENGTH
from ginscore.db.damage import unsound
from ginscore.cli.actions import append_hand, asked, game_after, game_before, replay_changed, replay_stored
from ginscore.cli.actions import (next_game_advice, rematch_news, rules_moving_back, session_named, start_session,
                                  store_of)
from ginscore.cli.actions import time_now
from ginscore.cli.typer_app import app
from ginscore.cli.options import session_option, Variant, whole_number, with_parameters
from ginscore.cli.options import KNOCKERS, KNOCKERS_OF_HAND, NEW_PLAYERS  # what these arguments complete to
from ginscore.cli.rule_options import house_rules_given, takes_house_rules
from ginscore.cli.typed import not_an_option, session_name, TypedKnock, typed_upcard
from ginscore.present.console import say
from ginscore.present.screens import show_hand, show_standings


def note_option():
    return typer.Option(None, "--note", metavar="TEXT", help=f"A remark kept with the hand, shown in `log` and "
                        f"exports (up to {NOTE_LENGTH} characters).")


def first_seats(variant, names, dealer, box, captain) -> tuple[str | None, Roles | None, str]:
    """First dealer (R5) or first roles (R21): as given, else drawn at random and told."""
    import random

    rng = random.SystemRandom()
    if variant == "three":
        if dealer:
            raise Refused("in three-player the box deals (R22); give --box and --captain instead of --dealer")
        if bool(box) != bool(captain):
            raise Refused("give both --box and --captain, or neither to draw for seats (R21)")
        if box:
            box_name, captain_name = resolve_player(names, box), resolve_player(names, captain)
            if box_name == captain_name:
                raise Refused(f"{box_name} cannot be both box and captain; name two different players")
            out = next(n for n in names if n not in (box_name, captain_name))
            return None, Roles(box_name, captain_name, out), ""
        roles, drawn = draw_for_roles(names, rng)
        cards = ", ".join(f"{n} {c.pretty}" for n, c in drawn)
        return None, roles, f"Drew for seats (R21): {cards}."
    if box or captain:
        raise Refused("--box and --captain are for three-player; in a two-player game use --dealer")
    if dealer:
        return resolve_player(names, dealer), None, ""
    chosen = rng.choice(names)
    return chosen, None, f"{chosen} deals first, chosen at random (R5)."


@app.command(short_help="Start a new session.")
@takes_house_rules
def new(
    ctx: typer.Context,
    variant: Variant = typer.Argument(..., help="standard, oklahoma, hollywood or three (three players).", metavar="VARIANT"),
    players: list[str] = typer.Argument(..., help="Two players (three for 'three').", metavar="PLAYER PLAYER [PLAYER]"),
    name: str = typer.Option(None, "--name", metavar="NAME", help="Name the session (default: VARIANT-N)."),
    dealer: str = typer.Option(None, "--dealer", metavar="PLAYER", autocompletion=NEW_PLAYERS,
                               help="Who deals first (two players); random when left out (R5)."),
    box: str = typer.Option(None, "--box", metavar="PLAYER", autocompletion=NEW_PLAYERS,
                            help="Three-player: who starts in the box, given with --captain; both "
                                 "drawn at random when left out (R21)."),
    captain: str = typer.Option(None, "--captain", metavar="PLAYER", autocompletion=NEW_PLAYERS,
                                help="Three-player: who starts as captain, given with --box (R21)."),
    given_rules: dict = None,  # the house-rule options (takes_house_rules)
) -> None:
    """Start a session and make it current.

    Example: ginscore new hollywood Ann Ben --dealer ann
    """
    names = check_players(variant.value, players)
    for player in names:  # (here, not in check_players: such a name in a file made before stays readable)
        not_an_option(player, "a player's")
    rules = house_rules_given(given_rules) or HouseRules()
    rules.check(variant.value)
    first_dealer, first_roles, drawn_for_seats = first_seats(variant.value, names, dealer, box, captain)
    facts = SessionFacts(
        name=session_name(name), variant=variant.value, players=names, rules=rules, first_dealer=first_dealer,
        first_roles=first_roles, created_at=time_now(),
    )
    start_session(ctx, facts, drawn_for_seats)


@app.command(short_help="Start the next game.")
def rematch(
    ctx: typer.Context,
    session: str = session_option(),
    name: str = typer.Option(None, "--name", metavar="NAME", help="Name the new session (default: VARIANT-N)."),
    yes: bool = typer.Option(False, "--yes", "-y",
                             help="Start it without asking, even if the game is not over or has its rematch."),
) -> None:
    """Start a new session with the same players and variant, and the house rules as they stand at the
    end (deal and stake too; a change made --from-next comes along, H8).

    Whoever would deal the next hand under the session's deal rule deals
    first (R5, H6); three-player roles go on turning (R23). In Hollywood this
    is a new series (R19). The two sessions form a match, which `status`
    sums up and `history` marks. On a game not yet over, or one that already
    has its rematch, it asks first; without a terminal to ask on, it needs --yes.

    Example: ginscore rematch
    """
    store = store_of(ctx)
    db = store.reading()
    old = db.load(session)
    new_name = session_name(name)
    standings = replay_stored(store, old)
    later = game_after(db, old)
    why = None  # what makes starting it a question
    if later is not None:  # most likely a slip (the game before the one meant), so asked like a game not over
        why, start = f"'{old.name}' already has its rematch, '{later.name}'", "another"
    elif not standings.over:
        why, start = f"'{old.name}' is not over yet ({counted(len(old.hands), 'hand')} played)", "its rematch anyway"
    if why and not asked(f"{why}. Start {start}?", yes, "start", "started", f"{why}; add --yes to start {start}",
                         names=old.players):
        return
    import secrets

    # The next dealer under the deal rule (R5, H6) or the next roles (R23), in the same match.
    facts = SessionFacts(
        name=new_name, variant=old.variant, players=old.players, rules=old.rules,
        first_dealer=None if standings.rematch_roles else standings.rematch_dealer,  # three-player: its roles (R22)
        first_roles=standings.rematch_roles, created_at=time_now(),
        match=old.match or f"m-{secrets.token_hex(6)}",
    )
    left = "" if standings.over else (  # (a fresh start mid-game: the old one is kept as it stands)
        f" '{old.name}' was not over ({counted(len(old.hands), 'hand')} played); it stays as it is, in play.")
    start_session(ctx, facts, f"Rematch of '{old.name}'.{left}", rematch_of=old)


HAND_SETTINGS = {"ignore_unknown_options": True}  # so "-3" reaches the deadwood check (R3)


def takes_a_knock(knocker, *, knocker_deadwood: str, opponent_deadwood: str, upcard: str, big_gin: str):
    """Give `hand` or `edit` the knock's arguments and options in place of its parameter ``told`` (a
    ``TypedKnock``): ``knocker`` is its argument, the others the help of each."""
    declared = {
        "knocker": knocker,
        "knocker_deadwood": typer.Argument(None, help=knocker_deadwood, metavar="KNOCKER_DEADWOOD"),
        "opponent_deadwood": typer.Argument(None, help=opponent_deadwood, metavar="OPPONENT_DEADWOOD"),
        "upcard": typer.Option(None, "--upcard", help=upcard, metavar="CARD"),
        "big_gin": typer.Option(False, "--big-gin", help=big_gin),
        "cards": typer.Option(None, "--cards", metavar="CARDS", help="The knocker's 10 cards (11 with "
                              "--big-gin), like \"AS 2S 3S 7H 7D 7C 9H 10H JH 2D\" (a ten is 10 or T)."),
        "against": typer.Option(None, "--against", help="The opponent's 10 cards; lay-offs are found for them (R8).",
                                metavar="CARDS"),
    }
    parameters = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                                    annotation=bool if name == "big_gin" else str)
                  for name, default in declared.items()]
    return lambda command: with_parameters(command, parameters, lambda given: {"told": TypedKnock(**given)}, "told")


def _example_command(ctx: typer.Context, session: str | None, verb: tuple[str, ...], counts: tuple[str, ...],
                     hand: int | None = None, told: TypedKnock | None = None) -> Command:
    """The example advised when a hand lacks its counts, one that typed as shown is taken: it names the session
    typed (else it would go to the current one), and keeps the knocker, upcard and --big-gin typed where the
    hand takes them and the knocker's count within the knock limit (R7, R15). What the hand would be refused
    for instead (the game over, the knocker sitting out, R22) is said as the hand would say it."""
    db = store_of(ctx).reading()
    named = () if session is None else session_named(db, db.find_name(session))  # (one not there: said so)
    facts = db.load(session)  # no session yet: said as the hand would be, since no example would work
    if hand is not None:  # a hand that is not there is said first, as the correction would say it
        _check_hand_number(db, facts, hand)
    number = hand or len(facts.hands) + 1
    try:
        standings = replay(facts)
    except BadHandAt as error:  # damaged by hand before this hand: no correction of this one stands
        if error.number < number:  # (at it: this correction mends it; after it: the correction may)
            raise DatabaseUnusable(db.path, *unsound(facts.name, error)) from None
        standings, knockers = None, list(facts.players)
    else:
        if hand is None and standings.over:
            raise game_over(facts, standings.winner)
        knockers = may_knock(standings, hand)
    typed = told.knocker if told is not None and told.knocker else ""
    if typed.strip().isdigit() and not match_name(facts.players, typed):  # `hand 4 22`: a count, the name left out
        typed = ""
    if typed:  # a name that is no player, or could be two, is said as the hand would say it
        playing = (lambda: knockers) if standings is not None and facts.variant == "three" else None
        resolved = resolve_player(facts.players, typed, playing)
        if resolved not in knockers:
            raise _sat_out((standings.hands[hand - 1].roles if hand else standings.roles), hand)
    knocker = typed or knockers[0].lower()
    typed_card = told.upcard if told is not None else None
    upcard = ("--upcard", typed_card or "7h") if hand is None and facts.variant == "oklahoma" else \
        ("--upcard", typed_card) if typed_card else ()
    card = typed_upcard(upcard[1]) if upcard else facts.hands[hand - 1].upcard if hand else None
    rules, big_gin = facts.rules_for(number), told is not None and told.big_gin
    check_upcard_suit(rules, card)  # (a rank alone, under spades double: said as the hand would be, H4)
    if big_gin and rules.big_gin_bonus is None:
        raise NoBigGin("this session plays no big gin (H2); leave out --big-gin")
    limit = 0 if big_gin else knock_limit(facts.variant, rules, card)
    if counts[0].isdigit():
        counts = (str(min(int(counts[0]), limit)), *counts[1:])
    return Command(*verb[:1], *named, *verb[1:], as_typed(knocker), *counts, *map(as_typed, upcard),
                   *(("--big-gin",) if big_gin else ()))


def _sat_out(roles: Roles, number: int | None) -> NotInHand:
    """The one sitting out typed as the knocker of the next hand (``number`` None) or of hand ``number`` (R22)."""
    if number is None:
        return NotInHand(f"{roles.out} sits out this hand; only {roles.box} (box) and {roles.captain} (captain) "
                         "can knock (R22)")
    return NotInHand(f"{roles.out} sat out hand {number}; only {roles.box} (box) and {roles.captain} (captain) "
                     "could knock it (R22)")


def _check_hand_number(db, facts: SessionFacts, number: int) -> None:
    """Refuse a correction of a hand ``facts`` does not have, saying where it is if it was the game before."""
    if not 1 <= number <= len(facts.hands):
        missing = f"there is no hand {number} in '{facts.name}' (it has {len(facts.hands)})"
        before = None if facts.hands else game_before(db, facts)
        if before is not None and 1 <= number <= len(before.hands):  # a rematch just started
            raise Refused(f"{missing}; it is the rematch of '{before.name}': correct that game's hand {number} "
                          "with ", Command("edit", "--session", as_typed(before.name), str(number)),
                          " and the hand's facts")
        raise Refused(f"{missing}; see ", Command("log", *session_named(db, facts.name)))


@app.command(context_settings=HAND_SETTINGS, short_help="Record a knocked hand.")
@takes_a_knock(typer.Argument(..., help="Who knocked (a unique prefix is enough).", metavar="KNOCKER",
                              autocompletion=KNOCKERS),
               knocker_deadwood="The knocker's deadwood; 0 is gin (R11).",
               opponent_deadwood="The opponent's deadwood after lay-offs (R8).",
               upcard="This hand's upcard, like 7h; required in Oklahoma (R15).",
               big_gin="An 11-card gin (H2); the session must play big gin.")
def hand(
    ctx: typer.Context,
    told: TypedKnock = None,  # the knocker, both counts or the cards (takes_a_knock)
    note: str = note_option(),
    session: str = session_option(),
) -> None:
    """Record a knocked hand, and show what it scored and the standings.

    Give the two deadwood counts, or the cards themselves with --cards and
    --against: ginscore then finds the best melds and lay-offs.

    Example: ginscore hand ann 4 22   # Ann knocked with 4, Ben had 22
    """
    told.check(functools.partial(_example_command, ctx, session, ("hand",), ("4", "22"), told=told))
    standings, news = append_hand(ctx, session, lambda facts: told.knock(facts, time_now(), note))
    _show_hand(ctx, standings, len(standings.hands), news=news)


@app.command(short_help="Record a drawn hand.")
def draw(
    ctx: typer.Context,
    upcard: str = typer.Option(None, "--upcard", metavar="CARD",
                              help="This hand's upcard, like 7h (none is needed, even in Oklahoma)."),
    note: str = note_option(),
    session: str = session_option(),
) -> None:
    """Record a drawn hand: nobody scores, the same dealer deals again (R12, R25).

    Example: ginscore draw
    """
    kept = check_note(note)
    standings, news = append_hand(ctx, session, lambda facts: Draw(upcard=typed_upcard(upcard),
                                                                      recorded_at=time_now(), note=kept))
    _show_hand(ctx, standings, len(standings.hands), news=news)


@app.command(context_settings=HAND_SETTINGS, short_help="Correct an earlier hand.")
@takes_a_knock(typer.Argument(None, help="Who knocked.", metavar="KNOCKER", autocompletion=KNOCKERS_OF_HAND),
               knocker_deadwood="The knocker's deadwood.", opponent_deadwood="The opponent's deadwood after lay-offs.",
               upcard="Replace the hand's upcard (--upcard \"\" removes it); kept when left out.",
               big_gin="An 11-card gin (H2).")
def edit(
    ctx: typer.Context,
    number: int = typer.Argument(..., parser=whole_number(), metavar="N",
                                help="The hand to correct, as numbered by `ginscore log`."),
    told: TypedKnock = None,  # the knocker, both counts or the cards (takes_a_knock)
    as_draw: bool = typer.Option(False, "--draw", help="The hand was really a drawn hand (R12)."),
    note: str = typer.Option(
        None, "--note", help="Replace the hand's note (--note \"\" removes it); kept when left out.", metavar="TEXT"
    ),
    session: str = session_option(),
) -> None:
    """Replace hand N with corrected facts; every later hand is rescored.

    Refused whole if a later hand could no longer stand (it would come after
    the game was won). The hand keeps its upcard (and so its knock limit,
    R15) unless --upcard gives a new one, and its note unless --note does;
    --note or --upcard alone changes only that.

    Example: ginscore edit 3 ben 6 9 --upcard 8c
    """
    facts_given = any(a is not None for a in (told.knocker, told.knocker_deadwood, told.opponent_deadwood,
                                              told.cards, told.against))
    only_note_or_upcard = not facts_given and not told.big_gin and (note, told.upcard) != (None, None)
    if as_draw:
        if facts_given:
            raise Refused("a drawn hand has no knocker, deadwood or cards; give --draw alone (with --upcard if you like)")
    elif not only_note_or_upcard:
        example = functools.partial(_example_command, ctx, session, ("edit", str(number)), ("4", "22"), number, told)
        if told.knocker is None and (told.cards, told.against) != (None, None):
            raise Refused("give who knocked before --cards, like ", _example_command(
                ctx, session, ("edit", str(number)), ("--cards", "...", "--against", "..."), number))
        if told.knocker is None:
            raise Refused("give the knocker and both deadwood counts, like ", example(), ", or --draw")
        told.check(example)
    kept = check_note(note)
    store = store_of(ctx)
    with store.writing() as db:
        facts = db.load(session)
        _check_hand_number(db, facts, number)
        was = facts.hands[number - 1]
        # Left out, --upcard and --note keep the hand's own; the replay checks its knock limit (R15).
        card = was.upcard if told.upcard is None else typed_upcard(told.upcard)
        if as_draw:
            corrected = Draw(recorded_at=was.recorded_at)
        elif only_note_or_upcard:
            corrected = was
        else:
            corrected = told.knock(facts, was.recorded_at, roles=was.roles)
        corrected = corrected._replace(upcard=card, note=was.note if note is None else kept,
                                       dealer=was.dealer, roles=was.roles)  # who dealt it stays a fact (H8)
        before, facts = facts, facts._replace(hands=facts.hands[: number - 1] + (corrected,) + facts.hands[number:])
        try:
            standings = replay_changed(facts, number, db)
        except IllegalKnock as error:  # the scoring's advice is for a hand at the table, not for one played
            upcard_sets_it = facts.variant == "oklahoma"  # elsewhere the limit is always 10 (R7)
            raise error.advising("check the count or the upcard" if upcard_sets_it else "check the count") from None
        except NotInHand:  # said of the hand corrected, not of the hand to come that the screens show (R22)
            raise _sat_out(was.roles, number) from None
        db.save(facts)
        news = rematch_news(db, standings, before)
    _show_hand(ctx, standings, number, verb="Corrected", news=news)


@app.command(short_help="Remove the last hand.")
def undo(
    ctx: typer.Context,
    yes: bool = typer.Option(False, "--yes", "-y", help="Remove without asking."),
    session: str = session_option(),
) -> None:
    """Remove the last hand of the session (asks first).

    Example: ginscore undo --yes
    """
    store = store_of(ctx)
    db = store.reading()
    facts = db.load(session)
    if not facts.hands:
        before = game_before(db, facts)  # a rematch just started: the hand to undo is likely the last game's
        if before is None or not before.hands:
            raise Refused(f"'{facts.name}' has no hands to undo")
        raise Refused(f"'{facts.name}' has no hands to undo; it is the rematch of '{before.name}': ",
                      Command("undo", "--session", as_typed(before.name)), " removes that game's last hand")
    standings = replay_stored(store, facts)
    last = standings.hands[-1]
    what = f"hand {last.number}: {explain(standings, last)}"
    moving = rules_moving_back(facts, asking=not yes, db=db)  # (H8) said before the question, or after the removal
    if moving and not yes:
        say(*moving)
    if not asked(f"Remove {what}?", yes, "remove", names=facts.players):
        return
    with store.writing() as db:
        now = db.load(facts.name)
        if now.hands != facts.hands:
            raise Refused("the session changed while you were asked; run ",
                          Command("undo", *session_named(db, facts.name)), " again")
        facts = now._replace(hands=now.hands[:-1])
        standings = _without_last_hand(facts, last.number)
        db.save(facts)
        news = rematch_news(db, standings, now)
    say(f"Removed {what}.")
    if moving and yes:
        say(*moving)
    show_standings(standings, what_follows=next_game_advice(store.reading, standings))
    for parts, names in news:
        say(*parts, names=names)


def _show_hand(ctx: typer.Context, standings: Standings, number: int, verb: str = "Recorded",
               news: list[tuple] = ()) -> None:
    """Hand ``number`` as recorded, then the standings, saying what follows a game it ended (and
    what to tell of its rematch)."""
    show_hand(standings, standings.hands[number - 1], verb=verb,
              what_follows=next_game_advice(store_of(ctx).reading, standings))
    for parts, names in news:
        say(*parts, names=names)


def _without_last_hand(facts: SessionFacts, number: int) -> Standings:
    """The session once hand ``number`` is undone, refused when the house rules agreed from the next
    hand on, which move back to it (H8), could not stand there."""
    try:
        return replay(facts)
    except BadHandAt as error:
        raise Refused(f"cannot undo hand {number}: the house rules agreed from hand {number + 1} on would then "
                      f"apply from hand {number}, and {error.error}; change them first (", Command("house"),
                      " with --from-next), then undo") from None
