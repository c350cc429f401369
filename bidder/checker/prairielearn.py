"""A ready PrairieLearn question for the three graded functions, and the program its grader
runs for each submission.

``write_question`` writes a course's worth of folders: ``questions/NAME/`` (``info.json``
with external grading on PrairieLearn's Python image, ``question.html`` with a file
editor for the student's module, ``tests/run.sh``, the grader's entry point, the check's
settings and the starting code) and ``serverFilesCourse/bidder/wheels/`` (bidder, click
and pyseccomp, made from this very installation). In the grading container, as
PrairieLearn documents it (docs/externalGrading.md), the job is mounted at ``/grade``
(``data/data.json``, ``student/``, ``tests/``, ``serverFilesCourse/``) and the entry
point runs as root: ``run.sh`` unpacks the wheels into a folder of its own, keeps it,
the wheels and the tests to root, runs this module with an empty environment and the
student's code as the image's ``ag`` user (``BIDDER_CHECK_UID``), and alone writes
``/grade/results/results.json``, after the check has ended. The check takes the
strongest isolation there: the student's own uid, seccomp and Landlock.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import uuid
from dataclasses import replace

from .bundle import (CONFIG_NAME, Bundle, config_bytes, find_submission, no_submission,
                     read_config, wheels, write_atomically)
from .check import check_module
from .formats import prairielearn_results, unicode_text
from .hardening import harden
from .report import FUNCTIONS

IMAGE = "prairielearn/grader-python"
QUESTION = "bidderOpeningBid"
SERVER_FOLDER = "bidder"  # under serverFilesCourse/
ENTRY = "/grade/tests/run.sh"
DEFAULT_FILE = "bid.py"
OVERHEAD = 50  # seconds for unpacking the wheels, probing the rungs and the reference
MOST_SECONDS = 600  # PrairieLearn's limit on a grading job
RESULTS_LIMIT = 1_000_000  # bytes: PrairieLearn's limit on results.json
NAMESPACE = uuid.UUID("6f0b1d2e-5c1a-4f7e-9a43-b1dde4c0a1f3")  # bidder's questions' uuids
FILE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.py")

RUN_SH = r"""#!/bin/bash
# PrairieLearn runs this for every submission, as root, in prairielearn/grader-python:
# /grade holds data/, student/ (the submitted file), tests/ (this folder) and
# serverFilesCourse/bidder/wheels/. The checker is unpacked from its wheels into a folder
# of its own and runs with an empty environment; as root it keeps that folder, the wheels
# and this one to itself and runs the student's code as the image's ag user (a uid of its
# own, with seccomp and Landlock where they hold), so the student can read none of the
# checker nor signal it. This script alone writes results/results.json, after the check
# has ended, so nothing the student's code wrote there counts. BIDDER_GRADE,
# BIDDER_PYTHON and BIDDER_USER move the job folder, the interpreter and the student's
# user; BIDDER_CHECK_SEED fixes the seed.
set -uo pipefail
umask 022
grade="${BIDDER_GRADE:-/grade}"
python="${BIDDER_PYTHON:-/venv/bin/python3}"
user="${BIDDER_USER:-ag}"
results="$grade/results"
rm -rf "$results" && mkdir -m 755 "$results" || exit 1
work="$(mktemp -d)"      # this script's alone: the results before they are placed
checker="$(mktemp -d)"   # the checker's code
trap 'rm -rf "$work" "$checker"' EXIT
for wheel in "$grade/serverFilesCourse/bidder/wheels/"*.whl; do
    "$python" -I -m zipfile -e "$wheel" "$checker/"
done
student_uid=""
if [ "$(id -u)" = 0 ]; then
    chmod -R go= "$checker" "$grade/serverFilesCourse" "$grade/tests"
    if ! student_uid="$(id -u "$user" 2>/dev/null)"; then
        echo "run.sh: there is no user $user (BIDDER_USER): the student's code runs as a uid of its own" >&2
        student_uid=""
    fi
else  # the checker's own user runs the student's code too: seccomp and Landlock hold it
    chmod -R u=rwX,go=rX "$checker" "$grade/student" "$grade/tests"
fi
cd "$checker"
env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/tmp TMPDIR=/tmp \
    BIDDER_CHECK_SEED="${BIDDER_CHECK_SEED:-}" BIDDER_CHECK_UID="$student_uid" \
    "$python" -I -c 'import sys; sys.path.insert(0, sys.argv[1]); from bidder.checker.prairielearn import main; sys.exit(main(sys.argv[2:]))' \
    "$checker" "$grade/tests/bidder_autograder.json" "$grade/student" >"$work/results.json"
status=$?
if [ "$status" -ne 0 ] || [ ! -s "$work/results.json" ]; then
    printf '%s\n' '{"gradable": false, "score": 0.0, "message": "The checker could not check this submission (it stopped with status '"$status"'); no attempt was counted: please tell the course staff.", "format_errors": ["the checker failed"]}' >"$work/results.json"
fi
cp "$work/results.json" "$results/.results.json.part" &&
    mv -f "$results/.results.json.part" "$results/results.json"
"""

INITIAL_CODE = '''"""Opening bids: complete the three functions (a hand is a string such as
'5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C')."""


def highCardPoints(hand):
    """The hand's high card points, as an int."""


def distributionPoints(hand):
    """The hand's distribution points, as an int."""


def openingBid(hand):
    """The opening bid as a str such as '1S' or '2NT', or the value None for no bid."""
'''

QUESTION_HTML = """<pl-question-panel>
  <p>
    Write <code>{functions}</code> in <code>{file}</code>, as the assignment says:
    the counts are ints, a bid is a str such as <code>'1S'</code>, and no bid is the
    value <code>None</code>. Your module is called on the worked examples, on a hand on
    each side of every threshold and on random hands; the results name the rule behind
    each wrong answer.
  </p>
  <pl-file-editor file-name="{file}" ace-mode="ace/mode/python"
    source-file-name="tests/initial_code.py"></pl-file-editor>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""


def submission_file(bundle: Bundle) -> str:
    """The submitted file's name: the bundle's, else bid.py; ValueError for a name that
    is not a Python module's."""
    name = bundle.submission_name or DEFAULT_FILE
    if not FILE_NAME.fullmatch(name):
        raise ValueError(f"{name!r} cannot be the submitted file's name: give a module's "
                         f"name such as {DEFAULT_FILE} (letters, digits, _ and .py)")
    return name


def info(bundle: Bundle, question: str) -> dict:
    """The question's info.json: external grading on PrairieLearn's Python image, the
    wheels from serverFilesCourse, run.sh as the entry point, time for the check."""
    return {"uuid": str(uuid.uuid5(NAMESPACE, question)),
            "title": "Opening bids: " + ", ".join(FUNCTIONS),
            "topic": "Bridge", "tags": ["bidder", "code"], "type": "v3",
            "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": {
                "enabled": True, "image": IMAGE,
                "serverFilesCourse": [f"{SERVER_FOLDER}/"], "entrypoint": ENTRY,
                "timeout": min(MOST_SECONDS, math.ceil(bundle.timeout) + OVERHEAD)}}


def question_files(bundle: Bundle, question: str = QUESTION) -> dict[str, bytes]:
    """Every file of the question and of the course's shared folder, by its path."""
    file = submission_file(bundle)
    bundle = replace(bundle, submission_name=file)
    folder = f"questions/{question}"
    files = {f"{folder}/info.json": (json.dumps(info(bundle, question), indent=2)
                                     + "\n").encode(),
             f"{folder}/question.html": QUESTION_HTML.format(
                 functions="</code>, <code>".join(FUNCTIONS), file=file).encode(),
             f"{folder}/tests/run.sh": RUN_SH.encode(),
             f"{folder}/tests/{CONFIG_NAME}": config_bytes(bundle),
             f"{folder}/tests/initial_code.py": INITIAL_CODE.encode()}
    files.update((f"serverFilesCourse/{SERVER_FOLDER}/wheels/{name}", data)
                 for name, data in wheels().items())
    return files


def write_question(folder: str, bundle: Bundle, question: str = QUESTION) -> list[str]:
    """Write the question and the shared folder under *folder*, each file whole, run.sh
    executable; the paths written."""
    files = question_files(bundle, question)
    for path, data in files.items():
        target = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        write_atomically(target, data, 0o755 if path.endswith(".sh") else 0o644)
    return sorted(files)


# Inside PrairieLearn's grader --------------------------------------------------------------

def submission_seed(bundle: Bundle, student: str, environ) -> int:
    """The seed of the threshold and random hands: BIDDER_CHECK_SEED if set, else the
    bundle's own, else one drawn from the submitted file's bytes, through the course's
    secret when the bundle holds one (the same on a regrade)."""
    if environ.get("BIDDER_CHECK_SEED"):
        return int(environ["BIDDER_CHECK_SEED"])
    if bundle.seed is not None:
        return bundle.seed
    with open(student, "rb") as stream:
        drawn = int.from_bytes(hashlib.sha256(stream.read()).digest()[:4], "big")
    return bundle.own_seed(str(drawn))


def grade(bundle: Bundle, submission: str, environ) -> dict:
    """PrairieLearn's results for the submission in the folder *submission*; a missing
    file is not gradable (no attempt is counted)."""
    student = find_submission(submission, bundle.submission_name)
    if student is None:
        message = no_submission(bundle)
        return {"gradable": False, "score": 0.0, "message": message,
                "format_errors": [message]}
    seed = submission_seed(bundle, student, environ)
    report = check_module(student, bundle.hands, seed,
                          bundle.limits(), bundle.isolation)
    results = prairielearn_results(report, bundle.grading)
    results.update(seed=seed, isolation=report.isolation.describe() if report.isolation
                   else "")
    return fitted(unicode_text(results))


def fitted(results: dict) -> dict:
    """*results* within PrairieLearn's 1 MB: the tests' outputs, then the summary's end,
    dropped while it is larger."""
    if len(json.dumps(results)) <= RESULTS_LIMIT:
        return results
    for test in results.get("tests", []):
        test.pop("output", None)
    excess = len(json.dumps(results)) - RESULTS_LIMIT
    if excess > 0:
        output = results.get("output", "")
        results["output"] = output[:max(len(output) - excess - 100, 0)] + "\n[cut short]"
    return results


def main(arguments: list[str], environ=None) -> int:
    """run.sh's check, as the checker's user: read the settings, harden, check the
    submission, print PrairieLearn's results on standard output."""
    environ = os.environ if environ is None else environ
    settings, submission = arguments
    bundle = read_config(settings)
    harden(environ)
    results = grade(bundle, submission, environ)
    sys.stdout.write(json.dumps(results, ensure_ascii=False) + "\n")
    sys.stderr.write(f"{results.get('message', '')}\n{results.get('isolation', '')}\n")
    return 0
