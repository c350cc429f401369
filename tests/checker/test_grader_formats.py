"""Grader formats: weights, parts and points, hidden hands, and each format held to its
published structure (JSON Schemas in tests/schemas, JUnit XML parsed back)."""

import json
import random
import re
import shutil
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from bidder import distributionPoints, explain, highCardPoints, openingBid
from bidder.cards import DECK
from bidder.checker.formats import FORMATS
from bidder.checker.text import text_report
from bidder.checker.check import (FUNCTIONS, WORKED_EXAMPLES, Answer, Case, Report,
                                  check_module)
from bidder.checker.report import RAISED, RIGHT, WRONG, WRONG_TYPE, Verdict
from bidder.checker.formats import (GRADER_FORMATS, gradescope_results, junit_report,
                                    junit_tree, part_output, prairielearn_results, redact, render,
                                    report_data, unicode_text, xml_safe)
from bidder.checker.points import (VISIBILITIES, Grading, Weights, WeightsError,
                                   apportioned, graded_rules, load_weights, parse_weights,
                                   parts)
from bidder.rules import RULE_BY_ID, RULES
from bidder.checker.sandbox import Isolation

SCHEMAS = Path(__file__).parent / "schemas"
STUDENTS = Path(__file__).parent / "students"
ISOLATION = Isolation("bubblewrap", ("no network", "wall 10 s"))
FUNCTION_OF = {"highCardPoints": highCardPoints, "distributionPoints": distributionPoints,
               "openingBid": openingBid}


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())


def validate(data: dict, name: str) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(data)


# Reports built from the dataclasses -----------------------------------------------------

def dealt(count: int, seed: int) -> list[str]:
    """*count* hands in the assignment's notation, dealt for *seed*."""
    rng = random.Random(seed)
    return [" ".join(map(str, rng.sample(DECK, 13))) for _ in range(count)]


def case(hand: str, kind: str) -> Case:
    return Case(hand, kind, f"{kind} hand", explain(hand).rule,
                tuple(FUNCTION_OF[function](hand) for function in FUNCTIONS))


CASES = tuple([case(hand, "worked") for hand in WORKED_EXAMPLES]
              + [case(hand, "threshold") for hand in dealt(10, 1)]
              + [case(hand, "random") for hand in dealt(20, 2)])


def right_answer(value) -> Answer:
    if value is None:
        return Answer("none")
    return Answer(type(value).__name__, value, type(value).__name__)


def answering(answer_for, cases=CASES, **fields) -> Report:
    """A report of the answers *answer_for(function, case)* gives (None: no call made),
    each judged right when it is the reference's answer with its type."""
    verdicts = []
    for function in FUNCTIONS:
        for index, checked in enumerate(cases):
            answer = answer_for(function, checked)
            if answer is not None:
                expected = checked.expected[FUNCTIONS.index(function)]
                cause = RIGHT if answer == right_answer(expected) else (
                    RAISED if answer.kind == "raised" else
                    WRONG_TYPE if answer.kind != right_answer(expected).kind else WRONG)
                verdicts.append(Verdict(function, index, answer, cause,
                                        "" if cause == RIGHT else "a hint"))
    fields.setdefault("isolation", ISOLATION)
    return Report("student.py", tuple(cases), tuple(verdicts), **fields)


def correct(function, checked):
    return right_answer(checked.expected[FUNCTIONS.index(function)])


def pass_as_string(function, checked):
    """Right but for no bid, written 'Pass' (a str)."""
    expected = checked.expected[FUNCTIONS.index(function)]
    return Answer("str", "Pass", "str") if function == "openingBid" and expected is None \
        else right_answer(expected)


def one_more_hcp(function, checked):
    expected = checked.expected[FUNCTIONS.index(function)]
    return Answer("int", expected + 1, "int") if function == "highCardPoints" \
        else right_answer(expected)


def no_bid_function(function, checked):
    return None if function == "openingBid" else correct(function, checked)


PASSING = answering(correct)
PASS_STRING = answering(pass_as_string)
HCP_OFF = answering(one_more_hcp)
MISSING_BID = answering(no_bid_function, missing=("openingBid",), problems=(
    "student.py has no function openingBid ('nothing'): define it with exactly that name",))
NOT_IMPORTED = answering(lambda function, checked: None, imported=False, problems=(
    "student.py could not be imported: SyntaxError: invalid syntax (student.py, line 1, "
    "in <module>)",))
STOPPED = answering(lambda function, checked: correct(function, checked)
                    if function == "highCardPoints" and checked.kind != "random" else None,
                    problems=("the process ended (exit status 7) while computing "
                              f"distributionPoints({CASES[12].hand!r})",))


def crashes_on_tens(function, checked):
    """Right but for openingBid on hands led by a ten: a ValueError from line 3."""
    if function == "openingBid" and checked.hand.startswith("10"):
        return Answer("raised", None, "ValueError", "ten", 3, "openingBid")
    return correct(function, checked)


CRASHING = answering(crashes_on_tens)
REPORTS = {"passing": PASSING, "pass_as_string": PASS_STRING, "hcp_off": HCP_OFF,
           "missing_bid": MISSING_BID, "not_imported": NOT_IMPORTED, "stopped": STOPPED,
           "crashing": CRASHING}


def rule_name(rule_id: str) -> str:
    return RULE_BY_ID[rule_id].name


def no_bid_hands(cases=CASES) -> int:
    return sum(checked.expected[2] is None for checked in cases)


# Weights ---------------------------------------------------------------------------------

def cents(values) -> int:
    """The sum of amounts given to the cent, exactly."""
    return sum(round(value * 100) for value in values)


def test_default_weights_share_100_points_equally_per_function_rule_and_worked_examples():
    found = parts(PASSING)
    shares = len(graded_rules(PASSING)) + 1
    assert len(found) == 3 * shares
    exact = 100 / 3 / shares
    assert all(abs(part.max_points - exact) < 0.01 for part in found)
    assert cents(part.max_points for part in found) == 100_00


def test_weights_give_a_function_its_share_and_a_rule_its_share_within_it():
    weights = parse_weights('{"functions": {"highCardPoints": 1, "distributionPoints": 1, '
                            '"openingBid": 2}, "rules": {"R3": 2}, "total": 100}')
    found = {(part.function, part.rule): part.max_points
             for part in parts(PASSING, Grading(weights))}
    others = len(graded_rules(PASSING))  # the other rules and the worked examples
    assert found["openingBid", "R3"] == pytest.approx(50 * 2 / (others + 2), abs=0.01)
    assert found["openingBid", "R9"] == pytest.approx(50 / (others + 2), abs=0.01)
    assert found["openingBid", None] == pytest.approx(50 / (others + 2), abs=0.01)
    assert found["highCardPoints", "R9"] == pytest.approx(25 / (others + 2), abs=0.01)
    assert cents(found.values()) == 100_00


def test_the_same_weights_read_from_toml_and_json():
    toml = ("total = 40\n[functions]\nopeningBid = 2\n[rules]\nR6 = 0.5\nR9 = 0\n")
    as_json = ('{"total": 40, "functions": {"openingBid": 2}, '
               '"rules": {"R6": 0.5, "R9": 0}}')
    assert parse_weights(toml) == parse_weights(as_json) == Weights(
        (("openingBid", 2.0),), (("R6", 0.5), ("R9", 0.0)), 40.0)


def test_weights_not_given_weigh_one_and_to_dict_says_so():
    data = parse_weights("[rules]\nR6 = 3\n").to_dict()
    assert data["functions"] == dict.fromkeys(FUNCTIONS, 1)
    assert data["rules"]["R6"] == 3 and data["rules"]["R1"] == 1 and data["total"] == 100


@pytest.mark.parametrize("text, message", [
    ('{"functions": {"openingBid": 2},\n "totl": 100}',
     "w.json, line 2: 'totl' is not a setting; the settings are functions, rules, worked, total, tests"),
    ("[functions]\nhighCardPoints = 1\nopeningBd = 2\n",
     "w.json, line 3: 'openingBd' is not a graded function; the functions are "
     "highCardPoints, distributionPoints, openingBid"),
    ("[rules]\nR10 = 1\n", "w.json, line 2: 'R10' is not a rule; the rules are R1, R2"),
    ("[rules]\nR6 = -1\n", "w.json, line 2: the weight of R6 must be a number of 0 or "
                           "more, not -1"),
    ("[rules]\n\nR6 = true\n", "w.json, line 3: the weight of R6 must be a number of 0 or "
                               "more, not True"),
    ('{"functions": {"openingBid": "2"}}', "w.json, line 1: the weight of openingBid must "
                                           "be a number of 0 or more, not '2'"),
    ('{"rules": {"R6": NaN}}', "w.json, line 1: the weight of R6 must be a number of 0 or "
                               "more, not nan"),
    ("total = 0\n", "w.json, line 1: total must be a number above 0, not 0"),
    ('total = "a lot"\n', "w.json, line 1: total must be a number above 0, not 'a lot'"),
    ("functions = 3\n", "w.json, line 1: functions must be a table of names and weights"),
    ("[functions]\nhighCardPoints = 0\ndistributionPoints = 0\nopeningBid = 0\n",
     "w.json, line 1: the functions' weights add up to 0"),
    ("[rules]\n" + "".join(f"R{number} = 0\n" for number in (1, 2, 3, 5, 6, 7, 8, 9)),
     "w.json, line 1: the rules' weights add up to 0; give at least one rule that decides "
     "hands a weight above 0"),
    ('{"functions": {\n"openingBid": 2,\n}}', "w.json, line 3: not JSON: Expecting "
                                              "property name enclosed in double quotes"),
    ("[functions\n", "w.json: not TOML: "),
    ('{"\\u0074otl": 1}', "w.json: 'totl' is not a setting"),
], ids=["unknown setting names its line", "misspelt function", "unknown rule",
        "negative weight", "true is not a weight", "a string is not a weight",
        "NaN is not a weight", "zero total", "total not a number", "functions not a table",
        "functions weigh nothing", "rules that decide hands weigh nothing",
        "bad JSON names its line", "bad TOML", "key not in text"])
def test_bad_weights_are_refused_naming_the_line_and_key(text, message):
    with pytest.raises(WeightsError) as raised:
        parse_weights(text, "w.json")
    assert raised.value.message.startswith(message)


def test_load_weights_reads_a_file_and_names_it(tmp_path):
    path = tmp_path / "weights.toml"
    path.write_text("[functions]\nopeningBid = 2\n")
    assert load_weights(str(path)).function("openingBid") == 2
    path.write_bytes(b"total = \xff\n")
    with pytest.raises(WeightsError, match="/weights.toml: the file is not UTF-8 text$"):
        load_weights(str(path))


def test_rules_present_that_weigh_nothing_give_no_points_and_no_division_by_zero():
    only_r9 = tuple(checked for checked in CASES if checked.rule == "R9")
    report = answering(correct, only_r9)
    grading = Grading(parse_weights("worked = 0\n[rules]\nR9 = 0\n"))
    assert {part.max_points for part in parts(report, grading)} == {0.0}
    assert prairielearn_results(report, grading)["score"] == 0.0


# Parts -----------------------------------------------------------------------------------

def part_of(report, function, rule, grading=Grading()):
    return next(part for part in parts(report, grading)
                if part.function == function and part.rule == rule)


def test_a_part_per_function_per_rule_and_the_worked_examples_first():
    found = parts(PASSING)
    names = [part.name for part in found if part.function == "openingBid"]
    assert names[0] == "openingBid: the worked examples"
    assert names[1:] == [f"openingBid: hands {rule} ({name}) decides" for rule, name in
                         ((rule, rule_name(rule)) for rule in graded_rules(PASSING))]
    assert all(part.passed and part.points == part.max_points for part in found)


def test_a_part_scores_its_weight_times_the_share_of_hands_right():
    part = part_of(PASS_STRING, "openingBid", "R9")
    assert (part.right, part.hands, part.status) == (0, part.calls, "checked")
    assert part.points == 0 and not part.passed
    other = part_of(PASS_STRING, "openingBid", "R3")
    assert other.passed and other.points == other.max_points


def test_a_function_never_called_scores_nothing_and_says_not_checked_never_0_percent():
    for report, status in ((MISSING_BID, "missing"), (NOT_IMPORTED, "not checked")):
        part = part_of(report, "openingBid", "R3")
        assert (part.status, part.points, part.calls) == (status, 0, 0)
        output = part_output(part, report, Grading())
        assert output.startswith(f"{status}: ") and "%" not in output and "0 of" not in output


@pytest.mark.parametrize("report, text", [
    (MISSING_BID, "missing: student.py has no function openingBid"),
    (NOT_IMPORTED, "not checked: openingBid gave no answer for these hands (the module "
                   "could not be imported)"),
    (STOPPED, "not checked: openingBid gave no answer for these hands (the run stopped "
              "before these hands)"),
], ids=["missing", "not importable", "stopped before"])
def test_why_a_part_was_not_checked(report, text):
    assert part_output(part_of(report, "openingBid", "R9"), report, Grading()) == text


def test_a_part_partly_answered_counts_the_unanswered_hands_as_not_right():
    rule = next(rule for rule in graded_rules(STOPPED)
                if any(c.rule == rule and c.kind == "random" for c in CASES)
                and any(c.rule == rule and c.kind == "threshold" for c in CASES))
    part = part_of(STOPPED, "highCardPoints", rule)
    answered = sum(c.rule == rule and c.kind == "threshold" for c in CASES)
    assert (part.status, part.right, part.calls) == ("partly checked", answered, answered)
    assert part.points == pytest.approx(part.max_points * answered / part.hands, abs=0.01)
    assert part_output(part, STOPPED, Grading()) == (
        f"right on {answered} of {part.hands} hands; {part.hands - answered} not answered "
        f"(the run stopped)")


def test_worked_examples_weigh_like_a_rule_and_are_always_visible():
    grading = Grading(hidden="after_due_date")
    worked = [part for part in parts(HCP_OFF, grading) if part.rule is None]
    assert [part.function for part in worked] == list(FUNCTIONS)
    share = 100 / 3 / (len(graded_rules(HCP_OFF)) + 1)
    assert all(abs(part.max_points - share) < 0.01 for part in worked)
    assert {(part.visibility, part.hands) for part in worked} == {
        ("visible", len(WORKED_EXAMPLES))}
    assert [part.passed for part in worked] == [False, True, True]
    assert worked[0].points < worked[0].max_points


@pytest.mark.parametrize("weight, share", [(0, 0.0), (1, 1.0), (2.5, 2.5)])
def test_the_weights_file_sets_the_worked_examples_weight(weight, share):
    grading = Grading(parse_weights(f"worked = {weight}\n[rules]\nR3 = 1\n"))
    found = {part.rule: part.max_points for part in parts(PASSING, grading)
             if part.function == "openingBid"}
    assert found[None] == pytest.approx(found["R3"] * share, abs=0.01)
    assert grading.weights.to_dict()["worked"] == weight


def test_no_worked_part_when_no_worked_example_was_checked():
    report = answering(correct, CASES[12:])
    assert all(part.rule is not None for part in parts(report))


# Hidden hands ----------------------------------------------------------------------------

HIDDEN = Grading(hidden="after_due_date")


def hidden_hands():
    return [checked.hand for checked in CASES if checked.kind != "worked"]


def test_redact_hides_threshold_and_random_hands_but_not_worked_examples():
    text = f"computing f({CASES[0].hand!r}) then f({CASES[13].hand!r}) then f({CASES[-1].hand!r}) 'x'"
    assert redact(text, PASSING, HIDDEN) == (
        f"computing f({CASES[0].hand!r}) then f(a hidden hand) then f(a hidden hand) 'x'")
    assert redact(text, PASSING, Grading()) == text


def test_a_hidden_example_shows_what_came_back_but_not_the_cards():
    report = answering(lambda function, checked: correct(function, checked)
                       if checked.kind == "worked" else one_more_hcp(function, checked))
    part = part_of(report, "highCardPoints", CASES[-1].rule)
    hidden = part_output(part, report, HIDDEN)
    assert "highCardPoints on a threshold hand (not shown until released)" in hidden \
        or "highCardPoints on a random hand (not shown until released)" in hidden
    assert "     expected: " in hidden and "     actual:   " in hidden and "; a hint" in hidden
    assert not any(hand in hidden for hand in hidden_hands())
    full = part_output(part, report, HIDDEN, full=True)
    assert "why: " in full and any(hand in full for hand in hidden_hands())
    assert part_output(part, report, Grading()) == full


def test_a_part_shows_at_most_shown_kinds_of_wrong_answer():
    def mixed(function, checked):
        if function != "openingBid" or checked.kind != "worked":
            return correct(function, checked)
        index = CASES.index(checked)
        return (Answer("int", 1, "int"), Answer("raised", None, "KeyError", "x", 2, "f"),
                Answer("str", "7NT", "str"))[index % 3]
    report = answering(mixed)
    part = part_of(report, "openingBid", None)
    output = part_output(part, report, Grading(shown=1))
    assert output.count("for example:") == 1
    assert output.endswith("... and 2 more kinds of wrong answer")


@pytest.mark.parametrize("format_name", ["gradescope", "prairielearn", "junit"])
def test_student_formats_never_show_a_hidden_hand_outside_gradescopes_hidden_tests(
        format_name):
    report = answering(one_more_hcp, problems=(
        f"the process ended while computing openingBid({CASES[20].hand!r})",))
    text = render(format_name, report, HIDDEN)
    if format_name == "gradescope":
        data = json.loads(text)
        visible = [data["output"]] + [test["output"] for test in data["tests"]
                                      if test["visibility"] == "visible"]
        text = "\n".join(visible)
        assert any(test["visibility"] == "after_due_date" for test in data["tests"])
    assert not any(hand in text for hand in hidden_hands())
    assert "a hidden hand" in text


# JSON: the whole report as data ----------------------------------------------------------

@pytest.mark.parametrize("name", REPORTS)
def test_json_report_matches_its_schema(name):
    data = json.loads(render("json", REPORTS[name], HIDDEN))
    validate(data, "check_report")


def test_json_report_holds_the_whole_report():
    data = report_data(HCP_OFF)
    assert data["module"] == "student.py" and not data["passed"] and data["imported"]
    assert data["isolation"] == {"name": "bubblewrap", "measures": ["no network", "wall 10 s"],
                                 "reason": "", "bounds": {}}
    assert data["hands"] == {"total": len(CASES), "worked": 12, "threshold": 10,
                             "misreading": 0, "random": 20}
    assert data["functions"][0] == {"function": "highCardPoints", "right": 0,
                                    "calls": len(CASES), "hands": len(CASES),
                                    "status": "checked"}
    assert [rule["rule"] for rule in data["rules"]] == list(HCP_OFF.rules)
    assert sum(rule["hands"] for rule in data["rules"]) == len(CASES)
    group = data["groups"][0]
    assert (group["function"], group["cause"], group["example"]["kind"]) == (
        "highCardPoints", "wrong answer", "worked")
    example = CASES.index(next(c for c in CASES if c.hand == group["example"]["hand"]))
    assert group["example"]["expected"] == CASES[example].expected[0]
    assert group["example"]["actual"] == f"{CASES[example].expected[0] + 1} (int)"
    assert data["score"]["points"] == pytest.approx(200 / 3, abs=0.01)
    assert data["score"]["weights"]["total"] == 100


def test_exceptions_are_told_by_kind_and_line_in_every_format():
    crashes = sum(case.hand.startswith("10") for case in CASES)
    assert crashes
    said = f"openingBid raised ValueError (student.py, line 3, in openingBid) on {crashes}"
    group = report_data(CRASHING)["groups"][0]
    assert (group["cause"], group["rule"], group["count"]) == (RAISED, None, crashes)
    assert group["exception"] == {"type": "ValueError", "line": 3, "where": "openingBid"}
    assert report_data(HCP_OFF)["groups"][0]["exception"] is None
    assert f"Exceptions:\n  - {said}" in gradescope_results(CRASHING)["output"]
    outputs = [test["output"] for test in prairielearn_results(CRASHING)["tests"]]
    assert any("raised ValueError (student.py, line 3, in openingBid) on" in output
               for output in outputs)


@pytest.mark.parametrize("format_name", ["json", "gradescope", "prairielearn"])
def test_lone_surrogates_from_the_students_code_become_unicode_text_and_are_said(
        format_name):
    report = answering(correct, warnings=("the module prints: 'a\ud800b'",))
    text = render(format_name, report)
    text.encode("utf-8")  # strict: every character is Unicode text
    assert "aU+D800b" in text and "\\ud800" not in text
    if format_name != "json":
        assert json.loads(text)["output"].endswith(
            "Note: 1 character that is not Unicode text (lone surrogates, from the "
            "student's code) written as U+XXXX.")


def test_unicode_text_mends_keys_and_lists_and_leaves_other_values():
    assert unicode_text({"k\udcff": ["\ud800\udfff", 3, None], "output": "o"}) == {
        "kU+DCFF": ["U+D800U+DFFF", 3, None],
        "output": "o\nNote: 3 characters that are not Unicode text (lone surrogates, from "
                  "the student's code) written as U+XXXX."}
    assert unicode_text({"output": "plain"}) == {"output": "plain"}


def test_json_report_for_a_module_without_isolation_or_worked_examples():
    data = report_data(answering(correct, CASES[12:], isolation=None))
    validate(data, "check_report")
    assert data["isolation"] is None and data["hands"]["worked"] == 0


def test_json_strings_carry_no_raw_control_characters():
    report = answering(correct, warnings=("the module prints: 'U+001B[31mred'",))
    text = render("json", report)
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f]", text)


# Gradescope ------------------------------------------------------------------------------

@pytest.mark.parametrize("hidden", VISIBILITIES)
@pytest.mark.parametrize("name", REPORTS)
def test_gradescope_results_match_the_specification(name, hidden):
    validate(gradescope_results(REPORTS[name], Grading(hidden=hidden)), "gradescope_results")


def test_gradescope_score_is_the_sum_of_the_tests_and_texts_are_plain():
    data = gradescope_results(PASS_STRING)
    assert round(data["score"] * 100) == cents(test["score"] for test in data["tests"])
    assert cents(test["max_score"] for test in data["tests"]) == 100_00
    assert data["score"] == pytest.approx(string_pass_score(PASS_STRING), abs=0.01)
    assert (data["output_format"], data["test_output_format"], data["test_name_format"],
            data["stdout_visibility"]) == ("text", "text", "text", "hidden")
    failed = [test for test in data["tests"] if test["status"] == "failed"]
    assert [test["name"] for test in failed] == ["openingBid: the worked examples",
                                                 "openingBid: hands R9 (no bid) decides"]
    assert failed[1]["number"] == f"3.{len(graded_rules(PASS_STRING)) + 1}"
    assert failed[1]["output"].startswith(f"right on 0 of {no_bid_hands(CASES[12:])} hands"
                                          f"\n\nwrong type on {no_bid_hands(CASES[12:])} "
                                          f"hands")


def test_gradescope_hides_the_rule_tests_until_the_due_date():
    data = gradescope_results(PASS_STRING, HIDDEN)
    assert {test["visibility"] for test in data["tests"] if "worked" in test["name"]} == {
        "visible"}
    assert {test["visibility"] for test in data["tests"] if "decides" in test["name"]} == {
        "after_due_date"}
    assert data["visibility"] == "visible"


def test_gradescope_output_leads_with_the_score_and_the_headline():
    lines = gradescope_results(MISSING_BID)["output"].splitlines()
    assert lines[0] == f"Checking student.py: {len(CASES)} hands (12 worked examples, 10 on " \
                       f"the thresholds, 0 that misreadings open otherwise, 20 random)"
    assert lines[1] == "Score: 66.67 of 100 points"
    assert lines[2].startswith("In short: ")
    assert lines[3:5] == ["Problems:", f"  - {MISSING_BID.problems[0]}"]
    assert lines[-1] == "Isolation: bubblewrap: no network; wall 10 s"


def test_gradescope_output_without_isolation_or_problems():
    lines = gradescope_results(answering(correct, isolation=None))["output"].splitlines()
    assert len(lines) == 3 and lines[2].startswith("In short: every answer agrees")


# PrairieLearn ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", REPORTS)
def test_prairielearn_results_match_the_specification(name):
    validate(prairielearn_results(REPORTS[name], HIDDEN), "prairielearn_results")


def test_prairielearn_score_is_a_fraction_and_tests_carry_points():
    data = prairielearn_results(HCP_OFF)
    assert data["gradable"] and data["score"] == pytest.approx(2 / 3, abs=0.0001)
    test = data["tests"][1]
    assert test["name"] == f"highCardPoints: hands {graded_rules(HCP_OFF)[0]} " \
                           f"({rule_name(graded_rules(HCP_OFF)[0])}) decides"
    assert test["points"] == 0 and test["max_points"] > 0
    assert test["message"].startswith("right on 0 of ")
    assert test["description"].startswith("highCardPoints on the ")
    assert "worked examples" in data["tests"][0]["description"]


def test_a_module_that_cannot_be_imported_is_not_gradable():
    data = prairielearn_results(NOT_IMPORTED)
    assert data["gradable"] is False and "tests" not in data
    assert data["message"] == NOT_IMPORTED.problems[0]
    assert data["format_errors"] == list(NOT_IMPORTED.problems)


def test_not_gradable_without_a_problem_still_says_why():
    report = answering(lambda function, checked: None, imported=False)
    data = prairielearn_results(report)
    validate(data, "prairielearn_results")
    assert data["format_errors"] == [data["message"]] == ["the module could not be run"]


# JUnit XML -------------------------------------------------------------------------------

def parsed(report, grading=Grading()):
    text = render("junit", report, grading)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    return ElementTree.fromstring(text.encode("utf-8"))


@pytest.mark.parametrize("name", REPORTS)
def test_junit_counts_agree_with_the_cases(name):
    root = parsed(REPORTS[name], HIDDEN)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["student.py", *FUNCTIONS]
    for element, cases in [(root, root.findall("testsuite/testcase"))] + [
            (suite, suite.findall("testcase")) for suite in suites]:
        assert element.get("tests") == str(len(cases))
        assert element.get("failures") == str(sum(c.find("failure") is not None
                                                  for c in cases))
        assert element.get("errors") == element.get("skipped") == "0"
    for failure in root.iter("failure"):
        assert failure.get("message") and failure.text
        assert failure.get("type") in ("problem", "wrong answer", "wrong type",
                                       "raised an exception", "wrong spelling",
                                       "not checked", "partly checked", "missing")


def test_junit_failures_say_what_went_wrong_and_points_are_properties():
    root = parsed(MISSING_BID)
    module_case = root.find("testsuite/testcase")
    assert module_case.find("failure").get("message") == MISSING_BID.problems[0]
    bid = root.findall("testsuite")[3]
    properties = {item.get("name"): item.get("value") for item in bid.iter("property")}
    assert properties == {"openingBid.points": "0", "openingBid.max_points": "33.33",
                          "openingBid.status": "missing"}
    failure = bid.find("testcase/failure")
    assert (failure.get("type"), failure.get("message")) == (
        "missing", "missing: student.py has no function openingBid")
    total = {item.get("name"): item.get("value")
             for item in root.find("testsuite").iter("property")}
    assert total == {"student.py.points": "66.67", "student.py.max_points": "100"}
    names = [item.get("name") for item in root.iter("property")]
    assert len(names) == len(set(names))


def test_junit_failure_types_name_the_cause_or_why_hands_went_unanswered():
    types = {case.get("name"): case.find("failure").get("type")
             for case in parsed(STOPPED).iter("testcase") if case.find("failure") is not None}
    assert types["imports and answers every call"] == "problem"
    assert {types[f"openingBid: hands {rule} ({rule_name(rule)}) decides"]
            for rule in graded_rules(STOPPED)} == {"not checked"}
    assert "partly checked" in types.values()
    assert parsed(PASS_STRING).find("testsuite[4]/testcase/failure").get("type") == \
        "wrong type"


def test_junit_passing_module_has_no_failures_and_warnings_go_to_system_out():
    root = parsed(answering(correct, warnings=("the module prints to standard output",)))
    assert root.get("failures") == "0"
    assert root.find("testsuite/testcase/system-out").text == (
        "the module prints to standard output")


def test_junit_keeps_to_the_characters_xml_allows():
    nasty = "bell \x07, escape \x1b, nul \x00, surrogate \ud800, \ufffe; tab\tok é ♠"
    report = answering(correct, problems=(nasty,), warnings=(nasty,))
    root = parsed(report)
    message = root.find("testsuite/testcase/failure").get("message")
    assert message == ("bell U+0007, escape U+001B, nul U+0000, surrogate U+D800, "
                       "U+FFFE; tab\tok é ♠")
    assert xml_safe("a\nb\r\tc\U0001F0A1") == "a\nb\r\tc\U0001F0A1"


def test_junit_tree_is_an_element_for_tools():
    assert junit_tree(PASSING).tag == "testsuites"


# Every format ----------------------------------------------------------------------------

def test_formats_are_registered_and_text_is_the_text_report():
    assert set(FORMATS) == {"text", *GRADER_FORMATS}
    assert render("text", HCP_OFF, Grading(shown=2)) == text_report(HCP_OFF, 2)
    assert FORMATS["json"](HCP_OFF) == render("json", HCP_OFF)
    assert FORMATS["junit"].__name__ == "junit_report"


# End to end: real modules checked sealed -------------------------------------------------

VARIANTS = {
    "correct": None,
    "pass_string": "def openingBid(hand):\n    bid = plain.openingBid(hand)\n"
                   "    return 'Pass' if bid is None else bid\n",
    "no_distribution": "del distributionPoints\n",
    "syntax_error": "def openingBid(hand)\n",
}


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """Each variant of the plain solution, checked sealed on 60 random hands."""
    reports = {}
    for name, change in VARIANTS.items():
        folder = tmp_path_factory.mktemp(name)
        shutil.copy(STUDENTS / "correct.py", folder / "correct.py")
        student = folder / "correct.py"
        if change is not None:
            student = folder / f"{name}.py"
            student.write_text("import correct as plain\n"
                               "from correct import *\n" + change)
        reports[name] = check_module(str(student), hands=60, seed=5)
    return reports


def test_a_correct_correct_gets_full_marks_everywhere(checked):
    report = checked["correct"]
    assert report.passed
    assert gradescope_results(report)["score"] == 100
    assert prairielearn_results(report)["score"] == 1
    assert parsed(report).get("failures") == "0"
    assert json.loads(render("json", report))["passed"] is True


def string_pass_score(report) -> float:
    """100 less openingBid's share on R9's hands and on the worked examples with no bid."""
    share = 100 / 3 / (len(graded_rules(report)) + 1)
    worked = [case for case in report.cases if case.kind == "worked"]
    passes = sum(case.expected[2] is None for case in worked)
    return 100 - share - share * passes / len(worked)


def test_the_string_pass_loses_the_no_bid_hands_of_opening_bid(checked):
    data = gradescope_results(checked["pass_string"])
    validate(data, "gradescope_results")
    failed = [test["name"] for test in data["tests"] if test["status"] == "failed"]
    assert failed == ["openingBid: the worked examples", "openingBid: hands R9 (no bid) decides"]
    assert data["score"] == pytest.approx(string_pass_score(checked["pass_string"]),
                                          abs=0.01)


def test_a_deleted_function_is_missing_in_every_format(checked):
    report = checked["no_distribution"]
    validate(json.loads(render("json", report)), "check_report")
    data = prairielearn_results(report)
    validate(data, "prairielearn_results")
    assert data["gradable"] and data["score"] == pytest.approx(2 / 3, abs=0.0001)
    assert {test["message"] for test in data["tests"]
            if test["name"].startswith("distributionPoints")} == {
        "missing: no_distribution.py has no function distributionPoints"}


def test_a_syntax_error_is_not_gradable_and_fails_every_junit_case(checked):
    report = checked["syntax_error"]
    data = prairielearn_results(report)
    validate(data, "prairielearn_results")
    assert data["gradable"] is False and "SyntaxError" in data["message"]
    root = parsed(report)
    assert root.get("failures") == root.get("tests")
    assert len(render("prairielearn", checked["pass_string"])) < 1_000_000  # the 1 MB limit


# the student's own tests in every format -------------------------------------------------

def with_tests(report):
    from dataclasses import replace

    from bidder.checker import student_tests
    from bidder.variants import VARIANT_BY_ID

    run = student_tests.Run((student_tests.TestResult("test_bid", "passed"),),
                            called=("openingBid",), lines_run=3, lines=4)
    tests = student_tests.TestsReport(
        "test_solution.py", run, run,
        (student_tests.Catch(VARIANT_BY_ID["no-2nt"], True, "test_bid", "h"),
         student_tests.Catch(VARIANT_BY_ID["none-as-string"], False, "", "h2")))
    return replace(report, tests=tests)


def test_the_students_tests_are_graded_parts_with_their_own_weight():
    from bidder.checker.points import tests_parts

    report = with_tests(answering(correct))
    found = tests_parts(report, parse_weights('{"tests": 8}'))
    assert [(part.name, part.passed, part.max_points, part.points) for part in found] == [
        ("your tests pass on your module and on the reference", True, 2.0, 2.0),
        ("every function has a test", False, 2.0, 0.0),
        ("your tests catch no-2nt", True, 2.0, 2.0),
        ("your tests catch none-as-string", False, 2.0, 0.0)]
    assert found[1].message == "no test calls highCardPoints or distributionPoints"
    assert found[0].message == "yes"
    assert tests_parts(answering(correct), parse_weights('{"tests": 8}')) == ()


def test_every_format_carries_the_students_tests():
    from bidder.checker.formats import (gradescope_results, junit_tree,
                                        prairielearn_results, report_data)

    report = with_tests(answering(correct))
    grading = Grading(parse_weights('{"tests": 4}'))
    data = report_data(report, grading)
    jsonschema.validate(data, schema("check_report"))
    assert data["student_tests"]["caught"] == ["no-2nt"]
    assert data["student_tests"]["missed"] == [{"variant": "none-as-string", "hand": "h2"}]
    assert data["score"]["max_points"] == 104
    names = [test["name"] for test in gradescope_results(report, grading)["tests"]]
    assert "your tests catch none-as-string" in names
    assert any(test["name"] == "your tests catch no-2nt"
               for test in prairielearn_results(report, grading)["tests"])
    suite = next(suite for suite in junit_tree(report, grading) if suite.get("name") ==
                 "your tests")
    assert suite.get("failures") == "2"


def test_a_weights_file_with_negative_tests_points_is_refused():
    with pytest.raises(WeightsError, match="tests must be a number of points"):
        parse_weights('{"tests": -1}')


def test_a_weights_file_with_a_worked_weight_not_a_number_is_refused():
    with pytest.raises(WeightsError, match="w, line 1: worked must be the worked examples' "
                                           "weight, a number of 0 or more, not 'many'"):
        parse_weights('worked = "many"\n', "w")


# Scores that add up in every format, whatever the weights ---------------------------------

WEIGHT = st.one_of(st.just(0.0), st.integers(1, 5).map(float),
                   st.floats(0.01, 10, allow_nan=False).map(lambda x: round(x, 3)))


@st.composite
def gradings(draw) -> Grading:
    functions = tuple((name, draw(WEIGHT)) for name in FUNCTIONS)
    if not sum(weight for _, weight in functions):
        functions = functions[:-1] + ((FUNCTIONS[-1], 1.0),)
    rules = tuple((rule.id, draw(WEIGHT)) for rule in RULES)
    total = draw(st.sampled_from([100.0, 10.0, 1.0, 33.333, 7.77, 250.0]))
    tests = draw(st.sampled_from([0.0, 0.05, 10.0, 3.333]))
    return Grading(Weights(functions, rules, total, tests, draw(WEIGHT)))


def answers(seed: int):
    """A report whose answers are right or wrong at random (a third of them wrong)."""
    rng = random.Random(seed)

    def answer(function, checked):
        expected = right_answer(checked.expected[FUNCTIONS.index(function)])
        return expected if rng.random() > 0.33 else Answer("str", "?", "str")
    return answering(answer)


def dec(value: float) -> int:
    return round(value * 100)


@settings(max_examples=60, deadline=None)
@given(gradings(), st.integers(0, 10_000), st.booleans())
def test_every_format_adds_up_to_the_cent(grading, seed, own_tests):
    report = answers(seed)
    report = with_tests(report) if own_tests else report
    found = parts(report, grading)
    assert all(0 <= part.points <= part.max_points for part in found)
    assert all(part.points == part.max_points for part in found if part.passed)
    whole = cents(part.max_points for part in found)
    exact = round(Fraction(grading.weights.total) * 100)
    assert whole in (exact, 0)
    gradescope = gradescope_results(report, grading)
    tests = gradescope["tests"]
    assert cents(test["score"] for test in tests) == dec(gradescope["score"])
    extra = dec(grading.weights.tests) if own_tests else 0
    assert cents(test["max_score"] for test in tests) == whole + extra
    prairie = prairielearn_results(report, grading)
    assert cents(test["max_points"] for test in prairie["tests"]) == whole + extra
    assert cents(test["points"] for test in prairie["tests"]) == dec(gradescope["score"])
    suites = ElementTree.fromstring(junit_report(report, grading).split("\n", 1)[1])
    names = [item.get("name") for item in suites.iter("property")]
    assert len(names) == len(set(names))


@given(st.lists(st.fractions(0, 1000, max_denominator=997), max_size=40))
def test_largest_remainder_keeps_the_sum_and_moves_no_share_by_a_cent(shares):
    found = apportioned(shares)
    assert sum(found) == round(sum(shares) * 100)
    assert all(abs(cent - share * 100) < 1 for cent, share in zip(found, shares))


@pytest.mark.parametrize("shares, expected", [
    ([Fraction(100, 3)] * 3, [3334, 3333, 3333]),
    ([Fraction(100, 24)] * 24, [417] * 16 + [416] * 8),
    ([Fraction(1, 2), Fraction(1, 2)], [50, 50]),
    ([Fraction(1, 300), Fraction(2, 300)], [0, 1]),
    ([], []),
])
def test_largest_remainder_gives_the_cents_left_to_the_largest_remainders(shares, expected):
    assert apportioned(shares) == expected
