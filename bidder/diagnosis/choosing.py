"""The next item by expected information gain: over the bank's hands (asking the counts too
where they split more than the bid) and its ladders, against the posterior, with answers
that slip."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import log2

from .bank import FIELDS, Bank, Row, project

ASKS = (("bid",), ("bid", "hcp"), ("bid", "distribution"), ("bid", "hcp", "distribution"))
COUNTING_EDGE = 0.05  # bits the counts must add before an item asks them


@dataclass(frozen=True)
class Option:
    """An item the round may ask: its rows (one hand, or a ladder's rungs), what it asks,
    and how it splits the classes (each group but the largest, by class place)."""

    rows: tuple[Row, ...]
    ask: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]
    outcomes: int  # how many groups, the largest too

    @property
    def answers(self) -> int:
        """How many answers the item asks for."""
        return len(self.rows) * len(self.ask)


def split(rows: Sequence[Row], ask: tuple[str, ...], classes: tuple[tuple[int, ...], ...]
          ) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The classes grouped by what they answer on *rows* to *ask* (the largest group left
    out), and how many groups there are."""
    groups: dict[tuple, list[int]] = {}
    for place, members in enumerate(classes):
        key = tuple(project(found.answer(members[0]), ask) for found in rows)
        groups.setdefault(key, []).append(place)
    ordered = sorted(groups.values(), key=len, reverse=True)
    return tuple(map(tuple, ordered[1:])), len(ordered)


@lru_cache(maxsize=8)
def candidates(bank: Bank, class_fields: tuple[str, ...], counting: bool, ladders: bool
               ) -> tuple[Option, ...]:
    """Every item worth weighing: each row asked for its bid, and (with *counting*) for
    the counts where they split the classes further; each ladder (with *ladders*)."""
    classes = bank.classes(class_fields)
    found = []
    for hand_row in bank.rows:
        seen = set()
        for ask in ASKS if counting else ASKS[:1]:
            groups, outcomes = split((hand_row,), ask, classes)
            if outcomes > 1 and outcomes not in seen:
                seen.add(outcomes)
                found.append(Option((hand_row,), ask, groups, outcomes))
    if ladders:
        for ladder in bank.ladders:
            groups, outcomes = split(ladder, ("bid",), classes)
            if outcomes > 1:
                found.append(Option(ladder, ("bid",), groups, outcomes))
    return tuple(found)


def entropy(masses: Iterable[float]) -> float:
    """Shannon entropy in bits."""
    return -sum(mass * log2(mass) for mass in masses if mass > 0)


def gain(item: Option, weights: Sequence[float], slip: float) -> float:
    """The information (bits) the item's answers carry about the class, when any slipped
    answer scrambles the outcome (a symmetric channel over its outcomes)."""
    masses = [sum(weights[place] for place in group) for group in item.groups]
    rest = max(0.0, sum(weights) - sum(masses))
    total = sum(masses) + rest
    if total <= 0:
        return 0.0
    scrambled = 1 - (1 - slip) ** item.answers
    spread = scrambled / item.outcomes
    heard = [(1 - scrambled) * mass / total + spread for mass in masses + [rest]]
    noise = entropy((1 - scrambled + spread, *[spread] * (item.outcomes - 1)))
    return entropy(heard) - noise


def best(items: Iterable[Option], weights: Sequence[float], slip: float,
         asked: frozenset[int]) -> Option | None:
    """The item of most information whose hands were not asked yet (the first of equals;
    asking the counts only when they add COUNTING_EDGE bits)."""
    chosen, top = None, 0.0
    for item in items:
        if any(found.code in asked for found in item.rows):
            continue
        value = gain(item, weights, slip) - COUNTING_EDGE * (len(item.ask) - 1)
        if value > top + 1e-12:
            chosen, top = item, value
    return chosen


__all__ = ["ASKS", "Option", "FIELDS", "best", "candidates", "gain", "split"]
