"""A thorough test file, unittest style: a hand on each side of the rules students
misread."""
import unittest

from solution import distributionPoints, highCardPoints, openingBid

BIDS = [
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "1C"),   # balanced 19 HCP: R3 first
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", "1C"),   # balanced 21: R3 before 2NT
    ("AS KS QS 2S KH 3H 2H KD 3D 2D 4C 3C 2C", "1C"),   # balanced 14 HCP: R3 applies
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", None),   # weak two-suiter
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "4S"),   # exactly 8 cards
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", None),   # 9 cards: neither 7 nor 8
    ("KS QS 9S 8S 7S 6S 5S 4S 3H 2H 3D 2D 4C", None),   # 8 cards but 5 HCP
    ("AS KS QS 2S KH 3H 2H QD 3D 2D 4C 3C 2C", "1C"),   # equal minors: clubs
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", "1S"),   # equal majors: spades
    ("AS KS QS JS 4S 3S 2S AH KH QH 2H 2D 2C", "2S"),   # 22 points, 19 HCP
    ("AS KS QS 2S KH 4H 3H 2H 5D 4D 3D 2D 2C", None),   # 12 HCP, a singleton
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "1H"),   # 5-3-3-2 with a major
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "2NT"),  # balanced 21 with a 5-card minor
    ("AS KS QS 2S AH 3H 2H KD 3D 2D QC 3C 2C", "1NT"),  # balanced 18
]


class OpeningBids(unittest.TestCase):
    def test_bids(self):
        for hand, bid in BIDS:
            with self.subTest(hand=hand):
                self.assertEqual(openingBid(hand), bid)

    def test_seven_cards(self):
        self.assertEqual(openingBid("KS QS JS 9S 8S 7S 6S 5H 2H 3D 2D 4C 5C"), "3S")


class Counting(unittest.TestCase):
    def test_hcp(self):
        self.assertEqual(highCardPoints("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"), 12)

    def test_distribution(self):
        self.assertEqual(distributionPoints("AS KS QS 2S KH 4H 3H 2H 5D 4D 3D 2D 2C"), 0)
        self.assertEqual(distributionPoints("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"), 1)
