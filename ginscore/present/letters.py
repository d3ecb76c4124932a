"""One letter a player, where a chart or a narrow log names players by letter, and the legend that says
which is which (`chart`, `log`)."""

from __future__ import annotations

from ginscore.core.escape import visible
from ginscore.core.names import fold
from ginscore.present.console import say, screen
from ginscore.present.wrapping import cell_width


def markers(players: tuple[str, ...] | list[str]) -> dict[str, str]:
    """One letter a player, never a digit (the cells beside it are numbers): the initial, and for a player whose
    initial is taken the first free initial of another word of the name, else of its letters (Ann, Al, Ben:
    A, L, B); 1, 2, 3 only when a name has no letter left."""
    letters: dict[str, str] = {}

    def free(char: str) -> bool:  # one letter ("ß" is "SS"), not one given already ignoring accents (É, E)
        letter = char.upper()
        return char.isalpha() and len(letter) == 1 and fold(letter) not in {fold(given) for given in letters.values()}

    for player in players:  # each initial to the first player who has it
        if free(player[:1]):
            letters[player] = player[:1].upper()
    for player in (player for player in players if player not in letters):
        words = [word[:1] for word in player.split()[1:]]
        letter = next((char.upper() for char in words + list(player) if free(char)), None)
        if letter is None:
            return _numbered(players)
        letters[player] = letter
    return {player: letters[player] for player in players}


def _numbered(players) -> dict[str, str]:
    """1, 2, 3 by place; a player named by one of those numbers is given it, so that "2" is never marked 3."""
    numbers = [str(n) for n in range(1, len(players) + 1)]
    left = iter(number for number in numbers if number not in players)
    return {player: player if player in numbers else next(left) for player in players}


def say_legend(players) -> None:
    """Which letter is which player: on one line when it fits, else a line each."""
    entries = [f"{mark} {p}" for p, mark in markers(players).items()]
    line = "  ".join(entries)
    for text in [line] if cell_width(visible(line)) <= screen().width else entries:
        say(text)
