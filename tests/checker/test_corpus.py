"""Hostile and real student modules, checked end to end in the real sandbox.

Each module in tests/students/ is copied into a folder of its own beside the plain correct
solution it may import, with @OUTSIDE@ (a folder of the checker's user) and @MARKER@ (a word
its processes carry) filled in. Every check must give the expected verdict, and after it:
no file outside the scratch space, no process left, no secret from the environment and no
traceback or control character in the report.
"""

import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from bidder.checker.text import text_report
from bidder.checker.report import WRONG_TYPE
from bidder.checker.check import check_module
from bidder.checker.sandbox import BUBBLEWRAP, FALLBACK, Limits, bubblewrap_problem
from bidder.checker.uid_lease import leased_uid
from needs import missing

STUDENTS = Path(__file__).parent / "students"
# the rungs an unprivileged checker (PrairieLearn's ag) gets: no uid of its own to give
UNPRIVILEGED = f"{FALLBACK}:seccomp+landlock"
HANDS = 20
# An endless loop is stopped by its CPU second, however busy the machine (a run that
# answers every hand uses a tenth of it); the wall time, ample, is for what waits.
LIMITS = Limits(timeout=20, cpu_seconds=1)
# but fills_disk writes 262 MB at each import, on the fallback's disk about half a CPU
# second of the kernel's, more on a busy machine: it keeps the CPU seconds of its wall time
OWN_LIMITS = {"fills_disk": Limits(timeout=20)}


def passes(report) -> None:
    assert report.passed, text_report(report)


def passes_unless_refused(report) -> None:
    """Every answer right, or, where the report says the module may start no process (a
    root checker without the uid rung), the fork it starts with refused."""
    if "no new processes" in report.isolation.describe():
        fails_with("could not be imported: PermissionError")(report)
    else:
        passes(report)


def fails_with(*texts):
    """The report does not pass, and its text says each of *texts*."""
    def check(report) -> None:
        assert not report.passed
        text = " ".join(text_report(report).split())
        for expected in texts:
            assert expected in text, text
    return check


def passes_saying(*texts):
    """The report passes (printing is a warning), and its text says each of *texts*."""
    def check(report) -> None:
        assert report.passed
        text = " ".join(text_report(report).split())
        assert all(expected in text for expected in texts), text
    return check


def every_answer(cause):
    def check(report) -> None:
        assert not report.passed
        assert report.mismatches and {verdict.cause for verdict in report.mismatches} == {cause}
        assert not any(verdict.right for verdict in report.verdicts)
    return check


NOT_CHECKED = "not checked"

# name: (isolations it is run under, what the report must say)
CORPUS = {
    "correct": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), passes),
    "imports_reference": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "ModuleNotFoundError: No module named 'bidder'",
        "the reference package is not available to the code being checked")),
    "runs_reference": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "RuntimeError: no interpreter could import bidder")),
    "always_equal": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), every_answer(WRONG_TYPE)),
    "lying_subclasses": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "returned 0 (lying_subclasses.Number); return an int",
        "(lying_subclasses.Text); return a str such as '1C'")),
    "float_and_bool": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "(float); return an int", "(bool); return an int")),
    "hunts_answers": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with("the count is")),
    "forges_results": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "the module wrote on the checker's channel", "nothing after that was trusted")),
    "patches_runner": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "returned 12 (int); return a str such as '1C'")),
    "malformed_channel": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "the module wrote on the checker's channel")),
    "escapes_terminal": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "U+001B[2JU+001B]0;ownedU+0007 cleared your screen",
        "raised ValueError: U+001B[31mred")),
    "reads_secrets": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "PATH=/usr/bin:/bin HOME=/tmp")),
    "writes_outside": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with("the count is")),
    "leaves_processes": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), passes_unless_refused),
    "hogs_memory": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "hogs_memory.py could not be imported: MemoryError")),
    "fills_disk": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), passes),
    "kills_checker": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with("the count is")),
    "closes_descriptors": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "the process ended", "while importing closes_descriptors.py")),
    "floods_output": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), passes_saying(
        "the module wrote directly to its output: flood flood", "more bytes, dropped")),
    "deletes_scratch": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), passes),
    "loops_at_import": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "no answer within the CPU time limit (CPU 1 s): stopped while importing "
        "loops_at_import.py")),
    "loops_in_a_call": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "no answer within the CPU time limit (CPU 1 s): stopped while computing "
        "openingBid('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C')",
        f"openingBid {NOT_CHECKED}")),
    "loops_in_the_first": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "stopped while computing highCardPoints('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C')",
        f"highCardPoints {NOT_CHECKED}", "distributionPoints 210/210 100.0%",
        "openingBid 210/210 100.0%")),
    "crashes_by_kind": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "Exceptions, by kind and line",
        "openingBid raised ValueError (crashes_by_kind.py, line 16, in openingBid) on",
        "openingBid raised ZeroDivisionError (crashes_by_kind.py, line 11, in shortest) "
        "on")),
    "exits": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "raised SystemExit: 3 (exits.py, line 11, in distributionPoints)",
        "the process ended (exit status 7) while computing openingBid(")),
    "exits_at_import": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "exits_at_import.py could not be imported: SystemExit: 3")),
    "stub": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "In short: highCardPoints and distributionPoints and openingBid return None for "
        "every hand: it looks like the unfinished stub")),
    "string_none": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "fit one misreading (none-as-string): No bid is written as the string 'None'.",
        "actual: 'None' (str); for no bid return the value None, not a string")),
    "breaks_runner": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "the checker's runner stopped with TypeError while computing highCardPoints(")),
    "lying_int": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "12 (lying_int.int); return an int")),
    "segfaults": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "the process was killed by signal 11, a segmentation fault while computing "
        "highCardPoints(")),
    "r3_skips_balanced": ((BUBBLEWRAP, FALLBACK, UNPRIVILEGED), fails_with(
        "wrong answers fit one misreading (r3-unbalanced-only): The 1C/1D rule (R3) is "
        "read as applying only to hands that are not balanced. The assignment says "
        "otherwise: R3 has no balance condition.",
        "openingBid on 31 hands that R3 (1 of a minor) decides: wrong answer")),
}
RUNS = [(name, isolation) for name, (isolations, _) in CORPUS.items()
        for isolation in isolations]
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def processes_with(marker: str) -> list[str]:
    """Command lines of living processes that carry *marker*."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as stream:
                line = stream.read()
        except OSError:
            continue
        if marker.encode() in line:
            found.append(line.decode(errors="replace"))
    return found


@pytest.mark.parametrize("name, isolation", RUNS, ids=[f"{name}-{isolation}"
                                                       for name, isolation in RUNS])
def test_a_student_module_is_judged_and_contained(tmp_path, monkeypatch, name, isolation):
    if isolation == BUBBLEWRAP and bubblewrap_problem():
        missing(bubblewrap_problem(), "the checker's sandbox tests")
    secret, marker = secrets.token_hex(16), f"mark{secrets.token_hex(8)}"
    monkeypatch.setenv("BIDDER_TEST_SECRET", secret)
    outside, folder = tmp_path / "outside", tmp_path / "submission"
    outside.mkdir()
    folder.mkdir()
    for module in ("correct", name):
        source = (STUDENTS / f"{module}.py").read_text()
        (folder / f"{module}.py").write_text(
            source.replace("@OUTSIDE@", str(outside)).replace("@MARKER@", marker))
    before = sorted(os.listdir(folder))
    report = check_module(str(folder / f"{name}.py"), hands=HANDS,
                          limits=OWN_LIMITS.get(name, LIMITS),
                          isolation=isolation)
    CORPUS[name][1](report)
    text = text_report(report)
    assert report.isolation.name == isolation.split(":")[0]
    assert "Traceback" not in text and not CONTROL.search(text)
    assert "atexit" not in text and "full marks" not in text
    assert secret not in text
    assert os.listdir(outside) == [] and sorted(os.listdir(folder)) == before
    assert not Path(os.path.expanduser(f"~/escaped-{marker}.txt")).exists()
    assert processes_with(marker) == []


def test_the_corpus_covers_every_file_in_the_folder():
    assert sorted(CORPUS) == sorted(path.stem for path in STUDENTS.glob("*.py"))


def test_bubblewrap_runs_here_in_ci():
    if bubblewrap_problem():
        missing(bubblewrap_problem(), "the checker's sandbox tests")
    assert bubblewrap_problem() == ""


# An unprivileged checker (PrairieLearn runs it as ag) ------------------------------------

CHECKER_UID = 61_235  # the test's unprivileged checker, not the student's uid
UNPRIVILEGED_RUN = {"correct": True, "kills_checker": False, "reads_secrets": False,
                    "writes_outside": False, "hunts_answers": False,
                    "leaves_processes": True, "forges_results": False,
                    "breaks_runner": False, "lying_int": False}
CHECKER_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bidder.checker.check import check_module
from bidder.checker.text import text_report
found = {}
for name in sys.argv[3:]:
    report = check_module(f"{sys.argv[2]}/{name}/{name}.py", hands=20, isolation="fallback")
    found[name] = {"passed": report.passed, "text": text_report(report),
                   "isolation": report.isolation.describe()}
print(json.dumps(found))
"""


def test_an_unprivileged_checker_keeps_the_corpus_in(tmp_path):
    """The checker as a user of its own, with the system's Python and its libseccomp
    bindings, on the fallback (as in a container where bubblewrap cannot start): seccomp
    and Landlock hold the corpus."""
    root = Path(__file__).resolve().parents[2]
    if os.geteuid() != 0 or not shutil.which("setpriv") or not os.path.exists(
            "/usr/bin/python3"):
        missing("root, setpriv and /usr/bin/python3", "the unprivileged checker's test")
    secret, marker = secrets.token_hex(16), f"mark{secrets.token_hex(8)}"
    base = Path(tempfile.mkdtemp(prefix="bidder-unprivileged-"))
    try:
        for name in UNPRIVILEGED_RUN:
            folder, outside = base / name, base / f"outside-{name}"
            for path in (folder, outside):
                path.mkdir()
            for module in ("correct", name):
                source = (STUDENTS / f"{module}.py").read_text()
                (folder / f"{module}.py").write_text(
                    source.replace("@OUTSIDE@", str(outside)).replace("@MARKER@", marker))
        # the checker's own copy, readable by its user wherever the repository lies
        shutil.copytree(root / "bidder", base / "source" / "bidder",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for path in [base, *base.rglob("*")]:
            os.chown(path, CHECKER_UID, CHECKER_UID)
        environment = {"PATH": "/usr/bin:/bin", "HOME": str(base), "LANG": "C.UTF-8",
                       "BIDDER_TEST_SECRET": secret}
        # the checker's own lease of its uid: a root check in another worker would
        # otherwise take it for its student, and its reaper kill this checker
        with leased_uid(CHECKER_UID, fixed=True):
            done = subprocess.run(
                ["setpriv", f"--reuid={CHECKER_UID}", f"--regid={CHECKER_UID}",
                 "--clear-groups", "/usr/bin/python3", "-B", "-c", CHECKER_SCRIPT,
                 str(base / "source"), str(base), *UNPRIVILEGED_RUN],
                env=environment, capture_output=True, timeout=600, cwd=str(base))
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        found = json.loads(done.stdout)
        for name, passed in UNPRIVILEGED_RUN.items():
            text = found[name]["text"]
            assert found[name]["passed"] is passed, text
            assert secret not in text and "Traceback" not in text and "full marks" not in text
            assert os.listdir(base / f"outside-{name}") == []
        isolation = found["correct"]["isolation"]
        assert "no uid: the checker is not root" in isolation
        assert "seccomp: no sockets" in isolation and "Landlock" in isolation
        assert processes_with(marker) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)
