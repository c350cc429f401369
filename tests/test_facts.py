"""High card points, length points, shape and balance."""

from itertools import product

import pytest

from bidder import Facts, parse_hand
from bidder.cards import Card, Rank, Suit
from bidder.facts import SHAPES, Tally, card_hcp

EXAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


@pytest.mark.parametrize("rank, hcp", [
    (Rank.ACE, 4), (Rank.KING, 3), (Rank.QUEEN, 2), (Rank.JACK, 1), (Rank.TEN, 0),
    (Rank.TWO, 0),
])
def test_card_hcp(rank, hcp):
    assert card_hcp(Card(Suit.CLUBS, rank)) == hcp


@pytest.mark.parametrize("lengths, shape, distribution", [
    ((5, 3, 4, 1), "1-4-3-5", 1),
    ((3, 3, 3, 4), "4-3-3-3", 0),
    ((0, 0, 0, 13), "13-0-0-0", 9),
    ((6, 6, 1, 0), "0-1-6-6", 4),
    ((4, 4, 4, 1), "1-4-4-4", 0),
])
def test_shape_and_distribution(lengths, shape, distribution):
    tally = Tally(lengths, 10)
    assert (tally.shape, tally.distribution, tally.points) == (
        shape, distribution, 10 + distribution)


@pytest.mark.parametrize("lengths, balanced, reason", [
    ((3, 3, 3, 4), True, "balanced: every suit has 2 to 4 cards"),
    ((2, 3, 4, 4), True, "balanced: every suit has 2 to 4 cards"),
    ((5, 3, 3, 2), True, "balanced: 5-3-3-2 with the 5 cards in a minor (clubs)"),
    ((3, 5, 2, 3), True, "balanced: 5-3-3-2 with the 5 cards in a minor (diamonds)"),
    ((3, 3, 5, 2), False, "not balanced: 5-3-3-2 with the 5 cards in a major (hearts)"),
    ((2, 3, 3, 5), False, "not balanced: 5-3-3-2 with the 5 cards in a major (spades)"),
    ((1, 4, 4, 4), False, "not balanced: clubs has 1 card; every suit needs 2 to 4 "
                          "(or 5-3-3-2 with a 5-card minor)"),
    ((5, 4, 2, 2), False, "not balanced: clubs has 5 cards; every suit needs 2 to 4 "
                          "(or 5-3-3-2 with a 5-card minor)"),
    ((0, 4, 4, 5), False, "not balanced: clubs has 0 cards; every suit needs 2 to 4 "
                          "(or 5-3-3-2 with a 5-card minor)"),
    ((1, 2, 3, 7), False, "not balanced: spades has 7 cards; every suit needs 2 to 4 "
                          "(or 5-3-3-2 with a 5-card minor)"),
])
def test_balanced_and_why(lengths, balanced, reason):
    tally = Tally(lengths, 10)
    assert (tally.balanced, tally.balanced_reason) == (balanced, reason)


def test_facts_of_the_assignments_hand():
    facts = Facts(parse_hand(EXAMPLE))
    assert (facts.tally.hcp, facts.tally.distribution, facts.tally.points, facts.tally.shape) == (12, 1, 13, "1-4-3-5")
    assert (facts.tally.balanced, facts.tally.balanced_reason) == (
        False, "not balanced: spades has 1 card; every suit needs 2 to 4 "
               "(or 5-3-3-2 with a 5-card minor)")
    assert [(str(card), hcp) for card, hcp in facts.honours] == [
        ("AS", 4), ("KH", 3), ("AD", 4), ("JD", 1)]
    assert [facts.suit_hcp(suit) for suit in Suit] == [0, 5, 3, 4]
    assert [facts.tally.length_points(suit) for suit in Suit] == [1, 0, 0, 0]


def test_facts_to_dict():
    data = Facts(parse_hand(EXAMPLE)).to_dict()
    assert data["hand"] == "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
    assert (data["hcp"], data["distribution"], data["points"]) == (12, 1, 13)
    assert data["hcp_by_card"][0] == {"card": "AS", "hcp": 4}
    assert data["suits"][3] == {"suit": "clubs", "symbol": "♣",
                                "cards": ["10C", "8C", "5C", "4C", "2C"], "length": 5,
                                "hcp": 0, "distribution": 1}
    assert [suit["suit"] for suit in data["suits"]] == ["spades", "hearts", "diamonds", "clubs"]


def test_the_shapes_are_every_way_13_cards_fall_into_four_suits_in_order():
    assert SHAPES == tuple(lengths for lengths in product(range(14), repeat=4)
                           if sum(lengths) == 13)
    assert len(SHAPES) == 560
