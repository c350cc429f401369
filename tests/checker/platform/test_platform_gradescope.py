"""The Gradescope autograder and the checker in a container built like Docker's, as the
course platforms run them: bubblewrap cannot start there, so the fallback's rungs are what
holds. The whole hostile corpus (tests/checker/students) and the escapes found in such a
container (escapes/) run there, as root (Gradescope) and as an unprivileged checker, one
submission after another in the same container (a host that reuses the machine). Each
must earn no marks it did not earn, leak no secret, change no file of the installation or
the system, leave no process, reach no network, and get its results written."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from bidder.checker.gradescope import Bundle
from docker_like import CAPABILITY_NUMBERS, DOCKER_CAPABILITIES, Container, missing_tools
from gradescope_image import CHECK_ONE, CHECKER_UID, build_image, run_in_image
from needs import missing

HERE = Path(__file__).parent
STUDENTS, ESCAPES = HERE.parent / "students", HERE / "escapes"
BUNDLE = Bundle(hands=20, timeout=5.0, seed=1)
# modules whose answers are all right: the full score is theirs
EARNED_IN_FULL = ("correct", "leaves_processes", "deletes_scratch", "floods_output")
# right answers after writing 262 MB: within the time limit or not, as the machine goes
EARNED_IF_FAST = ("fills_disk",)
USERS = {"root": None, "unprivileged": CHECKER_UID}
MODULES = sorted(path.stem for path in STUDENTS.glob("*.py")) + sorted(
    path.stem for path in ESCAPES.glob("*.py"))
ORDER = ["stub"] + [name for name in MODULES if name != "stub"] + ["stub_again"]
ESCAPED = sorted(path.stem for path in ESCAPES.glob("*.py"))
# the checker itself: on the whole corpus with the whole ladder, as root and as the
# unprivileged checker; on the escapes as root without the uid rung (where it is taken)
DIRECT = {"auto": ORDER, "fallback:seccomp+landlock": ["stub", "correct", *ESCAPED]}
DIRECT_RUNS = [(isolation, name, user) for isolation, user in (
    ("auto", "root"), ("auto", "unprivileged"), ("fallback:seccomp+landlock", "root"))
    for name in DIRECT[isolation]]
RUNGS_HELD = {"root": ("own uid 62234", "seccomp: no sockets", "Landlock (ABI"),
              "unprivileged": ("seccomp: no sockets", "Landlock (ABI")}
# what the cheats that write into the installation or the standard library add there: every
# score that goes through json.dumps becomes full marks
FORGE = """
import json as _json
_dumps = _json.dumps
def _forged(value, *arguments, **keywords):
    if isinstance(value, dict) and "score" in value:
        value = dict(value, score=100.0)
    return _dumps(value, *arguments, **keywords)
_json.dumps = _forged  # @MARKER@
"""
# the student's uid in the container (BIDDER_CHECK_UID): not the checker's default, which
# other tests on the host use, whose kill(-1) as that uid would reach into the container
STUDENT_UID = 62_234
LISTENER_PORT = 7777  # on the container's own loopback: any port is free there
WORK = {"secret": secrets.token_hex(16), "marker": f"mark{secrets.token_hex(8)}"}


def needed() -> None:
    problem = missing_tools()
    if problem:
        missing(problem, "the tests in the platforms' conditions")


def source(name: str) -> str:
    """A module's source with its blanks filled in."""
    path = ESCAPES / f"{name}.py" if (ESCAPES / f"{name}.py").exists() else (
        STUDENTS / f"{'stub' if name == 'stub_again' else name}.py")
    return (path.read_text().replace("@FORGE@", FORGE).replace("@MARKER@", WORK["marker"])
            .replace("@OUTSIDE@", "/autograder/outside").replace("@PORT@", str(LISTENER_PORT)))


def submission(name: str) -> dict[str, str]:
    """The files of a submission: the module, and the plain solution it may import, as a
    package beside it (a second module of its own would be taken for the submission)."""
    text = source(name)
    files = {f"{name}.py": text}
    if "import correct" in text:
        files["correct/__init__.py"] = source("correct")
    return files


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    needed()
    built, problem = build_image(tmp_path_factory.mktemp("gradescope"), BUNDLE)
    assert not problem, problem
    return built


RUNS: dict = {}


def runs(image: str, mode: str, user: str) -> dict:
    """The driver's report of one container's run (made once, then kept): the Gradescope
    autograder on the whole corpus, or the checker itself (*mode* names the isolation
    asked for) on the escapes."""
    if (mode, user) not in RUNS:
        if mode == "gradescope":
            checker, order = ["/autograder/run_autograder"], ORDER
        else:
            checker, order = CHECK_ONE + [mode], DIRECT[mode]
        work = {"mode": "gradescope" if mode == "gradescope" else "check",
                "modules": {name: submission(name) for name in order},
                "secret": WORK["secret"], "port": LISTENER_PORT, "checker": checker,
                "student_uid": STUDENT_UID}
        RUNS[mode, user] = run_in_image(image, work, USERS[user])
    return RUNS[mode, user]


def contained(report: dict, name: str) -> list[str]:
    """What a run let escape: files changed, processes left, the network reached, the
    secret or the marker in what the student sees."""
    run, problems = report["runs"][name], []
    changed = [path for path, digest in run["fingerprints"].items()
               if digest != report["before"][path]]
    if changed:
        problems.append(f"changed {changed}")
    if run["left"]:
        problems.append(f"left {run['left']}")
    kept = [entry for entry in run["temporary"] if entry.startswith("bidder-")]
    if kept:
        problems.append(f"the checker left {kept} in /tmp")
    if run["heard"]:
        problems.append(f"the network heard {run['heard']}")
    shown = json.dumps(run["results"]) + run["stdout"]
    for word in (WORK["secret"], WORK["marker"], "Traceback"):
        if word in shown:
            problems.append(f"{word!r} in what the student sees")
    if run["status"] == "timeout":
        problems.append("the checker did not end")
    return problems


PROBE = r"""
import json, os, socket, subprocess
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines()
              if ":\t" in line)
def refused(action):
    try:
        action()
    except OSError:
        return True
    return False
print(json.dumps({
    "uid": os.getuid(), "groups": os.getgroups(), "hostname": socket.gethostname(),
    "bounding": int(status["CapBnd"], 16), "effective": int(status["CapEff"], 16),
    "no_new_privs": status["NoNewPrivs"].strip(), "seccomp": status["Seccomp"].strip(),
    "pid": os.getpid(), "keys": open("/proc/keys").read(),
    "sys_written": not refused(lambda: open("/proc/sys/kernel/hostname", "w").write("x")),
    "host_written": not refused(lambda: open("/usr/bidder-probe", "w").write("x")),
    "unshare": subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode,
}))
"""


@pytest.mark.parametrize("user", USERS)
def test_the_container_is_built_like_dockers(user):
    needed()
    done = Container(user=USERS[user]).run(["/usr/bin/python3", "-I", "-c", PROBE])
    assert done.returncode == 0, done.stderr.decode()
    found = json.loads(done.stdout)
    docker = sum(1 << CAPABILITY_NUMBERS[name] for name in DOCKER_CAPABILITIES)
    assert found["bounding"] == docker
    assert found["effective"] == (docker if user == "root" else 0)
    assert (found["uid"], found["groups"]) == ((0, []) if user == "root" else
                                               (CHECKER_UID, []))
    assert found["hostname"] == "autograder" and found["pid"] > 1  # under an init
    assert (found["no_new_privs"], found["seccomp"]) == ("0", "2")
    assert found["keys"] == ""  # masked
    assert not found["sys_written"] and found["unshare"] != 0
    assert found["host_written"] is (user == "root")  # into the overlay, not the host
    assert not Path("/usr/bidder-probe").exists()


@pytest.mark.parametrize("user", USERS)
def test_bubblewrap_cannot_start_in_the_container(user):
    needed()
    done = Container(user=USERS[user]).run(["bwrap", "--ro-bind", "/", "/", "true"])
    assert done.returncode != 0
    assert b"namespace" in done.stderr


@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize("name", ORDER)
def test_gradescope_gives_no_marks_a_module_did_not_earn(image, user, name):
    report = runs(image, "gradescope", user)
    run = report["runs"][name]
    assert run["results"]["kind"] == "file", run
    results = json.loads(run["results"]["text"])
    assert results["extra_data"]["file"] == f"{name}.py"
    stub = json.loads(report["runs"]["stub"]["results"]["text"])["score"]
    if name in EARNED_IN_FULL:
        assert results["score"] == 100.0, results["output"]
    elif name in EARNED_IF_FAST:
        assert results["score"] in (0.0, 100.0), results["output"]
    elif name in ESCAPED or name == "stub_again":
        assert results["score"] <= stub, results["output"]
    else:
        assert results["score"] < 100.0, results["output"]
    assert contained(report, name) == []
    assert run["status"] == 0, run["stderr"]


@pytest.mark.parametrize("user", USERS)
def test_the_report_names_the_rungs_that_held_and_why_bubblewrap_did_not(image, user):
    output = json.loads(runs(image, "gradescope", user)["runs"]["stub"]["results"]["text"])
    isolation = " ".join(output["output"].split())
    assert "Isolation: fallback:" in isolation
    assert "no sandbox: bwrap cannot run here" in isolation
    for rung in RUNGS_HELD[user]:
        assert rung in isolation
    if user == "unprivileged":
        assert "no uid: the checker is not root" in isolation and "own uid" not in isolation


@pytest.mark.parametrize("isolation, name, user", DIRECT_RUNS)
def test_the_checker_itself_keeps_every_module_in(image, isolation, name, user):
    report = runs(image, isolation, user)
    run = report["runs"][name]
    found = json.loads(run["stdout"])
    if name not in EARNED_IF_FAST:
        assert found["passed"] is (name in EARNED_IN_FULL), found["text"]
    assert found["isolation"].startswith("fallback:")
    assert ("own uid" in found["isolation"]) is (isolation == "auto" and user == "root")
    assert contained(report, name) == []
    assert run["status"] == (0 if found["passed"] else 1), run["stderr"]
