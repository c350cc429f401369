"""Hands for teaching: rounds in which every rule that decides bids comes up once.

Dealt as they come, about two hands in three open nothing, and 2NT turns up once in six
hundred; a class learns more from rounds that bring each deciding rule once, in an order
shuffled anew each round so that the place of a hand never gives its answer away.
Practice deals its rounds this way, and so do printed sets unless asked otherwise.
"""

from __future__ import annotations

import random
from typing import Iterable

from .advice import is_reachable
from .cards import Hand
from .dealing import deal
from .rules import RULES, Rule

TEACHING_RULES: tuple[Rule, ...] = tuple(rule for rule in RULES if is_reachable(rule))


def shuffled(rules: Iterable[Rule], key: str) -> tuple[Rule, ...]:
    """*rules* in an order fixed by *key* (the same key, the same order on any machine)."""
    order = list(rules)
    random.Random(key).shuffle(order)
    return tuple(order)


def teaching_rounds(count: int, seed: int) -> tuple[Rule, ...]:
    """The rules for *count* hands: round after round of TEACHING_RULES, each round
    shuffled by *seed* and its number, cut at *count*."""
    rounds = -(-count // len(TEACHING_RULES))
    return tuple(rule for number in range(rounds)
                 for rule in shuffled(TEACHING_RULES, f"{seed}/{number}"))[:count]


def teaching_mix(count: int, seed: int) -> list[tuple[int, Rule, Hand]]:
    """*count* hands in teaching rounds, one per seed from *seed* on: (seed, the rule it
    was dealt for, the hand). ``deal(seed, rule=rule)`` gives each hand again."""
    return [(seed + offset, rule, deal(seed + offset, rule=rule))
            for offset, rule in enumerate(teaching_rounds(count, seed))]
