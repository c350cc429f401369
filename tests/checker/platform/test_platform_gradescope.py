"""The Gradescope autograder and the checker in a container built like Docker's, as the
course platforms run them: bubblewrap cannot start there, so the fallback's rungs are what
holds. The whole hostile corpus (tests/checker/students) and the escapes found in such a
container (escapes/) run there, as root (Gradescope) and as an unprivileged checker, one
submission after another in the same container (a host that reuses the machine). Each
must earn no marks it did not earn, leak no secret, change no file of the installation or
the system, leave no process, reach no network, and get its results written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bidder.checker.gradescope import Bundle
from corpus import (CPU_SECONDS, EARNED_IF_FAST, EARNED_IN_FULL, ESCAPED, LISTENER_PORT,
                    ORDER, STUDENT_UID, WORK, contained, submission)
from docker_like import CAPABILITY_NUMBERS, DOCKER_CAPABILITIES, Container, without_libseccomp
from gradescope_image import CHECK_ONE, CHECKER_UID, build_image, run_in_image
from harness import needed
from once import once, shared_folder

BUNDLE = Bundle(hands=20, timeout=5.0, seed=1, secret=WORK["secret"], cpu=CPU_SECONDS)
USERS = {"root": None, "unprivileged": CHECKER_UID}
# the checker itself, on the escapes: with the whole ladder, as root and as the
# unprivileged checker (the whole corpus goes through the autograder above it, with the
# same ladder, as both users); as root without the uid rung (where it is taken), and as
# root without Landlock (an older kernel) in an image without libseccomp (the seccomp
# filter then written as raw BPF)
DIRECT = {"auto": ["stub", "correct", *ESCAPED, "stub_again"],
          "fallback:seccomp+landlock": ["stub", "correct", *ESCAPED],
          "fallback:uid+seccomp": ["stub", "correct", *ESCAPED, "stub_again"]}
DIRECT_RUNS = [(isolation, name, user) for isolation, user in (
    ("auto", "root"), ("auto", "unprivileged"), ("fallback:seccomp+landlock", "root"),
    ("fallback:uid+seccomp", "root")) for name in DIRECT[isolation]]
PREPARE = {"fallback:uid+seccomp": without_libseccomp()}
# which rung bounds the processes, blocks sockets, keeps files and IPC out of shared places
BOUNDS = {("auto", "root"): {"processes": "uid", "sockets": "seccomp", "files": "landlock",
                             "ipc": "seccomp"},
          ("auto", "unprivileged"): {"processes": "rlimit", "sockets": "seccomp",
                                     "files": "landlock", "ipc": "seccomp"},
          ("fallback:seccomp+landlock", "root"): {"processes": "seccomp", "sockets": "seccomp",
                                                  "files": "landlock", "ipc": "seccomp"},
          ("fallback:uid+seccomp", "root"): {"processes": "uid", "sockets": "seccomp",
                                             "files": "uid", "ipc": "seccomp"}}
RUNGS_HELD = {"root": ("own uid 62234", "seccomp: no sockets", "Landlock (ABI"),
              "unprivileged": ("seccomp: no sockets", "Landlock (ABI")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """runs(mode, user): the driver's report of one container's run, made once in the
    whole run of the suite, the image built only where a run is made: the Gradescope
    autograder on the whole corpus, or the checker itself (*mode* names the isolation
    asked for) on the escapes."""
    needed()
    shared, built = shared_folder(tmp_path_factory), []

    def image() -> str:
        if not built:
            path, problem = build_image(tmp_path_factory.mktemp("gradescope"), BUNDLE)
            assert not problem, problem
            built.append(path)
        return built[0]

    def run(mode: str, user: str) -> dict:
        if mode == "gradescope":
            checker, order = ["/autograder/run_autograder"], ORDER
        else:
            checker, order = CHECK_ONE + [mode], DIRECT[mode]
        work = {"mode": "gradescope" if mode == "gradescope" else "check",
                "modules": {name: submission(name) for name in order},
                "secret": WORK["secret"], "port": LISTENER_PORT, "checker": checker,
                "student_uid": STUDENT_UID}
        name = "gradescope-" + "-".join(filter(None, re.split(r"\W+", f"{mode} {user}")))
        return once(shared, name, lambda: run_in_image(image(), work, USERS[user],
                                                       PREPARE.get(mode, ())))
    return run


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
def test_gradescope_gives_no_marks_a_module_did_not_earn(runs, user, name):
    report = runs("gradescope", user)
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
def test_the_report_names_the_rungs_that_held_and_why_bubblewrap_did_not(runs, user):
    output = json.loads(runs("gradescope", user)["runs"]["stub"]["results"]["text"])
    isolation = " ".join(output["output"].split())
    assert "Isolation: fallback:" in isolation
    assert "no sandbox: bwrap cannot run here" in isolation
    for rung in RUNGS_HELD[user]:
        assert rung in isolation
    if user == "unprivileged":
        assert "no uid: the checker is not root" in isolation and "own uid" not in isolation


@pytest.mark.parametrize("isolation, name, user", DIRECT_RUNS)
def test_the_checker_itself_keeps_every_module_in(runs, isolation, name, user):
    report = runs(isolation, user)
    run = report["runs"][name]
    found = json.loads(run["stdout"])
    if name not in EARNED_IF_FAST:
        assert found["passed"] is (name in EARNED_IN_FULL), found["text"]
    assert found["isolation"].startswith("fallback:")
    assert ("own uid" in found["isolation"]) is (user == "root" and "landlock" not in isolation)
    assert ("raw BPF" in found["isolation"]) is (isolation in PREPARE)
    held = dict(item.split(" ", 1) for item in
                found["isolation"].split("held by: ")[1].split(" (")[0].split(", "))
    assert held == BOUNDS[isolation, user], found["isolation"]
    assert contained(report, name) == []
    assert run["status"] == (0 if found["passed"] else 1), run["stderr"]
