"""The assignment's three graded functions: the packed engine for its own notation, the
full parser for anything else."""

from __future__ import annotations

import warnings

from . import packed
from .cards import Hand, InvalidHandWarning, hand_problem, read_cards
from .facts import Facts
from .rules import first_rule

_bid_of_text, _UNREAD = packed.bid_of_text, packed.UNREAD  # bound once: the hottest door


def _lenient_facts(hand: str) -> Facts:
    """Facts for any cards, warning when they are not 13 different ones."""
    cards = read_cards(hand)
    problem = hand_problem(cards)
    if problem:
        warnings.warn(problem, InvalidHandWarning, stacklevel=3)
    return Facts(Hand(cards))


def highCardPoints(hand: str) -> int:
    """High card points of *hand*: A 4, K 3, Q 2, J 1.

    :raises TypeError: if *hand* is not a str.
    :raises InvalidHandError: if a card cannot be read.
    """
    hcp = packed.encode_hcp(hand)
    if hcp is None:
        code = packed.read(hand)
        return _lenient_facts(hand).tally.hcp if code is None else packed.hcp(code)
    return hcp


def distributionPoints(hand: str) -> int:
    """Distribution points of *hand*: one for each card beyond the fourth in a suit."""
    code = packed.read(hand)
    if code is None:
        return _lenient_facts(hand).tally.distribution
    return packed.tally(code).distribution


def openingBid(hand: str) -> str | None:
    """The opening bid for *hand*, such as '1NT' or '4S', or None for no bid."""
    bid = _bid_of_text(hand)
    if bid is not _UNREAD:
        return bid
    facts = _lenient_facts(hand)
    return first_rule(facts.tally).bid(facts)
