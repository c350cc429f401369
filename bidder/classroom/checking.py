"""Every submission checked as ``bidder check`` checks one: the same sandbox, the same
limits and the same hands for all, over the cores in a process pool (each check runs
sealed in its own child), answers kept small so memory stays flat."""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator

from ..checker.check import build_cases, check_module
from ..checker.sandbox import Limits, choose_isolation
from ..checker.student_tests import grade_tests
from .outcome import Outcome, from_report, from_results, not_checkable
from .sources import Submission, in_folder


@dataclass(frozen=True)
class Settings:
    """How every submission is checked: the same for all."""

    hands: int = 1000
    seed: int = 1
    limits: Limits = Limits()
    isolation: str = "auto"


def outcome_of(submission: Submission, settings: Settings = Settings()) -> Outcome:
    """One submission's outcome: its results read back, or its module checked."""
    if submission.answers:
        from .answers import answers_outcome

        return answers_outcome(submission.student, list(submission.answers))
    if submission.results is not None:
        return from_results(submission.student, submission.results, submission.scale)
    if submission.files:
        return _uploaded(submission, settings)
    if submission.module is None:
        return not_checkable(submission.student, submission.problem)
    try:
        report = check_module(submission.module, settings.hands, settings.seed,
                              settings.limits, settings.isolation)
        if submission.tests is not None:
            report = replace(report, tests=grade_tests(
                submission.module, submission.tests, settings.limits, settings.isolation))
    except RuntimeError as error:
        return not_checkable(submission.student, str(error))
    return from_report(submission.student, report)


def _uploaded(submission: Submission, settings: Settings) -> Outcome:
    """A submission's uploaded files, laid out in a folder of their own for the while and
    checked as a student's folder is."""
    with tempfile.TemporaryDirectory(prefix="bidder-upload-") as folder:
        for name, path in submission.files:
            shutil.copyfile(path, os.path.join(folder, os.path.basename(name)))
        return outcome_of(in_folder(submission.student, folder), settings)


def _checked(job: tuple[Submission, Settings]) -> Outcome:
    return outcome_of(*job)


def warm(settings: Settings) -> None:
    """Work out once, before the workers fork, what every check shares: the hands, and
    which sandbox runs here (its probe starts one); each worker then inherits them."""
    build_cases(settings.hands, settings.seed)
    with suppress(RuntimeError, ValueError):  # each check says so, for its student
        choose_isolation(settings.isolation, settings.limits)


def check_class(submissions: Iterable[Submission], settings: Settings = Settings(),
                jobs: int | None = None, advance: Callable[[int], None] = lambda n: None
                ) -> Iterator[Outcome]:
    """The outcomes, in the submissions' order, checked over *jobs* processes (the cores;
    1 checks here); *advance* is told of each one done."""
    jobs = jobs or os.cpu_count() or 1
    work = [(submission, settings) for submission in submissions]
    if jobs == 1 or not any(submission.runs for submission, _ in work):
        for job in work:
            yield _checked(job)
            advance(1)
        return
    warm(settings)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for outcome in pool.map(_checked, work):
            yield outcome
            advance(1)
