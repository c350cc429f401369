"""The PrairieLearn question in a container built like Docker's, laid out as PrairieLearn's
grader lays out a job (/grade/tests, /grade/serverFilesCourse, /grade/student/bid.py,
/grade/data/data.json), with the image's ag user (uid 1001) and, as in PrairieLearn's
image, no libseccomp; the entry point runs as root, runs the checker as root and the
student's code as ag, with the rungs of a host whose kernel has no Landlock: ag's own uid
and seccomp (written as raw BPF). The
escapes (their Gradescope paths turned into PrairieLearn's) and the whole hostile
corpus run there one after another in the same container. Each must earn no marks it did
not earn, leak no secret, change no file of the job, the image or the system, leave no
process, reach no network, and get its results.json written by run.sh alone."""

from __future__ import annotations

import json

import pytest

from bidder.checker.bundle import Bundle
from bidder.checker.points import Grading
from docker_like import Container
from corpus import (CPU_SECONDS, EARNED_IF_FAST, EARNED_IN_FULL, ESCAPED, LISTENER_PORT, ORDER,
                    STUDENT_UID, WORK, contained, submission)
from harness import needed
from once import once, shared_folder
from prairielearn_image import AG_UID, ENTRY, PATHS, build_job, run_in_job

# as on a host whose kernel has no Landlock: ag's own uid and seccomp alone, and the
# image has no libseccomp, so the seccomp filter is written as raw BPF
BUNDLE = Bundle(hands=20, timeout=5.0, seed=1, submission_name="bid.py", grading=Grading(),
                secret=WORK["secret"], isolation="fallback:uid+seccomp", cpu=CPU_SECONDS)
RUNGS_HELD = (f"own uid {AG_UID} ", "seccomp (raw BPF, no libseccomp): no sockets",
              "held by: processes uid, sockets seccomp, files uid, ipc seccomp")


@pytest.fixture(scope="module")
def layer(tmp_path_factory) -> str:
    """PrairieLearn's image and job, as a layer."""
    needed()
    return build_job(tmp_path_factory.mktemp("prairielearn"), BUNDLE)


@pytest.fixture(scope="module")
def report(request, tmp_path_factory) -> dict:
    """The driver's report of the entry point run on every module of ORDER in turn (made
    once in the whole run of the suite; the layer built only where it is made)."""
    needed()
    work = {"mode": "prairielearn", "checker": ENTRY, "secret": WORK["secret"],
            "port": LISTENER_PORT, "student_uid": STUDENT_UID,
            "modules": {name: submission(name, PATHS, "bid.py") for name in ORDER}}
    return once(shared_folder(tmp_path_factory), "prairielearn",
                lambda: run_in_job(request.getfixturevalue("layer"), work))


def results(report: dict, name: str) -> dict:
    """The results.json a module got."""
    return json.loads(report["runs"][name]["results"]["text"])


@pytest.mark.parametrize("name", ORDER)
def test_prairielearn_gives_no_marks_a_module_did_not_earn(report, name):
    run = report["runs"][name]
    assert run["status"] == 0, run["stderr"]
    assert run["results"]["kind"] == "file", run
    assert (run["results"]["owner"], run["results"]["link"]) == (0, False)  # run.sh's
    found = results(report, name)
    assert "forged" not in json.dumps(found), found
    if not found["gradable"]:  # no module to grade (it stopped while imported): no attempt
        assert (found["score"], name) == (0.0, name) and found["format_errors"], found
    if name in EARNED_IN_FULL:
        assert found["score"] == 1.0, found["message"]
    elif name in EARNED_IF_FAST:
        assert found["score"] in (0.0, 1.0), found["message"]
    elif name in ESCAPED or name == "stub_again":
        assert found["score"] <= results(report, "stub")["score"], found["message"]
    else:
        assert found["score"] < 1.0, found["message"]
    assert contained(report, name, ("bidder-", "tmp.")) == []


def test_the_results_name_the_rungs_that_held(report):
    isolation = " ".join(results(report, "stub")["isolation"].split())
    assert isolation.startswith("fallback:")
    for rung in RUNGS_HELD:
        assert rung in isolation
    assert "no uid" not in isolation and "Landlock" not in isolation


def test_the_job_is_laid_out_as_prairielearns_with_its_ag_user(layer):
    done = Container(layers=(layer,)).run(["sh", "-c", "id ag; ls /grade /grade/tests; "
                                           "ls /grade/serverFilesCourse/bidder/wheels"])
    assert done.returncode == 0, done.stderr.decode()
    shown = done.stdout.decode()
    assert f"uid={AG_UID}(ag) gid={AG_UID}(ag) groups={AG_UID}(ag)" in shown
    for name in ("data", "serverFilesCourse", "student", "tests", "run.sh",
                 "bidder_autograder.json", "bidder-"):
        assert name in shown
