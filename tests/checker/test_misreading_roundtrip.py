"""Round trip through the space: each misreading written out as a student's module
(bidder.checker.standalone), its answers judged on the default check's 1,045 hands, and the
diagnosis asked to name it.

The modules run in-process (their source executed, not sandboxed): the sandbox is tested
elsewhere, and running 125 modules through it would take minutes. A seeded sample of the
distinguishable misreadings is round-tripped here (the whole space, run the same way, is
named in docs/misreadings.md); every equivalent one is checked to pass.
"""

import random

import pytest

from bidder.checker.check import FUNCTIONS, Answer, Report, build_cases, judge
from bidder.checker.diagnosis import ALTERNATIVES, diagnose
from bidder.checker.standalone import module_source
from bidder.misreadings import distinguishable, equivalent, space

CASES = build_cases(1045, 1)
SAMPLE = sorted(random.Random(25).sample(range(len(distinguishable())), 20))
EQUIVALENT = [variant for variant in space() if equivalent(variant)]


def answer_of(value) -> Answer:
    if value is None:
        return Answer("none", None, "NoneType")
    return Answer("int" if type(value) is int else "str", value, type(value).__name__)


def module_report(variant) -> Report:
    """The report of the module written out for *variant*, run in-process."""
    names: dict = {}
    exec(compile(module_source(variant), f"{variant.id}.py", "exec"), names)
    return Report("solution.py", CASES, tuple(
        judge(function, number, answer_of(names[function](case.hand)),
              case.expected[FUNCTIONS.index(function)])
        for function in FUNCTIONS for number, case in enumerate(CASES)))


@pytest.mark.parametrize("place", SAMPLE, ids=[distinguishable()[place].id for place in SAMPLE])
def test_a_student_module_reading_the_rules_as_a_misreading_is_named(place):
    variant = distinguishable()[place]
    report = module_report(variant)
    found = diagnose(report)
    if not report.mismatches:  # it changes no hand among these: nothing to see
        assert found is None
        return
    assert found.explained == found.wrong and found.unexplained == 0
    named = [found.variant.id] + [other.id for other in found.alternatives]
    # named, or among more that fit exactly as well than the report names
    assert variant.id in named or len(found.alternatives) == ALTERNATIVES


@pytest.mark.parametrize("variant", EQUIVALENT, ids=[variant.id for variant in EQUIVALENT])
def test_a_module_whose_misreading_changes_no_hand_passes(variant):
    report = module_report(variant)
    assert not report.mismatches
    assert diagnose(report) is None
