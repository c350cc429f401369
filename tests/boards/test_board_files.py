"""Files told apart by what they hold, read in any of their encodings; our PBN and LIN
read back by our reader and PBN by endplay's; links to BBO's hand viewer."""

import importlib
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given, strategies as st

from bidder import explain, parse_hand
from bidder.dealing import deal_set, random_hand, threshold_hands
from bidder.boards.model import Auction, Board, BoardError, Call, Seat, Vulnerability
from bidder.boards.files import LIN, PBN, decode, read_boards, sniff
from bidder.boards.files import lin, pbn
from bidder.boards.handviewer import HANDVIEWER, board_url, call_text, hand_url

from helpers import CLUB_LIN, CLUB_PBN
from needs import missing

NORTH, EAST, SOUTH, WEST = Seat
PBN_LINE_LIMIT = 255 - 2  # characters, and CR LF


@pytest.mark.parametrize("text, kind", [
    ('% PBN 2.1\n[Event "x"]', PBN), ('\ufeff\n\n[Deal "N:- - - -"]', PBN),
    ("; a comment\n{another}\n[Dealer \"N\"]", PBN), ("% PBN 2.1\n", PBN),
    ("{a comment\nover lines: 5C 7H\n}\n[Dealer \"N\"]", PBN),
    ("pn|a,b,c,d|md|1S|", LIN), ("\n  qx|o1|", LIN),
    ("hand,answer,student\n5C 7H AS", None), ("# a class\n5C 7H", None), ("", None),
    ("%% only comments\n", None),
], ids=["pbn version line", "byte order mark and empty lines", "comments first",
        "a pbn file with no games yet", "a comment over several lines first", "lin", "lin after an empty line",
        "a class file with a header", "a class file with a comment", "empty",
        "nothing but escapes"])
def test_files_are_told_apart_by_what_they_hold(text, kind):
    assert sniff(text) == kind


def test_text_is_utf8_else_latin1_as_pbn_is_written():
    assert decode('[Event "Café"]'.encode()) == '[Event "Café"]'
    assert decode(b'\xef\xbb\xbf[Event "x"]') == '[Event "x"]'
    assert decode('[Event "Café"]'.encode("latin-1")) == '[Event "Café"]'


def test_neither_pbn_nor_lin_says_what_to_do():
    with pytest.raises(BoardError) as raised:
        read_boards("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C,1C")
    assert raised.value.code == "not_boards"
    assert "export the boards from your bridge program as PBN or LIN" in str(raised.value)


@pytest.mark.parametrize("path, kind", [(CLUB_PBN, PBN), (CLUB_LIN, LIN)],
                         ids=["pbn", "lin"])
def test_read_boards_reads_either_by_its_content(path, kind):
    reading = read_boards(decode(path.read_bytes()))
    assert (reading.format, len(reading.boards), len(reading.problems)) == (kind, 3 + (
        kind == PBN), 1)


# Round trips -----------------------------------------------------------------------------

@given(st.integers(min_value=0, max_value=2 ** 32), st.sampled_from(list(Seat)),
       st.booleans())
def test_reading_the_pbn_of_any_dealt_hand_gives_the_same_hand(seed, seat, key):
    hand = random_hand(seed)
    (board,) = read_boards(pbn.dealt_games([hand], "one", seed, key, seat)).boards
    assert board.hand(seat) == hand
    assert board.dealer == seat


@given(st.integers(min_value=0, max_value=2 ** 32), st.sampled_from(list(Seat)))
def test_reading_the_lin_of_any_dealt_hand_gives_the_same_hand(seed, seat):
    hand = random_hand(seed)
    (board,) = read_boards(lin.dealt_lines([hand], True, seat)).boards
    assert (board.hand(seat), board.dealer) == (hand, seat)
    assert board.auction.opening_call(seat).bid.text == explain(hand).bid


def test_dealt_pbn_keeps_to_the_standards_lines_and_characters():
    hands = [parse_hand(hand) for _, hand in threshold_hands(1)] + [
        hand for _, hand in deal_set(100, 1)]
    text = pbn.dealt_games(hands, "sets", 1, True)
    assert text.isascii()
    assert max(map(len, text.splitlines())) <= PBN_LINE_LIMIT


@pytest.fixture(scope="module")
def endplay_pbn():
    """endplay's PBN parser (a test dependency), or a skip that says why."""
    try:
        return importlib.import_module("endplay.parsers.pbn")
    except ImportError:
        missing("endplay is not installed (pip install -e '.[test]')",
                "reading our PBN with another program's parser")


@pytest.mark.parametrize("rule", ["R1", "R2", "R3", "R5", "R6", "R7", "R8", "R9"])
@pytest.mark.parametrize("seat", list(Seat), ids=[seat.word for seat in Seat])
def test_endplay_reads_our_pbn_back(endplay_pbn, rule, seat):
    from bidder.rules import RULE_BY_ID

    hands = [hand for _, hand in deal_set(3, 5, rule=RULE_BY_ID[rule])]
    boards = endplay_pbn.loads(pbn.dealt_games(hands, "three", 5, True, seat))
    assert len(boards) == len(hands)
    for number, (board, hand) in enumerate(zip(boards, hands), 1):
        advice = explain(hand)
        assert board.board_num == number
        assert int(board.dealer) == [NORTH, EAST, SOUTH, WEST].index(seat)
        held = getattr(board.deal, seat.name.lower()).to_pbn()
        assert parse_hand(held) == hand
        calls = [str(call) for call in board.auction]
        assert len(calls) == 4
        assert calls[0].startswith(advice.bid[0] if advice.bid else "P")
        assert board.auction[0].announcement == pbn.opening_note(advice)


# BBO's hand viewer ------------------------------------------------------------------------

def query(url: str) -> dict:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == HANDVIEWER
    return {name: values[0] for name, values in parse_qs(parts.query).items()}


def test_a_hands_link_puts_it_in_its_seat_as_dealer():
    assert query(hand_url(parse_hand("AQ6.AKJ5.J8.KJ74"))) == {
        "n": "saq6hakj5dj8ckj74", "d": "n"}
    assert query(hand_url(parse_hand("AKQJT98765432..."), SOUTH)) == {
        "s": "sakqjt98765432hdc", "d": "s"}


@pytest.mark.parametrize("seat", list(Seat))
def test_a_hands_link_is_the_link_of_a_board_of_that_hand_alone(seat):
    for seed in range(50):
        hand = random_hand(seed)
        alone = tuple(hand if place == seat else None for place in Seat)
        assert hand_url(hand, seat) == board_url(Board("", seat, None, alone))


@pytest.mark.parametrize("call, text", [("Pass", "p"), ("X", "d"), ("XX", "r"),
                                        ("1S", "1s"), ("3NT", "3n")])
def test_calls_as_the_viewer_writes_them(call, text):
    assert call_text(Call(call)) == text


def test_a_boards_link_has_its_hands_dealer_vulnerability_number_and_auction():
    reading = read_boards(CLUB_PBN.read_bytes().decode())
    second = reading.boards[1]
    assert query(board_url(second)) == {
        "n": "sak7ha42dt76ckq86", "e": "s643hj963dj985cj5", "s": "sqt952hkqt75dc932",
        "w": "sj8h8dakq432cat74", "d": "e", "v": "n", "b": "2", "a": "pp1dd2d2sppp"}
    assert query(board_url(second, (WEST,))) == {
        "w": "sj8h8dakq432cat74", "d": "e", "v": "n", "b": "2", "a": "pp1dd2d2sppp"}


@pytest.mark.parametrize("vulnerability, letter", [
    (Vulnerability.NONE, "-"), (Vulnerability.NS, "n"), (Vulnerability.EW, "e"),
    (Vulnerability.ALL, "b")])
def test_vulnerability_as_the_viewer_writes_it(vulnerability, letter):
    board = Board("Final", WEST, vulnerability, (None, None, None,
                                                 parse_hand("AQ6.AKJ5.J8.KJ74")),
                  Auction(WEST, ()))
    assert query(board_url(board)) == {"w": "saq6hakj5dj8ckj74", "d": "w", "v": letter}
