"""A class file of answers, in the `bidder grade` format (``HAND,ANSWER,ID`` a line): the
unit is each student's answers, judged and diagnosed as a check judges a module's
openingBid, with no code to run."""

from __future__ import annotations

from ..checker.diagnosis import diagnose
from ..checker.report import RIGHT, WRONG, Answer, Case, Report, Verdict
from ..grading.classfile import Row, bounded_lines, grade_line
from ..rules import RULE_BY_ID
from .outcome import Outcome, alternative_ids, not_checkable, unexplained_bids

FUNCTION = "openingBid"


def read_answers(path: str) -> dict[str, list[Row]]:
    """Each student's graded rows, by id, in the file's order (rows without an id are
    one student, named after the file)."""
    students: dict[str, list[Row]] = {}
    with open(path, "rb") as stream:
        for number, raw in enumerate(bounded_lines(stream), 1):
            row = grade_line(number, raw)
            if row is not None:
                students.setdefault(row.id or "(no id)", []).append(row)
    return students


def answers_outcome(student: str, rows: list[Row]) -> Outcome:
    """One student's answers judged and diagnosed."""
    answered = [row for row in rows if row.answer is not None and not row.error]
    if not answered:
        problems = [row.error for row in rows if row.error]
        return not_checkable(student, f"line {rows[0].line}: {problems[0]}" if problems
                             else "no line holds an answer", "answers")
    cases = tuple(Case(row.hand, "answer", f"line {row.line}", row.rule,
                       (row.hcp, row.distribution, row.bid.text)) for row in answered)
    verdicts = tuple(
        Verdict(FUNCTION, number, Answer("none") if row.answer.text is None
                else Answer("str", row.answer.text, "str"), RIGHT if row.correct else WRONG)
        for number, row in enumerate(answered))
    report = Report(student, cases, verdicts)
    found = diagnose(report)
    report = Report(student, cases, verdicts, diagnosis=found)
    rules = sorted({row.rule for row in answered})
    return Outcome(
        student, round(100 * sum(row.correct for row in answered) / len(answered), 2),
        found.ids if found is not None else (),
        tuple((f"{FUNCTION}: hands {rule} ({RULE_BY_ID[rule].name}) decides", all(row.correct for row in answered
                                               if row.rule == rule)) for rule in rules),
        stuck=not any(row.correct for row in answered),
        wrong_bids=unexplained_bids(report),
        source="answers", alternatives=alternative_ids(report))
