"""`bidder check` in the graders' formats: --format, -o, --weights, --hidden, --bundle."""

import json
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from click.testing import CliRunner

from bidder.checker.formats import FORMATS
from bidder.cli.check import CHECK_FORMATS
from bidder.cli.commands import check, cli
from bidder.checker.points import VISIBILITIES

SCHEMAS = Path(__file__).parents[1] / "checker" / "schemas"
PLAIN = Path(__file__).parents[1] / "checker" / "students" / "correct.py"
PASS_STRING = ("from correct import *\nimport correct\n"
               "def openingBid(hand):\n    bid = correct.openingBid(hand)\n"
               "    return 'Pass' if bid is None else bid\n")


def run(*args, env=None):
    return CliRunner().invoke(cli, ["check", *map(str, args)], env=env)


@pytest.fixture
def students(tmp_path):
    """A folder with the plain solution and one that writes no bid as 'Pass'."""
    shutil.copy(PLAIN, tmp_path / "correct.py")
    (tmp_path / "pass_string.py").write_text(PASS_STRING)
    return tmp_path


def validate(text: str, name: str) -> dict:
    data = json.loads(text)
    jsonschema.Draft202012Validator(
        json.loads((SCHEMAS / f"{name}.schema.json").read_text())).validate(data)
    return data


def test_the_command_offers_every_registered_format_and_visibility():
    assert CHECK_FORMATS == tuple(FORMATS)
    hidden = next(param for param in check.params if param.name == "hidden")
    assert tuple(hidden.type.choices) == VISIBILITIES


@pytest.mark.parametrize("student, status", [("correct.py", 0),
                                             ("pass_string.py", 1)],
                         ids=["all right: 0", "some wrong: 1"])
@pytest.mark.parametrize("output_format, schema", [
    ("json", "check_report"), ("gradescope", "gradescope_results"),
    ("prairielearn", "prairielearn_results"), ("junit", None)])
def test_each_format_from_the_same_run_with_the_same_exit_status(
        students, student, status, output_format, schema):
    result = run(students / student, "--hands", 20, "--format", output_format)
    assert result.exit_code == status
    if schema:
        validate(result.stdout, schema)
    else:
        root = ElementTree.fromstring(result.stdout.encode())
        assert (root.get("failures") == "0") == (status == 0)


def test_output_goes_to_a_file_whole_and_stdout_stays_empty(students):
    target = students / "results.json"
    result = run(students / "pass_string.py", "--hands", 20, "--format", "gradescope",
                 "-o", target)
    assert result.exit_code == 1 and result.stdout == ""
    data = validate(target.read_text(), "gradescope_results")
    assert 0 < data["score"] < 100
    assert [path.name for path in students.iterdir() if path.name.startswith(".")] == []


def test_a_report_that_cannot_be_written_is_a_failure(students):
    result = run(students / "correct.py", "--hands", 0, "--format", "junit",
                 "-o", students / "no" / "such" / "report.xml")
    assert result.exit_code == 2
    assert "the report could not be written: No such file or directory" in result.stderr


def test_weights_from_a_toml_file_set_the_points(students):
    weights = students / "weights.toml"
    weights.write_text("total = 10\n[functions]\nopeningBid = 0\n")
    result = run(students / "pass_string.py", "--hands", 20, "--format", "prairielearn",
                 "--weights", weights)
    data = validate(result.stdout, "prairielearn_results")
    assert data["score"] == 1.0  # openingBid, the one function wrong, weighs nothing
    assert {test["max_points"] for test in data["tests"]
            if test["name"].startswith("openingBid")} == {0}


@pytest.mark.parametrize("text, message", [
    ("[functions]\nopeningBid = 2\nbidding = 1\n",
     "Invalid value for --weights: {path}, line 3: 'bidding' is not a graded function"),
    ('{"total": 100,\n "rules": {"R6": "two"}}',
     "Invalid value for --weights: {path}, line 2: the weight of R6 must be a number"),
    ("total = \n", "Invalid value for --weights: {path}: not TOML: "),
], ids=["an unknown function", "a weight that is no number", "a file that is not TOML"])
def test_a_bad_weights_file_is_a_usage_error_naming_the_line(students, text, message):
    weights = students / "weights.toml"
    weights.write_text(text)
    result = run(students / "correct.py", "--hands", 0, "--weights", weights)
    assert result.exit_code == 2
    assert message.format(path=weights) in result.stderr.replace("\n", " ")


def test_hidden_hands_wait_for_the_due_date_on_gradescope(students):
    result = run(students / "pass_string.py", "--hands", 20, "--format", "gradescope",
                 "--hidden", "after_due_date")
    tests = validate(result.stdout, "gradescope_results")["tests"]
    assert {test["visibility"] for test in tests} == {"visible", "after_due_date"}


@pytest.mark.parametrize("args, env, seed", [
    ([], {"BIDDER_CHECK_SEED": "11"}, 11),
    (["--seed", "12"], {"BIDDER_CHECK_SEED": "11"}, 12),
    ([], {}, 1),
], ids=["from BIDDER_CHECK_SEED", "--seed first", "else 1"])
def test_the_seed_may_come_from_the_environment(students, monkeypatch, args, env, seed):
    import bidder.checker as checking

    seeds, real = [], checking.check_module

    def recording(student, hands, seed, *rest):
        seeds.append(seed)
        return real(student, hands, seed, *rest)
    monkeypatch.setattr(checking, "check_module", recording)
    monkeypatch.delenv("BIDDER_CHECK_SEED", raising=False)
    result = run(students / "correct.py", "--hands", 3, "--format", "json", *args,
                 env=env)
    assert result.exit_code == 0 and seeds == [seed]


def test_a_check_that_cannot_run_is_a_failure(students, monkeypatch):
    def refuse(*args):
        raise RuntimeError("bubblewrap cannot run here")
    monkeypatch.setattr("bidder.checker.check_module", refuse)
    result = run(students / "correct.py", "--format", "json")
    assert result.exit_code == 2 and "bubblewrap cannot run here" in result.stderr


# --bundle --------------------------------------------------------------------------------

def bundled_config(path: Path) -> dict:
    return json.loads(zipfile.ZipFile(path).read("bidder_autograder.json"))


def test_bundle_writes_a_gradescope_autograder_with_the_options(students):
    weights = students / "weights.json"
    weights.write_text('{"functions": {"openingBid": 2}}')
    target = students / "autograder.zip"
    result = run("--bundle", "gradescope", target, "--hands", 500, "--weights", weights,
                 "--hidden", "after_due_date", "--submission-name", "bid.py",
                 "--timeout", 20, "--cpu", 4)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"wrote {target}: upload it")
    config = bundled_config(target)
    assert (config["hands"], config["seed"], config["hidden"], config["submission_name"],
            config["timeout"], config["cpu"]) == (500, None, "after_due_date", "bid.py", 20, 4)
    assert config["weights"]["functions"]["openingBid"] == 2


@pytest.mark.parametrize("args, env, seed", [
    (["--seed", "7"], {}, 7),
    ([], {"BIDDER_CHECK_SEED": "8"}, 8),
    ([], {}, None),
], ids=["a seed given fixes the hands", "so does BIDDER_CHECK_SEED",
        "else each submission's own"])
def test_bundle_fixes_the_seed_only_when_one_is_given(students, args, env, seed):
    target = students / "autograder.zip"
    assert run("--bundle", "gradescope", target, *args, env=env).exit_code == 0
    assert bundled_config(target)["seed"] == seed
    secret = bundled_config(target)["secret"]
    assert (secret is None) if seed is not None else len(secret) == 32


@pytest.mark.parametrize("extra", [["{student}"], ["-o", "out.json"], ["--format", "json"]],
                         ids=["a student", "an output", "a format"])
def test_bundle_takes_no_student_output_or_format(students, extra):
    args = [item.format(student=students / "correct.py") for item in extra]
    result = run("--bundle", "gradescope", students / "a.zip", *args)
    assert result.exit_code == 2
    assert "--bundle writes an autograder: give it no STUDENT, --format or --output" \
        in result.stderr
    assert not (students / "a.zip").exists()


def test_a_bundle_that_cannot_be_written_is_a_failure(students):
    result = run("--bundle", "gradescope", students / "missing" / "a.zip")
    assert result.exit_code == 2
    assert "the bundle could not be written: No such file or directory" in result.stderr


def test_no_student_and_no_bundle_is_a_usage_error():
    result = run()
    assert result.exit_code == 2
    assert "Missing argument 'STUDENT' (or --bundle gradescope OUT.zip, or --bundle " \
           "prairielearn DIR)." in result.stderr


def test_bundle_writes_a_prairielearn_question_with_the_options(students):
    target = students / "course"
    result = run("--bundle", "prairielearn", target, "--hands", 300, "--timeout", 20,
                 "--submission-name", "opening.py")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        f"wrote {target}/questions/bidderOpeningBid and {target}/serverFilesCourse/bidder: "
        f"copy both folders into your PrairieLearn course's root (it grades on the "
        f"prairielearn/grader-python image)\n")
    question = target / "questions" / "bidderOpeningBid"
    config = json.loads((question / "tests" / "bidder_autograder.json").read_text())
    assert (config["hands"], config["timeout"], config["submission_name"], config["cpu"]) == (
        300, 20, "opening.py", None)
    assert 'file-name="opening.py"' in (question / "question.html").read_text()
    assert json.loads((question / "info.json").read_text())[
        "externalGradingOptions"]["timeout"] == 70


@pytest.mark.parametrize("name", ["../x.py", "bid", "my bid.py", "1bid.py"],
                         ids=["a path", "no .py", "a space", "a digit first"])
def test_a_prairielearn_question_needs_a_module_name(students, name):
    result = run("--bundle", "prairielearn", students / "course", "--submission-name", name)
    assert result.exit_code == 2
    assert "Invalid value for --submission-name" in result.stderr
    assert "cannot be the submitted file's name: give a module's name such as bid.py" \
        in result.stderr
    assert not (students / "course").exists()
