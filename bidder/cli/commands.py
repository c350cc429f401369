"""The `bidder` command: arguments in, text out; every answer comes from the core.

The core comes with the package; anything heavier (the process pool, the child process
of a check, dealing, JSON) is imported by the command that needs it, so `bidder bid`
starts quickly, and only `bidder serve` touches the web app, in its own processes.
"""

from __future__ import annotations

import click

from .bid import bid
from .check import check
from .classreport import class_report
from .deal import deal
from .grade import grade
from .lti import lti
from .serve import serve
from .stats import stats, variants
from .termination import terminable


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
      bidder class submissions/ --format html -o class.html
      bidder serve --port 8000
      bidder lti show --site https://bidder.example.edu

    Each command's --help gives its options and what its output holds.
    """


def main(argv: list[str] | None = None) -> None:
    """The console script: SIGTERM ends a run cleanly, with exit status 143."""
    with terminable():
        cli.main(args=argv, prog_name="bidder")


for command in (bid, grade, deal, stats, variants, check, class_report, serve, lti):
    cli.add_command(command)
