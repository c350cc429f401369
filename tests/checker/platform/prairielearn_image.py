"""The PrairieLearn question as PrairieLearn's grader runs it (docs/externalGrading.md): the
question's tests/ at /grade/tests, the course's shared folder at /grade/serverFilesCourse,
data.json at /grade/data, the submitted file at /grade/student/bid.py, results expected at
/grade/results/results.json; the image's ``ag`` user (uid 1001, as in
prairielearn/grader-python) in its /etc/passwd, and its interpreter at /venv/bin/python3
(here the system's, with no packages of its own). The entry point runs as root."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bidder.checker.bundle import Bundle
from bidder.checker.prairielearn import QUESTION, write_question
from docker_like import without_libseccomp
from harness import add_harness, run_driver

GRADE = "/grade"
AG_UID = 1001  # the ag user of prairielearn/grader-python
ENTRY = ["bash", f"{GRADE}/tests/run.sh"]
# where the harness finds the submission and the results, and what a cheat would change
LAYOUT = {"home": GRADE, "submission": f"{GRADE}/student", "results": f"{GRADE}/results",
          "watched": [f"{GRADE}/tests", f"{GRADE}/serverFilesCourse", f"{GRADE}/data", "/venv",
                      "/etc/passwd", "/etc/cron.d", "/usr/lib/python3.11/json",
                      "/usr/lib/python3.11/os.py", "/root/.bashrc"]}
# Gradescope's paths in the escapes, and where the same things are in PrairieLearn's job
PATHS = (("/autograder/source/bidder_autograder.json", f"{GRADE}/tests/bidder_autograder.json"),
         ("/autograder/source/wheels", f"{GRADE}/serverFilesCourse/bidder/wheels"),
         ("/autograder/run_autograder", f"{GRADE}/tests/run.sh"),
         ("/autograder/source/setup.sh", f"{GRADE}/tests/bidder_autograder.json"),
         ("/autograder/*/lib/python3*/site-packages", "/tmp/*"),  # the unpacked checker
         ("/autograder", GRADE))


def build_job(folder: Path, bundle: Bundle) -> str:
    """The layer under *folder* that PrairieLearn's image and job make: /grade, /venv and
    an /etc/passwd and /etc/group with ag."""
    write_question(str(folder / "question"), bundle)
    layer = folder / "layer"
    grade = layer / "grade"
    shutil.copytree(folder / "question" / "questions" / QUESTION / "tests", grade / "tests")
    shutil.copytree(folder / "question" / "serverFilesCourse", grade / "serverFilesCourse")
    (grade / "student").mkdir()
    (grade / "data").mkdir()
    (grade / "data" / "data.json").write_text('{"params": {}, "submitted_answers": {}}\n')
    (layer / "etc").mkdir()
    for name, line in (("passwd", f"ag:x:{AG_UID}:{AG_UID}::/home/ag:/bin/bash\n"),
                       ("group", f"ag:x:{AG_UID}:\n")):
        (layer / "etc" / name).write_text(Path(f"/etc/{name}").read_text() + line)
    (layer / "venv" / "bin").mkdir(parents=True)
    (layer / "venv" / "bin" / "python3").symlink_to("/usr/bin/python3")
    add_harness(layer)
    for path in [layer, *layer.rglob("*")]:
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    for top in (grade / "tests", grade / "serverFilesCourse"):  # as run.sh leaves them, so
        for path in [top, *top.rglob("*")]:  # the watch sees any other change
            os.chmod(path, os.stat(path).st_mode & 0o700)
    return str(layer)


def run_in_job(layer: str, work: dict) -> dict:
    """Run the driver on *work* in a fresh container of *layer*, as root, as PrairieLearn
    runs the entry point, with no libseccomp, as PrairieLearn's image has none."""
    return run_driver((layer,), dict(work, layout=LAYOUT), None, GRADE, without_libseccomp())
