"""Session facts to and from plain dicts (the stored and exported shape).

Pure: the store keeps these dicts in TinyDB, and JSON export/import writes
and reads the same shape, so a backup is exactly what the file holds.
"""

from __future__ import annotations

from .cards import parse_card, parse_cards
from .errors import Refused
from .melds import settle
from .rules import VARIANTS, HouseRules
from .variants import Draw, Hand, Knock, Roles, SessionFacts


def hand_to_dict(hand: Hand) -> dict:
    """A hand as told: the two counts, or (issue 4) the cards they come from."""
    if isinstance(hand, Draw):
        return {"type": "draw", "upcard": _card_text(hand.upcard), "recorded_at": hand.recorded_at}
    told = {"type": "knock", "knocker": hand.knocker}
    if hand.knocker_cards is not None:
        told["knocker_cards"] = [str(c) for c in hand.knocker_cards]
        told["opponent_cards"] = [str(c) for c in hand.opponent_cards]
    else:
        told["knocker_deadwood"] = hand.knocker_deadwood
        told["opponent_deadwood"] = hand.opponent_deadwood
    told.update(upcard=_card_text(hand.upcard), big_gin=hand.big_gin, recorded_at=hand.recorded_at)
    return told


def knock_from_cards(knocker: str, knocker_cards, opponent_cards, **told) -> Knock:
    """A knock told as cards: both counts from the best melds and lay-offs (R2, R3, R8)."""
    knocker_cards, opponent_cards = tuple(knocker_cards), tuple(opponent_cards)
    settled = settle(list(knocker_cards), list(opponent_cards), big_gin=told.get("big_gin", False))
    return Knock(
        knocker, settled.knocker_deadwood, settled.opponent_deadwood,
        knocker_cards=knocker_cards, opponent_cards=opponent_cards, **told,
    )


def hand_from_dict(data: dict) -> Hand:
    """Read a stored hand; raises Refused on a shape that is not one."""
    try:
        upcard = parse_card(data["upcard"], rank_only=True) if data.get("upcard") else None
        if data["type"] == "draw":
            return Draw(upcard=upcard, recorded_at=data.get("recorded_at"))
        if data["type"] == "knock" and "knocker_cards" in data:
            return knock_from_cards(
                str(data["knocker"]), parse_cards(data["knocker_cards"]), parse_cards(data["opponent_cards"]),
                upcard=upcard, big_gin=bool(data.get("big_gin", False)), recorded_at=data.get("recorded_at"),
            )
        if data["type"] == "knock":
            return Knock(
                knocker=str(data["knocker"]),
                knocker_deadwood=_whole(data["knocker_deadwood"]),
                opponent_deadwood=_whole(data["opponent_deadwood"]),
                upcard=upcard,
                big_gin=bool(data.get("big_gin", False)),
                recorded_at=data.get("recorded_at"),
            )
    except (KeyError, TypeError, AttributeError) as error:
        raise Refused(f"a hand record is incomplete ({error})") from None
    raise Refused(f"a hand record has an unknown type {data.get('type')!r}")


def session_to_dict(facts: SessionFacts) -> dict:
    return {
        "name": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "rules": facts.rules.to_dict(),
        "first_dealer": facts.first_dealer,
        "first_roles": facts.first_roles.to_dict() if facts.first_roles else None,
        "created_at": facts.created_at,
        "hands": [hand_to_dict(h) for h in facts.hands],
    }


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
            hands=tuple(hand_from_dict(h) for h in data.get("hands", [])),
            created_at=data.get("created_at"),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise Refused(f"a session record is incomplete ({error})") from None


def _card_text(card) -> str | None:
    return str(card) if card else None


def _whole(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value
