"""Not quite: 12.0 for 12, True for 1, and a bid that is a bool."""
import correct


def highCardPoints(hand):
    return float(correct.highCardPoints(hand))


def distributionPoints(hand):
    return correct.distributionPoints(hand) == 1 or correct.distributionPoints(hand)


def openingBid(hand):
    return correct.openingBid(hand)
