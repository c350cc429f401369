"""Invariants that hold for every hand and every string (Hypothesis)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidder import (InvalidHandError, RULES, distributionPoints, explain, highCardPoints,
                    openingBid, parse_hand)
from bidder.cards import DECK, SEPARATORS, Hand, Suit
from bidder.cli.terminal import hand_picture

hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True).map(
    lambda cards: Hand(tuple(cards)))
any_character = st.characters(exclude_categories=())
any_text = st.text(any_character, max_size=60)
card_like_text = st.lists(
    st.sampled_from([str(card) for card in DECK] + ["10", "T", "1", "♠", "♥", "x", "",
                                                   ".", "AS.", "\x00", "\udc80", "ſ"]),
    max_size=16).flatmap(lambda tokens: st.sampled_from(list(SEPARATORS)).map(
        lambda separator: separator.join(tokens)))


@given(hands)
def test_exactly_one_rule_fires_and_it_is_the_first_that_applies(hand):
    advice = explain(hand)
    fired = [step for step in advice.trace if step.status == "fired"]
    assert len(fired) == 1 and fired[0].rule == advice.rule
    tally = advice.facts.tally
    position = [rule.id for rule in RULES].index(advice.rule)
    assert RULES[position].applies(tally)
    assert not any(rule.applies(tally) for rule in RULES[:position])


@given(hands)
def test_the_graded_functions_agree_with_explain(hand):
    advice = explain(hand)
    text = str(hand)
    assert openingBid(text) == advice.bid
    assert highCardPoints(text) == advice.facts.tally.hcp
    assert distributionPoints(text) == advice.facts.tally.distribution
    assert openingBid(hand.dotted) == advice.bid


@given(hands)
def test_the_bid_is_one_the_fired_rule_makes(hand):
    advice = explain(hand)
    assert advice.bid in advice.fired.bids


@given(hands)
def test_points_are_in_range_and_distribution_counts_length(hand):
    text = str(hand)
    assert 0 <= highCardPoints(text) <= 37
    lengths = [len(hand.in_suit(suit)) for suit in Suit]
    assert distributionPoints(text) == sum(max(0, length - 4) for length in lengths)


@given(hands)
def test_the_canonical_form_reads_back_to_the_same_hand(hand):
    assert parse_hand(str(hand)) == hand
    assert parse_hand(hand.dotted) == hand
    assert parse_hand(str(hand).lower().replace(" ", ", ")) == hand


@pytest.mark.slow
@settings(max_examples=500)
@given(st.one_of(any_text, card_like_text))
def test_parse_hand_returns_a_hand_or_raises_invalid_hand_error(text):
    try:
        hand = parse_hand(text)
    except InvalidHandError as error:
        assert error.message and len(error.message) <= 200
        assert error.message.isprintable()
    else:
        assert len(hand) == 13 and len(set(hand)) == 13


def as_printed(text: str, **colour) -> str:
    """The painter of `bidder bid` when it prints no colour."""
    return text


@given(hands, st.booleans())
def test_a_hand_written_suit_by_suit_as_the_app_prints_it_reads_back(hand, symbols):
    assert parse_hand(hand_picture(hand, as_printed, symbols)) == hand
