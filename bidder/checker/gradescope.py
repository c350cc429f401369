"""A ready-to-upload Gradescope autograder for the three graded functions, and the program
it runs for each submission.

The zip holds ``setup.sh``, ``run_autograder``, the check's settings and the wheels made
from this very installation (``bundle.py``): bidder, click and pyseccomp, all that
checking needs. ``setup.sh`` installs them into a venv of their own with ``--no-index
--no-deps``, so nothing is downloaded and the web app's dependencies (Flask, Werkzeug,
gunicorn), which checking never imports, are left out; it installs bubblewrap,
libseccomp and a Python of 3.11 or later only when the image lacks them, and makes the
source folder and the venv unreadable to every user but root, so that the student's uid
never reads the reference. ``run_autograder`` runs this module: it finds the student's
module, checks it sealed and writes ``results.json``. Every path can be moved by an
environment variable, so the whole autograder can be tried in any folder.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import zipfile
from contextlib import suppress

from .bundle import (CONFIG_NAME, Bundle, add_file, config_bytes, find_submission,
                     no_submission, read_config, wheel, wheels, write_atomically)
from .check import check_module
from .formats import gradescope_results, unicode_text
from .hardening import harden
from .results_file import prepare_results

__all__ = ["CONFIG_NAME", "Bundle", "autograde", "bundle_files", "find_submission", "main",
           "submission_seed", "wheel", "write_atomically", "write_bundle"]

PATHS = {  # environment variable: where Gradescope puts it
    "BIDDER_SOURCE": "/autograder/source",
    "BIDDER_SUBMISSION": "/autograder/submission",
    "BIDDER_RESULTS": "/autograder/results",
    "BIDDER_METADATA": "/autograder/submission_metadata.json",
}
DEFAULT_SEED = 1
SCRIPTS = ("setup.sh", "run_autograder")

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image. It installs
# bidder, click and pyseccomp from the wheels beside it into a venv of their own, with no
# index and no dependencies: nothing is downloaded, and the web app's dependencies, which
# checking never uses, stay out. bubblewrap (the sandbox), libseccomp (the seccomp rung)
# and a Python of 3.11 or later come from apt only when the image lacks them. Then the
# source folder (the wheels, the settings) and the venv are made unreadable to every user
# but root: the student's code runs as a uid of its own and never reads the reference.
# BIDDER_VENV moves the venv.
set -euo pipefail
umask 022
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${BIDDER_VENV:-/autograder/bidder-venv}"

python=""
for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        python="$candidate"
        break
    fi
done
packages=()
command -v bwrap >/dev/null 2>&1 || packages+=(bubblewrap)
ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2' || packages+=(libseccomp2)
if [ -z "$python" ]; then
    python=python3.11
    packages+=(python3.11 python3.11-venv)
elif ! "$python" -c 'import ensurepip' 2>/dev/null; then
    packages+=("$python-venv")
fi
if [ ${#packages[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends "${packages[@]}"
fi
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --no-index --no-deps "$source_dir"/wheels/*.whl
# root alone reads them; links are left alone (the venv's python is the system's)
find "$source_dir" "$venv" ! -type l -exec chmod go= {} +
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission: bidder checks the student's module sealed
# and writes results.json. BIDDER_SOURCE, BIDDER_SUBMISSION, BIDDER_RESULTS,
# BIDDER_METADATA and BIDDER_VENV move the paths; BIDDER_CHECK_SEED fixes the seed and
# BIDDER_CHECK_UID the student's uid.
# (imported by -c, not run by -m: bidder.checker imports this module first, and -m would
# warn of it in every run's log)
exec "${BIDDER_VENV:-/autograder/bidder-venv}/bin/python" -I -c \
    'import sys; from bidder.checker.gradescope import main; sys.exit(main())'
"""


# The zip ---------------------------------------------------------------------------------

def bundle_files(bundle: Bundle) -> dict[str, bytes]:
    """Every file of the autograder's zip, by its name there."""
    files = {"setup.sh": SETUP_SH.encode(), "run_autograder": RUN_AUTOGRADER.encode(),
             CONFIG_NAME: config_bytes(bundle)}
    files.update((f"wheels/{name}", data) for name, data in wheels().items())
    return files


def write_bundle(path: str, bundle: Bundle) -> None:
    """Write the autograder's zip to *path*, whole or not at all, the files at its root
    and the scripts executable."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in bundle_files(bundle).items():
            add_file(archive, name, data, 0o755 if name in SCRIPTS else 0o644)
    write_atomically(path, buffer.getvalue())


# Inside Gradescope -----------------------------------------------------------------------

def submission_seed(bundle: Bundle, metadata_path: str, environ) -> int:
    """The seed of the threshold and random hands: BIDDER_CHECK_SEED if set, else the
    bundle's own, else the Gradescope submission's id (else 1), through the course's
    secret when the bundle holds one (the same on a regrade)."""
    if environ.get("BIDDER_CHECK_SEED"):
        return int(environ["BIDDER_CHECK_SEED"])
    if bundle.seed is not None:
        return bundle.seed
    try:
        with open(metadata_path, encoding="utf-8") as stream:
            identity = int(json.load(stream)["id"])
    except (OSError, ValueError, KeyError, TypeError):
        identity = DEFAULT_SEED
    return bundle.own_seed(str(identity))


def autograde(bundle: Bundle, submission: str, metadata_path: str, environ) -> dict:
    """Gradescope's results for the submission in the folder *submission*."""
    student = find_submission(submission, bundle.submission_name)
    if student is None:
        return {"score": 0.0, "output": no_submission(bundle), "output_format": "text",
                "visibility": "visible", "stdout_visibility": "hidden", "tests": []}
    seed = submission_seed(bundle, metadata_path, environ)
    report = check_module(student, bundle.hands, seed,
                          bundle.limits(), bundle.isolation)
    results = gradescope_results(report, bundle.grading)
    results["extra_data"].update(seed=seed, file=os.path.relpath(student, submission))
    return unicode_text(results)


def seal_metadata(path: str) -> None:
    """The submission's metadata (who submitted, the submission's id, the assignment's
    dates) made root's alone, before the student's code runs: as root, a regular file at
    *path* is owned by root and readable by root only; a link or anything else is left."""
    if os.geteuid() != 0:
        return
    with suppress(OSError):
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            if stat.S_ISREG(os.fstat(descriptor).st_mode):
                os.fchown(descriptor, 0, 0)
                os.fchmod(descriptor, 0o600)
        finally:
            os.close(descriptor)


def main(environ=None) -> int:
    """run_autograder's work: read the settings, check, write results.json."""
    environ = os.environ if environ is None else environ
    paths = {key: environ.get(key) or default for key, default in PATHS.items()}
    bundle = read_config(os.path.join(paths["BIDDER_SOURCE"], CONFIG_NAME))
    os.makedirs(paths["BIDDER_RESULTS"], exist_ok=True)
    with suppress(OSError):  # written by the checker alone, where it owns the folder
        os.chmod(paths["BIDDER_RESULTS"], 0o755)
    seal_metadata(paths["BIDDER_METADATA"])
    harden(environ)
    results = autograde(bundle, paths["BIDDER_SUBMISSION"], paths["BIDDER_METADATA"],
                        environ)
    write_atomically(prepare_results(paths["BIDDER_RESULTS"], "results.json"),
                     (json.dumps(results, indent=2, ensure_ascii=False) + "\n").encode())
    print(results["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
