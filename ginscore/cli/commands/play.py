"""`play`: the guided loop for the table, asking each hand question by question (docs/guide.md).
Its commands start with ':', which no player's name can; a hand is saved as soon as it is confirmed."""

import gc
import os
import shlex

import typer

from ginscore.core.cards import parse_card
from ginscore.core.errors import Command, DatabaseUnusable, GinscoreError, Refused, message_parts
from ginscore.core.escape import visible
from ginscore.core.replay import Standings
from ginscore.core.session import Draw, in_hand, Knock, SessionFacts
from ginscore.core.names import COMMAND_MARK, resolve_player
from ginscore.core.scoring import MAX_DEADWOOD, check_deadwood, check_upcard_suit, knock_limit, limit_rule
from ginscore.core.reports import as_typed, explain, hand_words, winner_words
from ginscore.db.storage import writes as database_writes
from ginscore.db.store import file_signature
from ginscore.cli.actions import asking, game_after, replay_changed, replay_stored, rules_moving_back
from ginscore.cli.actions import rematch_first, session_named, session_now, store_of, time_now
from ginscore.cli.typer_app import app
from ginscore.cli.messages import short_numbers, usage_words
from ginscore.cli.options import session_option
from ginscore.cli.typed import edit_words, one_line_knock, QUIT_WORDS, typed_deadwood, typed_in_play
from ginscore.present.console import say
from ginscore.present.screens import show_hand, show_standings
from ginscore.present.terminal import screen_width
from ginscore.present.wrapping import question_lines

HINT = "[:back :undo :edit :help :quit]"  # said in every prompt
# Each line as said; the commands are named without --db: they are not advice, and a path fills a narrow screen.
HELP = ("Answer each question or type a command; commands start with ':' (no name can).",
        'At "Who knocked?" a whole knock fits on one line: the knocker, then both counts ({knocker} 4 22).',
        "  :back        ask the previous question of this hand again",
        "  :undo        remove the last saved hand (asks first), as the `undo` command",
        "  :edit N ...  correct hand N, as the `edit` command (like :edit 3 {knocker} 4 22)",
        '  :draw        at "Who knocked?": the hand was drawn (R12)',
        "  :help        show these commands again",
        "  :quit        stop (Ctrl-D too); every hand you confirmed is saved")
DRAWN = object()  # the answer :draw gives "Who knocked?": the hand was drawn (R12)
CHANGED = ("the session changed elsewhere while this hand was asked (a hand recorded, undone or edited there, "
           "or its house rules). Here it is as it stands now; take the hand again if it is still to be recorded.")


class _Quit(Exception):
    """The player stopped: :quit, Ctrl-D or the end of the input."""


class _Back(Exception):
    """:back: ask the previous question again."""


class _Gone(Exception):
    """The session played is no longer here (deleted elsewhere): play stops."""


class _Again(Exception):
    """Ask the hand in progress again from its first question."""


class _Table:
    """One `play`: the session it keeps score in, its questions, and the commands typed at them."""

    def __init__(self, ctx: typer.Context, name: str):
        self.ctx, self.name, self.store = ctx, name, store_of(ctx)
        self.announced = False  # the standings and who deals next were just shown
        self.id: str | None = None  # the session's own id, once read: followed when renamed elsewhere
        self.facts_when_asked: SessionFacts | None = None  # the session as the hand (or rematch) in progress was asked
        self.seen: tuple | None = None  # the file's signature, taken just before facts_when_asked was read
        self.rematch_when_asked: str | None = None  # the id of its rematch then, if one was started
        self.unsaved = False  # a hand confirmed was not saved (the session changed elsewhere)
        self.no_back = ""  # what :back says where there is no question to go back to
        self.writes_before = database_writes()  # (Ctrl-C once play saved something exits 0, as the change stands)

    def facts(self, db=None) -> SessionFacts:
        """The session played as it is now (followed by its id when renamed elsewhere); ``db``: as read already."""
        found = session_now(self.store.reading() if db is None else db, self.name, self.id)
        if found is None:
            raise _Gone
        self.follow(found.name)
        self.id = found.id
        return found

    def follow(self, name: str) -> None:
        """Go on under the session's name as it is now (renamed elsewhere), saying so."""
        if name != self.name:
            say(f"'{visible(self.name)}' was renamed '{visible(name)}' elsewhere; play goes on in it.")
            self.name = name

    def save(self, told) -> Standings:
        """Save the confirmed hand, only if the session is still as it was asked (its name aside)."""
        try:
            with self.store.writing() as db:
                now = session_now(db, self.name, self.id)
                if now is None:
                    raise _Gone("the hand just confirmed was not saved")
                if not _same(now, self.facts_when_asked):
                    raise _Again  # (out of the block: nothing is written)
                started = game_after(db, now)
                facts = now._replace(hands=now.hands + (told,))
                standings = replay_changed(facts, len(facts.hands), db)
                db.save(facts)
        except (_Again, DatabaseUnusable) as error:
            self.unsaved = True
            if isinstance(error, DatabaseUnusable):  # (the error, said next, names the file and what to do)
                say("Not saved: the hand just confirmed, as the database cannot be used now.")
            else:
                _as_it_stands(self, f"Not saved: {CHANGED}")
            raise
        self.follow(facts.name)
        if started is not None and started.id != self.rematch_when_asked:  # (its hands are as asked: saved here)
            say(f"Saved in '{visible(self.name)}', whose rematch '{visible(started.name)}' was started elsewhere while "
                "this hand was asked; play goes on here (", Command("play", "--session", as_typed(started.name)),
                " keeps score there).")
        return standings

    def check_unchanged(self) -> None:
        """Between two questions: a session changed elsewhere (maybe while stopped by Ctrl-Z) is shown as it stands
        and the hand asked again; a file unreadable or without it just now (a sync client) is left for the save."""
        now = file_signature(self.store.path)
        try:
            changed = now != self.seen and not _same(self.facts(), self.facts_when_asked)
        except (GinscoreError, _Gone):
            return
        if changed:
            _as_it_stands(self, f"Stopped this hand: {CHANGED}")
            raise _Again
        self.seen = now

    def example_knocker(self) -> str:
        """A player of this session, as an example of a knocker's name typed here."""
        return (self.facts_when_asked or self.facts()).players[0].lower()

    def ask(self, question: str, read, *, draw: bool = False):
        """Ask until ``read`` accepts the answer; a command is run, a refused answer told, and it is asked again."""
        # In lines that fit a narrow screen; the answer goes after the last.
        names = self.facts_when_asked.players  # (set before any question is asked)
        prompt = "\n".join(question_lines(visible(f"{question} {HINT}"), screen_width() - 2, names))
        while True:
            try:
                with asking(f"{prompt}: "):
                    answer = typer.prompt(prompt, default="", show_default=False).strip()
            except typer.Abort as stop:  # Ctrl-D, Ctrl-C or the end of the input: play stops
                if isinstance(stop.__context__, KeyboardInterrupt) and database_writes() == self.writes_before:
                    say("")  # the question's line ends, so the error is not read as its answer
                    raise KeyboardInterrupt from None  # Ctrl-C before anything was saved: as every command (130)
                raise _Quit from None
            if not answer.startswith(COMMAND_MARK):
                try:
                    return read(answer)
                except Refused as error:  # (Enter alone is a slip, not a name or a count to be told off about)
                    said = message_parts(error) if answer else ("nothing was typed; give an answer, or :help",)
                    say("  ", *map(short_numbers, said))
                continue
            word, _, rest = answer[len(COMMAND_MARK):].strip().partition(" ")
            word = word.lower()
            if word == "draw" and draw:
                return DRAWN
            if word == "back" and self.no_back:
                say(self.no_back)
            else:
                self.command(word, rest)

    def yes_no(self, question: str, default: bool) -> bool:
        def read(text: str) -> bool:
            if text.lower() in ("", "y", "yes", "n", "no"):
                return text.lower().startswith("y") if text else default
            raise Refused("answer y or n (or a command, like :back)")

        return self.ask(f"{question} {'[Y/n]' if default else '[y/N]'}", read)

    def command(self, word: str, rest: str) -> None:
        if word == "back":
            raise _Back
        if word in QUIT_WORDS:
            raise _Quit
        if word in ("undo", "edit"):
            before = self.facts()
            if not _same(before, self.facts_when_asked):
                _as_it_stands(self, f"  Not done: the session changed elsewhere while this hand was asked; here it "
                              f"is as it stands now (:{word} again if it is still to be done).")
                raise _Again
            if word == "undo" and not rest.strip() and before.hands:  # asked as every question here is
                if not self.undo_confirmed(before):
                    return
                rest = "--yes"
            ran = self.run(word, rest)
            if self.facts() != before:
                self.announced = ran  # it showed the standings; else (changed elsewhere) they are shown next
                raise _Again
        elif word == "help":
            for line in HELP:
                say(line.format(knocker=self.example_knocker()))
        elif word == "draw":
            say('  :draw answers "Who knocked?"; it is not this question')
        else:
            say(f"  there is no command ':{visible(word)}'; :help lists the commands")

    def undo_confirmed(self, before: SessionFacts) -> bool:
        """Whether to remove the last hand, asked as play asks (its commands work there too); a session
        changed elsewhere meanwhile is shown as it stands, and nothing is removed."""
        standings = replay_stored(self.store, before)
        last = standings.hands[-1]
        if moving := rules_moving_back(before, asking=True):  # (H8) said before the question, as `undo` says it
            say(*moving)
        no_back, self.no_back = self.no_back, ""  # :back here goes back to the question :undo was typed at
        try:
            removing = self.yes_no(f"Remove hand {last.number}: {explain(standings, last)}?", False)
        except _Back:
            removing = False
        finally:
            self.no_back = no_back
        if not removing:
            say("Nothing removed.")
            return False
        if not _same(self.facts(), before):
            _as_it_stands(self, "  Not done: the session changed elsewhere while you were asked; here it is as it "
                          "stands now (:undo again if it is still to be done).")
            raise _Again
        return True

    def run(self, name: str, rest: str = "") -> bool:
        """Run `ginscore NAME REST --session SESSION` itself, as if typed; a refusal is told (False)."""
        try:
            args = shlex.split(rest)
        except ValueError as error:
            say(f"  cannot read that: {error}")
            return False
        args = edit_words(args) if name == "edit" else args  # (`:edit 1 ann marie 2 22`: a name unquoted)
        if any(arg == "--db" or arg.startswith("--db=") for arg in args):  # (it would act on another file)
            say(f"  --db cannot be given here: play keeps score in '{visible(self.name)}' of its own database")
            return False
        try:  # not Group.main, the exit point: play tells a refusal itself and goes on (its --db advice kept)
            self.ctx.find_root().command.resolve_command(self.ctx, [name, *args])[1].main(  # (options checked)
                args + ["--session", self.name], prog_name=f"ginscore {name}", standalone_mode=False, obj=self.store)
        except Refused as error:
            say("  ", *map(typed_in_play, map(short_numbers, message_parts(error))))
            return False
        except typer.TyperException as error:  # how it is typed here, not `ginscore edit --help`
            typed = f":edit 3 {self.example_knocker()} 4 22" if name == "edit" else COMMAND_MARK + name
            say("  ", *map(short_numbers, usage_words(error, see=f"type it like `{typed}` (:help for more)")))
            return False
        return True


def _same(now: SessionFacts, when_asked: SessionFacts) -> bool:
    """The session is as it was asked: a new name, or the match a rematch made of it, changes no hand."""
    return now._replace(name=when_asked.name, match=when_asked.match) == when_asked


def _rematch_of(table: _Table) -> SessionFacts | None:
    """The rematch of the session played, if one was started here or elsewhere (the next in its match)."""
    db = table.store.reading()
    facts = session_now(db, table.name, table.id)
    return None if facts is None else game_after(db, facts)


def _steps(table: _Table, facts: SessionFacts, standings: Standings) -> list:
    """The questions of one hand, in order: (key, whether it applies given the answers so far, ask)."""
    rules = facts.rules
    playing = in_hand(facts.players, standings.roles)

    def knocker_named(text: str) -> str:
        name = resolve_player(facts.players, text, lambda: playing)
        if name not in playing:
            raise Refused(f"{name} sits out this hand; {' or '.join(playing)} can knock (R22)")
        return name

    def read_knocker(answers, text: str) -> str | dict:
        """Who knocked, or the whole knock on one line (``ann 4 22``), each count checked as if asked."""
        try:
            return knocker_named(text)
        except Refused as error:
            name, mine, theirs = one_line_knock(text, error, knocker_named, playing)
            return {"knocker": name, "knocker_deadwood": knockers_count(answers, name)(mine),
                    "opponent_deadwood": count(f"{opponent_of(name)}'s", MAX_DEADWOOD)(theirs)}

    def opponent_of(knocker: str) -> str:
        return next(p for p in playing if p != knocker)

    def knockers_count(answers, knocker: str):
        return count(f"{knocker}'s", knock_limit(facts.variant, rules, answers.get("upcard")))

    def count(whose: str, most: int):
        def read(text: str) -> int:
            value = typed_deadwood(text, whose)
            check_deadwood(value, whose)
            if value > most and most == 0:
                raise Refused(f"{value} is not gin, and this hand allows only gin (H4: ace means gin); "
                              "check the upcard, or the count of a gin is 0")
            if value > most:
                raise Refused(f"{value} is over this hand's knock limit of {most} ({limit_rule(facts.variant)}); "
                              "check the count")
            return value

        return read

    def upcard(_answers) -> object:  # R15: the upcard first, it sets the knock limit
        def read(text: str):
            if len(text.split()) >= 3:  # "ann 4 22": the knock, told before the question asked first here
                raise Refused("the upcard comes first here, as it sets the knock limit (R15): give it alone, "
                              "like 7h; who knocked is asked next")
            card = parse_card(text, rank_only=True)
            check_upcard_suit(rules, card)  # (said as `hand --upcard` says it)
            return card

        return table.ask("Upcard (like 7h)?", read)

    def knocker(answers) -> object:
        return table.ask(f"Who knocked, {' or '.join(playing)}? (or :draw)", lambda text: read_knocker(answers, text),
                         draw=True)

    def knocker_deadwood(answers) -> int:
        return table.ask(f"{answers['knocker']}'s deadwood?", knockers_count(answers, answers["knocker"]))

    def big_gin(_answers) -> bool:
        return table.yes_no("All 11 cards melded (big gin)?", default=False)

    def opponent_deadwood(answers) -> int:
        opponent = opponent_of(answers["knocker"])
        if answers["knocker_deadwood"] == 0:  # nothing is laid off on gin (R8, R11)
            question = f"{opponent}'s deadwood? (gin: nothing is laid off)"
        else:
            question = f"{opponent}'s deadwood after lay-offs (R8)?"
        return table.ask(question, count(f"{opponent}'s", MAX_DEADWOOD))

    def confirm(answers) -> object:
        if answers["knocker"] is DRAWN:
            told = Draw(upcard=answers.get("upcard"), recorded_at=time_now())
        else:
            told = Knock(answers["knocker"], answers["knocker_deadwood"], answers["opponent_deadwood"],
                         answers.get("upcard"), answers.get("big_gin", False), time_now())
        try:
            preview = replay_changed(facts._replace(hands=facts.hands + (told,)), len(facts.hands) + 1)
        except Refused as error:
            say("Not recorded: ", *message_parts(error), ". Take the hand again.")
            raise _Again from None
        if table.yes_no(f"{explain(preview, preview.hands[-1])}. Record it?", default=True):
            return told
        say("Not recorded; take the hand again.")
        raise _Again

    def knocked(answers) -> bool:
        return answers["knocker"] is not DRAWN

    def gin_with_big_gin(answers) -> bool:  # H2: only a session playing big gin asks
        return knocked(answers) and answers["knocker_deadwood"] == 0 and rules.big_gin_bonus is not None

    return [
        ("upcard", lambda _answers: facts.variant == "oklahoma", upcard),
        ("knocker", lambda _answers: True, knocker),
        ("knocker_deadwood", knocked, knocker_deadwood),
        ("big_gin", gin_with_big_gin, big_gin),
        ("opponent_deadwood", knocked, opponent_deadwood),
        ("hand", lambda _answers: True, confirm),
    ]


def _ask_hand(table: _Table, facts: SessionFacts, standings: Standings):
    """One hand, question by question, with :back to the previous question; the confirmed hand."""
    steps, answers, at = _steps(table, facts, standings), {}, 0
    while at < len(steps):
        key, applies, ask = steps[at]
        if not applies(answers) or key in answers:  # in answers: given on the knocker's line
            at += 1
            continue
        earlier = [i for i in range(at) if steps[i][1](answers)]
        first = "  This is the first question of the hand; :undo removes the last saved hand."
        table.no_back = "" if earlier else first
        try:
            answer = ask(answers)
            answers.update(answer if isinstance(answer, dict) else {key: answer})
            at += 1
            if key != "hand":  # (a confirmed hand is checked as it is saved)
                table.check_unchanged()
        except _Back:
            at = earlier[-1]
            for later, _applies, _ask in steps[at:]:
                answers.pop(later, None)
        except _Quit:
            if answers:  # stopped part way: said, so that nobody takes the hand begun for one kept
                say("")
                say(f"Hand {len(facts.hands) + 1} was not saved: it was stopped before it was confirmed.")
            raise
    return answers["hand"]


def _game_over(table: _Table, standings: Standings) -> None:
    """The game is over: offer the rematch (default yes) and go on in it; no stops."""
    if not table.announced:
        say(winner_words(standings) or f"'{table.name}' is over.")
    if _went_on_in_rematch(table):  # started before play, or elsewhere: never a second one
        return
    game = standings.facts.game_word  # R19: a rematch is a new series
    table.no_back = f"  The {game} is over, so there is no question to go back to; :undo removes the last saved hand."
    wanted = table.yes_no(f"The {game} is over. Play a rematch{rematch_first(standings)}?", default=True)
    if not _same(table.facts(), standings.facts):  # undone or edited elsewhere: the game may go on
        _as_it_stands(table, "No rematch: the session changed elsewhere while this was asked; here it is as it "
                      "stands now.")
        raise _Again
    if not wanted:
        started = _rematch_of(table)
        if started is not None:  # started elsewhere while this was asked: never advised a second time
            say(f"No rematch here; its rematch '{visible(started.name)}' was started elsewhere: ",
                Command("play", "--session", as_typed(started.name)), " keeps score in it.")
            raise _Quit
        say("No rematch; ", Command("rematch", *session_named(table.store.reading(), table.name)), " starts one later.")
        raise _Quit
    if not _went_on_in_rematch(table) and table.run("rematch"):  # (one started elsewhere meanwhile: no second)
        started = _rematch_of(table)
        if started is not None:
            table.name, table.id, table.announced = started.name, started.id, True  # its start was shown


def _went_on_in_rematch(table: _Table) -> bool:
    """Go on in the rematch of the session played if one was already started, its standings shown first."""
    started = _rematch_of(table)
    if started is None:
        return False
    table.name, table.id = started.name, started.id
    _as_it_stands(table, f"Its rematch '{visible(started.name)}' was already started; play goes on in it.")
    return True


def _as_it_stands(table: _Table, said: str, standings: Standings | None = None) -> None:
    """``said``, then the standings of the session as it stands now (then who deals next is said)."""
    say(said)
    standings = replay_stored(table.store, table.facts()) if standings is None else standings
    show_standings(standings, footer=False)
    table.announced = standings.over  # its winner was just said; else who deals next is said next


@app.command(short_help="Keep score step by step.")
def play(ctx: typer.Context, session: str = session_option()) -> None:
    """A guided loop for the table: asks for each hand, saves it, shows the standings.

    It says who deals (and who is in the box), then asks who knocked (or
    :draw), the knocker's deadwood and the opponent's (after lay-offs, unless
    it is gin; Oklahoma: the upcard first); `ann 4 22` at "Who knocked?"
    answers all three. Commands start with ':', which no
    name can: :back (the previous question), :undo, :edit N ... (as the
    commands), :quit. Each hand is saved as soon as you confirm it, so
    quitting (or Ctrl-D) loses nothing. When the game ends it offers the
    rematch and goes on.

    Example: ginscore play
    """
    gc.enable()  # it runs for an evening: main switched the cyclic collector off for one command
    table = _Table(ctx, store_of(ctx).reading().find_name(session))
    table.command("help", "")  # the commands, as :help shows them
    resumed = True  # play started on a session: one with hands is shown as it stands first
    try:
        while True:
            table.seen = file_signature(table.store.path)
            db = table.store.reading()
            facts = table.facts_when_asked = table.facts(db)
            started = game_after(db, facts)
            table.rematch_when_asked = None if started is None else started.id
            standings = replay_stored(table.store, facts)
            if resumed and facts.hands:
                _as_it_stands(table, "", standings)
            resumed = False
            if standings.over:
                try:
                    _game_over(table, standings)
                except _Again:  # :undo, :edit or a change elsewhere: the game may go on
                    pass
                continue
            say("")
            say(f"Hand {len(facts.hands) + 1}." if table.announced else hand_words(standings))
            table.announced = False
            try:
                standings = table.save(_ask_hand(table, facts, standings))
            except _Again:
                continue
            show_hand(standings, standings.hands[-1], verb="Saved", footer=False)
            table.announced = standings.over
    except _Quit:
        say("")
        say("Stopped. Every hand you confirmed is saved." if not table.unsaved else
            "Stopped. Every hand saved above is kept; those said to be not saved were not.")
    except _Gone as gone:
        say("")
        say(*_gone_words(table, gone.args[0] if gone.args else "every hand confirmed before is saved"))


def _gone_words(table: _Table, kept: str) -> tuple:
    """Why play stopped with its session gone: the file taken away, or the session deleted (and how to
    bring it back), or neither to be told; ``kept``: what became of the hands confirmed."""
    if not os.path.exists(table.store.path):  # (a sync client replacing it, a move)
        return (f"Stopped: the database file {visible(str(table.store.path))} is not there; {kept}.",)
    try:
        deleted = table.name in table.store.reading().deleted_names()
    except GinscoreError:  # (unusable now: the next command says why)
        deleted = False
    if deleted:
        return (f"Stopped: '{visible(table.name)}' was deleted elsewhere; {kept}. ",
                Command("restore", as_typed(table.name)), " brings it back.")
    return (f"Stopped: '{visible(table.name)}' is no longer here; {kept}.",)
