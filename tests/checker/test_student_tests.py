"""Grading a student's own tests: run sealed on their module, the reference and mutants."""

from pathlib import Path

import pytest

from bidder.checker.sandbox import FALLBACK, Isolation, Limits, Outcome
from bidder.checker import student_tests
from bidder.checker.student_tests import (Catch, Run, grade_tests, mutants, read_run,
                                          describe_tests)
from bidder.variants import CATALOGUE, VARIANT_BY_ID

HERE = Path(__file__).parent
SOLUTION = (HERE / "students" / "correct.py").read_text()


# Generous time, so a loaded machine never fails a test (only the loop test needs a limit).
ROOMY = Limits(timeout=120)
LOOPING = "def test_forever():\n    while True:\n        pass\n"


def folder_with(tmp_path, tests: str, source: str = SOLUTION) -> tuple[str, str]:
    """A student's folder: solution.py and a test file; their paths."""
    (tmp_path / "solution.py").write_text(source)
    (tmp_path / "test_solution.py").write_text(tests)
    return str(tmp_path / "solution.py"), str(tmp_path / "test_solution.py")


def copied(tmp_path, name: str) -> tuple[str, str]:
    return folder_with(tmp_path, (HERE / "student_tests" / name).read_text())


def test_a_thorough_test_file_catches_every_misreading(tmp_path):
    report = grade_tests(*copied(tmp_path, "thorough_tests.py"), ROOMY, isolation=FALLBACK)
    assert [result.outcome for result in report.own.results] == ["passed"] * 4
    assert report.false_tests == () and report.untested == ()
    assert len(report.caught) == len(report.catches) == len(CATALOGUE) - 1
    assert report.missed == ()
    assert 0.5 < report.coverage <= 1
    assert describe_tests(report)[-1] == f"  Your tests catch {len(CATALOGUE) - 1} of " \
                                      f"{len(CATALOGUE) - 1} misreadings"


def test_a_weak_test_file_misses_most_and_says_which(tmp_path):
    report = grade_tests(*copied(tmp_path, "weak_tests.py"), ROOMY, isolation=FALLBACK)
    assert report.untested == ("distributionPoints",)
    assert len(report.caught) < 3
    missed = {catch.variant.id for catch in report.missed}
    assert {"equal-minors-diamonds", "none-as-string", "r3-unbalanced-only"} <= missed
    text = "\n".join(describe_tests(report))
    assert "no test calls distributionPoints: the assignment asks for at least one test" in text
    assert "misreadings; they miss:\n" in text
    assert "\n    equal-minors-diamonds (R3 with equal minors bids 1D.) on a hand such as '" \
           in text


def test_a_test_asserting_something_false_is_named_with_its_hand(tmp_path):
    tests = ("from solution import openingBid\n"
             "def test_balanced_19():\n"
             "    assert openingBid('AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C') == '1D'\n")
    report = grade_tests(*folder_with(tmp_path, tests), ROOMY, isolation=FALLBACK)
    false = report.false_tests
    assert [(result.name, result.hand) for result in false] == [
        ("test_balanced_19", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C")]
    assert "test_balanced_19 fails on the reference (on 'AS 4S KH QH 3H AD QD 7D 6D KC JC " \
           "8C 5C'): it asserts something the rules deny" in "\n".join(describe_tests(report))


def test_tests_that_cannot_be_imported_are_reported(tmp_path):
    report = grade_tests(*folder_with(tmp_path, "import pytest_not_here\n"), ROOMY,
                         isolation=FALLBACK)
    assert report.own.problem == ("test_solution.py could not be imported: "
                                  "ModuleNotFoundError: No module named 'pytest_not_here'")
    assert report.own.results == () and report.caught == ()


def test_tests_that_loop_are_stopped(tmp_path):
    report = grade_tests(*folder_with(tmp_path, LOOPING), Limits(timeout=1),
                         isolation=FALLBACK)
    assert report.own.problem == ("the tests did not finish: no answer within the time "
                                  "limit")


@pytest.mark.parametrize("tests, runs", [
    (LOOPING, 2),
    ("import pytest_not_here\n", 2),
    ("from solution import openingBid\n\ndef test_false():\n"
     "    assert openingBid('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C') == '1D'\n", 2),
    ("from solution import openingBid\n\ndef test_true():\n"
     "    assert openingBid('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C') == '1C'\n", None),
], ids=["tests that loop", "tests that cannot be imported", "a test false of the reference",
        "a test true of the reference: every mutant is run"])
def test_mutants_are_run_only_when_some_test_holds_on_the_reference(tmp_path, monkeypatch,
                                                                    tests, runs):
    made, real = [], student_tests.run_tests

    def counted(*arguments, **keywords):
        made.append(arguments)
        return real(*arguments, **keywords)

    monkeypatch.setattr(student_tests, "run_tests", counted)
    limits = Limits(timeout=1) if tests == LOOPING else ROOMY
    report = grade_tests(*folder_with(tmp_path, tests), limits, isolation=FALLBACK)
    assert len(made) == (2 + len(mutants()) if runs is None else runs)  # own, reference
    assert len(report.catches) == len(mutants())
    assert bool(report.caught) is (runs is None)


def test_every_mutant_changes_some_hand_and_r8_6_8_is_not_one():
    assert {variant.id for variant, _, _ in mutants()} == (
        {variant.id for variant in CATALOGUE} - {"r8-6-8"})


def outcome(*lines: bytes, status=0) -> Outcome:
    return Outcome(status, b"".join(line + b"\n" for line in lines), 0, b"", 0,
                   Isolation(FALLBACK, ()), 0.1)


IMPORTED = b'{"event": "imported", "printed": ""}'
TEST = (b'{"event": "test", "name": "t", "outcome": "passed", "message": "", "hand": null, '
        b'"calls": [["openingBid", "AS"]]}')
TESTED = b'{"event": "tested", "called": ["openingBid"], "run": 3, "lines": 4}'


@pytest.mark.parametrize("lines, problem", [
    ([IMPORTED, TEST, TESTED], ""),
    ([IMPORTED, TEST], "the tests did not finish: the process ended (exit status 0)"),
    ([b'{"event": "test"}'], "the first line has the wrong fields"),
    ([IMPORTED, b'{"event": "test", "name": "t", "outcome": "won", "message": "", '
                b'"hand": null, "calls": []}'], "a test with no known outcome"),
    ([IMPORTED, TESTED, TEST], "a line out of order"),
    ([IMPORTED, b'{"event": "tested", "called": ["print"], "run": 3, "lines": 4}'],
     "a function the checker does not know"),
    ([IMPORTED, b"\xff"], "the tests wrote on the checker's channel"),
    ([IMPORTED, b"[1]"], "a line out of order"),
], ids=["complete", "unfinished", "bad-first", "bad-outcome", "after-the-end",
        "unknown-function", "not-utf8", "not-an-object"])
def test_read_run_checks_every_line(lines, problem):
    run = read_run(outcome(*lines), "t.py")
    assert problem in run.problem if problem else run.problem == ""
    if not problem:
        result = student_tests.TestResult("t", "passed", calls=(("openingBid", "AS"),))
        assert run == Run((result,), "", ("openingBid",), 3, 4)


def test_a_report_with_nothing_run_has_no_coverage():
    report = student_tests.TestsReport("t.py", Run(()), Run(()), (Catch(VARIANT_BY_ID["no-2nt"], False,
                                                          hand="h"),))
    assert report.coverage == 0.0
    assert report.untested == ("highCardPoints", "distributionPoints", "openingBid")


def a_report(**changes):
    """A small report on a student's tests, for the words and the grader formats."""
    fields = dict(tests="t.py", own=Run((student_tests.TestResult("t", "failed", "no", "AS"),),
                                        called=("openingBid",), lines_run=1, lines=2),
                  reference=Run((student_tests.TestResult("t", "passed"),)),
                  catches=(Catch(VARIANT_BY_ID["no-2nt"], True, "t", "h"),
                           Catch(VARIANT_BY_ID["none-as-string"], False, "", "h2")))
    fields.update(changes)
    return student_tests.TestsReport(**fields)


def test_the_words_name_failing_tests_untested_functions_and_missed_misreadings():
    lines = describe_tests(a_report(own=Run((), "the tests did not finish")))
    assert lines[:2] == ["Your tests (t.py): 0 of 0 pass on your module; they run 0% of its "
                         "lines", "  the tests did not finish"]
    lines = describe_tests(a_report())
    assert "  fails on your module: t: no" in lines
    assert lines[-2:] == ["  Your tests catch 1 of 2 misreadings; they miss:",
                          "    none-as-string (No bid is written as the string 'None'.) on "
                          "a hand such as 'h2'"]


# Judged by behaviour, not by text ---------------------------------------------------------

def test_the_reference_and_every_mutant_are_written_alike():
    from bidder.checker.standalone import module_source
    from bidder.variants import ASSIGNMENT

    reference = module_source(ASSIGNMENT).splitlines()
    for variant, source, _ in mutants():
        lines = source.splitlines()
        assert len(lines) == len(reference) and variant.id not in source
        assert lines[0] == reference[0]


def test_a_test_that_tells_mutants_by_their_text_catches_nothing(tmp_path):
    import hashlib

    from bidder.checker.standalone import module_source
    from bidder.variants import ASSIGNMENT

    reference = hashlib.sha256(module_source(ASSIGNMENT).encode()).hexdigest()
    tests = ("import hashlib, inspect\nimport solution\n"
             "def test_text():\n"
             "    text = inspect.getsource(solution).encode()\n"
             f"    if 'rule table' in solution.__doc__ or '':\n"
             f"        assert hashlib.sha256(text).hexdigest() == {reference!r}\n"
             f"    assert solution.highCardPoints({HAND!r}) == 12\n")
    report = grade_tests(*folder_with(tmp_path, tests), ROOMY, isolation=FALLBACK)
    assert report.false_tests == () and report.catches
    assert report.caught == ()  # highCardPoints: no misreading answers it otherwise


def test_no_text_of_a_run_on_the_reference_or_a_mutant_reaches_the_report(tmp_path):
    tests = ("import inspect\nimport solution\n"
             "def test_leak():\n"
             "    text = inspect.getsource(solution)\n"
             "    solution.openingBid(text[:90])\n"
             "    assert 'rule table' not in text, text[:90]\n")
    report = grade_tests(*folder_with(tmp_path, tests), ROOMY, isolation=FALLBACK)
    assert [result.name for result in report.false_tests] == ["test_leak"]
    assert report.false_tests[0].message == "" and report.false_tests[0].hand is None
    words = "\n".join(describe_tests(report))
    assert "rule table" not in words and "import" not in words
    assert report.caught == ()


HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


@pytest.mark.parametrize("variant, function, hand, differs", [
    ("none-as-string", "openingBid", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", False),
    ("none-as-string", "openingBid", "QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", True),
    ("none-as-string", "highCardPoints", "QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", False),
    ("none-as-string", "openingBid", "not a hand", False),
])
def test_differs_says_whether_a_mutant_answers_a_hand_otherwise(variant, function, hand,
                                                                 differs):
    assert student_tests.differs(VARIANT_BY_ID[variant], function, hand) is differs


def test_differs_on_distribution_points():
    hand = "2D JH 9D JC 2H 8D 10C 5S 2C 2S KD 8H 3H"
    assert student_tests.differs(VARIANT_BY_ID["shortness-points"], "distributionPoints", hand)
    assert not student_tests.differs(VARIANT_BY_ID["none-as-string"], "distributionPoints",
                                     hand)


@pytest.mark.parametrize("calls", [
    [["print", "AS"]], [["openingBid"]], [["openingBid", 5]], [["openingBid", "x" * 201]],
    [["openingBid", "AS"]] * 65, ["openingBid"],
])
def test_a_tests_calls_are_checked(calls):
    import json as json_module

    line = json_module.dumps({"event": "test", "name": "t", "outcome": "passed",
                              "message": "", "hand": None, "calls": calls}).encode()
    assert "a test's calls are not the runner's" in read_run(outcome(IMPORTED, line),
                                                               "t.py").problem
