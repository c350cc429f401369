"""A real mistake: the string 'None' for no bid."""
import correct

highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints


def openingBid(hand):
    return str(correct.openingBid(hand))
