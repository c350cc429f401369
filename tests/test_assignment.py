"""The assignment's three graded functions: exact names, exact types, lenient input."""

import re

import pytest

import bidder
from bidder import (InvalidHandError, InvalidHandWarning, distributionPoints, explain,
                    highCardPoints, openingBid)
from bidder.dealing import hand_stream
from bidder.cards import DECK, Hand

EXAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
TWELVE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD"
GRADED = [highCardPoints, distributionPoints, openingBid]


def test_the_graded_names_are_importable_from_the_package():
    assert {"highCardPoints", "distributionPoints", "openingBid"} <= set(bidder.__all__)


@pytest.mark.parametrize("text", [EXAMPLE, EXAMPLE.lower(), f" {EXAMPLE}\n",
                                  "A.KT87.AJ9.T8542", "♠ A ♥ K 10 8 7 ♦ A J 9 ♣ 10 8 5 4 2",
                                  EXAMPLE.replace("AS", "A♠\ufe0f")])
def test_the_assignments_hand_in_any_notation(text, recwarn):
    assert (highCardPoints(text), distributionPoints(text), openingBid(text)) == (12, 1, "1C")
    assert type(highCardPoints(text)) is int and type(distributionPoints(text)) is int
    assert not recwarn.list


def test_no_bid_is_the_value_none():
    assert openingBid("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C") is None


@pytest.mark.parametrize("hand, message, answers", [
    (TWELVE, "this one has 12 (missing 1)", (12, 0, None)),
    (TWELVE + " AD", "'AD' appears twice", (16, 0, "1C")),
    (EXAMPLE + " AD", "this one has 14 (1 too many); 'AD' appears twice", (16, 1, "1C")),
    ("AS " * 20 + "2C", "'AS' appears 20 times", (80, 16, "2S")),
])
def test_duplicates_and_wrong_counts_answer_with_a_warning(hand, message, answers):
    for function, answer in zip(GRADED, answers):
        with pytest.warns(InvalidHandWarning, match=re.escape(message)):
            assert function(hand) == answer


@pytest.mark.parametrize("function", GRADED)
@pytest.mark.parametrize("hand", ["", "1H " * 13, "AS\x00", "A" * 1000])
def test_unreadable_cards_raise(function, hand):
    with pytest.raises(InvalidHandError):
        function(hand)


@pytest.mark.parametrize("function", GRADED)
@pytest.mark.parametrize("value", [None, 42, 3.5, True, b"AS", ["AS"], ("AS",), {}])
def test_non_strings_raise_type_error(function, value):
    with pytest.raises(TypeError, match="a hand must be a str"):
        function(value)


@pytest.mark.slow
@pytest.mark.no_cover  # a sweep: each line it runs, the tests above run too
def test_the_fast_path_agrees_with_explain_on_ten_thousand_hands():
    stream = hand_stream(2026)
    for _ in range(10_000):
        hand = Hand(tuple(DECK[index] for index in next(stream)))
        text = str(hand)
        advice = explain(hand)
        assert (highCardPoints(text), distributionPoints(text), openingBid(text)) == (
            advice.facts.tally.hcp, advice.facts.tally.distribution, advice.bid)


@pytest.mark.parametrize("hand, bid", [
    ("Q5432.AKQJ2.A2.A", "2H"), ("AK5432.AK432.A.A", "2S"), ("AK432.AK5432.A.A", "2H"),
    ("A2.A.AKQ32.AKQ32", "2C"), ("A2.K.AKQ32.KQ432", "2D"),
])
def test_two_suited_strong_hands_in_the_assignments_form(hand, bid):
    text = str(bidder.parse_hand(hand))
    assert openingBid(text) == bid == openingBid(hand)
