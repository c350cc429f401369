"""The search for the misreading behind a student's answers, over plain (hand, answer) data."""

import pytest

from bidder import packed
from bidder.cards import InvalidHandError
from bidder.dealing import changed_hand, random_hand
from bidder.explaining import Given, bids_given, explain_answers, matches
from bidder.misreadings import variant_by_id

HANDS = [str(random_hand(seed)) for seed in range(60)]


def answered_by(variant, hands=HANDS):
    """The bids a student reading the rules as *variant* gives, marked right or not."""
    pairs = [(hand, variant.written(packed.decide(packed.encode(hand), variant.rules,
                                                  variant.counting)[1])) for hand in hands]
    right = [bid == packed.bid(packed.encode(hand)) for hand, bid in pairs]
    return bids_given(pairs, right)


@pytest.mark.parametrize("reading", ["r3-unbalanced-only", "R1.hcp=15-18", "swap=R2/R3"])
def test_bids_given_by_a_misreading_are_explained_by_it(reading):
    variant = variant_by_id(reading)
    hands = HANDS + [changed_hand(variant, seed) for seed in (1, 2, 3)]
    found = explain_answers(answered_by(variant, hands))
    assert found is not None
    assert reading in [found.variant.id] + [other.id for other in found.alternatives]


def test_right_answers_are_not_explained():
    assert explain_answers(answered_by(variant_by_id("r8-6-8"))) is None


def test_answers_no_reading_gives_are_not_explained():
    pairs = [(hand, "7NT") for hand in HANDS[:10]]
    assert explain_answers(bids_given(pairs, [False] * 10)) is None


@pytest.mark.parametrize("given, predicted, fits", [
    (Given("openingBid", 0, None, True), None, True),
    (Given("openingBid", 0, "None", False), None, False),
    (Given("openingBid", 0, "1C", True), "1C", True),
    (Given("openingBid", 0, None, False, readable=False), None, False),
    (Given("highCardPoints", 0, 12, True), 12, True),
    (Given("highCardPoints", 0, "12", False), 12, False),
])
def test_an_answer_matches_only_exactly(given, predicted, fits):
    assert matches(given, predicted) is fits


def test_pairs_and_marks_must_be_as_many():
    with pytest.raises(ValueError):
        bids_given([(HANDS[0], None)], [])


def test_hands_are_read_in_any_notation_and_an_unreadable_one_says_why():
    dotted, = bids_given([("AKQ2.K32.K32.432", "1NT")], [True])
    assert dotted.code == packed.encode("AS KS QS 2S KH 3H 2H KD 3D 2D 4C 3C 2C")
    with pytest.raises(InvalidHandError, match="appears twice"):
        bids_given([("AS AS", None)], [False])
