"""The learner model: slips, none of these, pairs, and a posterior that sums to one."""

from math import isclose

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidder import packed
from bidder.bids import BID_BY_VALUE
from bidder.cards import parse_hand
from bidder.diagnosis import Answer
from bidder.diagnosis.bank import shipped
from bidder.diagnosis.hypotheses import answers as reading_answers
from bidder.diagnosis.learner import belief, pair_id
from bidder.diagnosis.probes import probes
from bidder.diagnosis.slips import (NEIGHBOUR_SHARE, UNIVERSE, likelihood, none_likelihood)
from bidder.misreadings import variant_by_id

NEAR = frozenset({"1NT", "1C", "1D"})


@pytest.mark.parametrize("given_value, predicted, neighbours, expected", [
    ("1NT", "1NT", NEAR, 0.9),
    ("1C", "1NT", NEAR, 0.1 * (NEIGHBOUR_SHARE / 2 + (1 - NEIGHBOUR_SHARE) / 35)),
    ("4S", "1NT", NEAR, 0.1 * (1 - NEIGHBOUR_SHARE) / 35),
    ("4S", "1NT", frozenset({"1NT"}), 0.1 / 35),
], ids=["the predicted call", "a neighbouring call", "a call no reading makes",
        "no neighbour at all"])
def test_a_slip_lands_mostly_on_a_neighbouring_call(given_value, predicted, neighbours,
                                                    expected):
    assert isclose(likelihood(given_value, predicted, neighbours, "bid", 0.1), expected)


@pytest.mark.parametrize("given_value, expected", [
    ("1C", 0.9 / 3 + 0.1 / UNIVERSE["bid"]), ("4S", 0.1 / UNIVERSE["bid"]),
], ids=["a call some reading makes", "a call none makes"])
def test_none_of_these_spreads_over_the_calls_readings_make(given_value, expected):
    assert isclose(none_likelihood(given_value, NEAR, "bid", 0.1), expected)


def rows_answered(reading, count, start=0, slip_every=0):
    """*count* answers to the bank's hands as *reading* gives them (a slip to no opening
    every *slip_every* answers)."""
    bank = shipped()
    found = []
    for number, row in enumerate(bank.rows[start:start + count]):
        bid, hcp, distribution = reading_answers(reading, row.code)
        if slip_every and number % slip_every == slip_every - 1:
            bid = None if bid else "1C"
        hand = parse_hand(packed.text(row.code))
        found.append(Answer(hand, None if bid is None else BID_BY_VALUE[bid], hcp,
                            distribution))
    return found


def total(known):
    return sum(known.weights) + known.none + sum(weight for _, weight in known.pairs)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 40), st.integers(0, 127), st.integers(0, 5), st.booleans())
def test_the_posterior_sums_to_one(count, reading, slip_every, counting):
    found = variant_by_id(shipped().ids[reading + 1])
    answered = rows_answered(found, count, start=reading * 7, slip_every=slip_every)
    known = belief(shipped(), answered, counting)
    assert isclose(total(known), 1.0)
    assert 0 < known.slip < 1


def test_answers_with_no_slip_leave_a_low_slip_rate_and_many_slips_a_high_one():
    reading = variant_by_id("1nt-15-17")
    steady = belief(shipped(), rows_answered(reading, 40), counting=True)
    slipping = belief(shipped(), rows_answered(reading, 40, slip_every=2), counting=True)
    assert steady.slip < 0.05 < 0.1 < slipping.slip


def test_answers_no_reading_gives_move_belief_to_none_of_these():
    hand = parse_hand("AS KS QS JS 10S 9S 8S AH KH QH AD KD AC")
    known = belief(shipped(), [Answer(hand, BID_BY_VALUE["4C"], 0, 0)] * 12, counting=True)
    assert known.none > 0.5


def test_a_pair_that_fits_better_than_either_part_is_weighed_and_named_by_both_ids():
    pair = variant_by_id("1nt-15-17").and_then(variant_by_id("no-2nt"))
    bank = shipped()
    chosen = [row for row in bank.rows
              if reading_answers(pair, row.code)[0] != reading_answers(None, row.code)[0]]
    answered = [Answer(parse_hand(packed.text(row.code)),
                       None if (bid := reading_answers(pair, row.code)[0]) is None
                       else BID_BY_VALUE[bid]) for row in chosen[:40]]
    known = belief(bank, answered, counting=False)
    ranked = known.ranked(bank.ids)
    assert ranked[0].id == pair_id(("no-2nt", "1nt-15-17")) == "no-2nt+1nt-15-17"
    assert ranked[0].members == ("no-2nt", "1nt-15-17")  # in the space's order


def test_without_pairs_none_are_weighed():
    answered = rows_answered(variant_by_id("no-2nt"), 10)
    assert belief(shipped(), answered, counting=False, pairs=False).pairs == ()


def probe_answers(reading, probed):
    """Answers as *reading* gives them to every hand of the probes of *probed*."""
    bank = shipped()
    codes = [code for probe in probes(bank, bank.ids.index(probed)) for code in probe.codes]
    found = []
    for code in codes:
        bid = reading_answers(reading, code)[0]
        found.append(Answer(parse_hand(packed.text(code)),
                            None if bid is None else BID_BY_VALUE[bid]))
    return found


@pytest.mark.parametrize("student, near_more", [
    ("R1.hcp=14-18", False), ("R1.hcp=14-17", True),
], ids=["the misreading itself: its probes met", "1NT on 14-17: the 18 HCP probe missed"])
def test_readers_near_a_leading_misreading_who_miss_its_probes_weigh_as_none(
        student, near_more):
    bank = shipped()
    inside = belief(bank, probe_answers(variant_by_id("R1.hcp=14-18"), "R1.hcp=14-18"), False)
    found = belief(bank, probe_answers(variant_by_id(student), "R1.hcp=14-18"), False)
    lead = next(place for place, members in enumerate(found.classes)
                if bank.ids[members[0]] == "R1.hcp=14-18")
    assert isclose(total(found), 1)
    assert (found.near[lead] > 10 * inside.near[lead]) is near_more
    assert found.mass(lead) == found.weights[lead] + found.near[lead]
    assert found.none >= found.near[lead] > 0
