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

from .synthetic import HANDS, STUDENTS


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
