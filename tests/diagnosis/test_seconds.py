"""A second misreading beside the leading one: what a student holding both answers, the
odds of each pair against the leader alone, and the hands that can show a second one."""

import pytest

from bidder import packed
from bidder.bids import BID_BY_VALUE
from bidder.cards import Hand
from bidder.diagnosis.answers import Answer
from bidder.diagnosis.bank import Row, shipped
from bidder.diagnosis.learner import evidence
from bidder.diagnosis.seconds import SECOND_SHARE, alone, composed_value, departing, second_odds

BANK = shipped()
CLASSES = BANK.classes(("bid",))


def place_of(reading_id):
    return BANK.ids.index(reading_id)


def class_of(reading_id):
    return next(place for place, members in enumerate(CLASSES)
                if place_of(reading_id) in members)


@pytest.mark.parametrize("rules, leader, second, expected", [
    (("1C", 15, 0), ("1NT", 15, 0), ("1D", 15, 0), ("1NT", 15, 0)),
    (("1C", 15, 0), ("1C", 15, 0), ("1D", 15, 0), ("1D", 15, 0)),
    (("1C", 15, 0), ("1C", 15, 2), ("1D", 15, 1), ("1D", 15, 2)),
], ids=["where the leader departs, its answer", "where it answers as the rules, the second's",
        "part by part: the leader's count, the second's bid"])
def test_a_pair_answers_as_the_leader_where_it_departs_else_as_the_second(
        rules, leader, second, expected):
    values = tuple(dict.fromkeys((rules, leader, second)))
    found = Row(0, values, (values.index(rules), values.index(leader), values.index(second)))
    assert composed_value(found.answer(1), found.answer(0), found.answer(2)) == expected


@pytest.mark.parametrize("odds, share", [
    ({}, 1.0), ({3: 0.05}, 1 / 1.05), ({3: 0.5, 4: 0.5}, 0.5),
], ids=["no pair: alone", "pairs at a twentieth: just under 0.96", "even odds: a half"])
def test_the_leader_alone_weighs_against_all_its_pairs_together(odds, share):
    assert alone(odds) == pytest.approx(share)


def answers_of(reading_id, count, second=None):
    """The first *count* hands on which the reading answers as the rules do, answered
    by the reading (or by the reading and *second*, each where it departs)."""
    leader, other = place_of(reading_id), None if second is None else place_of(second)
    found = []
    for row in BANK.rows:
        if row.of[leader] == row.of[0] and (other is None or row.of[other] != row.of[0]):
            bid = row.answer(leader if other is None else other)[0]
            found.append(Answer(Hand.in_order(packed.cards(row.code)),
                                None if bid is None else BID_BY_VALUE[bid]))
        if len(found) == count:
            return found
    raise AssertionError("too few hands")


@pytest.mark.parametrize("second, more", [(None, False), ("no-2nt", True)],
                         ids=["answered as the rules: every pair less likely than before",
                              "answered as a second misreading: its pair more likely"])
def test_answers_where_the_leader_agrees_with_the_rules_move_the_odds(second, more):
    leader = class_of("1nt-15-17")
    given = answers_of("1nt-15-17", 2, second)
    known = evidence(given, CLASSES, False)
    odds = second_odds(CLASSES, leader, known.classes[leader], given, known.rows, False)
    before = SECOND_SHARE / (len(CLASSES) - 2)
    assert set(odds) == set(range(len(CLASSES))) - {0, leader}
    if more:
        assert odds[class_of(second)] > 10 * before
    else:
        assert all(value <= before * 1.0001 for value in odds.values())
        assert min(odds.values()) < before / 10


@pytest.mark.parametrize("reading", ["1nt-15-17", "dist=beyond-3"],
                         ids=["a bid's range", "a count, where it changes the bid only"])
def test_the_hands_barred_are_those_the_leader_bids_otherwise(reading):
    leader = place_of(reading)
    barred = departing(BANK, leader)
    for row in BANK.rows[:3000]:
        assert (row.code in barred) == (row.answer(leader)[0] != row.answer(0)[0])
