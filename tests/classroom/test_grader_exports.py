"""The graders' exports, built from their documented layouts: a Gradescope "Download
Submissions" export (submission_metadata.yml keyed by submission folder, with
:submitters, :created_at, :score, :results and :history; one folder per submission), zipped
or unpacked, and a PrairieLearn *_all_submissions.csv whose Feedback holds the results."""

import csv
import json
import shutil
import zipfile

import pytest
import yaml

from bidder.checker import check_module
from bidder.checker.formats import gradescope_results, prairielearn_results
from bidder.classroom import SourceError, check_class, read_submissions, summarise
from bidder.classroom.checking import Settings
from bidder.classroom.sources import opened

from .synthetic import HANDS, STUDENT_TESTS, STUDENTS


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """bidder's own results, as the Gradescope bundle and PrairieLearn's grader write them."""
    folder = tmp_path_factory.mktemp("modules")
    from bidder.checker.standalone import module_source
    from bidder.misreadings import variant_by_id

    (folder / "bid.py").write_text(module_source(variant_by_id("r3-unbalanced-only")))
    return (check_module(str(folder / "bid.py"), HANDS),
            check_module(str(STUDENTS / "exits_at_import.py"), HANDS))


def gradescope_export(folder, reports):
    """The export: two submissions holding bidder's results, one without them (its module is
    checked here), one with no submitters named, one whose folder is missing."""
    right, broken = reports
    top = folder / "assignment_4242_export"
    top.mkdir(parents=True)
    entries = {
        "submission_1": {":submitters": [{":name": "Alice <Lee>", ":sid": "001",
                                          ":email": "alice@example.edu"}],
                         ":created_at": "2026-01-01 10:00:00 -0800", ":score": 98.4,
                         ":results": gradescope_results(right),
                         ":history": [{":created_at": "2026-01-01 09:00:00 -0800",
                                       ":score": 50.0}]},
        "submission_2": {":submitters": [{":name": "Bob Chan", ":sid": "002"}],
                         ":results": gradescope_results(right), ":history": []},
        "submission_3": {":submitters": [{":name": "Carol Diaz", ":sid": "003"}],
                         ":results": {"score": 0, "tests": []}, ":history": []},
        "submission_4": {":submitters": [], ":results": None},
        "submission_5": {":submitters": [{":name": "Erin Fox"}], ":results": None},
    }
    (top / "submission_metadata.yml").write_text(yaml.safe_dump(entries))
    for key in ("submission_1", "submission_2", "submission_3", "submission_4"):
        (top / key).mkdir()
    shutil.copy(STUDENTS / "correct.py", top / "submission_3" / "bid.py")
    shutil.copy(STUDENTS / "stub.py", top / "submission_4" / "bid.py")
    return folder


def by_name(outcomes):
    return {outcome.student: outcome for outcome in outcomes}


@pytest.mark.parametrize("zipped", [False, True], ids=["unpacked", "zip"])
def test_a_gradescope_export_is_read_by_name_and_results_are_not_run_again(
        tmp_path, reports, zipped):
    export = gradescope_export(tmp_path / "export", reports)
    if zipped:
        archive = tmp_path / "export.zip"
        with zipfile.ZipFile(archive, "w") as zipped_file:
            for path in sorted(export.rglob("*")):
                zipped_file.write(path, path.relative_to(export))
        source = str(archive)
    else:
        source = str(export)
    with opened(source) as folder:
        found = read_submissions(folder)
        outcomes = by_name(check_class(found, Settings(hands=HANDS), jobs=1))
    assert sorted(outcomes) == ["Alice <Lee>", "Bob Chan", "Carol Diaz", "Erin Fox",
                                "submission_4"]
    alice = outcomes["Alice <Lee>"]
    assert alice.source == "results" and alice.misreadings == ("r3-unbalanced-only",)
    assert alice.score == pytest.approx(98.4, abs=2) and alice.parts
    assert outcomes["Carol Diaz"].source == "checked" and outcomes["Carol Diaz"].score == 100
    assert outcomes["submission_4"].source == "checked"
    assert "no folder submission_5" in outcomes["Erin Fox"].problem
    held = summarise(outcomes.values()).held
    assert [(entry.id, entry.students) for entry in held] == [("r3-unbalanced-only", 2)]


def test_gradescope_metadata_that_is_not_yaml_or_holds_nothing_says_so(tmp_path):
    (tmp_path / "submission_metadata.yml").write_text("a: [\n")
    with pytest.raises(SourceError, match="is not YAML"):
        read_submissions(str(tmp_path))
    (tmp_path / "submission_metadata.yml").write_text("just text\n")
    with pytest.raises(SourceError, match="holds no submissions"):
        read_submissions(str(tmp_path))


def prairielearn_sheet(folder, reports):
    right, broken = reports
    rows = [("alice@example.edu", json.dumps({"results": prairielearn_results(broken)})),
            ("alice@example.edu", json.dumps(prairielearn_results(right))),  # the last counts
            ("bob@example.edu", json.dumps(prairielearn_results(broken))),
            ("carol@example.edu", ""),
            ("", "{}")]
    path = folder / "Homework1_all_submissions.csv"
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["UID", "UIN", "Username", "Name", "Role", "Assessment", "Question",
                         "submission_id", "Score", "Correct", "Feedback"])
        for number, (uid, feedback) in enumerate(rows, 1):
            writer.writerow([uid, number, uid, "", "Student", "HW1", "openingBid", number,
                             "", "", feedback])
    return folder


def test_a_prairielearn_download_is_read_from_its_feedback(tmp_path, reports):
    found = read_submissions(str(prairielearn_sheet(tmp_path, reports)))
    outcomes = by_name(check_class(found))
    assert sorted(outcomes) == ["alice@example.edu", "bob@example.edu", "carol@example.edu"]
    alice = outcomes["alice@example.edu"]
    assert alice.misreadings == ("r3-unbalanced-only",) and 90 < alice.score < 100
    assert alice.parts and alice.source == "results"
    assert "openingBid: the worked examples" in dict(alice.parts)  # they weigh points
    assert dict(alice.parts)["openingBid: hands R3 (1 of a minor) decides"] is False
    assert dict(alice.parts)["openingBid: hands R1 (1NT) decides"] is True
    assert not outcomes["bob@example.edu"].checked
    assert "could not be imported" in outcomes["bob@example.edu"].problem
    assert "holds no results" in outcomes["carol@example.edu"].problem


@pytest.mark.parametrize("make, message", [
    (lambda path: path.write_text("not a zip"), "holds no answers"),
    (lambda path: path.mkdir(), "holds no submissions"),
])
def test_what_is_not_a_class_says_what_to_give(tmp_path, make, message):
    path = tmp_path / "class"
    make(path)
    with pytest.raises(SourceError, match=message):
        with opened(str(path)) as folder:
            read_submissions(folder)


# PrairieLearn's download of submitted files: a top folder named for the assessment, each
# file named <uid>_<instance>_<qid>_<variant>_<submission number>_<submission id>_<file>.

@pytest.mark.parametrize("name, expected", [
    ("alice@example.edu_1_openingBid_1_2_17_bid.py",
     ("alice@example.edu", 1, 17, "bid.py")),
    ("bob_b@example.edu_2_hw_opening_bid_3_1_40_my_bid.py",
     ("bob_b@example.edu", 2, 40, "my_bid.py")),
    ("team-7_1_q_1_1_5_test_bid.py", ("team-7", 1, 5, "test_bid.py")),
    ("alice.py", None),
    ("alice_1_q_1_1_bid.py", None),  # one number short
    ("alice_x_q_1_1_5_bid.py", None),
    ("alice_1_q_1_1_5_..", None),  # no name a file could be laid out under
    ("alice_1_q_1_1_5_.", None),
])
def test_an_uploaded_file_is_named_for_its_student_and_submission(name, expected):
    from bidder.classroom.uploads import read_upload

    upload = read_upload("HW1", name)
    found = None if upload is None else (upload.uid, upload.instance, upload.submission,
                                         upload.name)
    assert found == expected


def files_download(folder):
    """PrairieLearn's *_best_files.zip, unpacked: carol's two submissions (the later one
    counts, with her test file), dave's one, erin's text only, a file of no one."""
    top = folder / "Homework1"
    top.mkdir(parents=True)
    shutil.copy(STUDENTS / "exits_at_import.py", top / "carol@example.edu_1_bid_1_1_10_bid.py")
    shutil.copy(STUDENTS / "correct.py", top / "carol@example.edu_1_bid_1_2_31_bid.py")
    shutil.copy(STUDENT_TESTS / "weak_tests.py",
                top / "carol@example.edu_1_bid_1_2_31_test_bid.py")
    (folder / "Homework1" / "carol@example.edu_1_essay_1_1_44_notes.txt").write_text("later")
    from bidder.checker.standalone import module_source
    from bidder.misreadings import variant_by_id

    (top / "dave@example.edu_1_bid_1_1_12_solution.py").write_text(
        module_source(variant_by_id("1nt-15-17")))
    (top / "erin@example.edu_1_essay_1_1_13_notes.txt").write_text("no code")
    (top / "README.txt").write_text("not an upload")
    return folder


def test_each_students_latest_submission_is_theirs_with_its_files(tmp_path):
    from bidder.classroom.uploads import submitted_files

    found = submitted_files(str(files_download(tmp_path)))
    assert sorted(found) == ["carol@example.edu", "dave@example.edu"]
    assert [name for name, _ in found["carol@example.edu"]] == ["bid.py", "test_bid.py"]
    assert [name for name, _ in found["dave@example.edu"]] == ["solution.py"]


def test_a_prairielearn_download_without_results_is_checked_from_its_files(tmp_path, reports):
    folder = files_download(prairielearn_sheet(tmp_path, reports))
    outcomes = by_name(check_class(read_submissions(str(folder)), Settings(hands=HANDS),
                                   jobs=1))
    assert sorted(outcomes) == ["alice@example.edu", "bob@example.edu",
                                "carol@example.edu", "dave@example.edu"]
    assert outcomes["alice@example.edu"].source == "results"  # read, not run again
    carol = outcomes["carol@example.edu"]
    assert carol.source == "checked" and carol.score == 100 and carol.caught is not None
    assert outcomes["dave@example.edu"].misreadings == ("1nt-15-17",)


def test_the_files_zip_alone_is_a_class(tmp_path):
    download = files_download(tmp_path / "download")
    archive = tmp_path / "Homework1_best_files.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(download.rglob("*")):
            zipped.write(path, path.relative_to(download))
    with opened(str(archive)) as folder:
        outcomes = by_name(check_class(read_submissions(folder), Settings(hands=HANDS)))
    assert outcomes["carol@example.edu"].score == 100
    assert outcomes["dave@example.edu"].misreadings == ("1nt-15-17",)


def test_a_sheet_row_with_neither_results_nor_files_says_what_to_give(tmp_path, reports):
    outcomes = by_name(check_class(read_submissions(str(prairielearn_sheet(tmp_path,
                                                                           reports)))))
    assert "best_files.zip beside the sheet" in outcomes["carol@example.edu"].problem


# Stuck, from a grader's results: nothing right on the worked examples' tests.

def worked_test(function, points, most, grader):
    name = f"{function}: the worked examples"
    if grader == "gradescope":
        return {"name": name, "score": points, "max_score": most}
    return {"name": name, "points": points, "max_points": most}


@pytest.mark.parametrize("grader", ["gradescope", "prairielearn"])
@pytest.mark.parametrize("worked, score, stuck", [
    ([(0, 5), (0, 5), (0, 5)], 40.0, True),  # points elsewhere, none on the worked examples
    ([(0, 5), (0.01, 5), (0, 5)], 40.0, False),  # one hand right is not stuck
    ([(5, 5), (5, 5), (5, 5)], 0.0, False),
    ([(0, 0), (0, 0)], 0.0, True),  # worth nothing: the score says it
    ([(0, 0), (0, 0)], 12.0, False),
    ([], 0.0, True),
    ([], 0.5, False),
])
def test_stuck_is_read_from_the_worked_example_tests(grader, worked, score, stuck):
    from bidder.classroom.outcome import from_results

    tests = [worked_test(function, points, most, grader) for function, (points, most)
             in zip(("highCardPoints", "distributionPoints", "openingBid"), worked)]
    tests += [{"name": "openingBid: hands R1 (1NT) decides", "score": 0, "max_score": 5,
               "points": 0, "max_points": 5}, "not a test",
              {"name": "highCardPoints: the worked examples"}]  # worth nothing said
    assert from_results("s", {"score": score, "tests": tests}).stuck is stuck


@pytest.mark.parametrize("tests", [None, [], "not a list of tests"])
def test_results_without_tests_say_stuck_by_a_score_of_zero(tests):
    from bidder.classroom.outcome import from_results

    assert from_results("s", {"score": 0, "tests": tests}).stuck
    assert not from_results("s", {"score": 1, "tests": tests}).stuck


def test_stuck_is_read_from_bidders_own_results(reports):
    from bidder.classroom.outcome import from_results

    right, _ = reports
    assert not from_results("s", gradescope_results(right)).stuck
    assert not from_results("s", prairielearn_results(right), 100.0).stuck


@pytest.mark.parametrize("test, points, most", [
    ({"score": 2, "max_score": 5}, 2, 5),
    ({"points": "1.5", "max_points": 3}, 1.5, 3),
    ({"score": "?", "points": 1, "max_score": None, "max_points": 4}, 1, 4),
    ({"score": None, "max_points": "lots"}, 0, 0),
])
def test_a_tests_points_are_read_whichever_grader_wrote_them(test, points, most):
    from bidder.classroom.outcome import _points

    assert (_points(test, ""), _points(test, "max")) == (points, most)
