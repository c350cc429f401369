"""`bidder class`: one report for a whole class's submissions."""

from __future__ import annotations

import sys

import click

from .files import Failure, os_reason, output_stream, stopped
from .options import checking_options, sandbox_limits

CLASS_FORMATS = ("text", "html", "json")


@click.command("class", short_help="One report for a whole class's submissions.")
@click.argument("submissions", type=click.Path(exists=True))
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(CLASS_FORMATS),
              help="text for the terminal, html (one self-contained page) or json.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report here instead of standard output.")
@checking_options()
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Modules checked at once.  [default: the cores]")
@click.option("--similar", is_flag=True,
              help="Also list pairs of students whose wrong bids coincide far beyond "
                   "what their misreadings explain: a signal to look at, not a verdict.")
def class_report(submissions: str, output_format: str, output: str | None, hands: int,
                 seed: int, timeout: float, cpu: int | None, memory: int, isolation: str,
                 jobs: int | None, similar: bool) -> None:
    """Report on a whole class: the scores, each rule's share right, the misreadings the
    class holds, who could not be checked or is stuck, and hands to teach again.

    SUBMISSIONS is a folder of modules (one per student, or one folder per student), a
    Gradescope "Download Submissions" export (zip or folder, with its
    submission_metadata.yml), a PrairieLearn download (a folder holding its
    *_submissions.csv), or a class file of answers (HAND,ANSWER,ID a line, as `bidder
    grade` reads it). Every module is checked as `bidder check` checks one, sealed,
    on the same hands; results bidder already wrote into an export are read, not run
    again.

    \b
    Examples:
      bidder class submissions/ --hands 200
      bidder class gradescope_export.zip --format html -o class.html
      bidder class submissions/ --format json --similar > class.json
    """
    from ..checker.hardening import harden
    from ..classroom import SourceError, check_class, read_submissions, summarise
    from ..classroom.checking import Settings
    from ..classroom.sources import opened

    settings = Settings(hands, seed, sandbox_limits(timeout, cpu, memory), isolation)
    harden()
    try:
        with opened(submissions) as folder:
            found = read_submissions(folder)
            with progress(len(found)) as advance:
                outcomes = list(check_class(found, settings, jobs, advance))
    except SourceError as error:
        raise Failure(str(error)) from None
    report = summarise(outcomes, similar)
    text = render(output_format, report)
    try:
        with output_stream(output or "-") as stream:
            stream.write(text)
    except OSError as error:
        raise stopped("the report could not be written", os_reason(error),
                      output) from None


def render(output_format: str, report) -> str:
    """The report in *output_format*."""
    if output_format == "html":
        from ..classroom.html import report_html

        return report_html(report)
    if output_format == "json":
        from ..classroom.data import json_text

        return json_text(report)
    from ..classroom.text import report_text

    return report_text(report)


class progress:
    """A progress bar on standard error while the class is checked, when it is a
    terminal; gives the function that advances it."""

    def __init__(self, total: int, stream=None):
        self.total, self.stream = total, stream or sys.stderr
        self.bar = None

    def __enter__(self):
        if not self.stream.isatty():
            return lambda done: None
        self.bar = click.progressbar(length=self.total, file=self.stream, label="checking")
        return self.bar.__enter__().update

    def __exit__(self, *problem) -> None:
        if self.bar is not None:
            self.bar.__exit__(*problem)
