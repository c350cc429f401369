"""Leaves: sys.exit in one function, os._exit in another."""
import os
import sys

import correct

highCardPoints = correct.highCardPoints


def distributionPoints(hand):
    sys.exit(3)


def openingBid(hand):
    os._exit(7)
