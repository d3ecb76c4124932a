"""The command line: the only module that imports typer.

Parse what was typed, load the facts, change them or replay them, and hand
the standings to ``render`` (people) or ``summary`` (scripts). Every error
reaches the user through ``_Group.main``: one line on standard error and the
exit status of ``errors.ExitStatus``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from enum import Enum
from pathlib import Path
from typing import NamedTuple

import typer
from typer.core import TyperGroup

from .cards import parse_card, parse_cards
from .errors import (
    BadCard, BadDeadwood, BadHandAt, DatabaseUnusable, ExitStatus, GinscoreError, Refused, UnknownPlayer,
)
from .records import knock_from_cards
from .rules import VARIANTS, HouseRules
from .store import Store
from .variants import (
    Draw, Knock, Roles, SessionFacts, Standings, check_players, draw_for_roles, replay, resolve_player,
)

try:  # typer 0.27+ carries its own copy of click, and does not re-export its usage errors
    from typer._click import exceptions as _click_errors
except ImportError:  # pragma: no cover - a typer built on the click package
    from click import exceptions as _click_errors


def _fail(status: int, message: str) -> int:
    """The one place an error is told: one line on standard error."""
    line = " ".join(message.split())
    sys.stderr.write(f"Error: {line}\n")
    sys.stderr.flush()
    return int(status)


class _Group(TyperGroup):
    """Runs a command and turns every expected failure into one line and an exit status."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            result = super().main(
                args=args, prog_name="ginscore", complete_var=complete_var, standalone_mode=False, **extra
            )
            status = result if isinstance(result, int) else ExitStatus.OK
        except GinscoreError as error:
            status = _fail(error.status, str(error))
        except _click_errors.UsageError as error:
            where = f"; see `{error.ctx.command_path} --help`" if error.ctx else ""
            status = _fail(ExitStatus.REFUSED, error.format_message().rstrip(".") + where)
        except _click_errors.ClickException as error:
            status = _fail(ExitStatus.REFUSED, error.format_message())
        except typer.Abort:
            status = _fail(130, "stopped; nothing was changed")
        if standalone_mode:
            sys.exit(status)
        return status


def _make_app() -> typer.Typer:
    return typer.Typer(
        cls=_Group,
        help="Keep score of Gin Rummy at a real table: standard, Oklahoma, Hollywood and three-player.\n\n"
        "Example: ginscore new hollywood Ann Ben, then ginscore hand ann 4 22 after each hand.",
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
        rich_markup_mode=None,
    )


app = _make_app()


Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)  # the choices typer shows

SESSION_HELP = "The session to act on (exact name or unique prefix); the current one when left out."
JSON_HELP = "Print one JSON document for scripts instead of tables."


def _session_option():
    return typer.Option(None, "--session", "-s", help=SESSION_HELP, metavar="NAME")


def _json_option():
    return typer.Option(False, "--json", help=JSON_HELP)


def default_db_path() -> Path:
    """``--db``, else $GINSCORE_DB, else ginscore.json in the per-user app folder (CLI.md)."""
    from_env = os.environ.get("GINSCORE_DB")
    if from_env:
        return Path(from_env)
    return Path(typer.get_app_dir("ginscore")) / "ginscore.json"


@app.callback(invoke_without_command=True)
def _top(
    ctx: typer.Context,
    db: Path = typer.Option(
        None, "--db", help="The database file (default: $GINSCORE_DB, else ginscore.json in your app folder).",
        dir_okay=True, readable=False, metavar="PATH",
    ),
) -> None:
    ctx.obj = Store(db if db is not None else default_db_path())
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def _store(ctx: typer.Context) -> Store:
    return ctx.find_root().obj


def _now() -> str:
    from datetime import datetime  # only commands that record something need the time

    return datetime.now().astimezone().isoformat(timespec="seconds")


def _standings(store: Store, facts: SessionFacts) -> Standings:
    """Replay stored facts; a stored hand that no longer adds up makes the file unusable."""
    try:
        return replay(facts)
    except BadHandAt as error:
        raise DatabaseUnusable(store.path, f"session '{facts.name}' does not add up at {error}") from None


def _replay_changed(facts: SessionFacts, changed_hand: int) -> Standings:
    """Replay after a change at hand ``changed_hand``; refuse the change if any hand breaks."""
    try:
        return replay(facts)
    except BadHandAt as error:
        if error.number == changed_hand:
            raise error.error from None
        raise Refused(
            f"refused: after that change hand {error.number} could not stand ({error.error}); "
            "undo or edit the later hands first"
        ) from None


def _print_json(doc) -> None:
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def _deadwood(text: str, whose: str) -> int:
    """A count as typed: digits, perhaps a minus (refused later with a clearer word, R3)."""
    digits = text.strip()
    if not re.fullmatch(r"-?[0-9]+", digits):
        raise BadDeadwood(f"{whose} deadwood '{text}' is not a number; give a whole number from 0 to 98 (R3)")
    return int(digits)


def _upcard(text: str | None):
    return parse_card(text, rank_only=True) if text else None


class _Told(NamedTuple):
    """A knocked hand as typed: two counts, or the two hands of cards (issue 4)."""

    knocker: str
    knocker_deadwood: str | None
    opponent_deadwood: str | None
    cards: str | None
    against: str | None
    upcard: str | None
    big_gin: bool

    def check(self, example: str) -> None:
        """Refuse a mix of counts and cards before anything is read or written."""
        counts = [c for c in (self.knocker_deadwood, self.opponent_deadwood) if c is not None]
        if (self.cards is None) != (self.against is None):
            raise BadCard("give both hands: --cards with the knocker's cards and --against with the opponent's")
        if self.cards is not None and counts:
            raise Refused("give either the two deadwood counts or --cards/--against, not both")
        if self.cards is None and len(counts) != 2:
            raise Refused(f"give the knocker and both deadwood counts, like `{example}`, or --cards and --against")

    def knock(self, facts: SessionFacts, at: str | None) -> Knock:
        name = resolve_player(facts.players, self.knocker)
        told = {"upcard": _upcard(self.upcard), "big_gin": self.big_gin, "recorded_at": at}
        if self.cards is not None:
            knocker_cards = parse_cards(self.cards)
            if len(knocker_cards) == 11 and not self.big_gin:
                raise BadCard("the knocker has 11 cards: give the 10 kept after the discard, or add --big-gin (H2)")
            return knock_from_cards(name, knocker_cards, parse_cards(self.against), **told)
        return Knock(
            knocker=name,
            knocker_deadwood=_deadwood(self.knocker_deadwood, f"{name}'s"),
            opponent_deadwood=_deadwood(self.opponent_deadwood, "the opponent's"),
            **told,
        )


def _append(ctx: typer.Context, session: str | None, make_hand) -> Standings:
    """Record one more hand under the lock; written only if it stands."""
    with _store(ctx).writing() as db:
        facts = db.load(session)
        facts = facts._replace(hands=facts.hands + (make_hand(facts),))
        standings = _replay_changed(facts, len(facts.hands))
        db.save(facts)
    return standings


# --- starting sessions ------------------------------------------------------


def _first_seats(variant, names, dealer, box, captain) -> tuple[str | None, Roles | None, str]:
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
            roles = Roles(box_name, captain_name, out)
            return None, roles, ""
        roles, drawn = draw_for_roles(names, rng)
        cards = ", ".join(f"{n} {c.pretty}" for n, c in drawn)
        return None, roles, f"Drew for seats (R21): {cards}."
    if box or captain:
        raise Refused("--box and --captain are for three-player; in a two-player game use --dealer")
    if dealer:
        return resolve_player(names, dealer), None, ""
    chosen = rng.choice(names)
    return chosen, None, f"{chosen} deals first, chosen at random (R5)."


def _free_name(taken: list[str], variant: str) -> str:
    folded = {t.casefold() for t in taken}
    number = 1
    while f"{variant}-{number}" in folded:
        number += 1
    return f"{variant}-{number}"


def _session_name(typed: str | None) -> str:
    """A --name as typed, spaces folded; "" when none was given (one is chosen)."""
    if typed is None:
        return ""
    name = " ".join(typed.split())
    if not name:
        raise Refused("the session name is empty; give --name a name")
    return name


def _start(ctx: typer.Context, facts: SessionFacts, told: str) -> None:
    with _store(ctx).writing() as db:
        if not facts.name:
            facts = facts._replace(name=_free_name(db.names(), facts.variant))
        db.add(facts)
    from . import render

    render.say(f"Started '{facts.name}': {', '.join(facts.players)}.")
    if told:
        render.say(told)
    render.show_standings(replay(facts))


# House rules (H1-H5), shared by `new` and `import`; None (or off) means "not given".
# Each command names them as parameters (typer has no parameter groups).
HOUSE_RULE_OPTIONS = list(HouseRules._fields)
TARGET = typer.Option(None, "--target", help="Points that win a game; default 100 (R14, H5).")
GIN_BONUS = typer.Option(None, "--gin-bonus", help="Gin bonus; default 25 (R11, H1).")
UNDERCUT_BONUS = typer.Option(None, "--undercut-bonus", help="Undercut bonus; default 10 (R10, H1).")
BIG_GIN_BONUS = typer.Option(None, "--big-gin-bonus", help="Play big gin with this bonus, often 31 (H2).")
GAME_BONUS = typer.Option(None, "--game-bonus", help="Bonus to a game's winner, often 100 (H3).")
BOX_BONUS = typer.Option(None, "--box-bonus", help="Bonus per hand won, often 20 or 25 (H3).")
SHUTOUT = typer.Option(False, "--shutout", help="Double the winner's final score on a shutout (H3).")
SPADES_DOUBLE = typer.Option(False, "--spades-double", help="Oklahoma: a spade upcard doubles the hand (H4).")
ACE_MEANS_GIN = typer.Option(False, "--ace-means-gin", help="Oklahoma: an ace upcard allows only gin (H4).")


def _house_rules(options: dict) -> HouseRules | None:
    """The house rules among a command's options (its ``locals()``), or None when none was given."""
    chosen = {k: options[k] for k in HOUSE_RULE_OPTIONS if options[k] is not None and options[k] is not False}
    return HouseRules(**chosen) if chosen else None


@app.command()
def new(
    ctx: typer.Context,
    variant: Variant = typer.Argument(..., help="standard, oklahoma, hollywood or three (three players).", metavar="VARIANT"),
    players: list[str] = typer.Argument(..., help="Two players (three for 'three').", metavar="PLAYER PLAYER [PLAYER]"),
    name: str = typer.Option(None, "--name", help="Name the session (default: VARIANT-N)."),
    dealer: str = typer.Option(None, "--dealer", help="Who deals first (two players); random when left out (R5)."),
    box: str = typer.Option(None, "--box", help="Three-player: who starts in the box (R21)."),
    captain: str = typer.Option(None, "--captain", help="Three-player: who starts as captain (R21)."),
    target: int = TARGET,
    gin_bonus: int = GIN_BONUS,
    undercut_bonus: int = UNDERCUT_BONUS,
    big_gin_bonus: int = BIG_GIN_BONUS,
    game_bonus: int = GAME_BONUS,
    box_bonus: int = BOX_BONUS,
    shutout: bool = SHUTOUT,
    spades_double: bool = SPADES_DOUBLE,
    ace_means_gin: bool = ACE_MEANS_GIN,
) -> None:
    """Start a session and make it current.

    Example: ginscore new hollywood Ann Ben --dealer ann
    """
    names = check_players(variant.value, players)
    rules = _house_rules(locals()) or HouseRules()
    rules.check(variant.value)
    first_dealer, first_roles, told = _first_seats(variant.value, names, dealer, box, captain)
    facts = SessionFacts(
        name=_session_name(name), variant=variant.value, players=names, rules=rules, first_dealer=first_dealer,
        first_roles=first_roles, created_at=_now(),
    )
    _start(ctx, facts, told)


@app.command()
def rematch(
    ctx: typer.Context,
    session: str = _session_option(),
    name: str = typer.Option(None, "--name", help="Name the new session (default: VARIANT-N)."),
) -> None:
    """Start a new session with the same players, variant and house rules.

    The winner of the last hand deals first (R5); three-player roles go on
    turning (R23). In Hollywood this is a new series (R19).

    Example: ginscore rematch
    """
    db = _store(ctx).reading()
    old = db.load(session)
    standings = _standings(_store(ctx), old)
    facts = SessionFacts(
        name=_session_name(name), variant=old.variant, players=old.players, rules=old.rules,
        first_dealer=standings.carry_dealer, first_roles=standings.carry_roles, created_at=_now(),
    )
    _start(ctx, facts, f"Rematch of '{old.name}'.")


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="A file made by `ginscore export` (JSON or CSV).", dir_okay=False, metavar="FILE"),
    name: str = typer.Option(None, "--name", help="Name the new session (default: the exported name)."),
    variant: Variant = typer.Option(None, "--variant", help="CSV only: standard or oklahoma (a CSV does not say)."),
    target: int = TARGET,
    gin_bonus: int = GIN_BONUS,
    undercut_bonus: int = UNDERCUT_BONUS,
    big_gin_bonus: int = BIG_GIN_BONUS,
    game_bonus: int = GAME_BONUS,
    box_bonus: int = BOX_BONUS,
    shutout: bool = SHUTOUT,
    spades_double: bool = SPADES_DOUBLE,
    ace_means_gin: bool = ACE_MEANS_GIN,
) -> None:
    """Recreate a session from a file made by `ginscore export`, as a new session.

    A JSON export carries everything. A CSV carries the hands only: give its
    house rules as options (as for `new`); every row's score is checked
    against them, and a file that does not add up is refused whole.

    Example: ginscore import friday.json
    """
    from .export import check_against_csv, read_backup
    from .variants import check_session

    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a text file"
        raise Refused(f"cannot read {file}: {reason}; give the path of a file made by `ginscore export`") from None
    rules = _house_rules(locals())
    facts = read_backup(text, str(file), variant=variant.value if variant else None, rules=rules)
    try:
        standings = check_session(facts)
    except BadHandAt as error:
        raise Refused(f"{file} does not add up at {error}") from None
    except Refused as error:
        raise Refused(f"{file}: {error}") from None
    if not facts.name:  # a CSV: its rows must score as the file says
        check_against_csv(standings, text, str(file))
        facts = facts._replace(created_at=facts.hands[0].recorded_at or _now())
    wanted = _session_name(name) or facts.name
    with _store(ctx).writing() as db:
        taken = {n.casefold() for n in db.names()}
        if name is not None and wanted.casefold() in taken:
            raise Refused(f"there is already a session named '{wanted}'; choose another --name")
        chosen = wanted or _free_name(db.names(), facts.variant)
        number = 2
        while chosen.casefold() in taken:
            chosen, number = f"{wanted}-{number}", number + 1
        facts = facts._replace(name=chosen)
        db.add(facts)
    from . import render

    render.say(f"Imported {len(facts.hands)} hands from {file} as '{chosen}'.")
    render.show_standings(replay(facts))


# --- recording hands --------------------------------------------------------

_HAND_SETTINGS = {"ignore_unknown_options": True}  # so "-3" reaches the deadwood check (R3)


CARDS_HELP = "The knocker's 10 cards (11 with --big-gin), like \"AS 2S 3S 7H 7D 7C 9H 10H JH 2D\"."
AGAINST_HELP = "The opponent's 10 cards; lay-offs are found for them (R8)."


@app.command(context_settings=_HAND_SETTINGS)
def hand(
    ctx: typer.Context,
    knocker: str = typer.Argument(..., help="Who knocked (a unique prefix is enough).", metavar="KNOCKER"),
    knocker_deadwood: str = typer.Argument(None, help="The knocker's deadwood; 0 is gin (R11).", metavar="KNOCKER_DEADWOOD"),
    opponent_deadwood: str = typer.Argument(
        None, help="The opponent's deadwood after lay-offs (R8).", metavar="OPPONENT_DEADWOOD"
    ),
    upcard: str = typer.Option(
        None, "--upcard", help="This hand's upcard, like 7h; required in Oklahoma (R15).", metavar="CARD"
    ),
    big_gin: bool = typer.Option(False, "--big-gin", help="An 11-card gin (H2); the session must play big gin."),
    cards: str = typer.Option(None, "--cards", help=CARDS_HELP, metavar="CARDS"),
    against: str = typer.Option(None, "--against", help=AGAINST_HELP, metavar="CARDS"),
    session: str = _session_option(),
) -> None:
    """Record a knocked hand, and show what it scored and the standings.

    Give the two deadwood counts, or the cards themselves with --cards and
    --against: ginscore then finds the best melds and lay-offs.

    Example: ginscore hand ann 4 22   (Ann knocked with 4, Ben had 22)
    """
    told = _Told(knocker, knocker_deadwood, opponent_deadwood, cards, against, upcard, big_gin)
    told.check("ginscore hand ann 4 22")
    standings = _append(ctx, session, lambda facts: told.knock(facts, _now()))
    from . import render

    render.show_hand(standings, standings.hands[-1])


@app.command()
def draw(
    ctx: typer.Context,
    upcard: str = typer.Option(None, "--upcard", help="This hand's upcard, like 7h.", metavar="CARD"),
    session: str = _session_option(),
) -> None:
    """Record a drawn hand: nobody scores, the same dealer deals again (R12, R25).

    Example: ginscore draw
    """
    standings = _append(ctx, session, lambda facts: Draw(upcard=_upcard(upcard), recorded_at=_now()))
    from . import render

    render.show_hand(standings, standings.hands[-1])


@app.command(context_settings=_HAND_SETTINGS)
def edit(
    ctx: typer.Context,
    number: int = typer.Argument(..., help="The hand to correct, as numbered by `ginscore log`.", metavar="N"),
    knocker: str = typer.Argument(None, help="Who knocked.", metavar="KNOCKER"),
    knocker_deadwood: str = typer.Argument(None, help="The knocker's deadwood.", metavar="KNOCKER_DEADWOOD"),
    opponent_deadwood: str = typer.Argument(
        None, help="The opponent's deadwood after lay-offs.", metavar="OPPONENT_DEADWOOD"
    ),
    upcard: str = typer.Option(None, "--upcard", help="The hand's upcard (required in Oklahoma).", metavar="CARD"),
    big_gin: bool = typer.Option(False, "--big-gin", help="An 11-card gin (H2)."),
    cards: str = typer.Option(None, "--cards", help=CARDS_HELP, metavar="CARDS"),
    against: str = typer.Option(None, "--against", help=AGAINST_HELP, metavar="CARDS"),
    as_draw: bool = typer.Option(False, "--draw", help="The hand was really a drawn hand (R12)."),
    session: str = _session_option(),
) -> None:
    """Replace hand N with corrected facts; every later hand is rescored.

    Refused whole if a later hand could no longer stand (it would come after
    the game was won, or its knocker would now sit out).

    Example: ginscore edit 3 ben 6 9 --upcard 8c
    """
    told = None
    if as_draw:
        if any(a is not None for a in (knocker, knocker_deadwood, opponent_deadwood, cards, against)):
            raise Refused("a drawn hand has no knocker, deadwood or cards; give --draw alone (with --upcard if you like)")
    elif knocker is None:
        raise Refused("give the knocker and both deadwood counts, like `ginscore edit 3 ann 4 22`, or --draw")
    else:
        told = _Told(knocker, knocker_deadwood, opponent_deadwood, cards, against, upcard, big_gin)
        told.check("ginscore edit 3 ann 4 22")
    with _store(ctx).writing() as db:
        facts = db.load(session)
        if not 1 <= number <= len(facts.hands):
            raise Refused(f"there is no hand {number} in '{facts.name}' (it has {len(facts.hands)}); see `ginscore log`")
        at = facts.hands[number - 1].recorded_at
        corrected = Draw(upcard=_upcard(upcard), recorded_at=at) if told is None else told.knock(facts, at)
        facts = facts._replace(hands=facts.hands[: number - 1] + (corrected,) + facts.hands[number:])
        standings = _replay_changed(facts, number)
        db.save(facts)
    from . import render

    render.show_hand(standings, standings.hands[number - 1], verb="Corrected")


@app.command()
def undo(
    ctx: typer.Context,
    yes: bool = typer.Option(False, "--yes", "-y", help="Remove without asking."),
    session: str = _session_option(),
) -> None:
    """Remove the last hand of the session (asks first).

    Example: ginscore undo --yes
    """
    from . import render
    from .summary import explain

    store = _store(ctx)
    facts = store.reading().load(session)
    if not facts.hands:
        raise Refused(f"'{facts.name}' has no hands to undo")
    standings = _standings(store, facts)
    last = standings.hands[-1]
    what = f"hand {last.number}: {explain(standings, last)}"
    if not yes:
        try:
            sure = typer.confirm(f"Remove {what}?", default=False)
        except typer.Abort:
            raise Refused("no answer, so nothing was removed; add --yes to remove without asking") from None
        if not sure:
            render.say("Nothing removed.")
            return
    with store.writing() as db:
        now = db.load(facts.name)
        if now.hands != facts.hands:
            raise Refused("the session changed while you were asked; run `ginscore undo` again")
        facts = now._replace(hands=now.hands[:-1])
        db.save(facts)
    render.say(f"Removed {what}.")
    render.show_standings(replay(facts))


# --- reading ----------------------------------------------------------------


def _load(ctx: typer.Context, session: str | None) -> Standings:
    store = _store(ctx)
    return _standings(store, store.reading().load(session))


def _report(ctx: typer.Context, session: str | None, as_json: bool, to_json: str, to_text: str) -> None:
    """Replay a session and show it: ``summary.<to_json>`` for scripts, ``render.<to_text>`` for people.

    Imported by name so that the JSON path never loads Rich.
    """
    standings = _load(ctx, session)
    if as_json:
        from . import summary

        _print_json(getattr(summary, to_json)(standings))
        return
    from . import render

    getattr(render, to_text)(standings)


@app.command()
def status(ctx: typer.Context, as_json: bool = _json_option(), session: str = _session_option()) -> None:
    """Standings: totals (Hollywood: three games), who deals next, roles, winners.

    Example: ginscore status --json
    """
    _report(ctx, session, as_json, "status_dict", "show_standings")


@app.command()
def dealer(ctx: typer.Context, as_json: bool = _json_option(), session: str = _session_option()) -> None:
    """Who deals the next hand (three-player: who is in the box, captains, sits out).

    Example: ginscore dealer
    """
    _report(ctx, session, as_json, "dealer_dict", "show_dealer")


@app.command()
def log(ctx: typer.Context, as_json: bool = _json_option(), session: str = _session_option()) -> None:
    """Every hand of the session with its result and running totals.

    Example: ginscore log
    """
    _report(ctx, session, as_json, "log_dict", "show_log")


class ExportFormat(str, Enum):
    csv = "csv"
    json = "json"


@app.command()
def export(
    ctx: typer.Context,
    fmt: ExportFormat = typer.Option(ExportFormat.csv, "--format", "-f", help="csv (one row per hand) or json (the whole session)."),
    output: Path = typer.Option(None, "--output", "-o", help="Write to this file instead of standard output.", dir_okay=False),
    session: str = _session_option(),
) -> None:
    """The session's hands as CSV (or JSON with --format json).

    Example: ginscore export --output tonight.csv
    """
    from .export import export_csv, export_json

    standings = _load(ctx, session)
    text = export_csv(standings) if fmt is ExportFormat.csv else export_json(standings.facts)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as error:
        raise Refused(f"cannot write {output}: {error.strerror or error}; choose another --output") from None
    sys.stderr.write(f"Wrote {len(standings.hands)} hands of '{standings.facts.name}' to {output}\n")


@app.command()
def sessions(ctx: typer.Context, as_json: bool = _json_option()) -> None:
    """List every session, marking the current one.

    Example: ginscore sessions
    """
    from .summary import session_row

    store = _store(ctx)
    db = store.reading()
    current = db.current_name
    rows = [session_row(f, _standings(store, f), f.name == current) for f in db.all_facts()]
    if as_json:
        _print_json(rows)
        return
    from . import render

    render.show_sessions(rows)


@app.command()
def use(ctx: typer.Context, name: str = typer.Argument(..., help="A session name or a unique prefix of one.", metavar="NAME")) -> None:
    """Make a session current.

    Example: ginscore use hollywood-2
    """
    with _store(ctx).writing() as db:
        found = db.find_name(name)
        db.make_current(found)
    from . import render

    render.say(f"Now keeping score in '{found}'.")


@app.command()
def rules(
    ctx: typer.Context,
    variant: Variant = typer.Argument(
        None, help="standard, oklahoma, hollywood or three; default: the current session's.", metavar="VARIANT"
    ),
) -> None:
    """The rules in plain words, and the current session's house rules.

    Example: ginscore rules oklahoma
    """
    from . import render
    from .rulebook import rule_lines
    from .summary import rules_words

    facts = None
    db = _store(ctx).reading()
    if db.names():
        try:
            facts = db.load(None)
        except Refused:
            facts = None
    chosen = variant.value if variant else (facts.variant if facts else None)
    for line in rule_lines(chosen):
        render.say(line)
    if facts:
        render.say("")
        render.say(f"House rules of '{facts.name}' ({facts.variant}): " + "; ".join(rules_words(facts)) + ".")


def _all_standings(ctx: typer.Context, variant: Variant | None = None, since: str | None = None,
                   player: str | None = None) -> list[Standings]:
    """Every session replayed, oldest first, after the filters of `stats` and `history`."""
    store = _store(ctx)
    everything = store.reading().all_facts()
    chosen = list(everything)
    if variant is not None:
        chosen = [f for f in chosen if f.variant == variant.value]
    if since is not None:
        from datetime import date

        try:
            day = date.fromisoformat(since.strip()).isoformat()
        except ValueError:
            raise Refused(f"--since takes a date like 2026-11-01, not '{since}'") from None
        chosen = [f for f in chosen if (f.created_at or "")[:10] >= day]
    if player is not None:
        known = sorted({p for f in everything for p in f.players}, key=str.casefold)
        wanted = player.strip().casefold()
        if wanted not in {p.casefold() for p in known}:
            raise UnknownPlayer(f"nobody named '{player}' has played; the players are {', '.join(known) or 'none yet'}")
        chosen = [f for f in chosen if wanted in {p.casefold() for p in f.players}]
    chosen.sort(key=lambda f: f.created_at or "")
    return [_standings(store, f) for f in chosen]


@app.command()
def stats(
    ctx: typer.Context,
    player: str = typer.Argument(None, help="Show only this player (and their head-to-head).", metavar="PLAYER"),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    since: str = typer.Option(None, "--since", help="Only sessions started on or after this date.", metavar="DATE"),
    with_player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME"),
    as_json: bool = _json_option(),
) -> None:
    """Who wins, gins and gets undercut: statistics across every session.

    Worked out from the hands as told, like the standings, so an edited hand
    changes them too.

    Example: ginscore stats --since 2026-01-01
    """
    from .stats import statistics

    doc = statistics(_all_standings(ctx, variant, since, with_player))
    if player is not None:
        names = list(doc["players"])
        if not names:
            raise UnknownPlayer(f"no sessions match, so there is no '{player}' to show")
        name = resolve_player(names, player)
        doc = {
            "players": {name: doc["players"][name]},
            "head_to_head": [h for h in doc["head_to_head"] if name in h["players"]],
        }
    if as_json:
        _print_json(doc)
        return
    from . import render

    render.show_stats(doc)


@app.command()
def history(
    ctx: typer.Context,
    player: str = typer.Option(None, "--player", help="Only sessions this player played in.", metavar="NAME"),
    variant: Variant = typer.Option(None, "--variant", help="Only sessions of this variant."),
    as_json: bool = _json_option(),
) -> None:
    """Past sessions, newest first: date, variant, players, winner, final score.

    Example: ginscore history --player ann
    """
    from .summary import history_row

    rows = [history_row(st) for st in reversed(_all_standings(ctx, variant, None, player))]
    if as_json:
        _print_json(rows)
        return
    from . import render

    render.show_history(rows)


@app.command()
def chart(ctx: typer.Context, session: str = _session_option()) -> None:
    """The session's scores over its hands, drawn in the terminal, with the target.

    One letter a player, so it reads without colour; Hollywood's three games
    are drawn side by side.

    Example: ginscore chart
    """
    _report(ctx, session, False, "", "show_chart")


def _ask(question: str, read):
    """Ask until ``read`` accepts the answer; a refused answer is told and asked again."""
    from . import render

    while True:
        answer = typer.prompt(question, default="", show_default=False).strip()
        try:
            return read(answer)
        except Refused as error:
            render.say(f"  {error}")


def _ask_hand(facts: SessionFacts, standings: Standings):
    """One hand, question by question; None when the player quits."""
    from .rules import MAX_DEADWOOD, check_deadwood, knock_limit
    from .variants import resolve_player as resolve

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
    from . import render
    from .summary import explain

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
            if not typer.confirm(f"{explain(preview, preview.hands[-1])}. Record it?", default=True):
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


@app.command()
def deadwood(
    cards: list[str] = typer.Argument(..., help="10 or 11 cards, as separate words or one quoted string.", metavar="CARD..."),
    limit: int = typer.Option(10, "--limit", help="The knock limit to judge by (Oklahoma: the upcard's value, R15)."),
    as_json: bool = _json_option(),
) -> None:
    """The best melds and deadwood of a hand (R2, R3); with 11 cards, the best discard.

    Example: ginscore deadwood AS 2S 3S 7H 7D 7C 9H 10H JH 2D
    """
    from .melds import arrange, best_discard

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
        _print_json(doc)
        return
    from . import render

    render.show_deadwood(spread, discard, big_gin, limit)


@app.command()
def where(ctx: typer.Context) -> None:
    """Print the path of the database file in use.

    Example: ginscore where
    """
    sys.stdout.write(f"{_store(ctx).path}\n")


def _typed_command(args: list[str]) -> str | None:
    """The subcommand a command line names, or None (help, or an option we do not know)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--db":
            skip = True
        elif not arg.startswith("--db="):
            return None if arg.startswith("-") else arg
    return None


def app_for(args: list[str]) -> typer.Typer:
    """An app holding only the command that was typed, else the whole app.

    typer turns every registered command into click objects before parsing,
    which costs more than the rest of a `status --json` (issue 5); the one
    command typed parses exactly as in the whole app. Anything else (help,
    a mistyped command, completion scripts, tests) uses the whole app.
    """
    typed = _typed_command(args)
    chosen = [c for c in app.registered_commands if (c.name or c.callback.__name__) == typed]
    if not chosen:
        return app
    one = _make_app()
    one.registered_callback = app.registered_callback
    one.registered_commands = chosen
    return one


def main() -> None:
    """Console-script entry point (and `python -m ginscore`)."""
    app_for(sys.argv[1:])()
