"""The `bidder` command: arguments in, text out; every answer comes from the core.

The core comes with the package; anything heavier (the process pool, the child process
of a check, dealing, JSON) is imported by the command that needs it, so `bidder bid`
starts quickly, and only `bidder serve` touches the web app, in its own processes.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

import click

from .advice import explain, is_reachable
from .bids import Bid, BidError
from .cards import InvalidHandError
from .rules import RULE_BY_ID, RULES, plural
from .terminal import advice_lines, can_show_symbols, hand_picture, painter, wrapped

STDIN_NAME = "<stdin>"
CHECK_FORMATS = ("text", "json", "gradescope", "prairielearn", "junit")
THREADS = 4  # per gunicorn worker, as `make run` has it
VARIANT_PAIRS = 6  # pairs of bids shown for each variant


class Failure(click.ClickException):
    """A run that cannot go on (an unreadable file, a disk full): exit status 2."""

    exit_code = 2


class BidderGroup(click.Group):
    """The command group; Ctrl-C anywhere in a command ends it with exit status 130."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nbidder: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=BidderGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Opening bids for bridge hands, by the assignment's rules, explained.

    \b
    Examples:
      bidder bid 5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C
      bidder grade class.txt -o graded.csv
      bidder deal --bid 1NT --count 5 --key
      bidder stats --exact
      bidder check solution.py
      bidder serve --port 8000

    Each command's --help gives its options and what its output holds.
    """


def main(argv: list[str] | None = None) -> None:
    """The console script: SIGTERM ends a run cleanly, with exit status 143."""
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        cli.main(args=argv, prog_name="bidder")
    finally:
        signal.signal(signal.SIGTERM, previous)


def terminated(signum: int, frame) -> None:
    """SIGTERM handler: leave through the normal clean-up, with exit status 143."""
    raise SystemExit(128 + signum)


# bid ---------------------------------------------------------------------------

def read_variant(ctx, param, value: str | None):
    """The variant named by --variant, or None; an unknown id is a usage error."""
    if value is None:
        return None
    from .variants import VARIANT_BY_ID

    if value not in VARIANT_BY_ID:
        raise click.BadParameter(f"{value!r} is not a variant: choose one of "
                                 f"{', '.join(VARIANT_BY_ID)} (bidder variants lists them)")
    return VARIANT_BY_ID[value]


VARIANT_HELP = "Read the rules as this misreading does (bidder variants lists them)."


@cli.command(short_help="The opening bid for a hand, and why.")
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
        from .cli_boards import show_board

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


# grade -------------------------------------------------------------------------

@cli.command(short_help="Grade a class file of hands and answers.")
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
    from . import grading

    name = STDIN_NAME if file == "-" else file
    jobs = jobs or os.cpu_count() or 1
    for target, option in ((output, "-o"), (summary_path, "--summary")):
        if is_same_file(file, target):
            raise Failure(f"{target} is the class file being graded ({file}): writing "
                          f"there would replace it; give {option} another file")
    from .cli_boards import grade_boards, sniff_input

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


def is_same_file(path: str, other: str | None) -> bool:
    """Whether two command-line paths name one existing file, however spelled: another
    path to it, a hard link or a symbolic link ('-' is a stream, never a file here)."""
    if "-" in (path, other) or other is None:
        return False
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def stopped(what: str, reason: str, target: str) -> Failure:
    """The failure that ends a run: what stopped, why, and that *target* was not written
    ('-' is standard output, where some rows may have gone already)."""
    unwritten = "" if target == "-" else f"; nothing was written to {target}"
    return Failure(f"{what}: {reason}{unwritten}")


def os_reason(error: OSError) -> str:
    """An operating system error in words, with the file it concerns."""
    return error.strerror + (f" ({error.filename})" if error.filename else "")


@contextmanager
def opened_input(path: str):
    """The input as a binary stream: a file, or standard input for '-'."""
    if path == "-":
        yield sys.stdin.buffer
        return
    with open(path, "rb") as stream:
        yield stream


@contextmanager
def output_stream(path: str | None, err: bool = False):
    """A text stream for *path*, written whole or not at all; standard output (or
    standard error) for '-' or None."""
    from .grading import atomic_output

    if path is None or path == "-":
        yield sys.stderr if err else sys.stdout
        return
    with atomic_output(path) as stream:
        yield stream


def input_size(stream) -> int | None:
    """The size of a regular file, None for a pipe, a terminal or an in-memory stream."""
    import io
    import stat

    try:
        status = os.fstat(stream.fileno())
    except io.UnsupportedOperation:
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


@contextmanager
def progress(total: int | None, stream=None):
    """A progress bar on standard error (or *stream*) when it is a terminal and the size
    is known; yields the function that advances it by some bytes."""
    stream = stream or sys.stderr
    if total is None or not stream.isatty():
        yield lambda size: None
        return
    with click.progressbar(length=total, file=stream, label="grading") as bar:
        yield bar.update


def summary_lines(name: str, summary) -> list[str]:
    """The summary: lines graded and bad, answers right, wrong and not given, then per
    rule the answers right and wrong and the wrong bids given."""
    bad = summary.bad_lines
    where = ", ".join(map(str, summary.first_bad)) + (", ..." if bad > len(summary.first_bad)
                                                      else "")
    plural = "" if bad == 1 else "s"
    lines = [f"{name}: {summary.graded:,} hands graded, {bad:,} bad line{plural}"
             + (f" (line{plural} {where})" if bad else "")]
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


def rule_table(summary, headings: tuple[str, str, str], show=lambda bid: bid.display
               ) -> list[str]:
    """Per rule that decided some hands: the hands, the answers right and wrong (under
    *headings*) and the wrong bids given, each shown by *show*."""
    right, wrong, given = headings
    width = max(8, len(right) + 2)  # room for the heading over the counts
    lines = [f"{'rule':<34}{'hands':>8}{right:>{width}}{wrong:>8}  {given}"]
    for rule in RULES:
        if summary.hands[rule.id]:
            bids = ", ".join(f"{show(bid)} \u00d7{times}"
                             for bid, times in summary.wrong_bids_for(rule.id))
            lines.append(f"{rule.id + ' ' + rule.name:<34}{summary.hands[rule.id]:>8,}"
                         f"{summary.right[rule.id]:>{width},}{summary.wrong[rule.id]:>8,}  "
                         f"{bids}".rstrip())
    return lines


# deal --------------------------------------------------------------------------

@cli.command(short_help="Deal hands to order, with an answer key.")
@click.option("--bid", "bid_text", metavar="BID",
              help="Hands that open this bid, e.g. 1NT, 2H, or None for no bid.")
@click.option("--rule", "rule_text", metavar="ID", help="Hands decided by this rule, e.g. R8.")
@click.option("--count", default=1, show_default=True, help="How many hands (1-100).")
@click.option("--seed", type=int, default=None,
              help="The same seed deals the same hands.  [default: a new one, shown]")
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(["text", "pbn", "lin", "json", "dealer"]),
              help="dealer: the Dealer script that deals hands for --rule (for BBO's "
                   "teaching tables too).")
@click.option("--key", is_flag=True, help="Add the answer key: each hand's bid and why.")
@click.option("--seat", default="N", show_default=True,
              type=click.Choice(["N", "E", "S", "W"], case_sensitive=False),
              help="PBN, LIN and dealer: the seat each hand is dealt to, who deals.")
@click.option("--variant", metavar="ID", callback=read_variant,
              help="With --changed: the misreading whose changed hands to deal.")
@click.option("--changed", is_flag=True,
              help="Deal hands the --variant answers otherwise than the assignment.")
def deal(bid_text: str | None, rule_text: str | None, count: int, seed: int | None,
         output_format: str, key: bool, seat: str, variant, changed: bool) -> None:
    """Deal hands to order, reproducibly, with an answer key on request.

    PBN and LIN output hold one board per hand, the hand in the --seat seat (North) as
    dealer, the other hands not dealt; with --key the board's auction is the hand's
    opening by the rules, its reason as a note, then all pass. --format dealer prints
    the Dealer script whose hands --rule decides (for Dealer or BBO's teaching tables).

    \b
    Examples:
      bidder deal --bid 1NT --count 5 --seed 7 --key
      bidder deal --rule R8 --count 20 --format pbn > preempts.pbn
      bidder deal --rule R2 --format dealer
      bidder deal --variant r3-unbalanced-only --changed --count 3 --key
    """
    from .dealing import DealError, check_count, deal_changed, deal_set, parse_rule
    from .deals import Seat

    if changed != (variant is not None):
        raise click.UsageError("--changed and --variant go together: deal the hands a "
                               "variant answers otherwise, e.g. --variant no-2nt --changed")
    if changed and (bid_text or rule_text):
        raise click.UsageError("--changed deals by the variant alone: leave out --bid and "
                               "--rule")

    if output_format == "dealer":
        click.echo(dealer_script(bid_text, rule_text, count, Seat.from_letter(seat)))
        return
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    try:
        wanted = None if bid_text is None else Bid.parse(bid_text)
        rule = None if rule_text is None else parse_rule(rule_text)
        if changed:
            boards = [(seed + offset, deal_changed(seed + offset, variant))
                      for offset in range(check_count(count))]
        else:
            boards = deal_set(count, seed, ... if wanted is None else wanted.text, rule)
    except (BidError, DealError) as error:
        raise click.UsageError(error.message) from None
    request = (f"{len(boards)} hands {variant.id} changes" if changed
               else describe_request(len(boards), wanted, rule))
    if output_format in ("pbn", "lin"):
        from .cli_boards import deal_file

        click.echo(deal_file(output_format, boards, seed, request, key,
                             Seat.from_letter(seat)))
        return
    render = {"text": deal_text, "json": deal_json}[output_format]
    click.echo(render(boards, seed, request, key))
    if changed and key and output_format == "text":
        click.echo("\n".join(wrapped(
            f"Board {number}, read as {variant.id}: "
            f"{variant.written(explain(hand, variant.rules, variant.counting).bid)!r}", "  ")
            for number, (_, hand) in enumerate(boards, 1)))


def dealer_script(bid_text: str | None, rule_text: str | None, count: int, seat) -> str:
    """The Dealer script for --rule: hands it decides, dealt to *seat*.

    :raises click.UsageError: without --rule, with --bid, or for a rule no hand fires.
    """
    from .dealing import MAX_COUNT, DealError, parse_rule
    from .formats.dealer import script

    if rule_text is None or bid_text is not None:
        raise click.UsageError("--format dealer writes the condition for a rule: give "
                               "--rule (e.g. --rule R2) and no --bid")
    if not 1 <= count <= MAX_COUNT:
        raise click.UsageError(f"--count is how many hands the script produces: 1 to "
                               f"{MAX_COUNT}, not {count}")
    try:
        return script(parse_rule(rule_text), seat, count)
    except DealError as error:
        raise click.UsageError(error.message) from None


def describe_request(count: int, wanted: Bid | None, rule) -> str:
    """What was dealt, in words: '5 hands that open 1NT decided by R1' (None: any bid
    and any rule)."""
    one = count == 1
    parts = [f"{count} hand{'' if one else 's'}"]
    if wanted is not None:
        parts.append(f"that open{'s' if one else ''} {wanted or 'nothing'}")
    if rule is not None:
        parts.append(f"decided by {rule.id}")
    return " ".join(parts)


def deal_text(boards, seed: int, request: str, key: bool) -> str:
    """Boards as text: the hand, its picture, and the key on request."""
    paint, symbols = painter(), can_show_symbols()
    lines = [f"{request} (seed {seed}; --seed {seed} deals "
             f"{'it' if len(boards) == 1 else 'them'} again)"]
    for number, (board_seed, hand) in enumerate(boards, 1):
        lines += ["", f"Board {number}   {hand}", f"  {hand_picture(hand, paint, symbols)}"]
        if key:
            lines.append(wrapped(f"Key: {explain(hand).explanation}", "  "))
    return "\n".join(lines)


def deal_json(boards, seed: int, request: str, key: bool) -> str:
    """Boards as one JSON object."""
    import json

    entries = []
    for number, (board_seed, hand) in enumerate(boards, 1):
        entry = {"board": number, "seed": board_seed, "hand": str(hand),
                 "dotted": hand.dotted}
        if key:
            advice = explain(hand)
            entry.update(bid=advice.bid, rule=advice.rule, explanation=advice.explanation)
        entries.append(entry)
    return json.dumps({"request": request, "seed": seed, "boards": entries}, indent=2,
                      ensure_ascii=False)


# stats -------------------------------------------------------------------------

@cli.command(short_help="How often each bid and rule occurs: exactly, or in a sample.")
@click.option("--exact", "exactly", is_flag=True,
              help="Count all 635,013,559,600 hands exactly (a fraction of a second).")
@click.option("--hands", default=100_000, show_default=True,
              help="How many random hands (1-1,000,000).")
@click.option("--seed", default=1, show_default=True, help="The seed they are dealt from.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option("--variant", metavar="ID", callback=read_variant,
              help="With --exact: count the hands as this misreading reads the rules.")
@click.pass_context
def stats(ctx: click.Context, exactly: bool, hands: int, seed: int, as_json: bool,
          variant) -> None:
    """How often each bid and rule occurs, and how often a later rule also applies (the
    first rule that applies wins): over all hands with --exact, else over a class of
    random hands.

    With --exact every one of the 635,013,559,600 hands is counted, also by HCP and by
    shape pattern; --json then prints the integer counts. Without it, --hands random
    hands are dealt from --seed: what a class of that many hands looks like.

    \b
    Examples:
      bidder stats --exact
      bidder stats --exact --variant balanced-first
      bidder stats --hands 100000 --seed 1
    """
    if exactly:
        print_exact(ctx, as_json, variant)
        return
    if variant is not None:
        raise click.UsageError("--variant goes with --exact: a variant's counts are exact")
    from .dealing import DealError, statistics

    try:
        counts = statistics(hands, seed)
    except DealError as error:
        raise click.BadParameter(error.message, param_hint="--hands") from None
    if as_json:
        import json

        click.echo(json.dumps(counts.to_dict(), indent=2))
        return
    click.echo("\n".join(stats_lines(counts)))


def print_exact(ctx: click.Context, as_json: bool, variant=None) -> None:
    """Print the exact statistics; a sample's --hands or --seed is a usage error here."""
    from click.core import ParameterSource

    from .exact import exact_statistics
    from .exact_report import exact_lines

    for name in ("hands", "seed"):
        if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
            raise click.UsageError(f"--exact counts every hand: leave out --{name}")
    counts = exact_statistics() if variant is None else exact_statistics(
        variant.rules, variant.counting)
    if as_json:
        import json

        click.echo(json.dumps(counts.to_dict(), indent=2))
        return
    click.echo("\n".join(exact_lines(counts)))


def stats_lines(counts) -> list[str]:
    """The statistics as three tables: by bid (with the HCP range), by rule, overlaps."""
    hcp_ranges = {bid: [points for points, times in enumerate(by_hcp) if times]
                  for bid, by_hcp in counts.hcp_by_bid}
    symbols = can_show_symbols()
    lines = [f"Opening bids over {counts.hands:,} random hands (seed {counts.seed})", "",
             f"{'bid':<6}{'hands':>10}{'share':>9}   HCP"]
    for bid, times in counts.by_bid:
        spread = hcp_ranges.get(bid)
        span = f"{spread[0]}-{spread[-1]}" if spread else ""
        value = Bid.from_value(bid)
        shown = value.display if symbols else value.plain
        lines.append(f"{shown:<6}{times:>10,}{counts.share(times):>8.2f}%   {span}"
                     .rstrip())
    lines += ["", f"{'rule':<36}{'hands':>10}{'share':>9}"]
    for rule_id, times in counts.by_rule:
        rule = RULE_BY_ID[rule_id]
        never = "" if is_reachable(rule) else "   never decides: an earlier rule comes first"
        lines.append(f"{rule_id + ' ' + rule.name:<36}{times:>10,}"
                     f"{counts.share(times):>8.2f}%{never}")
    lines += ["", "Overlaps: a later rule also applies, the first one decides"]
    lines += [f"  {fired} decides, {shadowed} also applies{times:>12,}"
              f"{counts.share(times):>8.2f}%" for fired, shadowed, times in counts.overlaps]
    if not counts.overlaps:
        lines.append("  none")
    return lines


# variants ----------------------------------------------------------------------

@cli.command(short_help="The misreadings of the rules, and how many hands each changes.")
@click.option("--json", "as_json", is_flag=True, help="Print them as JSON.")
def variants(as_json: bool) -> None:
    """List the misreadings of the rules students make, each with the exact number of
    the 635,013,559,600 hands whose opening bid it changes, by pair of bids.

    Use one with `bidder bid HAND --variant ID`, `bidder stats --exact --variant ID` and
    `bidder deal --variant ID --changed`.
    """
    from .exact import changes
    from .variants import CATALOGUE

    found = [(variant, changes(variant)) for variant in CATALOGUE]
    if as_json:
        import json

        click.echo(json.dumps([{"id": variant.id, "sentence": variant.sentence,
                                "departs": variant.departs, **changed.to_dict()}
                               for variant, changed in found], indent=2))
        return
    click.echo("\n".join(variants_lines(found)))


def variants_lines(found) -> list[str]:
    """Each variant: its id and sentence, then the hands it changes, by pair."""
    from .exact import ALL_HANDS

    lines = []
    for variant, changed in found:
        lines += [f"{variant.id}", wrapped(variant.sentence, "    "),
                  wrapped(f"The assignment: {variant.departs}.", "    ")]
        if not changed.hands:
            lines.append("    changes no hand")
        else:
            lines.append(f"    changes {changed.hands:,} hands "
                         f"({100 * changed.hands / ALL_HANDS:.4f}%):")
            lines += [f"      {Bid.from_value(old).plain} -> {new!r:<8}{count:>18,}"
                      for old, new, count in changed.by_pair[:VARIANT_PAIRS]]
            if len(changed.by_pair) > VARIANT_PAIRS:
                lines.append(f"      ... and "
                             f"{plural(len(changed.by_pair) - VARIANT_PAIRS, 'more pairs')}")
        lines.append("")
    return lines[:-1]


# check -------------------------------------------------------------------------

@cli.command(short_help="Check a student's module against the reference, sealed.")
@click.argument("student", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--hands", default=1000, show_default=True, type=click.IntRange(0, 100_000),
              help="Random hands, besides the worked examples and the threshold hands.")
@click.option("--seed", default=1, show_default=True, envvar="BIDDER_CHECK_SEED",
              help="The seed the random hands come from (or BIDDER_CHECK_SEED).")
@click.option("--timeout", default=10.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds the student's module may take in all.")
@click.option("--memory", default=1024, show_default=True, type=click.IntRange(64, 65536),
              help="MiB of memory the student's module may use.")
@click.option("--isolation", default="auto", show_default=True,
              type=click.Choice(["auto", "bubblewrap", "fallback"]),
              help="bubblewrap demands the sandbox; auto falls back where it cannot run.")
@click.option("--shown", default=5, show_default=True, type=click.IntRange(0),
              help="How many groups of wrong answers to show in full.")
@click.option("--tests", "tests_path", type=click.Path(exists=True, dir_okay=False),
              help="The student's own test file (unittest or plain test_ functions): run "
                   "on their module, on the reference and on every misreading.")
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(CHECK_FORMATS),
              help="The report as text, as JSON data, or as a grader reads it.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report here (whole, or not at all) instead of standard "
                   "output.")
@click.option("--weights", "weights_path", type=click.Path(exists=True, dir_okay=False),
              help="A TOML or JSON file of weights per function and per rule, and the "
                   "total.  [default: equal weights, 100 points]")
@click.option("--hidden", default="visible", show_default=True,
              type=click.Choice(["visible", "hidden", "after_due_date", "after_published"]),
              help="When students see the threshold and random hands (the worked "
                   "examples always show).")
@click.option("--bundle", nargs=2, metavar="gradescope OUT.zip",
              type=(click.Choice(["gradescope"]), click.Path(dir_okay=False)),
              help="Write a Gradescope autograder that checks with these options, "
                   "instead of checking STUDENT.")
@click.option("--submission-name", metavar="NAME",
              help="With --bundle: the submitted file to check.  [default: the .py file "
                   "that defines the functions]")
@click.pass_context
def check(ctx: click.Context, student: str | None, hands: int, seed: int, timeout: float,
          memory: int, isolation: str, shown: int, tests_path: str | None,
          output_format: str, output: str | None, weights_path: str | None, hidden: str,
          bundle: tuple[str, str] | None, submission_name: str | None) -> None:
    """Check a student's module: its highCardPoints, distributionPoints and openingBid
    against the reference, with exact types (an int; a str, or None for no bid).

    The module runs sealed: under bubblewrap where it can (no network, its own process
    namespace, read-only files, an empty environment, only the standard library), with
    limits on time, memory, files and output; the report says which isolation was in
    force. It is called on the spec's worked examples, a hand on each side of every
    threshold, and seeded random hands, and never sees an answer. Exit status 0 when
    every answer is right, 1 when some are not or the module could not be checked, 2
    for a usage error.

    --format json gives the whole report as data; gradescope, prairielearn and junit give
    what those graders read, a test per function per rule scored by --weights, with
    threshold and random hands hidden as --hidden says.

    \b
    Examples:
      bidder check solution.py --hands 2000 --timeout 20
      bidder check solution.py --format junit -o report.xml
      bidder check --bundle gradescope autograder.zip --weights weights.toml --hidden after_due_date
    """
    from .grader_formats import Grading, WeightsError, load_weights

    try:
        weights = load_weights(weights_path) if weights_path else Grading().weights
    except WeightsError as error:
        raise click.BadParameter(error.message, param_hint="--weights") from None
    grading = Grading(weights, hidden, shown)
    if bundle is not None:
        fixed = ctx.get_parameter_source("seed") is not click.core.ParameterSource.DEFAULT
        if student is not None or output is not None or output_format != "text":
            raise click.UsageError("--bundle writes a Gradescope autograder: give it no "
                                   "STUDENT, --format or --output")
        ctx.exit(write_check_bundle(bundle[1], hands=hands, seed=seed if fixed else None,
                                    timeout=timeout, memory=memory, isolation=isolation,
                                    grading=grading, submission_name=submission_name))
    if student is None:
        raise click.UsageError("Missing argument 'STUDENT' (or --bundle gradescope OUT.zip).")
    ctx.exit(run_check(student, hands, seed, timeout, memory, isolation, output_format,
                       grading, output or "-", tests_path))


def run_check(student: str, hands: int, seed: int, timeout: float, memory: int,
              isolation: str, output_format: str, grading, output: str,
              tests: str | None = None) -> int:
    """Check *student* (and its *tests*), write the report in *output_format*; the exit
    status."""
    from dataclasses import replace

    from .checking import check_module
    from .grader_formats import render
    from .sandbox import MIB, Limits
    from .student_tests import grade_tests

    limits = Limits(timeout=timeout, memory=memory * MIB)
    try:
        report = check_module(student, hands, seed, limits, isolation)
        if tests is not None:
            report = replace(report, tests=grade_tests(student, tests, limits, isolation))
    except RuntimeError as error:
        raise Failure(str(error)) from None
    text = render(output_format, report, grading)
    try:
        with output_stream(output) as stream:
            stream.write(text)
    except OSError as error:
        raise stopped("the report could not be written", os_reason(error), output) from None
    return 0 if report.passed else 1


def write_check_bundle(path: str, **settings) -> int:
    """Write the Gradescope autograder with these *settings* (those of ``Bundle``) to
    *path*; the exit status."""
    from .gradescope_bundle import Bundle, write_bundle

    try:
        write_bundle(path, Bundle(**settings))
    except OSError as error:
        raise stopped("the bundle could not be written", os_reason(error), path) from None
    click.echo(f"wrote {path}: upload it as the assignment's autograder (Gradescope, "
               f"Configure Autograder, zip file upload)")
    return 0


# serve -------------------------------------------------------------------------

@cli.command(short_help="Serve the web app under gunicorn.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="gunicorn worker processes.  [default: the number of cores]")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int | None) -> None:
    """Serve the web app under gunicorn, as `make run` does.

    A secret key is generated for the served processes unless BIDDER_SECRET_KEY is set
    (then it must be long enough for the app).

    \b
    Example:
      bidder serve --host 0.0.0.0 --port 8000 --workers 4
    """
    import subprocess

    environment = served_environment(os.environ)
    refuse_a_taken_address(host, port)
    command = gunicorn_command(host, port, workers or os.cpu_count() or 1)
    server = subprocess.Popen(command, env=environment)
    try:
        status = server.wait()
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait()
    ctx.exit(status)


def gunicorn_command(host: str, port: int, workers: int) -> list[str]:
    """The gunicorn command line `make run` uses, for this Python. With --reuse-port
    each worker listens on a socket of its own and the kernel shares connections out
    evenly; on one shared socket a worker may take most of them and leave the other
    core idle."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [sys.executable, "-m", "gunicorn", "--workers", str(workers),
            "--threads", str(THREADS), "--reuse-port", "--bind", bind,
            "bidder.web:create_app()"]


def refuse_a_taken_address(host: str, port: int) -> None:
    """Stop before starting when *host*:*port* cannot be listened on, above all when a
    server listens there already: with --reuse-port a second server would share the
    port with the first without a word, and half the visitors would get the older one.

    :raises Failure: naming the address, why, and what to do.
    """
    import errno
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        reason = error.strerror or str(error)
        advice = ("another server (an earlier `make run` or `bidder serve`?) listens "
                  "there: stop it, or choose another port (--port, or make run PORT=)"
                  if error.errno == errno.EADDRINUSE else
                  "choose another address (--host, --port; make run HOST=, PORT=)")
        raise Failure(f"cannot listen on {host}:{port}: {reason}; {advice}") from None


def served_environment(environ) -> dict[str, str]:
    """The environment for the server, with a fresh secret key unless one is set.

    :raises Failure: if the key that is set is one the app refuses (too short).
    """
    import secrets

    from .web import SECRET_KEY_VARIABLE, secret_key

    served = dict(environ)
    if not served.get(SECRET_KEY_VARIABLE):
        served[SECRET_KEY_VARIABLE] = secrets.token_hex(32)
    try:
        secret_key({"SECRET_KEY": served[SECRET_KEY_VARIABLE]})
    except RuntimeError as error:
        raise Failure(str(error)) from None
    return served
