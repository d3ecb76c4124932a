"""Players' names: how they are compared (ignoring case, accents and width), matched when typed,
and checked before a session keeps them (docs/commands.md)."""

import unicodedata
from functools import lru_cache
from itertools import count

from ginscore.core.errors import Command, Refused, UnknownPlayer
from ginscore.core.escape import BLANK, shows_nothing, spelled, visible

MAX_NAME = 200  # characters in a player's or a session's name


# Printable characters a screen shows as nothing (joiners, variation selectors, and the blank ones: Hangul
# fillers, the blank Braille pattern): "Ann" with one of them is still Ann, never a second player who looks the same.
_UNSEEN = dict.fromkeys((*BLANK, 0x034F, 0x17B4, 0x17B5, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10),
                         *range(0xE0100, 0xE01F0)))


@lru_cache(maxsize=65536)  # a club has a few names, each folded again and again in one run; bounded all the same
def fold(name: str) -> str:
    """A name as compared: ignoring case, accents, width, runs of spaces and what shows as nothing
    (``Ａnn`` is ``Ann``, ``José`` in either Unicode form is ``Jose``). Stored names keep their spelling."""
    plain = " ".join(name.translate(_UNSEEN).split())
    split = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", plain))
    return "".join(c for c in split if not unicodedata.combining(c)).casefold()


def spelled_as(names, name) -> str | None:
    """The one of ``names`` that ``name`` is written another way for (case, accents, width), if any: what a
    file edited by hand is told, where a command would match a prefix too."""
    return next((n for n in names if fold(n) == fold(name)), None) if isinstance(name, str) else None


def match_name(names, typed: str) -> list[str]:
    """The names ``typed`` means: the closest exact match, else every prefix match. Spelling is tried
    before ``fold``, so José and Jose stored apart both stay reachable; ``ae`` finds Ægir last."""
    typed = typed.strip()
    if not typed:  # an empty name means no one (it is a prefix of every name)
        return []
    for same in (str, str.casefold, fold):
        wanted = same(typed)
        exact = [n for n in names if same(n) == wanted]
        if exact:
            return exact[:1]
    for same in (fold, typed_plainly):
        wanted = same(typed)
        prefixed = [n for n in names if same(n).startswith(wanted)]
        if prefixed:
            return prefixed
    return []


# Letters that accents do not explain, as a keyboard without them types them (``ae`` finds Ægir). They
# are used only to find a name nothing else matched: which names are the same player is ``fold``'s.
_PLAINLY = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
                          "ħ": "h", "ŧ": "t", "ŋ": "ng"})


def typed_plainly(name: str) -> str:
    """``fold`` with the letters above spelt as a keyboard without them types them."""
    return fold(name).translate(_PLAINLY)


def resolve_player(players: tuple[str, ...] | list[str], typed: str, playing=None) -> str:
    """The one player ``typed`` means (``match_name``); refused when it means none or several. ``playing``
    (three-player): who plays the hand, asked only when several match: the one sitting out cannot be meant (R22)."""
    listed = ", ".join(players)
    if not typed.strip():
        raise UnknownPlayer(f"a player's name is empty; the players are {listed}")
    matches = match_name(players, typed)
    if len(matches) > 1 and playing is not None:
        matches = [name for name in matches if name in playing()] or matches
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownPlayer(f"'{typed}' could be {' or '.join(matches)}; type more of the name (players: {listed})")
    order = "; the name comes first, then the counts" if typed.strip().isdigit() else ""  # `hand 4 22 ann`
    if playing is not None and len(players) == 3:  # not only who plays: who may knock, the one out left out
        listed += f" ({' or '.join(playing())} can knock this hand)"
    raise UnknownPlayer(f"no player '{typed}'; the players are {listed}{order}")


def player_named(players: list[str], typed: str, order, among: str = "") -> str:
    """The one of ``players`` (across sessions) that ``typed`` means, as ``resolve_player`` finds it;
    when it means nobody, the players are listed sorted by the key ``order``."""
    if not match_name(players, typed):  # across sessions: not "no player in this session"
        listed = ", ".join(sorted(players, key=order)) or "none yet"
        raise UnknownPlayer(f"nobody named '{visible(typed)}' has played{among}; the players are {listed}")
    return resolve_player(players, typed)


COMMAND_MARK = ":"  # what starts a command in `play` (:back, :undo, :quit); so no name may start with it


def check_players(variant: str, players, kept=()) -> tuple[str, ...]:
    """The players' names as a session keeps them, once a table can show and tell them apart (docs/commands.md);
    ``kept``: names a session here already has (from a file made before a name was refused), still taken."""
    check_count(variant, players)
    names = tuple(" ".join(str(p).split()) for p in players)
    for name in names:
        if not fold(name):  # empty, only accents, or only what shows as nothing (spelled out)
            if name.translate(_UNSEEN) != name:
                check_readable(name, "the name")
            raise Refused("a player's name is empty; give each player a name")
        if not name.isprintable():
            raise Refused(f"the name {name!r} has characters that cannot be shown; type it plainly")
        check_readable(name, "the name")
        if name.startswith(COMMAND_MARK):
            raise Refused(f"a player's name cannot start with '{COMMAND_MARK}' (", Command("play"), " keeps it for commands)")
        if name.startswith("-") and name not in kept:  # (from a file: `new` reads it as an option already)
            raise Refused(f"a player's name cannot start with '-' ('{name}': every command would read it as an option)")
        if len(name) > MAX_NAME:
            raise Refused(f"a player's name has {len(name)} characters; keep it to {MAX_NAME}")
    folded = [fold(n) for n in names]
    for name in names:
        if folded.count(fold(name)) > 1:
            raise Refused(
                f"two players are named '{name}' (names are compared ignoring case, accents and width); tell them apart"
            )
    return names


def check_readable(name: str, what: str) -> None:
    """Refuse a name that shows as nothing (only Hangul fillers, say): nobody could read or type it."""
    if shows_nothing(name):
        raise Refused(f"{what} '{spelled(name)}' shows as nothing; type a name people can read")


def check_count(variant: str, players) -> None:
    """As many players as ``variant`` seats: three for three-player, else two."""
    want = 3 if variant == "three" else 2
    if len(players) != want:
        raise Refused(f"{variant} is played by {want} players, not {len(players)}; name {want}")


def with_ending(name: str, tail: str, limit: int) -> str:
    """``name + tail``, the name shortened so that the whole fits within ``limit`` characters."""
    return name[: max(1, limit - len(tail))].rstrip() + tail


def free_name(name: str, taken, ending, limit: int) -> str:
    """``name``, or the first free ``name + ending(n)``, shortened to fit within ``limit`` characters."""
    if not taken(name):
        return name
    for number in count(1):
        chosen = with_ending(name, ending(number), limit)
        if not taken(chosen):
            return chosen
