"""How likely an answer is under a reading when students slip: a slip lands, most often,
on a value some other reading gives on that hand (1C for 1D, 1NT for 1C), else anywhere."""

from __future__ import annotations

from math import log

SLIP_RATES = (0.01, 0.04, 0.1, 0.2, 0.35)  # the slip rates weighed, each as likely at first
NEIGHBOUR_SHARE = 0.7  # of the slips, the share that lands on another reading's value
UNIVERSE = {"bid": 36, "hcp": 41, "distribution": 20}  # the values an answer can take


def likelihood(given, predicted, neighbours: frozenset, field: str, rate: float) -> float:
    """P(the student gives *given* | the reading predicts *predicted*, slip rate *rate*);
    *neighbours* are the values the readings give on that hand."""
    if given == predicted:
        return 1.0 - rate
    others = len(neighbours) - (predicted in neighbours)
    spread = 1.0 / (UNIVERSE[field] - 1)
    if not others:
        return rate * spread
    near = NEIGHBOUR_SHARE / others if given in neighbours else 0.0
    return rate * (near + (1.0 - NEIGHBOUR_SHARE) * spread)


def none_likelihood(given, neighbours: frozenset, field: str, rate: float) -> float:
    """P(*given*) for a student reading the rules some way outside the space: any value some
    reading gives on the hand as likely as another, a slip anywhere."""
    inside = (1.0 - rate) / len(neighbours) if given in neighbours else 0.0
    return inside + rate / UNIVERSE[field]


def log_likelihoods(given, predicted, neighbours: frozenset, field: str) -> tuple[float, ...]:
    """log likelihood() at each of the SLIP_RATES."""
    return tuple(log(likelihood(given, predicted, neighbours, field, rate))
                 for rate in SLIP_RATES)


def none_log_likelihoods(given, neighbours: frozenset, field: str) -> tuple[float, ...]:
    """log none_likelihood() at each of the SLIP_RATES."""
    return tuple(log(none_likelihood(given, neighbours, field, rate)) for rate in SLIP_RATES)
