"""A ready-to-upload Gradescope autograder for the three graded functions, and the program
it runs for each submission.

The zip holds ``setup.sh``, ``run_autograder``, the check's settings and two wheels made
from this very installation: bidder and click, all that checking needs. ``setup.sh``
installs them into a venv of their own with ``--no-index --no-deps``, so nothing is
downloaded and the web app's dependencies (Flask, Werkzeug, gunicorn), which checking
never imports, are left out; it installs bubblewrap, and a Python of 3.11 or later, only
when the image lacks them. ``run_autograder`` runs this module: it finds the student's
module, checks it sealed and writes ``results.json``. Every path can be moved by an
environment variable, so the whole autograder can be tried in any folder.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.metadata
import io
import json
import os
import re
import sys
import tempfile
import zipfile
from dataclasses import dataclass

from .check import check_module
from .formats import gradescope_results
from .points import Grading, parse_weights
from .report import FUNCTIONS
from .results_file import prepare_results
from .sandbox import MIB, Limits

CONFIG_NAME = "bidder_autograder.json"
PACKAGES = ("bidder", "click")  # the checker's code and its one dependency
PATHS = {  # environment variable: where Gradescope puts it
    "BIDDER_SOURCE": "/autograder/source",
    "BIDDER_SUBMISSION": "/autograder/submission",
    "BIDDER_RESULTS": "/autograder/results",
    "BIDDER_METADATA": "/autograder/submission_metadata.json",
}
DEFAULT_SEED = 1
READ_LIMIT = 1 << 20  # what of a submitted file is read to find the functions
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the same input makes the same zip

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image. It installs
# bidder and click from the wheels beside it into a venv of their own, with no index and
# no dependencies: nothing is downloaded, and the web app's dependencies, which checking
# never uses, stay out. bubblewrap (the sandbox) and a Python of 3.11 or later come from
# apt only when the image lacks them. BIDDER_VENV moves the venv.
set -euo pipefail
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
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission: bidder checks the student's module sealed
# and writes results.json. BIDDER_SOURCE, BIDDER_SUBMISSION, BIDDER_RESULTS,
# BIDDER_METADATA and BIDDER_VENV move the paths; BIDDER_CHECK_SEED fixes the seed.
exec "${BIDDER_VENV:-/autograder/bidder-venv}/bin/python" -m bidder.checker.gradescope
"""


@dataclass(frozen=True)
class Bundle:
    """What the autograder checks and how: hands, seed (None: each submission's own),
    limits, isolation, the grading, and the submitted file's name (None: found)."""

    hands: int = 1000
    seed: int | None = None
    timeout: float = 10.0
    memory: int = 1024  # MiB
    isolation: str = "auto"
    grading: Grading = Grading()
    submission_name: str | None = None

    def to_dict(self) -> dict:
        """The settings as the zip holds them."""
        return {"hands": self.hands, "seed": self.seed, "timeout": self.timeout,
                "memory": self.memory, "isolation": self.isolation,
                "hidden": self.grading.hidden, "shown": self.grading.shown,
                "weights": self.grading.weights.to_dict(),
                "submission_name": self.submission_name}

    @classmethod
    def from_dict(cls, data: dict) -> "Bundle":
        """The settings read back; the weights checked as a weights file is."""
        weights = parse_weights(json.dumps(data["weights"]), CONFIG_NAME)
        return cls(data["hands"], data["seed"], data["timeout"], data["memory"],
                   data["isolation"], Grading(weights, data["hidden"], data["shown"]),
                   data["submission_name"])


# The zip ---------------------------------------------------------------------------------

def bundle_files(bundle: Bundle) -> dict[str, bytes]:
    """Every file of the autograder's zip, by its name there."""
    files = {"setup.sh": SETUP_SH.encode(), "run_autograder": RUN_AUTOGRADER.encode(),
             CONFIG_NAME: (json.dumps(bundle.to_dict(), indent=2) + "\n").encode()}
    for package in PACKAGES:
        name, data = wheel(package)
        files[f"wheels/{name}"] = data
    return files


def write_bundle(path: str, bundle: Bundle) -> None:
    """Write the autograder's zip to *path*, whole or not at all, the files at its root
    and the scripts executable."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in bundle_files(bundle).items():
            _add(archive, name, data, 0o755 if name in ("setup.sh", "run_autograder")
                 else 0o644)
    write_atomically(path, buffer.getvalue())


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int) -> None:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def write_atomically(path: str, data: bytes) -> None:
    """*data* to *path* through a temporary file beside it, renamed into place."""
    directory, name = os.path.split(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def wheel(package: str) -> tuple[str, bytes]:
    """(file name, contents) of a pure-Python wheel of an installed *package*, made from
    its files as they are installed (an editable install too) and its distribution's
    own metadata."""
    distribution = importlib.metadata.distribution(package)
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"]).lower()
    info = f"{name}-{distribution.version}.dist-info"
    files = _package_files(package)
    files[f"{info}/METADATA"] = (distribution.read_text("METADATA")
                                 or distribution.read_text("PKG-INFO")).encode()
    entry_points = distribution.read_text("entry_points.txt")
    if entry_points:
        files[f"{info}/entry_points.txt"] = entry_points.encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: bidder\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            _add(archive, path, data, 0o644)
    return f"{name}-{distribution.version}-py3-none-any.whl", buffer.getvalue()


def _package_files(package: str) -> dict[str, bytes]:
    """The package's files by their path in a wheel, its __pycache__ left out."""
    folder = os.path.dirname(importlib.import_module(package).__file__)
    base = os.path.dirname(folder)
    files = {}
    for directory, subfolders, names in os.walk(folder):
        subfolders[:] = sorted(sub for sub in subfolders if sub != "__pycache__")
        for file_name in sorted(names):
            path = os.path.join(directory, file_name)
            with open(path, "rb") as stream:
                files[os.path.relpath(path, base).replace(os.sep, "/")] = stream.read()
    return files


def _digest(data: bytes) -> str:
    """The hash a wheel's RECORD gives: urlsafe base64 of SHA-256, unpadded."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# Inside Gradescope -----------------------------------------------------------------------

def find_submission(folder: str, name: str | None = None) -> str | None:
    """The student's module in *folder*: the file called *name* when one is given; else
    the .py file defining most of the graded functions, the shallowest and then the
    first by name; None when there is no such file."""
    found = []
    for directory, subfolders, names in os.walk(folder):
        subfolders[:] = [sub for sub in subfolders
                         if not sub.startswith(".") and sub != "__pycache__"]
        found += [os.path.join(directory, file_name) for file_name in names
                  if file_name.endswith(".py")]
    found.sort(key=lambda path: (path.count(os.sep), path))
    if name is not None:
        return next((path for path in found if os.path.basename(path) == name), None)
    return max(found, key=_defined, default=None)


def _defined(path: str) -> int:
    """How many of the graded functions a file defines or imports at its top level."""
    with open(path, "rb") as stream:
        text = stream.read(READ_LIMIT).decode("utf-8", "replace")
    return sum(bool(re.search(rf"^(?:(?:async\s+)?def\s+{name}\b|{name}\s*=|from\s.*"
                              rf"\bimport\b.*\b{name}\b)", text, re.M))
               for name in FUNCTIONS)


def submission_seed(bundle: Bundle, metadata_path: str, environ) -> int:
    """The seed of the random hands: BIDDER_CHECK_SEED if set, else the bundle's own,
    else the Gradescope submission's id (the same on a regrade), else 1."""
    if environ.get("BIDDER_CHECK_SEED"):
        return int(environ["BIDDER_CHECK_SEED"])
    if bundle.seed is not None:
        return bundle.seed
    try:
        with open(metadata_path, encoding="utf-8") as stream:
            return int(json.load(stream)["id"])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_SEED


def autograde(bundle: Bundle, submission: str, metadata_path: str, environ) -> dict:
    """Gradescope's results for the submission in the folder *submission*."""
    student = find_submission(submission, bundle.submission_name)
    if student is None:
        wanted = (f"a file named {bundle.submission_name}" if bundle.submission_name
                  else "a Python file (.py)")
        return {"score": 0.0, "output": f"No submission to check: upload {wanted} that "
                f"defines {', '.join(FUNCTIONS)}.", "output_format": "text",
                "visibility": "visible", "stdout_visibility": "hidden", "tests": []}
    seed = submission_seed(bundle, metadata_path, environ)
    report = check_module(student, bundle.hands, seed,
                          Limits(timeout=bundle.timeout, memory=bundle.memory * MIB),
                          bundle.isolation)
    results = gradescope_results(report, bundle.grading)
    results["extra_data"].update(seed=seed, file=os.path.relpath(student, submission))
    return results


def main(environ=None) -> int:
    """run_autograder's work: read the settings, check, write results.json."""
    environ = os.environ if environ is None else environ
    paths = {key: environ.get(key) or default for key, default in PATHS.items()}
    with open(os.path.join(paths["BIDDER_SOURCE"], CONFIG_NAME), encoding="utf-8") as stream:
        bundle = Bundle.from_dict(json.load(stream))
    results = autograde(bundle, paths["BIDDER_SUBMISSION"], paths["BIDDER_METADATA"],
                        environ)
    write_atomically(prepare_results(paths["BIDDER_RESULTS"], "results.json"),
                     (json.dumps(results, indent=2, ensure_ascii=False) + "\n").encode())
    print(results["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
