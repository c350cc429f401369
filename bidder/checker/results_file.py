"""Where a grader's results file is written once the student's code has gone, whatever
that code made of the results folder while it ran.

Where the student's code runs as the checker's own user (PrairieLearn's ``ag``, or a
container with no uid to spare), it may have changed the checker's results folder: made
it read-only, or put a folder, a link or a file without write permission where the
results go. The checker, which owns that folder, puts it right before it writes the
results through a temporary file renamed into place.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile

FOLDER_MODE = 0o755


def prepare_results(folder: str, name: str) -> str:
    """The path to write *name* to in *folder*: the folder made if missing and writable
    again if the checker owns it, whatever folder stood at that name moved aside and
    removed (a file or a link there is replaced by the atomic write that follows)."""
    os.makedirs(folder, exist_ok=True)
    info = os.stat(folder)
    if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) != FOLDER_MODE:
        os.chmod(folder, FOLDER_MODE)
    path = os.path.join(folder, name)
    if os.path.isdir(path) and not os.path.islink(path):
        aside = tempfile.mkdtemp(dir=folder, prefix=f".{name}.", suffix=".moved")
        os.replace(path, os.path.join(aside, name))
        shutil.rmtree(aside, ignore_errors=True)
    return path
