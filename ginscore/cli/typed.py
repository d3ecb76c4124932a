"""What people type, read and checked before the database is read: deadwood counts, cards, a knocked
hand (then checked against its session's hands by ``TypedKnock.knock``), a session's name, a date, how
many sessions a list shows."""

import re
from collections.abc import Callable
from typing import NamedTuple

from ginscore.cli.options import WHOLE_NUMBER
from ginscore.codec import validate
from ginscore.codec.facts import check_note, knock_from_cards
from ginscore.core.cards import parse_card, parse_cards
from ginscore.core.errors import BadCard, BadDeadwood, Command, message_parts, Refused, UnknownPlayer
from ginscore.core.session import in_hand, Knock, SessionFacts
from ginscore.core.names import check_readable, COMMAND_MARK, MAX_NAME, resolve_player
from ginscore.core.replay import game_over, replay
from ginscore.core.escape import visible
from ginscore.present.terminal import screen_height

QUIT_WORDS = ("quit", "q", "stop", "exit")  # play's :quit, and what it says when one is typed without the ':'


def typed_deadwood(text: str, whose: str) -> int:
    """A count as typed: digits, perhaps a minus (refused later with a clearer word, R3)."""
    digits = text.strip()
    if not WHOLE_NUMBER.fullmatch(digits):
        raise BadDeadwood(f"{whose} deadwood '{text}' is not a number; give a whole number from 0 to 98 (R3)")
    if len(digits.lstrip("-")) > validate.MAX_DIGITS:  # past what Python's int() agrees to read
        raise BadDeadwood(f"{whose} deadwood has {len(digits.lstrip('-'))} digits; give a whole number from 0 to 98 (R3)")
    if digits.startswith("-") and not digits.strip("-0"):  # "-0": a slip of the finger, not a gin
        raise BadDeadwood(f"{whose} deadwood '{text}' has a minus sign; count the unmatched cards again (R3: 0 to 98)")
    return int(digits)


def typed_in_play(part):
    """Advice to run `ginscore edit 3 ann 4 22` or `ginscore undo` said inside play, as typed here (`:undo`);
    advice for another session stays a command to type in a shell."""
    if isinstance(part, Command) and part[:1] in (("edit",), ("undo",)) and part[1:2] not in (("--help",),
                                                                                          ("--session",)):
        return "`" + COMMAND_MARK + " ".join(part) + "`"  # (play's own session, no shell at hand; not --help)
    return part


def one_line_knock(text: str, error: Refused, named, playing: list[str]) -> tuple[str, str, str]:
    """`ann 4 22` at play's "Who knocked?", whose ``text`` is no name of ``playing`` (``error`` says so):
    the knocker (read by ``named``) and the two counts as typed; else why not, in the words that help most."""
    words = text.split()
    counted = [bool(WHOLE_NUMBER.fullmatch(word)) for word in words]
    like = f"like {playing[0].lower()} 4 22"  # (a name of this table's, as typed here: unquoted)
    if len(words) >= 3 and counted[-2:] == [True, True]:
        try:
            return named(" ".join(words[:-2])), words[-2], words[-1]  # (a name may hold a number: "Ann 2")
        except Refused:
            if counted[-3]:
                raise Refused("that is more than two counts; give the knocker, then the two "
                              f"deadwood counts, {like}") from None
            raise
    if len(words) >= 3 and all(re.fullmatch(r"[-+]?[0-9]*[.,]?[0-9]+", word) for word in words[-2:]):
        # "ann 4.0 22"
        raise Refused(f"deadwood counts are whole numbers; give the knocker, then both counts, {like}") from None
    if text.lower() in QUIT_WORDS + ("draw", "back", "undo"):
        raise Refused(*message_parts(error), "; commands start with ':', like :draw or :quit") from None
    if len(words) == 2 and counted == [False, True]:  # "ann 0": the knocker, and one count of two
        try:
            name = named(words[0])
        except UnknownPlayer:  # (a player who sits out this hand is told so)
            name = None
        if name:
            other = next(p for p in playing if p != name)
            raise Refused(f"that is one count; give both on one line, {name}'s then {other}'s "
                          f"(like {words[0]} {words[1]} 22), or just the name and each count is asked") from None
    if counted and counted[-1]:  # "4 22", "ann 4": counts, but not a whole knock
        raise Refused(f"no player '{text}'; say who knocked first: a name ({' or '.join(playing)}), "
                      f"or the whole knock on one line, the knocker then both counts, {like}") from None
    raise error


def edit_words(args: list[str]) -> list[str]:
    """`edit`'s words as typed in `play` (`1 ann marie 2 22`): a knocker's name of several words read as
    one, as "Who knocked?" reads `ann marie 2 22` (in a shell the name is quoted)."""
    given = next((n for n, arg in enumerate(args) if arg.startswith("-") and not WHOLE_NUMBER.fullmatch(arg)),
                 len(args))
    words = args[:given]
    if len(words) < 5 or not all(WHOLE_NUMBER.fullmatch(word) for word in words[-2:]):
        return args
    return [words[0], " ".join(words[1:-2]), *words[-2:], *args[given:]]


def typed_upcard(text: str | None):
    return parse_card(text, rank_only=True) if text else None


class TypedKnock(NamedTuple):
    """A knocked hand as typed: two counts, or the two hands of cards."""

    knocker: str
    knocker_deadwood: str | None
    opponent_deadwood: str | None
    cards: str | None
    against: str | None
    upcard: str | None
    big_gin: bool

    def check(self, example: Callable[[], Command]) -> None:
        """Refuse a mix of counts and cards before anything is read (``example()``: the command to advise)."""
        counts = [c for c in (self.knocker_deadwood, self.opponent_deadwood) if c is not None]
        if (self.cards is None) != (self.against is None):
            raise BadCard("give both hands: --cards with the knocker's cards and --against with the opponent's")
        if self.cards is not None and counts:
            raise Refused("give either the two deadwood counts or --cards/--against, not both")
        if self.cards is None and len(counts) != 2:
            raise Refused("give the knocker and both deadwood counts, like ", example(), ", or --cards and --against")

    def knock(self, facts: SessionFacts, at: str | None, note: str | None = None, roles=None) -> Knock:
        """The hand told (``note``: `--note`, as typed; ``roles``: a three-player hand's, when known, else
        those of the hand to come)."""
        def playing():  # who is in this hand: replayed only when the name typed could be two players
            if roles is None:
                standings = replay(facts)
                if standings.over:  # no hand comes next: that is what to say, not that the name is shared
                    raise game_over(facts, standings.winner)
            return in_hand(facts.players, roles or standings.roles)

        name = resolve_player(facts.players, self.knocker, playing)
        told = {"upcard": typed_upcard(self.upcard), "big_gin": self.big_gin, "recorded_at": at,
                "note": check_note(note)}
        if self.cards is not None:
            knocker_cards = parse_cards(self.cards)
            if len(knocker_cards) == 11:
                _eleven_cards(name, knocker_cards, self.big_gin, facts.rules.big_gin_bonus is not None)
            return knock_from_cards(name, knocker_cards, parse_cards(self.against), **told)
        return Knock(
            knocker=name,
            knocker_deadwood=typed_deadwood(self.knocker_deadwood, f"{name}'s"),
            opponent_deadwood=typed_deadwood(self.opponent_deadwood, "the opponent's"),
            **told,
        )


def _eleven_cards(name: str, cards, big_gin: bool, played: bool) -> None:
    """Refuse a knocker's 11 cards unless they are a big gin told as one (H2), saying what to give instead:
    the 10 kept after the discard, or --big-gin where all 11 meld and the session plays big gin."""
    from ginscore.core.melds import arrange  # only a hand told as 11 cards needs the solver

    left = arrange(cards).deadwood
    if left == 0 and big_gin:
        return  # a big gin (a session without it refuses it as any big gin)
    keep = f"give the 10 cards {name} kept after the discard"
    if big_gin:
        raise BadCard(f"big gin melds all 11 cards, but {name}'s leave {left} deadwood (H2); {keep}, without --big-gin")
    if left == 0 and played:
        raise BadCard(f"{name}'s 11 cards all meld: add --big-gin for a big gin (H2), or {keep}")
    raise BadCard(f"the knocker has 11 cards: {keep} (H2)")


def session_name(typed: str | None, what: str = "--name") -> str:
    """A session name as typed, spaces folded; "" when none was given (one is chosen)."""
    if typed is None:
        return ""
    name = " ".join(typed.split())
    if not name:
        raise Refused(f"the session name is empty; give {what} a name")
    if not name.isprintable():
        raise Refused(f"the session name '{visible(name)}' has characters that cannot be shown; type it plainly")
    check_readable(name, "the session name")
    if len(name) > MAX_NAME:
        raise Refused(f"the session name has {len(name)} characters; keep it to {MAX_NAME}")
    not_an_option(name, "a session's")
    return name


def not_an_option(name: str, whose: str) -> None:
    """Refuse a new name that starts with '-' (one kept in an older file stays usable after `--`)."""
    if name.startswith("-"):
        raise Refused(f"{whose} name cannot start with '-': every command would read '{name}' as an option; "
                      "give another name")


def since_day(since: str | None) -> str | None:
    """The date --since names, as YYYY-MM-DD (None without --since)."""
    if since is None:
        return None
    from datetime import date

    try:
        return date.fromisoformat(since.strip()).isoformat()
    except ValueError:
        raise Refused(f"--since takes a date like 2026-11-01, not '{since}'") from None


def how_many(show_all: bool, limit: int | None, as_json: bool) -> tuple[int | None, bool]:
    """How many of the newest sessions a list shows (None: all) and whether it keeps to one screen."""
    if show_all and limit is not None:
        raise Refused("give --all or --limit N, not both")
    if limit is not None:
        return limit, False
    if show_all or as_json:
        return None, False

    return screen_height(), True
