"""Right answers, except two crashes of different kinds: a ValueError on hands led by a
ten and a ZeroDivisionError on hands with a void."""
import correct

highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints


def shortest(hand):
    lengths = correct.lengths(hand)
    return 13 // min(lengths.values())


def openingBid(hand):
    if hand.startswith("10"):
        raise ValueError("a ten leads the hand")
    shortest(hand)
    return correct.openingBid(hand)
