"""`bidder bid`: the opening bid for a hand, and why; or every seat's of a board in a
PBN or LIN file."""

from __future__ import annotations

import click

from ..advice import explain
from ..boards import COLUMNS, Openings, Reading, Seat, openings
from ..cards import InvalidHandError
from .files import Failure, read_file
from .options import VARIANT_HELP, read_variant
from .terminal import advice_lines, can_show_symbols, hand_picture, painter, wrapped


@click.command(short_help="The opening bid for a hand, and why.")
@click.argument("hand", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print everything as one JSON object.")
@click.option("--variant", metavar="ID", callback=read_variant, help=VARIANT_HELP)
@click.option("--pbn", "deals_path", metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, allow_dash=True),
              help="A PBN or LIN file (told apart by what it holds): show every seat's "
                   "opening on one of its boards instead of HAND.")
@click.option("--board", "board_number", metavar="N",
              help="With --pbn: the board's number in the file.  [default: the only one]")
def bid(hand: tuple[str, ...], as_json: bool, variant, deals_path: str | None,
        board_number: str | None) -> None:
    """Show the opening bid for HAND, the rule behind it, the scorecard and the trace.

    HAND is 13 cards, quoted or not: rank 2-10 (or T), J, Q, K, A, then suit C, D, H, S
    (or a suit symbol); or dot notation, spades first; or suit by suit, each suit's mark
    then its ranks, '-' for a void. With --pbn FILE --board N, every seat's opening on
    that board, who opens first by the rules going round from the dealer, and the
    auction at the table.

    \b
    Examples:
      bidder bid 5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C
      bidder bid "AKQ2.J54.T9.8765" --json
      bidder bid S AKQ2 H J54 D T9 C 8765
      bidder bid AKQ2.K32.K32.432 --variant r3-unbalanced-only
      bidder bid --pbn club-night.pbn --board 3
    """
    if deals_path is not None and not hand:
        click.echo(show_board(deals_path, board_number, as_json))
        return
    if deals_path is not None or board_number is not None:
        raise click.UsageError("give either HAND, or --pbn FILE (with --board N), not both"
                               if hand else "--board goes with --pbn FILE")
    if not hand:
        raise click.UsageError("Missing argument 'HAND...'.")
    try:
        advice = explain(" ".join(hand)) if variant is None else explain(
            " ".join(hand), variant.rules, variant.counting)
    except InvalidHandError as error:
        raise click.BadParameter(error.message, param_hint="HAND") from None
    if as_json:
        import json

        data = advice.to_dict()
        if variant is not None:
            data.update(variant=variant.id, written=variant.written(advice.bid))
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    lines = advice_lines(advice, painter(), can_show_symbols())
    if variant is not None:
        lines[:0] = [wrapped(f"Read as {variant.id}: {variant.sentence} (The assignment: "
                             f"{variant.departs}.) It writes this bid as "
                             f"{variant.written(advice.bid)!r}.", "           ",
                             "Variant    ")]
    click.echo("\n".join(lines))


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
             + f"   dealer {board.dealer.word}{vulnerable}   ({board.place})", ""]
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
    lines.append(wrapped(table.summary_in_letters(), ""))
    if board.auction is not None:
        lines += ["", "Auction   " + "".join(f"{seat.word:<10}" for seat in COLUMNS).rstrip()]
        for row in board.auction.rows():
            lines.append("          " + "".join(
                f"{'' if call is None else call.plain:<10}" for call in row).rstrip())
    return lines
