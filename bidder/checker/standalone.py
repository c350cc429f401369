"""A rule table as a module of its own: plain Python a student's tests can import.

The checker runs a student's tests against the reference and against each misreading
(a mutant), in the sandbox, where this package cannot be imported. So each is written
out as a small module that needs only the standard library: the rule table and the
counting as data, the suit choosers as the rule table's own functions (their source),
and a few lines that walk the table. A test checks it answers as the engine does.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from ..rules import CHOOSERS, STEPS, Balanced, Between, Chain, LongSuit, Rule
from ..variants import Variant

PRELUDE = '''"""Opening bids by a rule table, written out to stand alone."""

from __future__ import annotations

import enum

SUIT_LETTERS = "CDHS"


class Suit(enum.IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def is_major(self):
        return self >= Suit.HEARTS

    @property
    def letter(self):
        return SUIT_LETTERS[self]


class Tally:
    def __init__(self, lengths, hcp):
        self.lengths, self.hcp = lengths, hcp
        self.distribution = (_length_points(max(lengths)) if LONGEST_ONLY
                             else sum(_length_points(length) for length in lengths))
        self.points = hcp + self.distribution
        shape = sorted(lengths, reverse=True)
        self.balanced = all(2 <= length <= 4 for length in lengths) or (
            shape == [5, 3, 3, 2] and Suit(lengths.index(5)) in BALANCED_FIVES) or (
            tuple(shape) in ALSO_BALANCED)

    def length(self, suit):
        return self.lengths[suit]


class Hand:
    def __init__(self, text):
        cards = [(token[:-1].upper(), "CDHS".index(token[-1].upper()))
                 for token in text.split()]
        lengths = [0, 0, 0, 0]
        self.held = [0, 0, 0, 0]
        for rank, suit in cards:
            lengths[suit] += 1
            self.held[suit] += HCP.get(rank, 0)
        self.tally = Tally(tuple(lengths), sum(self.held))

    def suit_hcp(self, suit):
        return self.held[suit]


def _length_points(length):
    long = 0 if BEYOND is None else max(0, length - BEYOND)
    return long + (SHORT[length] if length < len(SHORT) else 0)


def _holds(condition, tally):
    kind = condition[0]
    if kind == "between":
        _, measure, low, high = condition
        value = getattr(tally, measure)
        return low <= value and (high is None or value <= high)
    if kind == "balanced":
        return tally.balanced is condition[1]
    return len(_matching(condition, tally)) >= condition[4]


def _matching(condition, tally):
    _, suits, low, high, count, alone = condition
    found = [Suit(suit) for suit in suits
             if low <= tally.length(suit) and (high is None or tally.length(suit) <= high)]
    if alone is not None and len(found) == 1 and tally.length(found[0]) < alone:
        return []
    return found


def _candidates(rule, tally):
    for condition in rule["conditions"]:
        if condition[0] == "long":
            return _matching(condition, tally)
    return [Suit(suit) for suit in rule["suits"]]


def highCardPoints(hand):
    return Hand(hand).tally.hcp


def distributionPoints(hand):
    return Hand(hand).tally.distribution


def openingBid(hand):
    held = Hand(hand)
    for rule in RULES:
        if all(_holds(condition, held.tally) for condition in rule["conditions"]):
            if rule["level"] is None:
                return _written(None)
            if rule["choose"] is None:
                return _written(f"{{rule['level']}}NT")
            chosen = CHOOSERS[rule["choose"]](_candidates(rule, held.tally), held)
            return _written(f"{{rule['level']}}{{chosen.letter}}")
    return _written(None)
'''


@dataclass(frozen=True)
class Mutant:
    """A variant written out as a module: its id and its source."""

    id: str
    source: str


def condition_data(condition) -> tuple:
    """A condition as plain data the standalone module reads."""
    if isinstance(condition, Between):
        return ("between", condition.measure, condition.low, condition.high)
    if isinstance(condition, Balanced):
        return ("balanced", condition.wanted)
    assert isinstance(condition, LongSuit)
    return ("long", tuple(map(int, condition.suits)), condition.low, condition.high,
            condition.count, condition.alone)


def scale_data(scale) -> dict[str, int]:
    """The HCP of each honour by how a hand writes its rank ('10' and 'T' for the ten)."""
    values = {rank.label: points for rank, points in scale}
    if "10" in values:
        values["T"] = values["10"]
    return values


def rule_data(rule: Rule) -> dict:
    """A rule as plain data."""
    return {"id": rule.id, "level": rule.level,
            "conditions": [condition_data(condition) for condition in rule.conditions],
            "suits": [int(suit) for suit in rule.suits],
            "choose": None if rule.choose is None else rule.choose.__name__}


def choosers_source(choosers=CHOOSERS) -> list[str]:
    """The suit choosers' source: functions as written, chains as their steps (every step
    a chain may take), written once each, and the chains built from them."""
    chains = [chooser for chooser in choosers if isinstance(chooser, Chain)]
    return ([inspect.getsource(chooser) for chooser in choosers if chooser not in chains]
            + [inspect.getsource(step) for step in STEPS]
            + ["from dataclasses import dataclass", "STEP_WORDS = {}",
               inspect.getsource(Chain)]
            + [f"{chain.name} = Chain({chain.name!r}, "
               f"({', '.join(step.__name__ for step in chain.steps)},))" for chain in chains])


def module_source(variant: Variant) -> str:
    """The source of a module that answers as *variant* reads the rules."""
    rules, counting = variant.rules, variant.counting
    parts = [PRELUDE.format(),
             f"RULES = {[rule_data(rule) for rule in rules]!r}",
             f"HCP = {scale_data(counting.scale)!r}",
             f"BEYOND = {counting.beyond!r}", f"SHORT = {counting.short!r}",
             f"BALANCED_FIVES = {tuple(int(suit) for suit in counting.balanced_fives)!r}",
             f"ALSO_BALANCED = {counting.also_balanced!r}",
             f"LONGEST_ONLY = {counting.longest_only!r}",
             f"_written = lambda bid: {variant.writes}"]
    choosers = tuple(dict.fromkeys(CHOOSERS + tuple(
        rule.choose for rule in rules if rule.choose is not None)))
    parts += choosers_source(choosers)
    parts.append("CHOOSERS = {" + ", ".join(f"{chooser.__name__!r}: {chooser.__name__}"
                                          for chooser in choosers) + "}")
    return "\n\n".join(parts) + "\n"
