"""The packed engine: one integer per hand, decided and counted as explain() does."""

from collections import Counter

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


@pytest.mark.slow
@given(hands())
def test_a_code_holds_what_explain_computes(cards):
    text = " ".join(map(str, cards))
    code = packed.encode(text)
    advice = explain(text)
    assert code == packed.encode_cards(cards) == packed.encode_cards(parse_hand(text))
    assert packed.text(code) == str(parse_hand(text))
    assert packed.hcp(code) == packed.encode_hcp(text) == advice.facts.tally.hcp
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


@given(st.lists(hands(), max_size=12))
def test_profiles_counted_are_decided_as_their_hands_are(deals):
    codes = [packed.encode_cards(cards) for cards in deals]
    codes += [packed.encode(STRONG_TWO_SUITER)] * 2  # a bid the suits' HCP settle
    expected = Counter((*packed.decide(code), packed.tally(code)) for code in codes)
    assert packed.decide_profiles(Counter(map(packed.profile, codes))) == expected


def test_a_deal_is_coded_by_the_places_of_its_cards():
    indexes = [DECK.index(card) for card in parse_hand(EXAMPLE_HAND)]
    assert packed.encode_deal(indexes) == packed.encode(EXAMPLE_HAND)


def test_decide_many_decides_each_by_the_table_given():
    codes = [packed.encode(EXAMPLE_HAND), packed.encode(STRONG_TWO_SUITER)]
    assert [bid for _, bid in packed.decide_many(codes)] == ["1C", "2H"]
    without_r3 = tuple(rule for rule in RULES if rule.id != "R3")
    assert [(rule.id, bid) for rule, bid in packed.decide_many(codes, without_r3)] == [
        ("R9", None), ("R6", "2H")]


# read(): every common notation, and only text the parser reads as the same 13 cards.

SAMPLE = parse_hand(EXAMPLE_HAND)
TEN_AS_T = EXAMPLE_HAND.replace("10", "T")


@pytest.mark.parametrize("text", [
    EXAMPLE_HAND,
    EXAMPLE_HAND.lower(),
    TEN_AS_T,
    TEN_AS_T.lower(),
    EXAMPLE_HAND.replace(" ", ", "),
    EXAMPLE_HAND.replace(" ", ","),
    EXAMPLE_HAND.replace(" ", "\t"),
    "  " + EXAMPLE_HAND.replace(" ", "  \n") + " ,",
    EXAMPLE_HAND.translate(str.maketrans("CDHS", "♣♦♥♠")),
    "5♣ 7h AS jd 9D 2c Kh th 4C 8♥ 8c aD 10♣",
    SAMPLE.dotted,
    SAMPLE.dotted.lower(),
    SAMPLE.dotted.replace("T", "10"),
    " " + SAMPLE.dotted + "\n",
], ids=["assignment", "lower", "T", "T-lower", "comma-space", "comma", "tab", "blanks",
        "symbols", "mixed", "dotted", "dotted-lower", "dotted-10", "dotted-blanks"])
def test_read_takes_every_common_notation(text):
    assert packed.read(text) == packed.encode(EXAMPLE_HAND)
    assert parse_hand(text) == SAMPLE


@pytest.mark.parametrize("text", [
    None, 13, b"AS",
    EXAMPLE_HAND.rsplit(" ", 1)[0],                  # twelve cards
    EXAMPLE_HAND + " 2D",                            # fourteen
    EXAMPLE_HAND.replace("7H", "5C"),                # a card twice
    EXAMPLE_HAND.replace("7H", "7h").replace("8C", "5c"),  # twice, in two cases
    EXAMPLE_HAND.replace(" ", "\u00a0"),             # a blank the parser refuses
    EXAMPLE_HAND.replace(" ", " \x0b"),
    EXAMPLE_HAND.replace("AS", "A♠\ufe0f"),          # emoji form: the parser's to read
    EXAMPLE_HAND.replace("AS", "1S"),
    EXAMPLE_HAND.replace("AS", "SA"),
    EXAMPLE_HAND + " " * 200,                        # longer than the parser allows
    SAMPLE.dotted[:-1],                              # twelve cards
    SAMPLE.dotted + "2",                             # fourteen
    "AA.T87.AJ9.T8542",                              # a card twice
    SAMPLE.dotted + ".",                             # five suits
    SAMPLE.dotted.replace(".", ". ", 1),             # a blank inside
    SAMPLE.dotted.replace("T", "1"),
    "♠ A 4 ♥ K 10 8 7 ♦ A J 9 ♣ 10 8 5 4 2",       # suit by suit: the parser's to read
])
def test_read_leaves_everything_else_to_the_parser(text):
    assert packed.read(text) is None


def spelled(cards, rng):
    """The cards written as someone might: any case, T or 10, letters or symbols."""
    words = []
    for card in cards:
        rank = str(card)[:-1]
        rank = rng.choice(["T", "t", "10"]) if rank == "10" else rng.choice([rank, rank.lower()])
        suit = rng.choice([card.suit.letter, card.suit.letter.lower(), card.suit.symbol])
        words.append(rank + suit)
    return words


@pytest.mark.slow
@given(hands(), st.randoms(use_true_random=False),
       st.lists(st.sampled_from([" ", ",", ", ", "\t", "\n", "  "]), min_size=12,
                max_size=12))
def test_read_agrees_with_the_parser(cards, rng, gaps):
    words = spelled(cards, rng)
    text = words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:]))
    code = packed.encode_cards(cards)
    assert packed.encode_cards(parse_hand(text)) == code
    assert packed.read(text) == code
    dotted = parse_hand(text).dotted
    assert packed.read(rng.choice([dotted, dotted.lower()])) == code


@given(hands())
def test_the_bid_of_a_text_is_the_bid_of_its_code(cards):
    text = " ".join(map(str, cards))
    code = packed.encode(text)
    assert packed.bid_of_text(text) == packed.bid(code) == packed.decide(code)[1]
    assert packed.bid_of_text(text.lower()) == packed.bid(code)


def test_bid_of_text_says_when_the_parser_must_read():
    assert packed.bid_of_text("AS KS") is packed.UNREAD
    assert packed.bid_of_text(None) is packed.UNREAD


def test_a_tie_the_suits_hcp_settle_is_decided_each_time():
    code = packed.encode(STRONG_TWO_SUITER)
    weak_hearts = packed.encode("AS KS QS 4S 3S QH JH 6H 5H 2H AD KD KC")
    assert [packed.bid(code), packed.bid(code), packed.bid(weak_hearts)] == ["2H", "2H", "2S"]
    assert packed.bid_of_text(STRONG_TWO_SUITER) == "2H"


@given(hands())
def test_cards_and_holdings_come_back_in_canonical_order(cards):
    code = packed.encode_cards(cards)
    hand = parse_hand(" ".join(map(str, cards)))
    assert packed.cards(code) == hand.cards
    assert [list(texts) for texts, _, _, _ in packed.holdings(code)] == [
        [str(card) for card in hand.in_suit(suit)] for suit in reversed(Suit)]
    assert [honour for _, honours, _, _ in packed.holdings(code) for honour in honours] == [
        (str(card), points) for card, points in explain(hand).facts.honours]
    assert [hcp for _, _, hcp, _ in packed.holdings(code)] == [
        packed.suit_hcp(code, suit) for suit in reversed(Suit)]
    assert [line for _, _, _, line in packed.holdings(code)] == [
        " ".join(map(str, hand.in_suit(suit))) for suit in reversed(Suit)]


