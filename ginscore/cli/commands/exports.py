"""`export` and `import`: a session out to a file (CSV, JSON, a page or a picture) and back in."""

import functools
import os
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path

import typer

from ginscore.present import terminal
from ginscore.core.errors import BadHandAt, BadSetting, Command, GameOver, NoBigGin, Refused, message_parts
from ginscore.core.escape import json_safe, shell_word, visible, visible_lines
from ginscore.core.names import MAX_NAME, free_name
from ginscore.core.reports import as_typed, counted
from ginscore.core.replay import check_session, replay
from ginscore.core.session import SessionFacts
from ginscore.cli.actions import load_standings, next_game_advice, numbered_name, rematch_news, store_of, time_now
from ginscore.cli.typer_app import app
from ginscore.cli.output import write_exactly
from ginscore.cli.options import session_option, Variant
from ginscore.cli.paths import named_file
from ginscore.cli.rule_options import house_rules_given, rule_values_given, takes_house_rules
from ginscore.cli.typed import session_name
from ginscore.codec.facts import derived_session_id, session_to_dict
from ginscore.db import atomic


@app.command("import", short_help="Bring back an export.")
@takes_house_rules
def import_(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A file made by `ginscore export` (JSON or CSV).", metavar="FILE"),
    name: str = typer.Option(None, "--name", metavar="NAME",
                             help="Name the new session (default: the exported name; a CSV's: VARIANT-N)."),
    variant: Variant = typer.Option(None, "--variant", help="CSV only: standard or oklahoma, which a CSV does not say (it shows hollywood and three itself)."),
    given_rules: dict = None,  # the house-rule options (takes_house_rules)
    as_copy: bool = typer.Option(False, "--as-copy", help="Import it as a new session (a new id, in no match), "
                                 "even when this session is already here."),
) -> None:
    """Recreate a session from a file made by `ginscore export`.

    A JSON export carries everything, with the session's id. A CSV carries the
    hands and the session's id only: give its house rules as options (as for
    `new`), unless its session is here (its own are used); every row's
    score is checked against them, and a file that does not add up is
    refused whole. A session whose id is already here is not added twice:
    the same hands (or fewer) change nothing, more hands after ours are
    added to it, and one that differs is refused; --as-copy imports it as a
    new session all the same.

    Example: ginscore import friday.json
    """
    from ginscore.cli.matched import import_known

    file = named_file(file, "the file to import (made by `ginscore export`)")
    source = visible(str(file))
    store = store_of(ctx)
    if store.owns(str(file)) and os.path.exists(file):  # (merge would refuse it too: nothing to advise)
        raise Refused(f"{source} is this database (or one of its files), not an export; import a file ",
                      Command("export"), " wrote")

    @functools.cache  # asked while the CSV is read and again when its scores are checked: the file read once
    def session_here_by_id(session_id: str) -> SessionFacts | None:  # a CSV's session, if it is here (its rules are)
        db = store.reading()
        found = db.by_id().get(session_id)
        return None if found is None else db.facts_of(found[1])

    # --as-copy with the variant or rules it was played with: a CSV of a session here is read with those,
    # laid over the rules that session started with, rather than refused for them
    rules_over = rule_values_given(given_rules) if as_copy else None
    facts = _read_export(file, variant.value if variant else None, house_rules_given(given_rules), session_here_by_id,
                         rules_over if rules_over or variant is not None else None)
    if as_copy:
        facts = facts._replace(id=None, match=None)  # a new session: a fresh id, in no match
    wanted = session_name(name) or facts.name
    if wanted.startswith("-"):  # (named elsewhere: here every command would read it as an option)
        raise Refused(f"{source} names its session '{wanted}', which cannot start with '-' here: every command "
                      "would read it as an option; import it with --name NAME")
    with store.writing() as db:
        known = None if as_copy else import_known(db, facts, source)
        if known is None:
            if name is not None and db.taken(wanted):
                raise Refused(f"there is already a session named '{wanted}'; choose another --name")
            chosen = free_name(wanted or numbered_name(db, facts.variant), db.taken, lambda number: f"-{number + 1}",
                               MAX_NAME)
            facts = db.add(facts._replace(name=chosen))
    from ginscore.present.console import say

    if known is None:
        say(f"Imported {counted(len(facts.hands), 'hand')} from {file} as '{chosen}'.")
        _show_imported(store, facts)
        return
    kind, here, gone, linked, taken = known  # (a deleted session's name may be a live one's now: asked of the record)
    deleted = (" (deleted here: ", Command("restore", as_typed(here.name)), ")") if gone else ()
    joined = "it joins the match it is in there (a rematch made there)"
    if kind == "kept":
        theirs = len(facts.hands)
        held = ("no hands" if not theirs else f"its {counted(theirs, 'hand')}" if theirs == len(here.hands)
                else f"the first {counted(theirs, 'hand')} of its {len(here.hands)} here")
        say(f"Already here: {source} is session '{here.name}'", *deleted,
            f", with {held}; {joined if linked else 'nothing was written'}.")
    elif not taken:  # only the rules agreed there from the next hand on (H8)
        say(f"Session '{here.name}' was already here", *deleted, f": added the house rules agreed in {source} from "
            f"hand {len(here.hands) + 1} on (H8), no hand with them{'; ' + joined if linked else ''}.")
    else:
        say(f"Session '{here.name}' was already here", *deleted, f": added the later hands from {source}, "
            f"{counted(len(here.hands), 'hand')} now{'; ' + joined if linked else ''}.")
    if name is not None and wanted != here.name and not deleted:  # it names a new session only
        say("--name only names a new session; ", Command("rename", "--session", as_typed(here.name), as_typed(wanted)),
            " renames this one.")
    if kind != "kept" and not deleted:
        _show_imported(store, here)


def _show_imported(store, facts: SessionFacts) -> None:
    """The standings of a session imported; a game over names its rematch when the file has it, and says
    when that rematch, with no hands yet, was started otherwise than the game now ends (R5, R23)."""
    from ginscore.present.console import say
    from ginscore.present.screens import show_standings

    standings = replay(facts)
    show_standings(standings, what_follows=next_game_advice(store.reading, standings))
    for parts, names in rematch_news(store.reading(), standings, since="the hands imported"):
        say(*parts, names=names)


# What a CSV read as standard whose hands have upcards adds to a refusal: an Oklahoma game's always do (R15).
OKLAHOMA_HINT = ("; a CSV does not say its variant: if it was an Oklahoma game (its hands have upcards), add "
                 "--variant oklahoma")


def _read_export(file: Path, variant: str | None, rules, session_here_by_id,
                 rules_over: dict | None) -> SessionFacts:
    """The session in a file made by `export`, every field checked as the commands check it
    (``session_here_by_id``: finds the session of an id here, whose variant and rules a CSV of it takes;
    ``rules_over``: rules given with --as-copy, laid over those)."""
    from ginscore.documents import check_against_csv, read_export, read_file, ScoresDiffer

    source = visible(str(file))
    try:
        text = read_file(file, source)
        facts = read_export(text, source, variant=variant, rules=rules, session_here=session_here_by_id,
                            rules_over=rules_over)
        from_csv = not facts.name  # a CSV carries no session name
        # (read with the rules given over those of its session here: the options are what is off)
        ours = session_here_by_id(facts.id) if from_csv and facts.id and rules_over is None else None
        as_standard = from_csv and not ours and variant is None and facts.variant == "standard"  # (ours: its own)
        hint = OKLAHOMA_HINT if as_standard and any(hand.upcard for hand in facts.hands) else ""
        here = ours or (session_here_by_id(facts.id) if facts.id and not from_csv else None)
        try:  # (a record of a session here: the names its players already have are taken as they are)
            standings = check_session(facts, kept=here.players if here else ())
            if from_csv:  # its rows must score as the file says
                check_against_csv(standings, text, source, ours.name if ours else None)
                pending = [c.from_hand for c in ours.rule_changes if len(ours.hands) < c.from_hand <= len(facts.hands)
                           ] if ours else []  # (agreed here for hands not played here yet, H8)
                if pending:
                    raise Refused(f"its hand {pending[0]} may have been played without the house rules agreed here from "
                                  "that hand on (H8), which a CSV cannot say; import its JSON export (made with "
                                  "--format json), which does")
        except BadHandAt as error:
            if isinstance(error.error, NoBigGin) and from_csv:  # the rules come from the options
                raise Refused(f"{source} does not add up at hand {error.number}: it holds a big gin, and no big gin "
                              "is played under the house rules it is read with (H2); add --big-gin-bonus N with "
                              "the bonus it was played with (often 31)") from None
            if from_csv and facts.variant == "oklahoma" and facts.hands[error.number - 1].upcard is None:
                raise Refused(f"{source} does not add up at hand {error.number}: it has no upcard, which Oklahoma "
                              "needs, as it sets the knock limit (R15); fill in its upcard cell, or import it "
                              "without --variant oklahoma") from None  # (not --upcard, which import has not)
            if isinstance(error.error, GameOver):  # a CSV's target comes from the options; a JSON export's with it
                raise Refused(f"{source} does not add up at hand {error.number}: the {facts.game_word} was already won "
                              "before it under the house rules it is read with; " + (
                                  "give the rules it was played with (like --target 150)" if from_csv else
                                  "no export holds a hand after the end: export the session again")) from None
            raise Refused(f"{source} does not add up at ", *message_parts(error), hint) from None
        except Refused as error:  # (the variant is a likely cause only where the scores or the rules do not fit)
            said = message_parts(error) if str(error).startswith(source) else (f"{source}: ", *message_parts(error))
            raise Refused(*said, hint if isinstance(error, (ScoresDiffer, BadSetting)) else "") from None
        if from_csv:  # without its session's id (older ginscore): the same file is the same session
            facts = facts._replace(created_at=facts.hands[0].recorded_at or time_now(),
                                   id=facts.id or derived_session_id({}, text))
        elif facts.id is None:  # exported before sessions had ids: the id the database gave it
            facts = facts._replace(id=derived_session_id(session_to_dict(facts)))
    except Refused as error:
        if _holds_database(file):  # the file people keep, not an export of one session
            raise Refused(f"{source} is a ginscore database, not an export: ",
                          Command("merge", shell_word(str(file))), " brings in its sessions") from None
        raise Refused(*(visible(part) if isinstance(part, str) else part for part in message_parts(error))) from None
    return facts


def _holds_database(file: Path) -> bool:
    """Whether a file given to import is a database (False where that cannot be told)."""
    from ginscore.db.storage import holds_database
    from ginscore.documents import MAX_FILE

    try:
        if os.stat(file).st_size > MAX_FILE:  # refused for its size: never read whole for advice
            return False
        return holds_database(os.path.realpath(file))
    except (OSError, atomic.NotRegular):
        return False


ExportFormat = Enum("ExportFormat", {name: name for name in ("csv", "json", "html", "svg")}, type=str)


def _export_text(standings, fmt: ExportFormat, finals: bool, excel: bool) -> str:
    """The text `export` writes: CSV and JSON for scripts, HTML and SVG pictures for people."""
    if fmt in (ExportFormat.html, ExportFormat.svg):
        from ginscore.present.pictures import picture

        return picture(standings, fmt.value)
    from ginscore.documents import export_csv, export_json

    if fmt is ExportFormat.csv:
        return export_csv(standings, excel=excel, finals=finals)
    return export_json(standings.facts, standings)


@app.command(short_help="Export or share a session.")
def export(
    ctx: typer.Context,
    fmt: ExportFormat = typer.Option(
        ExportFormat.csv, "--format", "-f",
        help="csv (one row per hand), json (the whole session), or html / svg (standings and log as a page or picture).",
    ),
    output: str = typer.Option(None, "--output", "-o", metavar="FILE",
                               help="Write to this file instead of standard output."),
    finals: bool = typer.Option(False, "--finals", help="How the session ended, a row per player, not its hands."),
    excel: bool = typer.Option(False, "--excel", help="CSV for a spreadsheet: a byte-order mark, CRLF line ends."),
    session: str = session_option(),
) -> None:
    """The session's hands as CSV (or JSON with --format json), or a page or picture to share.

    --finals: how the session ended instead, a row per player (Hollywood: per
    game) with hand points, each bonus, final score, won or lost, and the
    stake's net, as the JSON export carries them. --excel: CSV for a spreadsheet.

    --format html and --format svg draw the standings (Hollywood: every game
    and its bonuses) and the log, as `status` and `log` show them, as wide
    as their widest table.

    Example: ginscore export --output tonight.csv

    Example: ginscore export --finals --excel --output tonight-finals.csv
    """
    if fmt is not ExportFormat.csv and (finals or excel):
        given, carried = ("--finals", fmt is ExportFormat.json) if finals else ("--excel", False)
        why = ": the JSON export carries the finals already" if carried else ""
        raise Refused(f"{given} is for CSV, not --format {fmt.value}{why}; leave out {given} or --format {fmt.value}")
    if output == "-":  # as typed: ./- names a file of that name
        raise Refused("--output - would write a file named '-'; leave out --output to write to standard output "
                      "(./- names such a file)")
    output = None if output is None else named_file(output, "--output a file path")
    target = None if output is None else _export_target(store_of(ctx), output)
    standings = load_standings(ctx, session)
    text = _export_text(standings, fmt, finals, excel)
    if target is None:
        if fmt is ExportFormat.json:  # every character kept readable back, as \u escapes
            sys.stdout.write(json_safe(text, sys.stdout.encoding))
        else:  # UTF-8 whatever the locale: an ASCII one would turn José into Jos\xe9, another name to import
            write_exactly(text.encode("utf-8"), visible_lines(text) if sys.stdout.isatty() else text)
        return
    with _refused_for_output(output):  # all or nothing, beside the target: an existing file keeps its mode
        atomic.replace(target, text.encode("utf-8"), lambda: atomic.existing(target), atomic.existing(target))
    wrote = "the finals" if finals else counted(len(standings.hands), "hand")
    terminal.tell(visible(f"Wrote {wrote} of '{standings.facts.name}' to {output}"))


@contextmanager
def _refused_for_output(output: Path):
    """A file ``--output`` names that is no regular file, or cannot be written, refused as such."""
    try:
        yield
    except atomic.NotRegular as error:
        raise Refused(f"{output} is {error.kind}, not a file; give --output a file path") from None
    except OSError as error:
        raise Refused(f"cannot write {output}: {error.strerror or error}; choose another --output") from None


def _stands_for_what_is_open(path: Path) -> bool:
    """/dev/stdout, /dev/fd/1, /proc/self/fd/1 or a link to one: a name for the file this process has open
    there (`>> log.csv`), which replacing would lose."""
    seen = os.path.abspath(path)
    for _ in range(40):  # (a loop of links is refused later, as any file that cannot be opened)
        # its folder's links followed (`//dev/fd`, a link to /proc/self/fd): the name itself may be the last link
        seen = os.path.join(os.path.realpath(os.path.dirname(seen)), os.path.basename(seen))
        if seen in ("/dev/stdin", "/dev/stdout", "/dev/stderr") or seen.startswith(("/dev/fd/", "/proc/")):
            return True
        if not os.path.islink(seen):
            return False
        seen = os.path.join(os.path.dirname(seen), os.readlink(seen))
    return False


def _export_target(store, output: Path) -> str:
    """The file ``--output`` names (links followed), refused when an export must not replace it."""
    from ginscore.db.companions import is_a_companion, part_of
    from ginscore.db.storage import holds_database

    if _stands_for_what_is_open(output):
        raise Refused(f"{output} stands for whatever is open there (a file a shell appends to, a pipe), which an "
                      "export would replace whole; leave out --output to write to standard output")
    if store.owns(str(output)):
        raise Refused(f"{output} is the database or one of its own files (beside {store.path}); choose another --output")
    target = os.path.realpath(output)
    with _refused_for_output(output):
        existing = atomic.existing(target)
    if part_of(os.path.basename(target)) is not None:
        raise Refused(f"{output} is named as a file of an older ginscore database; choose another --output")
    if is_a_companion(target):
        raise Refused(f"{output} is a file ginscore keeps beside a database (its lock, a temporary file or "
                      "an upgrade's copy), which an export never replaces; choose another --output")
    try:
        found = existing is not None and holds_database(target)  # another database (a copy, a backup)
    except OSError as error:
        raise Refused(f"cannot read {output} to make sure it is no ginscore database "
                      f"({error.strerror or error}); choose another --output") from None
    if found:
        raise Refused(f"{output} is a ginscore database, which an export never replaces; choose another --output")
    return target
