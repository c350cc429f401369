"""Checking a student's module: the hands, the channel, the verdicts and the report."""

import json
from dataclasses import replace

import pytest

from bidder import distributionPoints, highCardPoints, openingBid
from bidder.cards import parse_hand
from bidder.checker.report import (CHECKED, MISSING, NOT_CHECKED, PARTLY, RAISED, RIGHT,
                                   SPELLING, WRONG, WRONG_TYPE, Crash, Verdict)
from bidder.checker.check import (FUNCTIONS, WORKED_EXAMPLES, Answer, Case,
                                  Report, build_cases, build_report, combined, judge,
                                  random_hands, read_channel, threshold_seed)
from bidder.checker.channel import Corrupted, read_event, runner_failure
from bidder.checker.endings import ending
from bidder.dealing import threshold_hands, threshold_labels
from bidder.facts import Facts
from bidder.misreadings import distinguishable
from bidder.rules import RULES
from bidder.checker.sandbox import Isolation, Outcome

@pytest.fixture(scope="module")
def few_cases():
    return build_cases(hands=20, seed=3)


# the hands ---------------------------------------------------------------------

def test_build_cases_starts_with_the_worked_examples_then_thresholds_then_random():
    cases = build_cases(hands=50, seed=5)
    assert [case.hand for case in cases[:len(WORKED_EXAMPLES)]] == list(WORKED_EXAMPLES)
    kinds = [case.kind for case in cases]
    assert kinds == sorted(kinds, key=["worked", "threshold", "misreading", "random"].index)
    assert kinds.count("random") <= 50 and kinds.count("misreading") <= len(distinguishable())
    assert len({case.hand for case in cases}) == len(cases)


SOME_SEED = 2026


def test_each_seed_deals_threshold_hands_of_its_own_and_the_worked_examples_stay():
    def hands(seed, kind):
        return [case.hand for case in build_cases(hands=50, seed=seed) if case.kind == kind]
    assert hands(5, "threshold") == list(dict.fromkeys(
        hand for _, hand in threshold_hands(threshold_seed(5))))
    assert hands(5, "threshold") != hands(6, "threshold")
    assert not set(hands(5, "threshold")) & set(hands(6, "threshold"))
    assert hands(5, "worked") == hands(6, "worked") == list(WORKED_EXAMPLES)
    assert threshold_seed(5) == threshold_seed(5) < 1 << 48


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
    assert [label for label, hand in threshold_hands(SOME_SEED)] == list(
        threshold_labels())
    assert len(threshold_labels()) == sum(len(condition.edges()) for rule in RULES
                                          for condition in rule.conditions)


def test_a_short_search_gives_the_thresholds_it_found_in_table_order():
    found = threshold_hands(SOME_SEED, search=20)
    labels = [label for label, hand in found]
    assert 0 < len(found) < len(threshold_labels())
    assert labels == [label for label in threshold_labels() if label in labels]


def test_threshold_hands_sit_where_their_labels_say():
    labelled = dict(threshold_hands(SOME_SEED))
    for rule in RULES:
        for condition in rule.conditions:
            for value in condition.edges():
                hands = [hand for label, hand in labelled.items()
                         if label.startswith(f"{rule.id} '{condition.text}'")]
                tallies = [Facts(parse_hand(hand)).tally for hand in hands]
                assert value in [condition.measured(tally) for tally in tallies]
                for tally in tallies:
                    assert all(other.holds(tally) for other in rule.conditions
                               if other is not condition)


@pytest.mark.parametrize("rule_id, condition_index, edges", [
    ("R1", 0, {True, False}), ("R1", 1, {15, 16, 18, 19}), ("R2", 1, {4, 5}),
    ("R6", 0, {21, 22}), ("R7", 1, {6, 7, 8}),
])
def test_edges_are_both_sides_of_each_threshold(rule_id, condition_index, edges):
    rule = next(rule for rule in RULES if rule.id == rule_id)
    assert rule.conditions[condition_index].edges() == edges


# the channel: every line checked ------------------------------------------------------

def line(**event) -> bytes:
    return json.dumps(event).encode()


INT = {"kind": "int", "int": 12}
ERROR = {"type": "KeyError", "message": "'5C'", "line": 4, "where": "openingBid"}


def call(function="highCardPoints", case=0, value=INT, error=None, printed="") -> dict:
    return {"event": "call", "function": function, "case": case, "value": value,
            "error": error, "printed": printed}


@pytest.mark.parametrize("raw", [
    line(event="imported", printed=""),
    line(event="import_error", error=ERROR, printed="x"),
    line(event="missing", function="openingBid", found="no such name"),
    line(**call()),
    line(**call(value={"kind": "str", "str": "1C"})),
    line(**call(value={"kind": "none"})),
    line(**call(value={"kind": "other", "type": "float", "repr": "12.0"})),
    line(**call(value=None, error=dict(ERROR, line=None, where=None))),
    line(event="done"),
], ids=["imported", "import-error", "missing", "int", "str", "none", "other", "raised",
        "done"])
def test_read_event_accepts_what_the_runner_writes(raw):
    assert read_event(raw) == json.loads(raw)


@pytest.mark.parametrize("raw, reason", [
    (b"\xff\xfe", "not JSON text"),
    (b"{\"event\":", "not JSON text"),
    (b"[1, 2]", "not an event the checker knows"),
    (line(event="agreed"), "not an event the checker knows"),
    (line(event="done", extra=1), "a 'done' event has the wrong fields"),
    (line(**dict(call(), agreed=True)), "a 'call' event has the wrong fields"),
    (line(**call(case=True)), "'case' has the wrong type"),
    (line(**call(case=10 ** 12)), "'case' is out of range"),
    (line(**call(printed="x" * 201)), "'printed' is too long"),
    (line(**call(value={"kind": "int", "int": 1.5})), "'int' has the wrong type"),
    (line(**call(value={"kind": "int", "int": True})), "'int' has the wrong type"),
    (line(**call(value={"kind": "float", "float": 1.5})), "a value of no known kind"),
    (line(**call(value={"kind": "str", "str": "1C", "equal": True})), "wrong fields"),
    (line(**call(value=None)), "both or neither of a value and an error"),
    (line(**call(error=ERROR)), "both or neither of a value and an error"),
    (line(**call(value=None, error={"type": "E"})), "an error has the wrong fields"),
], ids=["bytes", "half-a-line", "a-list", "unknown-event", "extra-field", "agreed-field",
        "bool-case", "huge-case", "long-text", "float-int", "bool-int", "unknown-kind",
        "value-extra", "neither", "both", "short-error"])
def test_read_event_refuses_anything_else(raw, reason):
    with pytest.raises(Corrupted, match=reason):
        read_event(raw)


CASES = (Case("h1", "worked", "worked example 1", "R3", (12, 1, "1C")),
         Case("h2", "random", "random hand 1 (seed 1)", "R9", (5, 0, None)))
SEALED = Isolation("bubblewrap", ("no network", "wall 2 s"))
FALLBACK_ISOLATION = Isolation("fallback", ("own session",))


def outcome(*lines: bytes, status=0, dropped=0, output=b"", output_dropped=0) -> Outcome:
    channel = b"".join(raw + b"\n" for raw in lines)
    return Outcome(status, channel, dropped, output, output_dropped, SEALED, 0.1)


def every_call(value=INT) -> list[bytes]:
    return [line(**call(function, case, value)) for function in FUNCTIONS for case in (0, 1)]


IMPORTED = line(event="imported", printed="")
DONE = line(event="done")


@pytest.mark.parametrize("lines, problem", [
    ([IMPORTED, *every_call(), DONE], ""),
    ([line(event="missing", function="openingBid", found="x")], "the first line is not"),
    ([IMPORTED, *every_call(), DONE, DONE], "a line after the last"),
    ([line(event="import_error", error=ERROR, printed=""), DONE], "a line after the last"),
    ([IMPORTED, IMPORTED], "a second import"),
    ([IMPORTED, line(event="missing", function="print", found="x")], "out of order"),
    ([IMPORTED, line(event="missing", function="openingBid", found="x"),
      line(event="missing", function="highCardPoints", found="x")], "out of order"),
    ([IMPORTED, *every_call()[:1], line(event="missing", function="openingBid", found="x")],
     "a missing function out of order"),
    ([IMPORTED, *every_call()[1:]], "a call out of order"),
    ([IMPORTED, *every_call(), line(**call())], "a call out of order"),
    ([IMPORTED, *every_call()[:5], DONE], "the end before every call"),
], ids=["in-order", "no-import-first", "after-done", "after-import-error", "two-imports",
        "unknown-missing", "missing-backwards", "missing-after-calls", "skips-a-call",
        "one-call-too-many", "done-early"])
def test_read_channel_follows_the_runners_order(lines, problem):
    events, found = read_channel(outcome(*lines), CASES)
    assert problem in found if problem else found == ""
    assert len(events) < len(lines) if problem else len(events) == len(lines)


def test_read_channel_ignores_a_line_cut_short_and_counts_a_flood():
    events, problem = read_channel(
        Outcome(0, IMPORTED + b"\n" + b'{"event": "ca', 5_000, b"", 0, SEALED, 0.1), CASES)
    assert [event["event"] for event in events] == ["imported"]
    assert problem == "5,000 bytes more than any answers need"


# verdicts: exact types ---------------------------------------------------------------

def answer(kind, value=None, type_name="", text="") -> Answer:
    names = {"int": "int", "str": "str", "none": "NoneType"}
    return Answer(kind, value, type_name or names.get(kind, ""), text)


@pytest.mark.parametrize("function, given, expected, cause, hint", [
    ("highCardPoints", answer("int", 12), 12, RIGHT, ""),
    ("highCardPoints", answer("int", 11), 12, WRONG, "the count is 12"),
    ("highCardPoints", answer("other", type_name="float", text="12.0"), 12, WRONG_TYPE,
     "return an int"),
    ("highCardPoints", answer("other", type_name="bool", text="True"), 1, WRONG_TYPE,
     "return an int"),
    ("highCardPoints", answer("other", type_name="Number", text="12"), 12, WRONG_TYPE,
     "return an int"),
    ("distributionPoints", answer("str", "1"), 1, WRONG_TYPE, "return an int, not a string"),
    ("distributionPoints", answer("none"), 0, WRONG_TYPE,
     "return the count as an int (is a return statement missing?)"),
    ("openingBid", answer("str", "1C"), "1C", RIGHT, ""),
    ("openingBid", answer("none"), None, RIGHT, ""),
    ("openingBid", answer("str", "1D"), "1C", WRONG, "the rules open 1C"),
    ("openingBid", answer("str", "one club"), "1C", WRONG, "the rules open 1C"),
    ("openingBid", answer("str", "1C"), None, WRONG, "the rules open nothing"),
    ("openingBid", answer("none"), "2NT", WRONG, "the rules open 2NT"),
    ("openingBid", answer("str", "None"), None, WRONG_TYPE,
     "for no bid return the value None, not a string"),
    ("openingBid", answer("str", " Pass "), None, WRONG_TYPE,
     "for no bid return the value None, not a string"),
    ("openingBid", answer("str", ""), None, WRONG_TYPE,
     "for no bid return the value None, not a string"),
    ("openingBid", answer("str", "None"), "1S", WRONG,
     "the rules open 1S (and no bid is the value None, not a string)"),
    ("openingBid", answer("str", "1c"), "1C", SPELLING, "write the bid as '1C'"),
    ("openingBid", answer("str", "1 ♠\ufe0f"), "1S", SPELLING, "write the bid as '1S'"),
    ("openingBid", answer("str", "2N"), "2NT", SPELLING, "write the bid as '2NT'"),
    ("openingBid", answer("str", "1 no trump"), "1NT", SPELLING, "write the bid as '1NT'"),
    ("openingBid", answer("other", type_name="Text", text="'1C'"), "1C", WRONG_TYPE,
     "return a str such as '1C', or the value None for no bid"),
    ("openingBid", answer("int", 1), "1C", WRONG_TYPE,
     "return a str such as '1C', or the value None for no bid"),
    ("openingBid", answer("raised", type_name="KeyError", text="'5C'"), "1C", RAISED, ""),
], ids=["right-int", "wrong-int", "float", "bool", "int-subclass", "str-for-int",
        "none-for-int", "right-bid", "right-none", "wrong-bid", "not-a-bid", "bid-for-none",
        "none-for-bid", "string-None", "string-Pass", "empty-string", "string-None-for-bid",
        "lower-case", "symbol", "2N", "no-trump", "str-subclass", "int-for-bid", "raised"])
def test_judge_compares_with_exact_types_and_names_the_cause(function, given, expected,
                                                             cause, hint):
    verdict = judge(function, 3, given, expected)
    assert (verdict.cause, verdict.hint, verdict.case) == (cause, hint, 3)
    assert verdict.right is (cause == RIGHT)


@pytest.mark.parametrize("given, shown", [
    (answer("int", 12), "12 (int)"),
    (answer("str", "None"), "'None' (str)"),
    (answer("str", "\x1b[2J"), "'\\x1b[2J' (str)"),
    (answer("none"), "None"),
    (answer("other", type_name="float", text="12.0"), "12.0 (float)"),
    (answer("other", type_name="A\x1b[2J", text="<\x1b[31m>"), "<U+001B[31m> (AU+001B[2J)"),
    (Answer("raised", None, "ValueError", "bad\x07", 3, "openingBid"),
     "raised ValueError: badU+0007 (s.py, line 3, in openingBid)"),
    (Answer("raised", None, "SystemExit", ""), "raised SystemExit"),
], ids=["int", "string-none", "escape-in-str", "none", "other", "escapes-in-other",
        "raised", "raised-no-message"])
def test_answers_are_shown_escaped(given, shown):
    assert given.shown("s.py") == shown


def test_an_answer_comes_from_a_checked_event():
    assert Answer.from_event(call(printed="hi")) == Answer("int", 12, "int", printed="hi")
    assert Answer.from_event(call(value={"kind": "none"})) == Answer("none", None, "NoneType")
    assert Answer.from_event(call(value={"kind": "other", "type": "A", "repr": "a"})) == (
        Answer("other", None, "A", "a"))
    assert Answer.from_event(call(value=None, error=ERROR)) == (
        Answer("raised", None, "KeyError", "'5C'", 4, "openingBid"))


# the report ---------------------------------------------------------------------------

def verdict(function, case, cause=RIGHT, given=None) -> Verdict:
    return Verdict(function, case, given or answer("int", 1), cause)


def test_report_counts_per_function_and_rule():
    verdicts = (verdict("highCardPoints", 0), verdict("highCardPoints", 1, WRONG),
                verdict("distributionPoints", 0), verdict("distributionPoints", 1),
                verdict("openingBid", 0))
    report = Report("sol.py", CASES, verdicts)
    assert report.agreement("highCardPoints") == (1, 2)
    assert report.agreement("highCardPoints", "R9") == (0, 1)
    assert report.agreement("openingBid", "R9") == (0, 0)
    assert [report.status(name) for name in FUNCTIONS] == [CHECKED, CHECKED, PARTLY]
    assert (report.hands(), report.hands("R3")) == (2, 1)
    assert report.rules == ("R3", "R9")
    assert report.mismatches == (verdicts[1],)
    assert (report.count("worked"), report.count("threshold")) == (1, 0)
    assert not report.passed


def test_a_function_never_called_is_not_checked_and_a_missing_one_is_missing():
    report = Report("sol.py", CASES, (verdict("highCardPoints", 0),),
                    missing=("openingBid",))
    assert [report.status(name) for name in FUNCTIONS] == [PARTLY, NOT_CHECKED, MISSING]


@pytest.mark.parametrize("verdicts, problems, passed", [
    (tuple(verdict(name, case) for name in FUNCTIONS for case in (0, 1)), (), True),
    (tuple(verdict(name, case) for name in FUNCTIONS[:2] for case in (0, 1)), (), False),
    (tuple(verdict(name, case) for name in FUNCTIONS for case in (0, 1)), ("x",), False),
], ids=["all-right", "calls-missing", "a-problem"])
def test_report_passes_only_when_every_call_is_right(verdicts, problems, passed):
    assert Report("sol.py", CASES, verdicts, problems).passed is passed


def test_groups_lead_with_the_biggest_and_take_the_simplest_example():
    cases = (Case("AS KS QS JS AH KH QH JH AD KD QD JD AC", "random", "r", "R3", (0, 0, "1C")),
             Case("2S 3S", "worked", "w", "R3", (0, 0, "1C")),
             Case("3S", "random", "r", "R3", (0, 0, "1C")),
             Case("4S", "random", "r", "R9", (0, 0, None)))
    verdicts = (verdict("openingBid", 0, WRONG), verdict("openingBid", 1, WRONG),
                verdict("openingBid", 2, WRONG), verdict("openingBid", 3, WRONG_TYPE),
                verdict("highCardPoints", 3, WRONG_TYPE))
    groups = Report("s.py", cases, verdicts).groups()
    assert [(group.function, group.rule, group.cause, len(group.verdicts))
            for group in groups] == [("openingBid", "R3", WRONG, 3),
                                     ("highCardPoints", None, WRONG_TYPE, 1),
                                     ("openingBid", None, WRONG_TYPE, 1)]
    assert groups[0].example is verdicts[1]


def raised(kind, line, where="f", message="x") -> Answer:
    return Answer("raised", None, kind, message, line, where)


def test_exceptions_are_grouped_by_kind_and_line_whatever_the_rule():
    cases = (Case("2S", "random", "r", "R3", (0, 0, "1C")),
             Case("3S", "random", "r", "R9", (0, 0, None)),
             Case("4S", "worked", "w", "R1", (0, 0, "1NT")))
    verdicts = (Verdict("openingBid", 0, raised("ValueError", 4), RAISED),
                Verdict("openingBid", 1, raised("ValueError", 4, message="y"), RAISED),
                Verdict("openingBid", 2, raised("ValueError", 9), RAISED),
                Verdict("highCardPoints", 2, raised("KeyError", None, None), RAISED))
    groups = Report("s.py", cases, verdicts).groups()
    assert [(group.function, group.rule, group.crash, len(group.verdicts))
            for group in groups] == [
        ("openingBid", None, Crash("ValueError", 4, "f"), 2),
        ("highCardPoints", None, Crash("KeyError", None, None), 1),
        ("openingBid", None, Crash("ValueError", 9, "f"), 1)]
    assert Report("s.py", cases, verdicts).crashes() == groups
    assert groups[0].crash.text("s.py") == "ValueError (s.py, line 4, in f)"
    assert groups[1].crash.text() == "KeyError (outside the module's own lines)"
    assert Crash("E\x1b", 2, None).text() == "EU+001B (line 2, in ?)"


def test_a_stub_returning_none_everywhere_is_called_out():
    nothing = answer("none")
    verdicts = (Verdict("highCardPoints", 0, nothing, WRONG_TYPE),
                Verdict("openingBid", 0, nothing, WRONG), Verdict("openingBid", 1, nothing, RIGHT))
    assert Report("s.py", CASES, verdicts).stubs == ("highCardPoints", "openingBid")
    right_nones = (Verdict("openingBid", 1, nothing, RIGHT),)
    assert Report("s.py", CASES, right_nones).stubs == ()


def test_build_report_judges_every_call():
    report = build_report("/x/sol.py", CASES, outcome(IMPORTED, *every_call(), DONE))
    assert report.module == "sol.py" and report.isolation == SEALED
    assert [verdict.cause for verdict in report.verdicts] == [
        RIGHT, WRONG, WRONG, WRONG, WRONG_TYPE, WRONG_TYPE]
    assert report.problems == report.warnings == ()


@pytest.mark.parametrize("lines, status, problem", [
    ([], 1, "the process ended (exit status 1) while importing sol.py"),
    ([], -9, "the process was killed by signal 9, the kill signal (a limit, or the module "
             "itself) while importing sol.py"),
    ([], -200, "the process was killed by signal 200 while importing sol.py"),
    ([], None, "no answer within the time limit (wall 2 s): stopped while importing "
               "sol.py (an endless loop?)"),
    ([], -24, "no answer within the CPU time limit (CPU time): stopped while importing "
              "sol.py (an endless loop?)"),
    ([IMPORTED], 152, "no answer within the CPU time limit (CPU time): stopped while "
                      "computing highCardPoints('h1'); 0 of 6 calls were checked (an "
                      "endless loop?)"),
    ([], 25, "the process ended (exit status 25) while importing sol.py"),
    ([IMPORTED, *every_call()[:3]], 7,
     "the process ended (exit status 7) while computing distributionPoints('h2'); "
     "3 of 6 calls were checked"),
    ([IMPORTED, *every_call()], 0, "the process ended (exit status 0) while finishing"),
    ([IMPORTED, *(line(event="missing", function=name, found="x") for name in FUNCTIONS)],
     0, "the process ended (exit status 0) while finishing"),
    ([IMPORTED, b"junk", DONE], 0,
     "the module wrote on the checker's channel (a line is not JSON text); nothing "
     "after that was trusted"),
], ids=["exit", "signal", "unknown-signal", "timeout-at-import", "cpu-at-import",
        "cpu-in-bubblewrap", "exit-next-to-cpu", "exit-in-a-call",
        "no-done", "all-missing", "corrupted"])
def test_build_report_says_what_stopped_the_answers(lines, status, problem):
    report = build_report("/x/sol.py", CASES, outcome(*lines, status=status))
    assert problem in report.problems
    assert not report.passed


def test_a_run_of_one_function_is_read_and_judged_alone():
    calls = [line(**call("openingBid", case, {"kind": "none"})) for case in (0, 1)]
    report = build_report("/x/sol.py", CASES, outcome(IMPORTED, *calls, DONE),
                          ("openingBid",))
    assert [verdict.cause for verdict in report.verdicts] == [WRONG, RIGHT]
    assert report.problems == ()
    stopped = build_report("/x/sol.py", CASES, outcome(IMPORTED, calls[0], status=None),
                           ("openingBid",))
    assert stopped.problems == ("no answer within the time limit (wall 2 s): stopped while "
                                "computing openingBid('h2'); 1 of 2 calls were checked (an "
                                "endless loop?)",)


def test_runs_of_one_function_each_make_one_report():
    def run(function, *lines, isolation=SEALED, **options):
        found = build_report("/x/sol.py", CASES, outcome(*lines, **options), (function,))
        return replace(found, isolation=isolation)

    calls = {function: [line(**call(function, case)) for case in (0, 1)]
             for function in FUNCTIONS}
    printing = line(event="imported", printed="hi")
    reports = [run("highCardPoints", IMPORTED, status=None),
               run("distributionPoints", printing, *calls["distributionPoints"], DONE),
               run("openingBid", printing, line(event="missing", function="openingBid",
                                                 found="x"), DONE, isolation=FALLBACK_ISOLATION)]
    report = combined(reports)
    assert [verdict.function for verdict in report.verdicts] == ["distributionPoints"] * 2
    assert report.problems == (
        "no answer within the time limit (wall 2 s): stopped while computing "
        "highCardPoints('h1'); 0 of 2 calls were checked (an endless loop?)",
        "sol.py has no function openingBid (x): define it with exactly that name")
    assert len(report.warnings) == 1 and report.missing == ("openingBid",)
    assert report.isolation == FALLBACK_ISOLATION
    assert [report.status(function) for function in FUNCTIONS] == [
        NOT_CHECKED, CHECKED, MISSING]
    assert combined(reports[1:2]).isolation == SEALED


def test_build_report_without_a_wall_limit_in_the_isolation():
    bare = Outcome(None, b"", 0, b"", 0, Isolation("fallback", ()), 1.0)
    assert build_report("s.py", CASES, bare).problems == (
        "no answer within the time limit (time): stopped while importing s.py "
        "(an endless loop?)",)


@pytest.mark.parametrize("status, said", [
    (-24, "no answer within the CPU time limit (CPU 2 s): stopped while importing s.py "
          "(an endless loop?)"),
    (None, "no answer within the time limit (wall 9 s): stopped while importing s.py "
           "(an endless loop?)"),
    (-9, "the process was killed by signal 9, the kill signal (a limit, or the module "
         "itself) while importing s.py"),
], ids=["cpu", "wall", "kill"])
def test_build_report_names_the_limit_a_module_ran_out_of(status, said):
    measured = Isolation("fallback", ("memory 64 MiB", "CPU 2 s", "wall 9 s"))
    found = Outcome(status, b"", 0, b"", 0, measured, 1.0)
    assert build_report("s.py", CASES, found).problems == (said,)


def test_build_report_names_import_errors_and_missing_functions():
    report = build_report("/x/sol.py", CASES, outcome(
        line(event="import_error", printed="hello\n",
             error={"type": "ModuleNotFoundError", "message": "No module named 'bidder'",
                    "line": 1, "where": "<module>"})))
    assert report.problems == (
        "sol.py could not be imported: ModuleNotFoundError: No module named 'bidder' "
        "(sol.py, line 1, in <module>); the reference package is not available to the "
        "code being checked: write the three functions in the module itself",)
    assert report.warnings == ("the module prints to standard output while being "
                               "imported: hello; graded functions should return their "
                               "answer and print nothing",)
    assert not report.imported
    report = build_report("/x/sol.py", CASES, outcome(
        IMPORTED, line(event="missing", function="openingBid", found="a str, not a function"),
        *every_call()[:4], DONE))
    assert report.problems == ("sol.py has no function openingBid (a str, not a "
                               "function): define it with exactly that name",)
    assert report.missing == ("openingBid",) and report.imported


def test_build_report_warns_of_printing_and_of_output_dropped():
    calls = [line(**call(function, case, printed="count" if case else ""))
             for function in FUNCTIONS for case in (0, 1)]
    report = build_report("/x/sol.py", CASES, outcome(
        IMPORTED, *calls, DONE, output=b"\x1b[2Jboo", output_dropped=10_000))
    assert report.warnings == (
        "the module prints to standard output while computing highCardPoints('h2'): "
        "count; graded functions should return their answer and print nothing",
        "the module wrote directly to its output: U+001B[2Jboo (and 10,000 more bytes, "
        "dropped); graded functions should return their answer and print nothing")


# How the process ended, and the runner's own failures ----------------------------------

@pytest.mark.parametrize("status, isolation, said", [
    (-11, FALLBACK_ISOLATION, "was killed by signal 11, a segmentation fault"),
    (139, SEALED, "was killed by signal 11, a segmentation fault"),
    (139, FALLBACK_ISOLATION, "ended (exit status 139)"),
    (128, SEALED, "ended (exit status 128)"),
    (129, SEALED, "was killed by signal 1 (SIGHUP)"),
    (-24, None, "was killed by signal 24, the CPU time limit"),
    (-31, None, "was killed by signal 31, a forbidden system call"),
    (3, SEALED, "ended (exit status 3)"),
    (-64, None, "was killed by signal 64 (SIGRTMAX)"),
], ids=["segv", "bwrap-segv", "fallback-139", "bwrap-128", "bwrap-hup", "xcpu", "sys",
        "exit", "unnamed"])
def test_endings_name_the_signal_in_words(status, isolation, said):
    assert ending(status, isolation) == said


FAILED = b'{"event": "runner_failed", "type": "TypeError"}'


@pytest.mark.parametrize("channel, kept, failure", [
    (IMPORTED + b"\n\n" + FAILED + b"\n", IMPORTED + b"\n", "TypeError"),
    (IMPORTED + b"\n{\"event\": \"ca\n" + FAILED + b"\n", IMPORTED + b"\n", "TypeError"),
    (b"\n" + FAILED + b"\n", b"", "TypeError"),
    (IMPORTED + b"\n" + DONE + b"\n", IMPORTED + b"\n" + DONE + b"\n", ""),
    (IMPORTED + b"\njunk\n", IMPORTED + b"\njunk\n", ""),
    (b"", b"", ""),
], ids=["after-a-line", "cutting-a-line", "first", "none", "junk", "empty"])
def test_runner_failure_is_read_off_the_end_of_the_channel(channel, kept, failure):
    assert runner_failure(channel) == (kept, failure)


def test_the_runners_own_failure_is_named_and_a_forged_one_is_refused():
    failed = outcome(IMPORTED, *every_call()[:2], b"", FAILED, status=70)
    report = build_report("/x/sol.py", CASES, failed)
    assert report.problems == (
        "the checker's runner stopped with TypeError while computing "
        "distributionPoints('h1'); 2 of 6 calls were checked; the calls after that were not "
        "checked (does the module change json, sys, os or io? leave them as they are)",)
    assert not report.warnings
    forged = build_report("/x/sol.py", CASES, outcome(IMPORTED, FAILED, DONE))
    assert forged.problems == ("the module wrote on the checker's channel (the runner's "
                               "failure before its end); nothing after that was trusted",)
