"""Grading the boards of a PBN or LIN file: every seat's opening by the rules, beside the
call that seat made at the table while no one had bid yet (a pass, or the opening bid),
as CSV or JSON Lines rows, and a summary per rule.

A row per seat of every board, the dealer's first; a seat whose hand the file does not
give has a row without a bid. A game that cannot be read is one row with its error.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Iterable, NamedTuple

from ..bids import Bid
from ..boards import Call, Openings, Reading, openings
from .classfile import Summary, summarise

COLUMNS = ("game", "line", "board", "dealer", "vulnerable", "seat", "position", "hand",
           "bid", "rule", "hcp", "distribution", "points", "opens_first", "table",
           "agrees", "error")


class SeatRow(NamedTuple):
    """One seat of one board (or a game that could not be read, with its error).

    *table* is the seat's call at the table while no one had bid, if the auction gives
    one; *correct* says whether the rules make the same call (None when there is
    nothing to compare).
    """

    game: int
    line: int
    board: str = ""
    dealer: str = ""
    vulnerable: str = ""
    seat: str = ""
    position: int | None = None
    hand: str = ""
    bid: Bid | None = None
    rule: str = ""
    hcp: int | None = None
    distribution: int | None = None
    points: int | None = None
    opens_first: bool | None = None
    table: Call | None = None
    correct: bool | None = None
    error: str = ""

    @property
    def answer(self) -> Bid | None:
        """The table's call as a bid (NO_BID for a pass), as the summary counts it."""
        return None if self.table is None else self.table.bid

    def values(self) -> tuple:
        """The row's values in COLUMNS order, as JSON types."""
        return (self.game, self.line, self.board, self.dealer, self.vulnerable,
                self.seat or None, self.position, self.hand or None,
                None if self.bid is None else self.bid.text, self.rule or None, self.hcp,
                self.distribution, self.points, self.opens_first,
                None if self.table is None else self.table.plain, self.correct,
                self.error or None)

    def cells(self) -> list:
        """The row as CSV cells: bids in text form ('None' for no bid), yes or no, empty
        where there is nothing."""
        cells = list(self.values())
        cells[COLUMNS.index("bid")] = "" if self.bid is None else str(self.bid)
        return ["" if value is None else "yes" if value is True else "no"
                if value is False else value for value in cells]

    def to_dict(self) -> dict:
        """The row as JSON types: no bid is null."""
        return dict(zip(COLUMNS, self.values()))


def seat_rows(table: Openings) -> list[SeatRow]:
    """A row per seat of a board, the dealer's first."""
    board, (opener, _) = table.board, table.first
    auction = board.auction
    rows = []
    for seat in board.in_order():
        advice = table.advice[seat]
        common = SeatRow(board.game, board.line, board.number, board.dealer.letter,
                         "" if board.vulnerability is None else board.vulnerability.value,
                         seat.letter, table.position(seat))
        if advice is None:
            rows.append(common)
            continue
        facts = advice.facts
        rows.append(common._replace(
            hand=str(facts.hand), bid=Bid.from_value(advice.bid), rule=advice.rule,
            hcp=facts.tally.hcp, distribution=facts.tally.distribution, points=facts.tally.points,
            opens_first=seat == opener,
            table=auction.opening_call(seat) if auction else None,
            correct=table.agrees(seat)))
    return rows


def rows(reading: Reading) -> list[SeatRow]:
    """Every seat of every board, and a row for each game that could not be read, in
    the order of the file."""
    graded = [(board.game, seat_rows(openings(board))) for board in reading.boards]
    graded += [(problem.game, [SeatRow(problem.game, problem.line, error=problem.message)])
               for problem in reading.problems]
    return [row for _, game in sorted(graded, key=lambda item: item[0]) for row in game]


def render(items: Iterable[SeatRow], output_format: str) -> str:
    """Rows as CSV (with a header) or as JSON Lines."""
    if output_format == "jsonl":
        return "".join(json.dumps(row.to_dict(), ensure_ascii=False) + "\n"
                       for row in items)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(row.cells() for row in items)
    return buffer.getvalue()


def summary_of(items: list[SeatRow]) -> Summary:
    """The counts per rule over the seats whose hands are given, and the bad games."""
    return summarise(row for row in items if row.hand or row.error)
