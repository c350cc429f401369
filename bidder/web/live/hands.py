"""The hands a poll is opened on: pasted, dealt for a rule, or dealt to tell
misreadings apart."""

from __future__ import annotations

from ...advice import explain
from ...dealing import deal, parse_rule, random_hand
from .labels import wrong_bids

APART_SEARCH = 40  # random hands tried for the one that tells most misreadings apart


def canonical(text: str) -> str:
    """The hand *text* in canonical form.

    :raises InvalidHandError: saying what is wrong with it.
    """
    return explain(text).to_dict()["hand"]


def dealt_for(rule_id: str, seed: int) -> str:
    """A hand that rule *rule_id* decides, dealt from *seed*.

    :raises DealError: for a rule that does not exist.
    """
    return str(deal(seed, rule=parse_rule(rule_id)))


def telling_apart(seed: int, search: int = APART_SEARCH) -> str:
    """Of *search* hands dealt from *seed* on, the one on which misreadings give the most
    different wrong bids (the first of the best)."""
    hands = [str(random_hand(seed + step)) for step in range(search)]
    return max(hands, key=lambda hand: len(wrong_bids(hand)))
