"""Boards: seats, vulnerability, calls and auctions, and every seat's opening by the rules
with who opens first going round from the dealer."""

import pytest

from bidder import NO_BID, Bid, explain, parse_hand
from bidder.boards.model import (Auction, Board, BoardError, Call, Seat, Vulnerability,
                                 board_dealer, dealt_board, read_call)
from bidder.boards.openings import openings

NORTH, EAST, SOUTH, WEST = Seat
OPENS_1NT = parse_hand("AQ6.AKJ5.J84.Q97")  # 17 HCP, balanced
OPENS_1S = parse_hand("KT932.82.AQT94.A")
PASSES = parse_hand("875.T93.763.Q532")
PASSES_TOO = parse_hand("J4.Q764.K52.T986")


def board(*hands, dealer=NORTH, calls=None, number="1") -> Board:
    auction = None if calls is None else Auction(dealer, tuple(map(read_call, calls)))
    return Board(number, dealer, Vulnerability.NONE, tuple(hands), auction)


# Seats and vulnerability ---------------------------------------------------------------

@pytest.mark.parametrize("text, seat", [("N", NORTH), ("e", EAST), (" South ", SOUTH),
                                        ("west", WEST), ("X", None), ("", None)],
                         ids=["letter", "lower case", "word with spaces", "lower word",
                              "not a seat", "empty"])
def test_seats_are_read_from_letters_and_words(text, seat):
    assert Seat.from_letter(text) is seat


def test_seats_go_round_clockwise():
    assert [NORTH.after(step) for step in range(5)] == [NORTH, EAST, SOUTH, WEST, NORTH]
    assert (WEST.letter, WEST.word) == ("W", "West")


@pytest.mark.parametrize("vulnerability, vulnerable, words", [
    (Vulnerability.NONE, [], "neither side"),
    (Vulnerability.NS, [NORTH, SOUTH], "North-South"),
    (Vulnerability.EW, [EAST, WEST], "East-West"),
    (Vulnerability.ALL, [NORTH, EAST, SOUTH, WEST], "both sides"),
], ids=["none", "north-south", "east-west", "all"])
def test_vulnerability_names_the_sides_it_includes(vulnerability, vulnerable, words):
    assert [seat for seat in Seat if vulnerability.includes(seat)] == vulnerable
    assert vulnerability.words == words


# Calls --------------------------------------------------------------------------------------

@pytest.mark.parametrize("token, text, shown", [
    ("Pass", "Pass", "Pass"), ("p", "Pass", "Pass"), ("PASS", "Pass", "Pass"),
    ("X", "X", "Double"), ("d", "X", "Double"), ("xx", "XX", "Redouble"),
    ("r", "XX", "Redouble"), ("1s", "1S", "1♠"), ("3nt", "3NT", "3NT"),
    ("2N", "2NT", "2NT"), ("7C", "7C", "7♣"),
], ids=["pass", "p for pass", "upper case pass", "double", "d for double", "redouble",
        "r for redouble", "lower-case bid", "lower-case no trump", "N for no trump",
        "seven clubs"])
def test_calls_are_read_as_files_write_them(token, text, shown):
    call = read_call(token)
    assert (call.text, call.display) == (text, shown)


@pytest.mark.parametrize("token", ["8C", "0S", "1X", "1", "S", "AP", "-", ""],
                         ids=["level 8", "level 0", "no strain", "no strain at all",
                              "no level", "all pass is not one call", "dash", "empty"])
def test_what_is_not_a_call_is_none(token):
    assert read_call(token) is None


def test_a_call_knows_its_bid_and_letters():
    assert read_call("1s").bid == Bid(1, "S")
    assert read_call("pass").bid is NO_BID
    assert (read_call("x").plain, read_call("2nt").plain) == ("Double", "2NT")


# Auctions ----------------------------------------------------------------------------------

def test_the_opening_is_the_first_bid_and_who_made_it():
    auction = Auction(EAST, tuple(map(read_call, ["Pass", "Pass", "1D", "X"])))
    assert auction.opening == (WEST, Call("1D"))
    assert auction.seat_of(3) == NORTH
    assert not auction.passed_out


@pytest.mark.parametrize("calls, passed_out", [
    (["Pass"] * 4, True), (["Pass"] * 3, False), (["Pass"] * 3 + ["1C"], False),
], ids=["four passes", "three passes only", "fourth seat opens"])
def test_an_auction_is_passed_out_with_four_passes(calls, passed_out):
    auction = Auction(NORTH, tuple(map(read_call, calls)))
    assert auction.passed_out is passed_out
    assert (auction.opening is None) is (calls[-1] == "Pass")


@pytest.mark.parametrize("seat, call", [
    (EAST, "Pass"), (SOUTH, "Pass"), (WEST, "1D"), (NORTH, None),
], ids=["dealer passed", "second seat passed", "third seat opened",
        "fourth seat called after the opening"])
def test_a_seats_opening_call_is_made_while_no_one_had_bid(seat, call):
    auction = Auction(EAST, tuple(map(read_call, ["Pass", "Pass", "1D", "X"])))
    assert auction.opening_call(seat) == (call and read_call(call))


def test_a_seat_the_calls_never_reach_has_no_opening_call():
    assert Auction(NORTH, (Call("Pass"),)).opening_call(SOUTH) is None


@pytest.mark.parametrize("dealer, first_row", [
    (WEST, ["1C", "Pass", "Pass", "Pass"]), (NORTH, [None, "1C", "Pass", "Pass"]),
    (SOUTH, [None, None, None, "1C"]),
], ids=["west deals", "north deals", "south deals"])
def test_rows_put_west_first_as_bridge_columns_do(dealer, first_row):
    rows = Auction(dealer, tuple(map(read_call, ["1C", "Pass", "Pass", "Pass"]))).rows()
    assert [call and call.text for call in rows[0]] == first_row
    assert all(len(row) == 4 for row in rows)


# Boards -----------------------------------------------------------------------------------

@pytest.mark.parametrize("number, dealer", [("1", NORTH), ("2", EAST), ("3", SOUTH),
                                            ("4", WEST), ("5", NORTH), ("16", WEST),
                                            ("0", None), ("", None), ("1a", None)],
                         ids=["1", "2", "3", "4", "5 starts again", "16", "0 is no board",
                              "no number", "not a number"])
def test_duplicate_boards_rotate_the_dealer(number, dealer):
    assert board_dealer(number) is dealer


def test_a_board_is_named_by_its_number_or_its_game():
    assert board(OPENS_1NT, None, None, None, number="7").name == "Board 7"
    assert board(OPENS_1NT, None, None, None, number="").name == "Game 1"


@pytest.mark.parametrize("number, place", [("7", "game 1, line 1"), ("", "line 1")],
                         ids=["a-numbered-board-gives-its-game", "a-game-named-once"])
def test_a_board_says_where_it_is_in_its_file_without_naming_its_game_twice(number, place):
    assert board(OPENS_1NT, None, None, None, number=number).place == place


def test_a_dealt_board_holds_one_hand_in_the_dealers_seat():
    dealt = dealt_board(OPENS_1S, SOUTH, 3)
    assert (dealt.number, dealt.dealer, dealt.hand(SOUTH)) == ("3", SOUTH, OPENS_1S)
    assert [dealt.hand(seat) for seat in (NORTH, EAST, WEST)] == [None, None, None]
    assert dealt.in_order() == (SOUTH, WEST, NORTH, EAST)


def test_a_board_error_says_which_game_and_line():
    error = BoardError("no deal", "no_deal", line=7).at(3, 1)
    assert (error.game, error.line, str(error)) == (3, 7, "game 3, line 7: no deal")
    assert BoardError("x", "y").at(2, 5).line == 5


# Every seat's opening ---------------------------------------------------------------------

@pytest.mark.parametrize("hands, dealer, first, sentence", [
    ((OPENS_1NT, OPENS_1S, PASSES, PASSES_TOO), NORTH, (NORTH, None),
     "the rules open 1NT in first seat (North)"),
    ((OPENS_1NT, OPENS_1S, PASSES, PASSES_TOO), SOUTH, (NORTH, None),
     "the rules open 1NT in third seat (North)"),
    ((OPENS_1NT, OPENS_1S, PASSES, PASSES_TOO), EAST, (EAST, None),
     "the rules open 1♠ in first seat (East)"),
    ((PASSES, PASSES_TOO, PASSES, PASSES_TOO), NORTH, (None, None),
     "by the rules all four pass"),
    ((PASSES, None, OPENS_1NT, None), NORTH, (None, EAST),
     "who opens first by the rules cannot be told: East's hand is not given"),
    ((PASSES, None, OPENS_1NT, None), SOUTH, (SOUTH, None),
     "the rules open 1NT in first seat (South)"),
], ids=["dealer opens", "third seat opens", "dealer opens a major",
        "all four pass", "an unknown hand before any opener",
        "an opener before the unknown hands"])
def test_who_opens_first_goes_round_from_the_dealer(hands, dealer, first, sentence):
    table = openings(board(*hands, dealer=dealer))
    assert table.first == first
    assert table.rules_sentence() == sentence
    assert table.table_sentence() is None
    assert table.summary() == sentence[0].upper() + sentence[1:] + "."


def test_each_known_hand_gets_its_own_advice():
    table = openings(board(OPENS_1NT, None, PASSES, OPENS_1S))
    assert table.advice[NORTH] == explain(OPENS_1NT)
    assert table.advice[EAST] is None
    assert table.first_bid == Bid(1, "NT")
    assert openings(board(PASSES, None, None, None)).first_bid is NO_BID


@pytest.mark.parametrize("calls, sentence", [
    (["Pass", "1NT", "Pass", "Pass", "Pass"], "at the table East opened 1NT"),
    (["Pass"] * 4, "at the table all four passed"),
    (["Pass", "Pass"], "at the table the calls given stop before anyone bids"),
], ids=["someone opened", "passed out", "calls stop early"])
def test_the_table_says_who_opened_beside_the_rules(calls, sentence):
    table = openings(board(OPENS_1NT, OPENS_1S, PASSES, PASSES_TOO, calls=calls))
    assert table.table_sentence() == sentence
    assert table.summary().endswith(f"; {sentence}.")


@pytest.mark.parametrize("calls, agreement", [
    (["1NT", "Pass"], [True, None, None, None]),
    (["Pass", "1S"], [False, True, None, None]),
    (["1C", "1S"], [False, None, None, None]),
    (["X"], [None, None, None, None]),
    (["Pass"] * 4, [False, False, True, True]),
], ids=["rules and table agree", "dealer passed a 1NT hand", "a different bid",
        "a double is not an opening call", "passed out"])
def test_each_seats_call_before_any_bid_is_compared_with_the_rules(calls, agreement):
    table = openings(board(OPENS_1NT, OPENS_1S, PASSES, PASSES_TOO, calls=calls))
    assert [table.agrees(seat) for seat in Seat] == agreement


def test_a_hand_not_given_or_no_auction_compares_nothing():
    assert openings(board(OPENS_1NT, None, None, None, calls=["Pass"])).agrees(EAST) is None
    assert openings(board(OPENS_1NT, None, None, None)).agrees(NORTH) is None


def test_positions_count_from_the_dealer():
    table = openings(board(PASSES, PASSES, PASSES, PASSES, dealer=WEST))
    assert [table.position(seat) for seat in Seat] == [2, 3, 4, 1]


def test_the_board_as_json():
    table = openings(Board("4", WEST, None, (PASSES, None, OPENS_1NT, OPENS_1S),
                           Auction(WEST, (Call("1S"), Call("Pass")))))
    data = table.to_dict()
    assert data["board"] == "4" and data["dealer"] == "West"
    assert data["vulnerable"] is None
    assert data["seats"][1] == {"seat": "East", "position": 3, "advice": None}
    assert data["seats"][3]["advice"]["bid"] == "1S"
    assert data["first"] == {"seat": "West", "bid": "1S", "unknown": None}
    assert data["table"] == {"seat": "West", "call": "1S"}
    assert data["auction"] == ["1S", "Pass"]
    assert data["summary"] == ("The rules open 1S in first seat (West); at the table "
                               "West opened 1S.")


def test_the_board_as_json_without_an_auction_or_an_opener():
    data = openings(Board("", NORTH, Vulnerability.EW, (PASSES, None, None, None))
                    ).to_dict()
    assert (data["vulnerable"], data["auction"], data["table"]) == ("EW", None, None)
    assert data["first"] == {"seat": None, "bid": None, "unknown": "East"}
