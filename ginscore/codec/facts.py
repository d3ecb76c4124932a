"""Session facts to and from plain dicts: the shape exported and the shape stored, every field checked.

An export keeps each hand as a dict with named fields; the database keeps a session's hands as one
string of rows, quicker to read on every command (docs/storage.md).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from ginscore.codec import validate
from ginscore.core.cards import parse_card
from ginscore.core.errors import BadField, Refused
from ginscore.core.scoring import MAX_DEADWOOD, MAX_SETTING, VARIANTS, HouseRules
from ginscore.core.escape import visible  # a note from a file is shown in a message, never obeyed
from ginscore.core.changes import as_kept
from ginscore.core.replay import check_rules, check_seats
from ginscore.core.session import Draw, Hand, Knock, Roles, RuleChange, SessionFacts
from ginscore.core.names import MAX_NAME

NOTE_LENGTH = 200  # characters; a remark, not a diary
MATCH_ID = re.compile(r"m-[0-9a-f]{6,32}")
SESSION_ID = re.compile(r"s-[0-9a-f]{8,32}")
NOTE = "note"
DEALER, ROLES = "dealer", "roles"
RULE_CHANGES = "rule_changes"
CHANGE_KEYS = frozenset(RuleChange._fields)


def new_session_id() -> str:
    """A fresh random session id: two machines never make the same one."""
    return "s-" + os.urandom(12).hex()


def derived_session_id(doc: dict, salt: str = "") -> str:
    """The id of a session kept before sessions had one: made from what never changes in it, so that
    two copies of one old database get the same id on every machine and merge as one."""
    import hashlib  # only sessions from before ids need these: kept off every command's start
    import json

    fixed = [doc.get(key) for key in ("variant", "players", "created_at", "first_dealer", "first_roles")]
    text = json.dumps([fixed, salt], sort_keys=True, ensure_ascii=True, default=str)
    return "s-" + hashlib.sha256(text.encode()).hexdigest()[:24]


def check_note(text: str | None) -> str | None:
    """A hand's note as it is kept (None when empty), or Refused when it cannot be kept."""
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
    try:
        if isinstance(value, str) and check_note(value) == value:
            return value
    except Refused:  # its words are for a note being typed
        pass
    raise Refused(f"a hand's note '{visible(value)}' is not plain text of 1 to {NOTE_LENGTH} characters")


def hand_to_dict(hand: Hand) -> dict:
    """A hand as told at the table, as a dict to export (with who dealt it, H8)."""
    upcard = str(hand.upcard) if hand.upcard else None
    if isinstance(hand, Draw):
        doc = {"type": "draw", "upcard": upcard, "recorded_at": hand.recorded_at}
    else:
        doc = {"type": "knock", "knocker": hand.knocker}
        if hand.knocker_cards is not None:
            doc["knocker_cards"] = [str(c) for c in hand.knocker_cards]
            doc["opponent_cards"] = [str(c) for c in hand.opponent_cards]
        else:
            doc["knocker_deadwood"] = hand.knocker_deadwood
            doc["opponent_deadwood"] = hand.opponent_deadwood
        doc.update(upcard=upcard, big_gin=hand.big_gin, recorded_at=hand.recorded_at)
    if hand.note is not None:
        doc[NOTE] = hand.note
    if hand.dealer is not None:
        doc[DEALER] = hand.dealer
    elif hand.roles is not None:
        doc[ROLES] = hand.roles.to_dict()
    return doc


def knock_from_cards(knocker: str, knocker_cards, opponent_cards, **other_fields) -> Knock:
    """A knock told as cards: both counts from the best melds and lay-offs (R2, R3, R8)."""
    from ginscore.core.melds import settle  # only hands told as cards need the solver

    knocker_cards, opponent_cards = tuple(knocker_cards), tuple(opponent_cards)
    counted = settle(list(knocker_cards), list(opponent_cards), big_gin=other_fields.get("big_gin", False))
    return Knock(
        knocker, counted.knocker_deadwood, counted.opponent_deadwood,
        knocker_cards=knocker_cards, opponent_cards=opponent_cards, **other_fields,
    )


# The database keeps a session's hands as one string: a row a hand, rows joined by ";", fields by "|": the
# row's kind, then these fields in order, then the note and who dealt it (the dealer, or box, captain and
# out; H8). A row kept before H8 stops after the note, or before it when there was none. "" is none, flags
# are 1/0, and % | ; inside a value are written %25 %7C %3B.
ROW_FIELDS = {
    "knock": ("knocker", "knocker_deadwood", "opponent_deadwood", "upcard", "big_gin", "recorded_at"),
    "cards": ("knocker", "knocker_cards", "opponent_cards", "upcard", "big_gin", "recorded_at"),
    "draw": ("upcard", "recorded_at"),
}
ROLE_FIELDS = Roles._fields  # box, captain, out
# Who dealt a row's hand, by how many fields come after the row's own, the note counted: 1 is the note alone
# (a row kept before H8), 2 the note and the dealer, 4 the note and the three roles (H8).
_WHO_DEALT_BY_COUNT = {1: (), 2: (DEALER,), 4: ROLE_FIELDS}
_COUNTS = {"knocker_deadwood", "opponent_deadwood"}
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


def _field_value(name: str, text: str, where: str):
    if name == "big_gin":  # "" in a row migrated from a schema 1 hand that did not say
        if text not in ("0", "1", ""):
            raise BadField(f"{where}.big_gin must be 1 or 0, not {validate.describe(text)}")
        return text == "1"
    if text == "":
        return None
    if name in _COUNTS:
        return validate.digits(text, f"{where}.{name}")
    if "%" in text:
        for plain, escaped in reversed(_ESCAPES):
            text = text.replace(escaped, plain)
    return text


def hands_to_text(hands: list[dict]) -> str:
    """Hands as dicts to the stored string."""
    rows = []
    for data in hands:
        kind = "cards" if "knocker_cards" in data else data["type"]
        dealt = data.get(ROLES) or {}
        if data.get(DEALER) is not None:
            dealt = {DEALER: data[DEALER]}
        names = ROW_FIELDS[kind] + ((NOTE,) if data.get(NOTE) is not None or dealt else ())
        fields = [_field_text(data.get(name)) for name in names] + [_field_text(v) for v in dealt.values()]
        rows.append("|".join([kind] + fields))
    return ";".join(rows)


def stored_rows(text: str) -> list[str]:
    """The rows of a session's stored hands, one a hand, unread."""
    return text.split(";") if text else []


def hands_from_text(text: str, where: str = "hands") -> list[dict]:
    """The stored string back to hands as dicts; BadField on a row that is not one."""
    hands = []
    for number, row in enumerate(stored_rows(text)):
        kind, *values = row.split("|")
        names = ROW_FIELDS.get(kind)
        dealt = ()
        if names is not None and len(values) > len(names):
            dealt = _WHO_DEALT_BY_COUNT.get(len(values) - len(names), ())
            names += (NOTE,) + dealt  # the row ends with its note, then who dealt it
        at = f"{where}[{number}]"
        if names is None or len(values) != len(names):
            raise BadField(f"{at} is not a stored hand: {validate.describe(row)}")
        data = {name: _field_value(name, value, at) for name, value in zip(names, values)}
        if len(dealt) == len(ROLE_FIELDS):
            data[ROLES] = {name: data.pop(name) for name in dealt}
        data["type"] = "draw" if kind == "draw" else "knock"
        hands.append(data)
    return hands


def stored_hands(text: str, where: str = "hands") -> tuple[Hand, ...]:
    """The stored string to hands, as ``hand_from_dict`` would read each row, the same first error included.

    Every command reads every session's rows, so a plain knock or draw skips the dict between."""
    hands = []
    for number, row in enumerate(stored_rows(text)):
        hand = _plain_row(row) if "%" not in row else None
        if hand is None:
            if not row:
                break
            at = f"{where}[{number}]"
            try:
                hand = hand_from_dict(_split_cards(hands_from_text(row, at)[0]), at, strict=False)
            except Refused:
                break  # read again the checked way, for the first error it names
        hands.append(hand)
    else:  # every row read straight
        return tuple(hands)
    rows = hands_from_text(text, where)  # a row that stopped the loop: all read again, the checked way
    return tuple(hand_from_dict(_split_cards(row), f"{where}[{n}]", strict=False) for n, row in enumerate(rows))


_DEADWOOD = {str(n): n for n in range(MAX_DEADWOOD + 1)}  # a count as a command writes it
_PLAIN_ROW_FIELDS = {kind: len(ROW_FIELDS[kind]) for kind in ("knock", "draw")}
_BIG_GIN = {"0": False, "1": True, "": False}  # "": a row migrated from a schema 1 hand that did not say


def _plain_row(row: str) -> Hand | None:
    """A knock or draw told by counts, read straight from its row; None for any other row (cards, an escape, a
    length it does not know), which ``stored_hands`` then reads the checked way."""
    kind, *values = row.split("|")
    size = _PLAIN_ROW_FIELDS.get(kind, 0)
    if not size or len(values) not in (size, size + 2, size + 4):
        return None
    dealt = {}
    if len(values) > size:  # who dealt it follows an empty note (H8)
        note, *names = values[size:]
        if note or not all(validate.is_text(name, MAX_NAME) for name in names):
            return None
        dealt = {DEALER: names[0]} if len(names) == 1 else {ROLES: Roles(*names)}
    if kind == "draw":
        told = _upcard_and_time(*values[:size])
        return None if told is None else Draw(*told, **dealt)
    knocker, knocker_deadwood, opponent_deadwood, upcard, big_gin, at = values[:size]
    counts = _DEADWOOD.get(knocker_deadwood), _DEADWOOD.get(opponent_deadwood)
    told = _upcard_and_time(upcard, at)
    if told is None or None in counts or big_gin not in _BIG_GIN or not validate.is_text(knocker, MAX_NAME):
        return None
    return Knock(knocker, *counts, told[0], _BIG_GIN[big_gin], told[1], **dealt)


def _upcard_and_time(upcard: str, at: str) -> tuple | None:
    """A plain row's upcard and time, checked as ``hand_from_dict`` checks them; None when either is off."""
    try:
        return _stored_upcard(upcard) if upcard else None, validate.timestamp(at or None, "")
    except Refused:
        return None


@lru_cache(maxsize=256)  # the same few dozen upcards are stored in every session
def _stored_upcard(text: str):
    return parse_card(validate.text(text, "", "upcard", limit=4), rank_only=True)


# The fields an import may hold; any other is refused by name. A session's are SessionFacts' own fields (and
# cli/matched.py's STORED_KEYS start from them): a field added there is taken with no more code.
HAND_KEYS = {kind: frozenset(("type", *names, NOTE, DEALER, ROLES)) for kind, names in ROW_FIELDS.items()}
SESSION_KEYS = frozenset(SessionFacts._fields)
RULE_KEYS = frozenset(HouseRules._fields)
ROLE_KEYS = frozenset(Roles._fields)


def hand_from_dict(data: dict, where: str = "hand", *, strict: bool = True) -> Hand:
    """A hand from a dict, every field checked; ``strict`` as for ``session_from_dict``."""
    doc = validate.mapping(data, where)
    kind = validate.required(doc, "type", where)
    if kind == "knock" and "knocker_cards" in doc:
        kind = "cards"
    elif kind not in ("knock", "draw"):
        raise BadField(f"{where}.type must be 'knock' or 'draw', not {validate.describe(kind)}")
    # Unknown even in the database: its rows could not keep the field, and it would be lost at the next write.
    if not HAND_KEYS[kind].issuperset(doc):
        counted = next((key for key in ("knocker_deadwood", "opponent_deadwood") if key in doc), None)
        if kind == "cards" and counted:  # a field ginscore knows, but not beside the cards it comes from
            raise BadField(f"{where} gives its cards and {counted} too; a hand told as cards has its deadwood "
                           "counted from them: leave out the counts")
        validate.mapping(doc, where, HAND_KEYS[kind])  # names the field ginscore does not know
    upcard = doc.get("upcard")
    if upcard is not None:
        upcard = validate.text(upcard, where, "upcard", limit=4)
        upcard = checked_at(f"{where}.upcard", parse_card, upcard, rank_only=True)
    at = validate.timestamp(doc.get("recorded_at"), where, "recorded_at")
    note = checked_at(f"{where}.{NOTE}", stored_note, doc.get(NOTE))
    dealer, roles = doc.get(DEALER), doc.get(ROLES)
    if dealer is not None:
        dealer = validate.text(dealer, where, DEALER, limit=MAX_NAME)
    if roles is not None:
        roles = _roles(roles, f"{where}.{ROLES}")
    if dealer is not None and roles is not None:
        raise BadField(f"{where} gives both a dealer and roles; a two-player hand keeps its dealer, a three-player "
                       "hand its roles (H8)")
    if kind == "draw":
        return Draw(upcard=upcard, recorded_at=at, note=note, dealer=dealer, roles=roles)
    knocker = validate.text(validate.required(doc, "knocker", where), where, "knocker", limit=MAX_NAME)
    told = {"upcard": upcard, "big_gin": validate.flag(doc.get("big_gin", False), where, "big_gin"), "recorded_at": at,
            "note": note, "dealer": dealer, "roles": roles}
    if kind == "cards":
        hands = [
            [checked_at(f"{where}.{key}[{n}]", parse_card, c) for n, c in enumerate(
                validate.strings(validate.required(doc, key, where), where, key, limit=4))]
            for key in ("knocker_cards", "opponent_cards")
        ]
        return checked_at(where, knock_from_cards, knocker, *hands, **told)
    counts = [validate.whole_number(validate.required(doc, key, where), where, key, low=0, high=MAX_DEADWOOD)
              for key in ("knocker_deadwood", "opponent_deadwood")]
    return Knock(knocker, *counts, **told)


def checked_at(where: str, check, *args, **kwargs):
    """``check(*args, **kwargs)``; a refusal names the field ``where`` first."""
    try:
        return check(*args, **kwargs)
    except Refused as error:
        raise BadField.at(where, error) from None


def session_to_dict(facts: SessionFacts, *, rows: bool = False) -> dict:
    """The session as a dict to export, or with ``rows`` to store; a hand just told gets its dealer (H8)."""
    facts = as_kept(facts)
    hands = [hand_to_dict(h) for h in facts.hands]
    doc = {} if facts.id is None else {"id": facts.id}
    doc |= {
        "name": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "rules": rules_to_dict(facts.rules),
        "first_dealer": facts.first_dealer,
        "first_roles": facts.first_roles.to_dict() if facts.first_roles else None,
        "created_at": facts.created_at,
        "hands": hands_to_text(hands) if rows else hands,
    }
    if facts.match is not None:  # only sessions linked by `rematch` carry it
        doc["match"] = facts.match
    if facts.rule_changes or rows:  # always stored, so that it replaces the one kept before
        doc[RULE_CHANGES] = [{"from_hand": c.from_hand, "rules": rules_to_dict(c.rules)} for c in facts.rule_changes]
    return doc


# The house rules every ginscore that writes this layout reads, always written. A rule added later is
# written only where it is not at its default, so that an older ginscore, which refuses a rule it does
# not know, still reads every session that leaves the new rule off (docs/architecture.md).
ALWAYS_WRITTEN_RULES = ("target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus",
                        "shutout", "spades_double", "ace_means_gin", "deal", "stake")


def rules_to_dict(rules: HouseRules) -> dict:
    """House rules as a file keeps them: every rule of ``ALWAYS_WRITTEN_RULES``, a later one only when used."""
    return {key: value for key, value in rules.to_dict().items()
            if key in ALWAYS_WRITTEN_RULES or getattr(rules, key) != HouseRules._field_defaults[key]}


def session_from_dict(data: dict, where: str = "session", *, strict: bool = True) -> SessionFacts:
    """A session from an import or the database, every field checked; Refused names the first bad one.

    ``strict`` (an import) refuses a field ginscore does not know rather than understand the file in
    part; in the database (not strict) a later ginscore wrote it, and it is let be (not in a hand, whose
    rows could not keep it: that is damage)."""
    doc = validate.mapping(data, where, SESSION_KEYS if strict else None)
    variant = validate.required(doc, "variant", where)
    if variant not in VARIANTS:
        raise Refused(f"{where}.variant: unknown variant {validate.describe(variant)}; ginscore knows {', '.join(VARIANTS)}")
    roles = doc.get("first_roles")
    if roles is not None:
        roles = _roles(roles, f"{where}.first_roles")
    dealer = doc.get("first_dealer")
    validate.timestamp(doc.get("deleted_at"), where, "deleted_at")  # (the database's own: when `delete` set it aside)
    facts = SessionFacts(
        name=validate.text(validate.required(doc, "name", where), where, "name", limit=MAX_NAME, plain=strict),
        variant=variant,
        players=tuple(validate.strings(validate.required(doc, "players", where), where, "players", limit=MAX_NAME)),
        rules=_rules(doc.get("rules", {}), f"{where}.rules", strict),
        first_dealer=None if dealer is None else validate.text(dealer, where, "first_dealer", limit=MAX_NAME),
        first_roles=roles,
        hands=_hands(doc.get("hands", []), where, strict),
        created_at=validate.timestamp(doc.get("created_at"), where, "created_at"),
        match=made_id(doc.get("match"), "match", where),
        id=made_id(doc.get("id"), "id", where),
    )
    facts = facts._replace(rule_changes=_rule_changes(doc.get(RULE_CHANGES), facts, where, strict))
    checked_at(where, check_seats, facts)
    checked_at(where, check_rules, facts)
    return as_kept(facts)


def _rule_changes(value, facts: SessionFacts, where: str, strict: bool) -> tuple[RuleChange, ...]:
    """H8 change points: from hand 1, in order, the last the rules in force now (``rules``)."""
    if value is None:
        return ()
    where = f"{where}.{RULE_CHANGES}"
    if not isinstance(value, list):
        raise BadField(f"{where} must be a list, not {validate.describe(value)}")
    changes = []
    for n, item in enumerate(value):
        at = f"{where}[{n}]"
        item = validate.mapping(item, at, CHANGE_KEYS if strict else None)
        number = validate.whole_number(validate.required(item, "from_hand", at), at, "from_hand", low=1,
                                       high=len(facts.hands) + 1)
        if number <= (changes[-1].from_hand if changes else 0) or (not changes and number != 1):
            raise BadField(f"{at}.from_hand is {number}, but the first change gives the rules of hand 1 and each "
                           "later one a later hand")
        changes.append(RuleChange(number, _rules(validate.required(item, "rules", at), f"{at}.rules", strict)))
    if changes and changes[-1].rules != facts.rules:
        raise BadField(f"{where}: the last change must be the rules in force now (the session's rules)")
    return tuple(changes)


def _roles(value, where: str) -> Roles:
    """Three-player roles: a table of box, captain and out, each a name."""
    roles = validate.mapping(value, where, ROLE_KEYS)
    return Roles(*(validate.text(validate.required(roles, k, where), where, k, limit=MAX_NAME) for k in Roles._fields))


def _rules(value, where: str, strict: bool) -> HouseRules:
    """House rules, each checked by its type; one left out takes its default. An unknown rule is refused even
    in the database: scored without it, a hand could score wrong (docs/architecture.md, "Adding a house rule")."""
    doc = validate.mapping(value, where, RULE_KEYS)
    for key, given in doc.items():  # deal and stake (H6, H7) are checked by HouseRules.from_dict
        kind = HouseRules.__annotations__[key]
        if kind is bool:
            validate.flag(given, where, key)
        elif kind is int or (kind == int | None and given is not None):
            validate.whole_number(given, where, key, low=int(key == "target"), high=MAX_SETTING)  # H5: above 0
        elif kind is str:
            validate.text(given, where, key, limit=MAX_NAME)
    return checked_at(where, HouseRules.from_dict, doc)


def _hands(hands, where: str, strict: bool) -> tuple[Hand, ...]:
    """A session's hands: a list of dicts (an export), or in the database (not ``strict``) the stored rows."""
    if not strict and isinstance(hands, str):
        return stored_hands(hands, f"{where}.hands")
    if not isinstance(hands, list):
        raise BadField(f"{where}.hands must be a list of hands, not {validate.describe(hands)}")
    return tuple(hand_from_dict(h, f"{where}.hands[{n}]", strict=strict) for n, h in enumerate(hands))


def _split_cards(row: dict) -> dict:
    """A row read from the stored text, with each hand of cards (kept as one string) split into its cards."""
    for key in ("knocker_cards", "opponent_cards"):
        if isinstance(row.get(key), str):
            row[key] = row[key].split(" ")
    return row


# The ids only ginscore makes, by field: their form, and how a refusal names them.
_MADE_IDS = {"id": (SESSION_ID, "a session id", "s-1a2b3c4d5e6f"), "match": (MATCH_ID, "a match id", "m-1a2b3c4d5e6f")}


def made_id(value, key: str = "id", where: str = "") -> str | None:
    """A session's ``id`` or its ``match``, checked to be an id ginscore makes; None when left out."""
    if value is None:
        return None
    pattern, what, like = _MADE_IDS[key]
    if not isinstance(value, str) or not pattern.fullmatch(value):
        field = f"{where}.{key}: " if where else ""
        raise BadField(f"{field}{validate.describe(value)} is not {what} ginscore makes (like {like})")
    return value
