"""Boards as bridge players keep them: seats, vulnerability, calls and auctions.

A ``Board`` holds the four seats' hands (a hand a file does not give is None), the
dealer, the vulnerability and the auction at the table, if the file has one. A
``Reading`` is what a PBN or LIN file gave.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from ..bids import NO_BID, NO_TRUMP, Bid
from ..cards import Hand
from ..errors import BidderError

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

    @property
    def place(self) -> str:
        """Where it is in its file: 'game 2, line 26', or 'line 1' when its name is
        already its game ('Game 1')."""
        return f"game {self.game}, line {self.line}" if self.number else f"line {self.line}"

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


PBN, LIN = "pbn", "lin"


@dataclass(frozen=True)
class Reading:
    """What a file gave: its boards, and the games that could not be read (the rest of
    the file is read all the same)."""

    format: str
    boards: tuple[Board, ...]
    problems: tuple[BoardError, ...] = ()
