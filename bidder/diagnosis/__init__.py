"""The diagnostic round: which reading of the rules a student's answers come from, found with
few hands, through slips, saying "none of these" when none fits.

    >>> from bidder.diagnosis import diagnose
    >>> first = diagnose([])
    >>> first.named is None and len(first.next.hands) >= 1
    True
"""

from .answers import Answer, Item
from .outcome import Candidate, Diagnosis
from .poll import next_for_class
from .rounds import diagnose
from .teaching import teaching_hands

__all__ = ["Answer", "Candidate", "Diagnosis", "Item", "diagnose", "next_for_class",
           "teaching_hands"]
