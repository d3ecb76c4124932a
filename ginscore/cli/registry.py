"""Every command once: its name, its module, whether it takes --session, whether its advice acts on
a database. Help, lazy loading, completion, advice and the tests read it."""

from ginscore.core.errors import Command


class CommandEntry:
    """One command; a plain class, as a NamedTuple class costs more to make at every start."""

    __slots__ = ("name", "module", "takes_session", "instead_of_session", "advice_takes_db", "hidden")

    def __init__(self, name: str, module: str, takes_session: bool, instead_of_session: str | tuple = "",
                 advice_takes_db: bool = True, hidden: bool = False) -> None:
        self.name = name
        self.module = module  # ginscore/cli/commands/MODULE.py defines it
        self.takes_session = takes_session
        # A command without --session: what it covers instead, told to whoever gives one ({session}: the
        # name they gave); text, or parts of text and commands to advise.
        self.instead_of_session = instead_of_session
        # Whether advice to run it acts on a database, so it is given this command line's --db
        # (not `export`: a file "made by `ginscore export`" may be any database's).
        self.advice_takes_db = advice_takes_db
        self.hidden = hidden  # left out of `--help` and the completion scripts


COMMANDS = (
    CommandEntry("new", "table", False, "it starts a session of its own (--name names it)"),
    CommandEntry("rematch", "table", True),
    CommandEntry("hand", "table", True),
    CommandEntry("draw", "table", True),
    CommandEntry("edit", "table", True),
    CommandEntry("undo", "table", True),
    CommandEntry("house", "house", True),
    CommandEntry("status", "view", True),
    CommandEntry("dealer", "view", True),
    CommandEntry("log", "view", True),
    CommandEntry("rules", "view", False, ("it shows the rules with the current session's house rules; ",
                                     Command("house", "--session", "{session}"), " shows that session's")),
    CommandEntry("chart", "view", True),
    CommandEntry("import", "exports", False, "it brings in the session a file holds (--name names it)"),
    CommandEntry("export", "exports", True, advice_takes_db=False),
    CommandEntry("sessions", "sessions", False,
                 ("it lists every session; ", Command("status", "--session", "{session}"), " shows one")),
    CommandEntry("use", "sessions", False, ("give the name itself, ", Command("use", "{session}"))),
    CommandEntry("where", "sessions", False, "it prints the database's path (--db picks the database)",
                 advice_takes_db=False),
    CommandEntry("rename", "sessions", True),
    CommandEntry("delete", "sessions", False, ("give the name itself, ", Command("delete", "{session}"))),
    CommandEntry("restore", "sessions", False, ("give the name itself, ", Command("restore", "{session}"))),
    CommandEntry("merge", "merge", False, "it brings in every session of another database"),
    CommandEntry("stats", "after", False, "it counts every session; --player, --variant or --since narrow it"),
    CommandEntry("history", "after", False, "it lists every past session; --player, --variant or --limit narrow it"),
    CommandEntry("ratings", "ratings", False, "it rates every finished game; --player, --variant or --since narrow it"),
    CommandEntry("play", "play", True),
    CommandEntry("watch", "watch", True),
    CommandEntry("serve", "serve", True),
    CommandEntry("deadwood", "deadwood", False, "it counts the cards typed, not a session's", advice_takes_db=False),
    CommandEntry("complete", "complete", True, advice_takes_db=False, hidden=True),
)

BY_NAME = {command.name: command for command in COMMANDS}
NAMES = tuple(BY_NAME)  # in the order `--help` lists them
ADVISED_COMMANDS = tuple(command.name for command in COMMANDS if command.advice_takes_db)
