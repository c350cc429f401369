"""Right counts, then an endless loop in openingBid."""
import correct

highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints


def openingBid(hand):
    while True:
        pass
