"""Exact statistics: how many of all 635,013,559,600 hands open each bid, by which rule,
with which HCP and shape, and where a later rule also applies.

A hand's bid depends only on its suit lengths and HCP, and, when a rule picks between
two long suits by their strength, on the HCP within those suits. How many hands share
such a profile is a product of per-suit counts (the ways to hold k cards of a suit with
h HCP), so every profile is judged once through the rule table and weighed by its count.
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, compress, product
from math import comb, prod
from typing import Iterator

from .bids import Bid
from .cards import DECK, HAND_SIZE, Card, Rank, Suit
from .facts import HCP_SCALE, STANDARD, Counting, Tally
from .rules import RULES, NeedsSuitHcp, Rule, TallyOnly, applying

ALL_HANDS = comb(len(DECK), HAND_SIZE)
SUIT_SIZE = len(DECK) // len(Suit)
Lengths = tuple[int, int, int, int]


Scale = tuple[tuple[Rank, int], ...]


@lru_cache(maxsize=16)
def holding_counts(scale: Scale = HCP_SCALE) -> tuple[tuple[int, ...], ...]:
    """counts[k][h]: how many holdings of k cards in one suit have h HCP on *scale*
    ((rank, HCP) of each honour counted: the assignment's unless given).

    Each set of honours with h HCP is completed by the other ranks in every way."""
    honours = tuple(points for _, points in scale)
    others = SUIT_SIZE - len(honours)
    counts = [[0] * (sum(honours) + 1) for _ in range(SUIT_SIZE + 1)]
    for size in range(len(honours) + 1):
        for held in combinations(honours, size):
            for spots in range(others + 1):
                counts[size + spots][sum(held)] += comb(others, spots)
    return tuple(map(tuple, counts))


HOLDINGS = holding_counts()  # on the assignment's scale


def convolve(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...]:
    """Counts by HCP of two independent parts together: out[i + j] += left[i] * right[j]."""
    out = [0] * (len(left) + len(right) - 1)
    held = held_hcp(right)
    for i, ways in held_hcp(left):
        for j, more in held:
            out[i + j] += ways * more
    return tuple(out)


def held_hcp(counts: tuple[int, ...]) -> list[tuple[int, int]]:
    """The (HCP, count) of each HCP some holding has: on a joint scale most have none."""
    return list(compress(enumerate(counts), counts))


@lru_cache(maxsize=None)
def hcp_counts(lengths: tuple[int, ...], scale: Scale = HCP_SCALE) -> tuple[int, ...]:
    """How many holdings of suits of these *lengths* have each HCP (on *scale*), indexed
    by HCP."""
    if not lengths:
        return (1,)
    return convolve(hcp_counts(lengths[:-1], scale), holding_counts(scale)[lengths[-1]])


def suit_lengths() -> Iterator[Lengths]:
    """Every way 13 cards fall into the four suits, clubs first: 560 of them."""
    for first in product(range(SUIT_SIZE + 1), repeat=len(Suit) - 1):
        last = HAND_SIZE - sum(first)
        if 0 <= last <= SUIT_SIZE:
            yield (*first, last)


@dataclass(frozen=True, slots=True)
class Profile:
    """Hands the rules cannot tell apart, how many there are, and what the rules make
    of them. *weighed* holds the HCP of each suit a rule compared, else nothing."""

    lengths: Lengths
    hcp: int
    weighed: tuple[tuple[Suit, int], ...]
    hands: int
    rule: Rule
    bid: str | None
    shadowed: tuple[Rule, ...]


def profiles(rules: tuple[Rule, ...] = RULES,
             counting: Counting = STANDARD) -> Iterator[Profile]:
    """Every profile of a 13-card hand with its number of hands, counted by *counting*
    and judged by *rules*."""
    judge = _Judge(rules, counting)
    for lengths in suit_lengths():
        yield from judge.profiles(lengths)


@dataclass(frozen=True)
class _Weighed:
    """A profile split by the HCP within some suits, as a rule's bid reads a hand."""

    tally: Tally
    weighed: tuple[tuple[Suit, int], ...]

    def suit_hcp(self, suit: Suit) -> int:
        """High card points held in *suit*, one of the suits the profile is split by."""
        return dict(self.weighed)[suit]


class _Judge:
    """Judges profiles through a rule table, working out each condition once for each
    value of the fact of the tally it reads (``reads``: the HCP, the points, the balance
    or the lengths) and the rules that apply once for each set of conditions that hold."""

    def __init__(self, rules: tuple[Rule, ...], counting: Counting):
        self.rules, self.counting = rules, counting
        conditions = dict.fromkeys(condition for rule in rules for condition in rule.conditions)
        self.by_fact: dict[str, list[tuple[int, object]]] = {}
        for place, condition in enumerate(conditions):
            self.by_fact.setdefault(condition.reads, []).append((1 << place, condition))
        self.held: dict[str, dict] = {fact: {} for fact in self.by_fact}
        self.decisions: dict[int, tuple[Rule, tuple[Rule, ...]]] = {}

    def conditions_held(self, tally: Tally) -> int:
        """A bit for each condition the hand meets."""
        held = 0
        for fact, conditions in self.by_fact.items():
            value, known = getattr(tally, fact), self.held[fact]
            if value not in known:
                known[value] = sum(bit for bit, condition in conditions
                                   if condition.holds(tally))
            held |= known[value]
        return held

    def decide(self, tally: Tally) -> tuple[Rule, tuple[Rule, ...]]:
        """The first rule that applies, and the later rules with a bid that also apply."""
        held = self.conditions_held(tally)
        if held not in self.decisions:
            fired, *others = applying(tally, self.rules)
            self.decisions[held] = fired, tuple(
                rule for rule in others if rule.level is not None)
        return self.decisions[held]

    def profiles(self, lengths: Lengths) -> Iterator[Profile]:
        """The profiles of hands with these suit lengths, HCP by HCP."""
        splits, scale = {}, self.counting.scale
        for hcp, hands in held_hcp(hcp_counts(lengths, scale)):
            tally = Tally(lengths, hcp, self.counting)
            rule, shadowed = self.decide(tally)
            try:
                bid = rule.bid(TallyOnly(tally))
            except NeedsSuitHcp:
                pass
            else:
                yield Profile(lengths, hcp, (), hands, rule, bid, shadowed)
                continue
            # The rule compares the HCP within its candidate suits: split the hands by them.
            suits = tuple(rule.candidates(tally))
            if suits not in splits:
                splits[suits] = split_by_suit_hcp(lengths, suits, scale)
            for held, part in splits[suits][hcp]:
                weighed = tuple(zip(suits, held))
                yield Profile(lengths, hcp, weighed, part, rule,
                              rule.bid(_Weighed(tally, weighed)), shadowed)


def split_by_suit_hcp(lengths: Lengths, suits: tuple[Suit, ...], scale: Scale = HCP_SCALE
                      ) -> dict[int, list[tuple[tuple[int, ...], int]]]:
    """Hands of these *lengths* by HCP (on *scale*), each split by the HCP held in
    *suits*: {hcp: [(HCP in each of suits, hands), ...]}."""
    rest = held_hcp(hcp_counts(tuple(length for suit, length in zip(Suit, lengths)
                                     if suit not in suits), scale))
    holdings = holding_counts(scale)
    held_counts = [held_hcp(holdings[lengths[suit]]) for suit in suits]
    split: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for combination in product(*held_counts):
        held = tuple(hcp for hcp, _ in combination)
        ways = prod(count for _, count in combination)
        for others, more in rest:
            split.setdefault(sum(held) + others, []).append((held, ways * more))
    return split


# The tables -------------------------------------------------------------------------

@dataclass(frozen=True)
class HcpSpread:
    """The high card points of the hands that made one opening bid: exact integers."""

    bid: str | None
    hands: int
    low: int
    high: int
    hcp_sum: int
    mode: int

    @property
    def mean(self) -> Fraction:
        """The mean HCP, as an exact fraction."""
        return Fraction(self.hcp_sum, self.hands)


def hcp_spread(bid: str | None, counts: tuple[int, ...]) -> HcpSpread:
    """Fewest, most, total and most common HCP from hand counts indexed by HCP."""
    held = [hcp for hcp, count in enumerate(counts) if count]
    return HcpSpread(bid, sum(counts), held[0], held[-1],
                     sum(hcp * count for hcp, count in enumerate(counts)),
                     max(held, key=counts.__getitem__))


@dataclass(frozen=True)
class ExactStatistics:
    """How many of all hands open each bid, by each rule, with each HCP and shape, and
    where a later rule also applies: exact integers, ordered as the rule table is."""

    hands: int
    by_bid: tuple[tuple[str | None, int], ...]
    by_rule: tuple[tuple[str, int], ...]
    overlaps: tuple[tuple[str, str, int], ...]
    hcp_by_bid: tuple[tuple[str | None, tuple[int, ...]], ...]
    by_hcp: tuple[int, ...]
    by_pattern: tuple[tuple[str, int], ...]
    by_shape: tuple[tuple[str, int], ...]

    def share(self, count: int) -> float:
        """A count as a percentage of all hands."""
        return 100.0 * count / self.hands

    def fraction(self, count: int) -> Fraction:
        """A count as an exact fraction of all hands."""
        return Fraction(count, self.hands)

    @property
    def spreads(self) -> tuple[HcpSpread, ...]:
        """The HCP spread of each bid that some hand makes."""
        return tuple(hcp_spread(bid, counts) for bid, counts in self.hcp_by_bid)

    def to_dict(self) -> dict:
        """The counts as plain JSON types: integers, and the mean HCP as a float too."""
        return {
            "hands": self.hands,
            "by_bid": [{"bid": bid, "count": count} for bid, count in self.by_bid],
            "by_rule": [{"rule": rule, "count": count} for rule, count in self.by_rule],
            "overlaps": [{"fired": fired, "shadowed": shadowed, "count": count}
                         for fired, shadowed, count in self.overlaps],
            "hcp_by_bid": [{"bid": spread.bid, "hcp_counts": list(counts),
                            "low": spread.low, "high": spread.high,
                            "hcp_sum": spread.hcp_sum, "mean": float(spread.mean)}
                           for spread, (_, counts) in zip(self.spreads, self.hcp_by_bid)],
            "by_hcp": [{"hcp": hcp, "count": count} for hcp, count in enumerate(self.by_hcp)],
            "by_pattern": [{"pattern": pattern, "count": count}
                           for pattern, count in self.by_pattern],
            "by_shape": [{"shape": shape, "count": count} for shape, count in self.by_shape],
        }


def exact_statistics(rules: tuple[Rule, ...] = RULES,
                     counting: Counting = STANDARD) -> ExactStatistics:
    """Count every one of the 635,013,559,600 hands by what *rules* make of it, each hand
    counted by *counting* (a variant's ``rules`` and ``counting`` fit here).

    Computed once per rule table and counting (about a fifth of a second), then cached."""
    return _count(tuple(rules), counting)


@lru_cache(maxsize=8)
def _count(rules: tuple[Rule, ...], counting: Counting) -> ExactStatistics:
    """The exact statistics for one rule table and counting, cached by both."""
    by_bid, by_rule, overlaps, by_lengths = Counter(), Counter(), Counter(), Counter()
    by_bid_hcp = Counter()
    for profile in profiles(rules, counting):
        by_bid[profile.bid] += profile.hands
        by_rule[profile.rule.id] += profile.hands
        by_bid_hcp[profile.bid, profile.hcp] += profile.hands
        by_lengths[profile.lengths] += profile.hands
        for shadowed in profile.shadowed:
            overlaps[profile.rule.id, shadowed.id] += profile.hands
    top = max(hcp for _, hcp in by_bid_hcp)
    bids = bids_made(rules)
    hcp_by_bid = tuple((bid, tuple(by_bid_hcp[bid, hcp] for hcp in range(top + 1)))
                       for bid in bids if by_bid[bid])
    return ExactStatistics(
        ALL_HANDS,
        tuple((bid, by_bid[bid]) for bid in bids),
        tuple((rule.id, by_rule[rule.id]) for rule in rules),
        tuple((fired, shadowed, count) for (fired, shadowed), count
              in sorted(overlaps.items())),
        hcp_by_bid,
        tuple(map(sum, zip(*(counts for _, counts in hcp_by_bid)))),
        _most_first(_by_pattern(by_lengths)),
        _most_first({Tally(lengths, 0).shape: count
                     for lengths, count in by_lengths.items()}))


def bids_made(rules: tuple[Rule, ...] = RULES) -> tuple[str | None, ...]:
    """Every bid *rules* can make, as the graded functions write them, in bidding
    order: no bid last."""
    return tuple(bid.text for bid in sorted(
        {Bid.from_value(made) for rule in rules for made in rule.bids}))


def pattern(lengths: Lengths) -> str:
    """The shape pattern, longest suit first, whichever suits they are: '4-4-3-2'."""
    return "-".join(map(str, sorted(lengths, reverse=True)))


def _by_pattern(by_lengths: Counter) -> Counter:
    patterns = Counter()
    for lengths, count in by_lengths.items():
        patterns[pattern(lengths)] += count
    return patterns


def _most_first(counts) -> tuple[tuple[str, int], ...]:
    """(name, count) pairs, the most common first, then by name."""
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# What a misreading changes -------------------------------------------------------------

@dataclass(frozen=True)
class Changes:
    """How many of all hands a variant opens otherwise than the assignment, by pair of
    bids (the assignment's, then the variant's as it writes it down)."""

    variant: str
    by_pair: tuple[tuple[str | None, object, int], ...]

    @property
    def hands(self) -> int:
        """Hands whose opening bid changes."""
        return sum(count for _, _, count in self.by_pair)

    def to_dict(self) -> dict:
        """The counts as plain JSON types."""
        return {"variant": self.variant, "hands": self.hands,
                "by_pair": [{"from": old, "to": new, "count": count}
                            for old, new, count in self.by_pair]}


def changes(variant) -> Changes:
    """Count every hand whose opening bid *variant* (its rules, its counting, how it
    writes a bid down) changes; cached per variant."""
    return _changes(variant)


JOINT = 64  # a variant's HCP on another scale is counted in steps of this (above 60)


def joint_scale(ours: Scale, theirs: Scale) -> tuple[Scale, int | None]:
    """The scale whose sums hold the HCP on both scales: *ours* when they agree (then
    None), else ours plus JOINT times theirs (then JOINT, to take them apart)."""
    if ours == theirs:
        return ours, None
    first, second = dict(ours), dict(theirs)
    return tuple((rank, first.get(rank, 0) + JOINT * second.get(rank, 0))
                 for rank in sorted(first.keys() | second.keys(), reverse=True)), JOINT


def apart(value: int, joint: int | None) -> tuple[int, int]:
    """A joint HCP as (ours, theirs)."""
    if joint is None:
        return value, value
    theirs, ours = divmod(value, joint)
    return ours, theirs


@dataclass(frozen=True)
class Compared:
    """Hands two readings cannot tell apart from within: the lengths, the HCP on each
    reading's scale, the suits a rule weighed with their HCP on each, what each reading
    answers (as it writes it down), and how many hands."""

    lengths: Lengths
    hcp: tuple[int, int]
    weighed: tuple[tuple[Suit, int, int], ...]
    answers: tuple[object, object]
    hands: int


def compared(first, second) -> Iterator[Compared]:
    """Every profile of a hand as two readings (each with ``rules``, ``counting`` and
    ``written``, as a variant has) judge it."""
    judges = _Judge(first.rules, first.counting), _Judge(second.rules, second.counting)
    countings, writers = (first.counting, second.counting), (first.written, second.written)
    scale, joint = joint_scale(first.counting.scale, second.counting.scale)
    for lengths in suit_lengths():
        splits = {}
        for hcp, hands in held_hcp(hcp_counts(lengths, scale)):
            both = apart(hcp, joint)
            tallies = tuple(Tally(lengths, counted, counting)
                            for counted, counting in zip(both, countings))
            rules = tuple(judge.decide(tally)[0] for judge, tally in zip(judges, tallies))
            try:
                bids = [rule.bid(TallyOnly(tally)) for rule, tally in zip(rules, tallies)]
            except NeedsSuitHcp:  # a rule weighs two long suits: split by their HCP
                weighed = tuple(sorted(set().union(*(
                    rule.candidates(tally) for rule, tally in zip(rules, tallies)))))
                if weighed not in splits:
                    splits[weighed] = split_by_suit_hcp(lengths, weighed, scale)
                for values, part in splits[weighed][hcp]:
                    held = tuple(zip(*(apart(value, joint) for value in values)))
                    bids = [rule.bid(_Weighed(tally, tuple(zip(weighed, mine))))
                            for rule, tally, mine in zip(rules, tallies, held)]
                    yield Compared(lengths, both, tuple(zip(weighed, *held)), tuple(
                        write(bid) for write, bid in zip(writers, bids)), part)
            else:
                yield Compared(lengths, both, (), tuple(
                    write(bid) for write, bid in zip(writers, bids)), hands)


@dataclass(frozen=True)
class _Reading:
    """The assignment as a reading: its rules, its counting, each bid written as it is."""

    rules: tuple[Rule, ...] = RULES
    counting: Counting = STANDARD

    @staticmethod
    def written(bid):
        """The bid as it is."""
        return bid


ASSIGNMENT = _Reading()


def _holdings(length: int, scales: tuple[Scale, ...]
              ) -> Iterator[tuple[tuple[Rank, ...], tuple[int, ...]]]:
    """Each way to hold *length* cards of a suit that the scales tell apart: the honours
    held (and the lowest other ranks to fill the suit), with their HCP on each scale."""
    honours = sorted({rank for scale in scales for rank, points in scale if points},
                     reverse=True)
    spots = [rank for rank in Rank if rank not in honours]
    for size in range(min(length, len(honours)) + 1):
        if length - size <= len(spots):
            for held in combinations(honours, size):
                yield held + tuple(spots[:length - size]), tuple(
                    sum(dict(scale).get(rank, 0) for rank in held) for scale in scales)


def cards_of(profile: Compared, scales: tuple[Scale, Scale]) -> tuple[Card, ...]:
    """A hand of the profile: its lengths, its HCP on both scales, and the HCP of the
    suits it weighed."""
    fixed = {suit: (ours, theirs) for suit, ours, theirs in profile.weighed}
    reachable: dict[tuple[int, ...], tuple] = {(0, 0): ()}
    for suit in Suit:
        options = [(ranks, values) for ranks, values in _holdings(profile.lengths[suit], scales)
                   if fixed.get(suit, values) == values]
        reachable = {tuple(map(sum, zip(sums, values))): chosen + ((suit, ranks),)
                     for sums, chosen in reachable.items() for ranks, values in options}
    return tuple(Card(suit, rank) for suit, ranks in reachable[profile.hcp] for rank in ranks)


@lru_cache(maxsize=256)
def hands_apart(first, second, most: int = 2) -> tuple[tuple[Card, ...], ...]:
    """Up to *most* hands on which two readings bid differently, the first profiles met
    first; none when they bid alike on every hand."""
    scales = (first.counting.scale, second.counting.scale)
    found = []
    for profile in compared(first, second):
        if profile.answers[0] != profile.answers[1]:
            found.append(cards_of(profile, scales))
            if len(found) == most:
                break
    return tuple(found)


@lru_cache(maxsize=64)
def _changes(variant) -> Changes:
    return changes_and_apart(variant, 0)[0]


def changes_and_apart(variant, most: int) -> tuple[Changes, tuple[Compared, ...]]:
    """What *variant* changes (as ``changes``), and up to *most* profiles of hands it
    opens otherwise than the assignment, in one pass: the biggest of each pair of bids
    first (so that they change different bids), then the next biggest of each."""
    pairs, kept = Counter(), {}
    for seen, profile in enumerate(compared(ASSIGNMENT, variant)):
        old, new = profile.answers
        if new != old:
            pairs[old, new] += profile.hands
            if most:
                biggest = kept.setdefault((old, new), [])
                heapq.heappush(biggest, (profile.hands, -seen, profile))
                if len(biggest) > most:
                    heapq.heappop(biggest)
    order = {bid: place for place, bid in enumerate(bids_made(RULES))}
    ranked = sorted(((place, -hands, str(pair), profile)
                     for pair, biggest in kept.items()
                     for place, (hands, _, profile) in enumerate(sorted(
                         biggest, key=lambda entry: entry[:2], reverse=True))),
                    key=lambda entry: entry[:3])
    return Changes(variant.id, tuple(
        (old, new, count) for (old, new), count in sorted(
            pairs.items(), key=lambda item: (-item[1], order[item[0][0]], str(item[0][1]))))
        ), tuple(profile for *_, profile in ranked[:most])


def dealt_from(profile: Compared, scales: tuple[Scale, Scale], rng) -> tuple[Card, ...]:
    """A hand of *profile* dealt at random, every hand of it as likely (*rng* a
    ``random.Random``): its lengths, its HCP on both scales, and the HCP of the suits it
    weighed."""
    fixed = {suit: (ours, theirs) for suit, ours, theirs in profile.weighed}
    honours = tuple(sorted({rank for scale in scales for rank, points in scale if points},
                           reverse=True))
    spots = [rank for rank in Rank if rank not in honours]
    options = [[(held, values, comb(len(spots), profile.lengths[suit] - len(held)))
                for held, values in _honours_held(profile.lengths[suit], honours, scales)
                if fixed.get(suit, values) == values] for suit in Suit]
    ways = [Counter({(0, 0): 1})]  # ways[n]: hands of the last n suits, by HCP on both scales
    for suit in reversed(Suit):
        ways.insert(0, Counter())
        for (ours, theirs), count in ways[1].items():
            for _, values, weight in options[suit]:
                ways[0][ours + values[0], theirs + values[1]] += weight * count
    need, cards = profile.hcp, []
    for suit in Suit:
        choices = [(held, values, weight * ways[suit + 1][need[0] - values[0],
                                                          need[1] - values[1]])
                   for held, values, weight in options[suit]]
        pick = rng.randrange(sum(weight for *_, weight in choices))
        held, values, _ = next(choice for choice in choices
                               if (pick := pick - choice[2]) < 0)
        need = (need[0] - values[0], need[1] - values[1])
        ranks = held + tuple(rng.sample(spots, profile.lengths[suit] - len(held)))
        cards += [Card(suit, rank) for rank in ranks]
    return tuple(cards)


@lru_cache(maxsize=1 << 10)
def _honours_held(length: int, honours: tuple[Rank, ...], scales: tuple[Scale, Scale]
                  ) -> tuple[tuple[tuple[Rank, ...], tuple[int, ...]], ...]:
    """Each set of *honours* a suit of *length* cards may hold, with its HCP on each
    scale."""
    spots = len(Rank) - len(honours)
    return tuple((held, tuple(sum(dict(scale).get(rank, 0) for rank in held)
                              for scale in scales))
                 for size in range(max(0, length - spots), min(length, len(honours)) + 1)
                 for held in combinations(honours, size))
