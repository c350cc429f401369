"""A weak test file: only the assignment's own sample hand, and no test of
distributionPoints."""
from solution import highCardPoints, openingBid

SAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


def test_high_card_points():
    assert highCardPoints(SAMPLE) == 12


def test_opening_bid():
    assert openingBid(SAMPLE) == "1C"
