"""The live poll's next hand: the one whose answers tell most, summed over the students, about
each student's reading."""

from __future__ import annotations

from collections.abc import Sequence

from .. import packed
from ..cards import Hand
from .answers import Answer
from .bank import shipped
from .choosing import candidates, gain
from .learner import belief


def next_for_class(students: Sequence[Sequence[Answer]]) -> Hand:
    """The hand, asked of the whole class for its bid, that best splits the students'
    current beliefs (the information summed over students; the first of equals)."""
    bank = shipped()
    asked = frozenset(packed.encode_cards(answer.hand.cards)
                      for answers in students for answer in answers)
    beliefs: dict[tuple, tuple[tuple[float, ...], float, int]] = {}
    for answers in students:
        found = belief(bank, answers, counting=False, pairs=False)
        key = tuple(round(weight, 3) for weight in found.weights)
        weights, slip, count = beliefs.get(key, (found.weights, found.slip, 0))
        beliefs[key] = weights, slip, count + 1
    options = [option for option in candidates(bank, ("bid",), False, False)
               if option.rows[0].code not in asked]
    if not beliefs:
        beliefs[()] = (belief(bank, (), False, False).weights, 0.1, 1)
    scored = [(sum(count * gain(option, weights, slip) for weights, slip, count
                   in beliefs.values()), -place, option)
              for place, option in enumerate(options)]
    chosen = max(scored)[2] if scored else candidates(bank, ("bid",), False, False)[0]
    return Hand.in_order(packed.cards(chosen.rows[0].code))
