"""Near misses are true: the one change a near miss names, made to a real hand of cards,
makes that rule the first to apply."""

import re
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder import RULES, explain
from bidder.advice import is_possible, possible_tallies, remedy
from bidder.cards import DECK, Hand, Suit
from bidder.facts import Tally
from bidder.rules import Balanced, Between, LongSuit
from helpers import hand_with

ALL_SHAPES = [shape for shape in product(range(14), repeat=4) if sum(shape) == 13]
MEASURE = re.compile(r"(\d+) (HCP|points?) (short of|too many for) .+ \((R\d)\)")
CARDS = re.compile(r"(\d+) cards? in (\w+) (short of|too many for) .+ \((R\d)\)")
SHAPE = re.compile(r"only the shape keeps it from .+ \((R\d)\)")

random_hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13,
                        unique=True).map(lambda cards: Hand(tuple(cards)))
# Hands of any shape and strength, oftener long-suited and strong than dealt hands.
shaped_hands = st.tuples(st.sampled_from(ALL_SHAPES), st.integers(0, 37)).map(
    lambda wanted: hand_with(*wanted)).filter(lambda hand: hand is not None)


def rule_of(lengths, hcp) -> str | None:
    """The rule that decides a real hand with these lengths and HCP; None if no hand
    has them."""
    hand = hand_with(lengths, hcp)
    return None if hand is None else explain(hand).rule


def changed_hands_decided(miss: str, lengths: tuple[int, ...], hcp: int) -> set[str | None]:
    """The rules that decide real hands changed as *miss* says, and only so."""
    if match := MEASURE.fullmatch(miss):
        amount, _, direction, _ = match.groups()
        sign = 1 if direction == "short of" else -1
        return {rule_of(lengths, hcp + sign * int(amount))}
    if match := CARDS.fullmatch(miss):
        amount, word, direction, _ = match.groups()
        suit = next(suit for suit in Suit if suit.word == word)
        sign = 1 if direction == "short of" else -1
        wanted = lengths[suit] + sign * int(amount)
        return {rule_of(shape, hcp) for shape in ALL_SHAPES if shape[suit] == wanted
                and all((shape[other] - lengths[other]) * sign <= 0
                        for other in Suit if other != suit)}
    assert SHAPE.fullmatch(miss), miss
    balanced = [shape for shape in ALL_SHAPES if hand_with(shape, hcp) is not None
                and explain(hand_with(shape, hcp)).facts.tally.balanced]
    return {rule_of(shape, hcp) for shape in balanced}


def missed_rule(miss: str) -> str:
    return re.search(r"\((R\d)\)$", miss).group(1)


@pytest.mark.slow
@given(st.one_of(random_hands, shaped_hands))
def test_every_near_miss_names_a_change_that_makes_its_rule_first(hand):
    advice = explain(hand)
    lengths = tuple(len(hand.in_suit(suit)) for suit in Suit)
    for miss in advice.near_misses:
        assert missed_rule(miss) in changed_hands_decided(miss, lengths, advice.facts.tally.hcp), miss


@pytest.mark.parametrize("hand, near_misses", [
    # 10 HCP and six clubs: with eight clubs it has 14 points and opens 1C by R3, not 4C.
    ("KS 7S 2S 3H 2H JD 7D AC QC 9C 7C 6C 4C", ("1 point short of 1 of a minor (R3)",)),
    # 8 HCP and six clubs: with seven or eight clubs it pre-empts, at 11 or 12 points.
    ("KS 7S 2S 3H 2H JD 7D AC 9C 7C 6C 4C 3C", ("1 card in clubs short of 3 of a suit (R7)",
                                                 "2 cards in clubs short of 4 of a suit (R8)")),
    # A nine-card suit: one card fewer opens 4S; two HCP more open 1S (13 points).
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", (
        "1 card in spades too many for 4 of a suit (R8)", "2 points short of 1 of a major (R2)",
        "2 cards in spades too many for 3 of a suit (R7)")),
])
def test_near_misses_that_would_not_open_by_their_rule_are_left_out(hand, near_misses):
    assert explain(hand).near_misses == near_misses


def test_a_near_miss_is_changed_in_what_its_condition_reads_only():
    tally = explain("KS 7S 2S 3H 2H JD 7D AC 9C 7C 6C 4C 3C").facts.tally
    r8 = RULES[7]
    changed = remedy(r8, r8.conditions[1], tally)
    assert changed.hcp == tally.hcp and changed.length(Suit.CLUBS) == 8
    assert all(changed.length(suit) <= tally.length(suit) for suit in Suit if suit != Suit.CLUBS)
    assert remedy(r8, r8.conditions[1],
                  explain("KS 7S 2S 3H 2H JD 7D AC QC 9C 7C 6C 4C").facts.tally) is None


@pytest.mark.parametrize("condition, lengths, hcp, met", [
    (Between("hcp", 16, 18), (4, 3, 3, 3), 15, [((4, 3, 3, 3), 16)]),
    (Between("hcp", 16, 18), (4, 3, 3, 3), 19, [((4, 3, 3, 3), 18)]),
    (Between("points", 22), (5, 3, 3, 2), 20, [((5, 3, 3, 2), 21)]),
    (Between("points", 13, 21), (6, 3, 2, 2), 20, [((6, 3, 2, 2), 19)]),
    (LongSuit(tuple(Suit), 8, 8), (6, 3, 2, 2), 8,
     [((8, 1, 2, 2), 8), ((8, 2, 1, 2), 8), ((8, 2, 2, 1), 8), ((8, 3, 0, 2), 8),
      ((8, 3, 1, 1), 8), ((8, 3, 2, 0), 8)]),
    (LongSuit(tuple(Suit), 7, 7), (0, 0, 4, 9), 6,
     [((0, 0, 6, 7), 6), ((0, 1, 5, 7), 6), ((0, 2, 4, 7), 6), ((1, 0, 5, 7), 6),
      ((1, 1, 4, 7), 6), ((2, 0, 4, 7), 6)]),
])
def test_what_meets_a_condition_changes_only_what_it_reads(condition, lengths, hcp, met):
    assert [(changed.lengths, changed.hcp)
            for changed in condition.met(Tally(lengths, hcp))] == sorted(met)


def test_the_shapes_that_balance_a_hand_come_fewest_cards_moved_first():
    shapes = [changed.lengths for changed in Balanced().met(Tally((1, 4, 4, 4), 22))]
    assert shapes[:3] == [(2, 3, 4, 4), (2, 4, 3, 4), (2, 4, 4, 3)]
    assert len(shapes) == len(set(shapes)) == 4 + 12 + 6  # 4-3-3-3, 4-4-3-2, 5-3-3-2 minor
    assert all(Tally(shape, 22).balanced for shape in shapes)
    # One card moved from 4-3-3-3 still balances (4-4-3-2, or 5-3-3-2 in a minor); two
    # make a five-card major.
    unbalanced = Balanced(wanted=False).met(Tally((4, 3, 3, 3), 10))
    assert unbalanced[0].lengths == (2, 3, 3, 5) and not unbalanced[0].balanced


@pytest.mark.slow
def test_possible_tallies_are_the_ones_real_hands_have():
    tallies = {(tally.lengths, tally.hcp) for tally in possible_tallies()}
    for lengths in [(13, 0, 0, 0), (0, 4, 4, 5), (3, 3, 3, 4), (9, 2, 1, 1)]:
        for hcp in range(-1, 39):
            real = hand_with(lengths, hcp) is not None
            assert is_possible(Tally(lengths, hcp)) is real
            assert ((lengths, hcp) in tallies) is real
