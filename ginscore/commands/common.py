"""What every command shares: the app, its one exit point, the options and the
steps of loading and saving a session.

``_Group.main`` is where every error reaches the user: one line on standard
error and the exit status of ``errors.ExitStatus``.
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

from .. import fields
from ..cards import parse_card, parse_cards
from ..errors import (
    BadCard, BadDeadwood, BadHandAt, DatabaseUnusable, ExitStatus, GinscoreError, Refused,
)
from ..records import knock_from_cards
from ..rules import VARIANTS, HouseRules
from ..store import Store
from ..variants import (
    fold, Knock, MAX_NAME, SessionFacts, Standings, replay, resolve_player,
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


def _replay_changed(facts: SessionFacts, changed_hand: int, store: Store | None = None) -> Standings:
    """Replay after a change at hand ``changed_hand``; refuse the change if any hand breaks.

    With ``store``, a hand before the change that breaks is damage in the file (exit 1), not a refusal.
    """
    try:
        return replay(facts)
    except BadHandAt as error:
        if store is not None and error.number < changed_hand:
            raise DatabaseUnusable(store.path, f"session '{facts.name}' does not add up at {error}") from None
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
        standings = _replay_changed(facts, len(facts.hands), _store(ctx))
        db.save(facts)
    return standings


def _free_name(taken: list[str], variant: str) -> str:
    folded = {fold(t) for t in taken}
    number = 1
    while fold(f"{variant}-{number}") in folded:
        number += 1
    return f"{variant}-{number}"


def _session_name(typed: str | None) -> str:
    """A --name as typed, spaces folded; "" when none was given (one is chosen)."""
    if typed is None:
        return ""
    name = " ".join(typed.split())
    if not name:
        raise Refused("the session name is empty; give --name a name")
    return fields.text(name, "--name", limit=MAX_NAME)


def _start(ctx: typer.Context, facts: SessionFacts, told: str) -> None:
    with _store(ctx).writing() as db:
        if not facts.name:
            facts = facts._replace(name=_free_name(db.names(), facts.variant))
        db.add(facts)
    from .. import render

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



def _load(ctx: typer.Context, session: str | None) -> Standings:
    store = _store(ctx)
    return _standings(store, store.reading().load(session))


def _report(ctx: typer.Context, session: str | None, as_json: bool, to_json: str, to_text: str) -> None:
    """Replay a session and show it: ``summary.<to_json>`` for scripts, ``render.<to_text>`` for people.

    Imported by name so that the JSON path never loads Rich.
    """
    standings = _load(ctx, session)
    if as_json:
        from .. import summary

        _print_json(getattr(summary, to_json)(standings))
        return
    from .. import render

    getattr(render, to_text)(standings)

