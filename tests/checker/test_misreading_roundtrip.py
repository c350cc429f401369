"""Round trip through the whole space: each misreading written out as a student's module
(bidder.checker.standalone), its answers judged on the default check's hands (among them a
hand each distinguishable misreading opens otherwise), and the
diagnosis asked to name it, telling tied misreadings apart on further hands it asks the
module.

Every distinguishable misreading runs in-process (its source executed, not sandboxed:
running 150 modules through the sandbox would take minutes), asked again in-process for
further hands; a sample runs through the real sandbox, as `bidder check` runs it. Every
equivalent misreading is checked to pass.
"""

import json

import pytest

from bidder.checker.check import (FUNCTIONS, Answer, Report, build_cases, check_module,
                                  further_cases, judge)
from bidder.checker.diagnosis import diagnose
from bidder.checker.formats import render
from bidder.checker.standalone import module_source
from bidder.misreadings import distinguishable, equivalent, space, variant_by_id

CASES = build_cases(1045, 1)
EQUIVALENT = [variant for variant in space() if equivalent(variant)]
DISTINGUISHABLE = distinguishable()


def answer_of(value) -> Answer:
    if value is None:
        return Answer("none", None, "NoneType")
    return Answer("int" if type(value) is int else "str", value, type(value).__name__)


def functions_of(variant) -> dict:
    """The three functions of the module written out for *variant*."""
    names: dict = {}
    exec(compile(module_source(variant), f"{variant.id}.py", "exec"), names)
    return names


def judged(names: dict, cases) -> Report:
    """The module's answers on *cases*, computed in-process and judged."""
    return Report("solution.py", cases, tuple(
        judge(function, number, answer_of(names[function](case.hand)),
              case.expected[FUNCTIONS.index(function)])
        for function in FUNCTIONS for number, case in enumerate(cases)))


def named(found) -> set[str]:
    """The ids the diagnosis names, and those it says answer alike with them."""
    return ({found.variant.id} | {other.id for other in found.alternatives}
            | {variant.id for pair in found.alike for variant in pair})


# A sweep of the whole space, not traced by coverage (tracing makes it about three times
# slower): the diagnosis's every path is covered by its own tests (test_diagnosis.py).
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", DISTINGUISHABLE, ids=[v.id for v in DISTINGUISHABLE])
def test_a_student_module_reading_the_rules_as_any_misreading_is_named(variant):
    names = functions_of(variant)
    report = judged(names, CASES)
    found = diagnose(report, lambda hands: judged(names, further_cases(hands)))
    assert report.mismatches  # the check holds a hand it opens otherwise
    assert found.explained == found.wrong and found.unexplained == 0
    assert variant.id in named(found)
    assert variant not in found.ruled_out


@pytest.mark.no_cover  # a sweep, as above
@pytest.mark.parametrize("variant", EQUIVALENT, ids=[variant.id for variant in EQUIVALENT])
def test_a_module_whose_misreading_changes_no_hand_passes(variant):
    report = judged(functions_of(variant), CASES)
    assert not report.mismatches
    assert diagnose(report) is None


@pytest.mark.parametrize("variant_id", ["hcp.J=0", "swap=R5/R8", "R1.hcp=15-18"])
def test_a_sample_through_the_sandbox_is_named_as_bidder_check_names_it(tmp_path, variant_id):
    path = tmp_path / "solution.py"
    path.write_text(module_source(variant_by_id(variant_id)))
    report = check_module(str(path))
    assert variant_id in named(report.diagnosis)
    assert variant_id in render("json", report)


def test_tied_misreadings_are_told_apart_on_further_hands_the_sandbox_asks(tmp_path):
    path = tmp_path / "solution.py"
    path.write_text(module_source(variant_by_id("R5.hcp=21-24")))
    report = check_module(str(path))
    found = report.diagnosis
    assert [variant.id for variant in found.ruled_out] == ["R5.hcp=21-25"]
    assert found.asked > 0 and found.deciding
    sentence = found.sentence(report)
    assert ("It fit as well as (R5.hcp=21-25) on the checked hands; " in sentence
            and "further hands were asked to tell them apart" in sentence)
    data = json.loads(render("json", report))["misreading"]
    assert data["ruled_out"] == ["R5.hcp=21-25"] and data["further"]["asked"] == found.asked
    assert data["further"]["deciding"][0]["function"] == "openingBid"


def test_misreadings_that_answer_alike_on_every_hand_are_said_to(tmp_path):
    path = tmp_path / "solution.py"
    path.write_text(module_source(variant_by_id("swap=R5/R8")))
    report = check_module(str(path))
    assert "answer alike on every hand (counted exactly)" in report.diagnosis.sentence(report)
    assert ["swap=R4/R6", "swap=R5/R6"] in json.loads(render("json", report))[
        "misreading"]["alike"]


def test_a_module_reading_every_plus_as_more_than_is_named_only_for_what_it_does(tmp_path):
    path = tmp_path / "solution.py"
    path.write_text(module_source(variant_by_id("R2.len=6++R6.points=23++R6.len=6+")))
    report = check_module(str(path))
    data = json.loads(render("json", report))["misreading"]
    assert data["variants"] == ["R2.len=6+"] and data["unconfirmed"][0].startswith("R6.")
    assert data["unexplained"] > 0 and not data["sentence"].startswith("All")
    assert data["further"]["confirming"] > 0
