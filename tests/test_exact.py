"""Exact statistics over all 635,013,559,600 hands: the published tables, the rule table,
a seeded sample, and every hand's profile (Hypothesis)."""

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb, prod, sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder import RULE_BY_ID, RULES, explain, highCardPoints, openingBid, parse_hand
from bidder.cards import DECK, Card, Rank, Suit
from bidder.bids import RULE_BIDS
from bidder.dealing import random_hand, statistics
from bidder.facts import STANDARD, Facts, Tally, card_hcp
from bidder.exact import (ALL_HANDS, HOLDINGS, ExactStatistics, bids_made, convolve,
                          exact_statistics, hcp_counts, hcp_spread, pattern, profiles,
                          split_by_suit_hcp, suit_lengths)
from bidder.rules import Between
from bidder.variants import CATALOGUE

# The sweeps over every tally, many hands or a million sampled hands run untraced: tracing
# made them about three times slower, and the lines they run the other tests run too.
SWEEP = pytest.mark.no_cover

EXACT = exact_statistics()
SAMPLE_SEED = 2026


def percent(count: int) -> float:
    """A count as a percentage of all hands, to four places as the tables print it."""
    return round(100 * count / ALL_HANDS, 4)


@pytest.fixture(scope="module")
def profile_table():
    """Each profile's (rule, bid) by (lengths, HCP, HCP of the suits weighed)."""
    return {(profile.lengths, profile.hcp, profile.weighed): profile
            for profile in profiles()}


def profile_of(table, text: str):
    """The profile a hand belongs to: by lengths and HCP, else by the suits weighed too."""
    facts = Facts(parse_hand(text))
    tally = facts.tally
    found = table.get((tally.lengths, tally.hcp, ()))
    if found is None:
        weighed = next(key[2] for key in table if key[:2] == (tally.lengths, tally.hcp)
                       and key[2])
        found = table[tally.lengths, tally.hcp,
                      tuple((suit, facts.suit_hcp(suit)) for suit, _ in weighed)]
    return found


# All hands -------------------------------------------------------------------------

def test_all_hands_are_52_choose_13():
    assert ALL_HANDS == comb(52, 13) == 635_013_559_600 == EXACT.hands


@pytest.mark.parametrize("table", ["by_bid", "by_rule", "by_pattern", "by_shape"])
def test_every_table_counts_every_hand_once(table):
    assert sum(count for _, count in getattr(EXACT, table)) == ALL_HANDS


def test_the_hcp_of_each_bid_add_up_to_the_hcp_of_all_hands():
    assert sum(EXACT.by_hcp) == ALL_HANDS
    assert [sum(column) for column in zip(*(counts for _, counts in EXACT.hcp_by_bid))] \
        == list(EXACT.by_hcp)
    assert dict(EXACT.by_bid) == {bid: sum(counts) for bid, counts in EXACT.hcp_by_bid} | {
        bid: 0 for bid, count in EXACT.by_bid if not count}


# Holdings of one suit -----------------------------------------------------------------

def test_holdings_match_every_subset_of_a_suit_counted_one_by_one():
    counted = [[0] * len(HOLDINGS[0]) for _ in range(len(Rank) + 1)]
    for size in range(len(Rank) + 1):
        for held in combinations(Rank, size):
            counted[size][sum(card_hcp(card) for card in DECK[:len(Rank)]
                              if card.rank in held)] += 1
    assert [list(row) for row in HOLDINGS] == counted


@given(st.integers(0, len(Rank)))
def test_holdings_of_k_cards_add_up_to_13_choose_k(length):
    assert sum(HOLDINGS[length]) == comb(len(Rank), length)


@given(st.lists(st.integers(0, 13), min_size=0, max_size=4))
def test_hcp_counts_of_suits_add_up_to_the_product_of_their_holdings(lengths):
    counts = hcp_counts(tuple(lengths))
    assert sum(counts) == prod(comb(13, length) for length in lengths)
    assert counts == tuple(hcp_counts(tuple(reversed(lengths))))


def test_convolve_adds_independent_parts():
    assert convolve((1, 2), (3, 0, 1)) == (3, 6, 1, 2)


def test_there_are_560_ways_to_split_13_cards_among_four_suits():
    lengths = list(suit_lengths())
    assert len(lengths) == len(set(lengths)) == comb(13 + 3, 3)
    assert all(sum(split) == 13 for split in lengths)


# High card points: the published table --------------------------------------------------

@pytest.mark.parametrize("hcp, share", [
    (10, 9.4051), (0, 0.3639), (7, 8.0281), (13, 6.9143), (20, 0.6435),
], ids=["10 HCP is the most common hand", "0 HCP (a yarborough)", "7 HCP",
        "13 HCP, an opening hand", "20 HCP"])
def test_hcp_shares_match_the_published_table(hcp, share):
    assert percent(EXACT.by_hcp[hcp]) == share


def test_37_hcp_is_exactly_4_hands_and_nothing_holds_more():
    assert EXACT.by_hcp[37] == 4
    assert len(EXACT.by_hcp) == 38


def test_the_mean_hand_holds_exactly_10_hcp():
    assert Fraction(sum(hcp * count for hcp, count in enumerate(EXACT.by_hcp)),
                    ALL_HANDS) == 10


# Shapes ------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, hands, share", [
    ("4-4-3-2", 136_852_887_600, 21.5512), ("5-3-3-2", None, 15.5168),
    ("5-4-3-1", None, 12.9307), ("4-3-3-3", None, 10.5361), ("4-4-4-1", None, 2.9932),
    ("7-6-0-0", None, 0.0056), ("13-0-0-0", 4, 0.0),
], ids=["4-4-3-2 is the most common shape", "5-3-3-2", "5-4-3-1", "4-3-3-3", "4-4-4-1",
        "7-6-0-0", "13-0-0-0: four hands"])
def test_shape_patterns_match_the_published_table(shape, hands, share):
    counts = dict(EXACT.by_pattern)
    assert percent(counts[shape]) == share
    assert hands is None or counts[shape] == hands


def test_there_are_39_patterns_and_560_shapes_most_common_first():
    assert len(EXACT.by_pattern) == 39 and len(EXACT.by_shape) == 560
    assert EXACT.by_pattern[0][0] == "4-4-3-2"
    counts = [count for _, count in EXACT.by_shape]
    assert counts == sorted(counts, reverse=True)


@pytest.mark.parametrize("shape", ["4-3-3-3", "3-3-3-4", "5-4-3-1", "0-0-0-13"])
def test_an_exact_shape_is_the_product_of_its_suits(shape):
    lengths = tuple(map(int, shape.split("-")))
    assert dict(EXACT.by_shape)[shape] == prod(comb(13, length) for length in lengths)


def test_a_pattern_names_the_lengths_longest_first():
    assert pattern((2, 4, 3, 4)) == "4-4-3-2"


# Bids and rules ------------------------------------------------------------------------

def test_bids_come_in_bidding_order_with_no_bid_last():
    assert bids_made() == tuple(bid.text for bid in RULE_BIDS) == tuple(
        bid for bid, _ in EXACT.by_bid)


def test_a_table_without_a_no_bid_rule_lists_no_none():
    assert bids_made(RULES[:3]) == ("1C", "1D", "1H", "1S", "1NT")


def test_r4_decides_no_hand_and_r3_takes_every_balanced_19_20_hcp_hand():
    by_rule = dict(EXACT.by_rule)
    assert by_rule["R4"] == 0
    balanced_19_20 = sum(hcp_counts(lengths)[hcp] for lengths in suit_lengths()
                         for hcp in (19, 20) if Tally(lengths, hcp).balanced)
    overlaps = {(fired, shadowed): count for fired, shadowed, count in EXACT.overlaps}
    assert overlaps["R3", "R4"] == balanced_19_20


def test_every_rule_that_decides_is_listed_in_table_order():
    assert [rule for rule, _ in EXACT.by_rule] == [rule.id for rule in RULES]
    assert all(count for rule, count in EXACT.by_rule if rule != "R4")


def test_about_64_percent_of_hands_open_nothing():
    assert 63.5 < EXACT.share(dict(EXACT.by_bid)[None]) < 64


@pytest.mark.parametrize("bid", ["1NT", "2NT", "3S", "4H"])
def test_each_bid_s_hcp_range_is_its_rule_s(bid):
    rule = next(rule for rule in RULES if bid in rule.bids)
    hcp = next(condition for condition in rule.conditions
               if isinstance(condition, Between) and condition.measure == "hcp")
    spread = next(spread for spread in EXACT.spreads if spread.bid == bid)
    assert spread.low == hcp.low
    assert spread.high <= hcp.high


def test_means_are_exact_fractions():
    spread = next(spread for spread in EXACT.spreads if spread.bid == "1NT")
    assert spread.mean == Fraction(spread.hcp_sum, spread.hands)
    assert 16 < spread.mean < 17 and spread.mode == 16


@pytest.mark.parametrize("counts, expected", [
    ((0, 0, 5), (5, 2, 2, 2, 2)),
    ((1, 0, 2, 1), (4, 0, 3, Fraction(7, 4), 2)),
    ((0, 3, 0, 3), (6, 1, 3, 2, 1)),
], ids=["one HCP value", "a spread with a gap", "a tie for most common: the fewer HCP"])
def test_an_hcp_spread_from_counts_by_hcp(counts, expected):
    spread = hcp_spread("1C", counts)
    assert (spread.hands, spread.low, spread.high, spread.mean, spread.mode) == expected
    assert spread.bid == "1C"


def test_the_suits_of_one_kind_are_symmetric_for_pre_empts():
    by_bid = dict(EXACT.by_bid)
    assert by_bid["3C"] == by_bid["3D"] == by_bid["3H"] == by_bid["3S"]
    assert by_bid["2H"] > by_bid["2C"]  # a major beats a minor when both are long


# The rule table drives the count ------------------------------------------------------

def test_without_r1_its_hands_open_by_r3():
    without_r1 = RULES[1:]
    counted = exact_statistics(without_r1)
    assert dict(counted.by_rule)["R3"] == dict(EXACT.by_rule)["R3"] + dict(EXACT.by_rule)["R1"]
    assert dict(counted.by_bid).get("1NT") is None
    assert counted.hands == ALL_HANDS


def test_reading_6_108_as_6_8_gives_the_same_bids():
    r8 = RULE_BY_ID["R8"]
    tight = dataclasses.replace(r8, conditions=(Between("hcp", 6, 8), r8.conditions[1]))
    variant = tuple(tight if rule is r8 else rule for rule in RULES)
    assert exact_statistics(variant).by_bid == EXACT.by_bid
    assert exact_statistics(variant) is not EXACT


def test_importing_bidder_counts_nothing():
    code = "import sys, bidder; print('bidder.exact' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout == "False\n"


def test_the_count_is_computed_once_per_table():
    assert exact_statistics() is exact_statistics(RULES) is EXACT


@pytest.mark.slow
@SWEEP
def test_each_condition_depends_only_on_the_fact_it_says_it_reads():
    tallies = [Tally(lengths, hcp) for lengths in suit_lengths()
               for hcp, count in enumerate(hcp_counts(lengths)) if count]
    for condition in dict.fromkeys(c for rule in RULES for c in rule.conditions):
        answers = {}
        for tally in tallies:
            answers.setdefault(getattr(tally, condition.reads), set()).add(
                (condition.holds(tally), condition.measured(tally)))
        assert all(len(seen) == 1 for seen in answers.values()), condition


# R6's tie-breaks: profiles split by the HCP of the long suits -----------------------------

def test_profiles_split_by_suit_hcp_add_up_to_the_whole():
    whole = {}
    for profile in profiles():
        key = profile.lengths, profile.hcp
        whole[key] = whole.get(key, 0) + profile.hands
    assert all(hcp_counts(lengths)[hcp] == hands for (lengths, hcp), hands in whole.items())


def test_only_two_long_suits_of_one_kind_are_split():
    weighed = {tuple(suit for suit, _ in profile.weighed) for profile in profiles()
               if profile.weighed}
    assert weighed == {(Suit.CLUBS, Suit.DIAMONDS), (Suit.HEARTS, Suit.SPADES)}


def test_a_split_by_suit_hcp_covers_every_holding():
    split = split_by_suit_hcp((5, 5, 3, 0), (Suit.CLUBS, Suit.DIAMONDS))
    assert sum(hands for parts in split.values() for _, hands in parts) \
        == comb(13, 5) ** 2 * comb(13, 3)


WORKED_EXAMPLES = [
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "1C", "R3"),
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "1C", "R3"),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "2NT", "R5"),
    ("AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H", "1NT", "R1"),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "1H", "R2"),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", "2H", "R6"),
    ("AS KS 5S 4S 3S AH QH 6H 5H 2H AD KD KC", "2S", "R6"),
    ("AC KC 5C 4C 3C AD QD 6D 5D 2D AS KS KH", "2C", "R6"),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", None, "R9"),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "4S", "R8"),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", None, "R9"),
]


@pytest.mark.parametrize("hand, bid, rule", WORKED_EXAMPLES,
                         ids=[f"{bid} by {rule}: {hand[:20]}" for hand, bid, rule
                              in WORKED_EXAMPLES])
def test_worked_examples_sit_in_a_profile_that_bids_as_the_spec_says(
        profile_table, hand, bid, rule):
    profile = profile_of(profile_table, hand)
    assert (profile.bid, profile.rule.id) == (bid, rule)
    assert profile.hcp == highCardPoints(hand) and profile.hands > 0


hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True).map(
    lambda cards: " ".join(map(str, cards)))
TWO_SUITERS = [(Suit.HEARTS, Suit.SPADES), (Suit.CLUBS, Suit.DIAMONDS)]
HONOURS_FIRST = sorted(DECK, key=lambda card: -card.rank)


@given(hands)
def test_every_hand_sits_in_a_profile_with_its_bid_and_rule(profile_table, hand):
    profile = profile_of(profile_table, hand)
    assert (profile.bid, profile.rule.id) == (openingBid(hand), explain(hand).rule)
    assert profile.hands > 0


@given(st.sampled_from(TWO_SUITERS), st.sets(st.sampled_from(Rank), min_size=5, max_size=8),
       st.sets(st.sampled_from(Rank), min_size=5, max_size=8))
def test_two_suiters_of_one_kind_sit_in_a_profile_with_their_bid(profile_table, suits,
                                                                 first, second):
    second = sorted(second, reverse=True)[:len(Rank) - len(first)]
    cards = [Card(suits[0], rank) for rank in first] + [Card(suits[1], rank) for rank in second]
    rest = [card for card in HONOURS_FIRST if card.suit not in suits]
    hand = " ".join(map(str, cards + rest[:len(Rank) - len(cards)]))
    profile = profile_of(profile_table, hand)
    assert (profile.bid, profile.rule.id) == (openingBid(hand), explain(hand).rule)


VARIANTS = [variant for variant in CATALOGUE
            if variant.rules is not RULES or variant.counting is not STANDARD]


@pytest.mark.slow
@SWEEP
@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.id for variant in VARIANTS])
def test_a_variant_is_counted_through_its_own_rules_and_counting(variant):
    table = {(profile.lengths, profile.hcp, profile.weighed): profile
             for profile in profiles(variant.rules, variant.counting)}
    counted = exact_statistics(variant.rules, variant.counting)
    assert sum(count for _, count in counted.by_bid) == ALL_HANDS
    assert exact_statistics(variant.rules, variant.counting) is counted
    for seed in range(150):
        hand = str(random_hand(seed))
        advice = explain(hand, variant.rules, variant.counting)
        profile = profile_of(table, hand)
        assert (profile.bid, profile.rule.id) == (advice.bid, advice.rule), hand


# Against a seeded sample of a million hands ---------------------------------------------

@pytest.fixture(scope="module")
def sample():
    return statistics(1_000_000, SAMPLE_SEED)


@pytest.mark.slow
@SWEEP
@pytest.mark.parametrize("table", ["by_bid", "by_rule", "overlaps"])
def test_a_million_sampled_hands_agree_within_4_standard_errors(sample, table):
    exact = {row[:-1]: row[-1] for row in getattr(EXACT, table)}
    sampled = {row[:-1]: row[-1] for row in getattr(sample, table)}
    assert set(sampled) <= set(exact)
    for key, count in exact.items():
        share = count / ALL_HANDS
        expected = sample.hands * share
        error = sqrt(sample.hands * share * (1 - share))
        assert abs(sampled.get(key, 0) - expected) <= 4 * error, key


@pytest.mark.slow
@SWEEP
def test_sampled_hcp_agree_within_4_standard_errors(sample):
    by_hcp = [sum(column) for column in zip(*(counts for _, counts in sample.hcp_by_bid))]
    for hcp, count in enumerate(EXACT.by_hcp):
        share = count / ALL_HANDS
        error = sqrt(sample.hands * share * (1 - share))
        assert abs(by_hcp[hcp] - sample.hands * share) <= 4 * error, hcp


# The value -----------------------------------------------------------------------------

def test_exact_statistics_are_a_frozen_value_of_tuples():
    assert isinstance(EXACT, ExactStatistics)
    with pytest.raises(dataclasses.FrozenInstanceError):
        EXACT.hands = 1
    assert all(isinstance(getattr(EXACT, field.name), (int, tuple))
               for field in dataclasses.fields(EXACT))


def test_shares_and_fractions():
    assert EXACT.share(ALL_HANDS // 4) == 25.0
    assert EXACT.fraction(dict(EXACT.by_pattern)["13-0-0-0"]) == Fraction(4, ALL_HANDS)


def test_to_dict_gives_integer_counts_as_json():
    data = json.loads(json.dumps(EXACT.to_dict()))
    assert data["hands"] == ALL_HANDS
    assert data["by_bid"][0] == {"bid": "1C", "count": dict(EXACT.by_bid)["1C"]}
    assert data["by_hcp"][37] == {"hcp": 37, "count": 4}
    assert data["by_pattern"][0] == {"pattern": "4-4-3-2", "count": 136_852_887_600}
    one_nt = next(row for row in data["hcp_by_bid"] if row["bid"] == "1NT")
    assert (one_nt["low"], one_nt["high"]) == (16, 18)
    assert sum(one_nt["hcp_counts"]) == dict(EXACT.by_bid)["1NT"]
    assert isinstance(one_nt["hcp_sum"], int)
    assert {"fired": "R3", "shadowed": "R4", "count": dict(
        ((f, s), c) for f, s, c in EXACT.overlaps)["R3", "R4"]} in data["overlaps"]


@pytest.mark.parametrize("variant_id", ["hcp.J=0", "hcp.A=3", "hcp.T=1"])
def test_holdings_on_another_scale_match_every_subset_counted_one_by_one(variant_id):
    from bidder.exact import holding_counts
    from bidder.misreadings import variant_by_id

    counting = variant_by_id(variant_id).counting
    holdings = holding_counts(counting.scale)
    counted = [[0] * len(holdings[0]) for _ in range(len(Rank) + 1)]
    for size in range(len(Rank) + 1):
        for held in combinations(DECK[:len(Rank)], size):
            counted[size][sum(map(counting.card_hcp, held))] += 1
    assert [list(row) for row in holdings] == counted


def test_exact_statistics_on_another_scale_count_every_hand_by_its_hcp():
    from bidder.misreadings import variant_by_id

    counting = variant_by_id("hcp.J=0").counting
    counted = exact_statistics(RULES, counting)
    assert sum(counted.by_hcp) == ALL_HANDS
    # no card is worth 1 HCP now, and 36 (every ace, king and queen) is the most
    assert counted.by_hcp[1] == 0 and len(counted.by_hcp) == 36 + 1
    assert counted.by_hcp[36] == 40  # the twelve honours and any one of 40 other cards


# Hands two readings bid differently on ----------------------------------------------------

@pytest.mark.parametrize("first, second", [
    ("R1.hcp=15-18", "R1.hcp=16-17"), ("seven-or-more", "R7.len=7-9"),
    ("hcp.J=0", "hcp.A=3"), ("R6.choose=no-length-step+hcp.J=0", "R6.choose=no-length-step"),
    ("R6.choose=no-hcp-step", "R6.choose=higher-last"),
])
def test_hands_made_apart_are_bid_differently_by_the_two_readings(first, second):
    from bidder import packed
    from bidder.exact import hands_apart
    from bidder.misreadings import variant_by_id

    readings = variant_by_id(first), variant_by_id(second)
    hands = hands_apart(*readings)
    assert len(hands) == 2
    for cards in hands:
        assert len(set(cards)) == 13
        code = packed.encode_cards(cards)
        one, other = (reading.written(packed.decide(code, reading.rules, reading.counting)[1])
                      for reading in readings)
        assert one != other


@pytest.mark.slow
@SWEEP
def test_readings_that_bid_alike_everywhere_have_no_hand_apart():
    from bidder.exact import hands_apart
    from bidder.misreadings import variant_by_id

    assert hands_apart(variant_by_id("swap=R4/R6"), variant_by_id("swap=R5/R8")) == ()


@pytest.mark.parametrize("length", range(14))
def test_the_honours_a_suit_may_hold_are_worked_out_afresh_as_kept(length):
    from bidder.exact import _honours_held  # kept once filled, the first time while collecting

    honours = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
    scales = (STANDARD.scale, STANDARD.scale)
    found = _honours_held.__wrapped__(length, honours, scales)
    assert found == _honours_held(length, honours, scales)
    assert [held for held, _ in found] == [
        held for size in range(max(0, length - 9), min(length, 4) + 1)
        for held in combinations(honours, size)]
    points = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
    assert all(values == (sum(points[rank] for rank in held),) * 2 for held, values in found)
