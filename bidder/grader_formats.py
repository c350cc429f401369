"""A check's report in the formats graders read: JSON, Gradescope, PrairieLearn, JUnit XML.

Every format is drawn from the same report and the same parts: a part per function per
rule, worth its weight times the share of the rule's hands answered right, and for each
function the spec's worked examples, worth no points, which students always see. Hands
dealt at the thresholds and at random may be hidden until the due date: Gradescope hides
those parts itself; elsewhere their hands are left out of the messages. Text from the
student's code reaches this module already escaped; the XML is kept to the characters
XML 1.0 allows.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass
from xml.etree import ElementTree

from .advice import is_reachable
from .check_formats import FORMATS, example_lines, headline, shown_expected
from .checking import (CHECKED, FUNCTIONS, KIND_ORDER, MISSING, NOT_CHECKED, PARTLY, Case,
                       Report, Verdict)
from .errors import quote
from .rules import RULE_BY_ID, RULES

VISIBLE = "visible"
VISIBILITIES = (VISIBLE, "hidden", "after_due_date", "after_published")
SETTINGS = ("functions", "rules", "total", "tests")
DEFAULT_TOTAL = 100.0
SCHEMA_VERSION = 1
XML_FORBIDDEN = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
QUOTED = re.compile(r"'[^'\n]*'")


# Weights ---------------------------------------------------------------------------------

class WeightsError(ValueError):
    """A weights file that cannot be used, with the file, the line and the key at fault."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Weights:
    """How the points are shared: a weight per function and per rule (1 for any not
    given) and the total they add up to."""

    functions: tuple[tuple[str, float], ...] = ()
    rules: tuple[tuple[str, float], ...] = ()
    total: float = DEFAULT_TOTAL
    tests: float = 0.0  # points on top of the total for the student's own tests

    def function(self, name: str) -> float:
        """The weight of a graded function."""
        return dict(self.functions).get(name, 1)

    def rule(self, rule_id: str) -> float:
        """The weight of a rule's hands."""
        return dict(self.rules).get(rule_id, 1)

    def max_points(self, function: str, rule: str, present: tuple[str, ...]) -> float:
        """The points for *function* on the hands *rule* decides: the function's share of
        the total, shared among the *present* rules by their weights."""
        return (self.total * _share(self.function(function), map(self.function, FUNCTIONS))
                * _share(self.rule(rule), map(self.rule, present)))

    def to_dict(self) -> dict:
        """Every weight, the defaults included, as plain data."""
        return {"functions": {name: self.function(name) for name in FUNCTIONS},
                "rules": {rule.id: self.rule(rule.id) for rule in RULES},
                "total": self.total, "tests": self.tests}


def _share(weight: float, weights) -> float:
    """*weight* as a share of the sum of *weights*; nothing when they add up to 0."""
    whole = sum(weights)
    return weight / whole if whole else 0.0


def load_weights(path: str) -> Weights:
    """The weights in a TOML or JSON file.

    :raises WeightsError: naming the file, the line and the key at fault.
    :raises OSError: when the file cannot be read.
    """
    with open(path, "rb") as stream:
        data = stream.read()
    name = quote(path, 200)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WeightsError(f"{name}: the file is not UTF-8 text") from None
    return parse_weights(text, name)


def parse_weights(text: str, name: str = "weights") -> Weights:
    """Weights from the text of a JSON object, or else a TOML document, such as
    ``{"functions": {"openingBid": 2}, "rules": {"R6": 2}, "total": 100}``.

    :raises WeightsError: naming *name*, the line and the key at fault.
    """
    data = _decoded(text, name)
    for key in data:
        if key not in SETTINGS:
            raise WeightsError(f"{_where(text, name, key)}: {quote(repr(key), 40)} is not a "
                               f"setting; the settings are {', '.join(SETTINGS)}")
    functions = _table(data, "functions", FUNCTIONS, "a graded function", text, name)
    rules = _table(data, "rules", tuple(rule.id for rule in RULES), "a rule", text, name)
    total = data.get("total", DEFAULT_TOTAL)
    if not _is_weight(total) or total == 0:
        raise WeightsError(f"{_where(text, name, 'total')}: total must be a number above 0, "
                           f"not {quote(repr(total), 40)}")
    tests = data.get("tests", 0)
    if not _is_weight(tests):
        raise WeightsError(f"{_where(text, name, 'tests')}: tests must be a number of points, "
                           f"0 or more, not {quote(repr(tests), 40)}")
    weights = Weights(functions, rules, float(total), float(tests))
    if not sum(map(weights.function, FUNCTIONS)):
        raise WeightsError(f"{_where(text, name, 'functions')}: the functions' weights add "
                           f"up to 0; give at least one a weight above 0")
    if not sum(weights.rule(rule.id) for rule in RULES if is_reachable(rule)):
        raise WeightsError(f"{_where(text, name, 'rules')}: the rules' weights add up to 0; "
                           f"give at least one rule that decides hands a weight above 0")
    return weights


def _decoded(text: str, name: str):
    """The table in a JSON object (text starting with '{'), else in a TOML document."""
    try:
        if text.lstrip().startswith("{"):
            return json.loads(text)
        return tomllib.loads(text)
    except json.JSONDecodeError as error:
        raise WeightsError(f"{name}, line {error.lineno}: not JSON: {error.msg}") from None
    except tomllib.TOMLDecodeError as error:
        raise WeightsError(f"{name}: not TOML: {error}") from None


def _table(data: dict, key: str, known: tuple[str, ...], kind: str, text: str,
           name: str) -> tuple[tuple[str, float], ...]:
    """The weights of one table, each checked: a known name and a number of 0 or more."""
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise WeightsError(f"{_where(text, name, key)}: {key} must be a table of names and "
                           f"weights, such as {{{known[-1]!r}: 2}}")
    for item, weight in table.items():
        if item not in known:
            raise WeightsError(f"{_where(text, name, item)}: {quote(repr(item), 40)} is not "
                               f"{kind}; the {key} are {', '.join(known)}")
        if not _is_weight(weight):
            raise WeightsError(f"{_where(text, name, item)}: the weight of {item} must be a "
                               f"number of 0 or more, not {quote(repr(weight), 40)}")
    return tuple((item, float(weight)) for item, weight in table.items())


def _is_weight(value) -> bool:
    """A finite number of 0 or more (a bool is not a number here)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


def _where(text: str, name: str, key: str) -> str:
    """'weights.toml, line 3': the first line naming *key*, or just the file's name."""
    pattern = re.compile(rf"(?<![\w]){re.escape(key)}(?![\w])")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.search(line):
            return f"{name}, line {number}"
    return name


# Parts and points -------------------------------------------------------------------------

@dataclass(frozen=True)
class Grading:
    """How a report becomes a grade: the weights, when students see the threshold and
    random hands (worked examples are always visible), and how many kinds of wrong
    answer each part shows."""

    weights: Weights = Weights()
    hidden: str = VISIBLE
    shown: int = 5

    def shows(self, case: Case) -> bool:
        """Whether students may see this hand now."""
        return self.hidden == VISIBLE or case.kind == "worked"


@dataclass(frozen=True)
class Part:
    """One graded test: a function on the hands one rule decides (rule R1..R9), or on the
    worked examples (rule None, worth no points)."""

    function: str
    rule: str | None
    hands: int
    right: int
    calls: int
    max_points: float
    visibility: str
    mismatches: tuple[Verdict, ...]
    missing: bool = False

    @property
    def name(self) -> str:
        """'openingBid: hands R3 (1 of a minor) decides'."""
        if self.rule is None:
            return f"{self.function}: the worked examples"
        return f"{self.function}: hands {self.rule} ({RULE_BY_ID[self.rule].name}) decides"

    @property
    def status(self) -> str:
        """checked, partly checked, not checked (no call made) or missing."""
        if self.missing:
            return MISSING
        if not self.calls:
            return NOT_CHECKED
        return CHECKED if self.calls == self.hands else PARTLY

    @property
    def points(self) -> float:
        """The weight times the share of hands answered right."""
        return self.max_points * self.right / self.hands

    @property
    def passed(self) -> bool:
        """Every hand answered right, with the right type."""
        return self.right == self.hands


def parts(report: Report, grading: Grading = Grading()) -> tuple[Part, ...]:
    """For each function, the worked examples (if any were checked), then each rule
    deciding some of the hands, in table order."""
    present = report.rules
    found = []
    for function in FUNCTIONS:
        if report.count("worked"):
            found.append(_part(report, function, None, 0.0, VISIBLE))
        found += [_part(report, function, rule,
                        grading.weights.max_points(function, rule, present), grading.hidden)
                  for rule in present]
    return tuple(found)


def _part(report: Report, function: str, rule: str | None, max_points: float,
          visibility: str) -> Part:
    """The part of *function* on the worked examples (rule None) or the hands of *rule*."""
    def belongs(case: Case) -> bool:
        return case.kind == "worked" if rule is None else case.rule == rule

    verdicts = [verdict for verdict in report.verdicts if verdict.function == function
                and belongs(report.cases[verdict.case])]
    right = sum(verdict.right for verdict in verdicts)
    return Part(function, rule, sum(map(belongs, report.cases)), right, len(verdicts),
                max_points, visibility, tuple(verdict for verdict in verdicts
                                              if not verdict.right),
                function in report.missing)


@dataclass(frozen=True)
class TestsPart:
    """One graded fact about the student's own tests."""

    name: str
    passed: bool
    max_points: float
    message: str

    @property
    def points(self) -> float:
        """All the points, or none."""
        return self.max_points if self.passed else 0.0


def tests_parts(report: Report, weights: Weights) -> tuple[TestsPart, ...]:
    """The student's tests as graded parts: they pass and are true, every function has
    one, and one part for each misreading they should catch; the tests' points shared
    equally among the parts."""
    found = report.tests
    if found is None:
        return ()
    true = not found.own.failing() and not found.false_tests and not found.own.problem
    facts = [("your tests pass on your module and on the reference", true,
              found.own.problem or "; ".join(f"{result.name}: {result.message}" for result
                                             in found.own.failing() + found.false_tests)),
             ("every function has a test", not found.untested,
              f"no test calls {' or '.join(found.untested)}" if found.untested else "")]
    facts += [(f"your tests catch {catch.variant.id}", catch.caught,
               f"caught by {catch.by}" if catch.caught else
               f"{catch.variant.sentence} A hand it changes: {catch.hand!r}")
              for catch in found.catches]
    share = weights.tests / len(facts)
    return tuple(TestsPart(name, passed, share, message or ("yes" if passed else "no"))
                 for name, passed, message in facts)


def total_points(found: tuple[Part, ...]) -> tuple[float, float]:
    """(points scored, points possible) over all parts, before rounding."""
    return sum(part.points for part in found), sum(part.max_points for part in found)


def rounded(points: float) -> float:
    """Points as every format gives them: to two decimals."""
    return round(points, 2)


# Words ------------------------------------------------------------------------------------

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
        causes.setdefault(verdict.cause, []).append(verdict)
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
             f"{report.count('random'):,} random)",
             f"Score: {rounded(points):g} of {rounded(possible):g} points",
             f"In short: {headline(report)}"]
    for title, items in (("Problems", report.problems), ("Warnings", report.warnings)):
        lines += [f"{title}:"] + [f"  - {item}" for item in items] if items else []
    if report.isolation is not None:
        lines.append(f"Isolation: {report.isolation.describe()}")
    return redact("\n".join(lines), report, grading)


# JSON: the whole report as data -----------------------------------------------------------

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
            "reason": isolation.reason},
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
            "unexplained": found.unexplained}


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
    return {"function": group.function, "rule": group.rule, "cause": group.cause,
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
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# Gradescope -------------------------------------------------------------------------------

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


# PrairieLearn -----------------------------------------------------------------------------

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
                f"(always shown; no points)")
    return (f"{part.function} on the {part.hands:,} hands {part.rule} decides: "
            f"\u201c{RULE_BY_ID[part.rule].sentence}\u201d")


def prairielearn_report(report: Report, grading: Grading = Grading()) -> str:
    """PrairieLearn's results.json as text."""
    return _json(prairielearn_results(report, grading))


# JUnit XML --------------------------------------------------------------------------------

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
    """A testsuite whose properties give the points of *found* and anything *extra*."""
    suite = _sub(root, "testsuite", name=name)
    properties = _sub(suite, "properties")
    points, possible = total_points(found)
    for key, value in {"points": f"{rounded(points):g}",
                       "max_points": f"{rounded(possible):g}", **extra}.items():
        _sub(properties, "property", name=key, value=value)
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


# Every format -----------------------------------------------------------------------------

GRADER_FORMATS = {"json": json_report, "gradescope": gradescope_report,
                  "prairielearn": prairielearn_report, "junit": junit_report}


def render(name: str, report: Report, grading: Grading = Grading()) -> str:
    """The report in the format *name*: the text report, or one the graders read."""
    if name == "text":
        return FORMATS["text"](report, grading.shown)
    return FORMATS[name](report, grading)
