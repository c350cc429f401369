"""A second misreading held beside the leading one. Where the leading misreading answers as
the rules do, a student holding it with another one answers as the other one does; where it
departs, as it does. Before a misreading is named alone, the hands where it answers as the
rules do are asked until its pairs with every other class, together, are unlikely."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import exp

from .answers import Answer
from .bank import Bank, Row, project
from .learner import LogLikes, answer_log_likes, marginal, plus

SECOND_SHARE = 0.2  # the odds, before answers, of a second misreading beside the leader


def composed(row: Row, leader: int, second: int):
    """What a student holding the readings at places *leader* and *second* answers on the
    row's hand: each part (bid, HCP, distribution) as the leader when it departs there from
    the rules, else as the second."""
    mine, rules, other = row.answer(leader), row.answer(0), row.answer(second)
    return tuple(own if own != plain else theirs
                 for own, plain, theirs in zip(mine, rules, other))


def second_odds(classes: tuple[tuple[int, ...], ...], leader: int, own: LogLikes,
                answers: Sequence[Answer], rows: Sequence[Row], counting: bool
                ) -> dict[int, float]:
    """For each class (by place) but the rules' and the leader's (whose evidence is *own*),
    the odds of the leader with it against the leader alone after *answers*, SECOND_SHARE
    shared among them before any."""
    reader = classes[leader][0]
    share = SECOND_SHARE / (len(classes) - 2)
    alone_log = marginal(own)
    odds = {}
    for place, members in enumerate(classes):
        if place in (0, leader):
            continue
        sums = own
        for answer, found in zip(answers, rows):
            pair = composed(found, reader, members[0])
            if pair != found.answer(reader):
                mine = answer_log_likes(answer, found, found.answer(reader), counting)
                sums = plus(sums, tuple(theirs - it for theirs, it in zip(
                    answer_log_likes(answer, found, pair, counting), mine)))
        odds[place] = share * exp(marginal(sums) - alone_log)
    return odds


def alone(odds: dict[int, float]) -> float:
    """The leader's probability of being held alone, against it with a second misreading."""
    return 1 / (1 + sum(odds.values()))


@lru_cache(maxsize=256)
def departing(bank: Bank, reader: int, fields: tuple[str, ...]) -> frozenset[int]:
    """The hands (by code, rows and rungs) on which the reading at place *reader* answers
    otherwise than the rules to *fields*: asked, they cannot show a second misreading."""
    return frozenset(found.code for found in (*bank.rows, *(rung for ladder in bank.ladders
                                                             for rung in ladder))
                     if project(found.answer(reader), fields) != project(found.answer(0),
                                                                         fields))
