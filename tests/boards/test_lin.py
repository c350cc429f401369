"""Reading LIN as BBO writes it (md| with its dealer digit, mb| calls, ah| board names,
sv| vulnerability), and writing lines it reads back."""

import pytest

from bidder import parse_hand
from bidder.boards.model import Seat, Vulnerability
from bidder.boards.lin import board_pairs, dealt_lines, lin_hand, pairs, read, read_md

from helpers import CLUB_LIN, only_board, only_problem

NORTH, EAST, SOUTH, WEST = Seat
SOUTH_HAND = "875.T93.763.Q532"
WEST_HAND = "J4.Q764.K52.T986"
NORTH_HAND = "AQ6.AKJ5.J8.KJ74"
EAST_HAND = "KT932.82.AQT94.A"
MD = "3S875HT93D763CQ532,SJ4HQ764DK52CT986,SAQ6HAKJ5DJ8CKJ74,"


def one(text: str):
    return only_board(read(text))


def problem(text: str):
    return only_problem(read(text))


def test_pairs_carry_their_lines():
    assert list(pairs("pn|a,b|\nmd|1S|\r\nsv|o|\n")) == [
        ("pn", "a,b", 1), ("md", "1S", 2), ("sv", "o", 3)]


@pytest.mark.parametrize("text, line", [("md|1S|\nsv", 2), ("md|1S|sv|o", 1),
                                        ("md|1S|\n\n  x", 3)],
                         ids=["a key without a value", "a value not closed",
                              "text after the last pair"])
def test_text_ending_inside_a_pair_is_reported_in_the_board_it_cuts(text, line):
    found = problem(text)
    assert (found.code, found.line, found.game) == ("bad_syntax", line, 1)
    assert found.message.startswith("the text ends inside a pair")


def test_boards_start_at_qx_or_at_a_second_md():
    text = "pn|a|qx|o1|md|1S|mb|p|md|2S|qx|o3|sv|o|md|3S|"
    assert [[key for key, _, _ in board] for board in board_pairs(text)] == [
        ["pn", "qx", "md", "mb"], ["md"], ["qx", "sv", "md"]]


def test_pairs_with_no_deal_make_no_board():
    assert list(board_pairs("vg|match|pn|a,b,c,d|")) == []


# A published file --------------------------------------------------------------------

@pytest.fixture(scope="module")
def club():
    return read(CLUB_LIN.read_text())


def test_the_club_match_reads_every_board_but_the_bad_one(club):
    assert [(board.number, board.game, board.line) for board in club.boards] == [
        ("1", 1, 3), ("2", 2, 5), ("4", 4, 8)]
    (bad,) = club.problems
    assert (bad.game, bad.line, bad.code) == (3, 7, "bad_deal")


def test_the_club_match_board_1_derives_the_fourth_hand(club):
    first = club.boards[0]
    assert (first.dealer, first.vulnerability) == (NORTH, Vulnerability.NONE)
    assert [first.hand(seat) for seat in Seat] == [parse_hand(hand) for hand in (
        NORTH_HAND, EAST_HAND, SOUTH_HAND, WEST_HAND)]
    assert [call.text for call in first.auction.calls] == [
        "1C", "1S", "Pass", "2S", "Pass", "Pass", "Pass"]


def test_the_club_match_board_2_alerts_and_explanations(club):
    second = club.boards[1]
    assert (second.dealer, second.vulnerability) == (EAST, Vulnerability.NS)
    assert second.hand(SOUTH) == parse_hand("QT952.KQT75..932")
    assert second.auction.calls[2].text == "1D"
    assert second.auction.calls[2].note == "could be short"
    assert second.auction.calls[3].text == "X"


def test_the_club_match_board_4_gives_one_hand(club):
    fourth = club.boards[2]
    assert (fourth.dealer, fourth.vulnerability, fourth.auction) == (
        SOUTH, Vulnerability.ALL, None)
    assert [hand is not None for hand in fourth.hands] == [False, False, True, False]


# md| ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, dealer, given", [
    (MD, NORTH, 4), ("1S875HT93D763CQ532,,,", SOUTH, 1),
    ("2,sj4hq764dk52ct986", WEST, 1), ("4,,,SKT932H82DAQT94CA", EAST, 1),
    ("3S875H1093D763CQ532,,,", NORTH, 1), ("3SAKQJT98765432,,,", NORTH, 1),
], ids=["three hands and the rest", "south only", "west in lower case", "east only",
        "ten written 10", "three voids"])
def test_md_gives_the_dealer_and_the_hands_south_first(value, dealer, given):
    found, hands = read_md(value, 1)
    assert found == dealer
    assert sum(hand is not None for hand in hands) == given


@pytest.mark.parametrize("value, code, message", [
    ("5S875HT93D763CQ532", "bad_deal", "md|'5S875HT93D763CQ532'| is the dealer"),
    ("S875HT93D763CQ532", "bad_deal", "md|'S875HT93D763CQ532'| is the dealer"),
    ("1,,,,S875", "bad_deal", "md|'1,,,,S875'| is the dealer"),
    ("1,,,", "no_hand", "md|'1,,,'| gives no hand"),
    ("1X875HT93D763CQ532", "bad_hand", "the South hand 'X875HT93D763CQ532' in md| is not "
                                       "suits with their ranks"),
    ("1S875SHT93D763CQ532", "bad_hand", "the South hand 'S875SHT93D763CQ532' in md| is "
                                        "not suits"),
    ("1S875HT93D763CQ53", "wrong_count", "the South hand 'S875HT93D763CQ53' in md|: a hand "
                                         "has 13 cards"),
    ("1S875HT93D763CQ53X", "bad_card", "the South hand 'S875HT93D763CQ53X' in md|: the "
                                       "clubs"),
    ("1S875HT93D763CQ532,S875HT93D763CQ532", "duplicate_card",
     "md|'1S875HT93D763CQ532,…'| deals a card twice: each card is dealt once"),
], ids=["dealer digit 5", "no dealer digit", "five hands", "no hand", "not a suit",
        "a suit twice", "twelve cards", "not a rank", "a card in two hands"])
def test_an_md_that_cannot_be_read_says_what_to_write(value, code, message):
    found = problem(f"md|{value}|")
    assert (found.code, found.line) == (code, 1)
    assert found.message.startswith(message)


@pytest.mark.parametrize("letter, vulnerability", [
    ("o", Vulnerability.NONE), ("0", Vulnerability.NONE), ("-", Vulnerability.NONE),
    ("n", Vulnerability.NS), ("E", Vulnerability.EW), ("b", Vulnerability.ALL),
])
def test_every_sv_letter(letter, vulnerability):
    assert one(f"md|{MD}|sv|{letter}|").vulnerability is vulnerability


@pytest.mark.parametrize("pairs_text, code, message", [
    ("sv|x|", "bad_vulnerable", "sv|'x'| is not a vulnerability: write o (none), n "
                                "(North-South), e (East-West) or b (both)"),
    ("mb|1X|", "bad_call", "mb|'1X'| is not a call: write p (pass), d (double), r "
                           "(redouble) or a bid such as 1S or 3N"),
], ids=["not a vulnerability", "not a call"])
def test_vulnerability_and_calls_that_cannot_be_read(pairs_text, code, message):
    found = problem(f"md|{MD}|{pairs_text}")
    assert (found.code, found.message) == (code, message)


@pytest.mark.parametrize("pairs_text, number", [
    ("ah|Board 12|", "12"), ("qx|o7|", "7"), ("qx|o7|ah|Board 9|", "9"),
    ("ah|Practice|", "Practice"), ("", ""),
], ids=["board name", "from qx", "ah over qx", "a name without a number", "none"])
def test_board_numbers_come_from_ah_or_qx(pairs_text, number):
    assert one(f"{pairs_text}md|{MD}|").number == number


def test_calls_explanations_and_the_rest_skipped():
    board = one(f"an|no call yet|md|{MD}|mb|P|mb|1n!|an|15-17|mb|D|mb|r|pc|SA|pg||mc|7|")
    assert [(call.text, call.note) for call in board.auction.calls] == [
        ("Pass", ""), ("1NT", "15-17"), ("X", ""), ("XX", "")]


def test_a_board_without_calls_has_no_auction():
    assert one(f"md|{MD}|").auction is None


# Writing -----------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, text", [
    (NORTH_HAND, "SAQ6HAKJ5DJ8CKJ74"), ("AKQJT98765432...", "SAKQJT98765432HDC"),
    (None, ""),
], ids=["a hand", "voids", "not given"])
def test_lin_hands(hand, text):
    assert lin_hand(None if hand is None else parse_hand(hand)) == text


@pytest.mark.parametrize("seat", list(Seat), ids=[seat.word for seat in Seat])
@pytest.mark.parametrize("key", [False, True], ids=["no key", "key"])
def test_dealt_lines_read_back_with_the_hand_in_its_seat(seat, key):
    hands = [parse_hand(NORTH_HAND), parse_hand("2.8653.AKJT9732.")]
    text = dealt_lines(hands, key, seat)
    assert len(text.splitlines()) == 2
    reading = read(text)
    assert reading.problems == ()
    for number, (board, hand) in enumerate(zip(reading.boards, hands), 1):
        assert (board.number, board.dealer, board.hand(seat)) == (str(number), seat, hand)
        assert (board.auction is not None) is key


def test_a_dealt_line_with_its_key():
    line = dealt_lines([parse_hand("2.8653.AKJT9732.")], True)
    assert line.startswith("pn|,,,|st||md|3,,S2H8653DAKJT9732C,|rh||ah|Board 1|sv|o|"
                           "mb|4D|an|Open 4D: 8 HCP (6-10 needed) and 8 diamonds (exactly "
                           "8 needed).|")
    assert line.endswith("|mb|p|mb|p|mb|p|pg||")
    assert "|mb|p|an|No bid: 37 HCP, more than the 23 that R5 allows" in dealt_lines([parse_hand("AKQJ.AKQ.AKQ.AKQ")],
                                                         True)
    assert "mb|1N|" in dealt_lines([parse_hand("AQ6.AKJ5.J84.Q97")], True)
