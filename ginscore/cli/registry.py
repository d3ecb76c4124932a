"""Every command once: its name, its module, whether it takes --session, whether its advice acts on
a database. Help, lazy loading, completion, advice and the tests read it."""


class Command:
    """One command; a plain class, as a NamedTuple class costs more to make at every start."""

    __slots__ = ("name", "module", "takes_session", "instead", "advised", "hidden")

    def __init__(self, name: str, module: str, takes_session: bool, instead: str | tuple = "", advised: bool = True,
                 hidden: bool = False) -> None:
        self.name = name
        self.module = module  # ginscore/cli/commands/MODULE.py defines it
        self.takes_session = takes_session
        # Without --session: what it covers instead, said when one is given ({session}: the name given);
        # text, or parts where a tuple is a command to advise.
        self.instead = instead
        # Whether advice to run it acts on a database, so it is given this command line's --db
        # (not `export`: a file "made by `ginscore export`" may be any database's).
        self.advised = advised
        self.hidden = hidden  # left out of `--help` and the completion scripts


COMMANDS = (
    Command("new", "table", False, "it starts a session of its own (--name names it)"),
    Command("rematch", "table", True),
    Command("hand", "table", True),
    Command("draw", "table", True),
    Command("edit", "table", True),
    Command("undo", "table", True),
    Command("house", "house", True),
    Command("status", "view", True),
    Command("dealer", "view", True),
    Command("log", "view", True),
    Command("rules", "view", False, ("it shows the rules with the current session's house rules; ",
                                     ("house", "--session", "{session}"), " shows that session's")),
    Command("chart", "view", True),
    Command("import", "sessions", False, "it brings in the session a file holds (--name names it)"),
    Command("export", "sessions", True, advised=False),
    Command("sessions", "sessions", False, ("it lists every session; ", ("status", "--session", "{session}"), " shows one")),
    Command("use", "sessions", False, ("give the name itself, ", ("use", "{session}"))),
    Command("where", "sessions", False, "it prints the database's path (--db picks the database)", advised=False),
    Command("rename", "sessions", True),
    Command("delete", "sessions", False, ("give the name itself, ", ("delete", "{session}"))),
    Command("restore", "sessions", False, ("give the name itself, ", ("restore", "{session}"))),
    Command("merge", "merge", False, "it brings in every session of another database"),
    Command("stats", "after", False, "it counts every session; --player, --variant or --since narrow it"),
    Command("history", "after", False, "it lists every past session; --player, --variant or --limit narrow it"),
    Command("ratings", "ratings", False, "it rates every finished game; --player, --variant or --since narrow it"),
    Command("play", "live", True),
    Command("watch", "watching", True),
    Command("serve", "serve", True),
    Command("deadwood", "cards", False, "it counts the cards typed, not a session's", advised=False),
    Command("complete", "complete", True, advised=False, hidden=True),
)

BY_NAME = {command.name: command for command in COMMANDS}
NAMES = tuple(BY_NAME)  # in the order `--help` lists them
ADVISED_COMMANDS = tuple(command.name for command in COMMANDS if command.advised)
