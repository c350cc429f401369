"""The stub handed out with the assignment, never filled in."""


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    pass
