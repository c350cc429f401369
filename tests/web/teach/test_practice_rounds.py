"""Practice rounds as the session keeps them: the round's rules, its answers, the misses."""

import pytest

from bidder.teaching import TEACHING_RULES
from bidder.web.teach.rounds import (answers, given_bids, is_focus, is_given, is_record, missed,
                                     recorded, with_given,
                                     round_bids, round_rules, scores)


@pytest.mark.parametrize("focus, ids", [
    ("", [rule.id for rule in TEACHING_RULES]),
    ("R3", ["R3"] * 8),
    ("R3,R7", ["R3", "R7"] * 4),
    ("R1,R7,R9", ["R1", "R7", "R9"] * 3),
    (",".join(rule.id for rule in TEACHING_RULES), [rule.id for rule in TEACHING_RULES]),
], ids=["every-deciding-rule", "one-rule-fills-the-round", "two-rules-four-times-each",
        "three-rules-three-times-each-past-eight", "every-rule-named-once"])
def test_a_round_by_rule_is_as_long_as_a_round_of_every_rule(focus, ids):
    assert len(TEACHING_RULES) == 8
    assert [rule.id for rule in round_rules(focus)] == ids


@pytest.mark.parametrize("bids, count", [("1NT", 8), ("1NT,2NT", 8), ("1C,1D,1H", 9)],
                         ids=["one-bid", "two-bids", "three-bids-past-eight"])
def test_a_round_by_bid_is_as_long_as_a_round_by_rule(bids, count):
    assert len(round_bids(bids)) == count


@pytest.mark.parametrize("value, readable", [
    ("", True), ("R3", True), ("R1,R2,R9", True),
    ("R4", False), ("R10", False), ("R3,R3", False), ("R7,R3", False), ("R3,", False),
    (",R3", False), ("r3", False), (" R3", False), (None, False), (["R3"], False), (3, False),
], ids=lambda value: repr(value))
def test_only_a_round_as_written_is_read_back(value, readable):
    assert is_focus(value) is readable


@pytest.mark.parametrize("value, readable", [
    ("", True), ("R3+", True), ("R3-R3+R9-", True),
    ("R3", False), ("R3*", False), ("R4+", False), ("R12-", False), ("+R3", False),
    ("R3+ ", False), ("r3+", False), (None, False), (7, False),
], ids=lambda value: repr(value))
def test_only_answers_as_written_are_read_back(value, readable):
    assert is_record(value) is readable


def test_answers_are_recorded_in_order():
    record = recorded(recorded("", "R3", False), "R1", True)
    assert record == "R3-R1+"
    assert answers(record) == [("R3", False), ("R1", True)]


@pytest.mark.parametrize("record, table, misses", [
    ("", [], ""),
    ("R9+R3+", [("R3", 1, 0), ("R9", 1, 0)], ""),
    ("R7-R3+R7+R1-", [("R1", 0, 1), ("R3", 1, 0), ("R7", 1, 1)], "R1,R7"),
    ("R9-R9-R9+", [("R9", 1, 2)], "R9"),
], ids=["nothing-yet", "all-right", "two-missed", "one-rule-many-times"])
def test_scores_per_rule_in_table_order_and_the_rules_missed(record, table, misses):
    assert [(score.rule.id, score.right, score.wrong) for score in scores(record)] == table
    assert missed(record) == misses
    assert is_focus(misses)


@pytest.mark.parametrize("value, readable", [
    ("", True), ("0:1C", True), ("0:1C,2:None,3:2NT", True),
    ("2:1C,0:1D", False), ("0:1C,0:1D", False), ("0:1X", False), ("0:1c", False),
    ("0:1C,", False), ("x", False), (None, False), (7, False), ("0:1C;1:1D", False),
])
def test_only_bids_given_as_written_are_read_back(value, readable):
    assert is_given(value) is readable


def test_bids_given_are_kept_with_their_places():
    value = with_given(with_given("", 0, "1C"), 3, "None")
    assert value == "0:1C,3:None"
    assert given_bids(value) == [(0, "1C"), (3, "None")]
