"""Bids: the one value type, its forms and order, and the strict and lenient parser."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder import RULES
from bidder.bids import BIDS, NO_BID, RULE_BIDS, Bid, BidError

ONE_CLUB, ONE_SPADE, ONE_NT = Bid(1, "C"), Bid(1, "S"), Bid(1, "NT")

# Students' answers: every spelling a class file may hold -> the bid it means.
ANSWERS = [
    ("1C", ONE_CLUB), ("1c", ONE_CLUB), ("1♣", ONE_CLUB), ("1 ♣", ONE_CLUB),
    ("2 h", Bid(2, "H")), ("1N", ONE_NT), ("1NT", ONE_NT), ("1nt", ONE_NT),
    ("1 NT", ONE_NT), ("1 No Trump", ONE_NT), ("1 notrump", ONE_NT),
    ("1 No Trumps", ONE_NT), ("1 no-trump", ONE_NT), ("2 Spades", Bid(2, "S")),
    ("1 club", ONE_CLUB), ("1 Clubs", ONE_CLUB), ("2 diamonds", Bid(2, "D")),
    ("3 hearts", Bid(3, "H")), ("'1C'", ONE_CLUB), ('"1C"', ONE_CLUB),
    (" ' 1C ' ", ONE_CLUB), ("\t1C\t", ONE_CLUB), ("2\th", Bid(2, "H")),
    ("１Ｃ", ONE_CLUB), ("１ｎｔ", ONE_NT), ("１　Ｃ", ONE_CLUB), ("1♠️", ONE_SPADE),
    ("1♠\ufe0f", ONE_SPADE), ("7NT", Bid(7, "NT")), ("5 diamonds", Bid(5, "D")),
    ("None", NO_BID), ("none", NO_BID), ("Pass", NO_BID), ("PASS", NO_BID),
    ("P", NO_BID), ("p", NO_BID), ("-", NO_BID), ("No bid", NO_BID),
    ("no  bid", NO_BID), ("nobid", NO_BID), ("'Pass'", NO_BID), ("－", NO_BID),
]


@pytest.mark.parametrize("text, bid", ANSWERS, ids=[repr(text) for text, _ in ANSWERS])
def test_an_answer_is_read_leniently(text, bid):
    assert Bid.parse(text, lenient=True) == bid


# What an answer may not be: (text, code, a part of the message that says why).
ACCEPTED_HINT = "write a level from 1 to 7, then a suit or NT, such as 1NT, 2H, 3♠"
NOT_ANSWERS = [
    ("1", "no_strain", "'1' is not a bid: add a suit or NT after the level, e.g. 1C or 1NT"),
    ("C", "no_level", "'C' is not a bid: put a level from 1 to 7 before the suit or NT"),
    ("NT", "no_level", "'NT' is not a bid: put a level from 1 to 7"),
    ("1X", "bad_strain", "'1X' is not a bid: 'X' is not a suit or NT; suits are C, D, H, S"),
    ("1CD", "bad_strain", "'CD' is not a suit or NT"),
    ("1 S S", "bad_strain", "'S S' is not a suit or NT"),
    ("1NT!", "bad_strain", "'NT!' is not a suit or NT"),
    ("8C", "bad_level", "'8C' is not a bid: the level is 1 to 7, not '8'"),
    ("0S", "bad_level", "the level is 1 to 7, not '0'"),
    ("01C", "bad_level", "the level is 1 to 7, not '01'"),
    ("9" * 5000 + "C", "bad_level", "not '9999999999999999999…'"),
    ("pas", "not_a_bid", f"'pas' is not a bid: {ACCEPTED_HINT}"),
    ("banana", "not_a_bid", f"'banana' is not a bid: {ACCEPTED_HINT}"),
    ("--", "not_a_bid", "'--' is not a bid"),
    ("'1C", "not_a_bid", "''1C' is not a bid"),
    ("'1C\"", "not_a_bid", "is not a bid"),
    ("''1C''", "not_a_bid", "is not a bid"),
    ("", "empty", f"'' is not a bid: it is empty; {ACCEPTED_HINT}"),
    ("  ", "empty", "'  ' is not a bid: it is empty"),
    ("''", "empty", "'''' is not a bid: it is empty"),
    ("1\u017f", "bad_character", "character U+017F (LATIN SMALL LETTER LONG S) is not "
                                 "allowed"),
    ("1\u212a", "bad_character", "U+212A (KELVIN SIGN)"),
    ("\u0661C", "bad_character", "U+0661 (ARABIC-INDIC DIGIT ONE)"),
    ("1\u00a0C", "bad_character", "U+00A0 (NO-BREAK SPACE)"),
    ("1♤", "bad_character", "U+2664 (WHITE SPADE SUIT)"),
    ("1C\ufe0f", "bad_character", "U+FE0F"),
    ("\x1b[31m", "bad_character", "'U+001B[31m' is not a bid: character U+001B is not"),
    ("1C\x00", "bad_character", "'1CU+0000' is not a bid"),
    ("x" * 50, "not_a_bid", "'" + "x" * 19 + "…' is not a bid"),
]


@pytest.mark.parametrize("text, code, message", NOT_ANSWERS,
                         ids=[f"{code}:{text[:12]!r}" for text, code, _ in NOT_ANSWERS])
def test_what_is_not_a_bid_is_refused_saying_why(text, code, message):
    with pytest.raises(BidError) as caught:
        Bid.parse(text, lenient=True)
    assert caught.value.code == code
    assert message in caught.value.message
    assert str(caught.value) == caught.value.message
    assert "\x1b" not in caught.value.message and "\x00" not in caught.value.message


# Links, forms and --bid: the text form, in either case, and only bids the rules make.
STRICT = [
    ("1S", ONE_SPADE), ("1s", ONE_SPADE), (" 1s ", ONE_SPADE), ("2NT", Bid(2, "NT")),
    ("2nt", Bid(2, "NT")), ("1N", ONE_NT), ("1n", ONE_NT), ("4C", Bid(4, "C")),
    ("None", NO_BID), ("none", NO_BID), ("Pass", NO_BID), ("pass", NO_BID),
    ("No bid", NO_BID), ("no  bid", NO_BID), ("nobid", NO_BID), ("-", NO_BID),
]


@pytest.mark.parametrize("text, bid", STRICT)
def test_a_link_or_option_is_read_strictly(text, bid):
    assert Bid.parse(text) == bid


CHOICES = ("choose one of 1C, 1D, 1H, 1S, 1NT, 2C, 2D, 2H, 2S, 2NT, 3C, 3D, 3H, 3S, "
           "4C, 4D, 4H, 4S, None")


@pytest.mark.parametrize("text", [
    "5S", "7NT", "3NT", "1X", "", "NT", "1", "P", "1♠", "1 NT", "1 spade", "'1S'", "１Ｓ",
    "1\u017f", "1\u212a", "x" * 50, "\x00",
], ids=repr)
def test_strict_reading_refuses_anything_else_listing_the_choices(text):
    with pytest.raises(BidError) as caught:
        Bid.parse(text)
    assert caught.value.code == "unknown_bid"
    assert caught.value.message.endswith(f"is not a bid the rules make: {CHOICES}")


@pytest.mark.parametrize("text, echoed", [
    ("\x00", "'U+0000'"), ("x" * 50, "'" + "x" * 19 + "…'"), ("7NT", "'7NT'"),
])
def test_strict_reading_echoes_the_input_safely(text, echoed):
    with pytest.raises(BidError) as caught:
        Bid.parse(text)
    assert caught.value.message.startswith(f"{echoed} is not a bid the rules make")


def test_a_bid_no_rule_makes_is_an_answer_but_not_a_choice():
    assert Bid.parse("3NT", lenient=True) == Bid(3, "NT")
    assert Bid(3, "NT") not in RULE_BIDS
    with pytest.raises(BidError, match="'3NT' is not a bid the rules make"):
        Bid.parse("3NT")


@pytest.mark.parametrize("lenient", [False, True])
@pytest.mark.parametrize("value", [None, 12, b"1S", ONE_SPADE])
def test_parse_takes_text_only(value, lenient):
    with pytest.raises(TypeError, match="a bid to read is a str such as '1S'"):
        Bid.parse(value, lenient=lenient)


# The forms -------------------------------------------------------------------------

FORMS = [  # bid, str, text, display, plain, suit word
    (ONE_CLUB, "1C", "1C", "1♣", "1C", "club"),
    (Bid(2, "D"), "2D", "2D", "2♦", "2D", "diamonds"),
    (Bid(1, "H"), "1H", "1H", "1♥", "1H", "heart"),
    (Bid(4, "S"), "4S", "4S", "4♠", "4S", "spades"),
    (Bid(2, "NT"), "2NT", "2NT", "2NT", "2NT", None),
    (NO_BID, "None", None, "No bid", "No bid", None),
]


@pytest.mark.parametrize("bid, text_form, value, display, plain, suit_word", FORMS,
                         ids=[form[1] for form in FORMS])
def test_each_bid_has_one_text_form_and_one_display_form(bid, text_form, value, display,
                                                         plain, suit_word):
    assert (str(bid), bid.text, bid.display, bid.plain, bid.suit_word) == (
        text_form, value, display, plain, suit_word)
    assert Bid.from_value(value) == bid


def test_no_bid_is_one_value_and_false():
    assert Bid.NONE is NO_BID == Bid() == Bid.from_value(None)
    assert not NO_BID and all(BIDS[:-1])
    assert NO_BID.suit is None and ONE_NT.suit is None and ONE_SPADE.suit.letter == "S"


@pytest.mark.parametrize("value", ["None", "1s", "1♠", "1N", "8C", ""])
def test_from_value_takes_only_what_the_graded_functions_return(value):
    with pytest.raises(BidError, match="is not a bid as openingBid gives it") as caught:
        Bid.from_value(value)
    assert caught.value.code == "not_a_value"


def test_from_value_refuses_what_is_not_text_or_none():
    with pytest.raises(TypeError, match="not int"):
        Bid.from_value(1)


@pytest.mark.parametrize("level, strain", [(8, "C"), (0, "C"), (1, ""), (1, "X"),
                                           (0, "NT"), (1, "c")])
def test_a_bid_is_a_level_1_to_7_and_a_strain(level, strain):
    with pytest.raises(ValueError, match="a bid is a level 1-7 and one of C, D, H, S, NT"):
        Bid(level, strain)


# Order, hashing, the sets ------------------------------------------------------------

def test_bids_go_in_bidding_order_with_no_bid_last():
    shuffled = list(BIDS)
    random.Random(4).shuffle(shuffled)
    assert sorted(shuffled) == list(BIDS)
    assert [str(bid) for bid in BIDS[:6]] == ["1C", "1D", "1H", "1S", "1NT", "2C"]
    assert Bid(1, "NT") < Bid(2, "C") < Bid(7, "NT") < NO_BID
    assert max(BIDS) is NO_BID and min(BIDS) == ONE_CLUB
    assert ONE_SPADE >= ONE_SPADE and not ONE_SPADE > ONE_SPADE


def test_bids_compare_only_with_bids():
    with pytest.raises(TypeError):
        ONE_CLUB < "1D"
    assert ONE_CLUB != "1C" and NO_BID != None  # noqa: E711


def test_bids_are_values():
    assert {Bid(1, "S"): "one spade"}[Bid.parse("1s")] == "one spade"
    assert len(set(BIDS) | {Bid(1, "C"), Bid()}) == len(BIDS) == 7 * 5 + 1
    with pytest.raises(AttributeError):
        ONE_CLUB.level = 2
    assert eval(repr(ONE_SPADE)) == ONE_SPADE


def test_the_bids_the_rules_make_come_from_the_rule_table():
    made = {value for rule in RULES for value in rule.bids}
    assert [bid.text for bid in RULE_BIDS] == sorted(
        made - {None}, key=lambda value: BIDS.index(Bid.from_value(value))) + [None]
    assert RULE_BIDS == tuple(sorted(RULE_BIDS))
    assert str(RULE_BIDS[-2]) == "4S" and RULE_BIDS[-1] is NO_BID


# Properties --------------------------------------------------------------------------

bids = st.sampled_from(BIDS)
FULL_WIDTH = {character: chr(ord(character) + 0xFEE0) for character in
              "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}


@given(bids)
def test_every_bid_reads_back_from_its_text_and_display_forms(bid):
    assert Bid.parse(str(bid), lenient=True) == bid
    assert Bid.parse(bid.display, lenient=True) == bid
    assert Bid.parse(bid.plain, lenient=True) == bid
    assert Bid.from_value(bid.text) == bid
    if bid in RULE_BIDS:
        assert Bid.parse(str(bid)) == bid
        assert Bid.parse(bid.plain) == bid


@given(bids, st.booleans(), st.sampled_from(["", " ", "\t", "  "]),
       st.sampled_from(["", "'", '"']), st.booleans())
def test_every_bid_reads_back_however_a_student_dresses_it(bid, upper, pad, quote, wide):
    text = str(bid).upper() if upper else str(bid).lower()
    if wide:
        text = "".join(FULL_WIDTH.get(character, character) for character in text)
    assert Bid.parse(f"{pad}{quote}{text}{quote}{pad}", lenient=True) == bid


@given(st.text(st.characters(exclude_categories=()), max_size=20), st.booleans())
def test_any_text_is_a_bid_or_a_bid_error(text, lenient):
    try:
        bid = Bid.parse(text, lenient=lenient)
    except BidError as error:
        assert error.message and error.code
    else:
        assert bid in BIDS and (lenient or bid in RULE_BIDS)
