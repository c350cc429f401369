"""The command line's part for PBN and LIN files: `bidder grade` on a file of boards,
`bidder bid --pbn FILE --board N`, and the files `bidder deal` writes for other tools.
Arguments come in from `bidder.cli`; every answer comes from the core."""

from __future__ import annotations

import os

import click

from .cli import (Failure, can_show_symbols, hand_picture, opened_input, os_reason,
                  output_stream, painter, rule_table, stopped, wrapped)
from .deals import COLUMNS, BoardError, Openings, Seat, openings
from .formats import Reading, decode, read_boards, sniff

SNIFF_BYTES = 4096


def head_of(stream, size: int = SNIFF_BYTES) -> bytes:
    """The first *size* bytes of a binary stream, left in place for the next reader."""
    if hasattr(stream, "peek"):
        return stream.peek(size)[:size]
    position = stream.tell()
    head = stream.read(size)
    stream.seek(position)
    return head


def sniff_input(path: str) -> str | None:
    """'pbn' or 'lin' when the file (or standard input, '-') holds boards, by what it
    holds; None for a class file of hands. A named pipe or a device is read once only,
    as a class file, since looking at its start would use it up."""
    if path != "-" and not os.path.isfile(path):
        return None
    try:
        with opened_input(path) as stream:
            return sniff(head_of(stream).decode("utf-8", "replace"))
    except OSError:
        return None  # the class file's reading says what is wrong


def read_file(path: str) -> Reading:
    """The boards of a PBN or LIN file ('-' for standard input).

    :raises Failure: if it cannot be read, or holds no boards.
    """
    try:
        with opened_input(path) as stream:
            text = decode(stream.read())
        return read_boards(text)
    except OSError as error:
        raise Failure(f"{path} could not be read: {os_reason(error)}") from None
    except BoardError as error:
        raise Failure(f"{path}: {error.message}") from None


def grade_boards(path: str, name: str, output: str, output_format: str,
                 summary_path: str | None) -> int:
    """Grade every seat of every board of a PBN or LIN file; the exit status: 0, or 1
    when some games could not be read (each reported as FILE:LINE: game N: ...)."""
    from . import board_grading

    reading = read_file(path)
    items = board_grading.rows(reading)
    for problem in reading.problems:
        click.echo(f"{name}:{problem.line}: game {problem.game}: {problem.message}",
                   err=True)
    try:
        with output_stream(output) as stream:
            stream.write(board_grading.render(items, output_format))
        with output_stream(summary_path, err=True) as stream:
            stream.write("\n".join(summary_lines(name, items, reading.format)) + "\n")
    except OSError as error:
        raise stopped("grading stopped", os_reason(error), output) from None
    return 1 if reading.problems else 0


def summary_lines(name: str, items, format_name: str) -> list[str]:
    """The summary: boards and hands read, games that could not be, the calls made at
    the table while no one had bid and how many the rules make too, then per rule."""
    from .board_grading import summary_of

    summary = summary_of(items)
    boards = len({row.game for row in items if not row.error})
    missing = sum(1 for row in items if row.seat and not row.hand)
    bad = [f"game {row.game}, line {row.line}" for row in items if row.error]
    lines = [f"{name}: {format_name.upper()}, {count(boards, 'board')}, "
             f"{count(summary.graded, 'hand')} graded"
             + (f", {missing:,} not given" if missing else "")
             + (f"; {count(len(bad), 'game')} not read ({'; '.join(bad)})" if bad else "")]
    right = sum(summary.right.values())
    if summary.answered:
        lines.append(f"at the table: {summary.answered:,} calls made before anyone bid, "
                     f"{right:,} as the rules say ({100 * right / summary.answered:.1f}%), "
                     f"{summary.answered - right:,} not")
    else:
        lines.append("at the table: no calls given to compare")
    return lines + rule_table(summary, ("as rules", "not", "called instead"),
                              lambda bid: bid.plain)


def count(number: int, unit: str) -> str:
    """'1 board', '3 boards'."""
    return f"{number:,} {unit}{'' if number == 1 else 's'}"


def choose(reading: Reading, path: str, number: str | None):
    """The board numbered *number*; the only board when *number* is None.

    :raises Failure: when there is no such board, or several to choose from.
    """
    boards = reading.boards
    names = ", ".join(board.number or f"game {board.game}" for board in boards[:20])
    if not boards:
        problems = "; ".join(map(str, reading.problems[:3]))
        raise Failure(f"{path} has no board that can be read: {problems}")
    if number is None and len(boards) == 1:
        return boards[0]
    if number is None:
        raise Failure(f"{path} has {len(boards)} boards ({names}): choose one with "
                      f"--board N")
    chosen = next((board for board in boards if board.number == number.strip()), None)
    if chosen is None:
        raise Failure(f"{path} has no board {number!r}: its boards are {names}")
    return chosen


def show_board(path: str, number: str | None, as_json: bool) -> str:
    """One board of a file: every seat's hand and opening, who opens first by the rules
    and the auction at the table; or all of it as JSON."""
    table = openings(choose(read_file(path), path, number))
    if as_json:
        import json

        return json.dumps(table.to_dict(), indent=2, ensure_ascii=False)
    return "\n".join(board_lines(table, painter(), can_show_symbols()))


def board_lines(table: Openings, paint, symbols: bool) -> list[str]:
    """A board as the terminal shows it: the heading, each seat (the dealer marked), the
    first call by the rules and at the table, then the auction."""
    board = table.board
    vulnerable = ("" if board.vulnerability is None
                  else f", {board.vulnerability.words} vulnerable")
    lines = [paint(f"{board.name}", bold=True)
             + f"   dealer {board.dealer.word}{vulnerable}   (game {board.game}, line "
               f"{board.line})", ""]
    for seat in Seat:
        advice = table.advice[seat]
        label = f"{seat.word}{'*' if seat == board.dealer else ''}"
        if advice is None:
            lines.append(f"  {label:<7}not given")
            continue
        facts, rule = advice.facts, advice.fired
        bid = advice.bid or "No bid"
        lines += [f"  {label:<7}{hand_picture(facts.hand, paint, symbols)}",
                  f"         {paint(bid, bold=True)} by {rule.id}, {rule.name}: "
                  f"{facts.tally.hcp} HCP, {facts.tally.points} points"]
    lines += ["  * deals", ""]
    show_bid = (lambda bid: bid.display) if symbols else (lambda bid: bid.plain)
    show_call = (lambda call: call.display) if symbols else (lambda call: call.plain)
    lines.append(wrapped(table.summary(show_bid, show_call), ""))
    if board.auction is not None:
        lines += ["", "Auction   " + "".join(f"{seat.word:<10}" for seat in COLUMNS).rstrip()]
        for row in board.auction.rows():
            lines.append("          " + "".join(
                f"{'' if call is None else show_call(call):<10}" for call in row).rstrip())
    return lines


def deal_file(output_format: str, boards, seed: int, request: str, key: bool,
              seat: Seat) -> str:
    """Dealt hands as PBN games or LIN lines, each hand in *seat*, which deals."""
    hands = [hand for _, hand in boards]
    if output_format == "lin":
        from .formats.lin import dealt_lines

        return dealt_lines(hands, key, seat)
    from .formats.pbn import dealt_games

    return dealt_games(hands, request, seed, key, seat)

