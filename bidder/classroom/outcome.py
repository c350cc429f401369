"""What one student's check comes to: a score, the misreadings named, each part right or
not; small, so that a class of hundreds is held in flat memory."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import parse_hand
from ..checker.formats import headline
from ..checker.points import parts, rounded, total_points
from ..checker.report import Crash, Report
from ..rules import plural

FUNCTION_BID = "openingBid"
WORKED = ": the worked examples"  # how bidder names a worked-example test


def by_suit(hand: str) -> str:
    """*hand* written by suit, as the web app writes hands: spades first, high to low."""
    return str(parse_hand(hand))


@dataclass(frozen=True)
class Raised:
    """Exceptions of one kind from one line of a student's module: in which function, how
    many, and a hand that raised it (written by suit)."""

    function: str
    crash: Crash
    count: int
    hand: str

    @property
    def text(self) -> str:
        """'openingBid raised ValueError (line 16, in openingBid) on 86 hands, for example
        on KS 3S ...', escaped."""
        return (f"{self.function} raised {self.crash.text()} on "
                f"{plural(self.count, 'hand')}, for example on {self.hand}")


@dataclass(frozen=True)
class Outcome:
    """One student: the score (of 100; None when the work could not be checked), the
    misreadings the diagnosis named, each part (function and rule) fully right or not,
    and the wrong bids given, by hand, for comparing students."""

    student: str
    score: float | None
    misreadings: tuple[str, ...] = ()
    parts: tuple[tuple[str, bool], ...] = ()
    stuck: bool = False
    problem: str = ""
    wrong_bids: tuple[tuple[str, str], ...] = ()  # (hand, the answer shown) unexplained
    caught: tuple[str, ...] | None = None  # misreadings the student's tests catch
    missed: tuple[str, ...] = ()  # misreadings they miss
    source: str = "checked"  # checked here, or read from a grader's results
    alternatives: tuple[str, ...] = ()  # misreadings that fit exactly as well
    raised: tuple[Raised, ...] = ()  # the exceptions, by kind and line, the most first

    @property
    def checked(self) -> bool:
        """Whether the work could be checked at all."""
        return self.score is not None


def not_checkable(student: str, problem: str, source: str = "checked") -> Outcome:
    """A student whose work could not be checked, and why."""
    return Outcome(student, None, problem=problem, source=source)


def from_report(student: str, report: Report) -> Outcome:
    """The outcome of a check: nothing checkable when no call could be made."""
    if not report.verdicts:
        return not_checkable(student, report.problems[0] if report.problems
                             else headline(report))
    found = parts(report)
    points, possible = total_points(found)
    worked = [part for part in found if part.rule is None]
    tests = report.tests
    return Outcome(
        student, rounded(100 * points / possible) if possible else 0.0,
        tuple(report.diagnosis.ids) if report.diagnosis is not None else (),
        tuple((part.name, part.passed) for part in found),
        bool(worked) and not any(part.right for part in worked),
        wrong_bids=unexplained_bids(report),
        caught=None if tests is None else tuple(c.variant.id for c in tests.caught),
        missed=() if tests is None else tuple(c.variant.id for c in tests.missed),
        alternatives=alternative_ids(report), raised=raised_of(report))


def alternative_ids(report: Report) -> tuple[str, ...]:
    """The misreadings that fit the report's answers exactly as well as the one named."""
    found = report.diagnosis
    return () if found is None else tuple(variant.id for variant in found.alternatives)


def raised_of(report: Report) -> tuple[Raised, ...]:
    """The report's exceptions by kind and line, each with its simplest hand."""
    return tuple(Raised(group.function, group.crash, len(group.verdicts),
                        by_suit(report.cases[group.example.case].hand))
                 for group in report.crashes())


def unexplained_bids(report: Report) -> tuple[tuple[str, str], ...]:
    """The wrong bids the diagnosed misreading does not explain, each with its hand: what
    two students sharing would be more than their misreadings explain."""
    from ..checker.diagnosis import Predictor

    found = report.diagnosis
    explains = Predictor(report.cases).explains
    return tuple((report.cases[verdict.case].hand, verdict.answer.shown())
                 for verdict in report.mismatches if verdict.function == FUNCTION_BID
                 and (found is None or not explains(found.variant, verdict)))


def from_results(student: str, results: dict, scale: float = 1.0) -> Outcome:
    """The outcome a grader's results hold (Gradescope's results.json, or PrairieLearn's
    with a score from 0 to 1, *scale* 100): read, never run again."""
    if results.get("gradable") is False:
        return not_checkable(student, str(results.get("message", "not gradable")),
                             "results")
    extra = results.get("extra_data") or {}
    tests = results.get("tests") if isinstance(results.get("tests"), list) else []
    found = tuple((str(test.get("name", "")), _passed(test))
                  for test in tests if isinstance(test, dict)
                  and ("status" in test or test.get("max_points")))
    score = rounded(float(results.get("score") or 0) * scale)
    return Outcome(student, score,
                   tuple(map(str, extra.get("misreadings", results.get("misreadings", ())))),
                   found, stuck=stuck_on_worked(tests, score),
                   source="results")


def stuck_on_worked(tests, score: float) -> bool:
    """Nothing right on the worked examples: each of the results' worked-example tests
    (bidder names them "<function>: the worked examples") that is worth points got none;
    results without such tests can only say so by a score of 0."""
    worked = [test for test in tests if isinstance(test, dict)
              and str(test.get("name", "")).endswith(WORKED) and _points(test, "max") > 0]
    if not worked:
        return score == 0
    return not any(_points(test, "") > 0 for test in worked)


def _points(test: dict, which: str) -> float:
    """A test's points (Gradescope's score, PrairieLearn's points) or their maximum."""
    keys = ("max_score", "max_points") if which == "max" else ("score", "points")
    for key in keys:
        try:
            return float(test[key])
        except (KeyError, TypeError, ValueError):
            continue
    return 0.0


def _passed(test: dict) -> bool:
    """Whether a grader's test was passed: Gradescope says so; PrairieLearn's full points
    say so (its tests worth no points, the worked examples, cannot, and are left out)."""
    if "status" in test:
        return test["status"] == "passed"
    return test["points"] == test["max_points"]
