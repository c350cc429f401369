"""The live poll's next hand: the one whose answers tell most, summed over the students, about
each student's reading."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .. import packed
from ..cards import Hand
from .answers import Answer
from .bank import shipped
from .choosing import gains, options
from .learner import belief


def next_for_class(students: Sequence[Sequence[Answer]]) -> Hand:
    """The hand, asked of the whole class for its bid, that best splits the students'
    current beliefs: the information summed over the students (the first of equals)."""
    bank = shipped()
    found = options(bank, ("bid",), False, False)
    asked = frozenset(packed.encode_cards(answer.hand.cards)
                      for answers in students for answer in answers)
    beliefs = Counter()
    for answers in students or [()]:
        known = belief(bank, answers, counting=False, pairs=False)
        beliefs[known.weights, round(known.slip, 3)] += 1
    summed: Counter = Counter()
    for (weights, slip), count in beliefs.items():
        for place, value in gains(found, weights, slip, asked).items():
            summed[place] += count * value
    chosen = max(summed, key=lambda place: (summed[place], -place), default=0)
    return Hand.in_order(packed.cards(found.items[chosen].rows[0].code))
