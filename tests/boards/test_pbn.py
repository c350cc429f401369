"""Reading PBN 2.1 as the standard describes it (import format), and writing games that
other programs read back; a malformed game is reported by game and line."""

import pytest

from bidder import parse_hand
from bidder.boards.model import Seat, Vulnerability
from bidder.boards.files import pbn
from bidder.boards.pbn import Token, dealt_games, games, read, tag, tokens

from helpers import CLUB_PBN, only_board, only_problem, pbn_game

NORTH, EAST, SOUTH, WEST = Seat
N_HAND = "AQ6.AKJ5.J8.KJ74"
DEAL = f"N:{N_HAND} KT932.82.AQT94.A 875.T93.763.Q532 J4.Q764.K52.T986"


def one(text: str):
    return only_board(read(text))


def problem(text: str):
    return only_problem(read(text))


def kinds(text: str) -> list[tuple[str, str]]:
    return [(token.kind, token.text) for token in tokens(text)]


# Tokens -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('[Dealer "N"]', [("[", "["), ("word", "Dealer"), ("string", "N"), ("]", "]")]),
    ('[Event"a \\"b\\" \\\\c"]', [("[", "["), ("word", "Event"),
                                  ("string", 'a "b" \\c'), ("]", "]")]),
    ("1S Pass ; the rest is a comment", [("word", "1S"), ("word", "Pass")]),
    ("1S {a comment} Pass", [("word", "1S"), ("word", "Pass")]),
    ("% PBN 2.1\n1S", [("word", "1S")]),
    ("1S\r\n\r\nPass", [("word", "1S"), ("end", ""), ("word", "Pass")]),
    ("1S\n \t \nPass", [("word", "1S"), ("end", ""), ("word", "Pass")]),
    ("1S {starts\n\nstill the comment} Pass", [("word", "1S"), ("word", "Pass")]),
    ("1S {never ends\n\nPass", [("word", "1S")]),
    ("1S { x\n}", [("word", "1S")]),
    ("x % not an escape", [("word", "x"), ("word", "%"), ("word", "not"), ("word", "an"),
                           ("word", "escape")]),
], ids=["tag pair", "escaped quote and backslash", "semicolon comment", "brace comment",
        "escaped line", "CRLF and an empty line", "semi-empty line", "a comment keeps an "
        "empty line in the game", "an unclosed comment runs to the end", "comment closed "
        "on the next line", "percent only escapes in the first column"])
def test_tokens(text, expected):
    assert kinds(text) == expected


def test_a_string_left_open_is_an_error_on_its_line():
    assert kinds('x\n[Event "open') == [
        ("word", "x"), ("[", "["), ("word", "Event"),
        ("error", 'a tag value has no closing quote on this line: write the tag on one '
                  'line as [Name "value"]')]
    assert list(tokens('x\n[Event "open'))[-1].line == 2


def test_a_game_with_a_string_left_open_is_reported_and_the_next_is_read():
    reading = read('[Dealer "N"] "open\n\n' + pbn_game('Dealer "N"', f'Deal "{DEAL}"'))
    (found,) = reading.problems
    assert (found.game, found.line, found.code) == (1, 1, "bad_syntax")
    assert [board.game for board in reading.boards] == [2]


def test_games_are_the_runs_between_empty_lines():
    found = list(games(tokens("\n\na\nb\n\n\nc\n")))
    assert [[token.text for token in game] for game in found] == [["a", "b"], ["c"]]
    assert found[1][0] == Token("word", "c", 7)


# A published file -------------------------------------------------------------------

@pytest.fixture(scope="module")
def club():
    return read(CLUB_PBN.read_bytes().decode("ascii"))


def test_the_club_file_reads_every_game_but_the_bad_one(club):
    assert [board.number for board in club.boards] == ["1", "2", "4", "5"]
    assert [(board.game, board.line) for board in club.boards] == [
        (1, 4), (2, 26), (4, 41), (5, 54)]
    (bad,) = club.problems
    assert (bad.game, bad.line, bad.code) == (3, 39, "wrong_count")
    assert bad.message == ("the South hand 'KJ6.AJ842.K.AT7': a hand has 13 cards; this "
                           "one has 12 (missing 1)")


def test_the_club_file_board_1_has_its_play_left_aside(club):
    first = club.boards[0]
    assert (first.dealer, first.vulnerability) == (NORTH, Vulnerability.NONE)
    assert first.hand(NORTH) == parse_hand(N_HAND)
    assert [call.text for call in first.auction.calls] == [
        "1NT", "2S", "Pass", "Pass", "Pass"]


def test_the_club_file_board_2_lower_case_ten_void_notes_and_all_pass(club):
    second = club.boards[1]
    assert (second.dealer, second.vulnerability) == (EAST, Vulnerability.NS)
    assert second.hand(SOUTH) == parse_hand("QT952.KQT75..932")
    assert second.hand(EAST) == parse_hand("643.J963.J985.J5")
    calls = second.auction.calls
    assert [call.text for call in calls] == ["Pass", "Pass", "1D", "X", "2D", "2S",
                                             "Pass", "Pass", "Pass"]
    assert calls[2].note == "could be short"


def test_the_club_file_board_4_hands_not_given_and_calls_before_the_dealer(club):
    fourth = club.boards[2]
    assert (fourth.dealer, fourth.vulnerability) == (WEST, Vulnerability.ALL)
    assert fourth.hand(EAST) is None
    assert fourth.auction.dealer == WEST
    assert fourth.auction.opening[0] == EAST


def test_the_club_file_board_5_has_no_auction(club):
    assert club.boards[3].auction is None


# Tags ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ('[Dealer N]', "'[ Dealer N ]' is not a tag"),
    ('[Dealer "N"', "'[ Dealer \"N\"' is not a tag"),
    ('[2 "N"] [Dealer "N"]', "'[ 2 \"N\" ]' is not a tag"),
    ('[Deal-er "N"]', "'[ Deal-er \"N\" ]' is not a tag"),
    ('hello [Dealer "N"]', "'hello' stands outside a tag"),
    ('[Dealer "N"] ]', "']' stands outside a tag"),
], ids=["value without quotes", "no closing bracket", "a name that is a number",
        "a name with a hyphen", "text before any tag", "a stray bracket"])
def test_what_is_not_a_tag_is_reported(text, message):
    assert problem(text).message.startswith(message)


def test_the_first_of_a_repeated_tag_counts_and_its_data_goes_with_it():
    board = one(pbn_game('Dealer "N"', f'Deal "{DEAL}"', 'Dealer "S"', 'Auction "N"',
                         auction="1C Pass", ) + '[Auction "N"]\n1S\n')
    assert board.dealer == NORTH
    assert [call.text for call in board.auction.calls] == ["1C", "Pass"]


def test_a_note_that_is_not_numbered_is_left_aside():
    board = one(pbn_game('Dealer "N"', f'Deal "{DEAL}"', 'Auction "N"',
                         auction='1C =1= Pass =2=\n[Note "1:strong"]\n[Note "two:x"]'))
    assert [call.note for call in board.auction.calls] == ["strong", ""]


# Inheritance ----------------------------------------------------------------------------

def test_hash_takes_the_previous_games_value_and_hash_hash_every_later_game():
    text = "\n".join([
        pbn_game('Event "##Cup"', 'Site "Hall"', 'Board "1"', 'Dealer "N"',
                 f'Deal "{DEAL}"'),
        pbn_game('Board "#"', 'Site "#"', 'Dealer "E"', f'Deal "{DEAL}"'),
        pbn_game('Event "Plate"', 'Board "#"', 'Dealer "S"', f'Deal "{DEAL}"'),
        pbn_game('Board "#"', 'Dealer "W"', f'Deal "{DEAL}"')])
    reading = read(text)
    assert reading.problems == ()
    assert [board.number for board in reading.boards] == ["1", "1", "1", "1"]


def test_hash_with_no_previous_game_is_empty():
    assert one(pbn_game('Board "#"', 'Dealer "N"', f'Deal "{DEAL}"')).number == ""


def test_inheritance_values_are_worked_out_in_order():
    tags = pbn.read_tags(list(tokens(pbn_game('Event "##Cup"', 'Site "#"'))))
    headers = {}
    assert pbn.inherit(tags, {"Site": "Hall"}, headers) == {
        "Event": ("Cup", 1), "Site": ("Hall", 2)}
    assert headers == {"Event": "Cup"}
    later = pbn.read_tags(list(tokens(pbn_game('Event "Plate"'))))
    assert pbn.inherit(later, {}, headers)["Event"] == ("Plate", 1)
    assert headers == {"Event": "Plate"}
    assert pbn.inherit(pbn.read_tags(list(tokens(pbn_game('Site "x"')))), {},
                       headers)["Event"] == ("Plate", 1)


@pytest.mark.parametrize("name", ["Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
                                  "Auction", "Play"])
def test_hash_is_refused_where_the_standard_forbids_it(name):
    found = problem(pbn_game(f'Deal "{DEAL}"' if name != "Deal" else 'Dealer "N"',
                             f'{name} "#"'))
    assert found.code == "bad_inheritance"
    assert found.message == (f"[{name} '#']: '#' may not stand for the previous game's "
                             f"{name} (PBN 2.1, 4.8): write the value itself")


def test_a_game_of_headers_alone_gives_no_board_and_no_problem():
    reading = read(pbn_game('Event "##Cup"') + "\n" + pbn_game('Dealer "N"',
                                                              f'Deal "{DEAL}"'))
    assert (len(reading.boards), reading.problems) == (1, ())


# Deal --------------------------------------------------------------------------------------

@pytest.mark.parametrize("deal, seat, hand", [
    (DEAL, NORTH, N_HAND),
    (f"e:{N_HAND.lower()} - - -", EAST, N_HAND),
    (f"W:- - - {N_HAND.replace('T', '10')}", SOUTH, N_HAND),
    ("S:AKQJT98765432... - - -", SOUTH, "AKQJT98765432..."),
    (f"  N:{N_HAND}   -  -  -  ", NORTH, N_HAND),
    ("N:- AQ6.AKJ5.J8.47JK - -", EAST, N_HAND),
], ids=["north first", "east first, lower case", "ten written 10", "three voids",
        "extra spaces", "ranks in any order"])
def test_deals_name_their_first_seat_and_go_clockwise(deal, seat, hand):
    board = one(pbn_game('Dealer "N"', f'Deal "{deal}"'))
    assert board.hand(seat) == parse_hand(hand)
    assert sum(hand is not None for hand in board.hands) in (1, 4)


@pytest.mark.parametrize("deal, code, message", [
    (N_HAND, "bad_deal", f"[Deal '{N_HAND}'] is the first hand's seat (N, E, S or W), "
                         f"a colon and four hands clockwise from it, '-' for a hand not "
                         f"given: write e.g. [Deal \"N:AK72.QJ5.T98.432 - - -\"]"),
    (f"X:{N_HAND} - - -", "bad_deal", "[Deal 'X:AQ6.AKJ5.J8.KJ74 …'] is the first hand's"),
    (f"N:{N_HAND} - -", "bad_deal", "[Deal 'N:AQ6.AKJ5.J8.KJ74 …'] is the first hand's"),
    ("N:- - - -", "no_hand", "[Deal 'N:- - - -'] gives no hand: give at least one"),
    ("N:AQ6AKJ5J8KJ74 - - -", "bad_hand", "the North hand 'AQ6AKJ5J8KJ74' is not four "
                                          "suits separated by dots"),
    ("N:- AQ6.AKJ5.J8.KJ7X - -", "bad_card", "the East hand 'AQ6.AKJ5.J8.KJ7X': the "
                                             "clubs 'KJ7X' in dot notation: 'X' is not"),
    ("N:AQ6.AKJ5.J8.KJ7 - - -", "wrong_count", "the North hand 'AQ6.AKJ5.J8.KJ7': a hand "
                                               "has 13 cards; this one has 12"),
    (f"N:{N_HAND} {N_HAND} - -", "duplicate_card", "'AS' is in more than one hand (North "
                                                   "and East): each card is dealt once"),
], ids=["no seat", "not a seat", "three hands", "no hand given", "no dots",
        "not a rank", "twelve cards", "a card in two hands"])
def test_a_deal_that_cannot_be_read_says_which_hand_and_why(deal, code, message):
    found = problem(pbn_game('Event "x"', 'Dealer "N"', f'Deal "{deal}"'))
    assert (found.code, found.line, found.game) == (code, 3, 1)
    assert found.message.startswith(message)


@pytest.mark.parametrize("tags, hint", [
    (['Dealer "N"'], ""),
    (['Dealer "N"', f'deal "{DEAL}"'], " (it has [deal]: tag names are case-sensitive)"),
], ids=["no deal at all", "a deal tag in lower case"])
def test_a_game_without_a_deal_says_how_to_write_one(tags, hint):
    assert problem(pbn_game(*tags)).message == (
        f"the game has no [Deal] tag{hint}: give the hands as "
        f"[Deal \"N:AK72.QJ5.T98.432 - - -\"]")


# Dealer and vulnerability ------------------------------------------------------------------

@pytest.mark.parametrize("tags, dealer", [
    (['Dealer "s"'], SOUTH), (['Dealer "West"'], WEST),
    (['Board "3"'], SOUTH), (['Board "8"', 'Auction "E"'], EAST),
], ids=["dealer in lower case", "dealer as a word", "dealer from the board number",
        "dealer from the auction"])
def test_the_dealer_comes_from_the_tag_the_auction_or_the_board(tags, dealer):
    assert one(pbn_game(*tags, f'Deal "{DEAL}"')).dealer == dealer


@pytest.mark.parametrize("tags, code, message", [
    ([], "no_dealer", "the game has no [Dealer] tag: add one such as [Dealer \"N\"] "
                      "(N, E, S or W)"),
    (['Dealer "Q"'], "bad_dealer", "[Dealer 'Q'] is not a seat: write N, E, S or W"),
    (['Dealer "N"', 'Auction "E"'], "dealer_mismatch",
     "the auction starts with East but [Dealer] is North: the dealer calls first, so "
     "correct one of them"),
    (['Dealer "N"', 'Vulnerable "Some"'], "bad_vulnerable",
     "[Vulnerable 'Some'] is not a vulnerability: write None, NS, EW or All"),
], ids=["no dealer anywhere", "not a seat", "auction and dealer disagree",
        "not a vulnerability"])
def test_dealer_and_vulnerability_problems(tags, code, message):
    found = problem(pbn_game(f'Deal "{DEAL}"', *tags))
    assert (found.code, found.message) == (code, message)


@pytest.mark.parametrize("word, vulnerability", [
    ("None", Vulnerability.NONE), ("Love", Vulnerability.NONE), ("-", Vulnerability.NONE),
    ("ns", Vulnerability.NS), ("EW", Vulnerability.EW), ("All", Vulnerability.ALL),
    ("both", Vulnerability.ALL),
])
def test_every_vulnerability_word_of_the_standard(word, vulnerability):
    board = one(pbn_game('Dealer "N"', f'Vulnerable "{word}"', f'Deal "{DEAL}"'))
    assert board.vulnerability is vulnerability


def test_no_vulnerable_tag_leaves_it_unknown():
    assert one(pbn_game('Dealer "N"', f'Deal "{DEAL}"')).vulnerability is None


# Auction -----------------------------------------------------------------------------------

def calls_of(auction: str, seat: str = "N") -> list[str]:
    board = one(pbn_game(f'Deal "{DEAL}"', f'Auction "{seat}"', auction=auction))
    return [call.text for call in board.auction.calls]


@pytest.mark.parametrize("auction, calls", [
    ("1S Pass 2S Pass\nPass Pass", ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]),
    ("1s ap", ["1S", "Pass", "Pass", "Pass"]),
    ("AP", ["Pass"] * 4),
    ("Pass Pass AP", ["Pass"] * 4),
    ("1C X AP", ["1C", "X", "Pass", "Pass", "Pass"]),
    ("1C Pass Pass AP", ["1C", "Pass", "Pass", "Pass"]),
    ("1C Pass Pass Pass AP", ["1C", "Pass", "Pass", "Pass"]),
    ("Pass Pass Pass Pass AP", ["Pass"] * 4),
    ("1S =1= Pass ! 2S $3 Pass ?! Pass Pass", ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]),
    ("1S=1= Pass", ["1S", "Pass"]),
    ("1C ^I 1D Pass", ["1C", "1D", "Pass"]),
    ("1S Pass *\n1NT", ["1S", "Pass"]),
    ("1S Pass +", ["1S", "Pass"]),
    ("=1= 1S", ["1S"]),
    ("", []),
], ids=["four to a line", "lower case and all pass", "all pass at once",
        "all pass after passes", "all pass after a double", "all pass with two passes to go",
        "all pass once the auction ended", "four passes then all pass",
        "suffixes NAGs and notes left aside", "a note glued to its call",
        "an insufficient bid marked", "an asterisk ends the calls", "a plus ends the calls",
        "a note before any call", "no calls"])
def test_auctions(auction, calls):
    assert calls_of(auction) == calls


def test_hyphens_stand_for_the_players_before_the_dealer():
    board = one(pbn_game('Dealer "S"', f'Deal "{DEAL}"', 'Auction "W"',
                         auction="- - - 1C\nPass"))
    assert (board.auction.dealer, board.auction.opening[0]) == (SOUTH, SOUTH)


@pytest.mark.parametrize("auction, message", [
    ("1S 8C", "'8C' in the auction is not a call"),
    ('1S "Pass"', "'Pass' in the auction is not a call"),
    ("1S Pass%", "'Pass%' in the auction is not a call"),
    ("1S - Pass", "'-' in the auction is not a call"),
], ids=["level 8", "a quoted call", "a stray character", "a hyphen after the first call"])
def test_what_is_not_a_call_is_reported_on_its_line(auction, message):
    found = problem(pbn_game('Dealer "N"', f'Deal "{DEAL}"', 'Auction "N"',
                             auction="Pass\n" + auction))
    assert (found.code, found.line) == ("bad_call", 5)
    assert found.message == message + ": write Pass, X, XX, AP or a bid such as 1S or 3NT"


def test_the_auction_names_a_seat():
    found = problem(pbn_game(f'Deal "{DEAL}"', 'Auction "Z"', auction="1S"))
    assert found.message == "[Auction 'Z'] names who calls first: N, E, S or W"


def test_a_bad_game_in_the_middle_leaves_the_others_read():
    text = "\n".join([pbn_game('Dealer "N"', f'Deal "{DEAL}"'),
                      pbn_game('Dealer "N"', 'Deal "rubbish"'),
                      pbn_game('Dealer "E"', f'Deal "{DEAL}"')])
    reading = read(text)
    assert [board.dealer for board in reading.boards] == [NORTH, EAST]
    assert [(board.game, board.line) for board in reading.boards] == [(1, 1), (3, 7)]
    assert [(found.game, found.line) for found in reading.problems] == [(2, 5)]


# Writing -----------------------------------------------------------------------------------

def test_a_tag_escapes_quotes_and_backslashes():
    assert tag("Event", 'a "b" \\c') == '[Event "a \\"b\\" \\\\c"]'
    assert [token.text for token in tokens(tag("Event", 'a "b" \\c'))][2] == 'a "b" \\c'


@pytest.mark.parametrize("seat", list(Seat), ids=[seat.word for seat in Seat])
def test_dealt_games_read_back_with_the_hand_in_its_seat(seat):
    hands = [parse_hand(N_HAND), parse_hand("KT932.82.AQT94.A")]
    reading = read(dealt_games(hands, "2 hands", 7, True, seat))
    assert reading.problems == ()
    for number, (board, hand) in enumerate(zip(reading.boards, hands), 1):
        assert (board.number, board.dealer, board.hand(seat)) == (str(number), seat, hand)
        assert sum(hand is not None for hand in board.hands) == 1
        assert board.auction.opening == (seat, board.auction.calls[0])
        assert len(board.auction.calls) == 4


def test_dealt_games_without_a_key_have_no_auction():
    reading = read(dealt_games([parse_hand(N_HAND)], "1 hand", 7, False))
    assert reading.boards[0].auction is None


def test_a_note_too_long_for_a_line_leaves_out_the_closest_rules():
    from bidder import explain
    from helpers import STRONG_NO_BID

    strong = explain(STRONG_NO_BID)
    assert len(tag("Note", f"1:{strong.explanation}")) > pbn.LINE_LIMIT
    assert pbn.opening_note(strong) == strong.explanation.split(" Closest: ")[0]
    weak = explain("AKQ2.K32.432.432")
    assert " Closest: " in weak.explanation and pbn.opening_note(weak) == weak.explanation
