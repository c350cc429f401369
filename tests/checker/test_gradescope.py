"""The Gradescope autograder: its wheels, how it finds the submission and the seed, and the
whole zip unpacked, set up and run against a fake submission, end to end."""

import base64
import hashlib
import io
import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from bidder.checker.gradescope import (CONFIG_NAME, Bundle, autograde, bundle_files,
                                        find_submission, main, seal_metadata,
                                        submission_seed, wheel, write_atomically,
                                        write_bundle)
from bidder.checker import bundle as bundle_module
from bidder.checker.bundle import config_bytes, wheels
from bidder.checker.sandbox import MIB, Limits
from bidder.checker.points import Grading, parse_weights
from helpers import cheating_stub

SCHEMAS = Path(__file__).parent / "schemas"
PLAIN = Path(__file__).parent / "students" / "correct.py"
WEIGHTS = parse_weights('{"functions": {"openingBid": 2}, "rules": {"R6": 2}, "total": 50}')


def results_schema() -> dict:
    return json.loads((SCHEMAS / "gradescope_results.schema.json").read_text())


# Wheels made from this installation ------------------------------------------------------

@pytest.mark.parametrize("package, entry_point, module", [
    ("bidder", "bidder = bidder.cli:main", "bidder/__init__.py"),
    ("click", None, "click/__init__.py"),
    ("pyseccomp", None, "pyseccomp.py"),
], ids=["bidder with its command", "click, all the checker needs besides",
        "pyseccomp, a single module, for the seccomp rung"])
def test_a_wheel_of_an_installed_package_is_whole_and_recorded(package, entry_point, module):
    name, data = wheel(package)
    version = name.split("-")[1]
    assert name == f"{package}-{version}-py3-none-any.whl"
    archive = zipfile.ZipFile(io.BytesIO(data))
    info = f"{package}-{version}.dist-info"
    files = set(archive.namelist())
    assert module in files
    assert all(path.startswith((f"{package}/", info)) for path in files - {module})
    assert not any("__pycache__" in path or path.endswith(".pyc") for path in files)
    metadata = archive.read(f"{info}/METADATA").decode()
    assert f"Name: {package}" in metadata and f"Version: {version}" in metadata
    assert b"Tag: py3-none-any" in archive.read(f"{info}/WHEEL")
    record = dict(line.split(",", 1) for line in archive.read(f"{info}/RECORD").decode()
                  .splitlines())
    assert set(record) == files and record[f"{info}/RECORD"] == ","
    for path, entry in record.items():
        if path != f"{info}/RECORD":
            content = archive.read(path)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
            assert entry == f"sha256={digest.decode()},{len(content)}"
    points = f"{info}/entry_points.txt"
    assert (entry_point in archive.read(points).decode()) if entry_point else (
        points not in files)


def test_the_bundle_holds_the_scripts_settings_and_wheels_at_its_root(tmp_path):
    path = tmp_path / "autograder.zip"
    write_bundle(str(path), Bundle(hands=50, grading=Grading(WEIGHTS, "after_due_date")))
    archive = zipfile.ZipFile(path)
    names = archive.namelist()
    assert names[:3] == ["setup.sh", "run_autograder", CONFIG_NAME]
    assert sorted(name.split("-")[0] for name in names[3:]) == [
        "wheels/bidder", "wheels/click", "wheels/pyseccomp"]
    modes = {info.filename: info.external_attr >> 16 & 0o777 for info in archive.infolist()}
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755
    assert modes[CONFIG_NAME] == 0o644
    config = json.loads(archive.read(CONFIG_NAME))
    assert (config["hands"], config["seed"], config["hidden"]) == (50, None, "after_due_date")
    assert Bundle.from_dict(config) == Bundle(50, None, grading=Grading(
        parse_weights(json.dumps(WEIGHTS.to_dict())), "after_due_date"))
    assert b"apt-get install -y --no-install-recommends" in archive.read("setup.sh")
    assert b"--no-index --no-deps" in archive.read("setup.sh")
    assert b"packages+=(libseccomp2)" in archive.read("setup.sh")


@pytest.mark.parametrize("bundle, limits", [
    (Bundle(), Limits(timeout=10.0, memory=1024 * MIB)),
    (Bundle(timeout=2.5, memory=64, cpu=1), Limits(timeout=2.5, memory=64 * MIB,
                                                     cpu_seconds=1)),
    (Bundle(timeout=30.0, cpu=60, secret="s"), Limits(timeout=30.0, cpu_seconds=60)),
], ids=["defaults", "cpu-below-the-wall", "cpu-above-the-wall"])
def test_the_settings_come_back_whole_and_give_the_limits(bundle, limits):
    read = Bundle.from_dict(json.loads(config_bytes(bundle)))
    assert replace(read, grading=bundle.grading) == bundle  # the weights come back written out
    assert bundle.limits() == limits
    assert bundle.limits().cpu == (bundle.cpu or 11)


def test_settings_written_before_the_cpu_seconds_read_as_the_wall_time():
    config = Bundle(timeout=4.0).to_dict()
    del config["cpu"]
    assert Bundle.from_dict(config).limits().cpu == 5


def test_the_wheels_are_those_of_the_packages_installed_here(monkeypatch):
    real = bundle_module.importlib.util.find_spec
    monkeypatch.setattr(bundle_module.importlib.util, "find_spec",
                        lambda name: None if name == "pyseccomp" else real(name))
    assert sorted(name.split("-")[0] for name in wheels()) == ["bidder", "click"]


def test_the_same_settings_make_the_same_files():
    assert bundle_files(Bundle(seed=3)) == bundle_files(Bundle(seed=3))


def test_write_atomically_leaves_nothing_behind_when_it_fails(tmp_path):
    target = tmp_path / "taken"
    target.mkdir()
    with pytest.raises(OSError):
        write_atomically(str(target), b"data")
    assert os.listdir(tmp_path) == ["taken"]
    write_atomically(str(tmp_path / "file"), b"data")
    assert (tmp_path / "file").read_bytes() == b"data"


# Finding the submission and the seed -----------------------------------------------------

DEFINES_ALL = "def highCardPoints(h):\n    pass\ndef distributionPoints(h):\n    pass\n" \
              "def openingBid(h):\n    pass\n"


@pytest.mark.parametrize("files, name, chosen", [
    ({"anything.py": "x = 1\n"}, None, "anything.py"),
    ({"a_helper.py": "def suit_lengths(h):\n    pass\n", "bid.py": DEFINES_ALL}, None,
     "bid.py"),
    ({"re_export.py": "from helper import highCardPoints, distributionPoints, openingBid\n",
      "helper.py": "def highCardPoints(h):\n    pass\n"}, None, "re_export.py"),
    ({"b.py": DEFINES_ALL, "a.py": DEFINES_ALL}, None, "a.py"),
    ({"sub/deep.py": DEFINES_ALL, "top.py": DEFINES_ALL}, None, "top.py"),
    ({"sub/deep.py": DEFINES_ALL, "top.py": "x = 1\n"}, None, "sub/deep.py"),
    ({"broken.py": "def openingBid(hand)\n"}, None, "broken.py"),
    ({"bid.py": DEFINES_ALL, "mine.py": "x = 1\n"}, "mine.py", "mine.py"),
    ({"bid.py": DEFINES_ALL}, "mine.py", None),
    ({"notes.txt": DEFINES_ALL, ".hidden/x.py": DEFINES_ALL,
      "__pycache__/y.py": DEFINES_ALL}, None, None),
], ids=["the only Python file", "the file defining the functions, not its helper",
        "a file importing them counts", "a tie goes to the first by name",
        "the top level before a subfolder", "a subfolder when it alone defines them",
        "a file that does not compile is still checked", "the configured name",
        "the configured name missing", "no Python file"])
def test_find_submission(tmp_path, files, name, chosen):
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    found = find_submission(str(tmp_path), name)
    assert (None if found is None else os.path.relpath(found, tmp_path)) == chosen


@pytest.mark.parametrize("environ, seed, metadata, expected", [
    ({"BIDDER_CHECK_SEED": "77"}, 5, '{"id": 123}', 77),
    ({}, 5, '{"id": 123}', 5),
    ({"BIDDER_CHECK_SEED": ""}, None, '{"id": 123, "assignment": {}}', 123),
    ({}, None, '{"no id": 1}', 1),
    ({}, None, "not json", 1),
    ({}, None, None, 1),
], ids=["the environment first", "then the bundle's own seed",
        "then the submission's id", "no id: seed 1", "unreadable metadata: seed 1",
        "no metadata: seed 1"])
def test_submission_seed(tmp_path, environ, seed, metadata, expected):
    path = tmp_path / "submission_metadata.json"
    if metadata is not None:
        path.write_text(metadata)
    assert submission_seed(Bundle(seed=seed), str(path), environ) == expected


@pytest.mark.parametrize("kind", ["file", "link", "missing", "fifo", "not root"])
def test_the_metadata_is_made_roots_alone_before_the_students_code_runs(tmp_path, kind,
                                                                       monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("only root can give the file to root")
    target, path = tmp_path / "elsewhere.json", tmp_path / "submission_metadata.json"
    target.write_text("{}")
    os.chown(target, 61_299, 61_299)
    target.chmod(0o644)
    if kind in ("file", "not root"):
        target.rename(path)
        target = path
    elif kind == "link":
        path.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(path)
    if kind == "not root":
        monkeypatch.setattr(os, "geteuid", lambda: 61_299)
    seal_metadata(str(path))
    monkeypatch.undo()
    info = target.stat()
    assert ((info.st_uid, info.st_mode & 0o777) == (0, 0o600)) is (kind == "file")


def test_a_course_secret_draws_the_seed_from_the_submission_id(tmp_path):
    path = tmp_path / "submission_metadata.json"
    path.write_text('{"id": 123}')
    bundle = Bundle(secret="the course's")
    assert submission_seed(bundle, str(path), {}) == bundle.own_seed("123") != 123


@pytest.mark.parametrize("name, wanted", [
    (None, "upload a Python file (.py) that defines"),
    ("bid.py", "upload a file named bid.py that defines"),
], ids=["any Python file", "a named file"])
def test_no_submission_scores_zero_and_says_what_to_upload(tmp_path, name, wanted):
    results = autograde(Bundle(submission_name=name), str(tmp_path), "", {})
    jsonschema.validate(results, results_schema())
    assert results["score"] == 0 and wanted in results["output"]


# Inside Gradescope -----------------------------------------------------------------------

def autograder_folders(tmp_path, bundle: Bundle) -> dict[str, str]:
    """A source folder holding the bundle's files, a submission and a results folder."""
    source, submission = tmp_path / "source", tmp_path / "submission"
    submission.mkdir()
    shutil.copy(PLAIN, submission / "correct.py")
    (submission / "helper.py").write_text("x = 1\n")
    write_bundle(str(tmp_path / "autograder.zip"), bundle)
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        for info in archive.infolist():  # as unzip does, with each file's mode
            os.chmod(archive.extract(info, source), info.external_attr >> 16 & 0o777)
    (tmp_path / "submission_metadata.json").write_text('{"id": 4242}')
    return {"BIDDER_SOURCE": str(source), "BIDDER_SUBMISSION": str(submission),
            "BIDDER_RESULTS": str(tmp_path / "results"),
            "BIDDER_METADATA": str(tmp_path / "submission_metadata.json")}


def test_main_checks_the_submission_and_writes_results_json(tmp_path, capsys):
    paths = autograder_folders(tmp_path, Bundle(hands=30, grading=Grading(WEIGHTS)))
    assert main(dict(paths)) == 0  # main drops what is not on its allow-list
    results = json.loads(Path(paths["BIDDER_RESULTS"], "results.json").read_text())
    jsonschema.validate(results, results_schema())
    assert results["score"] == 50
    assert results["extra_data"] == {"module": "correct.py", "passed": True,
                                     "hidden": "visible", "misreadings": [], "seed": 4242,
                                     "file": "correct.py"}
    assert capsys.readouterr().out.startswith("Checking correct.py: ")


def test_a_results_folder_the_checker_cannot_chmod_is_no_failure(tmp_path, monkeypatch,
                                                                  capsys):
    paths = autograder_folders(tmp_path, Bundle(hands=0))
    chmod = os.chmod

    def refuse(path, mode):
        if path == paths["BIDDER_RESULTS"]:
            raise PermissionError(path)
        chmod(path, mode)

    monkeypatch.setattr(os, "chmod", refuse)
    assert main(dict(paths)) == 0
    assert json.loads(Path(paths["BIDDER_RESULTS"], "results.json").read_text())["tests"]
    capsys.readouterr()


def test_python_dash_m_runs_main_with_the_environment(tmp_path, monkeypatch, capsys):
    paths = autograder_folders(tmp_path, Bundle(hands=0, seed=9))
    monkeypatch.delitem(sys.modules, "bidder.checker.gradescope")
    for key, value in paths.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as ended:
        runpy.run_module("bidder.checker.gradescope", run_name="__main__")
    assert ended.value.code == 0
    results = json.loads(Path(paths["BIDDER_RESULTS"], "results.json").read_text())
    assert results["extra_data"]["seed"] == 9
    capsys.readouterr()


BORROWS = '''import glob, sys
for place in {places!r}:
    sys.path[:0] = glob.glob(place)
try:
    from bidder import highCardPoints, distributionPoints, openingBid
except Exception:
    pass
'''


@pytest.fixture
def open_folder():
    """A folder every user may pass through (pytest's own is root's alone), as
    /autograder is: what keeps the student's uid out is the bundle's doing."""
    folder = tempfile.mkdtemp(prefix="bidder-autograder-")
    os.chmod(folder, 0o755)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


def test_the_unpacked_zip_sets_up_and_grades_end_to_end(open_folder):
    """setup.sh installs bidder, click and pyseccomp from the wheels alone (no index, no
    other dependency) and leaves the source and the venv to root alone; then
    run_autograder, as Gradescope runs it (where bubblewrap cannot start), writes
    results.json: as root, the student's uid ran the module from the staged copies."""
    paths = autograder_folders(open_folder, Bundle(hands=40, isolation="fallback",
                                                grading=Grading(hidden="after_due_date")))
    environ = {**os.environ, **paths, "BIDDER_VENV": str(open_folder / "venv")}
    environ.pop("BIDDER_CHECK_SEED", None)
    source = Path(paths["BIDDER_SOURCE"])
    setup = subprocess.run(["bash", str(source / "setup.sh")], env=environ,
                           capture_output=True, text=True)
    assert setup.returncode == 0, setup.stderr
    installed = subprocess.run([str(open_folder / "venv" / "bin" / "python"), "-m", "pip",
                                "list", "--format", "json"], capture_output=True, text=True)
    assert sorted(item["name"] for item in json.loads(installed.stdout)
                  if item["name"] not in ("pip", "setuptools")) == [
        "bidder", "click", "pyseccomp"]
    for folder in (source, open_folder / "venv"):
        for path in [folder, *folder.rglob("*")]:
            if not path.is_symlink():
                assert path.stat().st_mode & 0o077 == 0, path
    assert os.stat(open_folder / "venv" / "bin" / "python").st_mode & 0o005  # the system's
    run = subprocess.run([str(source / "run_autograder")], env=environ, cwd=open_folder,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "RuntimeWarning" not in run.stderr  # the log holds the checker's report alone
    results = json.loads(Path(paths["BIDDER_RESULTS"], "results.json").read_text())
    jsonschema.validate(results, results_schema())
    assert results["score"] == 100 and results["extra_data"]["seed"] == 4242
    assert {test["visibility"] for test in results["tests"]} == {"visible", "after_due_date"}
    assert run.stdout.startswith("Checking correct.py: ")
    assert ("own uid" in run.stdout) is (os.geteuid() == 0)
    if os.geteuid() == 0:  # the student's uid cannot read the wheels or the venv, even
        config = json.loads((source / CONFIG_NAME).read_text())  # with no Landlock
        (source / CONFIG_NAME).write_text(json.dumps(dict(config,
                                                          isolation="fallback:uid+seccomp")))
        for submitted in Path(paths["BIDDER_SUBMISSION"]).iterdir():
            submitted.unlink()
        places = [str(source / "wheels" / "*.whl"),
                  str(open_folder / "venv" / "lib" / "*" / "site-packages")]
        Path(paths["BIDDER_SUBMISSION"], "bid.py").write_text(cheating_stub(
            "Cheat: imports the reference from the autograder's wheels or venv.",
            BORROWS.format(places=places)))
        run = subprocess.run([str(source / "run_autograder")], env=environ, cwd=open_folder,
                             capture_output=True, text=True)
        results = json.loads(Path(paths["BIDDER_RESULTS"], "results.json").read_text())
        assert results["score"] < 10, run.stdout
