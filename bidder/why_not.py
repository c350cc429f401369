"""Why a bid someone chose is not this hand's bid, for practice feedback.

The reason is the first one the rule table gives, with this hand's numbers: the rule that
makes the chosen bid, then the first of its conditions the hand misses ("R3 needs 13-21
points; this hand has 22"), else the suit it would bid instead, else the earlier rule
that comes first. Nothing here restates a threshold: every number comes from the table.
"""

from __future__ import annotations

from .advice import Advice
from .bids import Bid
from .cards import Suit
from .facts import Facts
from .rules import Balanced, Between, LongSuit, NeedsSuitHcp, Rule, TallyOnly
from .wording import suit_cards

NO_RULE = "no rule in the list makes that bid."


def why_not(advice: Advice, chosen: Bid) -> str | None:
    """The first reason *chosen* is not the bid for the hand of *advice*, as a sentence;
    None when it is the bid."""
    if chosen == Bid.from_value(advice.bid):
        return None
    rule = next((rule for rule in advice.rules if chosen.text in rule.bids), None)
    if rule is None:
        return NO_RULE
    if rule.level is None:
        return (f"{rule.id} gives no bid only when no rule above it applies; "
                f"{advice.rule} applies to this hand.")
    return (_first_miss(rule, chosen.suit, advice.facts)
            or _other_suit(rule, chosen, advice.facts)
            or f"{rule.id} also applies, but {advice.rule} comes first: the first rule "
               f"that applies gives the bid.")


def _first_miss(rule: Rule, suit: Suit | None, facts: Facts) -> str | None:
    """The first condition of *rule* this hand misses (for *suit*, the suit bid), in words."""
    return next(filter(None, (_miss(rule, condition, suit, facts)
                              for condition in rule.conditions)), None)


def _miss(rule: Rule, condition, suit: Suit | None, facts: Facts) -> str | None:
    """How the hand misses one condition, or None if it meets it."""
    tally = facts.tally
    if isinstance(condition, LongSuit) and suit is not None:
        if not condition.suit_gap(tally, suit):
            return None
        return (f"{rule.id} needs {condition.span} cards in the suit it bids; this hand "
                f"has {suit_cards(tally.length(suit), suit)}.")
    if condition.holds(tally):
        return None
    if isinstance(condition, Between):
        return f"{rule.id} needs {condition.text}; this hand has {condition.value(tally)}."
    if isinstance(condition, Balanced):
        return f"{rule.id} needs {condition.text}; this hand is {tally.balanced_reason}."
    return f"{rule.id} {condition.failure(tally)}."


def _other_suit(rule: Rule, chosen: Bid, facts: Facts) -> str | None:
    """When *rule* applies but bids another suit: how it picks, and this hand's suits."""
    if rule.bid(facts) == chosen.text:
        return None
    suits = sorted(rule.candidates(facts.tally), reverse=True)
    with_hcp = _reads_suit_hcp(rule, suits, facts)
    held = " and ".join(suit_cards(facts.tally.length(suit), suit)
                        + (f" ({facts.suit_hcp(suit)} HCP)" if with_hcp else "")
                        for suit in suits)
    return f"{rule.id} bids {rule.how}: this hand has {held}."


def _reads_suit_hcp(rule: Rule, suits: list[Suit], facts: Facts) -> bool:
    """Whether *rule* needs the HCP within the suits to pick among *suits* for this hand."""
    try:
        rule.choose(sorted(suits), TallyOnly(facts.tally))
    except NeedsSuitHcp:
        return True
    return False
