"""The rules in plain words for `ginscore rules`, one string a rule (ids from docs/rules.md), and how they are shown."""

from __future__ import annotations

import re

from rich.text import Text

from ginscore.core.errors import Command
from ginscore.present.console import screen
from ginscore.present.tables import cell
from ginscore.present.terminal import parts_text
from ginscore.present.wrapping import wrapped

COMMON = [
    "R1  Ace is low (A-2-3 is a run, Q-K-A is not). Ace 1, two to ten face value, J/Q/K 10.",
    "R2  A meld is a set (3-4 of a rank) or a run (3+ in a row in one suit); a card is in one meld at most.",
    "R3  Deadwood is the value of cards in no meld; ten cards hold at most 98.",
    "R4  Ten cards each; the next card turned up is the upcard, the rest the stock.",
    "R5  Two players: the winner of a hand deals the next (H6 lets a session choose); after a drawn hand the same"
    " player deals again.",
    "R6  First turn: the non-dealer may take the upcard, then the dealer; play detail, nothing to score.",
    "R7  Knock when your deadwood after discarding is at most the knock limit (10).",
    "R8  The opponent lays off on the knocker's melds, except on gin.",
    "R9  Knock: the knocker scores the difference in deadwood.",
    "R10 Undercut: the opponent, with equal or less deadwood, scores the difference plus the undercut bonus.",
    "R11 Gin (0 deadwood): the knocker scores the opponent's deadwood plus the gin bonus; no lay-offs.",
    "R12 Drawn hand: two cards left in the stock and no knock: nobody scores.",
    "R13 The winner of a hand is the player who scored on it, even 0 points.",
]

BY_VARIANT = {
    "standard": ["R14 Play to the target (100); the first to reach it wins the game."],
    "oklahoma": [
        "R15 The upcard sets each hand's knock limit: its value (ten or face card 10, six 6, ace 1)."
        " A knock over the limit is refused. Record the upcard with --upcard.",
        "R16 Otherwise as the standard game, to the target (100).",
    ],
    "hollywood": [
        "R17 Three games at once: a player's 1st win counts in game 1, the 2nd in games 1-2, then 1-3.",
        "R18 A game ends when a score in it reaches the target; later wins go to the first open game,"
        " and to each later open game whose preceding game already credited the winner a win (R13: 0 points count).",
        "R19 When game 3 ends the series is over; two games won win the series.",
        "R20 Example: Bob wins by 10 (his game 1), Alexandra by 18 (her game 1), Bob by 30 (games 1-2),"
        " Bob by 4 (games 1-3): Alexandra 18 / 0 / 0, Bob 44 / 34 / 4.",
    ],
    "three": [
        "R21 Draw for the first hand: highest in the box, middle captains, lowest sits out.",
        "R22 The box deals every hand and plays the captain (knock limit 10).",
        "R23 Box wins: captain and sitter-out swap. Box loses: box sits out, captain to box, sitter-out captains.",
        "R24 The sitter-out never scores; first to the target (100) wins.",
        "R25 A drawn hand changes nothing: same box, same captain.",
    ],
}

HOUSE = [
    "H1  Gin bonus (default 25) and undercut bonus (default 10): --gin-bonus, --undercut-bonus.",
    "H2  Big gin, 11 cards melded: --big-gin-bonus N (new, or house), then hand --big-gin.",
    "H3  End-of-game bonuses: --game-bonus N to the winner, --box-bonus N per hand won, --shutout doubles"
    " the winner's final score when every other player scored nothing. Hollywood: per game.",
    "H4  Oklahoma only: --spades-double (a spade upcard doubles the hand), --ace-means-gin (an ace"
    " upcard allows only gin).",
    "H5  Target: --target N instead of 100.",
    "H6  Who deals after a decided hand (two players): --deal winner (R5), loser or alternate;"
    " after a drawn hand the same dealer deals again (R12). Three-player: the box deals (R22).",
    "H7  Stake: --stake 0.01 a point. Once a game is over each loser settles with the winner the"
    " difference of their final scores times the stake, the lower final paying the higher;"
    " Hollywood nets its three games into one payment per pair.",
    ("H8  Change house rules with ", Command("house"), "; once hands were played, say from when:"
     " --from-start rescores every hand (the rule was set wrong), --from-next applies it from the"
     " next hand on. Who dealt each hand played never changes."),
]


def rule_lines(variant: str | None) -> list:
    """The rules of one variant (or of every variant), then the house rules."""
    lines = list(COMMON)
    for name, rules in BY_VARIANT.items():
        if variant in (None, name):
            lines += rules
    return lines + [""] + HOUSE


_RULE_ID = r"([RH][0-9]+)\s+(.*)"


def show_rules(lines: list) -> None:
    """The rule book, each rule's words wrapped beside its id; a line is text, or a tuple of parts (``say``'s)."""
    out = screen()
    shown = []
    for line in (parts_text(line) if isinstance(line, tuple) else line for line in lines):
        found = re.fullmatch(_RULE_ID, line)
        if not found or out.width < 30:  # (too narrow for a column of ids: a rule wraps as a sentence)
            shown += wrapped(cell(line.strip()), out.width)
            continue
        rule, words = found.groups()
        indent = len("R10 ")
        shown += [Text(f"{rule:<{indent - 1}} " if n == 0 else " " * indent).append_text(part)
                  for n, part in enumerate(wrapped(cell(words), out.width - indent))]
    out.print(Text("\n").join(shown))
