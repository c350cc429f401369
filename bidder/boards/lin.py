"""LIN, Bridge Base Online's format: boards read from it, and dealt hands written in it.

A LIN text is a run of ``key|value|`` pairs, line breaks between pairs allowed. A board
starts at ``qx|`` (or at a second ``md|``); ``md|`` gives the dealer as a digit (1 South,
2 West, 3 North, 4 East) and the hands South, West, North, East, each as suits with
their ranks (``SAK72HQJ5DT98C432``), an empty hand for one not given (the fourth, when
the other three are whole, is the cards left); ``sv|`` the vulnerability (``o`` none,
``n``, ``e``, ``b`` both), ``ah|`` the board's name (``Board 12``), ``mb|`` each call
(``p``, ``d``, ``r``, ``1S``, ``3N``; ``!`` marks an alert) and ``an|`` its explanation.
Other keys are skipped.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from ..advice import explain
from ..cards import DECK, SUITS_HIGH_FIRST, Hand, InvalidHandError, parse_hand
from ..errors import echo
from .model import (LIN, Auction, Board, BoardError, Call, Reading, Seat, Vulnerability,
                    dealt_board, read_call)
from .pbn import opening_note

SEAT_BY_DIGIT = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}
DIGIT_BY_SEAT = {seat: digit for digit, seat in SEAT_BY_DIGIT.items()}
HAND_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)  # as md| lists them
VULNERABILITY_BY_LETTER = {"O": Vulnerability.NONE, "0": Vulnerability.NONE,
                           "-": Vulnerability.NONE, "N": Vulnerability.NS,
                           "E": Vulnerability.EW, "B": Vulnerability.ALL}
LETTER_BY_VULNERABILITY = {Vulnerability.NONE: "o", Vulnerability.NS: "n",
                           Vulnerability.EW: "e", Vulnerability.ALL: "b"}
_MD_EXAMPLE = "md|3SAK72HQJ5DT98C432,,,|"
_SUIT_RUN = re.compile(r"([SHDC])([^SHDC]*)")


def pairs(text: str) -> Iterator[tuple[str, str, int]]:
    """(key, value, line) for each ``key|value|`` of a LIN text.

    :raises BoardError: if the text ends inside a pair.
    """
    pieces = text.lstrip("\ufeff").split("|")
    starts, line = [], 1
    for piece in pieces:
        starts.append(line)
        line += piece.count("\n")
    closed = (len(pieces) - 1) // 2
    for index in range(0, 2 * closed, 2):
        key = pieces[index]
        yield key.strip(), pieces[index + 1], starts[index] + _leading_lines(key)
    tail = "|".join(pieces[2 * closed:])
    if tail.strip():
        raise BoardError(f"the text ends inside a pair ({echo(tail.strip())}): LIN is "
                         f"key|value| pairs, each value closed by |", "bad_syntax",
                         line=starts[2 * closed] + _leading_lines(tail))


def _leading_lines(text: str) -> int:
    """How many line breaks come before the first thing that is not white space."""
    return text[:len(text) - len(text.lstrip())].count("\n")


def board_pairs(text: str) -> Iterator[list[tuple[str, str, int]]]:
    """The pairs of each board: a board starts at qx|, or at an md| when the board
    already has one; pairs before the first board (player names, say) start it."""
    board: list[tuple[str, str, int]] = []
    for key, value, line in pairs(text):
        if key in ("qx", "md") and _has_deal(board):
            yield board
            board = []
        board.append((key, value, line))
    if _has_deal(board):
        yield board


def _has_deal(items: list[tuple[str, str, int]]) -> bool:
    return any(key == "md" for key, _, _ in items)


def board(items: list[tuple[str, str, int]], game: int) -> Board:
    """The board one run of pairs gives.

    :raises BoardError: for a deal, vulnerability or call that cannot be read.
    """
    number, vulnerability, calls, dealer, hands = "", None, [], None, None
    for key, value, line in items:
        if key == "md":
            dealer, hands = read_md(value, line)
        elif key == "sv":
            vulnerability = _vulnerability(value, line)
        elif key == "ah" or key == "qx" and not number:
            number = _board_number(value)
        elif key == "mb":
            calls.append(_call(value, line))
        elif key == "an" and calls:
            calls[-1] = Call(calls[-1].text, value.strip())
    auction = Auction(dealer, tuple(calls)) if calls else None
    return Board(number, dealer, vulnerability, hands, auction, game, start_line(items))


def start_line(items: list[tuple[str, str, int]]) -> int:
    """Where a board starts: the line of its qx| or md|."""
    return next(line for key, _, line in items if key in ("qx", "md"))


def read_md(value: str, line: int) -> tuple[Seat, tuple[Hand | None, ...]]:
    """The dealer and the hands (by seat from North) of an md| value.

    :raises BoardError: saying which hand is wrong and how to write it.
    """
    dealer = SEAT_BY_DIGIT.get(value[:1])
    parts = value[1:].split(",")
    if dealer is None or len(parts) > len(Seat):
        raise BoardError(f"md|{echo(value)}| is the dealer (1 South, 2 West, 3 North, "
                         f"4 East) and up to four hands South, West, North, East separated "
                         f"by commas: write e.g. {_MD_EXAMPLE}", "bad_deal", line=line)
    hands: list[Hand | None] = [None] * len(Seat)
    for seat, part in zip(HAND_ORDER, parts):
        if part.strip():
            hands[seat] = _hand(part.strip(), seat, line)
    known = [hand for hand in hands if hand is not None]
    held = [card for hand in known for card in hand]
    if len(set(held)) != len(held):
        raise BoardError(f"md|{echo(value)}| deals a card twice: each card is dealt once",
                         "duplicate_card", line=line)
    if len(known) == len(Seat) - 1:
        missing = hands.index(None)
        hands[missing] = Hand(tuple(card for card in DECK if card not in set(held)))
    if not known:
        raise BoardError(f"md|{echo(value)}| gives no hand: write e.g. {_MD_EXAMPLE}",
                         "no_hand", line=line)
    return dealer, tuple(hands)


def _hand(text: str, seat: Seat, line: int) -> Hand:
    """A hand written as suits with their ranks: SAK72HQJ5DT98C432.

    :raises BoardError: naming the seat and what is wrong.
    """
    where = f"the {seat.word} hand {echo(text)} in md|"
    upper = text.upper()
    runs = dict(_SUIT_RUN.findall(upper))
    if "".join(suit + ranks for suit, ranks in runs.items()) != upper:
        raise BoardError(f"{where} is not suits with their ranks: write e.g. "
                         f"SAK72HQJ5DT98C432", "bad_hand", line=line)
    dotted = ".".join(runs.get(suit, "") for suit in "SHDC")
    try:
        return parse_hand(dotted)
    except InvalidHandError as error:
        raise BoardError(f"{where}: {error.message}", error.code, line=line) from None


def _vulnerability(value: str, line: int) -> Vulnerability:
    """:raises BoardError: if *value* is not an sv| letter."""
    vulnerability = VULNERABILITY_BY_LETTER.get(value.strip().upper())
    if vulnerability is None:
        raise BoardError(f"sv|{echo(value)}| is not a vulnerability: write o (none), n "
                         f"(North-South), e (East-West) or b (both)", "bad_vulnerable",
                         line=line)
    return vulnerability


def _board_number(value: str) -> str:
    """'12' from 'Board 12' (or qx|o12|); the name itself when it ends in no number."""
    match = re.search(r"(\d+)\s*$", value)
    return match.group(1) if match else value.strip()


def _call(value: str, line: int) -> Call:
    """:raises BoardError: if an mb| value is not a call."""
    call = read_call(value.strip().rstrip("!"))
    if call is None:
        raise BoardError(f"mb|{echo(value)}| is not a call: write p (pass), d (double), "
                         f"r (redouble) or a bid such as 1S or 3N", "bad_call", line=line)
    return call


def read(text: str) -> Reading:
    """Every board of a LIN text; boards that cannot be read are reported with their
    number and line, and the rest are read."""
    boards, problems = [], []
    try:
        for number, items in enumerate(board_pairs(text), 1):
            try:
                boards.append(board(items, number))
            except BoardError as error:
                problems.append(error.at(number, start_line(items)))
    except BoardError as error:
        problems.append(error.at(len(boards) + len(problems) + 1, error.line))
    return Reading(LIN, tuple(boards), tuple(problems))


# Writing ------------------------------------------------------------------------------------

def lin_hand(hand: Hand | None) -> str:
    """A hand as LIN writes it, 'SAK72HQJ5DT98C432'; '' for one not given."""
    if hand is None:
        return ""
    return "".join(suit.letter + holding
                   for suit, holding in zip(SUITS_HIGH_FIRST, hand.dotted.split(".")))


def board_line(board: Board, key: bool) -> str:
    """One board as a LIN line; with *key*, the auction: the dealer's opening by the rules
    (its reason as the explanation), then all pass."""
    hands = ",".join(lin_hand(board.hand(seat)) for seat in HAND_ORDER)
    vulnerability = LETTER_BY_VULNERABILITY[board.vulnerability or Vulnerability.NONE]
    line = (f"pn|,,,|st||md|{DIGIT_BY_SEAT[board.dealer]}{hands}|rh||"
            f"ah|Board {board.number}|sv|{vulnerability}|")
    if key:
        advice = explain(board.hand(board.dealer))
        call = "p" if advice.bid is None else advice.bid.replace("NT", "N")
        line += f"mb|{call}|an|{opening_note(advice)}|" + "mb|p|" * (len(Seat) - 1)
    return line + "pg||"


def dealt_lines(hands: Iterable[Hand], key: bool, seat: Seat = Seat.NORTH) -> str:
    """One LIN line per hand, the hand in *seat*, which deals, the others not given."""
    return "\n".join(board_line(dealt_board(hand, seat, number), key)
                     for number, hand in enumerate(hands, 1))

