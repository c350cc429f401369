"""Boards as bridge players keep them, and every seat's opening by the rules.

A ``Board`` holds the four seats' hands (a hand a file does not give is None), the
dealer, the vulnerability and the auction at the table, if the file has one. ``openings``
gives each known hand's opening by the rules (``explain``), who would open first going
round from the dealer, and the first bid at the table beside it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from .advice import Advice, explain
from .bids import NO_BID, NO_TRUMP, Bid
from .cards import Hand
from .errors import BidderError

POSITIONS = ("first", "second", "third", "fourth")
PASS, DOUBLE, REDOUBLE = "Pass", "X", "XX"
CALL_WORDS = {PASS: "Pass", DOUBLE: "Double", REDOUBLE: "Redouble"}
# A bid as files write it: a level, then a strain (N is short for NT).
_BID = re.compile(r"([1-7])(NT|N|[CDHS])", re.IGNORECASE)


class Seat(enum.IntEnum):
    """A seat at the table, in clockwise order from North."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def letter(self) -> str:
        """N, E, S or W."""
        return self.name[0]

    @property
    def word(self) -> str:
        """North, East, South or West."""
        return self.name.capitalize()

    def after(self, steps: int = 1) -> Seat:
        """The seat *steps* places on, clockwise."""
        return Seat((self + steps) % len(Seat))

    @classmethod
    def from_letter(cls, text: str) -> Seat | None:
        """The seat for 'N', 'e', 'South' and so on; None for anything else."""
        return SEAT_BY_WORD.get(text.strip().upper())


SEAT_BY_WORD = {**{seat.letter: seat for seat in Seat}, **{seat.name: seat for seat in Seat}}


class Vulnerability(enum.Enum):
    """Which side is vulnerable, named as PBN names it."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    @property
    def words(self) -> str:
        """'neither side', 'North-South', 'East-West' or 'both sides'."""
        return {"None": "neither side", "NS": "North-South", "EW": "East-West",
                "All": "both sides"}[self.value]

    def includes(self, seat: Seat) -> bool:
        """Whether *seat* is vulnerable."""
        side = Vulnerability.NS if seat in (Seat.NORTH, Seat.SOUTH) else Vulnerability.EW
        return self in (side, Vulnerability.ALL)


class BoardError(BidderError):
    """A game of a file that cannot be read: what is wrong, and what to write instead;
    *game* counts the games of the file from 1, *line* is where the problem is."""

    def __init__(self, message: str, code: str, game: int = 0, line: int = 0):
        super().__init__(message, code)
        self.game = game
        self.line = line

    def at(self, game: int, line: int) -> BoardError:
        """The same problem placed in *game* at *line* (its own line, if it has one)."""
        return BoardError(self.message, self.code, game, self.line or line)

    def __str__(self) -> str:
        return f"game {self.game}, line {self.line}: {self.message}"


@dataclass(frozen=True)
class Call:
    """One call of an auction, in its text form: 'Pass', 'X', 'XX' or a bid such as
    '1S' or '3NT'; *note* is the explanation the file gives for it, if any."""

    text: str
    note: str = ""

    @property
    def bid(self) -> Bid:
        """The bid made, or NO_BID for a pass, a double or a redouble."""
        if self.text in CALL_WORDS:
            return NO_BID
        return Bid(int(self.text[0]), self.text[1:])

    @property
    def display(self) -> str:
        """The call on a screen: '1♠', '2NT', 'Pass', 'Double'."""
        return CALL_WORDS.get(self.text) or self.bid.display

    @property
    def plain(self) -> str:
        """The call in letters: '1S', '2NT', 'Pass', 'Double'."""
        return CALL_WORDS.get(self.text) or self.text


def read_call(token: str, note: str = "") -> Call | None:
    """The call a file writes as *token*: Pass (or P), X (or D), XX (or R), or a bid
    (1S, 3nt, 2N); None if it is none of them."""
    word = token.strip().upper()
    word = {"P": PASS, "PASS": PASS, "D": DOUBLE, "R": REDOUBLE}.get(word, word)
    if word in CALL_WORDS:
        return Call(word, note)
    match = _BID.fullmatch(word)
    if match is None:
        return None
    level, strain = match.groups()
    return Call(level + (NO_TRUMP if strain.startswith("N") else strain), note)


@dataclass(frozen=True)
class Auction:
    """The calls made at the table, the dealer's first, as far as the file gives them."""

    dealer: Seat
    calls: tuple[Call, ...]

    def seat_of(self, index: int) -> Seat:
        """Who made the call at *index*."""
        return self.dealer.after(index)

    @property
    def opening(self) -> tuple[Seat, Call] | None:
        """The first bid and who made it; None when no one bid in the calls given."""
        return next(((self.seat_of(index), call) for index, call in enumerate(self.calls)
                     if call.bid), None)

    @property
    def passed_out(self) -> bool:
        """Whether all four passed: four passes and no bid."""
        return len(self.calls) >= len(Seat) and all(
            call.text == PASS for call in self.calls[:len(Seat)])

    def opening_call(self, seat: Seat) -> Call | None:
        """*seat*'s call while no one had bid yet (a pass, or the opening bid itself);
        None when someone opened before *seat* called, or the calls given stop first."""
        for index, call in enumerate(self.calls[:len(Seat)]):
            if self.seat_of(index) == seat:
                return call
            if call.bid:
                return None
        return None

    def rows(self) -> list[list[Call | None]]:
        """The calls in rows of four, West first as bridge columns go, None before the
        dealer's first call and after the last."""
        lead = (self.dealer - Seat.WEST) % len(Seat)
        cells: list[Call | None] = [None] * lead + list(self.calls)
        cells += [None] * (-len(cells) % len(Seat))
        return [cells[start:start + len(Seat)] for start in range(0, len(cells), len(Seat))]


COLUMNS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)


@dataclass(frozen=True)
class Board:
    """A board read from a file: its number as the file names it ('' when it does not),
    the dealer, the vulnerability (None when not given), the hand of each seat in the
    order North, East, South, West (None when not given) and the auction, if any;
    *game* and *line* say where it is in the file."""

    number: str
    dealer: Seat
    vulnerability: Vulnerability | None
    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]
    auction: Auction | None = None
    game: int = 1
    line: int = 1

    @property
    def name(self) -> str:
        """'Board 3', or 'Game 3' when the file gives no board number."""
        return f"Board {self.number}" if self.number else f"Game {self.game}"

    def hand(self, seat: Seat) -> Hand | None:
        """The hand in *seat*, or None when the file does not give it."""
        return self.hands[seat]

    def in_order(self) -> tuple[Seat, ...]:
        """The seats in the order they call: the dealer first."""
        return tuple(self.dealer.after(step) for step in range(len(Seat)))


def dealt_board(hand: Hand, seat: Seat = Seat.NORTH, number: int = 1) -> Board:
    """A board for one dealt hand: the hand in *seat*, which deals; the others unknown."""
    hands = tuple(hand if place == seat else None for place in Seat)
    return Board(str(number), seat, Vulnerability.NONE, hands, game=number)


def board_dealer(number: str) -> Seat | None:
    """The dealer duplicate boards rotate through: board 1 North, 2 East, 3 South,
    4 West, 5 North again; None for a board without a number."""
    return Seat((int(number) - 1) % len(Seat)) if number.isdigit() and int(number) else None


# Every seat's opening ----------------------------------------------------------------

@dataclass(frozen=True)
class Openings:
    """Each seat's opening by the rules (None where the hand is not given), and who
    opens first going round from the dealer."""

    board: Board
    advice: tuple[Advice | None, Advice | None, Advice | None, Advice | None]

    @cached_property
    def first(self) -> tuple[Seat | None, Seat | None]:
        """(the first seat from the dealer whose hand opens, the first seat whose hand is
        not given before it); (None, None) when all four known hands pass."""
        for seat in self.board.in_order():
            advice = self.advice[seat]
            if advice is None:
                return None, seat
            if advice.bid is not None:
                return seat, None
        return None, None

    @property
    def first_bid(self) -> Bid:
        """The bid the first opener makes by the rules; NO_BID if none is known."""
        seat = self.first[0]
        return NO_BID if seat is None else Bid.from_value(self.advice[seat].bid)

    def position(self, seat: Seat) -> int:
        """*seat*'s place in the calling order: 1 for the dealer, up to 4."""
        return (seat - self.board.dealer) % len(Seat) + 1

    def agrees(self, seat: Seat) -> bool | None:
        """Whether *seat*'s call at the table, made while no one had bid, is what the
        rules bid (a pass for no bid); None when there is no such call or no hand."""
        auction, advice = self.board.auction, self.advice[seat]
        call = auction.opening_call(seat) if auction else None
        if call is None or advice is None or call.text in (DOUBLE, REDOUBLE):
            return None
        return call.bid == Bid.from_value(advice.bid)

    def rules_sentence(self, show: Callable[[Bid], str] = lambda bid: bid.display) -> str:
        """Who opens first by the rules, in words: 'the rules open 1♠ in second seat
        (East)', 'by the rules all four pass', or why it cannot be told."""
        opener, unknown = self.first
        if opener is not None:
            return (f"the rules open {show(self.first_bid)} in "
                    f"{POSITIONS[self.position(opener) - 1]} seat ({opener.word})")
        if unknown is not None:
            return (f"who opens first by the rules cannot be told: {unknown.word}'s hand "
                    f"is not given")
        return "by the rules all four pass"

    def table_sentence(self, show: Callable[[Call], str] = lambda call: call.display
                       ) -> str | None:
        """The first bid at the table in words: 'at the table West opened 1NT', 'at the
        table all four passed'; None when the file gives no auction."""
        auction = self.board.auction
        if auction is None:
            return None
        if auction.opening is not None:
            seat, call = auction.opening
            return f"at the table {seat.word} opened {show(call)}"
        if auction.passed_out:
            return "at the table all four passed"
        return "at the table the calls given stop before anyone bids"

    def summary(self, bid_text: Callable[[Bid], str] = lambda bid: bid.display,
                call_text: Callable[[Call], str] = lambda call: call.display) -> str:
        """Both in one sentence: 'The rules open 1♠ in second seat (East); at the table
        West opened 1NT.'"""
        parts = [self.rules_sentence(bid_text), self.table_sentence(call_text)]
        text = "; ".join(part for part in parts if part)
        return text[0].upper() + text[1:] + "."

    def to_dict(self) -> dict:
        """The board and every seat's opening as plain JSON types."""
        board, (opener, unknown) = self.board, self.first
        auction, table = board.auction, board.auction and board.auction.opening
        return {
            "board": board.number, "game": board.game, "line": board.line,
            "dealer": board.dealer.word,
            "vulnerable": None if board.vulnerability is None else board.vulnerability.value,
            "seats": [{"seat": seat.word, "position": self.position(seat),
                       "advice": None if self.advice[seat] is None
                       else self.advice[seat].to_dict()} for seat in Seat],
            "first": {"seat": None if opener is None else opener.word,
                      "bid": self.first_bid.text, "unknown": None if unknown is None
                      else unknown.word},
            "auction": None if auction is None else [call.plain for call in auction.calls],
            "table": None if not table else {"seat": table[0].word, "call": table[1].plain},
            "summary": self.summary(lambda bid: bid.plain, lambda call: call.plain),
        }


def openings(board: Board) -> Openings:
    """Every known hand's opening by the rules, for *board*."""
    return Openings(board, tuple(None if hand is None else explain(hand)
                                 for hand in board.hands))
