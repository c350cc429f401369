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
from typing import Callable, Iterator

from .advice import is_reachable
from .bids import RULE_BIDS, Bid
from .cards import DECK, HAND_SIZE, Hand, Rank, echo
from .errors import BidderError
from . import packed
from .facts import MAX_HCP, STANDARD, Tally
from .rules import RULE_BY_ID, RULES, Rule, applying

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


def _shuffled(draw: Callable[[], float]) -> list[int]:
    """DECK's indexes in the order one shuffle deals them: a key drawn for each card."""
    places = range(len(DECK))
    return sorted(places, key=[draw() for _ in places].__getitem__)


def hand_stream(seed: int) -> Iterator[list[int]]:
    """Endless hands for *seed*, as indexes into DECK: four to each shuffled deck."""
    draw = random.Random(seed).random
    while True:
        order = _shuffled(draw)
        for start in range(0, len(DECK), HAND_SIZE):
            yield order[start:start + HAND_SIZE]


def _profile_stream(seed: int) -> Iterator[int]:
    """The packed profile of each hand of hand_stream(*seed*), all that decides its bid."""
    draw, part = random.Random(seed).random, packed.CARD_PROFILES.__getitem__
    while True:
        parts = list(map(part, _shuffled(draw)))
        for start in range(0, len(DECK), HAND_SIZE):
            yield sum(parts[start:start + HAND_SIZE])


def _hand(indexes: list[int]) -> Hand:
    return Hand(tuple(DECK[index] for index in indexes))


def dealt_text(indexes: list[int]) -> str:
    """A dealt hand in the assignment's notation, its cards in the order dealt."""
    return " ".join(str(DECK[index]) for index in indexes)


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
        fired, opened = packed.decide(packed.encode_deal(indexes))
        if (bid is ... or opened == bid) and (rule is None or fired is rule):
            return _hand(indexes)
    raise DealError(f"no such hand in the first {SEARCH_LIMIT:,} dealt for seed {seed}: "
                    f"try another seed", "not_found")


def deal_set(count: int, seed: int, bid: str | None = ...,
             rule: Rule | None = None) -> list[tuple[int, Hand]]:
    """*count* hands to order, one per seed from *seed* on, each with its seed."""
    return [(seed + offset, deal(seed + offset, bid, rule))
            for offset in range(check_count(count))]


def check_count(count: int) -> int:
    """*count*, if that many hands may be dealt at once.

    :raises DealError: for a count outside 1 to MAX_COUNT.
    """
    if not 1 <= count <= MAX_COUNT:
        raise DealError(f"ask for 1 to {MAX_COUNT} hands, not {count}", "bad_count")
    return count


# Hands on the thresholds ---------------------------------------------------------------

THRESHOLD_SEARCH = 500_000


def threshold_label(rule: Rule, condition, value) -> str:
    """"R1 '16-18 HCP' with 15 HCP": a rule, one condition, and the value it reads."""
    return f"{rule.id} {condition.describe(value)}"


def threshold_labels(rules: tuple[Rule, ...] = RULES) -> tuple[str, ...]:
    """A label for each side of every threshold in the rule table."""
    return tuple(threshold_label(rule, condition, value)
                 for rule in rules for condition in rule.conditions
                 for value in sorted(condition.edges()))


# each condition of the table with its edges and the other conditions of its rule
WATCHED = tuple((rule, condition, condition.edges(),
                 tuple(other for other in rule.conditions if other is not condition))
                for rule in RULES for condition in rule.conditions)


def thresholds_of(tally: Tally) -> tuple[str, ...]:
    """The thresholds a hand sits on: every other condition of a rule holds, and this
    one reads a value next to its threshold (kept by thresholds_at, by the tally's key)."""
    found = []
    for rule, condition, edges, others in WATCHED:
        value = condition.measured(tally)
        if value in edges and all(other.holds(tally) for other in others):
            found.append(threshold_label(rule, condition, value))
    return tuple(found)


@lru_cache(maxsize=1 << 15)
def thresholds_at(key: int) -> tuple[str, ...]:
    """thresholds_of() the tally with this key (packed.key), remembered by the key."""
    return thresholds_of(packed.tally(packed.from_key(key)))


@lru_cache(maxsize=4)
def threshold_hands(seed: int, search: int = THRESHOLD_SEARCH
                    ) -> tuple[tuple[str, str], ...]:
    """(label, hand) for each side of every threshold: the first such hand among
    *search* hands dealt for *seed*, in the assignment's notation, in table order."""
    wanted, found = threshold_labels(), {}
    for indexes in islice(hand_stream(seed), search):
        for label in thresholds_at(packed.key(packed.encode_deal(indexes))):
            found.setdefault(label, indexes)
        if len(found) == len(wanted):
            break
    return tuple((label, dealt_text(found[label])) for label in wanted if label in found)


# Hands a misreading changes ----------------------------------------------------------------

CHANGED_SEARCH = 200_000


def changes(variant, code: int) -> bool:
    """Whether *variant* answers this hand otherwise than the assignment: its bid, or
    (counting another way) its HCP or distribution points."""
    bid = variant.written(packed.decide(code, variant.rules, variant.counting)[1])
    theirs, ours = packed.tally(code, variant.counting), packed.tally(code)
    return bid != packed.decide(code)[1] or (theirs.hcp, theirs.distribution) != (
        ours.hcp, ours.distribution)


def deal_changed(seed: int, variant) -> Hand:
    """The first hand for *seed* that *variant* answers otherwise than the assignment.

    :raises DealError: if the variant changes no hand at all (counted exactly), or no
        hand among the first SEARCH_LIMIT dealt.
    """
    from .misreadings import changes_of  # shipped counts, or every hand counted: when asked

    if not changes_of(variant).hands:
        raise DealError(f"{variant.id} changes no hand: of all 635,013,559,600 hands, it "
                        f"opens each as the assignment does", "unchanged")
    for _, indexes in zip(range(SEARCH_LIMIT), hand_stream(seed)):
        if changes(variant, packed.encode_deal(indexes)):
            return _hand(indexes)
    raise DealError(f"{variant.id} answers the first {SEARCH_LIMIT:,} hands dealt for seed "
                    f"{seed} as the assignment does: it changes no hand, or very few",
                    "not_found")


@lru_cache(maxsize=64)
def changed_hand(variant, seed: int = 1, search: int = CHANGED_SEARCH) -> str | None:
    """The first hand dealt for *seed* that *variant* answers otherwise, in the
    assignment's notation, or None when none of *search* hands is."""
    for indexes in islice(hand_stream(seed), search):
        if changes(variant, packed.encode_deal(indexes)):
            return dealt_text(indexes)
    return None


def telling_hand(variant, rng: random.Random) -> str | None:
    """A hand *variant* opens otherwise than the assignment, in the assignment's notation
    and a dealt order, dealt by *rng* from one of the profiles of such hands kept for it
    (found exactly, not by chance); None for a misreading that changes no hand."""
    from .exact import dealt_from  # the checker's hands: not for the command line's start
    from .misreadings import apart_of

    profiles = apart_of(variant)
    if not profiles:
        return None
    profile = profiles[rng.randrange(len(profiles))]
    cards = list(dealt_from(profile, (STANDARD.scale, variant.counting.scale), rng))
    rng.shuffle(cards)
    return " ".join(map(str, cards))


SMALLEST_SEARCH = 20_000  # hands searched for the smallest that shows a misreading


def smallness(indexes: list[int]) -> tuple[int, int]:
    """How much a hand asks of a reader: its high-card points, then how many honours
    (aces, kings, queens, jacks) make them up; the smaller, the easier to count."""
    ranks = [DECK[index].rank for index in indexes]
    return (sum(max(rank - Rank.TEN, 0) for rank in ranks),
            sum(rank > Rank.TEN for rank in ranks))


@lru_cache(maxsize=64)
def smallest_changed_hand(variant, seed: int = 1, search: int = SMALLEST_SEARCH
                          ) -> str | None:
    """The smallest hand (fewest high-card points, then fewest honours, then the first
    dealt) among the first *search* dealt for *seed* that *variant* answers otherwise; past
    them, the first such hand dealt (within CHANGED_SEARCH); None when there is none."""
    best = None
    for order, indexes in enumerate(islice(hand_stream(seed), CHANGED_SEARCH)):
        if order >= search and best is not None:
            break
        if changes(variant, packed.encode_deal(indexes)):
            key = smallness(indexes)
            if best is None or key < best[0]:
                best = (key, dealt_text(indexes))
    return None if best is None else best[1]


# Statistics -------------------------------------------------------------------------------

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


@lru_cache(maxsize=1 << 15)  # every tally's (15,152 exist)
def overlaps(tally: Tally) -> tuple[tuple[str, str], ...]:
    """(deciding rule, shadowed rule) for each later rule that also applies to a hand
    (the catch-all last rule aside)."""
    fired, *others = applying(tally)
    return tuple((fired.id, rule.id) for rule in others if rule.level is not None)


@lru_cache(maxsize=16)
def statistics(hands: int = DEFAULT_STATS_HANDS, seed: int = 1) -> Statistics:
    """Count bids, rules, shadowing overlaps and HCP over *hands* hands for *seed*.

    :raises DealError: if *hands* is not between 1 and MAX_STATS_HANDS.
    """
    if not 1 <= hands <= MAX_STATS_HANDS:
        raise DealError(f"ask for 1 to {MAX_STATS_HANDS:,} hands, not {hands:,}",
                        "bad_count")
    # Hands with one profile get one bid: count the profiles, then decide each once.
    outcomes = packed.decide_profiles(Counter(islice(_profile_stream(seed), hands)))
    return _tabulate(hands, seed, outcomes)


def _tabulate(hands: int, seed: int, outcomes: Counter) -> Statistics:
    by_bid, by_rule, shadowing, hcp = Counter(), Counter(), Counter(), {}
    for (rule, bid, tally), count in outcomes.items():
        by_bid[bid] += count
        by_rule[rule.id] += count
        hcp.setdefault(bid, [0] * (MAX_HCP + 1))[tally.hcp] += count
        for pair in overlaps(tally):
            shadowing[pair] += count
    return Statistics(
        hands, seed,
        tuple((bid.text, by_bid[bid.text]) for bid in RULE_BIDS),
        tuple((rule.id, by_rule[rule.id]) for rule in RULES),
        tuple((fired, shadowed, count) for (fired, shadowed), count
              in sorted(shadowing.items())),
        tuple((bid.text, tuple(hcp[bid.text])) for bid in RULE_BIDS if bid.text in hcp))


# Hands that tell misreadings apart ---------------------------------------------------------

SEPARATING_SEARCH = 20_000  # hands searched for hands that tell misreadings apart
SEPARATING_LIMIT = 100_000  # searched, at most, while too few tell every one apart


def bids_of(variants, code: int) -> tuple:
    """The bid the assignment makes on the hand, then each variant's, as each writes it."""
    return (packed.decide(code)[1],) + tuple(
        variant.written(packed.decide(code, variant.rules, variant.counting)[1])
        for variant in variants)


def separating_hands(variants, count: int = 3, seed: int = 1,
                     search: int = SEPARATING_SEARCH, limit: int = SEPARATING_LIMIT
                     ) -> tuple[str, ...]:
    """*count* hands on which the first variant bids otherwise than the assignment and the
    variants give as many different bids as they can: every pair of them a different bid
    where such hands are. The first *search* hands dealt for *seed* are searched, and on
    (up to *limit*) while fewer than *count* set every pair apart; the most different bids
    first, then the smallest hand (fewest high-card points, then fewest honours)."""
    found: list[tuple[int, tuple[int, int], int, str]] = []
    apart = 0  # hands on which every variant bids differently from every other
    for order, indexes in enumerate(islice(hand_stream(seed), max(search, limit))):
        if order >= search and apart >= count:
            break
        bids = bids_of(variants, packed.encode_deal(indexes))
        if bids[1] == bids[0]:
            continue
        found.append((-len(set(bids)), smallness(indexes), order, dealt_text(indexes)))
        apart += len(set(bids[1:])) == len(bids) - 1
    return tuple(entry[-1] for entry in sorted(found)[:count])
