"""How a check's points are shared: the weights file, the grading settings, and each
function's and rule's part of the total."""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass, replace
from fractions import Fraction

from ..advice import is_reachable
from ..errors import quote
from ..rules import RULE_BY_ID, RULES
from .report import CHECKED, FUNCTIONS, MISSING, NOT_CHECKED, PARTLY, Case, Report, Verdict

VISIBLE = "visible"


VISIBILITIES = (VISIBLE, "hidden", "after_due_date", "after_published")


SETTINGS = ("functions", "rules", "worked", "total", "tests")


DEFAULT_TOTAL = 100.0


class WeightsError(ValueError):
    """A weights file that cannot be used, with the file, the line and the key at fault."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Weights:
    """How the points are shared: a weight per function, per rule and for the worked
    examples (1 for any not given) and the total they add up to."""

    functions: tuple[tuple[str, float], ...] = ()
    rules: tuple[tuple[str, float], ...] = ()
    total: float = DEFAULT_TOTAL
    tests: float = 0.0  # points on top of the total for the student's own tests
    worked: float = 1.0  # the worked examples' weight, shared like a rule's

    def function(self, name: str) -> float:
        """The weight of a graded function."""
        return dict(self.functions).get(name, 1)

    def rule(self, rule_id: str | None) -> float:
        """The weight of a rule's hands (None: the worked examples)."""
        return self.worked if rule_id is None else dict(self.rules).get(rule_id, 1)

    def max_points(self, function: str, rule: str | None,
                   present: tuple[str | None, ...]) -> Fraction:
        """The exact points for *function* on the hands *rule* decides (None: the worked
        examples): the function's share of the total, shared among the *present* rules by
        their weights."""
        return (Fraction(self.total)
                * _share(self.function(function), map(self.function, FUNCTIONS))
                * _share(self.rule(rule), map(self.rule, present)))

    def to_dict(self) -> dict:
        """Every weight, the defaults included, as plain data."""
        return {"functions": {name: self.function(name) for name in FUNCTIONS},
                "rules": {rule.id: self.rule(rule.id) for rule in RULES},
                "worked": self.worked, "total": self.total, "tests": self.tests}


def _share(weight: float, weights) -> Fraction:
    """*weight* as an exact share of the sum of *weights*; nothing when they add up to 0."""
    whole = sum(map(Fraction, weights))
    return Fraction(weight) / whole if whole else Fraction(0)


def apportioned(shares: list[Fraction]) -> list[int]:
    """*shares* of points in whole cents that add up to their sum rounded to cents: each
    share's floor, and a cent more to the largest remainders (largest-remainder rounding),
    so no share moves by a cent or more and the rounded parts add up to the rounded whole."""
    cents = [share * 100 for share in shares]
    floors = [math.floor(cent) for cent in cents]
    left = round(sum(cents)) - sum(floors)
    order = sorted(range(len(cents)), key=lambda index: (floors[index] - cents[index], index))
    for index in order[:left]:
        floors[index] += 1
    return floors


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
    worked = data.get("worked", 1)
    if not _is_weight(worked):
        raise WeightsError(f"{_where(text, name, 'worked')}: worked must be the worked "
                           f"examples' weight, a number of 0 or more, not "
                           f"{quote(repr(worked), 40)}")
    weights = Weights(functions, rules, float(total), float(tests), float(worked))
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
    worked examples (rule None); its points and maximum in whole cents."""

    function: str
    rule: str | None
    hands: int
    right: int
    calls: int
    max_points: float
    visibility: str
    mismatches: tuple[Verdict, ...]
    missing: bool = False
    points: float = 0.0

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
    def passed(self) -> bool:
        """Every hand answered right, with the right type."""
        return self.right == self.hands


def parts(report: Report, grading: Grading = Grading()) -> tuple[Part, ...]:
    """For each function, the worked examples (if any were checked), then each rule
    deciding some of the hands, in table order; the maxima rounded to cents so that each
    function's add up to its share of the total and all add up to the total, and the
    points so that they add up to the score."""
    present = ((None,) if report.count("worked") else ()) + graded_rules(report)
    weights = grading.weights
    found = []
    for function, whole in zip(FUNCTIONS, apportioned(
            [weights.max_points(function, None, (None,)) for function in FUNCTIONS])):
        shares = [_share(weights.rule(rule), map(weights.rule, present)) for rule in present]
        found += [_part(report, function, rule, cents,
                        VISIBLE if rule is None else grading.hidden)
                  for rule, cents in zip(present, apportioned(
                      [whole * share / 100 for share in shares]) if present else ())]
    scores = apportioned([Fraction(part.max_points * part.right, part.hands * 100)
                          for part in found])
    return tuple(replace(part, max_points=part.max_points / 100, points=cents / 100)
                 for part, cents in zip(found, scores))


def graded_rules(report: Report) -> tuple[str, ...]:
    """The rules deciding some hand besides the worked examples, in table order: the
    worked examples are graded once, in their own part, worth only their own share."""
    present = {case.rule for case in report.cases if case.kind != "worked"}
    return tuple(rule for rule in report.rules if rule in present)


def _part(report: Report, function: str, rule: str | None, max_points: int,
          visibility: str) -> Part:
    """The part of *function* on the worked examples (rule None) or the hands of *rule*."""
    def belongs(case: Case) -> bool:
        return case.kind == "worked" if rule is None else (
            case.rule == rule and case.kind != "worked")

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
              found.own.problem or "; ".join(
                  [f"{result.name}: {result.message}" for result in found.own.failing()]
                  + [f"{result.name}: fails on the reference" for result
                     in found.false_tests])),
             ("every function has a test", not found.untested,
              f"no test calls {' or '.join(found.untested)}" if found.untested else "")]
    facts += [(f"your tests catch {catch.variant.id}", catch.caught,
               f"caught by {catch.by}" if catch.caught else
               f"{catch.variant.sentence} A hand it changes: {catch.hand!r}")
              for catch in found.catches]
    shares = apportioned([Fraction(weights.tests) / len(facts)] * len(facts))
    return tuple(TestsPart(name, passed, cents / 100, message or ("yes" if passed else "no"))
                 for (name, passed, message), cents in zip(facts, shares))


def total_points(found: tuple[Part, ...]) -> tuple[float, float]:
    """(points scored, points possible) over all parts, before rounding."""
    return sum(part.points for part in found), sum(part.max_points for part in found)


def rounded(points: float) -> float:
    """Points as every format gives them: to two decimals."""
    return round(points, 2)
