"""The packed engine: one integer per hand, decided and counted as explain() does."""

import pytest
from hypothesis import given, strategies as st

from bidder import RULES, explain, packed, parse_hand
from bidder.cards import DECK, EXAMPLE_HAND, HAND_SIZE, Suit

STRONG_TWO_SUITER = "AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC"  # R6, two majors: 2H


@pytest.mark.parametrize("text, encoded", [
    (EXAMPLE_HAND, True),
    ("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", True),
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD", False),
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C 2D", False),
    ("5C 5C AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", False),
    ("5c 7h as jd 9d 2c kh 10h 4c 8h 8c ad 10c", False),
    ("5C  7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", False),
    (None, False),
    (13, False),
], ids=["assignment", "thirteen-spades", "twelve", "fourteen", "duplicate", "lower-case",
        "two-spaces", "none", "int"])
def test_encode_takes_only_the_assignments_own_notation(text, encoded):
    assert (packed.encode(text) is not None) is encoded
    assert (packed.encode_hcp(text) is not None) is encoded


def hands():
    return st.permutations(DECK).map(lambda deck: deck[:HAND_SIZE])


@given(hands())
def test_a_code_holds_what_explain_computes(cards):
    text = " ".join(map(str, cards))
    code = packed.encode(text)
    advice = explain(text)
    assert code == packed.encode_cards(cards) == packed.encode_cards(parse_hand(text))
    assert packed.text(code) == str(parse_hand(text))
    assert packed.hcp(code) == packed.encode_hcp(text) == advice.facts.hcp
    assert packed.tally(code) == advice.facts.tally
    assert [packed.suit_hcp(code, suit) for suit in Suit] == [
        advice.facts.suit_hcp(suit) for suit in Suit]
    rule, bid = packed.decide(code)
    assert (rule.id, bid) == (advice.rule, advice.bid)


def test_a_profile_decides_as_the_hand_does():
    code = packed.encode(STRONG_TWO_SUITER)
    bare = packed.from_profile(packed.profile(code))
    assert packed.decide(bare) == packed.decide(code)
    assert packed.decide(code)[1] == "2H"
    assert packed.text(bare) == ""


def test_a_deal_is_coded_by_the_places_of_its_cards():
    indexes = [DECK.index(card) for card in parse_hand(EXAMPLE_HAND)]
    assert packed.encode_deal(indexes) == packed.encode(EXAMPLE_HAND)


def test_decide_many_decides_each_by_the_table_given():
    codes = [packed.encode(EXAMPLE_HAND), packed.encode(STRONG_TWO_SUITER)]
    assert [bid for _, bid in packed.decide_many(codes)] == ["1C", "2H"]
    without_r3 = tuple(rule for rule in RULES if rule.id != "R3")
    assert [(rule.id, bid) for rule, bid in packed.decide_many(codes, without_r3)] == [
        ("R9", None), ("R6", "2H")]
