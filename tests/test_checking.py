"""Checking a student's module: the hands, the child process, and the report."""

import io
import json
import sys
import textwrap

import pytest

from bidder import distributionPoints, highCardPoints, openingBid
from bidder.checking import (FUNCTIONS, THRESHOLD_SEED, WORKED_EXAMPLES, Call, Case, Report, _edges,
                             _measure, build_cases, build_report, call_function,
                             check_module, child_main, describe_error, import_module,
                             random_hands, run_checks, safe_repr, threshold_hands,
                             threshold_labels)
from bidder.facts import Facts
from bidder.cards import parse_hand
from bidder.rules import RULES

REFERENCE_IMPORT = "from bidder import highCardPoints, distributionPoints, openingBid\n"


def with_reference(code: str) -> str:
    """The reference's three functions, then the student's own code."""
    return REFERENCE_IMPORT + textwrap.dedent(code)


STUDENTS = {
    "correct": REFERENCE_IMPORT,
    "string_none": with_reference("""
        from bidder import openingBid as reference
        def openingBid(hand):
            bid = reference(hand)
            return 'None' if bid is None else bid
    """),
    "balanced_13_15": with_reference("""
        from bidder import explain, openingBid as reference
        def openingBid(hand):
            facts = explain(hand).facts
            if facts.balanced and 13 <= facts.hcp <= 15:
                return '1NT'
            return reference(hand)
    """),
    "raises": with_reference("""
        def openingBid(hand):
            return {'5C': None}[hand.split()[1]]
    """),
    "loops": with_reference("""
        def openingBid(hand):
            while True:
                pass
    """),
    "no_opening_bid": "from bidder import highCardPoints, distributionPoints\n",
    "syntax_error": "def openingBid(hand)\n    return None\n",
    "prints": with_reference("""
        print('loading')
        from bidder import highCardPoints as reference
        def highCardPoints(hand):
            print('counting', hand[:2])
            return reference(hand)
    """),
    "junk": with_reference("""
        class Weird:
            def __eq__(self, other):
                raise TypeError('no comparing')
            def __repr__(self):
                raise RuntimeError('no showing')
        def highCardPoints(hand):
            return float(len(hand))
        def distributionPoints(hand):
            return [0]
        def openingBid(hand):
            return Weird()
    """),
    "not_callable": REFERENCE_IMPORT + "openingBid = '1NT'\n",
    "exits_at_import": "import sys\nsys.exit(3)\n",
    "ends_process": with_reference("""
        import os
        def distributionPoints(hand):
            os.write(1, b'bye')
            os._exit(7)
    """),
    "uses_sibling": "from helper import highCardPoints, distributionPoints, openingBid\n",
    "reads_input": with_reference("""
        def openingBid(hand):
            return input('bid? ')
    """),
}


def student(tmp_path, name: str) -> str:
    """Write a student's module into its own folder and return its path."""
    folder = tmp_path / name
    folder.mkdir()
    path = folder / f"{name}.py"
    path.write_text(STUDENTS[name])
    if name == "uses_sibling":
        (folder / "helper.py").write_text(REFERENCE_IMPORT)
    return str(path)


@pytest.fixture(scope="module")
def few_cases():
    return build_cases(hands=20, seed=3)


# the hands ---------------------------------------------------------------------

def test_build_cases_starts_with_the_worked_examples_then_thresholds_then_random():
    cases = build_cases(hands=50, seed=5)
    assert [case.hand for case in cases[:len(WORKED_EXAMPLES)]] == list(WORKED_EXAMPLES)
    kinds = [case.kind for case in cases]
    assert kinds == sorted(kinds, key=["worked", "threshold", "random"].index)
    assert kinds.count("random") <= 50
    assert len({case.hand for case in cases}) == len(cases)


def test_build_cases_carry_the_reference_answers_and_rule(few_cases):
    for case in few_cases:
        assert case.expected == (highCardPoints(case.hand), distributionPoints(case.hand),
                                 openingBid(case.hand))
        assert case.rule in {rule.id for rule in RULES}


def test_worked_example_answers_match_the_spec_table(few_cases):
    bids = [case.expected[2] for case in few_cases[:len(WORKED_EXAMPLES)]]
    assert bids == ["1C", "1C", "1C", "2NT", "1NT", "1H", "1S", "2H", None, None, "4S", None]


def test_random_hands_are_seeded_and_in_the_assignments_notation():
    hands = random_hands(5, seed=9)
    assert hands == random_hands(5, seed=9) != random_hands(5, seed=10)
    assert all(len(hand.split(" ")) == 13 for hand in hands)


def test_every_threshold_side_has_a_hand():
    assert [label for label, hand in threshold_hands()] == list(threshold_labels())
    assert len(threshold_labels()) == sum(len(_edges(condition)) for rule in RULES
                                          for condition in rule.conditions)


def test_a_short_search_gives_the_thresholds_it_found_in_table_order():
    found = threshold_hands(THRESHOLD_SEED, search=20)
    labels = [label for label, hand in found]
    assert 0 < len(found) < len(threshold_labels())
    assert labels == [label for label in threshold_labels() if label in labels]


def test_threshold_hands_sit_where_their_labels_say():
    labelled = dict(threshold_hands())
    for rule in RULES:
        for condition in rule.conditions:
            for value in _edges(condition):
                hands = [hand for label, hand in labelled.items()
                         if label.startswith(f"{rule.id} '{condition.text}'")]
                tallies = [Facts(parse_hand(hand)).tally for hand in hands]
                assert value in [_measure(condition, tally) for tally in tallies]
                for tally in tallies:
                    assert all(other.holds(tally) for other in rule.conditions
                               if other is not condition)


@pytest.mark.parametrize("rule_id, condition_index, edges", [
    ("R1", 0, {True, False}), ("R1", 1, {15, 16, 18, 19}), ("R2", 1, {4, 5}),
    ("R6", 0, {21, 22}), ("R7", 1, {6, 7, 8}),
])
def test_edges_are_both_sides_of_each_threshold(rule_id, condition_index, edges):
    rule = next(rule for rule in RULES if rule.id == rule_id)
    assert _edges(rule.conditions[condition_index]) == edges


# the child: importing and calling ----------------------------------------------

def events_of(path: str, cases) -> list[dict]:
    results = io.StringIO()
    run_checks(path, [case.hand for case in cases],
               {name: [case.expected[index] for case in cases]
                for index, name in enumerate(FUNCTIONS)}, results)
    return [json.loads(line) for line in results.getvalue().splitlines()]


def test_run_checks_reports_every_call_of_a_correct_module(tmp_path, few_cases):
    events = events_of(student(tmp_path, "correct"), few_cases)
    assert events[0] == {"event": "imported"}
    calls = events[1:]
    assert len(calls) == 3 * len(few_cases)
    assert all(call["agreed"] for call in calls)
    assert [call["function"] for call in calls[::len(few_cases)]] == list(FUNCTIONS)


@pytest.mark.parametrize("name, event", [
    ("syntax_error", {"event": "import_error"}),
    ("exits_at_import", {"event": "import_error", "error": "SystemExit: 3 "}),
], ids=["syntax", "exit"])
def test_run_checks_reports_a_module_that_does_not_import(tmp_path, few_cases, name, event):
    events = events_of(student(tmp_path, name), few_cases)
    assert len(events) == 1
    assert events[0]["event"] == event["event"]
    assert event.get("error", f"({name}.py, line 1)")[:-1] in events[0]["error"]


@pytest.mark.parametrize("name, found", [
    ("no_opening_bid", "no such name"), ("not_callable", "a str, not a function"),
])
def test_run_checks_reports_a_missing_function_then_checks_the_others(
        tmp_path, few_cases, name, found):
    events = events_of(student(tmp_path, name), few_cases)
    assert events[1] == {"event": "missing", "function": "openingBid", "found": found}
    assert {event["function"] for event in events[2:]} == {"highCardPoints",
                                                           "distributionPoints"}


def test_run_checks_reports_printing_at_import(tmp_path, few_cases):
    events = events_of(student(tmp_path, "prints"), few_cases)
    assert events[0] == {"event": "printed", "during": "import", "text": "loading\n"}
    assert events[2]["printed"] == f"counting {few_cases[0].hand[:2]}\n"


def test_import_module_reads_any_file_as_python(tmp_path):
    path = tmp_path / "solution.txt"
    path.write_text("answer = 42\n")
    module, printed, error = import_module(str(path))
    assert (module.answer, module.__file__, printed, error) == (42, str(path), "", "")
    del sys.modules["solution"]


def test_a_module_named_bidder_is_checked_not_confused_with_the_reference(tmp_path):
    folder = tmp_path / "named"
    folder.mkdir()
    (folder / "bidder.py").write_text(REFERENCE_IMPORT)
    report = check_module(str(folder / "bidder.py"), hands=5)
    assert report.passed
    assert report.module == "bidder.py"


def test_a_notebook_is_reported_as_not_python(tmp_path):
    path = tmp_path / "solution.ipynb"
    path.write_text('{\n "cells": [],\n "metadata": {"trusted": true},\n "nbformat": 4\n}\n')
    report = check_module(str(path), hands=0)
    assert report.problems == ("solution.ipynb could not be imported: NameError: name "
                               "'true' is not defined (solution.ipynb, line 3, in "
                               "<module>)",)


def test_import_module_names_a_module_that_would_shadow_another(tmp_path):
    folder = tmp_path / "json"
    folder.mkdir()
    (folder / "json.py").write_text(REFERENCE_IMPORT)
    module, printed, error = import_module(str(folder / "json.py"))
    assert (module.__name__, printed, error) == ("student_solution", "", "")
    assert sys.modules["json"] is json
    del sys.modules["student_solution"]


def call(function, want=1):
    return call_function(function, "AS", want, __file__)


def raise_here(hand):
    raise KeyError(hand)


@pytest.mark.parametrize("function, outcome", [
    (lambda hand: 1, {"agreed": True, "value": "1", "type": "int", "printed": ""}),
    (lambda hand: 1.0, {"agreed": True, "value": "1.0", "type": "float", "printed": ""}),
    (lambda hand: "1", {"agreed": False, "value": "'1'", "type": "str", "printed": ""}),
    (lambda hand: print("x") or 1, {"agreed": True, "value": "1", "type": "int",
                                    "printed": "x\n"}),
    (lambda hand: "y" * 100, {"agreed": False, "value": "'" + "y" * 58 + "…",
                              "type": "str", "printed": ""}),
], ids=["equal", "equal-float", "string", "prints", "long"])
def test_call_function_compares_with_equals(function, outcome):
    assert call(function) == outcome


def test_call_function_reports_an_exception_with_its_line():
    outcome = call(raise_here)
    assert outcome == {"agreed": False, "printed": "",
                       "error": f"KeyError: 'AS' (test_checking.py, line "
                                f"{raise_here.__code__.co_firstlineno + 1}, in raise_here)"}


def test_call_function_reports_an_answer_that_cannot_be_compared():
    class Stubborn:
        def __eq__(self, other):
            raise TypeError("no comparing")
    outcome = call(lambda hand: Stubborn())
    assert outcome["agreed"] is False
    assert outcome["type"] == "Stubborn"
    assert outcome["error"].startswith("comparing the answer with == raised TypeError: "
                                       "no comparing")


@pytest.mark.parametrize("value, text", [
    (None, "None"), ("None", "'None'"), (13, "13"), ([1, 2], "[1, 2]"),
])
def test_safe_repr(value, text):
    assert safe_repr(value) == text


def test_safe_repr_survives_a_broken_repr():
    class Broken:
        def __repr__(self):
            raise RuntimeError
    assert safe_repr(Broken()) == "<a Broken whose repr() fails>"


@pytest.mark.parametrize("error, text", [
    (ValueError("bad hand"), "ValueError: bad hand"),
    (SystemExit(), "SystemExit"),
    (KeyError("x"), "KeyError: 'x'"),
])
def test_describe_error_without_a_traceback(error, text):
    assert describe_error(error, __file__) == text


def test_child_main_reads_cases_and_writes_results(tmp_path, monkeypatch, few_cases):
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = student(tmp_path, "uses_sibling")
    cases_path, results_path = tmp_path / "cases.json", tmp_path / "results.jsonl"
    cases_path.write_text(json.dumps({
        "hands": [case.hand for case in few_cases[:2]],
        "expected": {name: [case.expected[index] for case in few_cases[:2]]
                     for index, name in enumerate(FUNCTIONS)}}))
    child_main([path, str(cases_path), str(results_path)])
    events = [json.loads(line) for line in results_path.read_text().splitlines()]
    assert [event.get("agreed") for event in events] == [None] + [True] * 6
    assert sys.dont_write_bytecode is True
    assert not (tmp_path / "uses_sibling" / "__pycache__").exists()
    del sys.modules["uses_sibling"], sys.modules["helper"]


# the parent: a real child process ---------------------------------------------

def check(tmp_path, name, **options) -> Report:
    options.setdefault("hands", 20)
    return check_module(student(tmp_path, name), **options)


def test_a_correct_module_passes(tmp_path):
    report = check(tmp_path, "correct")
    assert report.passed
    assert report.problems == report.warnings == report.mismatches == ()
    assert all(report.agreement(name) == (len(report.cases),) * 2 for name in FUNCTIONS)


def test_a_module_importing_its_own_helper_passes(tmp_path):
    assert check(tmp_path, "uses_sibling").passed


def test_the_string_none_fails_every_hand_that_opens_nothing(tmp_path):
    report = check(tmp_path, "string_none")
    no_bid = [case for case in report.cases if case.expected[2] is None]
    assert report.agreement("openingBid", "R9") == (0, len(no_bid))
    assert report.agreement("openingBid", "R3")[0] == report.agreement("openingBid", "R3")[1]
    assert {(call.value, call.type) for call in report.mismatches} == {("'None'", "str")}
    assert not report.passed


def test_balanced_13_to_15_hcp_is_caught(tmp_path):
    report = check(tmp_path, "balanced_13_15", hands=200)
    wrong = [report.cases[call.case] for call in report.mismatches]
    assert wrong and all(case.rule == "R3" for case in wrong)
    assert {call.value for call in report.mismatches} == {"'1NT'"}
    assert any(case.kind == "threshold" for case in wrong)


def test_a_raising_module_is_reported_with_its_line(tmp_path):
    report = check(tmp_path, "raises")
    errors = {call.error for call in report.mismatches}
    assert errors and all(error.startswith("KeyError: ") and
                          error.endswith("(raises.py, line 4, in openingBid)")
                          for error in errors)
    assert report.agreement("highCardPoints") == (len(report.cases),) * 2


def test_an_endless_loop_is_stopped_by_the_time_limit(tmp_path):
    report = check(tmp_path, "loops", hands=0, timeout=1)
    first = report.cases[0].hand
    assert report.problems == (
        f"no answer within 1 s: stopped while computing openingBid({first!r}) "
        f"(an endless loop?); {2 * len(report.cases)} of {3 * len(report.cases)} "
        f"calls were checked",)
    assert report.agreement("distributionPoints") == (len(report.cases),) * 2
    assert not report.passed


def test_a_missing_function_is_named(tmp_path):
    report = check(tmp_path, "no_opening_bid")
    assert report.problems == ("no_opening_bid.py has no function openingBid (no such "
                               "name): define it with exactly that name",)
    assert report.agreement("openingBid") == (0, len(report.cases))
    assert not report.passed


def test_a_module_that_does_not_import_is_named(tmp_path):
    report = check(tmp_path, "syntax_error")
    assert len(report.problems) == 1
    assert report.problems[0].startswith("syntax_error.py could not be imported: "
                                         "SyntaxError: expected ':'")
    assert report.calls == ()


def test_printing_is_a_warning_not_a_failure(tmp_path):
    report = check(tmp_path, "prints")
    assert report.passed
    assert report.warnings[0].startswith(
        "the module prints to standard output while being imported: 'loading'")
    assert report.warnings[1].startswith(
        "the module prints to standard output while computing highCardPoints(")


def test_junk_answers_are_mismatches_with_their_types(tmp_path):
    report = check(tmp_path, "junk")
    kinds = {(call.function, call.type, call.value) for call in report.mismatches}
    assert ("distributionPoints", "list", "[0]") in kinds
    assert ("openingBid", "Weird", "<a Weird whose repr() fails>") in kinds
    assert report.agreement("highCardPoints")[0] < len(report.cases)


def test_a_module_ending_the_process_is_reported(tmp_path):
    report = check(tmp_path, "ends_process", hands=0)
    first = report.cases[0].hand
    assert report.problems == (
        f"the process ended (exit status 7) while computing distributionPoints({first!r})"
        f"; {len(report.cases)} of {3 * len(report.cases)} calls were checked",)
    assert report.warnings[-1] == (
        "the module prints to standard output directly to the terminal: 'bye'; graded "
        "functions should return their answer and print nothing")


def test_reading_input_gets_end_of_file_not_a_hang(tmp_path):
    report = check(tmp_path, "reads_input", hands=0)
    assert {call.error for call in report.mismatches} == {
        "EOFError: EOF when reading a line (reads_input.py, line 4, in openingBid)"}


# the report --------------------------------------------------------------------

CASES = (Case("h1", "worked", "worked example 1", "R3", (12, 1, "1C")),
         Case("h2", "random", "random hand 1 (seed 1)", "R9", (5, 0, None)))


def test_build_report_when_the_process_ends_before_importing():
    report = build_report("/x/sol.py", CASES, [], 1, "", "Traceback...\nMemoryError\n", 5)
    assert report.problems == ("the process ended (exit status 1) while importing sol.py: "
                               "'MemoryError'",)


def test_build_report_when_importing_takes_too_long():
    report = build_report("/x/sol.py", CASES, [], None, "", "", 2.5)
    assert report.problems == ("no answer within 2.5 s: stopped while importing sol.py "
                               "(an endless loop?)",)


def test_report_counts_per_function_and_rule():
    calls = (Call("highCardPoints", 0, True), Call("highCardPoints", 1, False, "4", "int"),
             Call("distributionPoints", 0, True), Call("distributionPoints", 1, True),
             Call("openingBid", 0, True), Call("openingBid", 1, False, "'None'", "str"))
    report = Report("sol.py", CASES, calls)
    assert report.agreement("highCardPoints") == (1, 2)
    assert report.agreement("highCardPoints", "R9") == (0, 1)
    assert report.agreement("openingBid", "R3") == (1, 1)
    assert report.rules == ("R3", "R9")
    assert report.mismatches == (calls[1], calls[5])
    assert (report.count("worked"), report.count("threshold")) == (1, 0)
    assert not report.passed


@pytest.mark.parametrize("calls, problems, passed", [
    (tuple(Call(name, case, True) for name in FUNCTIONS for case in (0, 1)), (), True),
    (tuple(Call(name, case, True) for name in FUNCTIONS[:2] for case in (0, 1)), (), False),
    (tuple(Call(name, case, True) for name in FUNCTIONS for case in (0, 1)), ("x",), False),
], ids=["all-agree", "calls-missing", "a-problem"])
def test_report_passes_only_when_every_call_agrees(calls, problems, passed):
    assert Report("sol.py", CASES, calls, problems).passed is passed
