"""Grading a student's own tests: do they pass, are they true, and what would they catch.

The assignment asks for test-driven design: every function with at least one test. The
student's test file runs sealed, like their module, three ways: on their own module
(do the tests pass? which functions do they call? how much of the module do they run?),
on the reference under the module's name (a test that fails there asserts something
false), and on each misreading of the rules as a mutant (a test that passes on the
reference and fails on the mutant catches that misreading). Misreadings that change no
hand cannot be caught and are not counted.

The tests are judged by behaviour alone: the reference and every mutant are written out
alike (the same name, docstrings and layout: only the rule table's data differ), a catch
counts only when the failing test called a graded function on a hand the mutant answers
otherwise, and nothing a run on the reference or a mutant writes (messages, names no
run on the student's module gave, text passed as a hand) reaches the report.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache

from .. import packed
from ..dealing import changed_hand
from ..errors import quote
from ..variants import ASSIGNMENT, CATALOGUE, Variant
from .channel import Corrupted, shaped
from .endings import ending
from .report import FUNCTIONS
from .sandbox import Isolation, Limits, run_student
from .standalone import module_source

OUTCOMES = ("passed", "failed", "error")
_TEST_KEYS = {"event": str, "name": str, "outcome": str, "message": str,
              "hand": (str, type(None)), "calls": list}
CALLS_LIMIT = 64
_TESTED_KEYS = {"event": str, "called": list, "run": int, "lines": int}
_IMPORT_KEYS = {"imported": {"event": str, "printed": str},
                "import_error": {"event": str, "error": dict, "printed": str}}


@dataclass(frozen=True)
class TestResult:
    """One of the student's tests on one module: how it went, why, and on which hand."""

    name: str
    outcome: str
    message: str = ""
    hand: str | None = None
    calls: tuple[tuple[str, str], ...] = ()  # (function, hand) the test called

    @property
    def passed(self) -> bool:
        """The test passed."""
        return self.outcome == "passed"


@dataclass(frozen=True)
class Run:
    """The student's tests run once on one module."""

    results: tuple[TestResult, ...]
    problem: str = ""  # why the tests could not run (or not to the end)
    called: tuple[str, ...] = ()
    lines_run: int = 0
    lines: int = 0

    def failing(self) -> tuple[TestResult, ...]:
        """The tests that did not pass."""
        return tuple(result for result in self.results if not result.passed)


@dataclass(frozen=True)
class Catch:
    """A misreading and whether the tests catch it; a hand it changes, as an example."""

    variant: Variant
    caught: bool
    by: str = ""  # the first test that catches it
    hand: str = ""


@dataclass(frozen=True)
class TestsReport:
    """How good a student's tests are."""

    tests: str
    own: Run
    reference: Run
    catches: tuple[Catch, ...]
    isolation: Isolation | None = None

    @property
    def false_tests(self) -> tuple[TestResult, ...]:
        """Tests that fail on the reference: they assert something the rules deny."""
        return self.reference.failing()

    @property
    def untested(self) -> tuple[str, ...]:
        """The graded functions no test calls."""
        return tuple(function for function in FUNCTIONS if function not in self.own.called)

    @property
    def caught(self) -> tuple[Catch, ...]:
        """The misreadings the tests catch."""
        return tuple(catch for catch in self.catches if catch.caught)

    @property
    def missed(self) -> tuple[Catch, ...]:
        """The misreadings the tests let through."""
        return tuple(catch for catch in self.catches if not catch.caught)

    @property
    def coverage(self) -> float:
        """The share of the module's lines the tests run, 0 to 1."""
        return self.own.lines_run / self.own.lines if self.own.lines else 0.0


def read_run(outcome, tests_name: str) -> Run:
    """The checked events of one run of the tests, as a Run."""
    results, problem, tested = [], "", None
    try:
        lines = outcome.channel.split(b"\n")[:-1]
        for number, line in enumerate(lines):
            event = json.loads(line.decode("utf-8"))
            kind = event.get("event") if type(event) is dict else None
            if number == 0:
                shaped(event, _IMPORT_KEYS.get(kind) or {"?": str}, "the first line")
                if kind == "import_error":
                    problem = (f"{quote(tests_name, 40)} could not be imported: "
                               f"{quote(event['error'].get('type', '?'), 40)}: "
                               f"{quote(str(event['error'].get('message', '')))}")
            elif kind == "test" and tested is None:
                shaped(event, _TEST_KEYS, "a test")
                if event["outcome"] not in OUTCOMES:
                    raise Corrupted("a test with no known outcome")
                results.append(TestResult(quote(event["name"]), event["outcome"],
                                          quote(event["message"], 120),
                                          event["hand"] and quote(event["hand"], 80),
                                          _calls(event["calls"])))
            elif kind == "tested" and tested is None:
                tested = shaped(event, _TESTED_KEYS, "the end")
                if not set(tested["called"]) <= set(FUNCTIONS):
                    raise Corrupted("a function the checker does not know")
            else:
                raise Corrupted("a line out of order")
    except (Corrupted, UnicodeDecodeError, ValueError) as error:
        return Run(tuple(results), f"the tests wrote on the checker's channel ({error})")
    if not problem and tested is None:
        problem = ("the tests did not finish: no answer within the time limit"
                   if outcome.status is None else
                   f"the tests did not finish: the process "
                   f"{ending(outcome.status, outcome.isolation)}")
    if tested is None:
        return Run(tuple(results), problem)
    return Run(tuple(results), problem, tuple(tested["called"]), tested["run"],
               tested["lines"])


def _calls(calls: list) -> tuple[tuple[str, str], ...]:
    """The (function, hand) pairs of a test event, each checked."""
    if len(calls) > CALLS_LIMIT or not all(
            type(call) is list and len(call) == 2 and call[0] in FUNCTIONS
            and type(call[1]) is str and len(call[1]) <= 200 for call in calls):
        raise Corrupted("a test's calls are not the runner's")
    return tuple((function, hand) for function, hand in calls)


def differs(variant: Variant, function: str, hand: str) -> bool:
    """Whether *variant* answers *function* on *hand* otherwise than the reference (a
    hand not in the assignment's notation tells nothing)."""
    code = packed.encode(hand)
    if code is None:
        return False
    if function == "openingBid":
        return (variant.written(packed.decide(code, variant.rules, variant.counting)[1])
                != packed.decide(code)[1])
    if function == "distributionPoints":
        return (packed.tally(code, variant.counting).distribution
                != packed.tally(code).distribution)
    return False


def trusted(run: Run, names: set[str]) -> Run:
    """A run on the reference or a mutant with nothing of its text kept: only the tests
    the student's module also ran, no messages, a hand only in the assignment's
    notation, and a problem only as a fact."""
    results = tuple(TestResult(result.name, result.outcome, "",
                               result.hand if result.hand and packed.encode(result.hand)
                               is not None else None, result.calls)
                    for result in run.results if result.name in names)
    return Run(results, "the tests did not run to the end" if run.problem else "",
               run.called, run.lines_run, run.lines)


def run_tests(module: str, tests: str, limits: Limits, isolation: str,
              replacement: str | None = None):
    """The student's *tests* on *module* (or on *replacement* under its name)."""
    work = {"functions": list(FUNCTIONS), "hands": []}
    outcome = run_student(module, work, limits, isolation, tests=tests,
                          replacement=replacement)
    return outcome, read_run(outcome, os.path.basename(tests))


@lru_cache(maxsize=1)
def mutants() -> tuple[tuple[Variant, str, str], ...]:
    """(variant, its module's source, a hand it changes) for each misreading that
    changes some hand's answer."""
    found = []
    for variant in CATALOGUE:
        hand = changed_hand(variant)
        if hand is not None:
            found.append((variant, module_source(variant), hand))
    return tuple(found)


def grade_tests(module: str, tests: str, limits: Limits = Limits(),
                isolation: str = "auto") -> TestsReport:
    """Run the student's *tests* on their *module*, on the reference and on every
    mutant, and say what they show (no mutant is run when no test holds on the
    reference: none could catch it, and tests that loop would meet the time limit on
    each)."""
    outcome, own = run_tests(module, tests, limits, isolation)
    names = {result.name for result in own.results}
    _, reference = run_tests(module, tests, limits, isolation, module_source(ASSIGNMENT))
    reference = trusted(reference, names)
    true_tests = {result.name for result in reference.results if result.passed}
    catches = []
    for variant, source, hand in mutants():
        catching = []
        if true_tests:  # only a test true of the reference catches: else none is run
            _, run = run_tests(module, tests, limits, isolation, source)
            catching = [result.name for result in trusted(run, names).failing()
                        if result.name in true_tests
                        and any(differs(variant, *call) for call in result.calls)]
        catches.append(Catch(variant, bool(catching), catching[0] if catching else "",
                             hand))
    return TestsReport(os.path.basename(tests), own, reference, tuple(catches),
                       outcome.isolation)


def describe_tests(report: TestsReport) -> list[str]:
    """The report on the student's tests, as lines of text."""
    own = report.own
    passed = sum(result.passed for result in own.results)
    lines = [f"Your tests ({report.tests}): {passed} of {len(own.results)} pass on your "
             f"module; they run {report.coverage:.0%} of its lines"]
    if own.problem:
        lines.append(f"  {own.problem}")
    lines += [f"  fails on your module: {result.name}: {result.message}"
              for result in own.failing()]
    if report.untested:
        lines.append(f"  no test calls {' or '.join(report.untested)}: the assignment asks "
                     f"for at least one test of every function")
    for result in report.false_tests:
        on = f" (on {result.hand!r})" if result.hand else ""
        lines.append(f"  {result.name} fails on the reference{on}: it asserts something "
                     f"the rules deny")
    lines.append(f"  Your tests catch {len(report.caught)} of {len(report.catches)} "
                 f"misreadings" + ("; they miss:" if report.missed else ""))
    lines += [f"    {catch.variant.id} ({catch.variant.sentence}) on a hand such as "
              f"{catch.hand!r}" for catch in report.missed]
    return lines
