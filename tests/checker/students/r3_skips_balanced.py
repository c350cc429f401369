"""A real solution's misreading: its 1C/1D rule (R3) skips balanced hands, which then
fall through to the strong balanced rules or open nothing."""
import correct

highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints


def openingBid(hand):
    counts = correct.lengths(hand)
    hcp = highCardPoints(hand)
    points = hcp + distributionPoints(hand)
    bid = correct.openingBid(hand)
    if bid in ("1C", "1D") and correct.balanced(counts) and 13 <= points <= 21:
        if 19 <= hcp <= 20:
            return "1D" if counts["D"] >= 4 and counts["D"] >= counts["C"] else "1C"
        if 21 <= hcp <= 23:
            return "2NT"
        return None
    return bid
