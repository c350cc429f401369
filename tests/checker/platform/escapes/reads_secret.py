"""Cheat: reads the course's secret from the checker's settings (which would let it work
out every submission's hands) and hands it back as its answer, where the student would
see it."""
import json

SECRET = None
try:
    with open("/autograder/source/bidder_autograder.json") as settings:
        SECRET = json.load(settings).get("secret")
except (OSError, ValueError):
    pass


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    return SECRET
