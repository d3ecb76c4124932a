"""Session facts to and from plain dicts: the stored and the exported shape.

Pure. A JSON export writes each hand as a dict with named fields, for people
and other tools; the database keeps a session's hands as one compact string
of rows (``hands_to_text``), because every command reads the whole file and
a string parses several times faster than objects (issue 5). Both shapes are
read by ``session_from_dict``.
"""

from __future__ import annotations

import re

from .cards import parse_card, parse_cards
from .errors import Refused
from .shown import visible
from .rules import VARIANTS, HouseRules
from .variants import Draw, Hand, Knock, Roles, SessionFacts


NOTE_LENGTH = 200  # characters; a remark, not a diary
MATCH_ID = re.compile(r"m-[0-9a-f]{6,32}")


def check_note(text: str | None) -> str | None:
    """A hand's note as kept: ends trimmed, None when empty; refused with control
    characters or over NOTE_LENGTH characters."""
    if text is None:
        return None
    note = text.strip()
    if not note:
        return None
    if not note.isprintable():
        raise Refused(f"the note '{visible(note)}' has characters that cannot be shown; type it plainly")
    if len(note) > NOTE_LENGTH:
        raise Refused(f"the note has {len(note)} characters; keep it to {NOTE_LENGTH}")
    return note


def stored_note(value) -> str | None:
    """A note read from a file: exactly as `check_note` would have kept it."""
    if value is None:
        return None
    if not isinstance(value, str) or check_note(value) != value:
        raise Refused(f"a hand's note '{visible(value)}' is not plain text of 1 to {NOTE_LENGTH} characters")
    return value


def hand_to_dict(hand: Hand) -> dict:
    """A hand as told: the two counts, or (issue 4) the cards they come from; its note when it has one."""
    if isinstance(hand, Draw):
        told = {"type": "draw", "upcard": _card_text(hand.upcard), "recorded_at": hand.recorded_at}
        if hand.note is not None:
            told["note"] = hand.note
        return told
    told = {"type": "knock", "knocker": hand.knocker}
    if hand.knocker_cards is not None:
        told["knocker_cards"] = [str(c) for c in hand.knocker_cards]
        told["opponent_cards"] = [str(c) for c in hand.opponent_cards]
    else:
        told["knocker_deadwood"] = hand.knocker_deadwood
        told["opponent_deadwood"] = hand.opponent_deadwood
    told.update(upcard=_card_text(hand.upcard), big_gin=hand.big_gin, recorded_at=hand.recorded_at)
    if hand.note is not None:
        told["note"] = hand.note
    return told


def knock_from_cards(knocker: str, knocker_cards, opponent_cards, **told) -> Knock:
    """A knock told as cards: both counts from the best melds and lay-offs (R2, R3, R8)."""
    from .melds import settle  # only hands told as cards need the solver

    knocker_cards, opponent_cards = tuple(knocker_cards), tuple(opponent_cards)
    settled = settle(list(knocker_cards), list(opponent_cards), big_gin=told.get("big_gin", False))
    return Knock(
        knocker, settled.knocker_deadwood, settled.opponent_deadwood,
        knocker_cards=knocker_cards, opponent_cards=opponent_cards, **told,
    )


# The database keeps a session's hands as one string (schema 2): one row a
# hand, rows joined by ";", fields by "|": the row's kind, then its fields in
# this order; "" is none, flags are 1/0, and % | ; inside a value are written
# %25 %7C %3B. A string parses several times faster than the same hands as
# JSON objects, and every command reads the whole file (issue 5). A hand's
# note is one more field at the end of its row, written only when the hand
# has one: rows of 1.0 (without it) read as hands without a note, and a
# session without notes is stored exactly as 1.0 stored it.
ROW_FIELDS = {
    "knock": ("knocker", "knocker_deadwood", "opponent_deadwood", "upcard", "big_gin", "recorded_at"),
    "cards": ("knocker", "knocker_cards", "opponent_cards", "upcard", "big_gin", "recorded_at"),
    "draw": ("upcard", "recorded_at"),
}
NOTE = "note"
_WHOLE = {"knocker_deadwood", "opponent_deadwood"}
_ESCAPES = (("%", "%25"), ("|", "%7C"), (";", "%3B"))


def _field_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):  # cards
        value = " ".join(value)
    text = str(value)
    for plain, escaped in _ESCAPES:
        text = text.replace(plain, escaped)
    return text


def _field_value(name: str, text: str):
    if name == "big_gin":
        return text == "1"
    if text == "":
        return None
    if name in _WHOLE:
        try:
            return int(text)
        except ValueError:
            raise Refused(f"a stored {name} '{text}' is not a whole number") from None
    if "%" in text:
        for plain, escaped in reversed(_ESCAPES):
            text = text.replace(escaped, plain)
    return text


def hands_to_text(hands: list[dict]) -> str:
    """Hands as dicts to the stored string."""
    rows = []
    for data in hands:
        kind = "cards" if "knocker_cards" in data else data["type"]
        names = ROW_FIELDS[kind] + ((NOTE,) if data.get(NOTE) is not None else ())
        rows.append("|".join([kind] + [_field_text(data.get(name)) for name in names]))
    return ";".join(rows)


def hands_from_text(text: str) -> list[dict]:
    """The stored string back to hands as dicts; Refused on a row that is not one."""
    hands = []
    for row in text.split(";") if text else []:
        kind, *values = row.split("|")
        names = ROW_FIELDS.get(kind)
        if names is not None and len(values) == len(names) + 1:  # the row ends with its note
            names += (NOTE,)
        if names is None or len(values) != len(names):
            raise Refused(f"a stored hand has an unknown shape: {row!r}")
        data = {name: _field_value(name, value) for name, value in zip(names, values)}
        data["type"] = "draw" if kind == "draw" else "knock"
        hands.append(data)
    return hands


def hand_from_dict(data: dict) -> Hand:
    """Read a hand; raises Refused on a shape that is not one."""
    try:
        upcard = parse_card(data["upcard"], rank_only=True) if data.get("upcard") else None
        note = stored_note(data.get(NOTE))
        if data["type"] == "draw":
            return Draw(upcard=upcard, recorded_at=data.get("recorded_at"), note=note)
        if data["type"] == "knock" and "knocker_cards" in data:
            return knock_from_cards(
                str(data["knocker"]), parse_cards(data["knocker_cards"]), parse_cards(data["opponent_cards"]),
                upcard=upcard, big_gin=bool(data.get("big_gin", False)), recorded_at=data.get("recorded_at"),
                note=note,
            )
        if data["type"] == "knock":
            return Knock(
                knocker=str(data["knocker"]),
                knocker_deadwood=_whole(data["knocker_deadwood"]),
                opponent_deadwood=_whole(data["opponent_deadwood"]),
                upcard=upcard,
                big_gin=bool(data.get("big_gin", False)),
                recorded_at=data.get("recorded_at"),
                note=note,
            )
    except (KeyError, TypeError, AttributeError) as error:
        raise Refused(f"a hand record is incomplete ({error})") from None
    raise Refused(f"a hand record has an unknown type {data.get('type')!r}")


def session_to_dict(facts: SessionFacts, *, rows: bool = False) -> dict:
    """The session's facts; ``rows`` keeps the hands as the stored string (the database)."""
    hands = [hand_to_dict(h) for h in facts.hands]
    doc = {
        "name": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "rules": facts.rules.to_dict(),
        "first_dealer": facts.first_dealer,
        "first_roles": facts.first_roles.to_dict() if facts.first_roles else None,
        "created_at": facts.created_at,
        "hands": hands_to_text(hands) if rows else hands,
    }
    if facts.match is not None:  # only sessions linked by `rematch` carry it
        doc["match"] = facts.match
    return doc


def session_from_dict(data: dict) -> SessionFacts:
    """Read a stored or imported session; raises Refused when it does not add up."""
    try:
        variant = data["variant"]
        if variant not in VARIANTS:
            raise Refused(f"unknown variant {variant!r}; ginscore knows {', '.join(VARIANTS)}")
        roles = data.get("first_roles")
        rules = data.get("rules") or {}
        if not isinstance(rules, dict):
            raise Refused("the house rules are not a table of settings")
        return SessionFacts(
            name=str(data["name"]),
            variant=variant,
            players=tuple(str(p) for p in data["players"]),
            rules=HouseRules.from_dict(rules),
            first_dealer=data.get("first_dealer"),
            first_roles=Roles(roles["box"], roles["captain"], roles["out"]) if roles else None,
            hands=tuple(hand_from_dict(h) for h in _hand_dicts(data.get("hands", []))),
            created_at=data.get("created_at"),
            match=_match_id(data.get("match")),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise Refused(f"a session record is incomplete ({error})") from None


def _hand_dicts(hands) -> list[dict]:
    if isinstance(hands, str):
        return hands_from_text(hands)
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise Refused("the hands are neither a list of hands nor the stored rows")
    return hands


def _match_id(value) -> str | None:
    """The id of the match a session belongs to (`rematch`), as `new_match_id` makes them."""
    if value is None:
        return None
    if not isinstance(value, str) or not MATCH_ID.fullmatch(value):
        raise Refused(f"the match id '{visible(value)}' is not one ginscore makes (like m-1a2b3c4d5e6f)")
    return value


def _card_text(card) -> str | None:
    return str(card) if card else None


def _whole(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value
