"""Dealing: seeded random hands, hands to order, and how often each opening occurs.

The same seed gives the same hands on any machine: the stream for a seed comes from
Python's own Mersenne Twister, four hands to each shuffled deck.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Iterator

from .advice import is_reachable
from .bids import RULE_BIDS, Bid
from .cards import DECK, HAND_SIZE, Hand, echo
from .errors import BidderError
from .graded import (CARD_CODES, PROFILE_AT, TALLY_KEY_MASK, decide, key_decision,
                     key_tally)
from .rules import RULE_BY_ID, RULES, Rule

SEARCH_LIMIT = 2_000_000
MAX_COUNT = 100
MAX_STATS_HANDS = 1_000_000
DEFAULT_STATS_HANDS = 100_000


class DealError(BidderError):
    """Raised for a request no hand can meet; the message says why and what to ask."""


def reachable_bids() -> tuple[Bid, ...]:
    """Every bid that some hand opens, in bidding order, no bid last."""
    bids = {bid for rule in RULES if is_reachable(rule) for bid in rule.bids}
    return tuple(bid for bid in RULE_BIDS if bid.text in bids)


def parse_rule(text: str) -> Rule:
    """Read a rule id such as 'R8' or 'r8'.

    :raises DealError: if there is no such rule.
    """
    rule = RULE_BY_ID.get(text.strip().upper() if text.isascii() else text)
    if rule is None:
        raise DealError(f"{echo(text)} is not a rule: choose one of "
                        f"{RULES[0].id} to {RULES[-1].id}", "unknown_rule")
    return rule


def hand_stream(seed: int) -> Iterator[list[int]]:
    """Endless hands for *seed*, as indexes into DECK: four to each shuffled deck."""
    rng = random.Random(seed)
    while True:
        keys = [rng.random() for _ in DECK]
        order = sorted(range(len(DECK)), key=keys.__getitem__)
        for start in range(0, len(DECK), HAND_SIZE):
            yield order[start:start + HAND_SIZE]


def _code(indexes: list[int]) -> int:
    return sum(map(CARD_CODES.__getitem__, indexes))


def _hand(indexes: list[int]) -> Hand:
    return Hand(tuple(DECK[index] for index in indexes))


def random_hand(seed: int) -> Hand:
    """The first hand dealt for *seed*."""
    return _hand(next(hand_stream(seed)))


def check_request(bid: str | None = ..., rule: Rule | None = None) -> None:
    """Refuse a request no hand can meet: an unreachable rule, or a bid it never makes.

    *bid* is ``...`` for any bid; None asks for a hand that opens nothing.
    """
    if rule is not None and not is_reachable(rule):
        raise DealError(f"no hand fires {rule.id}: {rule.ruling_text}", "unreachable")
    if rule is not None and bid is not ... and bid not in rule.bids:
        makes = " or ".join(str(Bid.from_value(made)) for made in rule.bids)
        raise DealError(f"{rule.id} never bids {Bid.from_value(bid)}: it bids {makes}",
                        "mismatch")


def deal(seed: int, bid: str | None = ..., rule: Rule | None = None) -> Hand:
    """The first hand for *seed* that opens *bid* (``...`` for any) by *rule* (any).

    :raises DealError: if no hand can meet the request.
    """
    check_request(bid, rule)
    for _, indexes in zip(range(SEARCH_LIMIT), hand_stream(seed)):
        fired, opened = decide(_code(indexes))
        if (bid is ... or opened == bid) and (rule is None or fired is rule):
            return _hand(indexes)
    raise DealError(f"no such hand in the first {SEARCH_LIMIT:,} dealt for seed {seed}: "
                    f"try another seed", "not_found")


def deal_set(count: int, seed: int, bid: str | None = ...,
             rule: Rule | None = None) -> list[tuple[int, Hand]]:
    """*count* hands to order, one per seed from *seed* on, each with its seed."""
    if not 1 <= count <= MAX_COUNT:
        raise DealError(f"ask for 1 to {MAX_COUNT} hands, not {count}", "bad_count")
    return [(seed + offset, deal(seed + offset, bid, rule)) for offset in range(count)]


@dataclass(frozen=True)
class Statistics:
    """How often each bid and rule occurs over seeded random hands."""

    hands: int
    seed: int
    by_bid: tuple[tuple[str | None, int], ...]
    by_rule: tuple[tuple[str, int], ...]
    overlaps: tuple[tuple[str, str, int], ...]
    hcp_by_bid: tuple[tuple[str | None, tuple[int, ...]], ...]

    def share(self, count: int) -> float:
        """A count as a percentage of all hands."""
        return 100.0 * count / self.hands

    def to_dict(self) -> dict:
        """The statistics as plain JSON types."""
        return {
            "hands": self.hands, "seed": self.seed,
            "by_bid": [{"bid": bid, "count": count} for bid, count in self.by_bid],
            "by_rule": [{"rule": rule, "count": count} for rule, count in self.by_rule],
            "overlaps": [{"fired": fired, "shadowed": shadowed, "count": count}
                         for fired, shadowed, count in self.overlaps],
            "hcp_by_bid": [{"bid": bid, "hcp_counts": list(counts)}
                           for bid, counts in self.hcp_by_bid],
        }


@lru_cache(maxsize=1 << 12)
def _shadowed(key: int) -> tuple[tuple[str, str], ...]:
    """(fired, shadowed) rule pairs for a code's length and HCP fields."""
    tally = key_tally(key)
    applying = [rule for rule in RULES if rule.level is not None and rule.applies(tally)]
    return tuple((applying[0].id, rule.id) for rule in applying[1:])


_CARD_PROFILES = tuple(code >> PROFILE_AT for code in CARD_CODES)


@lru_cache(maxsize=16)
def statistics(hands: int = DEFAULT_STATS_HANDS, seed: int = 1) -> Statistics:
    """Count bids, rules, shadowing overlaps and HCP over *hands* hands for *seed*.

    :raises DealError: if *hands* is not between 1 and MAX_STATS_HANDS.
    """
    if not 1 <= hands <= MAX_STATS_HANDS:
        raise DealError(f"ask for 1 to {MAX_STATS_HANDS:,} hands, not {hands:,}",
                        "bad_count")
    # Count each profile (lengths and HCP per suit) once, then judge each profile once.
    profiles: dict[int, int] = {}
    card_profile = _CARD_PROFILES.__getitem__
    for indexes in islice(hand_stream(seed), hands):
        profile = sum(map(card_profile, indexes))
        profiles[profile] = profiles.get(profile, 0) + 1
    return _summarise(hands, seed, profiles)


def _summarise(hands: int, seed: int, profiles: dict[int, int]) -> Statistics:
    # Most bids follow from the lengths and HCP alone (the tally key); the rest, R6 with
    # two long suits of a kind, need each profile's suit HCP.
    by_key, unsettled = Counter(), set()
    for profile, count in profiles.items():
        by_key[profile & TALLY_KEY_MASK] += count
    outcomes = Counter()
    for key, count in by_key.items():
        rule, bid = key_decision(key)
        if bid is None and rule.level is not None:
            unsettled.add(key)
        else:
            outcomes[rule.id, bid, key] += count
    for profile, count in profiles.items():
        if profile & TALLY_KEY_MASK in unsettled:
            rule, bid = decide(profile << PROFILE_AT)
            outcomes[rule.id, bid, profile & TALLY_KEY_MASK] += count
    return _tabulate(hands, seed, outcomes)


def _tabulate(hands: int, seed: int, outcomes: Counter) -> Statistics:
    by_bid, by_rule, overlaps, hcp = Counter(), Counter(), Counter(), {}
    for (rule, bid, key), count in outcomes.items():
        by_bid[bid] += count
        by_rule[rule] += count
        hcp.setdefault(bid, [0] * 38)[key_tally(key).hcp] += count
        for pair in _shadowed(key):
            overlaps[pair] += count
    return Statistics(
        hands, seed,
        tuple((bid.text, by_bid[bid.text]) for bid in RULE_BIDS),
        tuple((rule.id, by_rule[rule.id]) for rule in RULES),
        tuple((fired, shadowed, count) for (fired, shadowed), count
              in sorted(overlaps.items())),
        tuple((bid.text, tuple(hcp[bid.text])) for bid in RULE_BIDS if bid.text in hcp))
