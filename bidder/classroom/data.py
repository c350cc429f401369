"""The class report as plain data, for scripts (its shape:
tests/classroom/class_report.schema.json)."""

from __future__ import annotations

import json

from ..errors import quote
from .outcome import Raised
from .summary import ClassReport

VERSION = 1


def report_data(report: ClassReport) -> dict:
    """Every section of the report as JSON-ready data."""
    tests = report.tests
    return {
        "version": VERSION,
        "students": [{"student": outcome.student, "score": outcome.score,
                      "misreadings": list(outcome.misreadings),
                      "alternatives": list(outcome.alternatives), "stuck": outcome.stuck,
                      "checked": outcome.checked, "problem": outcome.problem or None,
                      "source": outcome.source,
                      "exceptions": [_raised_data(raised) for raised in outcome.raised]}
                     for outcome in report.outcomes],
        "misreadings": [{"id": held.id, "students": held.students,
                         "sentence": held.sentence, "hand": held.hand,
                         "names": list(held.names), "alternatives": list(held.alternatives),
                         "others": held.others} for held in report.held],
        "distribution": list(report.distribution),
        "parts": [{"name": share.name, "right": share.right, "of": share.of}
                  for share in report.shares],
        "not_checkable": [{"student": outcome.student, "problem": outcome.problem}
                          for outcome in report.not_checkable],
        "stuck": [outcome.student for outcome in report.stuck],
        "tests": None if tests is None else {
            "students": tests.students,
            "caught": [{"id": one, "students": count} for one, count in tests.caught],
            "never_caught": list(tests.never)},
        "reteach": [{"id": entry.id, "hands": [
            {"hand": hand, "bids": [{"by": by, "bid": bid} for by, bid in bids]}
            for hand, bids in entry.hands]} for entry in report.reteach],
        "similar": [{"students": [pair.first, pair.second], "shared": pair.shared,
                     "evidence": [{"hand": hand, "answer": answer}
                                  for hand, answer in pair.evidence]}
                    for pair in report.similar],
    }


def _raised_data(raised: Raised) -> dict:
    crash = raised.crash
    return {"function": raised.function, "type": quote(crash.type_name, 60),
            "line": crash.line, "where": None if crash.where is None else quote(crash.where, 40),
            "count": raised.count, "hand": raised.hand, "text": raised.text}


def json_text(report: ClassReport) -> str:
    """The report as one JSON object."""
    return json.dumps(report_data(report), indent=2, ensure_ascii=False) + "\n"
