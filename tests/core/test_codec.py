"""Session facts to and from their stored rows and fields, read back exactly."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ginscore.codec import facts as codec_facts
from ginscore.codec.facts import (
    check_note,
    hands_from_text,
    hands_to_text,
    session_from_dict,
    session_to_dict,
)
from ginscore.core.names import MAX_NAME
from ginscore.core.scoring import HouseRules
from ginscore.core.session import Draw, RuleChange, SessionFacts
from ginscore.documents import (
    uninert,
    inert,
)
from tests.profiles import examples

names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=examples(200))
@given(names, st.integers(0, 98), st.integers(0, 98), st.sampled_from([None, "7H", "Q"]), st.booleans(),
       st.sampled_from([None, "2026-11-29T21:15:00+01:00"]))
def test_property_stored_rows_round_trip(name, knocker_deadwood, opponent_deadwood, upcard, big_gin, at):
    """records.hands_to_text: any name, including | ; and %, comes back exactly (schema 2)."""
    hands = [
        {"type": "knock", "knocker": name, "knocker_deadwood": knocker_deadwood,
         "opponent_deadwood": opponent_deadwood, "upcard": upcard, "big_gin": big_gin, "recorded_at": at},
        {"type": "draw", "upcard": upcard, "recorded_at": at},
        {"type": "knock", "knocker": name, "knocker_cards": "AS 2S", "opponent_cards": "3S", "upcard": upcard,
         "big_gin": big_gin, "recorded_at": at},
    ]
    assert hands_from_text(hands_to_text(hands)) == hands


# Each field: what commands write, then what they never write.
_ROW_FIELDS = {
    "kind": (["knock", "draw", "cards"], ["bogus", "", "Knock"]),
    "name": (["Ann", "José", "Ben Cy", "Ｚoë", "x" * MAX_NAME], ["", " Ann", "A\x1bnn", "a%7Cb", "x" * (MAX_NAME + 1),
                                                                "\udcff"]),
    "count": (["0", "9", "10", "09", "98"], ["99", "200", "", "-1", "٣", "9" * 101, "1.0", " 3"]),
    "upcard": (["", "7S", "7s", "10H", "Q", "K♠", "a"], ["XX", "7S ", "1", "%25", "10"]),
    "flag": (["0", "1", ""], ["2", "true"]),
    "time": (["", "2026-01-01T20:00:00+00:00", "2026-11-29T21:15:03.123456+00:00", "2026-01-01T20:00:00Z"],
             ["2026-13-01T20:00:00+00:00", "yesterday", "2026-01-01 20:00"]),
    "knocker_cards": (["AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "AS 2S 3S 4S 7H 7D 7C 9H 10H JH"], ["AS", "", "AS  2S"]),
    "opponent_cards": (["KC QD 8S 5H 5C 6D 4C 3D 9C 8C"], ["AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "KC"]),
    "note": (["good one", "a%3Bb", "x%25"], ["", " spaced"]),
}


# Each field's strategies, made once (not at every draw): (what commands write, what they never write).
_FIELD_DRAWS = {field: (st.sampled_from(written), st.sampled_from(never))
                for field, (written, never) in _ROW_FIELDS.items()}


_ONE_IN = {n: st.integers(0, n - 1) for n in (5, 30, 40)}


@st.composite
def _stored_row(draw) -> str:
    """A row as a command writes it, or (about one field in forty) one a field off, or with a field
    too few: every kind."""
    def pick(field: str) -> str:
        written, never = _FIELD_DRAWS[field]
        return draw(never if draw(_ONE_IN[40]) == 0 else written)

    kind = pick("kind")
    if kind == "draw":
        values = [pick("upcard"), pick("time")]
    elif kind == "cards":
        values = [pick("name"), pick("knocker_cards"), pick("opponent_cards"), pick("upcard"), pick("flag"), pick("time")]
    else:
        values = [pick("name"), pick("count"), pick("count"), pick("upcard"), pick("flag"), pick("time")]
    if draw(_ONE_IN[5]) == 0:
        values.append(pick("note"))
    if draw(_ONE_IN[30]) == 0:
        values = values[:-1]
    return "|".join([kind, *values])


def _read_both_ways(text: str) -> tuple:
    """What ``stored_hands`` reads of ``text``, and what ``hand_from_dict`` reads of each row of
    ``hands_from_text``: each the hands, or the error's kind and words."""
    from ginscore.codec.facts import hand_from_dict, hands_from_text, stored_hands
    from ginscore.core.errors import Refused

    def read(reader):
        try:
            return "hands", reader()
        except Refused as error:
            return type(error).__name__, str(error)

    def checked():
        dicts = hands_from_text(text, "s.hands")
        for row in dicts:
            for key in ("knocker_cards", "opponent_cards"):
                if isinstance(row.get(key), str):
                    row[key] = row[key].split(" ")
        return tuple(hand_from_dict(row, f"s.hands[{n}]", strict=False) for n, row in enumerate(dicts))

    return read(lambda: stored_hands(text, "s.hands")), read(checked)


_PLAIN_ROW = "knock|Ann|3|20|7S|0|2026-01-01T20:00:00+00:00"


_ROW_SHAPES = {"knock": ("name", "count", "count", "upcard", "flag", "time", "note"), "draw": ("upcard", "time", "note"),
               "cards": ("name", "knocker_cards", "opponent_cards", "upcard", "flag", "time", "note")}


def test_each_field_of_a_stored_row_read_fast_is_read_as_the_checked_way_reads_it():
    """Every value of every field, written or never written, in a row otherwise as commands
    write it: after a plain row and before one, each read alike both ways (the hands or the error)."""
    seen = set()
    for kind, shape in _ROW_SHAPES.items():
        base = [_ROW_FIELDS[field][0][0] for field in shape]
        for place, field in enumerate(shape):
            for value in sum(_ROW_FIELDS[field], []):
                values = base[:place] + [value] + base[place + 1:]
                for row in ("|".join([kind, *values]), "|".join([kind, *values[:-1]])):  # with a note and without
                    fast, slow = _read_both_ways(f"{_PLAIN_ROW};{row};{_PLAIN_ROW}")
                    assert fast == slow, row
                    seen.add(slow[0])
    assert seen == {"hands", "BadField"}


@settings(max_examples=examples(1500), suppress_health_check=list(HealthCheck))
@given(st.lists(_stored_row(), max_size=6), st.integers(0, 3))
def test_stored_rows_read_fast_are_the_hands_and_the_error_the_checked_way_reads(rows, plain_first):
    """Every command replays every session from its stored rows; ``stored_hands`` reads a plain
    knock or draw without the dict between. It must give exactly the hands (or the first error,
    word for word) that ``hand_from_dict`` gives for each row of ``hands_from_text``."""
    fast, slow = _read_both_ways(";".join([_PLAIN_ROW] * plain_first + rows))
    event(slow[0] if slow[0] == "hands" else slow[1].split(":")[0][:60])
    assert fast == slow


def test_rows_without_a_note_read_as_1_0_wrote_them():
    """A 1.0 row has no note field; a hand without a note is still stored without one."""
    old = "knock|Ann|4|22||0|2026-11-29T20:00:00+01:00;draw||2026-11-29T20:05:00+01:00"
    hands = hands_from_text(old)
    assert [h.get("note") for h in hands] == [None, None]
    assert hands_to_text(hands) == old
    noted = hands_to_text([dict(hands[0], note="a|b;c%")])
    assert noted.endswith("|a%7Cb%3Bc%25") and hands_from_text(noted)[0]["note"] == "a|b;c%"


def test_house_rules_read_back_from_their_stored_form():
    rules = HouseRules(deal="alternate", stake=Decimal("0.01"))
    assert HouseRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_the_rules_every_reader_of_this_layout_knows_are_always_written_first():
    """A new house rule goes after these, never among them (docs/architecture.md, "Adding a house rule")."""
    known = ("target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus", "shutout",
             "spades_double", "ace_means_gin", "deal", "stake")
    assert codec_facts.ALWAYS_WRITTEN_RULES == known == HouseRules._fields[:len(known)]
    stored = session_to_dict(SessionFacts("s", "standard", ("Ann", "Ben"), first_dealer="Ann"), rows=True)
    assert tuple(stored["rules"]) == known


def test_a_rule_added_later_is_written_only_where_a_session_uses_it(monkeypatch):
    """An older ginscore refuses a rule it does not know (H1-H8 are scored exactly or not at all), so a rule
    it has never heard of is kept only in a session that uses it: the rest stay readable there. Stood for
    here by taking H3's shutout out of the rules always written."""
    monkeypatch.setattr(codec_facts, "ALWAYS_WRITTEN_RULES",
                        tuple(k for k in codec_facts.ALWAYS_WRITTEN_RULES if k != "shutout"))
    plain = SessionFacts("s", "standard", ("Ann", "Ben"), first_dealer="Ann")
    used = plain._replace(rules=HouseRules(shutout=True), hands=(Draw(dealer="Ann"),),
                          rule_changes=(RuleChange(1, HouseRules()), RuleChange(2, HouseRules(shutout=True))))
    for rows in (False, True):
        left_off = session_to_dict(plain, rows=rows)
        assert "shutout" not in left_off["rules"] and session_from_dict(left_off, strict=not rows) == plain
        kept = session_to_dict(used, rows=rows)
        assert kept["rules"]["shutout"] is True
        assert ["shutout" in change["rules"] for change in kept["rule_changes"]] == [False, True]


NOTE_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"), whitelist_characters=" |;%"),
    min_size=1, max_size=200,
).filter(str.strip)


@given(NOTE_TEXT)
def test_property_any_kept_note_survives_the_stored_row(text):
    note = check_note(text)
    hands = [{"type": "draw", "upcard": None, "recorded_at": None, "note": note}]
    assert hands_from_text(hands_to_text(hands))[0]["note"] == note


@given(st.text(max_size=30))
def test_property_inert_cells_come_back_exactly(text):
    assert uninert(inert(text)) == text


def test_a_wrong_value_is_named_as_json_says_it_short_and_visible():
    from ginscore.codec.validate import describe

    assert [describe(v) for v in (None, True, False, {"a": 1}, [1], 3, 2.5)] == [
        "null", "true", "false", "a table of fields", "a list", "3", "2.5"]
    assert describe("x" * 40) == "'" + "x" * 40 + "'" and describe("x" * 41) == "'" + "x" * 40 + "...'"
    assert describe("a\x1b[2Jb") == "'a\\x1b[2Jb'"  # a terminal's escape from a file is shown, never obeyed
    assert [describe(v) for v in (float("nan"), float("inf"), float("-inf"), 10**18, -(10**18), 10**18 - 1)] == [
        "NaN", "Infinity", "-Infinity", "a number too large to be one", "a number too large to be one",
        "999999999999999999"]
