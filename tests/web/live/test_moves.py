"""How each student's answer moved between the first and the second vote: a table of
every kind of move, and invariants for any two votes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder.web.live.model import BID_KEYS, MOVES, moves, shift, tally


@pytest.mark.parametrize("first, second, kind", [
    ({"a": "1H"}, {"a": "1C"}, "wrong_to_right"),
    ({"a": "1C"}, {"a": "1H"}, "right_to_wrong"),
    ({"a": "1C"}, {"a": "1C"}, "stayed_right"),
    ({"a": "1H"}, {"a": "1H"}, "stayed_wrong"),
    ({"a": "1H"}, {"a": "None"}, "stayed_wrong"),
    ({"a": "1C"}, {}, "first_only"),
    ({}, {"a": "1C"}, "second_only"),
])
def test_each_kind_of_move_is_counted_as_itself(first, second, kind):
    assert moves(first, second, "1C") == {name: int(name == kind) for name in MOVES}


def test_no_bid_can_be_the_right_answer():
    assert moves({"a": "1C", "b": "None"}, {"a": "None", "b": "None"}, None) == {
        "wrong_to_right": 1, "right_to_wrong": 0, "stayed_right": 1, "stayed_wrong": 0,
        "first_only": 0, "second_only": 0}


VOTES = st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from(BID_KEYS[:6]))


@given(first=VOTES, second=VOTES, right=st.sampled_from(["1C", "1H", None]))
def test_every_student_is_counted_once_and_the_moves_add_up_to_the_bars_shift(
        first, second, right):
    counted = moves(first, second, right)
    assert sum(counted.values()) == len(first.keys() | second.keys())
    key = "None" if right is None else right
    gained = shift(tally(first), tally(second)).get(key, 0)
    assert (counted["wrong_to_right"] - counted["right_to_wrong"]
            + sum(1 for device, bid in second.items() if device not in first and bid == key)
            - sum(1 for device, bid in first.items() if device not in second and bid == key)
            ) == gained
