"""`bidder class` and `bidder deal --separating` from the command line."""

import io
import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from bidder.classroom.outcome import Outcome
from bidder.classroom.similar import similar_pairs
from bidder.cli.classreport import progress
from bidder.cli.commands import cli

from .synthetic import write_class

SCHEMA = json.loads((Path(__file__).with_name("class_report.schema.json")).read_text())


def run(*args):
    return CliRunner().invoke(cli, list(map(str, args)))


def small_class(folder):
    (folder / "one.py").write_text((Path(__file__).parents[1] / "checker" / "students"
                                    / "correct.py").read_text())
    (folder / "two.py").write_text("def openingBid(hand):\n    return '1C'\n")
    return folder


def test_the_json_report_of_a_folder_validates(tmp_path):
    result = run("class", small_class(tmp_path), "--hands", 0, "--format", "json",
                 "--jobs", 1)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert [student["student"] for student in data["students"]] == ["one", "two"]


def test_the_html_report_is_written_to_a_file(tmp_path):
    (tmp_path / "class").mkdir()
    result = run("class", small_class(tmp_path / "class"), "--hands", 0, "--format", "html",
                 "-o", tmp_path / "class.html", "--similar")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "class.html").read_text().startswith("<!doctype html>")


def test_the_text_report_is_the_default(tmp_path):
    result = run("class", small_class(tmp_path), "--hands", 0)
    assert result.exit_code == 0 and "Class report: 2 students, 2 checked" in result.stdout


def test_a_report_that_cannot_be_written_and_a_class_that_is_none_are_failures(tmp_path):
    result = run("class", small_class(tmp_path), "--hands", 0, "-o",
                 tmp_path / "no" / "such" / "class.txt")
    assert result.exit_code == 2
    assert "the report could not be written: No such file or directory" in result.stderr
    (tmp_path / "empty").mkdir()
    result = run("class", tmp_path / "empty")
    assert result.exit_code == 2 and "holds no submissions" in result.stderr


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_shows_on_a_terminal_only():
    stream = Terminal()
    with progress(2, stream) as advance:
        advance(1)
        advance(1)
    assert "checking" in stream.getvalue()
    with progress(2, io.StringIO()) as advance:
        advance(1)


def test_pairs_sharing_rare_wrong_bids_are_listed_with_the_evidence():
    rare = tuple((f"hand {number}", "'7NT' (str)") for number in range(4))
    outcomes = (Outcome("a", 50.0, wrong_bids=rare + (("common", "'1C' (str)"),)),
                Outcome("b", 50.0, wrong_bids=rare + (("common", "'1C' (str)"),)),
                Outcome("c", 50.0, wrong_bids=rare[:2] + (("common", "'1C' (str)"),)),
                Outcome("d", 50.0, wrong_bids=(("common", "'1C' (str)"),)))
    pairs = similar_pairs(outcomes, at_least=2)
    assert [(pair.first, pair.second, pair.shared) for pair in pairs] == [("a", "b", 2)]
    assert pairs[0].evidence == rare[2:4]
    assert similar_pairs(outcomes) == ()  # two are not enough to list


def test_deal_separating_shows_each_misreadings_bid():
    result = run("deal", "--separating", "r3-unbalanced-only,1nt-15-17", "--count", 2)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all("the assignment" in line and "1nt-15-17" in line
                                   for line in lines)


def test_deal_separating_says_what_is_wrong():
    result = run("deal", "--separating", "no-such-thing")
    assert result.exit_code == 2 and "--separating" in result.stderr
    result = run("deal", "--separating", "r3-unbalanced-only", "--count", 0)
    assert result.exit_code == 2 and "ask for 1 to" in result.stderr
    result = run("deal", "--separating", ",")
    assert result.exit_code == 2 and "give misreading ids" in result.stderr


def test_the_synthetic_class_with_similar_pairs_in_text(tmp_path):
    result = run("class", write_class(tmp_path), "--hands", 0, "--similar")
    assert result.exit_code == 0, result.output
    assert "Misreadings the class holds:" in result.stdout
