"""The explanation in one sentence, as a teacher says it: every rule, every step of the
suit choice, every kind of reason for no bid, and the invariants behind them."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder import RULES, explain
from bidder.advice import NEAR_MISS_GAP
from bidder.cards import DECK, Hand, Suit
from bidder.facts import Tally
from bidder.rules import CHOOSERS, MAJORS, Balanced, Between, LongSuit, only_suit
from bidder.variants import VARIANT_BY_ID
from bidder.wording import (SUIT_CHOICES, and_joined, lacked, listed, no_suit, said,
                            suit_cards)
from helpers import suit_holding

hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True).map(
    lambda cards: Hand(tuple(cards)))


@pytest.mark.parametrize("hand, rule, sentence", [
    ("AKQ2.K32.A32.432", "R1",
     "Open 1NT: a balanced hand (4-3-3-3) and 16 HCP (16-18 needed)."),
    ("AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H", "R1",
     "Open 1NT: a balanced hand (3-2-3-5) and 16 HCP (16-18 needed)."),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "R2",
     "Open 1H: 17 points (13-21 needed) and 5 hearts (5+ needed)."),
    ("AKJ32.Q65432.2.2", "R2", "Open 1H: 13 points (13-21 needed), 5+ cards in spades and "
                               "hearts, and hearts (6) are longer than spades (5)."),
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", "R2",
     "Open 1S: 14 points (13-21 needed), 5+ cards in spades and hearts, and spades and "
     "hearts are equally long (5 each), so the higher-ranking, spades."),
    ("A32.Q32.KJ65432.", "R3", "Open 1D: 13 points (13-21 needed), no five-card major, and "
                               "diamonds (7) are longer than clubs (0)."),
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "R3",
     "Open 1C: 13 points (13-21 needed), no five-card major, and clubs (5) are longer than "
     "diamonds (3)."),
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "R3",
     "Open 1C: 19 points (13-21 needed), no five-card major, and diamonds and clubs are "
     "equally long (4 each), so the lower-ranking, clubs."),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "R5",
     "Open 2NT: a balanced hand (3-2-3-5) and 21 HCP (21-23 needed)."),
    ("AKQJ2.AK2.AK2.32", "R6", "Open 2S: 25 points (22+ needed) and 5 spades (5+ needed)."),
    ("KQ76543.32.32.32", "R7", "Open 3S: 5 HCP (5-9 needed) and 7 spades (exactly 7 needed)."),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "R8",
     "Open 4S: 8 HCP (6-10 needed) and 8 spades (exactly 8 needed)."),
])
def test_each_rule_is_said_with_this_hands_numbers_and_suits(hand, rule, sentence):
    advice = explain(hand)
    assert advice.rule == rule
    assert advice.explanation == sentence


@pytest.mark.parametrize("hand, bid, settled_by", [
    # one major, one minor: only the major-over-minor step is said
    ("AKQ32.2.AKQ32.A2", "2S", "5+ cards in spades and diamonds, and the major beats the minor."),
    # two majors, more HCP in spades: only the HCP are said, not the lengths
    ("AKQ32.A5432.AK.2", "2S",
     "5+ cards in spades and hearts, and spades hold more HCP: 9 against hearts' 4."),
    ("A5432.AKQ32.AK.2", "2H",
     "5+ cards in spades and hearts, and hearts hold more HCP: 9 against spades' 4."),
    # equal HCP: the lengths settle it
    ("AK432.AK5432.AK.", "2H", "5+ cards in spades and hearts, and hearts (6) are longer than "
                               "spades (5), with equal HCP (7 each)."),
    # a full tie: the lower-ranking suit
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", "2H",
     "5+ cards in spades and hearts, and spades and hearts tie in HCP (7 each) and length "
     "(5 each), so the lower-ranking, hearts."),
])
def test_r6_says_only_the_step_that_chose_between_two_long_suits(hand, bid, settled_by):
    advice = explain(hand)
    assert (advice.rule, advice.bid) == ("R6", bid)
    assert advice.explanation.endswith(settled_by)
    steps = ("major beats", "more HCP", "longer than", "tie in")
    assert [step in advice.explanation for step in steps].count(True) == 1


@pytest.mark.parametrize("hand, sentence", [
    ("5432.5432.432.32", "No bid: 0 points, fewer than the 13 that R2 and R3 need, and no "
                         "suit of exactly 7 or exactly 8 cards, which R7 and R8 need."),
    # a 7-card suit with too few HCP: the HCP are the reason, not the suit
    ("8765432.32.32.32", "No bid: 3 points, fewer than the 13 that R2 and R3 need, and 0 HCP, "
                         "fewer than the 5 that R7 needs."),
    # an 8-card suit with 5 HCP: R7 wants exactly 7 cards, R8 6 HCP
    ("KQ765432.32.32.2", "No bid: 9 points, fewer than the 13 that R2 and R3 need; no suit "
                         "of exactly 7 cards, which R7 needs; and 5 HCP, fewer than the 6 "
                         "that R8 needs. Closest: 1 card in spades too many for 3 of a suit "
                         "(R7); 1 HCP short of 4 of a suit (R8)."),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C",
     "No bid: an unbalanced hand (4-4-4-1), where R1 and R5 need a balanced hand; 22 points, "
     "more than the 21 that R2 and R3 allow; and no five-card suit, which R6 needs. Closest: "
     "1 point too many for 1 of a minor (R3); only the shape keeps it from 2NT (R5); 1 card "
     "in spades short of 2 of a suit (R6)."),
    # balanced and too strong for 2NT: more than 23 HCP says more than 21 points too
    ("AKQJ.AKQ.AKQ.AKQ", "No bid: 37 HCP, more than the 23 that R5 allows, and no five-card "
                         "suit, which R6 needs."),
])
def test_no_bid_says_what_keeps_each_rule_out_in_few_clauses(hand, sentence):
    assert explain(hand).explanation == sentence


@pytest.mark.parametrize("variant, hand, rule, sentence", [
    ("balanced-first", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "R4",
     "Open 1D: a balanced hand (2-3-4-4), 19 HCP (19-20 needed), and diamonds and clubs are "
     "equally long (4 each), so diamonds."),
    ("balanced-first", "AKQ.K32.A32.KJ32", "R4",
     "Open 1C: a balanced hand (3-3-3-4), 20 HCP (19-20 needed), and clubs (4) are longer "
     "than diamonds (3)."),
    ("two-suiter-any-strength", "QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", "R6b",
     "Open 2H: 5+ cards in spades and hearts, and spades and hearts tie in HCP (3 each) and "
     "length (5 each), so the lower-ranking, hearts."),
    ("two-suiter-any-strength", "5432.5432.432.32", "R9",
     "No bid: 0 points, fewer than the 13 that R2 and R3 need; not two five-card suits, "
     "which R6b needs; and no suit of exactly 7 or exactly 8 cards, which R7 and R8 need."),
    ("r3-unbalanced-only", "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "R3",
     "Open 1C: 13 points (13-21 needed), an unbalanced hand (1-4-3-5), and clubs (5) are "
     "longer than diamonds (3)."),
    ("equal-minors-diamonds", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "R3",
     "Open 1D: 19 points (13-21 needed), no five-card major, and diamonds and clubs are "
     "equally long (4 each), so the higher-ranking, diamonds."),
])
def test_a_misread_rule_table_is_said_by_its_own_conditions(variant, hand, rule, sentence):
    variant = VARIANT_BY_ID[variant]
    advice = explain(hand, variant.rules, variant.counting)
    assert advice.rule == rule
    assert advice.explanation == sentence


@pytest.mark.parametrize("condition, lengths, hcp, met, missed", [
    (Between("hcp", 16, 18), (3, 3, 3, 4), 15, "15 HCP (16-18 needed)", "not 16-18 HCP"),
    (Between("points", 22), (3, 3, 3, 4), 22, "22 points (22+ needed)", "not 22+ points"),
    (Balanced(), (3, 3, 3, 4), 10, "a balanced hand (4-3-3-3)", "a balanced hand (4-3-3-3)"),
    (Balanced(wanted=False), (1, 4, 4, 4), 10, "an unbalanced hand (4-4-4-1)",
     "an unbalanced hand (4-4-4-1)"),
    (LongSuit(MAJORS, 5), (3, 3, 2, 5), 10, "5 spades (5+ needed)", "no five-card major"),
    (LongSuit(tuple(Suit), 7, 7), (7, 2, 2, 2), 10, "7 clubs (exactly 7 needed)",
     "no suit of exactly 7 cards"),
    (LongSuit((Suit.CLUBS, Suit.HEARTS), 5, 6), (5, 3, 5, 0), 10, "5-6 cards in hearts and clubs",
     "no suit in clubs or hearts of 5-6 cards"),
    (LongSuit(tuple(Suit), 5, count=2), (5, 3, 5, 0), 10, "5+ cards in hearts and clubs",
     "not two five-card suits"),
])
def test_a_condition_met_and_missed_in_words(condition, lengths, hcp, met, missed):
    tally = Tally(lengths, hcp)
    assert said(condition, tally) == met
    assert lacked(condition, tally) == missed


def test_long_suit_conditions_of_one_kind_are_said_together():
    assert no_suit([LongSuit(tuple(Suit), 7, 7), LongSuit(tuple(Suit), 8, 8)]) == (
        "no suit of exactly 7 or exactly 8 cards")
    assert no_suit([LongSuit(MAJORS, 5), LongSuit(MAJORS, 7, 7)]) == (
        "no major of 5+ or exactly 7 cards")


@pytest.mark.parametrize("items, separator, text", [
    (["a"], ",", "a"),
    (["a", "b"], ",", "a and b"),
    (["a and x", "b"], ",", "a and x, and b"),
    (["a", "b", "c"], ",", "a, b, and c"),
    (["a", "b"], ";", "a, and b"),
    (["a", "b", "c"], ";", "a; b; and c"),
])
def test_clauses_are_listed_as_a_sentence_lists_them(items, separator, text):
    assert listed(items, separator) == text


def test_names_and_cards_in_words():
    assert [and_joined(names) for names in (["R6"], ["R2", "R3"], ["R6", "R7", "R8"])] == [
        "R6", "R2 and R3", "R6, R7 and R8"]
    assert [suit_cards(count, Suit.HEARTS) for count in (0, 1, 6)] == [
        "no hearts", "1 heart", "6 hearts"]


def test_every_chooser_that_can_see_two_suits_is_said():
    assert set(SUIT_CHOICES) == {rule.choose for rule in RULES if rule.choose} - {only_suit}
    assert set(SUIT_CHOICES) < set(CHOOSERS)  # the others, a misreading's, say its reading
    for rule in RULES:
        if rule.choose is only_suit:
            (long_suit,) = [condition for condition in rule.conditions
                            if isinstance(condition, LongSuit)]
            assert 2 * long_suit.low > 13  # 13 cards hold one such suit at most


def same_profile(hand: Hand) -> Hand:
    """Another hand with the same suit lengths and the same HCP in each suit, its honours
    as few as will do and its small cards the highest."""
    from bidder import parse_hand
    from bidder.facts import Facts

    facts = Facts(hand)
    return parse_hand(" ".join(
        label + suit.letter for suit in Suit
        for label in suit_holding(len(hand.in_suit(suit)), facts.suit_hcp(suit))))


@given(hands)
def test_the_explanation_depends_on_the_hands_profile_only(hand):
    advice, twin = explain(hand), explain(same_profile(hand))
    assert [twin.facts.suit_hcp(suit) for suit in Suit] == [
        advice.facts.suit_hcp(suit) for suit in Suit]
    assert twin.facts.tally == advice.facts.tally
    assert (twin.explanation, twin.notes, twin.near_misses) == (
        advice.explanation, advice.notes, advice.near_misses)


@given(hands)
def test_every_number_said_is_the_hands_or_the_rule_tables(hand):
    advice = explain(hand)
    tally, facts = advice.facts.tally, advice.facts
    allowed = ({tally.hcp, tally.points, *tally.lengths, *map(facts.suit_hcp, Suit),
                *range(NEAR_MISS_GAP + 1)}
               | {bound for rule in RULES for condition in rule.conditions
                  if not isinstance(condition, Balanced)
                  for bound in (condition.low, condition.high)})
    text = advice.explanation
    for name in sorted((rule.name for rule in RULES), key=len, reverse=True):
        text = text.replace(f"{name} (", "(")  # a near miss names its rule
    text = re.sub(r"\b[1-7](NT|[CDHS])\b|\bR\d\b", "", text)
    assert {int(number) for number in re.findall(r"\d+", text)} <= allowed


@given(hands)
def test_the_explanation_opens_with_the_bid(hand):
    advice = explain(hand)
    start = "No bid: " if advice.bid is None else f"Open {advice.bid}: "
    assert advice.explanation.startswith(start) and advice.explanation.endswith(".")
    if advice.bid is not None and advice.fired.suits:
        suit = next(suit for suit in Suit if suit.letter == advice.bid[-1])
        assert suit.word in advice.explanation
