"""What the graders' bundles share: the check's settings, the wheels made from this very
installation (bidder, click and pyseccomp: all that checking needs), finding the
submitted module, and files written whole or not at all."""

from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import tempfile
import zipfile
from dataclasses import dataclass

from .points import Grading, parse_weights
from .report import FUNCTIONS
from .sandbox import MIB, Limits

CONFIG_NAME = "bidder_autograder.json"
# the checker's code, its one dependency, and libseccomp's bindings for the seccomp rung
PACKAGES = ("bidder", "click", "pyseccomp")
READ_LIMIT = 1 << 20  # what of a submitted file is read to find the functions
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the same input makes the same zip


@dataclass(frozen=True)
class Bundle:
    """What the autograder checks and how: hands, seed (None: each submission's own),
    limits, isolation, the grading, the submitted file's name (None: found), the
    course's secret (None: none), which makes each submission's seed unpredictable, and
    the CPU seconds a run may use (None: the wall time, rounded up, and one more)."""

    hands: int = 1000
    seed: int | None = None
    timeout: float = 10.0
    memory: int = 1024  # MiB
    isolation: str = "auto"
    grading: Grading = Grading()
    submission_name: str | None = None
    secret: str | None = None
    cpu: int | None = None

    def to_dict(self) -> dict:
        """The settings as the bundle holds them."""
        return {"hands": self.hands, "seed": self.seed, "timeout": self.timeout,
                "memory": self.memory, "isolation": self.isolation,
                "hidden": self.grading.hidden, "shown": self.grading.shown,
                "weights": self.grading.weights.to_dict(),
                "submission_name": self.submission_name, "secret": self.secret,
                "cpu": self.cpu}

    def limits(self) -> Limits:
        """The limits a submission runs under."""
        return Limits(timeout=self.timeout, memory=self.memory * MIB, cpu_seconds=self.cpu)

    @classmethod
    def from_dict(cls, data: dict) -> "Bundle":
        """The settings read back; the weights checked as a weights file is."""
        weights = parse_weights(json.dumps(data["weights"]), CONFIG_NAME)
        return cls(data["hands"], data["seed"], data["timeout"], data["memory"],
                   data["isolation"], Grading(weights, data["hidden"], data["shown"]),
                   data["submission_name"], data.get("secret"), data.get("cpu"))

    def own_seed(self, submission: str) -> int:
        """The seed of a submission's hands, from what names it (its id, its bytes' hash):
        under the course's secret, a number nobody without the secret can work out."""
        if self.secret is None:
            return int(submission)
        return int.from_bytes(hmac.new(self.secret.encode(), submission.encode(),
                                       "sha256").digest()[:SEED_BYTES], "big")


SEED_BYTES = 6  # a secret seed's size: within the integers every JSON reader holds exactly


def config_bytes(bundle: Bundle) -> bytes:
    """The settings file's contents."""
    return (json.dumps(bundle.to_dict(), indent=2) + "\n").encode()


def read_config(path: str) -> Bundle:
    """The settings in the file at *path*."""
    with open(path, encoding="utf-8") as stream:
        return Bundle.from_dict(json.load(stream))


# Wheels ------------------------------------------------------------------------------------

def wheels() -> dict[str, bytes]:
    """The wheels of every package in PACKAGES that is installed here, by file name."""
    found = {}
    for package in PACKAGES:
        if importlib.util.find_spec(package) is not None:
            name, data = wheel(package)
            found[name] = data
    return found


def wheel(package: str) -> tuple[str, bytes]:
    """(file name, contents) of a pure-Python wheel of an installed *package* (a package
    or a single module), made from its files as they are installed (an editable install
    too) and its distribution's own metadata and licence."""
    distribution = importlib.metadata.distribution(package)
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"]).lower()
    info = f"{name}-{distribution.version}.dist-info"
    files = _package_files(package)
    files[f"{info}/METADATA"] = (distribution.read_text("METADATA")
                                 or distribution.read_text("PKG-INFO")).encode()
    for extra in ("entry_points.txt", "LICENSE"):
        text = distribution.read_text(extra)
        if text:
            files[f"{info}/{extra}"] = text.encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: bidder\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            add_file(archive, path, data, 0o644)
    return f"{name}-{distribution.version}-py3-none-any.whl", buffer.getvalue()


def _package_files(package: str) -> dict[str, bytes]:
    """The package's files by their path in a wheel, its __pycache__ left out; a single
    module's one file. Found without importing it."""
    origin = importlib.util.find_spec(package).origin
    if os.path.basename(origin) != "__init__.py":
        with open(origin, "rb") as stream:
            return {os.path.basename(origin): stream.read()}
    folder = os.path.dirname(origin)
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


def add_file(archive: zipfile.ZipFile, name: str, data: bytes, mode: int) -> None:
    """*data* into *archive* as *name* with *mode*, dated as every bundle's files are."""
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def write_atomically(path: str, data: bytes, mode: int = 0o644) -> None:
    """*data* to *path* through a temporary file beside it, renamed into place."""
    directory, name = os.path.split(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


# The submission ----------------------------------------------------------------------------

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


def no_submission(bundle: Bundle) -> str:
    """What to upload, said when no submitted file is found."""
    wanted = (f"a file named {bundle.submission_name}" if bundle.submission_name
              else "a Python file (.py)")
    return f"No submission to check: upload {wanted} that defines {', '.join(FUNCTIONS)}."
