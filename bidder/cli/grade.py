"""`bidder grade`: a class file of hands and answers, or a PBN or LIN file of boards,
graded row by row, with a summary."""

from __future__ import annotations

import os

import click

from ..rules import RULES
from .files import (STDIN_NAME, Failure, input_size, is_same_file, opened_input, os_reason,
                    output_stream, progress, read_file, sniff_input, stopped)


@click.command(short_help="Grade a class file of hands and answers.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the graded rows here (written whole at the end) instead of "
                   "standard output.")
@click.option("--format", "output_format", type=click.Choice(["csv", "jsonl"]),
              default="csv", show_default=True, help="CSV with a header, or JSON Lines.")
@click.option("--summary", "summary_path", type=click.Path(dir_okay=False),
              help="Write the summary here instead of standard error.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes for big files.  [default: the number of cores]")
@click.pass_context
def grade(ctx: click.Context, file: str, output: str, output_format: str,
          summary_path: str | None, jobs: int | None) -> None:
    """Grade a class file: the bid for every hand, and each answer marked right or wrong.

    Each line of FILE (or - for standard input) holds a hand, optionally followed by a
    student's answer and an id, separated by tabs, or by commas when the line has no tab.
    When the cards themselves are separated by commas, the first 13 fields are the hand.
    An answer is a bid written any common way (1NT, 2h, 1♠, 3 hearts, '1C'); None, Pass,
    P, - or No bid mean no bid. An empty answer field leaves the hand unanswered: it is
    graded without a verdict and counted apart. Blank lines, lines starting with # and a
    header line starting with "hand" are skipped.

    \b
    Lines such as:
      5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C,1C,Ann
      AKQ2.J54.T9.8765<TAB>Pass<TAB>Ben

    Bad lines are reported as FILE:LINE: message and marked in the output (a bad answer
    still shows the hand's bid); the rest is graded. The output may not be FILE itself.
    Exit status: 0 all lines good, 1 some bad, 2 the file could not be read or written
    (nothing is written then), 130 interrupted, 143 terminated.

    A PBN or LIN file of boards (told apart by what it holds, whatever its name) is
    graded seat by seat instead: a row per seat of every board with the board, the
    dealer, the seat, its opening by the rules and its call at the table while no one
    had bid; a game that cannot be read is reported as FILE:LINE: game N: message.

    \b
    Example:
      bidder grade class.txt -o graded.csv --summary summary.txt
      bidder grade club-night.pbn --format jsonl
    """
    from .. import grading

    name = STDIN_NAME if file == "-" else file
    jobs = jobs or os.cpu_count() or 1
    for target, option in ((output, "-o"), (summary_path, "--summary")):
        if is_same_file(file, target):
            raise Failure(f"{target} is the class file being graded ({file}): writing "
                          f"there would replace it; give {option} another file")

    if sniff_input(file):
        ctx.exit(grade_boards(file, name, output, output_format, summary_path))
    try:
        with opened_input(file) as source, output_stream(output) as sink, \
                progress(input_size(source)) as advance:
            summary = grading.grade_stream(
                source, sink, output_format, jobs=jobs,
                on_error=lambda line, message: click.echo(f"{name}:{line}: {message}",
                                                          err=True),
                on_progress=advance)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise stopped("grading stopped", os_reason(error), output) from None
    except grading.PoolBroken as error:
        raise stopped("grading stopped", str(error), output) from None
    try:
        with output_stream(summary_path, err=True) as stream:
            stream.write("\n".join(summary_lines(name, summary)) + "\n")
    except OSError as error:
        raise stopped("the summary could not be written", os_reason(error),
                      summary_path) from None
    ctx.exit(1 if summary.bad_lines else 0)


def summary_lines(name: str, summary) -> list[str]:
    """The summary: lines graded and bad, answers right, wrong and not given, then per
    rule the answers right and wrong and the wrong bids given."""
    bad = summary.bad_lines
    where = ", ".join(map(str, summary.first_bad)) + (", ..." if bad > len(summary.first_bad)
                                                      else "")
    plural = "" if bad == 1 else "s"
    lines = [f"{name}: {summary.graded:,} hands graded, {bad:,} bad line{plural}"
             + (f" (line{plural} {where})" if bad else "")]
    if summary.detected:
        lines.append(f"read as an export: {summary.detected}")
    answered = summary.answered
    right = sum(summary.right.values())
    if answered:
        unanswered = f", {summary.unanswered:,} unanswered" if summary.unanswered else ""
        lines.append(f"answers: {answered:,} given, {right:,} right "
                     f"({100 * right / answered:.1f}%), {answered - right:,} wrong"
                     + unanswered)
    else:
        lines.append("answers: none given")
    return lines + rule_table(summary, ("right", "wrong", "wrong bids given"))


def rule_table(summary, headings: tuple[str, str, str]) -> list[str]:
    """Per rule that decided some hands: the hands, the answers right and wrong (under
    *headings*) and the wrong bids given, in letters."""
    right, wrong, given = headings
    width = max(8, len(right) + 2)  # room for the heading over the counts
    lines = [f"{'rule':<34}{'hands':>8}{right:>{width}}{wrong:>8}  {given}"]
    for rule in RULES:
        if summary.hands[rule.id]:
            bids = ", ".join(f"{bid.plain} \u00d7{times}"
                             for bid, times in summary.wrong_bids_for(rule.id))
            lines.append(f"{rule.id + ' ' + rule.name:<34}{summary.hands[rule.id]:>8,}"
                         f"{summary.right[rule.id]:>{width},}{summary.wrong[rule.id]:>8,}  "
                         f"{bids}".rstrip())
    return lines


def grade_boards(path: str, name: str, output: str, output_format: str,
                 summary_path: str | None) -> int:
    """Grade every seat of every board of a PBN or LIN file; the exit status: 0, or 1
    when some games could not be read (each reported as FILE:LINE: game N: ...)."""
    from ..grading import boards as board_grading

    reading = read_file(path)
    items = board_grading.rows(reading)
    for problem in reading.problems:
        click.echo(f"{name}:{problem.line}: game {problem.game}: {problem.message}",
                   err=True)
    try:
        with output_stream(output) as stream:
            stream.write(board_grading.render(items, output_format))
        with output_stream(summary_path, err=True) as stream:
            stream.write("\n".join(board_summary_lines(name, items, reading.format)) + "\n")
    except OSError as error:
        raise stopped("grading stopped", os_reason(error), output) from None
    return 1 if reading.problems else 0


def board_summary_lines(name: str, items, format_name: str) -> list[str]:
    """The summary: boards and hands read, games that could not be, the calls made at
    the table while no one had bid and how many the rules make too, then per rule."""
    from ..grading.boards import summary_of

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
    return lines + rule_table(summary, ("as rules", "not", "called instead"))


def count(number: int, unit: str) -> str:
    """'1 board', '3 boards'."""
    return f"{number:,} {unit}{'' if number == 1 else 's'}"
