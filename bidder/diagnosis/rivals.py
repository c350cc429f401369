"""The rival of a reading about to be named: the class likeliest after it. One answer telling
them apart may be a slip that landed on the reading's answer (a neighbouring call), so the
reading is named only once CONFIRMING answers tell it from its rival, while a hand not asked
yet can."""

from __future__ import annotations

from collections.abc import Sequence

from .answers import Answer
from .bank import FIELDS, Row
from .choosing import Option, Options, best
from .learner import Belief, fields_of, given_value

CONFIRMING = 2  # answers telling a reading from its rival, as it answers, before it is named


def rival(found: Belief, leader: int) -> int | None:
    """The likeliest class but the one at place *leader* (the first of equals); None when
    there is no other."""
    others = [place for place in range(len(found.weights)) if place != leader]
    return max(others, key=lambda place: (found.weights[place], -place), default=None)


def told_apart(answers: Sequence[Answer], rows: Sequence[Row], mine: int, theirs: int,
               counting: bool) -> int:
    """How many answers tell the reading at bank place *mine* from the one at *theirs*:
    given where the two answer otherwise (in what the answer gives), as *mine* answers."""
    found = 0
    for answer, row in zip(answers, rows):
        fields = fields_of(answer, counting)
        places = [FIELDS.index(field) for field in fields]
        own, other = row.answer(mine), row.answer(theirs)
        given = [given_value(answer, field) for field in fields]
        if any(own[place] != other[place] for place in places) and given == [
                own[place] for place in places]:
            found += 1
    return found


def confirming(found: Belief, leader: int, answers: Sequence[Answer], rows: Sequence[Row],
               counting: bool, choices: Options, asked: frozenset[int]) -> Option | None:
    """The item telling the class at place *leader* best from its rival, while fewer than
    CONFIRMING answers do; None when they do, or no item left can."""
    other = rival(found, leader)
    if other is None or told_apart(answers, rows, found.classes[leader][0],
                                   found.classes[other][0], counting) >= CONFIRMING:
        return None
    weights = [0.0] * len(found.weights)
    weights[leader], weights[other] = found.weights[leader], found.weights[other]
    return best(choices, weights, found.slip, asked)
