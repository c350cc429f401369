"""Links that open a board in Bridge Base Online's hand viewer, the diagram students know
from BBO: its documented parameters n=, e=, s=, w= (each hand as suits with their ranks,
``sakq2hj54dt98c432``), d= the dealer, v= the vulnerability (``-``, ``n``, ``e``,
``b``), b= the board number and a= the auction (``p`` pass, ``d`` double, ``r``
redouble, bids such as ``1s`` and ``3n``). Only links: the app fetches nothing."""

from __future__ import annotations

from urllib.parse import urlencode

from ..cards import Hand
from .lin import lin_hand
from .model import DOUBLE, PASS, REDOUBLE, Board, Call, Seat, Vulnerability

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"
VULNERABILITY_LETTERS = {Vulnerability.NONE: "-", Vulnerability.NS: "n",
                         Vulnerability.EW: "e", Vulnerability.ALL: "b"}
CALL_LETTERS = {PASS: "p", DOUBLE: "d", REDOUBLE: "r"}


def call_text(call: Call) -> str:
    """A call as the viewer's a= writes it: 'p', 'd', 'r', '1s', '3n'."""
    return CALL_LETTERS.get(call.text) or call.text.replace("NT", "N").lower()


def board_url(board: Board, seats: tuple[Seat, ...] | None = None) -> str:
    """The viewer's link for *board*: the hands of *seats* (every hand given, by
    default), the dealer, the vulnerability and the board number when the file gives
    them, and the auction at the table."""
    params = {seat.letter.lower(): lin_hand(board.hand(seat)).lower()
              for seat in (seats or tuple(Seat)) if board.hand(seat) is not None}
    params["d"] = board.dealer.letter.lower()
    if board.vulnerability is not None:
        params["v"] = VULNERABILITY_LETTERS[board.vulnerability]
    if board.number.isdigit():
        params["b"] = board.number
    if board.auction is not None and board.auction.calls:
        params["a"] = "".join(map(call_text, board.auction.calls))
    return f"{HANDVIEWER}?{urlencode(params, safe='-')}"


def hand_url(hand: Hand, seat: Seat = Seat.NORTH) -> str:
    """The viewer's link for one hand, in *seat*, which deals: board_url() of a board of
    that hand alone, written directly (the advisor's page has one for every hand). A
    LIN hand is letters and digits: nothing in it needs quoting."""
    letter = seat.letter.lower()
    return f"{HANDVIEWER}?{letter}={lin_hand(hand).lower()}&d={letter}"
