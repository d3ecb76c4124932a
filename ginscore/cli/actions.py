"""The steps commands share: the database this command line chose, a session loaded and
replayed, a hand appended, a session started, a yes/no asked, the session a live board follows
(`watch` and `serve`), and the ratings' figures kept in the cache (`ratings` and `serve` share them)."""

import itertools
import signal
import sys
import threading
from contextlib import contextmanager, suppress
from datetime import datetime

import typer

from ginscore.core.errors import BadHandAt, Command, DatabaseUnusable, GameOver, NEXT_GAME
from ginscore.core.errors import NoSuchSession, Refused
from ginscore.core.escape import visible
from ginscore.core.replay import replay, Standings
from ginscore.core.session import SessionFacts
from ginscore.core.names import fold
from ginscore.core.reports import as_typed, dealing
from ginscore.core.ratings import ladder, rated_games, shown_names  # (openskill only when a rating is made)
from ginscore.db.damage import unsound
from ginscore.db.store import Store


def store_of(ctx: typer.Context) -> Store:
    """The database this command line chose (--db, $GINSCORE_DB or the default)."""
    return ctx.find_root().obj


def time_now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def replay_stored(store: Store, facts: SessionFacts, deleted: bool = False) -> Standings:
    """Replay stored facts; a stored hand that no longer adds up makes the file unusable."""
    try:
        return replay(facts)
    except BadHandAt as error:
        raise DatabaseUnusable(store.path, *unsound(facts.name, error, deleted)) from None


def is_over(facts: SessionFacts) -> bool:
    """Whether the game is over, for what is said of its rules (a damaged hand is not reported here)."""
    try:
        return bool(facts.hands) and replay(facts).over
    except BadHandAt:
        return False


def rules_moving_back(facts: SessionFacts, asking: bool, db=None) -> tuple | None:
    """H8: undoing the last hand makes the house rules agreed from the next hand on apply from it, as it is
    to be played again: said before asking whether to remove it, or once it is removed without asking
    (the parts of a sentence); None when no change waits for the next hand. ``db``: the open database, to
    tell whether advice must add ``--session`` (None in `play`, whose `:edit` acts on the session played)."""
    last = len(facts.hands)
    if not (facts.rule_changes and facts.rule_changes[-1].from_hand > last):
        return None
    if asking:
        return (f"The house rules agreed from hand {last + 1} on will apply from hand {last}, as it is to be "
                "played again (H8); ", Command("edit", *_named_if_open(db, facts), str(last), "..."),
                " corrects it under the rules it was played with.")
    return (f"The house rules agreed from hand {last + 1} on now apply from hand {last}, to be played again (H8).",)


def replay_changed(facts: SessionFacts, changed_hand: int, db=None) -> Standings:
    """Replay after a change at hand ``changed_hand``, refused if any hand breaks (with ``db``, the open
    database: a break before the change is damage in its file, exit 1; and it tells whether advice must
    add ``--session``)."""
    try:
        return replay(facts)
    except BadHandAt as error:
        if db is not None and error.number < changed_hand:
            raise DatabaseUnusable(db.path, *unsound(facts.name, error)) from None
        if error.number == changed_hand:
            raise error.error from None
        if isinstance(error.error, GameOver):
            raise Refused(over_before(facts, error.number)) from None
        if error.number > len(facts.hands):  # the rules of the next hand (H8), not a hand to undo
            raise Refused(f"refused: after that change {error.error}; check the counts, or first give hand "
                          f"{error.number} on another target: ",
                          Command("house", *_named_if_open(db, facts), "--target", "N", "--from-next")) from None
        raise Refused(
            f"refused: after that change hand {error.number} could not stand ({error.error}); "
            "undo or edit the later hands first"
        ) from None


def over_before(facts: SessionFacts, number: int) -> str:
    """The refusal of a change that would end the game before hand ``number`` (R14, R19, R24)."""
    ended = replay(facts._replace(hands=facts.hands[: number - 1]))
    game = facts.game_word
    rule = {"hollywood": "R19", "three": "R24"}.get(facts.variant, "R14")
    wins = f"{ended.winner} wins the {game}" if ended.winner else f"the {game} ends"
    last = len(facts.hands)
    later = f"hand {number}" if number == last else f"hands {number} {'and' if last == number + 1 else 'to'} {last}"
    return (f"refused: with that change {wins} at hand {number - 1}, so {later} would come after "
            f"its end ({rule}); check the counts, or undo {later} first")


def asked(question: str, yes: bool, verb: str, done: str = "", refusal: str = "", names=()) -> bool:
    """A yes/no question, no by default, that ``--yes`` skips (``verb``: what a yes does, ``done``: its
    past tense; ``names``: never broken over two lines). With ``refusal``, a script without ``--yes`` is
    refused so, not asked."""
    if yes:
        return True
    if refusal and not on_a_terminal():
        raise Refused(refusal)
    from ginscore.present.console import say
    from ginscore.present.terminal import screen_width
    from ginscore.present.wrapping import question_lines

    done = done or f"{verb}d"
    lines = question_lines(f"{visible(question)} [y/N]:", screen_width() - 2, names)  # at words, as play asks
    try:
        with asking("\n".join(lines) + " "):
            sure = typer.confirm("\n".join(lines), default=False, show_default=False, prompt_suffix=" ")
    except typer.Abort as stop:
        say("")  # the question's line ends, so the error is not read as its answer
        if isinstance(stop.__context__, KeyboardInterrupt):  # click answers Ctrl-C and Ctrl-D alike
            raise KeyboardInterrupt from None
        raise Refused(f"no answer, so nothing was {done}; add --yes to {verb} without asking") from None
    if not sure:
        say(f"Nothing {done}.")
    return sure


# Far more than any answer (a note or an :edit included): a stream with no line ends, like /dev/zero, is
# then the end of the input, not memory without end.
LONGEST_ANSWER = 65536  # characters


@contextmanager
def asking(shown: str):
    """While someone is asked ``shown``: after Ctrl-Z and `fg` it is written again, and a script's answer is
    read a line at a time, none longer than ``LONGEST_ANSWER`` (a longer one is the end of the input)."""
    with _again_after_fg(shown), _lines_of_bounded_length():
        yield


class _BoundedLines:
    """Standard input as ``input()`` reads it from a script: a line at a time, within ``LONGEST_ANSWER``."""

    def __init__(self, stream):
        self.stream = stream

    def readline(self, size: int = -1) -> str:
        line = self.stream.readline(LONGEST_ANSWER + 1)  # (room for the line's end)
        return "" if len(line.rstrip("\n")) > LONGEST_ANSWER else line

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


@contextmanager
def _lines_of_bounded_length():
    if sys.stdin is None or on_a_terminal():  # (a terminal bounds the line a person types)
        yield
        return
    read, sys.stdin = sys.stdin, _BoundedLines(sys.stdin)
    try:
        yield
    finally:
        sys.stdin = read


@contextmanager
def _again_after_fg(shown: str):
    """After Ctrl-Z and `fg` the shell's own lines stand under the question and the cursor is on an empty
    line, so the question is written again for the answer."""
    if not hasattr(signal, "SIGCONT") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def again(number, frame) -> None:
        with suppress(OSError, RuntimeError, ValueError):  # (an output closed or being written: nothing to add)
            sys.stdout.write(shown)
            sys.stdout.flush()

    previous = signal.signal(signal.SIGCONT, again)
    try:
        yield
    finally:
        signal.signal(signal.SIGCONT, previous)


def on_a_terminal() -> bool:
    """Whether a person can answer a question here: standard input is a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()


def append_hand(ctx: typer.Context, session: str | None, make_hand) -> tuple[Standings, list[tuple]]:
    """Record one more hand under the lock; written only if it stands. Also what to tell of the game's
    rematch (``rematch_news``)."""
    with store_of(ctx).writing() as db:
        before = db.load(session)
        try:
            facts = before._replace(hands=before.hands + (make_hand(before),))
            standings = replay_changed(facts, len(facts.hands), db)
        except GameOver as over:  # said with what follows this game here
            raise over.advising(*next_game_advice(lambda: db, replay(before))) from None
        db.save(facts)
        return standings, rematch_news(db, standings)


def rematch_news(db, standings: Standings, before: SessionFacts | None = None,
                 since: str = "this correction") -> list[tuple]:
    """What a change to a game (``before``: as it was; ``since``: what changed it) tells of its rematch: one
    with no hands yet now starts with another deal (R5, H6) or roles (R23), and how to start it again; or
    the game is in play again while the rematch is current. Said, never stored: a copy elsewhere would
    then differ. As lines: (parts, the names not to break)."""
    if standings.facts.match is None or not (standings.over or before is not None):  # (most hands: nothing to tell)
        return []
    later = game_after(db, standings.facts)
    if later is None or game_after(db, later) is not None:  # (it has a rematch itself: let be)
        return []
    told = []
    name = standings.facts.name
    names = (*standings.facts.players, f"'{visible(later.name)}'", f"'{visible(name)}'")
    first = (None if standings.rematch_roles else standings.rematch_dealer, standings.rematch_roles)
    if standings.over and not later.hands and (later.first_dealer, later.first_roles) != first:
        now = replay(later._replace(first_dealer=first[0], first_roles=first[1]))
        told.append(((f"Its rematch '{visible(later.name)}' has no hands yet and was started as this game stood "
                     f"then ({dealing(replay(later))}); after {since} {dealing(now)}: ",
                     Command("delete", as_typed(later.name), "--yes"), " then ",
                     Command("rematch", *session_named(db, name), "--name", as_typed(later.name)),
                     " start it again."), names))
    if before is not None and not standings.over and db.current_name == later.name and replay(before).over:
        told.append(((f"'{visible(name)}' is not over now, and its rematch '{visible(later.name)}' is still the "
                     "current session: ", Command("use", as_typed(name)), " goes back to it."), names))
    return told


def session_named(db, name: str) -> tuple[str, ...]:
    """What advice about session ``name`` adds so that, typed, it acts on that session: ``--session NAME``,
    unless it is the current one."""
    return () if db.current_name == name else ("--session", as_typed(name))


def _named_if_open(db, facts: SessionFacts) -> tuple[str, ...]:
    return () if db is None else session_named(db, facts.name)


def next_game_advice(open_db, standings: Standings) -> tuple:
    """What to say follows the game of ``standings`` if it is over (``NEXT_GAME``, completed): its rematch, if
    one was started, else the command that starts it, naming the session when it is not the current one.
    ``open_db()`` gives the database, opened only then (a game over is rare; a hand is recorded often)."""
    if not standings.over:
        return NEXT_GAME
    db = open_db()
    later = game_after(db, standings.facts)
    if later is not None:
        return (f"its rematch is '{later.name}'",)
    return (Command("rematch", *session_named(db, standings.facts.name)), *NEXT_GAME[1:], rematch_first(standings))


def rematch_first(standings: Standings) -> str:
    """Who starts the rematch of a game over, as words after a comma: the table asks as soon as a game ends."""
    roles = standings.rematch_roles
    return (f", {roles.box} in the box and {roles.captain} captain (R23)" if roles
            else f", {standings.rematch_dealer} dealing first (H6)")


def numbered_name(db, variant: str) -> str:
    """The first free name VARIANT-N in ``db`` (deleted sessions' names too), for a session given none."""
    folded = {fold(taken) for taken in db.names(include_deleted=True)}
    names = (f"{variant}-{number}" for number in itertools.count(1))
    return next(name for name in names if fold(name) not in folded)


def start_session(ctx: typer.Context, facts: SessionFacts, message: str, rematch_of: SessionFacts | None = None) -> None:
    """Store a new session and show it; a rematch also puts the session it follows in its match."""
    with store_of(ctx).writing() as db:
        if not facts.name:
            facts = facts._replace(name=numbered_name(db, facts.variant))
        if rematch_of is not None:
            old = db.load(rematch_of.name)
            if (old.hands, old.rules) != (rematch_of.hands, rematch_of.rules):
                raise Refused(f"'{old.name}' changed while its rematch was being started; run ",
                              Command("rematch", *session_named(db, old.name)), " again")
            if old.match is None:
                db.save(old._replace(match=facts.match))
            else:  # (another rematch of it, started meanwhile, put it in a match: this one joins it)
                facts = facts._replace(match=old.match)
        db.add(facts)
    from ginscore.present.console import say
    from ginscore.present.screens import show_standings

    say(f"Started '{facts.name}': {', '.join(facts.players)}.")
    if message:
        say(message)
    show_standings(replay(facts))


def session_now(db, name: str, session_id: str | None) -> SessionFacts | None:
    """The live session of this name and id, followed by its id when it was renamed elsewhere
    (`play`, and a session pinned by `watch` or `serve`); None when it is gone."""
    with suppress(Refused):
        facts = db.load(name)
        if session_id in (None, facts.id):
            return facts
    renamed = [doc["name"] for _, doc in db.not_deleted() if session_id is not None and doc.get("id") == session_id]
    return db.load(renamed[0]) if renamed else None


class Pinned:
    """The session ``--session`` pins: its id, and its name as last seen (a rename elsewhere is followed)."""

    def __init__(self, name: str, session_id: str | None):
        self.name, self.id = name, session_id


def pinned_by(store, session: str | None) -> Pinned | None:
    """The session ``--session`` pins; None: the current one, whichever it is."""
    if session is None:
        return None
    facts = store.reading().load(session)
    return Pinned(facts.name, facts.id)


def followed(store, pinned: Pinned | None) -> tuple[Standings, list[Standings] | None]:
    """The session on the board as the file has it now, replayed, and its match (`watch`, `serve`): the
    pinned one (under its name now), else whichever is current now (a rematch, a `use`)."""
    db = store.reading()
    facts = db.load(None) if pinned is None else session_now(db, pinned.name, pinned.id)
    if facts is None:
        raise NoSuchSession(f"the session '{pinned.name}' is no longer in the file (deleted?)")
    if pinned is not None:
        pinned.name = facts.name
    return replay_stored(store, facts), match_of(store, db, facts)


def match_of(store: Store, db, facts: SessionFacts) -> list[Standings] | None:
    """The sessions of ``facts``'s match (linked by `rematch`), oldest first; None when it is in none."""
    if facts.match is None:
        return None
    return [replay_stored(store, game) for game in db.in_match(facts.match)]


def game_before(db, facts: SessionFacts) -> SessionFacts | None:
    """The game ``facts`` is the rematch of, when it is one (a match's earlier game, with its hands)."""
    return _next_in_match(db, facts, -1)


def game_after(db, facts: SessionFacts) -> SessionFacts | None:
    """The session after ``facts`` in its match: its rematch, if one was started."""
    return _next_in_match(db, facts, 1)


def _next_in_match(db, facts: SessionFacts, step: int) -> SessionFacts | None:
    """The session ``step`` places from ``facts`` in its match, read without replaying the match."""
    if facts.match is None:
        return None
    match = db.in_match(facts.match)
    ids = [game.id for game in match]
    at = ids.index(facts.id) + step if facts.id in ids else -1
    return match[at] if 0 <= at < len(match) else None


def load_standings(ctx: typer.Context, session: str | None) -> Standings:
    """The session named (the current one when None), replayed."""
    store = store_of(ctx)
    return replay_stored(store, store.reading().load(session))


def rated_names(store: Store, listings) -> dict[str, str]:
    """How each rated player is shown, kept in the cache (``listings``: a ``cache.rows.Listings``)."""
    return listings.remembered("names", [], lambda: shown_names(_rated(store, listings)))


def rated_ladder(store: Store, listings, names: dict[str, str], variant: str | None = None,
                 since: str | None = None, history: bool = False) -> dict:
    """``ratings --json``, kept in the cache under what was asked (`ratings` and `serve` share it)."""
    return listings.remembered("ladder", [variant, since, history], lambda: ladder(
        [one["games"] for one in _rated(store, listings)], names, variant=variant, since=since, history=history))


def _rated(store: Store, listings) -> list[dict]:
    """What each session gives the ladder, kept in the cache by its facts' digest."""
    def played(facts):
        return {"games": rated_games(facts, replay_stored(store, facts)), "players": list(facts.players),
                "created_at": facts.created_at, "played": bool(facts.hands)}

    return listings.derived("rated", played)
