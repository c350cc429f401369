"""`bidder check`: a student's module checked sealed, reported in words or in a grader's
format, or packed as a Gradescope autograder."""

from __future__ import annotations

import secrets

import click

from .files import Failure, os_reason, output_stream, stopped
from .options import checking_options, sandbox_limits

CHECK_FORMATS = ("text", "json", "gradescope", "prairielearn", "junit")


@click.command(short_help="Check a student's module against the reference, sealed.")
@click.argument("student", required=False, type=click.Path(exists=True, dir_okay=False))
@checking_options(seed_envvar="BIDDER_CHECK_SEED")
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
@click.option("--bundle", nargs=2, metavar="gradescope OUT.zip | prairielearn DIR",
              type=(click.Choice(["gradescope", "prairielearn"]), click.Path()),
              help="Write a Gradescope autograder (a zip) or a PrairieLearn question (a "
                   "folder) that checks with these options, instead of checking STUDENT.")
@click.option("--submission-name", metavar="NAME",
              help="With --bundle: the submitted file to check.  [default: the .py file "
                   "that defines the functions; bid.py on PrairieLearn]")
@click.pass_context
def check(ctx: click.Context, student: str | None, hands: int, seed: int, timeout: float,
          cpu: int | None, memory: int, isolation: str, shown: int, tests_path: str | None,
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
      bidder check solution.py --timeout 20 --cpu 5
      bidder check solution.py --format junit -o report.xml
      bidder check --bundle gradescope autograder.zip --weights weights.toml --hidden after_due_date
      bidder check --bundle prairielearn course-extra --submission-name bid.py
    """
    from ..checker import Grading, WeightsError, load_weights

    try:
        weights = load_weights(weights_path) if weights_path else Grading().weights
    except WeightsError as error:
        raise click.BadParameter(error.message, param_hint="--weights") from None
    grading = Grading(weights, hidden, shown)
    if bundle is not None:
        fixed = ctx.get_parameter_source("seed") is not click.core.ParameterSource.DEFAULT
        if student is not None or output is not None or output_format != "text":
            raise click.UsageError("--bundle writes an autograder: give it no STUDENT, "
                                   "--format or --output")
        ctx.exit(write_check_bundle(bundle[0], bundle[1], hands=hands,
                                    seed=seed if fixed else None, timeout=timeout,
                                    cpu=cpu, memory=memory, isolation=isolation,
                                    grading=grading,
                                    submission_name=submission_name,
                                    secret=None if fixed else secrets.token_hex(16)))
    if student is None:
        raise click.UsageError("Missing argument 'STUDENT' (or --bundle gradescope OUT.zip, "
                               "or --bundle prairielearn DIR).")
    limits = sandbox_limits(timeout, cpu, memory)
    ctx.exit(run_check(student, hands, seed, limits, isolation, output_format, grading,
                       output or "-", tests_path))


def run_check(student: str, hands: int, seed: int, limits, isolation: str,
              output_format: str, grading, output: str, tests: str | None = None) -> int:
    """Check *student* (and its *tests*) under *limits*, write the report in
    *output_format*; the exit status."""
    from dataclasses import replace

    from ..checker import check_module, grade_tests, render
    from ..checker.hardening import harden

    harden()
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


def write_check_bundle(kind: str, path: str, **settings) -> int:
    """Write the Gradescope autograder or the PrairieLearn question (*kind*) with these
    *settings* (those of ``Bundle``) to *path*; the exit status."""
    from ..checker import Bundle, write_bundle
    from ..checker.prairielearn import QUESTION, SERVER_FOLDER, write_question

    try:
        if kind == "gradescope":
            write_bundle(path, Bundle(**settings))
        else:
            write_question(path, Bundle(**settings))
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--submission-name") from None
    except OSError as error:
        raise stopped("the bundle could not be written", os_reason(error), path) from None
    if kind == "gradescope":
        click.echo(f"wrote {path}: upload it as the assignment's autograder (Gradescope, "
                   f"Configure Autograder, zip file upload)")
    else:
        click.echo(f"wrote {path}/questions/{QUESTION} and {path}/serverFilesCourse/"
                   f"{SERVER_FOLDER}: copy both folders into your PrairieLearn course's "
                   f"root (it grades on the prairielearn/grader-python image)")
    return 0
