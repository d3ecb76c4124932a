"""`ginscore serve`: the documents of its pages, made from `status --json` and `ratings --json`, and
handed to ``ginscore.web``, which only this command imports."""

import copy
import errno
import gc
import os
import sys

import typer

from ginscore.cache import run_with_the_cache
from ginscore.cache.rows import Listings
from ginscore.core.changes import as_it_ended
from ginscore.core.errors import GinscoreError, message_parts, Refused
from ginscore.core.escape import visible
from ginscore.core.ratings import places
from ginscore.core.replay import Standings
from ginscore.core.times import instant
from ginscore.core.reports import VARIANT_NAMES, explain, never_in_force, rules_words, settlement_words, status_dict
from ginscore.core.reports import winner_words
from ginscore.cli.actions import Pinned, followed, pinned_by, rated_ladder, rated_names, replay_stored
from ginscore.cli.actions import store_of
from ginscore.cli.typer_app import app
from ginscore.cli.options import session_option, whole_number
from ginscore.cli.stopping import ctrl_c_ignored
from ginscore.db.store import Store
from ginscore.present.screens import rules_since
from ginscore.present.terminal import parts_text, screen_width
from ginscore.present.wrapping import wrapped_plain

LAST_HANDS = 5  # hands the session page lists, newest first
CLUB_LAST_HANDS = 1


def table_document(st: Standings, match: list[Standings] | None, last_hands: int = LAST_HANDS) -> dict:
    """What a page shows of one session: ``status --json`` itself, and the words of the screens."""
    facts = st.facts
    on = [sorted({r.winner for r in st.hands if game.number in r.credited}, key=facts.players.index)
          for game in st.games] if facts.variant == "hollywood" else None  # who has scored in each game (R18)
    ended_under, never = as_it_ended(facts, st.over)  # a finished game: the rules it ended under (H8)
    return {
        "status": status_dict(st, match),
        "variant_name": VARIANT_NAMES[facts.variant],
        "house_rules": rules_words(ended_under),
        "rules_since": rules_since(st),  # (" from hand 3" where they changed during play, as `status` says)
        "rules_note": never_in_force(facts, never) if never else None,  # as `status` says it
        "on": on,
        "winner_words": winner_words(st),
        "settlement_words": settlement_words(st),
        "last_hands": [{"hand": r.number, "words": explain(st, r), "note": facts.hands[r.number - 1].note}
                       for r in reversed(st.hands[-last_hands:])],
    }


def served(store: Store, pinned: Pinned | None) -> dict:
    """The session on the page, as on the board of `watch`."""
    return table_document(*followed(store, pinned))


def page_of(store: Store, fill, **empty) -> dict:
    """A page's document: ``empty`` filled in by ``fill``, or the problem that keeps the file from being read."""
    def empty_page() -> dict:
        return {"file": visible(str(store.path)), "problem": None, **copy.deepcopy(empty)}  # a path is hostile too

    page = empty_page()

    def filled() -> None:
        page.update(empty_page())  # (a run again starts from the empty page)
        fill(page)

    try:
        if not os.path.exists(store.path):
            raise Refused(f"The database file {store.path} is not there.")
        run_with_the_cache(filled)
    except GinscoreError as error:
        said = parts_text(message_parts(error))  # as a terminal shows it: --db, characters visible
        page["problem"] = said[:1].upper() + said[1:] + ("" if said.endswith(".") else ".")  # a sentence of its own
    return page


def played_between(facts) -> list[str]:
    """When the session was started and its last hand recorded, as UTC instants (``times.instant``): the
    same whichever time zone reads them, so the cache keeps them for any."""
    times = sorted(instant(when) for when in (facts.created_at, *(h.recorded_at for h in facts.hands)) if when)
    return [times[0], times[-1]] if times else ["", ""]


def club_tables(store: Store, page: dict) -> None:
    """Fill in the club board: each session played today here (the current one first), and the ratings ladder."""
    from datetime import datetime, timedelta

    db = store.reading()
    listings = Listings(db)
    # today on this computer's clock, as UTC instants: a session recorded in another time zone, or in
    # UTC minutes ago, is played today when its time at the table falls in this day
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    start, end = instant(midnight.isoformat()), instant((midnight + timedelta(days=1)).isoformat())
    spans = listings.derived("played_between", played_between)
    today = [doc for (_, doc), (first, last) in zip(db.not_deleted(), spans) if first < end and last >= start]
    for facts in sorted(map(db.facts_of, today), key=lambda facts: facts.name != db.current_name):
        page["tables"].append(table_document(replay_stored(store, facts), None, CLUB_LAST_HANDS))
    ladder = rated_ladder(store, listings, rated_names(store, listings))["players"]
    page["ladder"] = [line | {"place": place} for line, place in zip(ladder, places(ladder))]  # shared as `ratings`


@app.command(short_help="Serve a live score page.")
def serve(
    ctx: typer.Context,
    session: str = session_option(),
    port: int = typer.Option(8000, "--port", parser=whole_number(0, 65535), metavar="N",
                             help="The port to listen on, 0-65535 (0: any free one)."),
    lan: bool = typer.Option(False, "--lan", help="Listen on the local network too, for the phones at the table "
                             "(prints the address with a token, and its QR code)."),
) -> None:
    """A read-only web page of the session's scoreboard, and /club: every session played today and the ratings ladder.

    The pages update by themselves within a second of a hand recorded
    anywhere. Follows the current session unless --session pins one. It
    listens on 127.0.0.1 only; --lan listens on the local network, prints
    the address with a random token and a QR code, and refuses every request
    without the token. It only reads: never locks, never writes. Ctrl-C stops it.

    Example: ginscore serve --lan
    """
    from ginscore.web.app import LiveDocuments
    from ginscore.web.server import LOOPBACK, bound, lan_address, new_token, print_qr, server_for

    gc.enable()  # it runs for an evening: main switched the cyclic collector off for one command
    store = store_of(ctx)
    pinned = pinned_by(store, session)
    served(store, pinned)  # a file or session that cannot be read stops here (exit 1 or 2), as in `watch`
    try:
        listening = bound(lan, port)
    except OSError as error:
        why = "another program listens on it (a second serve?)" if error.errno == errno.EADDRINUSE else (
            os.strerror(error.errno).lower() if error.errno else str(error))
        raise Refused(f"cannot listen on port {port}: {why}; choose another with --port N (0: any free one)") from None
    port = listening.getsockname()[1]
    token = new_token() if lan else None
    host = lan_address() if lan else LOOPBACK
    base = f"http://{host}:{port}/"
    query = f"?token={token}" if lan else ""
    address = base + query
    pages = {"session": lambda: page_of(store, lambda page: page.update(served(store, pinned))),
             "club": lambda: page_of(store, lambda page: club_tables(store, page), tables=[], ladder=[])}
    server = server_for(LiveDocuments(store.path, pages), token)  # before "Ctrl-C stops" is printed
    out = sys.stdout
    out.write(f"Serving {visible(store.path)}\n")
    out.write(f"Scoreboard: {address}\n")
    out.write(f"Club board: {base}club{query}\n")
    if lan:
        reachable = host != LOOPBACK  # no route out: a phone would read 127.0.0.1 as itself
        said = ("Anyone on this network with the address (or the QR code below) can read the scores; nothing "
                "else is served." if reachable else
                "This computer is on no network now, so no phone can reach it: the address works here only.")
        out.write("".join(line + "\n" for line in wrapped_plain(said, screen_width())))
        if reachable:
            print_qr(address, out, screen_width())
    out.write("Read-only · Ctrl-C stops\n")
    out.flush()
    server.run(sockets=[listening])  # Ctrl-C is how serving ends: quietly, exit 0 (as `watch`)
    ctrl_c_ignored()  # however often it is pressed
