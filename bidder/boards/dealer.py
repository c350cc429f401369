"""Dealer scripts: the condition that deals hands a rule decides, in the language of Hans
van Staveren's Dealer program (which BBO's teaching and bidding tables take too).

Everything is built from the rule table and the counting: each condition writes itself
(a range of HCP or points, a balanced shape, a suit of some length), a rule applies when
all its conditions hold, and a rule decides a hand when it applies and no rule before it
does, as the assignment's first-rule-wins says.
"""

from __future__ import annotations

from itertools import product

from ..cards import HAND_SIZE, SUITS_HIGH_FIRST, Suit
from ..dealing import check_request
from ..facts import LENGTH_POINTS_AFTER, Tally
from ..rules import RULES, Balanced, Between, Rule
from .model import Seat

PRODUCE = 10
GENERATE = 10_000_000  # enough to find the rarest rule's hands many times over


def suit_length(suit: Suit, seat: Seat) -> str:
    """'spades(north)': the cards *seat* holds in *suit*."""
    return f"{suit.word}({seat.name.lower()})"


def balanced_shapes() -> tuple[str, ...]:
    """Every shape (spades, hearts, diamonds, clubs) the counting calls balanced, as
    Dealer writes a shape: '4333', '3433', ..."""
    shapes = []
    for lengths in product(range(HAND_SIZE + 1), repeat=len(Suit)):
        if sum(lengths) == HAND_SIZE and Tally(lengths, 0).balanced:
            shapes.append("".join(str(lengths[suit]) for suit in SUITS_HIGH_FIRST))
    return tuple(sorted(shapes, reverse=True))


def definitions(seat: Seat) -> list[str]:
    """Dealer lines that name what the rules read of *seat*'s hand: its length points,
    its points and whether it is balanced."""
    lengths = " + ".join(
        f"({suit_length(suit, seat)} > {LENGTH_POINTS_AFTER} ? "
        f"{suit_length(suit, seat)} - {LENGTH_POINTS_AFTER} : 0)"
        for suit in SUITS_HIGH_FIRST)
    return [f"length_points = {lengths}",
            f"points = hcp({seat.name.lower()}) + length_points",
            f"balanced = shape({seat.name.lower()}, {' + '.join(balanced_shapes())})"]


def condition_text(condition, seat: Seat) -> str:
    """One condition of a rule as a Dealer expression (a long suit in any one of the
    suits named, as every rule of the table asks)."""
    if isinstance(condition, Balanced):
        return "balanced" if condition.wanted else "not balanced"
    if isinstance(condition, Between):
        value = "points" if condition.measure == "points" else f"hcp({seat.name.lower()})"
        return _within(value, condition.low, condition.high)
    return "(" + " or ".join(_within(suit_length(suit, seat), condition.low, condition.high)
                             for suit in reversed(condition.suits)) + ")"


def _within(value: str, low: int, high: int | None) -> str:
    """'value >= low and value <= high', 'value == low' or 'value >= low'."""
    if high == low:
        return f"{value} == {low}"
    if high is None:
        return f"{value} >= {low}"
    return f"{value} >= {low} and {value} <= {high}"


def applies_name(rule: Rule) -> str:
    """The Dealer name of 'the rule applies': r1, r2, ..."""
    return rule.id.lower()


def applies_lines(seat: Seat, rules: tuple[Rule, ...] = RULES) -> list[str]:
    """A Dealer line for each rule with conditions: when it applies to *seat*'s hand."""
    return [f"{applies_name(rule)} = "
            + " and ".join(condition_text(condition, seat) for condition in rule.conditions)
            for rule in rules if rule.conditions]


def decides(rule: Rule, rules: tuple[Rule, ...] = RULES) -> str:
    """The Dealer expression for 'rule decides the bid': it applies (the last rule, with
    no conditions, always does) and no rule before it applies."""
    earlier = rules[:rules.index(rule)]
    parts = ([applies_name(rule)] if rule.conditions else []) + [
        f"not {applies_name(before)}" for before in earlier]
    return " and ".join(parts)


def script(rule: Rule, seat: Seat = Seat.NORTH, produce: int = PRODUCE) -> str:
    """A Dealer script that deals *produce* hands decided by *rule* to *seat*, who deals.

    :raises DealError: for a rule that decides no hand (R4).
    """
    check_request(rule=rule)
    bids = " or ".join(str(bid) if bid else "no bid" for bid in rule.bids)
    lines = [f"# bidder: hands decided by {rule.id} ({rule.name}: {bids}) in the "
             f"{seat.word} seat",
             f"# {rule.id}: {rule.sentence}",
             "# The first rule that applies wins, so no rule before it may apply.",
             f"generate {GENERATE}", f"produce {produce}",
             f"dealer {seat.name.lower()}",
             *definitions(seat), *applies_lines(seat),
             f"condition {decides(rule)}",
             "action printpbn"]
    return "\n".join(lines)
