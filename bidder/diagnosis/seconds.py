"""A second misreading held beside the leading one. Where the leading misreading answers as
the rules do, a student holding it with another one answers as the other one does; where it
departs, as it does. Before a misreading is named alone, the hands where it answers as the
rules do are asked until its pairs with every other class, together, are unlikely."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import exp

from .answers import Answer
from .bank import Bank, Row
from .learner import LogLikes, answer_log_likes, marginal, plus

SECOND_SHARE = 0.2  # the odds, before answers, of a second misreading beside the leader


def composed_value(mine: tuple, rules: tuple, theirs: tuple) -> tuple:
    """Part by part, *mine* where it departs from *rules*, else *theirs*."""
    return tuple(own if own != plain else other
                 for own, plain, other in zip(mine, rules, theirs))


def second_odds(classes: tuple[tuple[int, ...], ...], leader: int, own: LogLikes,
                answers: Sequence[Answer], rows: Sequence[Row], counting: bool
                ) -> dict[int, float]:
    """For each class (by place) but the rules' and the leader's (whose evidence is *own*),
    the odds of the leader with it against the leader alone after *answers*, SECOND_SHARE
    shared among them before any."""
    reader = classes[leader][0]
    share = SECOND_SHARE / (len(classes) - 2)
    alone_log = marginal(own)
    deltas = [_deltas(answer, found, reader, counting) for answer, found in zip(answers, rows)]
    odds = {}
    for place, members in enumerate(classes):
        if place in (0, leader):
            continue
        sums = own
        for found, delta in zip(rows, deltas):
            added = delta[found.of[members[0]]]
            if added is not None:
                sums = plus(sums, added)
        odds[place] = share * exp(marginal(sums) - alone_log)
    return odds


def _deltas(answer: Answer, found: Row, reader: int, counting: bool
            ) -> tuple[LogLikes | None, ...]:
    """For each of the row's answers (by place), what the reading at place *reader* with
    the second giving it answers on the hand, as the evidence it adds against the reading
    alone (None where they answer alike)."""
    mine = found.answer(reader)
    own = answer_log_likes(answer, found, mine, counting)
    by_pair: dict[tuple, LogLikes] = {}
    found_deltas: list[LogLikes | None] = []
    for theirs in found.values:
        pair = composed_value(mine, found.answer(0), theirs)
        if pair != mine and pair not in by_pair:
            by_pair[pair] = tuple(value - it for value, it in zip(
                answer_log_likes(answer, found, pair, counting), own))
        found_deltas.append(by_pair.get(pair))
    return tuple(found_deltas)


def alone(odds: dict[int, float]) -> float:
    """The leader's probability of being held alone, against it with a second misreading."""
    return 1 / (1 + sum(odds.values()))


@lru_cache(maxsize=256)
def departing(bank: Bank, reader: int) -> frozenset[int]:
    """The hands (by code, rows and rungs) on which the reading at place *reader* bids
    otherwise than the rules: there a second misreading's bid cannot show (its counts may
    where the reading counts as the rules do, and are weighed so)."""
    return frozenset(code for code, found in bank.by_code.items()
                     if found.of[reader] != found.of[0]
                     and found.answer(reader)[0] != found.answer(0)[0])
