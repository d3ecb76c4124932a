"""ginscore's exceptions and exit statuses. An error's arguments are the parts of its one line: text
and the ``Command``s it advises, which only the command line writes out."""

from enum import IntEnum


class ExitStatus(IntEnum):
    """Exit statuses fixed by docs/commands.md ("Errors and exit codes")."""

    OK = 0
    DATABASE = 1  # the database file cannot be used
    REFUSED = 2  # bad usage or a bad fact; nothing was written


class Command(tuple):
    """A command a message advises, kept as its words (``Command("restore", "'fri'")``), so the
    command line can write it for the database in use, with ``--db`` when one was given."""

    def __new__(cls, *words: str):
        return super().__new__(cls, words)

    def __str__(self) -> str:
        return "`ginscore " + " ".join(self) + "`"


class GinscoreError(Exception):
    """Base of every error ginscore reports to the user in one line."""

    status = ExitStatus.REFUSED

    def __str__(self) -> str:
        return "".join(map(str, self.args))

    @classmethod
    def at(cls, place: str, error: "GinscoreError") -> "GinscoreError":
        """``error`` said of a place (``place: error``), keeping the commands it advises."""
        return cls(f"{place}: ", *message_parts(error))


class Refused(GinscoreError):
    """A command or a fact that was refused: exit 2, nothing written."""


class BadCard(Refused):
    """A card that is not in the deck, or typed in a way we cannot read."""


class BadDeadwood(Refused):
    """A deadwood count that cannot be (negative, over 98, not a number)."""


class Advised(Refused):
    """A refusal said as what is wrong, then what to do, so that the command line can give other
    advice where it knows more (a correction, not a hand at the table; the rematch already started)."""

    def __init__(self, wrong: str, *advice: str | Command):
        super().__init__(wrong, "; ", *advice)
        self.wrong = wrong

    def advising(self, *advice: str | Command) -> "Advised":
        return type(self)(self.wrong, *advice)


class IllegalKnock(Advised):
    """A knock over the hand's knock limit (R7, R15, H4)."""


class BadSetting(Refused):
    """A house rule or option that makes no sense for this session."""


class BadHand(Refused):
    """A fact of one hand that cannot stand: no upcard in Oklahoma, roles or a dealer that cannot be,
    big gin with deadwood."""


class NoBigGin(BadSetting):
    """A big gin in a session that plays none (H2)."""


class UnknownPlayer(Refused):
    """A name that matches no player, or more than one."""


class NotInHand(Refused):
    """A three-player knock by the player who sits out (R22)."""


class GameOver(Advised):
    """A hand recorded after the game (or Hollywood series) was won; advised ``NEXT_GAME`` until the
    command line says what it knows (the rematch started, the session to name)."""


NEXT_GAME = (Command("rematch"), " starts the next one")  # what a game over is followed by


class NoSuchSession(Refused):
    """A session name that matches nothing, or no session at all yet."""


class BadField(Refused):
    """A field of an imported or stored session of the wrong type, size or form."""


class BadHandAt(Refused):
    """A stored or edited hand that cannot stand where it is, named by its number."""

    def __init__(self, number: int, error: Refused):
        super().__init__(f"hand {number}: ", *message_parts(error))
        self.number = number
        self.error = error


class DatabaseUnusable(GinscoreError):
    """The database file cannot be read, written or locked: exit 1."""

    status = ExitStatus.DATABASE

    def __init__(self, path, *problem):
        super().__init__(f"the database {path} ", *problem)
        self.path = path
        self.problem = "".join(map(str, problem))


def message_parts(error: GinscoreError) -> tuple:
    """The parts of an error's one line, with the commands it advises kept as ``Command``s."""
    if all(isinstance(part, (str, Command)) for part in error.args):
        return error.args
    return (str(error),)


def interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` is a Ctrl-C, also one Python wrapped: a Ctrl-C while a class is made (in an
    import, say) comes as a RuntimeError from ``__set_name__``."""
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__
    return False
