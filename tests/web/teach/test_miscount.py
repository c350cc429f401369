"""A wrong count of distribution points named by the misreading of the counting it fits:
points for short suits (instead of long ones, or as well), or from another length."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder import parse_hand
from bidder.cards import DECK, Hand
from bidder.facts import Facts
from bidder.misreadings import DIST_NAMES, variant_by_id
from bidder.web.teach.miscount import DIST_READINGS, miscounted

SHORT = DIST_NAMES["short"][1]
LONG_AND_SHORT = DIST_NAMES["long-and-short"][1]
BEYOND_3 = DIST_NAMES["beyond-3"][1]
BEYOND_5 = DIST_NAMES["beyond-5"][1]
# 4-5-3-1: 1 point by the assignment; short suits 2; both 3; beyond three 3; beyond five 0.
FIVE_HEARTS_SINGLETON = "AS KS 7S 2S AH 9H 8H 7H 6H 4D 3D 2D KC"
# 4-4-3-2: no point by the assignment; the doubleton 1 counted for shortness.
FLAT = "AS KS QS JS AH KH QH JH 4D 3D 2D KC QC"
# 7-3-3-0: 3 by the assignment; the void 3 (short), 6 both, 4 beyond three, 2 beyond five.
SEVEN_AND_VOID = "AS KS QS JS 9S 8S 7S AH KH QH AD KD QD"

hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True).map(
    lambda cards: Hand(tuple(cards)))


@pytest.mark.parametrize("hand, counted, sentences", [
    (FIVE_HEARTS_SINGLETON, 1, []),  # right
    (FIVE_HEARTS_SINGLETON, 0, [BEYOND_5]),
    (FIVE_HEARTS_SINGLETON, 2, [SHORT]),
    (FIVE_HEARTS_SINGLETON, 3, [LONG_AND_SHORT, BEYOND_3]),
    (FIVE_HEARTS_SINGLETON, 4, []),  # no reading gives 4
    (FLAT, 0, []),  # right
    (FLAT, 1, [SHORT, LONG_AND_SHORT]),
    (FLAT, 2, [BEYOND_3]),
    (SEVEN_AND_VOID, 3, []),  # right
    (SEVEN_AND_VOID, 2, [BEYOND_5]),
    (SEVEN_AND_VOID, 4, [BEYOND_3]),
    (SEVEN_AND_VOID, 6, [LONG_AND_SHORT]),
], ids=["5431-right", "5431-beyond-5", "5431-short", "5431-both", "5431-none",
        "4432-right", "4432-short", "4432-beyond-3", "7330-right", "7330-beyond-5",
        "7330-beyond-3", "7330-both"])
def test_a_wrong_count_names_the_readings_that_give_it_shortness_first(hand, counted,
                                                                       sentences):
    said = miscounted(parse_hand(hand), counted)
    named = [sentence for sentence in DIST_NAMES.values() if sentence[1] in said]
    assert sorted(sentence for _, sentence in named) == sorted(sentences)
    if sentences:
        assert said.index(sentences[0]) == said.index("misreading of the counting: ") + 28


def test_the_feedback_counts_the_hand_both_ways_in_the_countings_words():
    said = miscounted(parse_hand(FIVE_HEARTS_SINGLETON), 2)
    assert said == (
        "Your 2 fits a misreading of the counting: Distribution points are counted for "
        "short suits (void 3, singleton 2, doubleton 1) instead of long ones. Counted that "
        "way: 2 distribution points: clubs 1 card: 2 (void 3, singleton 2, doubleton 1). "
        "By the assignment: 1 distribution point: hearts 5 cards: 1 (1 per card beyond 4).")


def test_the_readings_are_the_misreadings_of_the_counting_shortness_first():
    assert [reading.id for reading in DIST_READINGS] == [
        "dist=short", "dist=long-and-short", "dist=beyond-3", "dist=beyond-5",
        "dist=longest-only"]
    assert {reading.id for reading in DIST_READINGS} == {
        variant_by_id(f"dist={name}").id for name in DIST_NAMES}


@given(hands)
def test_a_right_count_is_never_called_a_misreading(hand):
    assert miscounted(hand, Facts(hand).tally.distribution) == ""


@given(hands)
def test_a_count_for_short_suits_is_named_whenever_it_differs(hand):
    short = Facts(hand, DIST_READINGS[0].counting).tally.distribution
    said = miscounted(hand, short)
    assert (SHORT in said) is (short != Facts(hand).tally.distribution)
