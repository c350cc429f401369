"""A check's report in the formats graders read: JSON, Gradescope, PrairieLearn, JUnit XML.

Every format is drawn from the same report and the same parts: a part per function per
rule, worth its weight times the share of the rule's hands answered right, and for each
function the spec's worked examples, weighed like a rule, which students always see. The
parts' maxima are rounded to cents so that they add up to the total, and their points so
that they add up to the score (largest-remainder rounding). Hands
dealt at the thresholds and at random may be hidden until the due date: Gradescope hides
those parts itself; elsewhere their hands are left out of the messages. Text from the
student's code reaches this module already escaped; the XML is kept to the characters
XML 1.0 allows.
"""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

from ..errors import quote
from ..rules import RULE_BY_ID
from .points import VISIBLE, Grading, Part, parts, rounded, tests_parts, total_points
from .report import (CHECKED, FUNCTIONS, KIND_ORDER, MISSING, NOT_CHECKED, PARTLY, RAISED,
                     Crash, Report, Verdict)
from .text import crash_line, example_lines, headline, shown_expected, text_report

SCHEMA_VERSION = 1


XML_FORBIDDEN = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


QUOTED = re.compile(r"'[^'\n]*'")


SURROGATE = re.compile("[\ud800-\udfff]")  # in a str, only ever a lone one: not Unicode text


def unicode_text(data: dict) -> dict:
    """*data* with every lone surrogate in its texts (a student's str can hold them; no
    strict reader takes them) written as U+XXXX, and, where there was one, a line saying
    so at the end of its output."""
    found = [0]

    def mended(value):
        if isinstance(value, str):
            text, count = SURROGATE.subn(lambda match: f"U+{ord(match.group(0)):04X}", value)
            found[0] += count
            return text
        if isinstance(value, dict):
            return {mended(key): mended(item) for key, item in value.items()}
        if isinstance(value, list):
            return [mended(item) for item in value]
        return value

    result = mended(data)
    if found[0] and isinstance(result.get("output"), str):
        result["output"] += (f"\nNote: {found[0]} character{'s' if found[0] != 1 else ''} "
                             f"that {'are' if found[0] != 1 else 'is'} not Unicode text (lone "
                             f"surrogates, from the student's code) written as U+XXXX.")
    return result


def redact(text: str, report: Report, grading: Grading) -> str:
    """*text* with every hand students may not see yet replaced by words."""
    if grading.hidden == VISIBLE:
        return text
    hidden = {repr(case.hand) for case in report.cases if not grading.shows(case)}
    return QUOTED.sub(lambda match: "a hidden hand" if match.group(0) in hidden
                      else match.group(0), text)


def part_message(part: Part, report: Report) -> str:
    """One line: how the part went."""
    if part.status == MISSING:
        return f"missing: {quote(report.module, 40)} has no function {part.function}"
    if part.status == NOT_CHECKED:
        why = "the module could not be imported" if not report.imported else \
              "the run stopped before these hands"
        return f"not checked: {part.function} gave no answer for these hands ({why})"
    message = f"right on {part.right:,} of {part.hands:,} hands"
    if part.status == PARTLY:
        message += f"; {part.hands - part.calls:,} not answered (the run stopped)"
    return message


def part_output(part: Part, report: Report, grading: Grading, full: bool = False) -> str:
    """The part's message, then its simplest wrong answer for each cause; a hand that is
    hidden is left out unless *full* (when the platform hides the whole part)."""
    lines = [part_message(part, report)]
    causes: dict[str, list[Verdict]] = {}
    for verdict in part.mismatches:
        cause = (f"raised {Crash.of(verdict.answer).text(report.module)}"
                 if verdict.cause == RAISED else verdict.cause)
        causes.setdefault(cause, []).append(verdict)
    for cause, verdicts in list(causes.items())[:grading.shown]:
        example = min(verdicts, key=lambda verdict: _simplicity(report, verdict))
        count = len(verdicts)
        lines += ["", f"{cause} on {count:,} hand{'s' if count != 1 else ''}, for example:"]
        if full or grading.shows(report.cases[example.case]):
            lines += example_lines(example, report)
        else:
            lines += _hidden_example(example, report)
    if len(causes) > grading.shown:
        lines += ["", f"... and {len(causes) - grading.shown} more kinds of wrong answer"]
    return "\n".join(lines)


def _simplicity(report: Report, verdict: Verdict) -> tuple:
    """A worked example before a threshold hand before a random one, then the first."""
    return KIND_ORDER.index(report.cases[verdict.case].kind), verdict.case


def _hidden_example(verdict: Verdict, report: Report) -> list[str]:
    """An example whose hand students may not see yet: what came back, not the cards."""
    case = report.cases[verdict.case]
    expected = case.expected[FUNCTIONS.index(verdict.function)]
    actual = verdict.answer.shown(report.module)
    return [f"     {verdict.function} on a {case.kind} hand (not shown until released)",
            f"     expected: {shown_expected(expected)}",
            f"     actual:   {actual}" + (f"; {verdict.hint}" if verdict.hint else "")]


def summary(report: Report, grading: Grading, found: tuple[Part, ...]) -> str:
    """What to read first: the hands, the score, the headline, problems and warnings,
    with the hands students may not see yet left out."""
    points, possible = total_points(found)
    lines = [f"Checking {report.module}: {len(report.cases):,} hands "
             f"({report.count('worked')} worked examples, "
             f"{report.count('threshold')} on the thresholds, "
             f"{report.count('misreading')} that misreadings open otherwise, "
             f"{report.count('random'):,} random)",
             f"Score: {rounded(points):g} of {rounded(possible):g} points",
             f"In short: {headline(report)}"]
    crashes = [crash_line(group, report) for group in report.crashes()]
    for title, items in (("Problems", report.problems), ("Warnings", report.warnings),
                         ("Exceptions", crashes)):
        lines += [f"{title}:"] + [f"  - {item}" for item in items] if items else []
    if report.isolation is not None:
        lines.append(f"Isolation: {report.isolation.describe()}")
    return redact("\n".join(lines), report, grading)


def report_data(report: Report, grading: Grading = Grading()) -> dict:
    """The whole report as plain data (its shape: tests/schemas/check_report.schema.json)."""
    found = parts(report, grading)
    points, possible = total_points(found + tests_parts(report, grading.weights))
    isolation = report.isolation
    return {
        "version": SCHEMA_VERSION,
        "module": report.module,
        "imported": report.imported,
        "missing": list(report.missing),
        "passed": report.passed,
        "headline": headline(report),
        "misreading": misreading(report),
        "student_tests": student_tests_data(report),
        "isolation": None if isolation is None else {
            "name": isolation.name, "measures": list(isolation.measures),
            "reason": isolation.reason, "bounds": dict(isolation.bounds)},
        "hands": {"total": len(report.cases),
                  **{kind: report.count(kind) for kind in KIND_ORDER}},
        "functions": [_counts(report, function) for function in FUNCTIONS],
        "rules": [{"rule": rule, "name": RULE_BY_ID[rule].name, "hands": report.hands(rule),
                   "functions": [_counts(report, function, rule) for function in FUNCTIONS]}
                  for rule in report.rules],
        "problems": list(report.problems),
        "warnings": list(report.warnings),
        "groups": [_group_data(group, report) for group in report.groups()],
        "score": {"points": rounded(points), "max_points": rounded(possible),
                  "hidden": grading.hidden, "weights": grading.weights.to_dict(),
                  "parts": [_part_data(part) for part in found]},
    }


def misreading(report: Report) -> dict | None:
    """The diagnosis as data: the variant ids, its sentence and how well it fits."""
    found = report.diagnosis
    if found is None:
        return None
    return {"variants": list(found.ids), "sentence": found.sentence(report),
            "explained": found.explained, "wrong": found.wrong,
            "unexplained": found.unexplained,
            "either": [variant.id for variant in found.alternatives],
            "alike": [[one.id, other.id] for one, other in found.alike],
            "ruled_out": [variant.id for variant in found.ruled_out],
            "unconfirmed": [variant.id for variant in found.unconfirmed],
            "further": {"asked": found.asked, "confirming": found.confirming,
                        "deciding": [{"function": verdict.function, "hand": hand,
                                      "answer": verdict.answer.value}
                                     for hand, verdict in found.deciding]}}


def student_tests_data(report: Report) -> dict | None:
    """How the student's own tests did, as data."""
    found = report.tests
    if found is None:
        return None
    return {"file": found.tests, "problem": found.own.problem,
            "tests": len(found.own.results),
            "passed": sum(result.passed for result in found.own.results),
            "failing": [{"name": result.name, "message": result.message}
                        for result in found.own.failing()],
            "false": [{"name": result.name, "message": result.message, "hand": result.hand}
                      for result in found.false_tests],
            "untested": list(found.untested), "coverage": round(found.coverage, 4),
            "caught": [catch.variant.id for catch in found.caught],
            "missed": [{"variant": catch.variant.id, "hand": catch.hand}
                       for catch in found.missed]}


def _variant_ids(report: Report) -> list[str]:
    return [] if report.diagnosis is None else list(report.diagnosis.ids)


def _counts(report: Report, function: str, rule: str | None = None) -> dict:
    right, calls = report.agreement(function, rule)
    counts = {"function": function, "right": right, "calls": calls,
              "hands": report.hands(rule)}
    return counts if rule else {**counts, "status": report.status(function)}


def _group_data(group, report: Report) -> dict:
    example = group.example
    case = report.cases[example.case]
    expected = case.expected[FUNCTIONS.index(group.function)]
    crash = group.crash
    return {"function": group.function, "rule": group.rule, "cause": group.cause,
            "exception": None if crash is None else {
                "type": quote(crash.type_name, 60), "line": crash.line,
                "where": None if crash.where is None else quote(crash.where, 40)},
            "count": len(group.verdicts),
            "example": {"hand": case.hand, "kind": case.kind, "source": case.source,
                        "rule": case.rule, "expected": expected,
                        "expected_shown": shown_expected(expected),
                        "actual": example.answer.shown(report.module),
                        "hint": example.hint}}


def _part_data(part: Part) -> dict:
    return {"name": part.name, "function": part.function, "rule": part.rule,
            "status": part.status, "right": part.right, "calls": part.calls,
            "hands": part.hands, "points": rounded(part.points),
            "max_points": rounded(part.max_points), "passed": part.passed,
            "visibility": part.visibility}


def json_report(report: Report, grading: Grading = Grading()) -> str:
    """The whole report as one JSON object, for the instructor's own tools."""
    return _json(report_data(report, grading))


def _json(data: dict) -> str:
    return json.dumps(unicode_text(data), indent=2, ensure_ascii=False) + "\n"


def gradescope_results(report: Report, grading: Grading = Grading()) -> dict:
    """Gradescope's results.json: a test per part, each with its visibility, the hidden
    parts in full (Gradescope keeps them from students until they are released), the
    summary at the top with any hidden hand left out, every text shown as plain text."""
    found = parts(report, grading)
    extra = tests_parts(report, grading.weights)
    points, _ = total_points(found + extra)
    tests = []
    for number, part in _numbered(found):
        tests.append({
            "name": part.name, "number": number,
            "score": rounded(part.points), "max_score": rounded(part.max_points),
            "status": "passed" if part.passed else "failed",
            "output": part_output(part, report, grading, full=True),
            "visibility": part.visibility})
    tests += [{"name": part.name, "number": f"{len(FUNCTIONS) + 1}.{number}",
               "score": rounded(part.points), "max_score": rounded(part.max_points),
               "status": "passed" if part.passed else "failed", "output": part.message,
               "visibility": VISIBLE} for number, part in enumerate(extra, 1)]
    return {"score": rounded(points), "output": summary(report, grading, found),
            "output_format": "text", "test_output_format": "text",
            "test_name_format": "text", "visibility": VISIBLE,
            "stdout_visibility": "hidden",
            "extra_data": {"module": report.module, "passed": report.passed,
                           "hidden": grading.hidden, "misreadings": _variant_ids(report)},
            "tests": tests}


def _numbered(found: tuple[Part, ...]):
    """Each part with its number: '2.3' is the third part of the second function."""
    for index, function in enumerate(FUNCTIONS, 1):
        mine = [part for part in found if part.function == function]
        yield from ((f"{index}.{number}", part) for number, part in enumerate(mine, 1))


def gradescope_report(report: Report, grading: Grading = Grading()) -> str:
    """Gradescope's results.json as text."""
    return _json(gradescope_results(report, grading))


def prairielearn_results(report: Report, grading: Grading = Grading()) -> dict:
    """PrairieLearn's external grader results: a score from 0 to 1 and a test per part; a
    module that cannot be imported is not gradable, and costs the student no attempt."""
    found = parts(report, grading)
    extra = tests_parts(report, grading.weights)
    points, possible = total_points(found + extra)
    message = redact(headline(report), report, grading)
    if not report.imported:
        return {"gradable": False, "score": 0.0, "message": message,
                "format_errors": [redact(problem, report, grading)
                                  for problem in report.problems] or [message],
                "output": summary(report, grading, found)}
    return {"gradable": True, "score": round(points / possible, 4) if possible else 0.0,
            "message": message, "output": summary(report, grading, found),
            "misreadings": _variant_ids(report),
            "tests": [{"name": part.name, "description": _description(part),
                       "points": rounded(part.points), "max_points": rounded(part.max_points),
                       "message": part_message(part, report),
                       "output": part_output(part, report, grading, full=False)}
                      for part in found]
            + [{"name": part.name, "description": "your own tests",
                "points": rounded(part.points), "max_points": rounded(part.max_points),
                "message": part.message} for part in extra]}


def _description(part: Part) -> str:
    """What a part covers, in words."""
    if part.rule is None:
        return (f"{part.function} on the {part.hands:,} worked examples of the assignment "
                f"(always shown)")
    return (f"{part.function} on the {part.hands:,} hands {part.rule} decides: "
            f"\u201c{RULE_BY_ID[part.rule].sentence}\u201d")


def prairielearn_report(report: Report, grading: Grading = Grading()) -> str:
    """PrairieLearn's results.json as text."""
    return _json(prairielearn_results(report, grading))


def xml_safe(text: str) -> str:
    """*text* with every character XML 1.0 forbids written as U+XXXX."""
    return XML_FORBIDDEN.sub(lambda match: f"U+{ord(match.group(0)):04X}", text)


def junit_tree(report: Report, grading: Grading = Grading()) -> ElementTree.Element:
    """JUnit XML as CodeGrade, GitLab and Jenkins read it: a suite for the module (one
    case: it imports and answers every call) and a suite per function with a case per
    part; points in each suite's properties, hidden hands left out of every message."""
    found = parts(report, grading)
    root = ElementTree.Element("testsuites", name=xml_safe(f"bidder check {report.module}"))
    misreadings = {"misreadings": " ".join(_variant_ids(report))} if report.diagnosis else {}
    module = _suite(root, report.module, found, **misreadings)
    case = _sub(module, "testcase", classname=report.module,
                name="imports and answers every call")
    if report.problems:
        _sub(case, "failure", summary(report, grading, found),
             message=redact(report.problems[0], report, grading), type="problem")
    if report.warnings:
        _sub(case, "system-out", redact("\n".join(report.warnings), report, grading))
    for function in FUNCTIONS:
        mine = tuple(part for part in found if part.function == function)
        suite = _suite(root, function, mine, status=report.status(function))
        for part in mine:
            case = _sub(suite, "testcase", classname=function, name=part.name)
            if not part.passed:
                _sub(case, "failure", part_output(part, report, grading),
                     message=part_message(part, report), type=_failure_type(part))
    extra = tests_parts(report, grading.weights)
    if extra:
        suite = _suite(root, "your tests", extra)
        for part in extra:
            case = _sub(suite, "testcase", classname="your tests", name=part.name)
            if not part.passed:
                _sub(case, "failure", part.message, message=part.message, type="tests")
    for suite in root:
        _count(suite, suite.findall("testcase"))
    _count(root, root.findall("testsuite/testcase"))
    return root


def _failure_type(part: Part) -> str:
    """What went wrong first: a cause (wrong answer, wrong type...) or, when the hands
    were not all answered, the part's status."""
    if part.status == CHECKED:
        return part.mismatches[0].cause
    return part.status


def _sub(parent: ElementTree.Element, tag: str, text: str | None = None,
         **attributes: str) -> ElementTree.Element:
    """A child element, its text and attributes kept to what XML 1.0 allows."""
    element = ElementTree.SubElement(parent, tag, {key: xml_safe(value)
                                                   for key, value in attributes.items()})
    if text is not None:
        element.text = xml_safe(text)
    return element


def _suite(root: ElementTree.Element, name: str, found: tuple[Part, ...],
           **extra: str) -> ElementTree.Element:
    """A testsuite whose properties give the points of *found* and anything *extra*, each
    property named after its suite ('openingBid.points'), so that no name repeats in the
    file (readers that gather every suite's properties in one table need that)."""
    suite = _sub(root, "testsuite", name=name)
    properties = _sub(suite, "properties")
    points, possible = total_points(found)
    for key, value in {"points": f"{rounded(points):g}",
                       "max_points": f"{rounded(possible):g}", **extra}.items():
        _sub(properties, "property", name=f"{name}.{key}", value=value)
    return suite


def _count(element: ElementTree.Element, cases: list[ElementTree.Element]) -> None:
    """The counts JUnit readers expect, from the cases under *element*."""
    failures = sum(case.find("failure") is not None for case in cases)
    element.attrib.update(tests=str(len(cases)), failures=str(failures), errors="0",
                          skipped="0")


def junit_report(report: Report, grading: Grading = Grading()) -> str:
    """JUnit XML as text, with its declaration."""
    root = junit_tree(report, grading)
    ElementTree.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(root, encoding="unicode") + "\n")


GRADER_FORMATS = {"json": json_report, "gradescope": gradescope_report,
                  "prairielearn": prairielearn_report, "junit": junit_report}




def text_format(report: Report, grading: Grading = Grading()) -> str:
    """The report in words, showing as many kinds of wrong answer as *grading* says."""
    return text_report(report, grading.shown)


FORMATS = {"text": text_format, **GRADER_FORMATS}


def render(name: str, report: Report, grading: Grading = Grading()) -> str:
    """The report in the format *name*: the text report, or one the graders read."""
    return FORMATS[name](report, grading)
