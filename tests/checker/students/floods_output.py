"""Attack: writes 200 MB to standard output and error, at import and in every call."""
import os
import sys

CHUNK = b"flood " * 10000
for _ in range(1000):
    os.write(1, CHUNK)
    os.write(2, CHUNK)
import correct  # noqa: E402


def highCardPoints(hand):
    print("flood " * 100000)
    sys.stderr.write("flood " * 100000)
    return correct.highCardPoints(hand)


distributionPoints = correct.distributionPoints
openingBid = correct.openingBid
