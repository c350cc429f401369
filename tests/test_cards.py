"""The parser, the error messages and the card value types."""

import re

import pytest
from hypothesis import given, strategies as st

from bidder import Card, Hand, InvalidHandError, Rank, Suit, parse_hand
from bidder.cards import (DECK, MAX_INPUT_LENGTH, SUITS_HIGH_FIRST, describe_character,
                          echo, hand_problem, read_cards)

EXAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
CANONICAL = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
TWELVE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD"

VIEWER = "https://www.bridgebase.com/tools/handviewer.html"
COPIED_CHIPS = ("A♠ace of spades K♥king of hearts 10♥ten of hearts 8♥eight of hearts "
                "7♥seven of hearts A♦ace of diamonds J♦jack of diamonds 9♦nine of diamonds "
                "10♣ten of clubs 8♣eight of clubs 5♣five of clubs 4♣four of clubs "
                "2♣two of clubs")
COPIED_DIAGRAM = ("♠ Spades 1\nA♠ace of spades\n♥ Hearts 4\nK♥king of hearts\n"
                  "10♥ten of hearts\n8♥eight of hearts\n7♥seven of hearts\n♦ Diamonds 3\n"
                  "A♦ace of diamonds\nJ♦jack of diamonds\n9♦nine of diamonds\n♣ Clubs 5\n"
                  "10♣ten of clubs\n8♣eight of clubs\n5♣five of clubs\n4♣four of clubs\n"
                  "2♣two of clubs\n")
DEAL = "N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ 3.T9.765432.AJT9"

ACCEPTED = [
    pytest.param(EXAMPLE, id="the assignment's form"),
    pytest.param(CANONICAL, id="canonical order"),
    pytest.param(EXAMPLE.lower(), id="lower case"),
    pytest.param(EXAMPLE.replace("10", "T"), id="T for ten"),
    pytest.param(EXAMPLE.replace("10", "t").lower(), id="lower-case t for ten"),
    pytest.param(EXAMPLE.replace(" ", ", "), id="commas and spaces"),
    pytest.param(EXAMPLE.replace(" ", ","), id="commas alone"),
    pytest.param(EXAMPLE.replace(" ", "   "), id="several spaces"),
    pytest.param(EXAMPLE.replace(" ", "\t"), id="tabs"),
    pytest.param(f"  {EXAMPLE}\n", id="surrounding white space and a newline"),
    pytest.param(f"{EXAMPLE}\r\n", id="a CRLF line end"),
    pytest.param("A♠ K♥ 10♥ 8♥ 7♥ A♦ J♦ 9♦ 10♣ 8♣ 5♣ 4♣ 2♣", id="suit symbols"),
    pytest.param("A♠️ K♥️ 10♥ 8♥ 7♥ A♦ J♦ 9♦ 10♣ 8♣ 5♣ 4♣ 2♣", id="emoji suit symbols"),
    pytest.param("A.KT87.AJ9.T8542", id="dot notation"),
    pytest.param("a.kt87.aj9.t8542\n", id="dot notation, lower case, newline"),
    pytest.param("A.K1087.AJ9.108542", id="dot notation with 10"),
    pytest.param("As Kh 10h 8h 7h Ad Jd 9d 10c 8c 5c 4c 2c", id="mixed case"),
    pytest.param("♠ A ♥ K 10 8 7 ♦ A J 9 ♣ 10 8 5 4 2", id="suit by suit as the pages show it"),
    pytest.param("♠ A  ♥ K 10 8 7  ♦ A J 9  ♣ 10 8 5 4 2", id="suit by suit as bidder bid prints it"),
    pytest.param("♠️ A ♥️ K 10 8 7 ♦️ A J 9 ♣️ 10 8 5 4 2", id="suit by suit with emoji symbols"),
    pytest.param("♠A ♥KT87 ♦AJ9 ♣T8542", id="suit by suit, symbols against the ranks"),
    pytest.param("S: A H: K 10 8 7 D: A J 9 C: 10 8 5 4 2", id="suit letters with colons"),
    pytest.param("S A H KT87 D AJ9 C T8542", id="suit letters, ranks run together"),
    pytest.param("s: a h: kt87 d: aj9 c: t8542", id="suit letters in lower case"),
    pytest.param("S:A H:K1087 D:AJ9 C:108542", id="colons against the ranks"),
    pytest.param("C T8542 D AJ9 H KT87 S A", id="suit by suit, clubs first"),
    pytest.param("♦ A J 9 ♠ A ♣ 10 8 5 4 2 ♥ K 10 8 7", id="suit by suit in any order"),
    pytest.param("Spades: A, Hearts: K 10 8 7, Diamonds: A J 9, Clubs: 10 8 5 4 2",
                 id="suit words with colons and commas"),
    pytest.param("spades A hearts KT87 diamonds AJ9 clubs T8542", id="suit words, lower case"),
    pytest.param("♠ A\n♥ K 10 8 7\n♦ A J 9\n♣ 10 8 5 4 2\n", id="one suit a line"),
    pytest.param("  ♠ A ♥ K 10 8 7 ♦ A J 9 ♣ 10 8 5 4 2", id="suit by suit after spaces"),
    pytest.param(COPIED_CHIPS, id="cards copied with the screen reader's words"),
    pytest.param(COPIED_DIAGRAM, id="a hand diagram copied, headings and words"),
    pytest.param(COPIED_DIAGRAM.replace("\n", " "), id="a hand diagram copied on one line"),
    pytest.param(COPIED_DIAGRAM.replace("\n", "\n" + " " * 12), id="a diagram copied, indented"),
    pytest.param(f"'{EXAMPLE}'", id="a Python string"),
    pytest.param(f'"{EXAMPLE}"\n', id="a Python string in double quotes"),
    pytest.param(repr(EXAMPLE.split()), id="a Python list"),
    pytest.param(str(tuple(EXAMPLE.split())).replace("(", "[").replace(")", "]"),
                 id="a Python list, spaced"),
    pytest.param('["5C","7H","AS","JD","9D","2C","KH","10H","4C","8H","8C","AD","10C"]',
                 id="a JSON list"),
    pytest.param(EXAMPLE + ".", id="a closing full stop"),
    pytest.param(f"'{EXAMPLE}'.", id="a Python string and a full stop"),
    pytest.param(repr(EXAMPLE.split()) + ".\n", id="a Python list and a full stop"),
    pytest.param(EXAMPLE + ".\n", id="a closing full stop and a newline"),
    pytest.param("♠ A ♥ K 10 8 7 ♦ A J 9 ♣ 10 8 5 4 2.", id="suit by suit with a full stop"),
    pytest.param("N:A.KT87.AJ9.T8542", id="a PBN deal string of one hand"),
    pytest.param("E:- A.KT87.AJ9.T8542 - -", id="a PBN deal string, one hand given"),
    pytest.param('[Deal "N:A.KT87.AJ9.T8542 - - -"]', id="a PBN Deal tag of one hand"),
    pytest.param(VIEWER + "?n=sahkt87daj9ct8542&d=n", id="a hand-viewer link"),
    pytest.param(VIEWER + "?s=SAHK1087DAJ9C108542&d=s&b=1\n", id="a viewer link, 10s"),
    pytest.param("http://bridgebase.com/tools/handviewer.html?w=sahkt87daj9ct8542",
                 id="a viewer link without www"),
    pytest.param("A KT87 AJ9 T8542", id="suit groups split by spaces, spades first"),
    pytest.param("A,KT87,AJ9,T8542", id="suit groups split by commas"),
    pytest.param("A, K1087, AJ9, 108542", id="suit groups, commas and spaces, 10 for ten"),
    pytest.param("a kt87 aj9 t8542\n", id="suit groups, lower case, a newline"),
    pytest.param("A  KT87\tAJ9  T8542.", id="suit groups, tabs, several spaces, a full stop"),
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_every_accepted_notation_gives_the_same_hand(text):
    assert str(parse_hand(text)) == CANONICAL


SEVEN_SPADES = "AS KS QS JS 10S 9S 8S AD KD QD AC KC QC"


@pytest.mark.parametrize("text", [
    "♠ A K Q J 10 9 8 ♥ - ♦ A K Q ♣ A K Q",
    "♠ A K Q J 10 9 8 ♥ – ♦ A K Q ♣ A K Q",
    "♠ A K Q J 10 9 8 ♥ — ♦ A K Q ♣ A K Q",
    "S AKQJT98 H- D AKQ C AKQ",
    "H: - S: AKQJT98 C: AKQ D: AKQ",
], ids=["hyphen", "en dash as the pages show it", "em dash", "hyphen against the mark",
        "colon then a void"])
def test_suit_by_suit_reads_a_dash_as_a_void(text):
    assert str(parse_hand(text)) == SEVEN_SPADES


@pytest.mark.parametrize("text", [
    "-.AKQJ1098765432..", "\u2014.AKQJT98765432..", "\u2013.AKQJT98765432.-.-",
    "- AKQJT98765432 - -", "\u2014,AKQJT98765432,\u2014,\u2014", ".AKQJT98765432..",
], ids=["dots-hyphen-for-a-void", "dots-em-dash", "dots-en-dash-and-hyphens",
        "groups-hyphens", "groups-em-dashes-and-commas", "dots-nothing-for-a-void"])
def test_a_dash_stands_for_a_void_in_dots_and_suit_groups(text):
    assert str(parse_hand(text)) == "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"


@pytest.mark.parametrize("text", [
    "AS KS QS JS 10S 9S 8S AD KD QD AC KC QC", "AS,KS,QS,JS,10S,9S,8S,AD,KD,QD,AC,KC,QC",
    "AS KS QS JS", "10S 9S 8S 7S",
], ids=["thirteen-cards", "thirteen-cards-by-commas", "four-cards-are-not-four-suits",
        "four-tens-and-nines-are-not-four-suits"])
def test_cards_split_by_spaces_still_read_as_cards_never_as_suit_groups(text):
    assert [str(card) for card in read_cards(text)] == [
        token for token in re.split("[ ,]", text)]


def test_dot_notation_reads_a_void():
    hand = parse_hand("AKQJT98765432...")
    assert str(hand) == "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
    assert hand.dotted == "AKQJT98765432..."


REFUSED = [
    # (input, code, a fragment the message must contain)
    ("", "empty", "no cards entered"),
    ("   ", "empty", "no cards entered"),
    ("\n", "empty", "no cards entered"),
    ("\t\r\n", "empty", "no cards entered"),
    (",,,", "empty", "no cards entered"),
    (" , , ", "empty", "no cards entered"),
    (TWELVE, "wrong_count", "this one has 12 (missing 1)"),
    (EXAMPLE + " 3S", "wrong_count", "this one has 14 (1 too many)"),
    ("AS", "wrong_count", "this one has 1 (missing 12)"),
    (" ".join(map(str, DECK)), "wrong_count", "this one has 52 (39 too many)"),
    (TWELVE + " AD", "duplicate_card", "'AD' appears twice"),
    (TWELVE.replace("5C", "AD") + " AD", "duplicate_card", "'AD' appears three times"),
    (EXAMPLE + " AD", "wrong_count", "'AD' appears twice"),
    (EXAMPLE.replace("5C", "1H"), "bad_card", "card 1 '1H' is not a card: '1' is not a rank"),
    (EXAMPLE.replace("7H", "11S"), "bad_card", "card 2 '11S' is not a card: '11' is not a rank"),
    (EXAMPLE.replace("7H", "0S"), "bad_card", "'0' is not a rank"),
    (EXAMPLE.replace("7H", "ZS"), "bad_card", "'Z' is not a rank"),
    (EXAMPLE.replace("7H", "BS"), "bad_card", "'B' is not a rank"),
    (EXAMPLE.replace("7H", "13C"), "bad_card", "'13' is not a rank"),
    (EXAMPLE.replace("7H", "100C"), "bad_card", "'100' is not a rank"),
    (EXAMPLE.replace("7H", "1C"), "bad_card", "ranks are 2-10, J, Q, K, A"),
    (EXAMPLE.replace("AS", "AX"), "bad_card", "card 3 'AX' is not a card: 'X' is not a suit"),
    (EXAMPLE.replace("AS", "AN"), "bad_card", "'N' is not a suit"),
    (EXAMPLE.replace("AS", "AP"), "bad_card", "'P' is not a suit"),
    (EXAMPLE.replace("AS", "ASS"), "bad_card", "'ASS' has extra characters after 'AS'"),
    (EXAMPLE.replace("AS", "10X"), "bad_card", "'X' is not a suit"),
    (EXAMPLE.replace("AS", "A"), "bad_card", "card 3 'A' has no suit"),
    (EXAMPLE.replace("AS", "10"), "bad_card", "'10' has no suit"),
    (EXAMPLE.replace("AS", "S5"), "bad_card", "did you mean '5S'?"),
    (EXAMPLE.replace("AS", "H10"), "bad_card", "did you mean '10H'?"),
    (EXAMPLE.replace("AS", "♠A"), "bad_card", "did you mean 'A♠'?"),
    (EXAMPLE.replace("AS", "XYZ"), "bad_card", "write a rank (2-10, J, Q, K, A) then a suit"),
    (EXAMPLE.replace("AS", "S"), "bad_card", "write a rank"),
    ("5C7HASJD9D2CKH10H4C8H8CAD10C", "bad_card", "several cards run together"),
    ("5C7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "bad_card", "put a space between cards"),
    (EXAMPLE.replace(" ", ";"), "bad_character", "character ';' at position 3"),
    (EXAMPLE.replace(" ", "/"), "bad_character", "character '/'"),
    (EXAMPLE.replace(" ", "|"), "bad_character", "character '|'"),
    (EXAMPLE.replace(" ", "-"), "bad_character", "character '-'"),
    (EXAMPLE.replace(" ", "\xa0"), "bad_character", "U+00A0 (NO-BREAK SPACE) at position 3"),
    (EXAMPLE.replace(" ", "\u3000"), "bad_character", "U+3000 (IDEOGRAPHIC SPACE)"),
    (EXAMPLE.replace(" ", "\u2003"), "bad_character", "U+2003 (EM SPACE)"),
    (EXAMPLE.replace(" ", "\u200b"), "bad_character", "U+200B (ZERO WIDTH SPACE)"),
    ("\ufeff" + EXAMPLE, "bad_character", "U+FEFF (ZERO WIDTH NO-BREAK SPACE) at position 1"),
    (EXAMPLE.replace("AS", "A\u00adS"), "bad_character", "U+00AD (SOFT HYPHEN)"),
    (EXAMPLE + "\x00", "bad_character", "U+0000 at position 41"),
    ("\x00" * 13, "bad_character", "U+0000 at position 1"),
    (EXAMPLE.replace("AS", "A\x08S"), "bad_character", "U+0008"),
    ("\x1b[31m" + EXAMPLE, "bad_character", "U+001B"),
    (EXAMPLE + "\x7f", "bad_character", "U+007F"),
    (EXAMPLE.replace(" ", "\x85"), "bad_character", "U+0085"),
    (EXAMPLE.replace(" ", "\u2028"), "bad_character", "U+2028 (LINE SEPARATOR)"),
    (EXAMPLE.replace(" ", "\x0c"), "bad_character", "U+000C"),
    ("AS \udc80 KH", "bad_character", "U+DC80 at position 4"),
    ("<script>alert(1)</script>", "bad_character", "character '<' at position 1"),
    ('"><img src=x onerror=alert(1)>', "bad_character", "character '\"'"),
    ("javascript:alert(1)", "bad_character", "character ':'"),
    ("{{7*7}}", "bad_character", "character '{'"),
    ("${7*7}", "bad_character", "character '$'"),
    ("%s%s%n", "bad_character", "character '%'"),
    ("DROP TABLE hands", "bad_card", "card 1 'DROP' is not a card"),
    ("ＡＳ" + EXAMPLE[2:], "bad_character", "U+FF21 (FULLWIDTH LATIN CAPITAL LETTER A)"),
    (EXAMPLE.replace("AS", "\u0410S"), "bad_character", "U+0410 (CYRILLIC CAPITAL LETTER A)"),
    (EXAMPLE.replace("AS", "A\u017f"), "bad_character", "U+017F (LATIN SMALL LETTER LONG S)"),
    (EXAMPLE.replace("KH", "\u212aH"), "bad_character", "U+212A (KELVIN SIGN)"),
    (EXAMPLE.replace("10H", "\u0661\u0660H"), "bad_character", "U+0661"),
    (EXAMPLE.replace("10H", "１０H"), "bad_character", "U+FF11"),
    (EXAMPLE.replace("AS", "A♤"), "bad_character", "U+2664 (WHITE SPADE SUIT)"),
    (EXAMPLE.replace("AS", "A\ufe0fS"), "bad_character", "U+FE0F"),
    ("\ufe0f" + EXAMPLE, "bad_character", "U+FE0F (VARIATION SELECTOR-16) at position 1"),
    ("A" * 1_000_000, "too_long", "1,000,000 characters long"),
    (" " * 1_000_000, "too_long", "paste just the 13 cards"),
    ("10" * 500_000, "too_long", "a hand is at most"),
    ((EXAMPLE + " ") * 30, "too_long", "characters long"),
    ("AKQ2.J54.T9", "bad_notation", "'AKQ2.J54.T9' has 2"),
    ("AKQ2.J54.T9.87.65", "bad_notation", "has 4"),
    ("AKQ2.J54 .T9.8765", "bad_notation", "one word with no spaces"),
    ("AKQ2.J54.T9.87X5", "bad_card", "the clubs '87X5' in dot notation: 'X' is not a rank"),
    ("AKQ2.J54.T9.871", "bad_card", "'1' is not a rank"),
    ("AKQ.J54.T9.8765", "wrong_count", "this one has 12"),
    ("AKQ2.J54.T9.8765A", "wrong_count", "this one has 14"),
    ("AAQ2.J54.T9.8765", "duplicate_card", "'AS' appears twice"),
    ("X:AKQ2.J54.T9.8765", "bad_character", "character ':'"),
    (DEAL, "whole_deal", "a whole deal of 4 hands (N, E, S, W), not one hand"),
    ("S:AKQ2.J54.T9.8765 - JT98.AK32.AK.432 -", "whole_deal", "2 hands (S, N)"),
    (VIEWER + "?n=skj10haqj8dq65ck94&s=sahkt87daj9ct8542", "whole_deal", "(N, S)"),
    (VIEWER + "?n=skj10hxqj8dq65ck94", "bad_card", "'X' is not a rank"),
    (VIEWER + "?d=n", "bad_character", "character ':' at position 6"),
    (VIEWER + "?n=zz", "bad_card", "card 1 'zz' is not a card"),
    ("N:AKQ2.J54.T9.8765 - - - -", "bad_character", "character ':'"),
    ("1OH " + TWELVE, "bad_card", "card 1 '1OH' has a letter where a digit goes: ranks "
                                  "are 2-10, J, Q, K, A (did you mean '10H'?)"),
    ("1oh " + TWELVE, "bad_card", "did you mean '10H'?"),
    ("lOS " + TWELVE, "bad_card", "did you mean '10S'?"),
    ("IOD " + TWELVE, "bad_card", "did you mean '10D'?"),
    ("OH " + TWELVE, "bad_card", "'O' is not a rank"),
    ("ace of spades, king of hearts", "bad_card",
     "'ace of spades' is written in words: write each card as its rank and suit (did you "
     "mean 'AS'?)"),
    ("AS KH ten of diamonds", "bad_card", "(did you mean '10D'?)"),
    ("'AS KH", "bad_character", "character \"'\" at position 1"),
    ("['AS', KH]", "bad_character", "character '['"),
    ("A♠ace of spades" * 70, "too_long", "characters long"),
    (EXAMPLE + "..", "bad_notation", "dot notation is one word"),
    ("♠ K J 10 ♥ A Q J 8 ♦ Q 6 5", "bad_notation",
     "the clubs are missing: give all four suits"),
    ("S: KJ10 H: AQJ8 D: Q65 S: K94", "bad_notation",
     "the spades are given twice (at positions 1 and 24): give each suit once"),
    ("♠ ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4", "bad_notation",
     "the spades at position 1 have no cards: write their ranks after the mark, or '-'"),
    ("♠ K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣", "bad_notation", "the clubs at position 28 have no cards"),
    ("♠ - K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4", "bad_notation",
     "the spades at position 1 have a '-' for a void and more"),
    ("♠ - - ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4", "bad_notation", "write either the ranks or one '-'"),
    ("S: K J X H: A Q J 8 D: Q 6 5 C: K 9 4", "bad_card",
     "'X' at position 8 is not a rank or a suit: ranks are A K Q J 10 (or T)"),
    ("S: K J 1 H: A Q J 8 D: Q 6 5 C: K 9 4", "bad_card",
     "'1' at position 8 is not a rank: write 10 or T for ten"),
    ("S K : J H: A Q J 8 D: Q 6 5 C: K 9 4", "bad_notation",
     "the ':' at position 5 does not follow a suit"),
    ("S: KJ10; H: AQJ8 D: Q65 C: K94", "bad_character",
     "character ';' at position 8 is not allowed: write each suit's mark (♠ or S)"),
    ("♠ KJ10 ♥ AQJ8 ♦ Q65 ♣ K9\u200b4", "bad_character",
     "U+200B (ZERO WIDTH SPACE) at position 25"),
    ("♠ KJ10 ♥ AQJ8 ♦ Q65 ♣ K9\ufe0f4", "bad_character", "U+FE0F"),
    ("♠ K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣ K 9", "wrong_count", "this one has 12 (missing 1)"),
    ("♠ K K J 10 ♥ A Q J 8 ♦ Q 6 ♣ K 9 4", "duplicate_card", "'KS' appears twice"),
    ("♠A ♥K ♦2 ♣3 ♠5", "bad_notation", "the spades are given twice"),
    ("spades: K J 10 hearts: A Q J 8", "bad_notation", "the diamonds are missing"),
    ("AKQ2 K32 432", "bad_notation", "suit groups are four, split by spaces or commas, "
                                     "spades first, e.g. 'AKQ2 J54 T9 8765' ('-' for a void); "
                                     "'AKQ2 K32 432' has 3"),
    ("AKQ2 K32 432 432 5", "bad_notation", "'AKQ2 K32 432 432 5' has 5"),
    ("AKQ2 K32 432 43X", "bad_card", "the clubs '43X' in suit groups: 'X' is not a rank"),
    ("AKQ2 K32 432 4321", "bad_card", "the clubs '4321' in suit groups: '1' is not a rank"),
    ("AKQ2 K32 432 43", "wrong_count", "this one has 12 (missing 1)"),
    ("AKQ2 K32 432 422", "duplicate_card", "'2C' appears twice"),
    ("AKQ2 - - -", "wrong_count", "this one has 4"),
    ("-AKQJT9876543.2..", "bad_character", "character '-' at position 1 is not allowed"),
    ("AKQ2 K-32 432 432", "bad_character", "character '-' at position 7"),
    ("AKQJT98765432.--..", "bad_character", "character '-' at position 15"),
]


@pytest.mark.parametrize("text, code, fragment", REFUSED,
                         ids=[f"{code}-{index}" for index, (_, code, _) in enumerate(REFUSED)])
def test_refused_input_names_the_problem(text, code, fragment):
    with pytest.raises(InvalidHandError) as raised:
        parse_hand(text)
    assert raised.value.code == code
    assert fragment in raised.value.message
    assert str(raised.value) == raised.value.message


@pytest.mark.parametrize("text, code, fragment", REFUSED, ids=[
    f"safe-{index}" for index in range(len(REFUSED))])
def test_every_message_is_short_and_printable(text, code, fragment):
    with pytest.raises(InvalidHandError) as raised:
        parse_hand(text)
    message = raised.value.message
    assert len(message) <= 200
    assert message.isprintable()
    assert all(ord(character) < 0xD800 or ord(character) > 0xDFFF for character in message)


def test_there_are_at_least_sixty_refused_inputs():
    assert len(REFUSED) >= 60


def test_invalid_hand_error_is_a_value_error():
    assert issubclass(InvalidHandError, ValueError)


@pytest.mark.parametrize("value", [None, 42, 3.5, True, b"5C 7H", ["5C"], ("5C",), {}])
def test_a_non_string_is_a_type_error(value):
    with pytest.raises(TypeError, match=f"a hand must be a str .*not {type(value).__name__}"):
        parse_hand(value)


def test_the_length_check_comes_before_reading_characters():
    with pytest.raises(InvalidHandError) as raised:
        parse_hand("\x00" * (MAX_INPUT_LENGTH + 1))
    assert raised.value.code == "too_long"


def test_the_character_check_comes_before_the_card_check():
    with pytest.raises(InvalidHandError) as raised:
        parse_hand("1H 2C\x00")
    assert raised.value.code == "bad_character"


def test_a_long_token_is_echoed_shortened():
    with pytest.raises(InvalidHandError) as raised:
        parse_hand("X" * 40 + "S")
    assert "'XXXXXXXXXXXXXXXXXXX…'" in raised.value.message


def test_read_cards_keeps_duplicates_and_any_count():
    assert [str(card) for card in read_cards("AS AS 2C")] == ["AS", "AS", "2C"]


@pytest.mark.parametrize("cards, problem", [
    (read_cards(EXAMPLE), None),
    (read_cards(TWELVE), "a hand has 13 cards; this one has 12 (missing 1)"),
    (read_cards(TWELVE + " AD"), "'AD' appears twice (a hand holds each card once)"),
    (read_cards("AS AS AS AS AS 2C"), "a hand has 13 cards; this one has 6 (missing 7); "
                                      "'AS' appears 5 times (a hand holds each card once)"),
    (read_cards("AS AS KS KS " + " ".join(EXAMPLE.split()[:9])),
     "'AS' appears three times, 'KS' appears twice (a hand holds each card once)"),
    (read_cards("2C 2C 2C 2C 3C 3C 4C 4C 7C 7C 5C 5C 6C"),
     "'7C' appears twice, '5C' appears twice, '4C' appears twice and 2 more cards appear "
     "more than once (a hand holds each card once)"),
    (read_cards("2C 2C 3C 3C 4C 4C 5C 5C " + " ".join(EXAMPLE.split()[:5])),
     "'5C' appears three times, '4C' appears twice, '3C' appears twice and 1 more card appears "
     "more than once (a hand holds each card once)"),
])
def test_hand_problem_names_count_and_duplicates(cards, problem):
    assert hand_problem(cards) == problem


@pytest.mark.parametrize("character, described", [
    ("x", "'x'"), ("\x00", "U+0000"), ("\xa0", "U+00A0 (NO-BREAK SPACE)"),
    ("\udc80", "U+DC80"), ("♠", "U+2660 (BLACK SPADE SUIT)"),
])
def test_describe_character(character, described):
    assert describe_character(character) == described


@pytest.mark.parametrize("text, echoed", [
    ("AS", "'AS'"), ("x" * 20, "'" + "x" * 20 + "'"), ("x" * 21, "'" + "x" * 19 + "…'"),
])
def test_echo_quotes_and_cuts(text, echoed):
    assert echo(text) == echoed


def test_hand_is_canonical_and_frozen():
    hand = parse_hand(EXAMPLE)
    assert str(hand) == CANONICAL
    assert len(hand) == 13
    assert list(hand) == list(hand.cards)
    assert hand == parse_hand(CANONICAL)
    with pytest.raises(AttributeError):
        hand.cards = ()


def test_hand_in_suit_and_dotted():
    hand = parse_hand(EXAMPLE)
    assert [str(card) for card in hand.in_suit(Suit.HEARTS)] == ["KH", "10H", "8H", "7H"]
    assert hand.dotted == "A.KT87.AJ9.T8542"


@pytest.mark.parametrize("suit, letter, symbol, word, major", [
    (Suit.CLUBS, "C", "♣", "clubs", False),
    (Suit.DIAMONDS, "D", "♦", "diamonds", False),
    (Suit.HEARTS, "H", "♥", "hearts", True),
    (Suit.SPADES, "S", "♠", "spades", True),
])
def test_suit_names(suit, letter, symbol, word, major):
    assert (suit.letter, suit.symbol, suit.word, suit.is_major, suit.is_minor) == (
        letter, symbol, word, major, not major)
    # one string for every use, not a new one kept in each memo that holds it
    assert suit.symbol is suit.symbol and suit.word is suit.word


def test_suits_rank_clubs_low_spades_high():
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert SUITS_HIGH_FIRST == (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@pytest.mark.parametrize("rank, label, word", [
    (Rank.TWO, "2", "two"), (Rank.TEN, "10", "ten"), (Rank.JACK, "J", "jack"),
    (Rank.QUEEN, "Q", "queen"), (Rank.KING, "K", "king"), (Rank.ACE, "A", "ace"),
])
def test_rank_labels(rank, label, word):
    assert (rank.label, rank.word) == (label, word)


def test_card_text_and_speech():
    card = Card(Suit.SPADES, Rank.ACE)
    assert (str(card), card.spoken) == ("AS", "ace of spades")
    assert str(Card(Suit.HEARTS, Rank.TEN)) == "10H"


def test_the_deck_has_52_different_cards():
    assert len(set(DECK)) == 52
    assert isinstance(parse_hand(EXAMPLE), Hand)


def test_a_character_with_a_long_name_is_named_shortly():
    with pytest.raises(InvalidHandError) as raised:
        parse_hand("\ufd50")
    assert "U+FD50 (ARABIC LIGATURE TEH WITH JEEM WITH MEEM…)" in raised.value.message
    assert len(raised.value.message) <= 200


def first_stranger(text):
    """The first character the parser refuses, found one by one (the oracle)."""
    for index, character in enumerate(text):
        ends = " \t\r\n,."
        allowed = (character.isascii() and (character.isalnum() or character in ends)
                   or character in "♣♦♥♠"
                   or character == "\ufe0f" and index and text[index - 1] in "♣♦♥♠"
                   or character in "-\u2013\u2014"  # a void: a whole suit, alone
                   and (index == 0 or text[index - 1] in ends)
                   and (index == len(text) - 1 or text[index + 1] in ends))
        if not allowed:
            return index
    return None


@given(st.text(alphabet=st.sampled_from("aZ09 \t\r\n,.♣♦♥♠\ufe0f-\u2013\u2014é\x00\u2028Ⅻ٣_"),
               max_size=12))
def test_the_characters_refused_are_the_ones_found_one_by_one(tail):
    text = "2" + tail  # begins as cards do, not as a suit by suit hand
    index = first_stranger(text)
    try:
        read_cards(text)
    except InvalidHandError as error:
        assert (error.code == "bad_character") is (index is not None)
        if index is not None:
            assert f"at position {index + 1} is not allowed" in error.message
    else:
        assert index is None
