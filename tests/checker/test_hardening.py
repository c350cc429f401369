"""The checker before any student code runs: no secret left in its environment, its
memory and environment closed to processes of its uid, every module it will use already
imported, and the staged files readable by the student's uid whatever the umask."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from bidder.checker import hardening
from bidder.checker.hardening import drop_secrets, harden, kept, preload
from bidder.checker.sandbox import settle_modes, stage
from needs import missing

ROOT = Path(__file__).resolve().parents[2]
STUDENTS = Path(__file__).parent / "students"
UNPRIVILEGED = 65534  # nobody


@pytest.mark.parametrize("name, expected", [
    ("PATH", True), ("HOME", True), ("LANG", True), ("LANGUAGE", True), ("TMPDIR", True),
    ("TZ", True), ("TERM", True), ("LC_ALL", True), ("LC_CTYPE", True),
    ("BIDDER_CHECK_SEED", True), ("BIDDER_CHECK_UID", True),
    ("AWS_SECRET_ACCESS_KEY", False), ("GITHUB_TOKEN", False), ("BIDDER_SOURCE", False),
    ("PATHX", False), ("lc_all", False), ("LC", False), ("PYTHONPATH", False),
    ("LD_PRELOAD", False), ("", False),
], ids=lambda value: str(value))
def test_the_allow_list(name, expected):
    assert kept(name) is expected


def test_drop_secrets_keeps_the_allow_list_alone():
    environ = {"PATH": "/usr/bin", "LC_ALL": "C", "TOKEN": "s3cret", "AWS_KEY": "k"}
    assert drop_secrets(environ) == ("AWS_KEY", "TOKEN")
    assert environ == {"PATH": "/usr/bin", "LC_ALL": "C"}


def test_preload_imports_every_module_of_the_checker_but_the_runner():
    names = preload()
    assert {"bidder.checker.formats", "bidder.checker.diagnosis", "bidder.checker.text",
            "bidder.checker.gradescope", "bidder.checker.prairielearn"} <= set(names)
    assert "bidder.checker.runner" not in names
    assert all(name in sys.modules for name in names)


def test_harden_preloads_drops_and_becomes_not_dumpable(monkeypatch):
    done = []
    monkeypatch.setattr(hardening, "preload", lambda: done.append("preload"))
    monkeypatch.setattr(hardening, "prctl", lambda option, value: done.append((option, value)))
    environ = {"PATH": "/bin", "SECRET": "x"}
    assert harden(environ) == ("SECRET",)
    assert environ == {"PATH": "/bin"} and done == ["preload", (4, 0)]


HARDENED = textwrap.dedent("""
    import ctypes, json, os, subprocess, sys
    sys.path.insert(0, sys.argv[1])
    from bidder.checker.hardening import harden
    dropped = harden()
    peek = "import os, sys\\ntry:\\n    open(f'/proc/{os.getppid()}/environ').read()\\n" \\
           "    print('read')\\nexcept OSError as error:\\n    print(type(error).__name__)"
    child = subprocess.run([sys.executable, "-c", peek], capture_output=True, text=True)
    print(json.dumps({"dropped": dropped, "environ": sorted(os.environ),
                      "dumpable": ctypes.CDLL(None).prctl(3, 0, 0, 0, 0),
                      "peek": child.stdout.strip()}))
""")


@pytest.fixture
def readable_package():
    """A copy of the bidder package in a folder every uid may read: the checkout itself
    may lie in a folder only root can enter (a clone into `mktemp -d`), where the
    unprivileged checker below could not import it."""
    folder = Path(tempfile.mkdtemp(prefix="bidder-package-"))
    try:
        shutil.copytree(ROOT / "bidder", folder / "bidder",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for path in (folder, *folder.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield folder
    finally:
        shutil.rmtree(folder)


def test_a_hardened_checker_keeps_its_environment_from_its_own_uid(readable_package, nobody):
    """As the student's code would on PrairieLearn (the checker's uid), a child cannot read
    the hardened checker's environment, and the checker's own copy has no secret."""
    command = ["/usr/bin/python3", "-c", HARDENED, str(readable_package)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            missing("setpriv (util-linux) is not installed", "the unprivileged checker tests")
        command = ["setpriv", f"--reuid={UNPRIVILEGED}", f"--regid={UNPRIVILEGED}",
                   "--clear-groups"] + command
    environ = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "GRADER_TOKEN": "s3cret",
               "BIDDER_CHECK_SEED": "4"}
    run = subprocess.run(command, capture_output=True, text=True, env=environ,
                         cwd=readable_package)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found == {"dropped": ["GRADER_TOKEN"], "dumpable": 0, "peek": "PermissionError",
                     "environ": ["BIDDER_CHECK_SEED", "LANG", "PATH"]}


LATE = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    from bidder.checker import sandbox
    from bidder.cli import main
    before = []
    supervise = sandbox.supervise
    def watched(*arguments, **options):
        before.append(before[0] if before else set(sys.modules))
        return supervise(*arguments, **options)
    sandbox.supervise = watched
    for number, output_format in enumerate(("text", "json", "gradescope", "prairielearn",
                                            "junit")):
        tests = ["--tests", sys.argv[3]] if number == 0 else []
        try:
            main(["check", sys.argv[2], "--hands", "5", *tests, "--format", output_format,
                  "-o", "/dev/null"])
        except SystemExit:
            pass
    print(sorted(set(sys.modules) - before[0]))
""")


def test_nothing_is_imported_once_the_first_student_run_has_started():
    """A module the student's code could have changed is never imported after it ran:
    the check, the student's tests and every format, from the command line."""
    run = subprocess.run([sys.executable, "-c", LATE, str(ROOT), str(STUDENTS / "correct.py"),
                          str(STUDENTS.parent / "student_tests" / "weak_tests.py")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_staged_files_are_readable_whatever_the_umask(tmp_path):
    folder = tmp_path / "work"
    (folder / "helper").mkdir(parents=True)
    (folder / "helper" / "__init__.py").write_text("")
    (folder / "solution.py").write_text("x = 1\n")
    for path in (folder / "solution.py", folder / "helper" / "__init__.py"):
        path.chmod(0o600)
    saved = os.umask(0o077)
    try:
        stage(str(folder / "solution.py"), str(tmp_path / "staged"))
        (tmp_path / "staged" / "submission" / "late.py").write_text("")
        settle_modes(str(tmp_path / "staged"))
    finally:
        os.umask(saved)
    modes = {str(path.relative_to(tmp_path / "staged")): path.stat().st_mode & 0o777
             for path in (tmp_path / "staged").rglob("*")}
    assert modes == {"checker": 0o755, "checker/check_runner.py": 0o644,
                     "submission": 0o755, "submission/solution.py": 0o644,
                     "submission/late.py": 0o644, "submission/helper": 0o755,
                     "submission/helper/__init__.py": 0o644}


@given(st.dictionaries(st.text(st.characters(codec="ascii", exclude_characters="=\x00"),
                               max_size=12), st.text(max_size=5)))
def test_drop_secrets_keeps_exactly_the_allowed_variables(environ):
    original = dict(environ)
    dropped = drop_secrets(environ)
    assert all(kept(name) for name in environ) and not any(kept(name) for name in dropped)
    assert set(environ) | set(dropped) == set(original) and not set(environ) & set(dropped)
    assert environ == {name: value for name, value in original.items() if kept(name)}
