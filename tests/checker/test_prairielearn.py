"""The PrairieLearn question: its files, the seed and the results, and the question
unpacked into PrairieLearn's documented container layout (/grade/{data,student,tests,
serverFilesCourse,results}) with its entry point run on fake submissions, the checker
not being root."""

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import jsonschema
import pytest

from bidder.checker import prairielearn
from bidder.checker.bundle import Bundle, config_bytes
from bidder.checker.confine import landlock_abi
from bidder.checker.points import Grading
from bidder.checker.prairielearn import (QUESTION, fitted, grade, info, main,
                                         question_files, submission_file, submission_seed,
                                         write_question)
from helpers import cheating_stub
from needs import missing

STUDENTS = Path(__file__).parent / "students"
SCHEMAS = Path(__file__).parent / "schemas"
SYSTEM_PYTHON = "/usr/bin/python3"  # readable by every user, as /venv is in the image
UNPRIVILEGED = 65534  # nobody


def results_schema() -> dict:
    return json.loads((SCHEMAS / "prairielearn_results.schema.json").read_text())


# The question's files --------------------------------------------------------------------

def test_the_question_and_the_shared_folder():
    files = question_files(Bundle(hands=50, timeout=12))
    folder = f"questions/{QUESTION}"
    assert sorted(files) == [
        f"{folder}/info.json", f"{folder}/question.html",
        f"{folder}/tests/bidder_autograder.json", f"{folder}/tests/initial_code.py",
        f"{folder}/tests/run.sh"] + sorted(
        f"serverFilesCourse/bidder/wheels/{package}-{version}-py3-none-any.whl"
        for package, version in (name.split("-")[:2] for name in prairielearn.wheels()))
    data = json.loads(files[f"{folder}/info.json"])
    assert data["externalGradingOptions"] == {
        "enabled": True, "image": "prairielearn/grader-python",
        "serverFilesCourse": ["bidder/"], "entrypoint": "/grade/tests/run.sh", "timeout": 62}
    assert (data["type"], data["gradingMethod"]) == ("v3", "External")
    html = files[f"{folder}/question.html"].decode()
    assert '<pl-file-editor file-name="bid.py"' in html
    assert 'source-file-name="tests/initial_code.py"' in html
    assert "<pl-external-grader-results>" in html
    assert json.loads(files[f"{folder}/tests/bidder_autograder.json"])[
        "submission_name"] == "bid.py"
    assert files[f"{folder}/tests/run.sh"].startswith(b"#!/bin/bash\n")


def test_the_uuid_is_the_same_for_a_question_written_again_and_differs_by_name():
    first, again, other = (info(Bundle(), name)["uuid"] for name in ("a", "a", "b"))
    assert first == again != other and uuid.UUID(first).version == 5


@pytest.mark.parametrize("timeout, seconds", [(0.1, 51), (10, 60), (549.5, 600), (550, 600),
                                              (1000, 600)],
                         ids=["the least", "the default", "just under the limit",
                              "at the limit", "beyond PrairieLearn's 600 s"])
def test_the_grading_timeout(timeout, seconds):
    assert info(Bundle(timeout=timeout), QUESTION)["externalGradingOptions"][
        "timeout"] == seconds


@pytest.mark.parametrize("name, valid", [
    (None, "bid.py"), ("bid.py", "bid.py"), ("_x9.py", "_x9.py"), ("Opening.py", "Opening.py"),
    ("bid", None), ("bid.pyc", None), ("a/bid.py", None), ("../bid.py", None),
    ("9bid.py", None), ("my bid.py", None), (".py", None),
], ids=lambda value: str(value))
def test_the_submitted_file_is_a_module_name(name, valid):
    if valid is None:
        with pytest.raises(ValueError, match="cannot be the submitted file's name"):
            submission_file(Bundle(submission_name=name))
    else:
        assert submission_file(Bundle(submission_name=name)) == valid


def test_write_question_writes_every_file_and_run_sh_executable(tmp_path):
    written = write_question(str(tmp_path), Bundle(hands=5))
    assert sorted(written) == sorted(question_files(Bundle(hands=5)))
    modes = {path: (tmp_path / path).stat().st_mode & 0o777 for path in written}
    assert modes.pop(f"questions/{QUESTION}/tests/run.sh") == 0o755
    assert set(modes.values()) == {0o644}


# The seed and the results ----------------------------------------------------------------

@pytest.mark.parametrize("environ, seed, expected", [
    ({"BIDDER_CHECK_SEED": "77"}, 5, 77),
    ({}, 5, 5),
    ({"BIDDER_CHECK_SEED": ""}, None, int.from_bytes(
        __import__("hashlib").sha256(b"x = 1\n").digest()[:4], "big")),
], ids=["the environment first", "then the question's own seed",
        "then one drawn from the submitted file"])
def test_submission_seed(tmp_path, environ, seed, expected):
    (tmp_path / "bid.py").write_text("x = 1\n")
    assert submission_seed(Bundle(seed=seed), str(tmp_path / "bid.py"), environ) == expected


def test_a_course_secret_draws_the_seed_from_the_submitted_file(tmp_path):
    (tmp_path / "bid.py").write_text("x = 1\n")
    drawn = int.from_bytes(__import__("hashlib").sha256(b"x = 1\n").digest()[:4], "big")
    bundle = Bundle(secret="the course's")
    assert submission_seed(bundle, str(tmp_path / "bid.py"), {}) == bundle.own_seed(
        str(drawn)) != drawn


def test_no_submitted_file_is_not_gradable(tmp_path):
    results = grade(Bundle(submission_name="bid.py"), str(tmp_path), {})
    assert results == {
        "gradable": False, "score": 0.0,
        "message": "No submission to check: upload a file named bid.py that defines "
                   "highCardPoints, distributionPoints, openingBid.",
        "format_errors": ["No submission to check: upload a file named bid.py that "
                          "defines highCardPoints, distributionPoints, openingBid."]}


def test_results_within_prairielearns_megabyte_are_left_alone():
    results = {"score": 1.0, "output": "x" * 100, "tests": [{"output": "y"}]}
    assert fitted(dict(results)) == results


@pytest.mark.parametrize("tests_output, summary", [(600_000, 600_000), (10, 1_200_000)],
                         ids=["the tests' outputs go first", "then the summary's end"])
def test_results_beyond_a_megabyte_are_cut(tests_output, summary):
    results = fitted({"score": 1.0, "output": "s" * summary,
                      "tests": [{"name": "t", "output": "o" * tests_output}]})
    assert len(json.dumps(results)) <= prairielearn.RESULTS_LIMIT
    assert results["tests"] == [{"name": "t"}]


def test_main_prints_the_results_of_the_submitted_module(tmp_path, capsys):
    (tmp_path / "tests").mkdir()
    (tmp_path / "student").mkdir()
    settings = tmp_path / "tests" / "bidder_autograder.json"
    settings.write_bytes(config_bytes(Bundle(hands=10, submission_name="bid.py")))
    shutil.copy(STUDENTS / "correct.py", tmp_path / "student" / "bid.py")
    environ = {"PATH": os.environ["PATH"], "SECRET": "x", "BIDDER_CHECK_SEED": "3"}
    assert main([str(settings), str(tmp_path / "student")], environ) == 0
    printed = capsys.readouterr()
    results = json.loads(printed.out)
    jsonschema.validate(results, results_schema())
    assert (results["gradable"], results["score"], results["seed"]) == (True, 1.0, 3)
    assert "SECRET" not in environ and results["isolation"] in printed.err


# In PrairieLearn's container layout -------------------------------------------------------

CHEATS = '''import json, os
for path in ({results!r}, {results!r} + "/results.json", {results!r} + "/../forged.json"):
    try:
        if path.endswith(".json"):
            with open(path, "w") as stream:
                json.dump({{"gradable": True, "score": 1.0, "message": "forged"}}, stream)
        else:
            os.makedirs(path, exist_ok=True)
    except OSError:
        pass
'''


BORROWS = '''import glob, sys
for folder in glob.glob("/tmp/*/bidder/..") + glob.glob("/tmp/*/*/bidder/.."):
    sys.path.insert(0, folder)
try:
    from bidder import highCardPoints, distributionPoints, openingBid
except Exception:
    pass
'''


@pytest.fixture(scope="module")
def question():
    """The question written once, for every fake submission."""
    folder = tempfile.mkdtemp(prefix="bidder-question-")
    write_question(folder, Bundle(hands=20, seed=5, isolation="fallback",
                                  submission_name="bid.py", grading=Grading()))
    yield Path(folder)
    shutil.rmtree(folder)


def job(question: Path, source: str, owner: int | None) -> Path:
    """A /grade-like root, as PrairieLearn mounts a job: the question's tests, the shared
    folder, the submitted file and data.json; readable by every user (the checker's user
    reads it), owned by *owner* when one is given."""
    root = Path(tempfile.mkdtemp(prefix="bidder-grade-"))
    root.chmod(0o755)
    shutil.copytree(question / "questions" / QUESTION / "tests", root / "tests")
    shutil.copytree(question / "serverFilesCourse", root / "serverFilesCourse")
    (root / "student").mkdir()
    (root / "student" / "bid.py").write_text(source)
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text('{"params": {}, "submitted_answers": {}}')
    if owner is not None:
        for path in [root, *root.rglob("*")]:
            os.chown(path, owner, owner)
    return root


def entry_command(mode: str) -> tuple[list[str], dict, int | None]:
    """How the entry point runs in *mode*, the variables it gets, and who owns the job:
    'as root', the student's code run as a user as the image's ag; or 'unprivileged' from
    the start."""
    if shutil.which("setpriv") is None:
        missing("setpriv (util-linux) is not installed", "the PrairieLearn question's tests")
    if not os.path.exists(SYSTEM_PYTHON):
        missing(f"{SYSTEM_PYTHON} is not installed", "the PrairieLearn question's tests")
    environ = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
               "BIDDER_PYTHON": SYSTEM_PYTHON, "GRADER_SECRET": "s3cret"}
    root = os.geteuid() == 0
    if mode == "as root":
        if not root:
            missing("the tests do not run as root", "the entry point run as root")
        return ["bash"], dict(environ, BIDDER_USER="nobody"), None
    if root:
        return (["setpriv", f"--reuid={UNPRIVILEGED}", f"--regid={UNPRIVILEGED}",
                 "--clear-groups", "bash"], environ, UNPRIVILEGED)
    return ["bash"], environ, None


@pytest.mark.parametrize("mode", ["as root", "unprivileged"])
@pytest.mark.parametrize("student, gradable, score", [
    ("correct", True, 1.0), ("stub", True, None), ("broken", False, 0.0),
    ("cheats", True, None), ("borrows", True, None),
], ids=["a right module", "the stub", "a module that does not compile",
        "a module that writes the results file",
        "a module that imports the checker's own reference"])
def test_the_entry_point_grades_in_prairielearns_layout(question, mode, student, gradable,
                                                        score, nobody):
    command, environ, owner = entry_command(mode)
    sources = {"correct": (STUDENTS / "correct.py").read_text(),
               "stub": (STUDENTS / "stub.py").read_text(),
               "broken": "def openingBid(hand)\n    return None\n"}
    root = job(question, sources.get(student, ""), owner)
    try:
        if student == "cheats":
            (root / "student" / "bid.py").write_text(cheating_stub(
                "Cheat: writes PrairieLearn's results file with full marks, answers nothing.",
                CHEATS.format(results=str(root / "results"))))
        if student == "borrows":
            if not landlock_abi() and mode == "unprivileged":
                pytest.skip("an unprivileged checker without Landlock shares its user with "
                            "the student's code, which reads the checker: the report says "
                            "no landlock")
            (root / "student" / "bid.py").write_text(cheating_stub(
                "Cheat: imports the reference from the checker's unpacked wheels, wherever "
                "they are.", BORROWS))
        environ["BIDDER_GRADE"] = str(root)
        run = subprocess.run(command + [str(root / "tests" / "run.sh")], env=environ,
                             capture_output=True, text=True, cwd=root)
        assert run.returncode == 0, run.stderr
        results = json.loads((root / "results" / "results.json").read_text())
        jsonschema.validate(results, results_schema())
        assert results["gradable"] is gradable
        if score is not None:
            assert results["score"] == score
        else:
            assert 0 < results["score"] < 0.1 and results.get("message") != "forged"
        if gradable:
            assert round(sum(test["max_points"] for test in results["tests"]), 2) == 100
            isolation = results["isolation"]
            held = f"own uid {UNPRIVILEGED} " if mode == "as root" else \
                "no uid: the checker is not root"
            assert isolation.startswith("fallback: ") and held in isolation
            if landlock_abi():
                assert "Landlock" in isolation
            assert "seccomp: no sockets" in isolation
        assert "s3cret" not in json.dumps(results)
        assert sorted(os.listdir(root / "results")) == ["results.json"]
        assert not (root / "forged.json").exists() or not landlock_abi()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_with_no_such_user_the_student_runs_as_a_uid_of_its_own(question, nobody):
    command, environ, owner = entry_command("as root")
    root = job(question, (STUDENTS / "correct.py").read_text(), owner)
    try:
        environ.update(BIDDER_GRADE=str(root), BIDDER_USER="no-such-user-here")
        run = subprocess.run(command + [str(root / "tests" / "run.sh")], env=environ,
                             capture_output=True, text=True, cwd=root)
        assert ("there is no user no-such-user-here (BIDDER_USER): the student's code runs "
                "as a uid of its own") in run.stderr
        results = json.loads((root / "results" / "results.json").read_text())
        jsonschema.validate(results, results_schema())
        assert (results["gradable"], results["score"]) == (True, 1.0)
        assert "own uid " in results["isolation"]
    finally:
        shutil.rmtree(root, ignore_errors=True)
