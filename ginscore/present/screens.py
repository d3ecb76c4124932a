"""The screens of one session: its standings (`status`), a hand as recorded, who deals, the
match so far, its house rules, and the answer of `deadwood`."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ginscore.core.changes import as_it_ended
from ginscore.core.errors import Command, NEXT_GAME
from ginscore.core.escape import visible
from ginscore.core.replay import HandResult, Standings
from ginscore.core.session import SessionFacts
from ginscore.core.reports import (VARIANT_NAMES, as_typed, counted, explain, house_rule_rows, lead_words,
                                     never_in_force, next_words, rule_change_words, rules_words, settlement_words,
                                     winner_words)
from ginscore.present.console import say, say_text, screen
from ginscore.present.tables import blocks, cell, fit, heading_and_value, show, table_of, table_of_columns
from ginscore.present.terminal import command_text
from ginscore.present.wrapping import one_phrase, wrapped

ROLE_WORDS = {"box": "in the box", "captain": "captain", "out": "sits out"}


def session_heading(facts: SessionFacts, since: str = "") -> Text:
    """A session's name, variant and players, over its house rules (``since``: from when they hold)."""
    return Text.assemble(
        (visible(facts.name), "bold"), f" · {VARIANT_NAMES[facts.variant]} · ",
        visible(" v ".join(facts.players)), "\n",
        (f"House rules{since}: " + "; ".join(one_phrase(words) for words in rules_words(facts)), "dim"),
    )


def rules_since(st: Standings) -> str:
    """From which hand the house rules shown hold, where they changed during play (H8): the hands before
    were scored under others, which `log` and `house` show."""
    last = len(st.hands) + (0 if st.over else 1)  # (the next hand's, while the game goes on)
    starts = [change.from_hand for change in st.facts.rule_changes if change.from_hand <= last]
    return f" from hand {starts[-1]}" if starts and starts[-1] > 1 else ""


def say_heading(st: Standings, no_hands: str, first_rules: bool = False) -> bool:
    """Say the session's heading, then ``no_hands`` if it has none; whether it has hands to show.
    ``first_rules``: the rules of hand 1, where they changed later, for a list whose changes follow (H8)."""
    facts, since = st.facts, ""
    if first_rules and facts.rule_changes:
        facts, since = facts._replace(rules=facts.rules_for(1)), " from hand 1"
    say_text(session_heading(facts, since), facts.players)
    if not st.hands:
        say(no_hands)
    return bool(st.hands)


def finals_differ(st: Standings) -> bool:
    """Whether the final scores differ from the hand points (H3), so a Final column says something."""
    return st.over and any(g.final and g.final != g.scores for g in st.games)


def _game_cell(game, player: str) -> str:
    return f"{game.scores[player]} (won)" if game.winner == player else str(game.scores[player])


def _standings_columns(st: Standings, compact: bool = False, marked: bool = False) -> list[tuple]:
    """What the standings say of each player, as (heading, aligned right, a cell a player): the role next hand
    (R22), the points, hands won, and the final score where it differs from the points (H3). ``compact``:
    short headings; ``marked``: a game's winner's points say "(won)", where no "Won by" row says it."""
    players = st.facts.players
    columns = []
    if st.roles:
        role_of = {name: role for role, name in st.roles.to_dict().items()}
        columns.append(("Next" if compact else "Next hand", False,
                        [role_of[p] if compact else ROLE_WORDS[role_of[p]] for p in players]))
    if st.facts.variant == "hollywood":
        columns += [(f"Game {g.number}", True, [_game_cell(g, p) if marked else str(g.scores[p]) for p in players])
                    for g in st.games]
    else:
        columns.append(("Pts" if compact else "Points", True, [str(st.games[0].scores[p]) for p in players]))
    won = [str(sum(r.winner == p for r in st.hands)) for p in players]
    columns.append(("Won" if compact else "Hands won", True, won))
    if finals_differ(st):
        columns.append(("Final" if compact else "Final (H3)", True, [str(st.final[p]) for p in players]))
    return columns


def standings_table(st: Standings, compact: bool = False) -> Table:
    """Players as rows; compact: short headings (Hollywood: the games as rows, players as columns)."""
    players = st.facts.players
    hollywood = st.facts.variant == "hollywood"
    if hollywood and compact:
        rows = [[head, *cells] for head, _, cells in _standings_columns(st, marked=True)]
        return table_of([("", False)] + [(player, True) for player in players], rows)
    columns = [("Player", False, [cell(p, "bold" if p == st.winner else "") for p in players])]
    table = table_of_columns(columns + _standings_columns(st, compact))
    if hollywood and any(g.winner for g in st.games):
        table.rows[-1].end_section = True
        table.add_row(*map(cell, ["Won by", *(g.winner or "" for g in st.games)]))
    return table


def standings_blocks(st: Standings) -> Group:
    """A few lines a player, with the table's headings: for a screen too narrow for either table (names
    of two dozen letters at 40 columns)."""
    columns = _standings_columns(st, marked=True)
    return blocks([[player, *(line for head, _, cells in columns for line in heading_and_value(head, cells[n]))]
                   for n, player in enumerate(st.facts.players)], apart=False)


def _say_game_finals(st: Standings) -> None:
    """Hollywood: each won game's final scores once its bonuses are added (H3)."""
    if st.facts.variant != "hollywood":
        return
    for game in st.games:
        if game.final and game.final != game.scores:
            scores = ", ".join(f"{p} {game.final[p]}" for p in st.facts.players)
            say(f"Game {game.number} with its bonuses (H3): {scores}.", names=st.facts.players)


def show_standings(st: Standings, footer: bool = True, what_follows: tuple = NEXT_GAME) -> None:
    """Title, table and winner; ``footer``: then who deals next (or that the session is over, and
    ``what_follows``: what comes next, as parts of a sentence)."""
    out = screen()
    players = st.facts.players
    ended_under, never = as_it_ended(st.facts, st.over)
    say_text(session_heading(ended_under, rules_since(st)), players)
    show(fit(lambda: standings_table(st), lambda: standings_table(st, compact=True), lambda: standings_blocks(st)))
    _say_game_finals(st)
    banner = winner_words(st)
    if banner:
        rule = "=" * min(len(banner), out.width)
        out.print(Text(rule, style="bold green"))
        say(banner, style="bold green", names=players)
        out.print(Text(rule, style="bold green"))
    for line in settlement_words(st):  # H7
        say(line, style="bold", names=players)
    for line in lead_words(st):
        say(line, names=players)
    if never:
        say(never_in_force(st.facts, never))
    if not footer:
        return
    if not st.over:
        say(next_words(st), style="bold cyan", names=players)
    else:
        say("The session is over; ", *what_follows, ".", names=players)


def _cards(cards) -> str:
    return " ".join(c.pretty for c in cards)


def _spread_words(spread) -> str:
    melds = " ".join(f"[{_cards(m)}]" for m in spread.melds) or "no melds"
    loose = f", unmatched {_cards(spread.unmatched)}" if spread.unmatched else ""
    return f"{melds}{loose}: deadwood {spread.deadwood}"


def show_spreads(result: HandResult) -> None:
    """Both spreads of a hand told as cards, and each card laid off (R8)."""
    from ginscore.core.melds import settle  # only hands told as cards need the solver

    hand = result.hand
    counted = settle(list(hand.knocker_cards), list(hand.opponent_cards), big_gin=hand.big_gin)
    players = (hand.knocker, result.opponent)
    say(f"{hand.knocker} spreads {_spread_words(counted.knocker)}", names=players)
    grown = [list(meld) for meld in counted.knocker.melds]  # each meld as the lay-offs so far left it
    for card, on in counted.layoffs:
        say(f"{result.opponent} lays off {card.pretty} on [{_cards(grown[on])}]", names=players)
        grown[on] = sorted(grown[on] + [card], key=lambda laid: laid.rank)
    say(f"{result.opponent} spreads {_spread_words(counted.opponent)}", names=players)


def show_deadwood(spread, discard, big_gin: bool, limit: int) -> None:
    """The answer of `ginscore deadwood`, in words."""
    if big_gin:
        say(f"Big gin: all 11 cards meld: {_spread_words(spread)} (H2).", style="bold")
        return
    if discard is not None:
        say(f"Discard {discard.pretty}.")
    words = _spread_words(spread)
    if spread.melds:
        say(("Keep " if discard is not None else "Melds ") + words + ".")
    else:  # "No melds, unmatched ...", never "Melds no melds"
        say(("The rest has " + words if discard is not None else words[0].upper() + words[1:]) + ".")
    if spread.deadwood == 0:
        say("That is gin (R11).", style="bold")
    elif spread.deadwood <= limit:
        say(f"You can knock: {spread.deadwood} is within the knock limit of {limit} (R7).")
    else:
        say(f"No knock yet: {spread.deadwood} is over the knock limit of {limit} (R7).")


def show_hand(st: Standings, result: HandResult, verb: str = "Recorded", footer: bool = True,
              what_follows: tuple = NEXT_GAME) -> None:
    """A hand as recorded (its spreads when told as cards), then the standings after it (``what_follows``: as
    ``show_standings``)."""
    if result.score is not None and result.hand.knocker_cards is not None:
        show_spreads(result)
    say(f"{verb} hand {result.number}: {explain(st, result)}.", names=st.facts.players)
    if result.hand.note is not None:
        say(f"Note: {result.hand.note}")
    for number in result.closed:
        game = st.games[number - 1]
        if st.facts.variant == "hollywood":
            loser = next(p for p in st.facts.players if p != game.winner)
            say(f"Game {number} goes to {game.winner}, {game.scores[game.winner]} to {game.scores[loser]}.",
                style="bold", names=st.facts.players)
    show_standings(st, footer, what_follows)


def show_dealer(st: Standings, what_follows: tuple = NEXT_GAME) -> None:
    if st.over:
        say(f"'{st.facts.name}' is over, so nobody deals; ", *what_follows, ".", names=st.facts.players)
        return
    say(next_words(st), names=st.facts.players)


def rule_change_lines(facts: SessionFacts) -> list[tuple[int, str]]:
    """Where the house rules changed during play (H8), as (hand, "from hand 4: gin bonus 20")."""
    return [(hand, one_phrase(f"from hand {hand}:") + " " + "; ".join(one_phrase(w) for w in words))
            for hand, words in rule_change_words(facts)]


def show_house(facts: SessionFacts, named: bool = False, over: bool = False) -> None:
    """Every house rule of the session with the option that changes it; ``named``: the advice names the
    session too, as --session did, else it would change the current one."""
    ended_under, never = as_it_ended(facts, over)  # a finished game: the rules it ended under (H8)
    rows = house_rule_rows(ended_under)
    heading = f"House rules of '{visible(facts.name)}'"

    def table(options_below: bool) -> Table:
        """The options that change each rule in a column of their own, or under each setting."""
        heads = ("Rule", "Setting") if options_below else ("Rule", "Setting", "Change with")
        cells = [(rule, [setting, option] if option else setting) if options_below else (rule, setting, option)
                 for rule, setting, option in rows]  # (three-player's deal has no option: the box deals, R22)
        return table_of([(head, False) for head in heads], cells, title=Text(heading), title_justify="left")

    def lines() -> Text:  # a phone: a line a rule, and under it the option that changes it
        width = screen().width
        said = [Text(heading)]
        for rule, setting, option in rows:
            first, *more = wrapped(Text(f"{rule}: {setting}"), width, 2)  # (a setting that wraps goes on indented)
            said += [first, *(Text("  ") + line for line in more)]
            said += [Text("  ") + line for line in wrapped(Text(option), max(width - 2, 1)) if option]
        return Text("\n").join(said)

    show(fit(lambda: table(False), lambda: table(True), lines))
    if facts.rule_changes:  # H8: since when
        if never:
            say(never_in_force(facts, never, end=":"))
        else:
            say(f"In force from hand {facts.rule_changes[-1].from_hand} on; the house rules changed during play (H8):")
        for _, line in rule_change_lines(facts):
            say(f"  {line}")
    session = ("--session", as_typed(facts.name)) if named else ()
    advice = f"Change any of them with {command_text(Command('house', *session, 'OPTION'))}"
    if over:  # no hand comes next: only a rule set wrong can change (H8)
        say(f"{advice} and --from-start (the game is over, so the rule was set wrong: every hand is rescored) (H8).")
    elif facts.hands:  # H8: a change says from when
        say(f"{advice} and --from-next (from hand {len(facts.hands) + 1} on) or --from-start (the rule was set "
            "wrong: every hand is rescored) (H8).")
    else:  # no hand yet: nothing to rescore
        say(f"{advice}.")


# The hands `house --from-start` lists by name once rescored; the rest are counted (the log shows each).
RESCORED_SHOWN = 5


def show_house_change(st_before: Standings, st: Standings, from_hand: int | None = None,
                      what_follows: tuple = NEXT_GAME) -> None:
    """What `house` changed, then the standings: rescored (from the start), with each hand that scores
    differently, or from hand ``from_hand`` on (H8); ``what_follows``: as ``show_standings``."""
    before, after = st_before.facts, st.facts

    def settings(facts: SessionFacts) -> dict[str, list[tuple[int, str]]]:
        """Each rule's settings over the periods of the rules (H8), in order: (from which hand, setting)."""
        found: dict[str, list[tuple[int, str]]] = {}
        for period in (facts.periods() if from_hand is None else facts.periods()[-1:]):
            for rule, setting, _ in house_rule_rows(facts._replace(rules=period.rules)):
                kept = found.setdefault(rule, [])
                if not kept or kept[-1][1] != setting:
                    kept.append((period.from_hand, setting))
        return found

    def was(periods: list[tuple[int, str]]) -> str:
        if len(periods) == 1:
            return periods[0][1]
        return ", ".join(f"{setting} from hand {hand}" for hand, setting in periods)

    old, new = settings(before), settings(after)  # (the last period's setting: the one in force now)
    changed = [(rule, was(old[rule]), periods[-1][1]) for rule, periods in new.items()
               if [setting for _, setting in old[rule]] != [setting for _, setting in periods]]
    if not changed:
        say(f"The house rules of '{after.name}' are already so; nothing was changed.")
        return
    if not after.hands:  # from the start or from the next hand, the same: no hand to rescore or keep
        say(f"Changed the house rules of '{after.name}' before its first hand:")
    elif from_hand is None:
        say(f"Changed the house rules of '{after.name}' and rescored {counted(len(after.hands), 'hand')}:")
    else:
        kept = {2: "hand 1 keeps its score", 3: "hands 1 and 2 keep their scores"}.get(
            from_hand, f"hands 1 to {from_hand - 1} keep their scores")
        say(f"Changed the house rules of '{after.name}' from hand {from_hand} on; {kept} (H8):")
    for rule, earlier, setting in changed:
        say(f"  {rule}: {setting} (was {earlier})")
    if from_hand is None:  # the totals moved: say by which hands, as a person checks them against paper
        rescored = [(now, then) for now, then in zip(st.hands, st_before.hands) if now.points != then.points]
        for now, then in rescored[:RESCORED_SHOWN]:
            say(f"  Hand {now.number}: {now.winner} {now.points} (was {then.points})", names=after.players)
        if len(rescored) > RESCORED_SHOWN:
            say(f"  and {counted(len(rescored) - RESCORED_SHOWN, 'more hand')} scored differently")
    if from_hand is not None and after.rules.box_bonus != before.rules.box_bonus:  # paid at the end of a game
        say(f"A box bonus is counted when a game ends, for every hand won in it: those before hand {from_hand} "
            "too (H3, H8).")
    show_standings(st, what_follows=what_follows)


def show_match(doc: dict) -> None:
    """The match so far, under a session's standings (`status`)."""
    names = ", ".join(doc["sessions"])
    say(f"Match so far ({counted(len(doc['sessions']), 'session')}: {names}):", style="bold", names=doc["sessions"])
    players = tuple(doc["games_won"])
    for player, won in doc["games_won"].items():
        say(f"  {player}: {counted(won, 'game')} won, {counted(doc['finals'][player], 'point')} in finished games",
            names=players)
    if "settlement" in doc:
        if not doc["settlement"]:
            say("  Settled so far: nobody owes anything (H7).")
        for p in doc["settlement"]:
            say(f"  Settled so far: {p['from']} pays {p['to']} {p['amount']} (H7).", names=players)
