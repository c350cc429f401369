"""The class report on a synthetic class: each submission checked as `bidder check` checks
one, the misreadings the class holds counted, and the report in text, JSON and HTML."""

import json
import re
from pathlib import Path

import jsonschema
import pytest

from bidder.classroom import check_class, read_submissions, summarise
from bidder.classroom.checking import Settings, outcome_of
from bidder.classroom.data import report_data
from bidder.classroom.html import report_html, templates_folder
from bidder.classroom.sources import Submission
from bidder.classroom.text import report_text
from bidder.cards import parse_hand
from bidder.classroom.outcome import Outcome
from bidder.misreadings import variant_by_id

from .synthetic import HANDS, KNOWN, write_class

SCHEMA = json.loads((Path(__file__).with_name("class_report.schema.json")).read_text())


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    folder = write_class(tmp_path_factory.mktemp("class"))
    return tuple(check_class(read_submissions(str(folder)), Settings(hands=HANDS), jobs=2))


@pytest.fixture(scope="module")
def report(outcomes):
    return summarise(outcomes, similar=True)


def by_name(outcomes):
    return {outcome.student: outcome for outcome in outcomes}


def test_every_student_is_there_by_name_and_a_test_file_at_the_top_is_none(outcomes):
    assert sorted(by_name(outcomes)) == sorted(
        ["alice", "bob", "<em>mallory&co", "carol", "dave", "erin", "frank", "grace",
         "heidi", "ivan", "judy", "ken", "oscar"])


@pytest.mark.parametrize("student", sorted(KNOWN))
def test_each_known_misreading_is_named_for_its_student(outcomes, student):
    assert by_name(outcomes)[student].misreadings == KNOWN[student]


def test_the_right_ones_score_100_and_the_broken_ones_say_why(outcomes):
    found = by_name(outcomes)
    assert found["erin"].score == 100 and found["judy"].score == 100
    assert "could not be imported" in found["frank"].problem
    assert "could not be imported" in found["heidi"].problem
    assert "no .py file" in found["ken"].problem
    assert not found["ken"].checked and found["ken"].score is None


def test_stuck_is_nothing_right_on_the_worked_examples(report):
    assert [outcome.student for outcome in report.stuck] == ["grace", "ivan"]


def test_the_misreadings_held_with_how_many_students_their_sentence_and_a_hand(report):
    held = {entry.id: entry for entry in report.held}
    assert held["r3-unbalanced-only"].students == 3 and held["1nt-15-17"].students == 2
    assert held["1nt-15-17"].sentence == variant_by_id("1nt-15-17").sentence
    assert held["1nt-15-17"].hand is not None
    assert [entry.id for entry in report.held][:2] == ["r3-unbalanced-only", "1nt-15-17"]


def test_a_hand_that_shows_a_misreading_is_written_by_suit(report):
    for held in report.held:
        assert held.hand == str(parse_hand(held.hand))
    for entry in report.reteach:
        assert all(hand == str(parse_hand(hand)) for hand, _ in entry.hands)


def test_each_students_exceptions_are_told_by_kind_count_line_and_a_hand(outcomes):
    raised = by_name(outcomes)["oscar"].raised
    assert sorted((one.function, one.crash.type_name) for one in raised) == [
        ("openingBid", "ValueError"), ("openingBid", "ZeroDivisionError")]
    assert [one.count for one in raised] == sorted((one.count for one in raised),
                                                   reverse=True)
    assert all(one.count > 0 and one.crash.line is not None for one in raised)
    ten = next(one for one in raised if one.crash.type_name == "ValueError")
    assert "10" in ten.hand and ten.hand == str(parse_hand(ten.hand))
    assert ten.text == (f"openingBid raised ValueError (line {ten.crash.line}, in "
                        f"openingBid) on {ten.count} hands, for example on {ten.hand}")
    assert by_name(outcomes)["erin"].raised == ()


def test_the_exceptions_are_in_the_text_the_json_and_the_html(report):
    oscar = next(one for one in report.outcomes if one.student == "oscar")
    said = oscar.raised[0].text
    assert f"  oscar: {oscar.score:g}\n    {said}\n" in report_text(report)
    data = next(one for one in report_data(report)["students"] if one["student"] == "oscar")
    first = oscar.raised[0]
    assert data["exceptions"][0] == {
        "function": "openingBid", "type": first.crash.type_name, "line": first.crash.line,
        "where": first.crash.where, "count": first.count, "hand": first.hand, "text": said}
    assert said in report_html(report)


TIED = (Outcome("tess", 90.0, ("R3.points=15-21",), alternatives=("hcp.J=0",)),
        Outcome("uma", 80.0, ("R3.points=15-21",)))


def test_misreadings_that_fit_just_as_well_are_named_together():
    report = summarise(TIED)
    held = report.held[0]
    assert held.alternatives == ("hcp.J=0",)
    assert held.others == f"They fit just as well: (hcp.J=0) {variant_by_id('hcp.J=0').sentence}"
    text = report_text(report)
    assert "  tess: 90 (R3.points=15-21, or just as well hcp.J=0)\n" in text
    assert "  uma: 80 (R3.points=15-21)\n" in text
    assert held.others in text
    data = report_data(report)
    jsonschema.validate(data, SCHEMA)
    assert data["students"][0]["alternatives"] == ["hcp.J=0"]
    assert data["misreadings"][0]["others"] == held.others
    page = report_html(report)
    assert "R3.points=15-21, or just as well hcp.J=0" in page and "They fit just as well" in page


def test_the_hands_to_teach_again_tell_the_common_misreadings_apart(report):
    assert [entry.id for entry in report.reteach] == ["r3-unbalanced-only", "1nt-15-17"]
    for entry in report.reteach:
        assert len(entry.hands) == 3
        for hand, bids in entry.hands:
            said = [bid for _, bid in bids]
            assert len(set(said)) == len(said)  # the assignment and each one: all different
            assert said[1] != said[0] and bids[1][0] == entry.id


def test_the_shares_right_count_the_checked_students(report):
    shares = {share.name: share for share in report.shares}
    worked = shares["openingBid: the worked examples"]
    assert worked.of == 10 and worked.right < worked.of


def test_the_class_tests_strength_comes_from_the_students_who_sent_tests(report):
    assert report.tests.students == 1
    assert report.tests.never  # weak tests miss some misreadings


def test_the_distribution_counts_every_checked_score(report):
    assert sum(report.distribution) == len(report.checked) == 10
    assert report.distribution[-1] == sum(o.score >= 90 for o in report.checked) >= 7


def test_the_json_is_valid_against_the_schema(report):
    data = report_data(report)
    jsonschema.validate(data, SCHEMA)
    assert {"id": "1nt-15-17", "students": 2}.items() <= data["misreadings"][1].items()
    assert data["students"][0].keys() >= {"student", "score", "misreadings"}


def test_the_text_names_each_section_and_escapes_the_terminal(report):
    text = report_text(report)
    for heading in ("Scores:", "Misreadings the class holds:", "Hands to teach again:",
                    "Not checkable:", "Stuck", "The class's own tests", "Students:"):
        assert heading in text
    assert "\x1b" not in text


def test_the_html_is_one_file_escaped_and_loads_nothing(report):
    page = report_html(report)
    assert "<em>mallory&co" not in page and "&lt;em&gt;mallory&amp;co" in page
    assert "<svg" in page and "@media print" in page and "viewport" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "<script" not in page and "<link" not in page


def test_the_templates_are_found_inside_the_package_or_beside_it(tmp_path):
    assert templates_folder(tmp_path) == tmp_path.parent / "templates"
    (tmp_path / "templates").mkdir()
    assert templates_folder(tmp_path) == tmp_path / "templates"


def test_an_empty_class_and_one_with_no_common_misreading_still_report():
    report = summarise([])
    assert report.held == () and report.reteach == () and report.tests is None
    assert "none named" in report_text(report) and "None named" in report_html(report)


def test_a_check_that_cannot_start_is_a_student_not_checkable(monkeypatch):
    def broken(*args):
        raise RuntimeError("the sandbox could not start")

    monkeypatch.setattr("bidder.classroom.checking.check_module", broken)
    outcome = outcome_of(Submission("zoe", "zoe.py"))
    assert not outcome.checked and outcome.problem == "the sandbox could not start"


def test_checked_here_one_by_one_as_in_the_pool(tmp_path):
    (tmp_path / "one.py").write_text("")
    found = list(check_class(read_submissions(str(tmp_path)), Settings(hands=HANDS), jobs=1))
    assert [outcome.student for outcome in found] == ["one"]


def test_a_students_tests_are_graded_beside_the_module(tmp_path):
    from .synthetic import STUDENT_TESTS, STUDENTS

    (tmp_path / "solution.py").write_text((STUDENTS / "correct.py").read_text())
    outcome = outcome_of(Submission("judy", str(tmp_path / "solution.py"),
                                    str(STUDENT_TESTS / "thorough_tests.py")),
                         Settings(hands=HANDS))
    assert outcome.caught and outcome.score == 100


def test_the_text_lists_pairs_to_look_at_and_tests_that_catch_everything():
    from bidder.classroom.similar import Pair
    from bidder.classroom.summary import ClassReport, TestsStrength

    report = ClassReport((), (), (), (), TestsStrength(2, (("no-2nt", 2),), ()),
                         (Pair("a", "b", 4, (("AS KS", "'7NT' (str)"),)),))
    text = report_text(report)
    assert "no-2nt: caught by 2" in text and "caught by nobody" not in text
    assert "a and b: 4 wrong bids nobody else gave, e.g. '7NT' (str) on AS KS" in text


PEEKER = '''import os

if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "alice.py")):
    raise ImportError("I can see alice.py")


def highCardPoints(hand):
    return 0


def distributionPoints(hand):
    return 0


def openingBid(hand):
    return None
'''


def test_a_students_module_is_checked_without_the_rest_of_the_class_beside_it(tmp_path):
    (tmp_path / "alice.py").write_text("def openingBid(hand):\n    return None\n")
    (tmp_path / "peeker.py").write_text(PEEKER)
    found = {submission.student: submission for submission in read_submissions(str(tmp_path))}
    assert found["peeker"].files == (("peeker.py", str(tmp_path / "peeker.py")),)
    outcome = next(outcome for outcome in check_class(found.values(), Settings(hands=0),
                                                      jobs=1) if outcome.student == "peeker")
    assert outcome.checked, outcome.problem


def test_warming_up_for_the_workers_leaves_a_sandbox_problem_to_each_check(monkeypatch):
    from bidder.classroom import checking

    def refuse(wanted, limits):
        raise RuntimeError("the sandbox was demanded but bwrap is not installed")

    monkeypatch.setattr(checking, "choose_isolation", refuse)
    checking.warm(Settings(hands=0, isolation="bubblewrap"))  # says nothing: each check will
