"""Every seat's opening by the rules for a board, who would open first going round from
the dealer, and the first bid at the table beside it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ..advice import Advice, explain
from ..bids import NO_BID, Bid
from .model import DOUBLE, POSITIONS, REDOUBLE, Board, Call, Seat


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

    def summary_in_letters(self) -> str:
        """The summary with bids and calls in letters ('1S', 'Double'), as the terminal
        and JSON write them."""
        return self.summary(lambda bid: bid.plain, lambda call: call.plain)

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
            "summary": self.summary_in_letters(),
        }


def openings(board: Board) -> Openings:
    """Every known hand's opening by the rules, for *board*."""
    return Openings(board, tuple(None if hand is None else explain(hand)
                                 for hand in board.hands))
