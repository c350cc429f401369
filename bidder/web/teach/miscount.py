"""What a wrong count of distribution points shows: the student counted the way a
misreading of the counting does (points for short suits instead of long ones, or as
well, or from another length), said in the misreading's words and the counting's.
"""

from __future__ import annotations

from ...cards import Hand
from ...facts import Facts
from ...misreadings import DIST_NAMES, variant_by_id

SHORTNESS_FIRST = sorted(DIST_NAMES, key=lambda name: "short" not in name)  # most common
DIST_READINGS = tuple(variant_by_id(f"dist={name}") for name in SHORTNESS_FIRST)


def miscounted(hand: Hand, counted: int) -> str:
    """Why *counted* distribution points may have been given for *hand*: the misreadings
    of the counting that give that number where the assignment does not, the commonest
    first, with the hand counted both ways; '' when the count is right or none fits."""
    right = Facts(hand)
    if counted == right.tally.distribution:
        return ""
    fits = [reading for reading in DIST_READINGS
            if Facts(hand, reading.counting).tally.distribution == counted]
    if not fits:
        return ""
    first, *others = fits
    also = "".join(f" Or: {other.sentence}" for other in others)
    return (f"Your {counted} fits a misreading of the counting: {first.sentence}{also} "
            f"Counted that way: {Facts(hand, first.counting).distribution_explanation}. "
            f"By the assignment: {right.distribution_explanation}.")
