"""The check's report in words: the headline, the tables, the groups and the examples."""

import re

import pytest

from bidder.checker.text import call_text, describe_rule, headline, rate, text_report, why
from bidder.checker.check import FUNCTIONS, Answer, Case, Report
from bidder.checker.report import RAISED, RIGHT, WRONG, WRONG_TYPE, Verdict
from bidder.checker.sandbox import Isolation

BALANCED_19 = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"
STRONG_NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
YARBOROUGH = "9S 8S 7S 6S 5S 9H 8H 7H 6H 5H 9D 8D 2C"
CASES = (Case(BALANCED_19, "worked", "worked example 2", "R3", (19, 0, "1C")),
         Case(YARBOROUGH, "random", "random hand 3 (seed 1)", "R9", (0, 2, None)))
INT = Answer("int", 0, "int")
NOTHING = Answer("none", None, "NoneType")


def right(function, case) -> Verdict:
    answer = NOTHING if CASES[case].expected[2] is None and function == "openingBid" else (
        Answer("str", "1C", "str") if function == "openingBid" else
        Answer("int", CASES[case].expected[FUNCTIONS.index(function)], "int"))
    return Verdict(function, case, answer, RIGHT)


ALL_RIGHT = tuple(right(function, case) for function in FUNCTIONS for case in (0, 1))


def report(verdicts=ALL_RIGHT, **fields) -> Report:
    return Report("s.py", CASES, tuple(verdicts), **fields)


def replaced(verdicts, *changes) -> tuple:
    changed = {(verdict.function, verdict.case): verdict for verdict in changes}
    return tuple(changed.get((verdict.function, verdict.case), verdict) for verdict in verdicts)


ONE_WRONG = replaced(ALL_RIGHT, Verdict("openingBid", 0, Answer("str", "1NT", "str"), WRONG,
                                        "the rules open 1C"))


@pytest.mark.parametrize("given, text", [
    (report(), "every answer agrees with the reference, with the right types, on all 2 "
               "hands"),
    (report((), problems=("s.py could not be imported: x",), imported=False),
     "s.py could not be imported: x"),
    (report((), imported=False), "the module could not be run"),
    (report(ALL_RIGHT[:4], problems=("stopped",)), "stopped"),
    (report(replaced(ALL_RIGHT, Verdict("openingBid", 0, NOTHING, WRONG))),
     "openingBid returns None for every hand: it looks like the unfinished stub (a body "
     "of `pass`), not an answer"),
    (report(replaced(ALL_RIGHT, Verdict("openingBid", 0, NOTHING, WRONG),
                     Verdict("highCardPoints", 0, NOTHING, WRONG_TYPE),
                     Verdict("highCardPoints", 1, NOTHING, WRONG_TYPE))),
     "highCardPoints and openingBid return None for every hand"),
    (report(ONE_WRONG), "all wrong answers are openingBid on hands that R3 (1 of a minor) "
                        "decides (wrong answer), for example openingBid('AS 4S KH QH 3H AD "
                        "QD 7D 6D KC JC 8C 5C') returned '1NT' (str); the rules open 1C"),
    (report(replaced(ONE_WRONG, Verdict("highCardPoints", 1, Answer("int", 3, "int"),
                                        WRONG))),
     "1 of the 2 wrong answers are highCardPoints on hands that R9 (no bid) decides"),
], ids=["passed", "not-imported", "not-imported-silently", "only-problems", "stub",
        "stubs", "all-one-group", "some"])
def test_headline(given, text):
    assert headline(given).startswith(text)


def crashed(function, case, kind, line, where="f", message="x") -> Verdict:
    return Verdict(function, case, Answer("raised", None, kind, message, line, where), RAISED)


CRASHES = replaced(ALL_RIGHT, crashed("openingBid", 0, "ValueError", 7),
                   crashed("openingBid", 1, "ValueError", 7, message="y"),
                   crashed("highCardPoints", 1, "ZeroDivisionError", None, None))


def test_headline_names_the_biggest_exception_by_kind_and_line():
    assert headline(report(CRASHES)).startswith(
        "2 of the 3 wrong answers are openingBid raising ValueError (s.py, line 7, in f), "
        f"for example openingBid({BALANCED_19!r}) raised ValueError: x (s.py, line 7, in f)")


def test_text_report_lists_every_exception_by_kind_and_line():
    text = text_report(report(CRASHES), shown=1)
    assert ("Exceptions, by kind and line\n"
            "  openingBid raised ValueError (s.py, line 7, in f) on 2 hands\n"
            "  highCardPoints raised ZeroDivisionError (outside the module's own lines) on 1 "
            "hand\n") in text
    assert ("  1. openingBid on 2 hands of all kinds: raised ValueError (s.py, line 7, in "
            "f)\n") in text


def test_call_text_for_an_exception():
    raised = Verdict("highCardPoints", 1, Answer("raised", None, "KeyError", "'9S'", 3, "f"),
                     RAISED)
    assert call_text(raised, report()) == (
        f"highCardPoints({YARBOROUGH!r}) raised KeyError: '9S' (s.py, line 3, in f)")


@pytest.mark.parametrize("rule, text", [
    ("R3", "that R3 (1 of a minor) decides"), (None, "of all kinds")])
def test_describe_rule(rule, text):
    assert describe_rule(rule) == text


@pytest.mark.parametrize("right_, called, text", [(3, 4, "75.0%"), (0, 0, "-")])
def test_rate(right_, called, text):
    assert rate(right_, called) == text


def test_text_report_of_a_passing_module():
    text = text_report(report(isolation=Isolation("bubblewrap", ("no network",))))
    assert text.startswith("Checking s.py: 2 hands (1 worked example, 0 on the thresholds, "
                           "0 that misreadings open otherwise, 1 random), answers compared "
                           "with exact types\n"
                           "Isolation: bubblewrap: no network\n")
    assert re.search(r"\nhighCardPoints +2/2 +100.0%\n", text)
    assert text.endswith("Result: every answer agrees with the reference\n")


def test_text_report_shows_the_biggest_groups_in_full():
    verdicts = replaced(ONE_WRONG, Verdict("distributionPoints", 1,
                                           Answer("other", None, "float", "2.0"), WRONG_TYPE,
                                           "return an int"))
    text = text_report(report(verdicts), shown=1)
    assert "Wrong answers, the biggest group first (2 groups, 2 answers)\n" in text
    assert ("  1. distributionPoints on 1 hand of all kinds: wrong type\n"
            f"     distributionPoints({YARBOROUGH!r})   [random hand 3 (seed 1)]\n"
            "     expected: 2 (int)\n"
            "     actual:   2.0 (float); return an int\n"
            "     why: 2 distribution points: spades 5 cards: 1; hearts 5 cards: 1 (1 per "
            "card beyond\n          4)\n") in text
    assert "  ... and 1 more group\n" in text


def test_text_report_marks_functions_never_called():
    text = text_report(report(ALL_RIGHT[:2], problems=("stopped",), missing=("openingBid",)))
    assert re.search(r"\ndistributionPoints +not checked\n", text)
    assert re.search(r"\nopeningBid +missing\n", text)
    assert "Problems\n  stopped\n" in text


@pytest.mark.parametrize("function, hand, start", [
    ("highCardPoints", BALANCED_19, "19 HCP: AS 4, KH 3, QH 2, AD 4, QD 2, KC 3, JC 1 "
                                    "(A 4, K 3, Q 2, J 1)"),
    ("highCardPoints", YARBOROUGH, "0 HCP: none"),
    ("distributionPoints", BALANCED_19, "0 distribution points: no suit longer than 4"),
    ("openingBid", BALANCED_19, "Open 1C: 19 points (13-21 needed)"),
])
def test_why_explains_the_right_answer(function, hand, start):
    assert why(function, hand)[0].startswith(start)


def test_why_adds_the_notes_for_a_bid():
    assert why("openingBid", BALANCED_19)[1].startswith("R4 also applies")


def test_the_strong_hand_that_opens_nothing_is_explained():
    assert why("openingBid", STRONG_NO_BID)[0].startswith("No bid: an unbalanced hand (4-4-4-1)")


def test_text_report_ends_with_the_students_tests():
    from dataclasses import replace

    from bidder.checker import student_tests

    run = student_tests.Run((student_tests.TestResult("test_bid", "passed"),),
                            called=FUNCTIONS, lines_run=1, lines=2)
    tests = student_tests.TestsReport("test_s.py", run, run, ())
    text = text_report(replace(report(), tests=tests))
    assert ("\nYour tests (test_s.py): 1 of 1 pass on your module; they run 50% of its "
            "lines\n  Your tests catch 0 of 0 misreadings\n\nResult:") in text
