"""Many sessions: list, choose, export and import them, and where the file is."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from ..errors import BadHandAt, Refused
from ..variants import replay, SessionFacts
from .common import (
    ACE_MEANS_GIN, app, BIG_GIN_BONUS, BOX_BONUS, _free_name, GAME_BONUS, GIN_BONUS, _house_rules,
    _json_option, _load, _now, _print_json, _session_name, _session_option, SHUTOUT, SPADES_DOUBLE,
    _standings, _store, TARGET, UNDERCUT_BONUS, Variant,
)


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
    from ..variants import fold

    facts = _read_export(file, variant.value if variant else None, _house_rules(locals()))
    wanted = _session_name(name) or facts.name
    with _store(ctx).writing() as db:
        taken = {fold(n) for n in db.names()}
        if name is not None and fold(wanted) in taken:
            raise Refused(f"there is already a session named '{wanted}'; choose another --name")
        chosen = wanted or _free_name(db.names(), facts.variant)
        number = 2
        while fold(chosen) in taken:
            chosen, number = f"{wanted}-{number}", number + 1
        facts = facts._replace(name=chosen)
        db.add(facts)
    from .. import render

    render.say(f"Imported {len(facts.hands)} hands from {file} as '{chosen}'.")
    render.show_standings(replay(facts))



def _read_export(file: Path, variant: str | None, rules) -> SessionFacts:
    """The session in a file made by `export`, every field checked as the commands check it.

    Refused when anything is off, its one line made visible: the file's own
    text (a name, a card) can reach the error line.
    """
    from ..export import check_against_csv, read_backup, read_file
    from ..shown import visible
    from ..variants import check_session

    source = visible(str(file))
    try:
        text = read_file(file, source)
        facts = read_backup(text, source, variant=variant, rules=rules)
        try:
            standings = check_session(facts)
        except BadHandAt as error:
            raise Refused(f"{source} does not add up at {error}") from None
        except Refused as error:
            raise Refused(f"{source}: {error}") from None
        if not facts.name:  # a CSV: its rows must score as the file says
            check_against_csv(standings, text, source)
            facts = facts._replace(created_at=facts.hands[0].recorded_at or _now())
    except Refused as error:
        raise Refused(visible(str(error))) from None
    return facts


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
    from ..export import export_csv, export_json

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
    from ..summary import session_row

    store = _store(ctx)
    db = store.reading()
    current = db.current_name
    rows = [session_row(f, _standings(store, f), f.name == current) for f in db.all_facts()]
    if as_json:
        _print_json(rows)
        return
    from .. import render

    render.show_sessions(rows)


@app.command()
def use(ctx: typer.Context, name: str = typer.Argument(..., help="A session name or a unique prefix of one.", metavar="NAME")) -> None:
    """Make a session current.

    Example: ginscore use hollywood-2
    """
    with _store(ctx).writing() as db:
        found = db.find_name(name)
        db.make_current(found)
    from .. import render

    render.say(f"Now keeping score in '{found}'.")



@app.command()
def where(ctx: typer.Context) -> None:
    """Print the path of the database file in use.

    Example: ginscore where
    """
    sys.stdout.write(f"{_store(ctx).path}\n")
