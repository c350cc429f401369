"""An endless loop in highCardPoints; the other two functions are right."""
import correct

distributionPoints = correct.distributionPoints
openingBid = correct.openingBid


def highCardPoints(hand):
    while True:
        pass
